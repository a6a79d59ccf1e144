package steps

import (
	"strings"
	"time"

	"ist2-boot/steps/sidecar"
)

// sidecarExamples are what the pages quote of a real sidecar, made by the same code the drills
// use (steps/sidecar), so a page and a drill never disagree: `kubectl get pod` for each pod form
// and failure, and the log of a proxy whose Envoy refused its bootstrap for the lab's typo
// (params.typo_cluster). Each is a fenced block; the page's prose says which voice it is in.
func (l *Lesson) sidecarExamples() map[string]string {
	block := func(cmd string, lines ...string) string {
		return "```\n$ " + cmd + "\n" + strings.Join(lines, "\n") + "\n```"
	}
	pods := func(shape sidecar.Shape, f sidecar.Failure) string {
		restarts, ago := 0, ""
		if f == sidecar.Rejected {
			restarts, ago = 4, "25s"
		}
		return block("kubectl get pod POD", sidecar.Table(sidecar.NewPod("POD", shape, f, restarts, ago, "3m")))
	}
	at := time.Date(2026, 12, 1, 9, 0, 0, 123456000, time.UTC)
	msg := "Unknown gRPC client cluster '" + l.Params["typo_cluster"] + "'"
	return map[string]string{
		"{{POD_CLASSIC_REJECTED}}":  pods(sidecar.Classic, sidecar.Rejected),
		"{{POD_NATIVE_REJECTED}}":   pods(sidecar.Native, sidecar.Rejected),
		"{{POD_CLASSIC_NOT_READY}}": pods(sidecar.Classic, sidecar.NotReady),
		"{{POD_NATIVE_NOT_READY}}":  pods(sidecar.Native, sidecar.NotReady),
		"{{LOG_REJECTED}}":          block("kubectl logs POD -c istio-proxy --previous --tail 4", sidecar.Rejection(at, 21, sidecar.DefaultLogFormat, msg)...),
		"{{LOG_NOT_READY}}":         block("kubectl logs POD -c istio-proxy --tail 1", sidecar.NotReadyLine(at)),
	}
}
