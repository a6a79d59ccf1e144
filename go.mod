module ist2-boot

go 1.26

require (
	github.com/aymanbagabas/go-udiff v0.4.1
	gopkg.in/yaml.v3 v3.0.1
)
