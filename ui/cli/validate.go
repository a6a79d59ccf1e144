package cli

import (
	"fmt"
	"os"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/check"
)

// cmdValidate judges an Envoy bootstrap offline, the way `envoy --mode validate -c FILE` does:
// `configuration 'FILE' OK` and exit 0, or one line per problem and exit 1.
func cmdValidate(args []string, sio IO) int {
	var g global
	fs := newFlags("validate", "validate FILE", sio, &g)
	pos, code, ok := parse(fs, args, exactly(1))
	if !ok {
		return code
	}
	file := pos[0]
	data, err := os.ReadFile(file)
	if err != nil {
		return g.fail(sio, err)
	}
	if len(data) > check.MaxLearnerFile {
		return g.fail(sio, fmt.Errorf("%s is larger than 1 MiB; a bootstrap is a few KiB", file))
	}
	r := bootcheck.Validate(data)
	fmt.Fprint(sio.Out, r.Report(file))
	if !r.OK() {
		return exitNotPass
	}
	return exitOK
}
