package sidecar

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"
)

// The kubelet's event recorder lets one source send 25 events of one type about one object, then
// one more every 5 minutes (k8s.io/client-go tools/record/events_cache.go defaultSpamBurst,
// defaultSpamQPS; getSpamKey leaves out the reason and the message).
const (
	spamBurst  = 25
	spamRefill = 5 * time.Minute
)

// Event is one of the pod's events, as `kubectl get events -o custom-columns=REASON:.reason,MESSAGE:.message` lists it.
type Event struct{ Reason, Message string }

// spamFilter is the recorder's token bucket for one key: full at the first event.
type spamFilter struct {
	started bool
	tokens  float64
	last    time.Duration
}

func (s *spamFilter) allow(at time.Duration) bool {
	if !s.started {
		s.started, s.tokens, s.last = true, spamBurst, at
	}
	s.tokens = min(spamBurst, s.tokens+(at-s.last).Seconds()/spamRefill.Seconds())
	s.last = at
	if s.tokens < 1 {
		return false
	}
	s.tokens--
	return true
}

// WarningEvents are the distinct Warning events kubelet recorded about the proxy by age, in the
// order they were first recorded (`kubectl get events` lists them so): for a proxy whose Envoy
// never initialises, the startup probe refused on 15021 (nothing listens before Envoy's workers
// start); once Envoy went LIVE without configuration (live > 0: that long after each start),
// pilot-agent's 503; for a rejected proxy, kubelet's back-off — and, when a probe happened to
// reach one of its short-lived containers (probed says, for each, in order), the same refused
// probe: BackOff is what tells the cases apart, not the refused probe. podIP is the pod's address,
// pod the pod as kubelet names it (name_namespace(uid)).
func WarningEvents(f Failure, proxy Proxy, age, live time.Duration, podIP, pod string, probed func() bool) []Event {
	probe := proxy.Probe
	var filter spamFilter
	var out []Event
	record := func(at time.Duration, e Event) {
		if !filter.allow(at) {
			return // dropped: never stored, so never listed
		}
		for _, seen := range out {
			if seen == e {
				return // the same event again: its count grows, the list does not
			}
		}
		out = append(out, e)
	}
	refused := Event{"Unhealthy", fmt.Sprintf(`Startup probe failed: Get "http://%s:15021/healthz/ready": dial tcp %s:15021: connect: connection refused`, podIP, podIP)}
	unready := Event{"Unhealthy", "Startup probe failed: HTTP probe failed with statuscode: 503"}
	backOff := Event{"BackOff", "Back-off restarting failed container istio-proxy in pod " + pod}
	for _, run := range Runs(f, proxy, age) {
		if f == Rejected {
			// The probe's worker starts once kubelet sees the container running (PLEG relists
			// every second): a container of 0.8 s is probed, refused, only now and then.
			if probed() && run.Start+rejectedRun/2 <= age {
				record(run.Start+rejectedRun/2, refused)
			}
			if run.BackOff && run.End+sync <= age {
				record(run.End+sync, backOff)
			}
			continue
		}
		for i := 1; i <= probe.Threshold; i++ {
			at := run.Start + time.Duration(i)*probe.Period
			if at > age {
				break
			}
			if live > 0 && at-run.Start > live {
				record(at, unready)
			} else {
				record(at, refused)
			}
		}
	}
	return out
}

// EventsCommand lists the pod's Warning events, reason and message only.
func EventsCommand(pod string) string {
	return "kubectl get events --field-selector involvedObject.name=" + pod + ",type=Warning -o custom-columns=REASON:.reason,MESSAGE:.message"
}

// EventsTable is what EventsCommand prints: kubectl's columns (its tab writer), or, with none,
// kubectl's line for an empty list.
func EventsTable(events []Event, namespace string) []string {
	if len(events) == 0 {
		return []string{"No resources found in " + namespace + " namespace."}
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	fmt.Fprintln(w, "REASON\tMESSAGE")
	for _, e := range events {
		fmt.Fprintf(w, "%s\t%s\n", e.Reason, e.Message)
	}
	w.Flush()
	return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
}

// LastStateCommand shows the proxy's State, Last State, Ready and Restart Count in `kubectl
// describe pod` (only the proxy restarts, so only its block has a Last State).
func LastStateCommand(pod string) string {
	return "kubectl describe pod " + pod + " | grep -B2 -A6 'Last State:'"
}

// LastState is what LastStateCommand prints at the moment; created is when the pod was created.
// Nothing when the proxy has not restarted (grep finds no Last State). pilot-agent exits 0 both
// when Envoy refused its bootstrap and when kubelet's SIGTERM ends it: Completed, exit code 0.
func LastState(m Moment, created time.Time, f Failure) []string {
	if m.Last == nil {
		return nil
	}
	stamp := func(d time.Duration) string { return created.Add(d).UTC().Format(time.RFC1123Z) }
	var b strings.Builder
	// describe's PrefixWriter: two spaces a level, one tab writer (padding 2) for the block.
	w := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	if m.Running {
		fmt.Fprintf(w, "    State:\tRunning\n      Started:\t%s\n", stamp(m.Current.Start))
	} else {
		fmt.Fprintf(w, "    State:\tWaiting\n      Reason:\tCrashLoopBackOff\n")
	}
	fmt.Fprintf(w, "    Last State:\tTerminated\n      Reason:\tCompleted\n      Exit Code:\t0\n")
	fmt.Fprintf(w, "      Started:\t%s\n      Finished:\t%s\n", stamp(m.Last.Start), stamp(m.Last.End))
	fmt.Fprintf(w, "    Ready:\tFalse\n    Restart Count:\t%d\n", m.Restarts)
	w.Flush()
	return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
}
