package sidecar

import (
	"fmt"
	"strings"
	"text/tabwriter"
)

// Shape is where injection put istio-proxy.
type Shape string

const (
	// Classic: istio-proxy is one of the pod's containers (what offline `istioctl kube-inject`
	// writes unless ENABLE_NATIVE_SIDECARS=true or the pod's sidecar.istio.io/nativeSidecar
	// annotation says so: it has no cluster to ask the kubelets' version).
	Classic Shape = "classic"
	// Native: istio-proxy is an init container with restartPolicy: Always, after istio-init —
	// what the webhook does when every kubelet is 1.33 or later (ENABLE_NATIVE_SIDECARS=auto,
	// pkg/kube/inject/webhook.go DetectNativeSidecar).
	Native Shape = "native"
)

// Failure is how the proxy fails.
type Failure int

const (
	// Rejected: Envoy exits at start; pilot-agent, its parent and the container's process, logs
	// it and exits 0, so kubelet restarts the container with back-off: CrashLoopBackOff.
	Rejected Failure = iota
	// NotReady: Envoy runs, no configuration arrives; the readiness (classic) or startup (native)
	// probe keeps failing.
	NotReady
)

// status is a container's status, as much of it as printPod reads.
type status struct {
	name        string
	restartable bool // an init container with restartPolicy: Always
	restarts    int
	waiting     string // State.Waiting.Reason
	running     bool
	exited0     bool // State.Terminated with exit code 0
	started     bool
	ready       bool
}

// Pod is a pod of one application container and its sidecar, as kubelet reports it a few minutes
// after it was created, with the proxy failing as failure says.
type Pod struct {
	Name     string
	Shape    Shape
	Failure  Failure
	Restarts int    // the proxy's restarts so far (Rejected)
	LastAgo  string // since the last one ended, as kubectl writes durations: "25s"
	Age      string // "3m"
	init     []status
	main     []status
}

// NewPod builds the statuses kubelet would report.
func NewPod(name string, shape Shape, failure Failure, restarts int, lastAgo, age string) Pod {
	p := Pod{Name: name, Shape: shape, Failure: failure, Restarts: restarts, LastAgo: lastAgo, Age: age}
	proxy := status{name: "istio-proxy", restartable: shape == Native, running: true, restarts: restarts}
	if failure == Rejected {
		proxy.running, proxy.waiting = false, "CrashLoopBackOff"
	}
	app := status{name: "app", running: true, ready: true, started: true}
	p.init = []status{{name: "istio-init", exited0: true}}
	if shape == Native {
		// The app does not start until the proxy's startupProbe passes, which it never does here.
		p.init = append(p.init, proxy)
		app = status{name: "app", waiting: "PodInitializing"}
		p.main = []status{app}
		return p
	}
	p.main = []status{proxy, app}
	return p
}

// Row is the pod's READY, STATUS and RESTARTS as kubectl's printPod computes them
// (k8s.io/kubernetes v1.36.1 pkg/printers/internalversion/printers.go:924-1066), for the
// statuses this model has.
func (p Pod) Row() (ready, reason, restarts string) {
	total := len(p.main)
	readyN, restartN, restartableRestarts := 0, 0, 0
	reason = "Running"
	initializing := false
	for i, c := range p.init {
		restartN += c.restarts
		if c.restartable {
			total++
			restartableRestarts += c.restarts
		}
		switch {
		case c.exited0:
			continue
		case c.restartable && c.started:
			if c.ready {
				readyN++
			}
			continue
		case c.waiting != "" && c.waiting != "PodInitializing":
			reason = "Init:" + c.waiting
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(p.init))
		}
		initializing = true
		break
	}
	if !initializing {
		restartN = restartableRestarts
		for i := len(p.main) - 1; i >= 0; i-- {
			c := p.main[i]
			restartN += c.restarts
			switch {
			case c.waiting != "":
				reason = c.waiting
			case c.ready && c.running:
				readyN++
			}
		}
	}
	restarts = fmt.Sprint(restartN)
	if restartN != 0 && p.LastAgo != "" {
		restarts = fmt.Sprintf("%d (%s ago)", restartN, p.LastAgo)
	}
	return fmt.Sprintf("%d/%d", readyN, total), reason, restarts
}

// Table is `kubectl get pod` for the pods: kubectl's columns, aligned by its tab writer (minimum
// width 6, padding 3: k8s.io/cli-runtime pkg/printers/tabwriter.go).
func Table(pods ...Pod) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	fmt.Fprintln(w, "NAME\tREADY\tSTATUS\tRESTARTS\tAGE")
	for _, p := range pods {
		ready, reason, restarts := p.Row()
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", p.Name, ready, reason, restarts, p.Age)
	}
	w.Flush()
	return strings.TrimRight(b.String(), "\n")
}

// setProxy changes the proxy's status, wherever the pod's form put it.
func (p *Pod) setProxy(change func(*status)) {
	for _, list := range [][]status{p.init, p.main} {
		for i := range list {
			if list[i].name == "istio-proxy" {
				change(&list[i])
			}
		}
	}
}
