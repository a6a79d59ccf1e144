package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/drill"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/steptest"
)

// drillSandbox is a sandbox whose work dir holds the reference bootstrap a drill starts from.
func drillSandbox(t *testing.T) *sandbox {
	return withDrillBase(t, newSandbox(t, "/usr/bin:/bin"))
}

// withDrillBase puts the reference bootstrap and pod a drill starts from in sb's work dir.
func withDrillBase(t *testing.T, sb *sandbox) *sandbox {
	os.MkdirAll(sb.work, 0o755)
	for _, f := range []string{"bootstrap.yaml", "inject.yaml"} { // sections 4 and 1: the drill's bootstrap and pod
		steptest.CopyFile(t, filepath.Join(steptest.AnswersDir(), f), filepath.Join(sb.work, f))
	}
	return sb
}

// drill --json asks nothing and prints the drill with its answer; the same seed, the same drill.
func TestDrillJSONIsReproducible(t *testing.T) {
	sb := drillSandbox(t)
	a := sb.must(0, "drill", "--seed", "11", "--json")
	b := sb.must(0, "drill", "--seed", "11", "--json")
	var d drill.Drill
	if err := json.Unmarshal([]byte(a), &d); err != nil || a != b {
		t.Fatalf("%v\n%s\n%s", err, a, b)
	}
	if d.Seed != 11 || d.Fault == "" || (d.Class != drill.Rejected && d.Class != drill.NotReady) || d.Field == "" || d.Bootstrap == "" || d.Evidence.Pod == "" {
		t.Errorf("%+v", d)
	}
}

