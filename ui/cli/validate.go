package cli

import (
	"fmt"

	"ist2-boot/ui/render"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/check"
)

// cmdValidate judges an Envoy bootstrap offline, the way `envoy --mode validate -c FILE` does:
// `configuration 'FILE' OK` and exit 0, or one line per problem and exit 1.
func cmdValidate(args []string, sio IO) int {
	g, _, pos, code, ok := parseOnly("validate", args, sio, exactly(1))
	if !ok {
		return code
	}
	file := pos[0]
	// The file is the problem, not the environment: exit 1, in the learner's language.
	data, err := steps.ReadRegularFile(file, check.MaxLearnerFile)
	if err != nil {
		reason := steps.ReadProblem(file, err)
		fmt.Fprintln(sio.Err, "ist2-boot: "+render.Unmarked(reason.In(g.language(sio))))
		return exitNotPass
	}
	r := bootcheck.ValidateWith(data, bootcheck.ForFile(file))
	fmt.Fprint(sio.Out, printable(render.Unmarked(r.ReportIn(file, g.language(sio))))) // the file's own text may hold escapes
	if !r.OK() {
		return exitNotPass
	}
	return exitOK
}
