package drill

import (
	"strings"
	"unicode"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/sidecar"
)

// explainPushed is the class's explanation for a push Envoy refused: what the pod shows and
// why, without naming the types (the next question).
func (d *Drill) explainPushed() i18n.Msg {
	ready, status, restarts := podColumns(d.Evidence.Pod)
	restarted := i18n.Ref("drill.not_ready.restarted")
	if n, _, _ := strings.Cut(restarts, " "); n == "0" {
		restarted = i18n.Ref("drill.config_rejected.not_restarted")
	}
	// The source is the validator, judging the pushed resources rather than the bootstrap.
	return i18n.M(d.Evidence.Key, "admin", d.Evidence.Admin, "ready", ready, "status", status, "restarts", restarts,
		"restarted", restarted, "source", i18n.Ref("drill.source.pushed"),
		"log_format", i18n.Ref("drill.log_format."+d.Evidence.LogFormat))
}

// judgePushed judges the learner's where for a refused push: the types named — CDS, LDS (or
// cluster, listener, a type URL), both — or the name of a refused resource, which names its type.
// Right when the types named are the types refused.
func (d *Drill) judgePushed(answer string) Verdict {
	named := d.pushedNamed(answer)
	rejected := d.Pushed.Rejected()
	right := len(named) == len(rejected)
	for _, t := range rejected {
		right = right && named[t]
	}
	return Verdict{Right: right, Why: d.pushedWhy()}
}

// NamesPushed: the answer names a type (or a refused resource) at all — else it is asked again
// rather than judged wrong (ko r8 KO-08).
func (d *Drill) NamesPushed(answer string) bool { return len(d.pushedNamed(answer)) > 0 }

// bothWords say "both" in the learner's words, as the question invites them (ko r8 KO-01).
var bothWords = []string{"both", "둘", "모두", "양쪽", "两", "都", "全部", "両方", "どちらも", "すべて", "全て"}

// pushedNamed is the set of types the answer names.
func (d *Drill) pushedNamed(answer string) map[string]bool {
	a := strings.TrimSpace(answer)
	named := map[string]bool{}
	for _, t := range d.Pushed.Types {
		for _, ref := range t.Refused {
			if a == ref.Name {
				named[t.TypeURL] = true
			}
		}
	}
	if len(named) == 0 {
		for _, w := range strings.FieldsFunc(strings.ToLower(a), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			switch w {
			case "cds", "cluster", "clusters":
				named[sidecar.ClusterType] = true
			case "lds", "listener", "listeners":
				named[sidecar.ListenerType] = true
			}
		}
		for _, w := range bothWords {
			if strings.Contains(strings.ToLower(a), w) {
				named[sidecar.ClusterType], named[sidecar.ListenerType] = true, true
			}
		}
	}
	return named
}

// pushedWhy says which pushes Envoy refused and why, in its words, and what pilot-agent makes of
// the counters: its first sentence depends on the successful counts only (ConfigStatus), so the
// rejected counts at the end of its line are what tells a refused push from no push.
func (d *Drill) pushedWhy() i18n.Msg {
	args := []string{"field", d.Field}
	if len(d.Pushed.Rejected()) > 1 { // both types, in words: not "the CDS+LDS response" (ja r9 L10)
		args = []string{"field", i18n.Ref("drill.both_types")}
	}
	for _, lang := range i18n.Langs {
		// One sentence listing every refused resource, not one sentence each (ja r9 L10).
		var items []string
		for _, t := range d.Pushed.Types {
			for _, ref := range t.Refused {
				items = append(items, i18n.T(lang, "drill.pushed.refused_item", map[string]string{"type": typeWords[t.TypeURL], "name": ref.Name,
					"reason": strings.TrimSuffix(ref.Reason, ".")})) // quoted in a sentence with its own full stop
			}
		}
		refused := ""
		if len(items) > 0 {
			refused = i18n.T(lang, "drill.pushed.refusal", map[string]string{"items": i18n.ListOf(lang, items)})
		}
		args = append(args, "refused_"+string(lang), refused)
	}
	var counts sidecar.XDSCounts
	if d.Evidence.Counts != nil {
		counts = *d.Evidence.Counts
	}
	sentence, _, _ := strings.Cut(counts.ConfigStatus(), ": cds updates")
	note := "drill.pushed.some_applied"
	if counts.CDSSuccess == 0 && counts.LDSSuccess == 0 {
		note = "drill.pushed.none_applied"
	}
	return i18n.M("drill.pushed_is", append(args, "sentence", sentence, "counts", counts.String(), "note", i18n.Ref(note))...)
}
