package render

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// The shell blocks of every page (the intro's and each section's reference commands), folded
// for each width, paste back as the script they show: every fold is a line continuation the
// shell undoes (or a comment going on as a comment), so joined back they read as the source,
// and bash parses them. A fold that cannot be pasted back (inside quotes) is marked ↪, and
// none is needed from 60 columns on.
func TestFoldedCommandsPasteAsWritten(t *testing.T) {
	lesson := steptest.Lesson(t)
	env := labEnv
	bash, _ := exec.LookPath("bash")
	for _, id := range lesson.PageIDs() {
		for _, lang := range i18n.Langs { // the commands' comments are in the learner's language
			md, err := lesson.Prose(id, lang, env)
			if err != nil {
				t.Fatal(err)
			}
			for n, block := range shellBlocks(md) {
				for _, width := range typesetWidths {
					codeWidth := width - glamourMargin - 2*codeIndent - 3
					folded := strings.Split(foldCodeBlocks("```sh\n"+block+"\n```", codeWidth), "\n")
					folded = folded[1 : len(folded)-1]
					text := strings.Join(folded, "\n")
					where := fmt.Sprintf("%s %s block %d width %d", id, lang, n+1, width)
					for _, l := range folded {
						if w := len([]rune(l)); w > codeWidth {
							t.Errorf("%s: %d wide: %q", where, w, l)
						}
					}
					if cuts := strings.Count(text, cutMark); cuts > 0 && width >= 60 {
						t.Errorf("%s: %d folds that do not paste back:\n%s", where, cuts, text)
					}
					if got, want := pasted(text), pasted(block); got != want {
						t.Errorf("%s: pasted back it reads\n%s\nnot\n%s", where, got, want)
					}
					if bash != "" && !strings.Contains(text, cutMark) {
						cmd := exec.Command(bash, "-n")
						cmd.Stdin = strings.NewReader(text)
						if out, err := cmd.CombinedOutput(); err != nil {
							t.Errorf("%s: bash -n: %v %s\n%s", where, err, out, text)
						}
					}
				}
			}
		}
	}
}

// shellBlocks are the bodies of md's ```sh blocks.
func shellBlocks(md string) []string {
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)\n```").FindAllStringSubmatch(md, -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// pasted is a script as the shell reads it, for comparing: line continuations joined, comments
// going on over lines joined, ↪ cuts joined, runs of spaces as one.
func pasted(s string) string {
	s = regexp.MustCompile(`\\\n\s*`).ReplaceAllString(s, " ")
	s = regexp.MustCompile(`\n\s*`+cutMark).ReplaceAllString(s, "")
	s = regexp.MustCompile(`(#[^\n]*)\n\s*# `).ReplaceAllString(s, "$1 ")
	for prev := ""; prev != s; {
		prev, s = s, regexp.MustCompile(`(#[^\n]*)\n\s*# `).ReplaceAllString(s, "$1 ")
	}
	s = regexp.MustCompile(` +`).ReplaceAllString(s, " ")
	// In a comment set by the pages' breaker, a line may end at a Chinese or Japanese character
	// with no space to give back: spaces beside such characters are not compared.
	cjk := regexp.MustCompile(` ?([\p{Han}\p{Hiragana}\p{Katakana}\x{3000}-\x{303F}\x{30FC}\x{FF00}-\x{FFEF}]) ?`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if at := strings.Index(l, "# "); at >= 0 {
			lines[i] = l[:at] + cjk.ReplaceAllString(l[at:], "$1")
		}
	}
	return strings.Join(lines, "\n")
}

// A line inside a quoted string opened on a line before (a yq program over several lines) is not
// continued with a backslash, which would be the program's own character (ja r7 H2).
func TestNoContinuationInsideAStringFromAnEarlierLine(t *testing.T) {
	block := "```sh\nN=\"$1\" yq \"$dep\"' | .spec\n  | select(.name==strenv(N)) | .value | .other | .more' inject.yaml\n```"
	out := foldCodeBlocks(block, 40)
	for _, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(l, continued) {
			t.Errorf("a continuation inside the quotes:\n%s", out)
		}
	}
}

// A path longer than the line is cut after a slash, not inside a file's name (zh r7 M14).
func TestLongPathFoldsAtASlash(t *testing.T) {
	line := "2026-12-01T09:15:33.399777Z warning envoy config external/envoy/source/extensions/config_subscription/grpc/grpc_subscription_impl.cc:… gRPC"
	for _, w := range []int{50, 60, 76} {
		out := foldWords(line, w)
		for i := 0; i+1 < len(out); i++ {
			// A cut inside the path (no space there in the line) comes after a slash.
			tail, head := out[i][len(out[i])-1:], strings.TrimPrefix(out[i+1], cutMark)[:1]
			if strings.Contains(line, tail+head) && tail != "/" {
				t.Errorf("width %d: %q", w, out)
			}
		}
	}
}

// A command shown as text parts before its pipe, never inside a quoted pattern (zh r9 M7).
func TestFoldWordsKeepsAQuotedPattern(t *testing.T) {
	lines := foldWords("$ kubectl logs POD -c istio-proxy | grep 'NOT ready' | head -n 1", 56)
	for _, l := range lines {
		if strings.Count(l, "'")%2 != 0 {
			t.Errorf("a quoted pattern split: %q", lines)
		}
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, cutMark+"|") {
			t.Errorf("not parted before a pipe: %q", lines)
		}
	}
}

