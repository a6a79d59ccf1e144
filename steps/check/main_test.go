package check

import (
	"os"
	"testing"

	"ist2-boot/steps/steptest"
)

// TestMain removes the test doubles built for this package's tests when they are done.
func TestMain(m *testing.M) {
	code := m.Run()
	steptest.RemoveBuilds()
	os.Exit(code)
}
