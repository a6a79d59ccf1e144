package check

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// The parts of a Deployment the lab reads: enough of the Kubernetes API to judge injection.
type deployment struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name      string `yaml:"name"`
		Namespace string `yaml:"namespace"`
	} `yaml:"metadata"`
	Spec struct {
		Template struct {
			Spec podSpec `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type podSpec struct {
	Containers     []container `yaml:"containers"`
	InitContainers []container `yaml:"initContainers"`
	Volumes        []volume    `yaml:"volumes"`
}

type container struct {
	Name         string        `yaml:"name"`
	Args         []string      `yaml:"args"`
	Env          []envVar      `yaml:"env"`
	VolumeMounts []volumeMount `yaml:"volumeMounts"`
}

type envVar struct {
	Name      string `yaml:"name"`
	Value     string `yaml:"value"`
	ValueFrom *struct {
		FieldRef *struct {
			FieldPath string `yaml:"fieldPath"`
		} `yaml:"fieldRef"`
	} `yaml:"valueFrom"`
}

type volumeMount struct {
	Name      string `yaml:"name"`
	MountPath string `yaml:"mountPath"`
}

type volume struct {
	Name      string `yaml:"name"`
	Projected *struct {
		Sources []struct {
			ServiceAccountToken *struct {
				Audience string `yaml:"audience"`
				Path     string `yaml:"path"`
			} `yaml:"serviceAccountToken"`
		} `yaml:"sources"`
	} `yaml:"projected"`
	ConfigMap *struct {
		Name string `yaml:"name"`
	} `yaml:"configMap"`
}

// Namespace is the Deployment's namespace, "default" when it names none (as kubectl applies it).
func (d *deployment) Namespace() string {
	if d.Metadata.Namespace == "" {
		return "default"
	}
	return d.Metadata.Namespace
}

// container finds a container by name among the containers and the init containers: a native
// sidecar's istio-proxy is an init container with restartPolicy: Always.
func (p *podSpec) container(name string) *container {
	for _, list := range [][]container{p.InitContainers, p.Containers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}

// listOf names the list that holds the container: "initContainers" (a native sidecar) or
// "containers".
func (p *podSpec) listOf(name string) string {
	for _, c := range p.InitContainers {
		if c.Name == name {
			return "initContainers"
		}
	}
	return "containers"
}

func (p *podSpec) volume(name string) *volume {
	for i := range p.Volumes {
		if p.Volumes[i].Name == name {
			return &p.Volumes[i]
		}
	}
	return nil
}

func (c *container) env(name string) *envVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

func (c *container) mount(volume string) *volumeMount {
	for i := range c.VolumeMounts {
		if c.VolumeMounts[i].Name == volume {
			return &c.VolumeMounts[i]
		}
	}
	return nil
}

// argAfter is the argument following flag ("--domain X"), and argValue the value of "--flag=X".
func (c *container) argAfter(flag string) (string, bool) {
	for i, a := range c.Args {
		if a == flag && i+1 < len(c.Args) {
			return c.Args[i+1], true
		}
	}
	return "", false
}

func (c *container) argValue(prefix string) (string, bool) {
	for _, a := range c.Args {
		if len(a) > len(prefix) && a[:len(prefix)] == prefix {
			return a[len(prefix):], true
		}
	}
	return "", false
}

// shown is how the lab writes an env var: its value, or fieldRef:<fieldPath> when the pod fills it.
func (e *envVar) shown() string {
	if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
		return "fieldRef:" + e.ValueFrom.FieldRef.FieldPath
	}
	return e.Value
}

// deploymentsIn decodes every document of a multi-document YAML and keeps the Deployments. Empty
// documents (istioctl ends with one) are skipped.
func deploymentsIn(text string) ([]deployment, error) {
	dec := yaml.NewDecoder(bytes.NewReader([]byte(text)))
	var out []deployment
	for n := 1; ; n++ {
		var node yaml.Node
		err := dec.Decode(&node)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(node.Content) == 0 || node.Content[0].Kind != yaml.MappingNode {
			if len(node.Content) > 0 && node.Content[0].Tag != "!!null" {
				return nil, fmt.Errorf("document %d (line %d) is not a mapping", n, node.Line)
			}
			continue
		}
		var d deployment
		if err := node.Decode(&d); err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		if d.Kind == "Deployment" {
			out = append(out, d)
		}
	}
}