// A kubectl pod table is clipped, not folded: a folded row would no longer line up with its
// header (ja r11 M4).
func TestPodTablesAreClippedNotFolded(t *testing.T) {
	md := "```\n$ kubectl get pod POD\nNAME   READY   STATUS                  RESTARTS      AGE\nPOD    0/2     Init:CrashLoopBackOff   5 (21s ago)   3m\n\n$ kubectl logs POD -c istio-proxy | grep 'NOT ready' | head -n 1\n```\n"
	got := foldCodeBlocks(md, 48)
	table, rest, _ := strings.Cut(got, "\n\n")
	for _, l := range strings.Split(table, "\n") {
		if strings.Contains(l, cutMark) || xansi.StringWidth(l) > 48 {
			t.Errorf("line %q in\n%s", l, got)
		}
	}
	// The next command in the same block is folded, not clipped (zh r12 M8).
	if strings.Contains(rest, "…") || !strings.Contains(rest, cutMark) {
		t.Errorf("the command after the table:\n%s", rest)
	}
	if !strings.Contains(got, "RESTARTS") || !strings.Contains(got, "…") {
		t.Errorf("not clipped:\n%s", got)
	}
}

// A learner's own notes, shown as written, keep a number with its counter (ja r11 M5).
func TestNotesKeepANumberWithItsCounter(t *testing.T) {
	md := "```markdown\n- 起動プローブで約 10 分ごとに再起動されるので、再起動回数だけで判断しない\n```\n"
	for width := 20; width <= 40; width++ {
		got := foldCodeBlocks(md, width)
		if strings.Contains(got, "約 10\n") || strings.Contains(got, "約\n") {
			t.Errorf("width %d:\n%s", width, got)
		}
	}
}

// zh r15 M1: a path longer than the line, with no shell break left, parts after a slash, not
// inside the file's name ("…/work/bo ⏎↪ otstrap.yaml").
func TestALongPathInACodeBlockPartsAtASlash(t *testing.T) {
	md := "```sh\nist2-boot validate /work/r15/zh/home/.local/share/ist2-boot/work/bootstrap.yaml\n```\n"
	for _, width := range []int{40, 50, 56} {
		out := foldCodeBlocks(md, width)
		if !strings.Contains(out, "bootstrap.yaml") {
			t.Errorf("at %d the file's name is cut:\n%s", width, out)
		}
	}
}

// pilot-agent's counters part after "; ", between CDS's and LDS's, not inside one (zh r19 M2),
// and a counter's name is not parted from its numbers ("cds updates:⏎0 successful": ko r23 M3),
// at every width from 58 columns, for both of its sentences.
func TestFoldWordsPartsCountersAfterTheSemicolon(t *testing.T) {
	for _, line := range []string{
		"2026-12-01T09:35:39.336932Z\twarn\tEnvoy proxy is NOT ready: config received from XDS server, but was rejected: cds updates: 0 successful, 1 rejected; lds updates: 0 successful, 0 rejected",
		"2026-12-01T09:35:39.336932Z\twarn\tEnvoy proxy is NOT ready: config not received from XDS server (is Istiod running?): cds updates: 0 successful, 1 rejected; lds updates: 0 successful, 0 rejected",
	} {
		for w := 58; w <= 120; w++ {
			lines := foldWords(expandTabs(line), w)
			joined := strings.Join(lines, "\n")
			if !strings.Contains(joined, "cds updates: 0 successful, 1 rejected;") || !strings.Contains(joined, "lds updates: 0 successful, 0 rejected") {
				t.Errorf("width %d: a counter parted:\n%s", w, joined)
			}
		}
	}
}

// zh r20 M1: a flag's value longer than the line parts after a comma, not inside a word.
func TestAShellWordPartsAfterAComma(t *testing.T) {
	line := "kubectl get events --field-selector involvedObject.name=payments-6d5f9,type=Warning -o custom-columns=REASON:.reason,MESSAGE:.message"
	for _, w := range []int{40, 44, 48, 52, 56} {
		sh := shellState{}
		for _, l := range sh.fold(line, w) {
			if strings.HasSuffix(l, ".messa") || strings.HasSuffix(l, "MESSAG") || strings.HasSuffix(l, ".rea") {
				t.Errorf("width %d: cut inside a word: %q", w, sh.fold(line, w))
				break
			}
		}
	}
}

// A short flag is not parted from its value: 「… -o⏎↪ custom-columns=…」 (ja r23 L6).
func TestFoldWordsKeepsAShortFlagWithItsValue(t *testing.T) {
	line := "$ kubectl get events --field-selector involvedObject.name=POD,type=Warning -o custom-columns=REASON:.reason,MESSAGE:.message"
	for w := 60; w <= 120; w++ {
		for _, l := range foldWords(line, w) {
			if strings.HasSuffix(l, " -o") {
				t.Errorf("width %d: %q ends with the flag", w, l)
			}
		}
	}
}

// A short flag whose value is longer than the rest of the line is not left alone on a line: the
// value parts after a comma (zh r25 M1: 「-o」 alone at 60 columns).
func TestFoldWordsNeverLeavesAShortFlagAlone(t *testing.T) {
	line := "$ kubectl get events --field-selector involvedObject.name=POD,type=Warning -o custom-columns=REASON:.reason,MESSAGE:.message"
	for w := 40; w <= 120; w++ {
		for _, l := range foldWords(line, w) {
			if f := strings.TrimSpace(strings.TrimPrefix(l, cutMark)); f == "-o" || strings.HasSuffix(l, " -o") {
				t.Errorf("width %d: the flag alone: %q", w, foldWords(line, w))
			}
		}
	}
}
