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
	// A pod looked at three minutes in, by kubelet's rules (steps/sidecar timeline): the one whose
	// Envoy never initialises has only the refused probe; the rejected one kubelet's back-off.
	// {{POD_NAME}} and {{NAMESPACE}} are the lab's, put in by pageValues after these.
	probe := sidecar.Probe{Period: time.Second, Threshold: 600}
	pods := func(shape sidecar.Shape, f sidecar.Failure) string {
		m := sidecar.At(f, sidecar.Proxy{Shape: shape, Probe: probe}, 3*time.Minute)
		return block("kubectl get pod POD", sidecar.Table(m.Pod("POD", shape, f)))
	}
	at := time.Date(2026, 12, 1, 9, 0, 0, 123456000, time.UTC)
	msg := "Unknown gRPC client cluster '" + l.Params["typo_cluster"] + "'"
	events := func(f sidecar.Failure) string {
		never := func() bool { return false }
		e := sidecar.WarningEvents(f, sidecar.Proxy{Shape: sidecar.Classic, Probe: probe}, 3*time.Minute, 0, l.Params["pod_ip"], "{{POD_NAME}}_{{NAMESPACE}}(POD_UID)", never)
		return block(sidecar.EventsCommand("POD"), sidecar.EventsTable(e, "{{NAMESPACE}}")...)
	}
	return map[string]string{
		"{{EVENTS_NOT_READY}}":      events(sidecar.NotReady),
		"{{EVENTS_REJECTED}}":       events(sidecar.Rejected),
		"{{ADMIN_NOT_READY}}":       block("kubectl exec POD -c istio-proxy -- curl -s localhost:15000/ready", "PRE_INITIALIZING"),
		"{{POD_CLASSIC_REJECTED}}":  pods(sidecar.Classic, sidecar.Rejected),
		"{{POD_NATIVE_REJECTED}}":   pods(sidecar.Native, sidecar.Rejected),
		"{{POD_CLASSIC_NOT_READY}}": pods(sidecar.Classic, sidecar.NotReady),
		"{{POD_NATIVE_NOT_READY}}":  pods(sidecar.Native, sidecar.NotReady),
		// A pod's Envoy logs this refusal in Istio's format (it comes after parsing, P6, P17); the
		// lab's bootstrap, which has no application_log_config, would log it in Envoy's default.
		"{{LOG_REJECTED_POD}}": block("kubectl logs POD -c istio-proxy --previous --tail 4", sidecar.Rejection(at, 21, sidecar.IstioLogFormat, msg)...),
		"{{LOG_REJECTED}}":     block("kubectl logs POD -c istio-proxy --previous --tail 4", sidecar.Rejection(at, 21, sidecar.DefaultLogFormat, msg)...),
		// Only once Envoy went LIVE without configuration (the initial_fetch_timeout trap) does a
		// probe reach pilot-agent, which then logs why it is not ready.
		"{{LOG_NOT_READY}}": block("kubectl logs POD -c istio-proxy | grep 'NOT ready' | head -n 1", sidecar.NotReadyLine(at.Add(31*time.Second), sidecar.XDSCounts{})),
	}
}
