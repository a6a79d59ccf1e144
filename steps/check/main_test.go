package check

import (
	"testing"

	"ist2-boot/steps/steptest"
)

func TestMain(m *testing.M) { steptest.Main(m) }
