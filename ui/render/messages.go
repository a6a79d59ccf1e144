package render

import (
	"strings"
	"unicode"
)

// proseSpans lets a code span that quotes a program's message ("Container istio-proxy failed
// startup probe, will be restarted") part at its spaces as prose does, so that the line before it
// is not left short when it moves down whole (ko r20 M1). A command, a path, a field or a value
// of two words stays one word, as every code span does.
func proseSpans(us []unit, tiers []tier) {
	for i := 0; i < len(us); {
		if !us[i].code {
			i++
			continue
		}
		j := i
		for j < len(us) && us[j].code {
			j++
		}
		if isMessage(us[i:j]) {
			for k := i + 1; k < j; k++ {
				// Not before the message's last word when it is a number: 「exit status⏎1 を」
				// read as a count (ja r26 M2).
				if us[k-1].text == " " && us[k].text != " " && tiers[k] > tierBreak && tiers[k] < tierAny && !(isDigits(us[k].text) && k == j-1) {
					tiers[k] = tierBreak
				}
			}
		}
		i = j
	}
}

// commandWords are the programs a code span may start with: such a span is a command line.
var commandWords = map[string]bool{"kubectl": true, "curl": true, "istioctl": true, "jq": true, "yq": true,
	"envoy": true, "ist2-boot": true, "grep": true, "sed": true, "cat": true, "echo": true, "kill": true,
	"printf": true, "mv": true, "rm": true, "pilot-agent": true, "go": true, "tmux": true, "cd": true,
	"pkill": true, "setsid": true, "nohup": true, "brew": true, "apt": true, "apt-get": true, "sudo": true,
	"bash": true, "sh": true, "export": true, "tar": true, "chmod": true, "ls": true, "ps": true, "git": true,
	"source": true, ".": true}

// isMessage: the span reads as a sentence a program printed — three words or more, none of a
// shell's or a path's characters but quotes and placeholders, not starting with a program's name.
func isMessage(us []unit) bool {
	var b strings.Builder
	for _, u := range us {
		b.WriteString(u.text)
	}
	text := strings.TrimSpace(b.String())
	words := strings.Fields(text)
	if len(words) < 3 || commandWords[words[0]] || strings.Contains(text, "--") {
		return false
	}
	for _, w := range words {
		// A flag, a shell's operator or a process substitution: a command line (zh, ko r22 M1;
		// ja r23 M2: 「source <(ist2-boot completion⏎bash)」).
		if strings.HasPrefix(w, "-") || w == "&" || w == "&&" || strings.HasPrefix(w, "<(") {
			return false
		}
	}
	lettered := 0 // words, not a value with its unit ("1 (5m54s ago)": ja r22 L17)
	for _, w := range words {
		if r := []rune(w)[0]; unicode.IsLetter(r) {
			lettered++
		}
	}
	if lettered < 3 {
		return false
	}
	// A message may quote a name ('istiod-xds') or hold a placeholder (<理由>): those stay in.
	return !strings.ContainsAny(text, ";|$=`\"{}[]/\\~")
}
