package sidecar

import (
	"strconv"
	"time"
)

// The proxy container's life, by kubelet's rules at Kubernetes 1.36 (content/sources.md K9–K14):
//   - a container that exited is restarted at once the first time, then after a back-off counted
//     from its exit, 10 s doubling to 5 minutes (pkg/kubelet/kubelet.go initialCrashLoopBackOff,
//     apis/config/v1beta1 MaxContainerBackOff; kuberuntime_manager.go doBackOff); the back-off
//     starts again from 10 s once a container ran more than 10 minutes (kubelet.go HasExpiredFunc);
//   - a container killed for its startup probe is started again in the same sync, without
//     back-off: doBackOff looks only at an exited container, and the one before exited ~10
//     minutes earlier (kuberuntime_manager.go computePodActions, doBackOff).
const (
	// firstStart: the proxy starts this long after the pod is created (scheduled, istio-init run).
	firstStart = 3 * time.Second
	// rejectedRun: pilot-agent starts, Envoy refuses its bootstrap, both exit.
	rejectedRun = 800 * time.Millisecond
	// sync: how long kubelet takes to notice an exit and act on it (PLEG relists every second).
	sync = time.Second
	// drain: a classic proxy's answer to SIGTERM, terminationDrainDuration's default (5 s), before
	// pilot-agent stops Envoy and exits 0 (pkg/envoy/agent.go terminate). A native one's preStop
	// hook has drained it already (pilot-agent request POST drain → DrainNow), so SIGTERM ends it
	// at once ("Agent already drained, exiting immediately"): nativeStop, the hook's own time.
	drain      = 5 * time.Second
	nativeStop = time.Second

	backOffFirst = 10 * time.Second
	backOffMax   = 5 * time.Minute
	backOffReset = 10 * time.Minute
)

// Probe is the proxy's startup probe as injection writes it: every Period, killed after
// Threshold failures in a row.
type Probe struct {
	Period    time.Duration
	Threshold int
}

// Proxy is the pod's proxy as injection wrote it: its form and its startup probe.
type Proxy struct {
	Shape Shape
	Probe Probe
}

// stop is how long the proxy takes to end once kubelet kills it.
func (p Proxy) stop() time.Duration {
	if p.Shape == Native {
		return nativeStop
	}
	return drain
}

// Run is one proxy container: when it started and, if it has, ended (since the pod was created).
type Run struct {
	Start, End time.Duration
	Ended      bool
	// BackOff: kubelet waited (CrashLoopBackOff) before starting the next one.
	BackOff bool
}

// Runs are the proxy containers a pod with this failure has had up to age: by kubelet's rules,
// rejected proxies exit at once and are restarted with back-off; proxies that never become ready
// are killed after their startup probe's failures and restarted at once.
func Runs(f Failure, proxy Proxy, age time.Duration) []Run {
	var runs []Run
	// kubelet's back-off entry for the container (flowcontrol.Backoff): the current back-off and
	// when Next last updated it; none until the first exit.
	var backOff, updated time.Duration
	for start := firstStart; start <= age; {
		length := rejectedRun
		if f == NotReady {
			length = time.Duration(proxy.Probe.Threshold)*proxy.Probe.Period + proxy.stop()
		}
		run := Run{Start: start, End: start + length}
		if run.End > age {
			runs = append(runs, run)
			break
		}
		run.Ended = true
		next := run.End + sync
		if f == Rejected {
			if backOff != 0 && run.End-updated <= backOffReset {
				// IsInBackOffSince: wait out the back-off from the exit; then Next doubles it.
				if next-run.End < backOff {
					next, run.BackOff = run.End+backOff, true
				}
				backOff = min(2*backOff, backOffMax)
			} else {
				backOff = backOffFirst // Next on a new (or expired) entry: restarted now
			}
			updated = next
		}
		runs = append(runs, run)
		start = next
	}
	return runs
}

// Moment is the proxy as kubelet reports it at one moment: the container now (running, or
// waiting in back-off), the one before it, and how many restarts.
type Moment struct {
	Age      time.Duration
	Restarts int
	Running  bool // the current container runs (else it waits to be started again)
	Current  Run  // the running container, or the last one that ended
	Last     *Run // the container before the current one (describe's Last State), nil if none
}

// At is the proxy at age.
func At(f Failure, proxy Proxy, age time.Duration) Moment {
	runs := Runs(f, proxy, age)
	m := Moment{Age: age}
	if len(runs) == 0 {
		return m
	}
	cur := runs[len(runs)-1]
	m.Restarts, m.Current, m.Running = len(runs)-1, cur, !cur.Ended
	if cur.Ended {
		m.Last = &runs[len(runs)-1]
	} else if len(runs) > 1 {
		m.Last = &runs[len(runs)-2]
	}
	return m
}

// Pod is the pod at that moment, for kubectl's row.
func (m Moment) Pod(name string, shape Shape, f Failure) Pod {
	p := NewPod(name, shape, f, m.Restarts, "", HumanDuration(m.Age))
	if m.Last != nil {
		p.LastAgo = HumanDuration(m.Age - m.Last.End)
	}
	if f == Rejected && m.Running { // the second or so between a start and Envoy's refusal
		p.setProxy(func(s *status) { s.running, s.waiting = true, "" })
	}
	return p
}

// HumanDuration writes a duration as kubectl's AGE and "(… ago)" do
// (k8s.io/apimachinery@v0.36.1 pkg/util/duration/duration.go HumanDuration).
func HumanDuration(d time.Duration) string {
	s := int(d.Seconds())
	switch {
	case s < -1:
		return "<invalid>"
	case s < 0:
		return "0s"
	case s < 120:
		return itoa(s) + "s"
	}
	minutes := int(d / time.Minute)
	switch {
	case minutes < 10:
		if s%60 == 0 {
			return itoa(minutes) + "m"
		}
		return itoa(minutes) + "m" + itoa(s%60) + "s"
	case minutes < 180:
		return itoa(minutes) + "m"
	}
	hours := int(d / time.Hour)
	switch {
	case hours < 8:
		if minutes%60 == 0 {
			return itoa(hours) + "h"
		}
		return itoa(hours) + "h" + itoa(minutes%60) + "m"
	case hours < 48:
		return itoa(hours) + "h"
	case hours < 24*8:
		if hours%24 == 0 {
			return itoa(hours/24) + "d"
		}
		return itoa(hours/24) + "d" + itoa(hours%24) + "h"
	case hours < 24*365*2:
		return itoa(hours/24) + "d"
	case hours < 24*365*8:
		if dy := hours / 24 % 365; dy != 0 {
			return itoa(hours/24/365) + "y" + itoa(dy) + "d"
		}
		return itoa(hours/24/365) + "y"
	}
	return itoa(hours/24/365) + "y"
}

func itoa(n int) string { return strconv.Itoa(n) }
