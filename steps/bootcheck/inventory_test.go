package bootcheck

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// envoySource is an extracted copy of Envoy v1.39.0's source/ and api/, where present: the sites
// are checked against it.
const envoySource = "/tmp/envoy-src"

// formatPattern matches a message Envoy makes from format: each {} any text, the rest as
// written. It is not anchored: Envoy's callers often wrap a site's message in words of their own.
func formatPattern(format string) *regexp.Regexp {
	parts := strings.Split(format, "{}")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("(?s)" + strings.Join(parts, ".*"))
}

// lineCounts counts the lines of Envoy's source files, each read once.
type lineCounts map[string]int

func (c lineCounts) of(file string) (int, bool) {
	if n, ok := c[file]; ok {
		return n, n >= 0
	}
	data, err := os.ReadFile(filepath.Join(envoySource, file))
	if err != nil {
		c[file] = -1
		return 0, false
	}
	n := 0
	for s := bufio.NewScanner(bytes.NewReader(data)); s.Scan(); {
		n++
	}
	c[file] = n
	return n, true
}

// TestInventoryRows: every row is well formed, its site a line of Envoy's source, each path to it
// (site and case) listed once.
func TestInventoryRows(t *testing.T) {
	tables, err := Inventory()
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) == 0 {
		t.Fatal("no inventory files")
	}
	haveSource := true
	if _, err := os.Stat(envoySource); err != nil {
		haveSource = false
		t.Logf("%s is not here: sites are checked for form only, not against Envoy's source", envoySource)
	}
	counts := lineCounts{}
	seen := map[string]string{}
	for _, tb := range tables {
		if len(tb.Rows) == 0 {
			t.Errorf("%s: no rows", tb.Area)
		}
		for i, r := range tb.Rows {
			where := tb.Area + "[" + strconv.Itoa(i) + "] " + r.Site
			// A site reached by several paths (an extension lookup, an address resolved for a
			// listener and for a cluster) has a row for each, told apart by its case.
			key := r.Site + "\x00" + strings.TrimSpace(r.Case)
			if prev, ok := seen[key]; ok {
				t.Errorf("%s: row listed twice, same site and case (also %s)", where, prev)
			}
			seen[key] = where
			file, line, ok := strings.Cut(r.Site, ":")
			n, err := strconv.Atoi(line)
			if !ok || err != nil || n < 1 || file == "" {
				t.Errorf("%s: site is not file:line", where)
			} else if haveSource {
				if lines, ok := counts.of(file); !ok {
					t.Errorf("%s: no such file in %s", where, envoySource)
				} else if n > lines {
					t.Errorf("%s: %s has only %d lines", where, file, lines)
				}
			}
			if strings.TrimSpace(strings.ReplaceAll(r.Message, "{}", "")) == "" {
				t.Errorf("%s: message has no words of its own", where)
			}
			if _, ok := orderStages[r.Order]; !ok {
				t.Errorf("%s: order %q is not a stage", where, r.Order)
			}
			switch r.Status {
			case StatusModelled, StatusOpen:
				if strings.TrimSpace(r.Case) == "" {
					t.Errorf("%s: %s with no case", where, r.Status)
				}
				if r.Why != "" {
					t.Errorf("%s: %s with a why", where, r.Status)
				}
			case StatusNotModelled:
				if strings.TrimSpace(r.Why) == "" {
					t.Errorf("%s: not-modelled with no why", where)
				}
			default:
				t.Errorf("%s: status %q", where, r.Status)
			}
		}
	}
}

// TestInventoryCases: a modelled row's case is refused first with the row's message (a stage
// other than the row's is logged); an open row's is not (else the row is modelled and the table would understate the
// validator). It logs the coverage, per area and in all.
func TestInventoryCases(t *testing.T) {
	tables, err := Inventory()
	if err != nil {
		t.Fatal(err)
	}
	var modelled, all int
	for _, tb := range tables {
		m, open, not := 0, 0, 0
		for i, r := range tb.Rows {
			where := tb.Area + "[" + strconv.Itoa(i) + "] " + r.Site
			switch r.Status {
			case StatusModelled:
				m++
				res := Validate([]byte(r.Case))
				if res.OK() {
					t.Errorf("%s: modelled, but the case is accepted", where)
					continue
				}
				first := res.Problems[0]
				if !formatPattern(r.Message).MatchString(first.Message) {
					t.Errorf("%s: modelled, but the first problem is\n\t%s\nnot %q", where, first, r.Message)
				} else if want := orderStages[r.Order]; first.stage != want {
					// The row says where Envoy meets it; the validator staging it elsewhere
					// changes which problem comes first when there are two: worth seeing, not
					// the table's to fix.
					t.Logf("stage disagreement: %s: the validator meets it at stage %s, Envoy at %s", where, stageName(first.stage), r.Order)
				}
			case StatusOpen:
				open++
				res := Validate([]byte(r.Case))
				if !res.OK() && formatPattern(r.Message).MatchString(res.Problems[0].Message) {
					t.Errorf("%s: open, but the validator already says it first: %s", where, res.Problems[0])
				}
			case StatusNotModelled:
				not++
			}
		}
		total := m + open + not
		modelled += m
		all += total
		t.Logf("coverage %-10s %3d modelled / %3d (%d open, %d not-modelled) = %s", tb.Area, m, total, open, not, percent(m, total))
	}
	t.Logf("coverage %-10s %3d modelled / %3d = %s", "all", modelled, all, percent(modelled, all))
}

// stageName is the row name of a stage.
func stageName(st stage) string {
	for name, s := range orderStages {
		if s == st {
			return name
		}
	}
	return strconv.Itoa(int(st))
}

func percent(n, of int) string {
	if of == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 1, 64) + "%"
}

// Every not-modelled row says why in a known category, so validate --help and the README can
// name it; the coverage adds up: each reachable row is modelled, open or a gap.
func TestCoverageNamesEveryGap(t *testing.T) {
	tables, err := Inventory()
	if err != nil {
		t.Fatal(err)
	}
	open := 0
	for _, tb := range tables {
		for i, r := range tb.Rows {
			if r.Status == StatusNotModelled && r.Category() == "" {
				t.Errorf("%s[%d] %s: why %q starts with no known category (whyPrefixes)", tb.Area, i, r.Site, r.Why)
			}
			if r.Status == StatusOpen {
				open++
			}
		}
	}
	modelled, reachable, gaps, err := Coverage()
	if err != nil {
		t.Fatal(err)
	}
	sum := modelled + open
	for i, g := range gaps {
		sum += g.Sites
		if i > 0 && g.Sites > gaps[i-1].Sites {
			t.Errorf("gap %s is larger than the one before it", g.Category)
		}
	}
	if sum != reachable || modelled == 0 {
		t.Errorf("modelled %d + open %d + gaps = %d, reachable %d", modelled, open, sum, reachable)
	}
	t.Logf("coverage of reachable sites: %d / %d, gaps %v", modelled, reachable, gaps)
}