// Without a bootstrap that passes there is nothing to break: said, exit 1.
func TestDrillNeedsSection4(t *testing.T) {
	sb := newSandbox(t, "/usr/bin:/bin")
	code, _, errs := sb.main("", "drill", "--json", "--lang", "zh")
	if code != 1 || !strings.Contains(errs, "bootstrap.yaml") || !strings.Contains(errs, "第 4 步") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// Ten drills in a row on the command line: the right class and field, the file fixed, each judged
// right and counted; a wrong class is explained with the evidence.
func TestTenDrillsInARow(t *testing.T) {
	sb := newSandbox(t, "/usr/bin:/bin")
	base := filepath.Join(steptest.AnswersDir(), "bootstrap.yaml")
	os.MkdirAll(sb.work, 0o755)
	steptest.CopyFile(t, base, filepath.Join(sb.work, "bootstrap.yaml"))
	steptest.CopyFile(t, filepath.Join(steptest.AnswersDir(), "inject.yaml"), filepath.Join(sb.work, "inject.yaml"))
	for i := 0; i < 10; i++ {
		seed := []string{"--seed", string(rune('0' + i))}
		var d drill.Drill
		if err := json.Unmarshal([]byte(sb.must(0, append([]string{"drill", "--json"}, seed...)...)), &d); err != nil {
			t.Fatal(err)
		}
		class := ""
		for n, c := range drill.ClassChoices {
			if c.Class == d.Class {
				class = fmt.Sprint(n + 1)
			}
		}
		in, feed := io.Pipe()
		var out syncBuffer
		done := make(chan int)
		go func() {
			lang := []string{"ko", "zh", "ja"}[i%3]
			done <- Main(append([]string{"drill", "--lang", lang}, seed...), IO{In: in, Out: &out, Err: &out,
				Getenv: func(k string) string { return sb.vars[k] }, LabMarker: filepath.Join(sb.vars["HOME"], "no-lab")})
		}()
		io.WriteString(feed, class+"\n"+d.Field+"\n")
		// The drill writes its broken file; the learner fixes it (here: the original), then Enter.
		// A refused push has no file to fix: the class and the types are all it asks.
		verdicts := 2
		if d.Class != drill.ConfigRejected {
			verdicts = 3
			drillFile := filepath.Join(sb.work, "drill-bootstrap.yaml")
			deadline := time.Now().Add(5 * time.Second)
			for !strings.Contains(out.String(), "Enter") && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			steptest.CopyFile(t, base, drillFile)
			io.WriteString(feed, "\n")
		}
		feed.Close()
		if code := <-done; code != 0 || strings.Count(out.String(), "✓") != verdicts {
			t.Fatalf("drill %d (%s): exit %d\n%s", i, d.Fault, code, out.String())
		}
	}
	raw, _ := os.ReadFile(filepath.Join(sb.vars["XDG_STATE_HOME"], "ist2-boot", "progress.json"))
	if !strings.Contains(string(raw), `"done": 10`) && !strings.Contains(string(raw), `"done":10`) {
		t.Errorf("progress: %s", raw)
	}
	// A wrong class: explained with the evidence.
	var d drill.Drill
	_ = json.Unmarshal([]byte(sb.must(0, "drill", "--json", "--seed", "1")), &d)
	wrong := "2"
	if d.Class == drill.NotReady {
		wrong = "1"
	}
	code, out, _ := sb.main(wrong+"\nq\n", "drill", "--seed", "1", "--lang", "ja")
	if code != 1 || !strings.Contains(out, "✗") || !strings.Contains(out, "根拠") {
		t.Errorf("wrong answer: exit %d\n%s", code, out)
	}
}

// syncBuffer is a buffer one goroutine writes while another reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// report --format json has the review's shape: sections with state, attempts, hints, seconds and
// first_time, and the drills.
func TestReportJSON(t *testing.T) {
	sb := newSandbox(t, "/usr/bin:/bin")
	out := sb.must(0, "report", "--format", "json")
	var r struct {
		Sections []struct {
			ID        string `json:"id"`
			Status    string `json:"status"`
			Attempts  *int   `json:"attempts"`
			Hints     *int   `json:"hints"`
			Seconds   *int   `json:"seconds"`
			FirstTime *bool  `json:"first_time"`
		} `json:"sections"`
		Drills struct {
			Done  *int `json:"done"`
			Right *int `json:"right"`
		} `json:"drills"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Sections) != 8 || r.Drills.Done == nil || r.Sections[0].FirstTime == nil || r.Sections[0].Seconds == nil {
		t.Fatalf("%v\n%s", err, out)
	}
	md := filepath.Join(t.TempDir(), "review.md")
	sb.must(0, "report", "-o", md, "--lang", "ja")
	if raw, _ := os.ReadFile(md); !strings.Contains(string(raw), "# ふりかえり") {
		t.Errorf("%s", raw)
	}
}

// new-lab in lab mode touches nothing and says why.
func TestNewLabRefusesLabMode(t *testing.T) {
	sb := newSandbox(t, "/usr/bin:/bin")
	code, _, errs := sb.main("", "new-lab", "--yes", "--fixtures", t.TempDir(), "--lang", "ja")
	if code != 1 || !strings.Contains(errs, "サンドボックス") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// B12: while the tutorial is open, the command line's interactive drill and new-lab refuse (the
// tutorial's drill page owns drill-bootstrap.yaml; its fixtures are in use), saying why.
func TestDrillAndNewLabWaitForTheTutorial(t *testing.T) {
	sb := drillSandbox(t)
	store, err := progress.NewStore(filepath.Join(sb.vars["XDG_STATE_HOME"], "ist2-boot"))
	if err != nil {
		t.Fatal(err)
	}
	inst, ok, err := store.AcquireInstance() // the tutorial
	if err != nil || !ok {
		t.Fatal("could not stand in for the tutorial", err)
	}
	defer inst.Release()
	before, _ := os.ReadFile(filepath.Join(sb.work, "bootstrap.yaml"))
	if code, _, errs := sb.main("1\n", "drill", "--seed", "3"); code != 1 || !strings.Contains(errs, "drill-bootstrap.yaml") {
		t.Errorf("drill: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(sb.work, "drill-bootstrap.yaml")); err == nil {
		t.Error("the drill file was written under the open tutorial")
	}
	if code, _, errs := sb.main("", "new-lab", "--yes"); code != 1 || !strings.Contains(errs, "N") {
		t.Errorf("new-lab: exit %d: %s", code, errs)
	}
	if after, _ := os.ReadFile(filepath.Join(sb.work, "bootstrap.yaml")); string(after) != string(before) {
		t.Error("new-lab moved the learner's files under the open tutorial")
	}
	sb.must(0, "drill", "--seed", "3", "--json") // writes nothing: allowed
}

// D18: an interactive drill on a pipe that answers for ever ends; /dev/zero-like input without a
// newline does not fill memory.
func TestDrillOnAnEndlessPipeEnds(t *testing.T) {
	sb := drillSandbox(t)
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"drill", "--seed", "3"}, IO{In: endless("2\n"), Out: io.Discard, Err: io.Discard,
			Getenv: func(k string) string { return sb.vars[k] }, LabMarker: filepath.Join(sb.vars["HOME"], "no-lab")})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the drill answered by `yes 2` did not end")
	}
	long := bytes.Repeat([]byte("a"), 3*maxAnswer)
	answer, ok := readAnswer(bufio.NewReader(bytes.NewReader(append(long, '\n'))))
	if len(answer) > maxAnswer || !ok {
		t.Errorf("a long typed line: %d bytes kept, ok %v", len(answer), ok)
	}
	// /dev/zero and /dev/urandom answer nothing (hostile L9): the prompt ends, as at EOF.
	start := time.Now()
	if answer, ok := readAnswer(bufio.NewReader(endless("\x00"))); ok || answer != "" {
		t.Errorf("endless NULs answered %q", answer)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("endless NULs took %v", time.Since(start))
	}
	if _, ok := readAnswer(bufio.NewReader(bytes.NewReader([]byte("\x9b\xfe\x01z\n")))); ok {
		t.Error("random bytes count as an answer")
	}
}

// endless repeats s for ever.
type endless string

func (e endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], e)
	}
	return n, nil
}

// D19: validate and check print a file's escape sequences as text, not as commands to the terminal.
func TestValidatePrintsNoEscapes(t *testing.T) {
	sb := newSandbox(t, "/usr/bin:/bin")
	file := filepath.Join(t.TempDir(), "b.yaml")
	os.WriteFile(file, []byte("\"\\e]0;PWNED\\a\\e[31m\": 1\n"), 0o644)
	code, out, _ := sb.main("", "validate", file)
	if code != 1 || strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `\x1b]0;PWNED`) {
		t.Errorf("exit %d: %q", code, out)
	}
}

// Newcomer L19: new-lab says what lab it would make before it asks; answered no, it makes none.
func TestNewLabSaysWhatItMakesBeforeAsking(t *testing.T) {
	sb := newSandbox(t, "/usr/bin:/bin")
	code, out, _ := sb.main("n\n", "new-lab", "--seed", "42", "--lang", "zh")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	lab := steps.DrawLab(42)
	described := strings.Index(out, lab.Name)
	asked := strings.Index(out, "[y/N]")
	if described < 0 || asked < 0 || described > asked {
		t.Errorf("the lab (%s) is not described before the question:\n%s", lab.Name, out)
	}
	if strings.Count(out, lab.Name) != 1 {
		t.Errorf("described %d times:\n%s", strings.Count(out, lab.Name), out)
	}
}

// drill --seed N --json draws all three classes over seeds, each with its evidence: a refused
// push names what istiod pushed and the counters pilot-agent read.
func TestDrillJSONDrawsEveryClass(t *testing.T) {
	sb := drillSandbox(t)
	classes := map[drill.Class]int{}
	for seed := 0; seed < 40; seed++ {
		var d drill.Drill
		if err := json.Unmarshal([]byte(sb.must(0, "drill", "--json", "--seed", fmt.Sprint(seed))), &d); err != nil {
			t.Fatal(err)
		}
		classes[d.Class]++
		if d.Class == drill.ConfigRejected && (d.Pushed == nil || d.Evidence.Counts == nil || len(d.Pushed.Rejected()) == 0) {
			t.Errorf("seed %d: %+v", seed, d)
		}
	}
	for _, c := range drill.ClassChoices {
		if classes[c.Class] == 0 {
			t.Errorf("40 seeds drew %v", classes)
		}
	}
}

// An Enter alone at the field question names no field: the question is asked again, not judged
// wrong (ja r15).
func TestDrillAsksTheFieldAgainAfterAnEmptyAnswer(t *testing.T) {
	sb := drillSandbox(t)
	var d drill.Drill
	if err := json.Unmarshal([]byte(sb.must(0, "drill", "--json", "--seed", "0")), &d); err != nil {
		t.Fatal(err)
	}
	if d.Class != drill.Rejected {
		t.Fatalf("seed 0 drew %s", d.Class)
	}
	_, out, _ := sb.main("1\n\n  \n"+d.Field+"\nq\n", "drill", "--seed", "0", "--lang", "ja")
	asked := i18n.T(i18n.Japanese, "drill.ask_field", map[string]string{"file": ""})
	asked = asked[:strings.Index(asked, "（")] // the question's start, as wrapped lines begin
	if n := strings.Count(out, asked); n != 3 {
		t.Errorf("the field question was asked %d times, want 3 (two empty answers):\n%s", n, out)
	}
	if strings.Count(out, i18n.T(i18n.Japanese, "drill.wrong", nil)) != 0 {
		t.Errorf("an empty answer was judged:\n%s", out)
	}
	// Asked again, it says why; an input that ends says the drill ends unrecorded, a q says
	// nothing (ko r22 L17).
	why := i18n.T(i18n.Japanese, "drill.ask_field_again", nil)
	if why = why[:strings.Index(why, "。")]; strings.Count(out, why) != 2 {
		t.Errorf("the question asked again does not say why (%q):\n%s", why, out)
	}
	ended := i18n.T(i18n.Japanese, "drill.no_answer", nil)
	ended = ended[:strings.Index(ended, "、")]
	if _, out, _ := sb.main("1\n", "drill", "--seed", "0", "--lang", "ja"); !strings.Contains(out, ended) {
		t.Errorf("the input ended without a word:\n%s", out)
	}
	quit := i18n.T(i18n.Japanese, "drill.quit", nil)
	if _, out, _ := sb.main("1\nq\n", "drill", "--seed", "0", "--lang", "ja"); strings.Contains(out, ended) || !strings.Contains(out, quit[:strings.Index(quit, "。")]) {
		t.Errorf("a q is told the input ended, or not that the drill ended:\n%s", out)
	}
}
