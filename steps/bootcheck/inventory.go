package bootcheck

import (
	"bytes"
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// The inventory of the error sites `envoy --mode validate -c FILE` can reach while it builds a
// bootstrap (Envoy v1.39.0), one file per area of Envoy's source, each row telling whether this
// validator models the site. It is data, kept true by inventory_test.go: what `validate --help`
// says it cannot check comes from here, not from a list written by hand.
//
//go:embed inventory/*.yaml
var inventoryFiles embed.FS

// Row is one error site in Envoy's source.
type Row struct {
	Site    string `yaml:"site"`    // file:line at Envoy v1.39.0, the line that makes the error
	Message string `yaml:"message"` // Envoy's format, every placeholder written {}
	Order   string `yaml:"order"`   // the stage it is met in: a name of orderStages
	Status  string `yaml:"status"`  // modelled, open or not-modelled
	Case    string `yaml:"case"`    // modelled and open: a bootstrap Envoy refuses here first
	Why     string `yaml:"why"`     // not-modelled: what checking it offline would need
	Note    string `yaml:"note"`    // what triggers it, in a few words
}

// Row statuses: modelled (the validator gives the message first on the case), open (it could,
// offline, but does not yet), not-modelled (it cannot offline; Why says what it would need).
const (
	StatusModelled    = "modelled"
	StatusOpen        = "open"
	StatusNotModelled = "not-modelled"
)

// Table is one area's rows, in the order Envoy meets them.
type Table struct {
	Area string // the file's name without .yaml: server, format, upstream, …
	Rows []Row
}

// orderStages names the stages a row's order may take, as stages.go defines them.
var orderStages = map[string]stage{
	"parse": stageParse, "log_format": stageLogFormat, "server": stageServer, "admin": stageAdmin,
	"runtime": stageRuntime, "tracing": stageTracing, "clusters": stageClusters,
	"ads_version": stageADSVersion, "ads_cluster": stageADSCluster, "node": stageNode,
	"local_cluster": stageLocalCluster, "subscriptions": stageSubscriptions,
	"listeners": stageListeners, "last": stageLast,
	"bootstrap_extensions": stageBootstrapExtensions, "overload": stageOverload,
	"secondary_clusters": stageSecondaryClusters,
}

// Inventory reads every area's table, sorted by area. An unknown key in a row is an error: a
// misspelled "stauts" would otherwise leave a row without a status.
func Inventory() ([]Table, error) {
	names, err := inventoryFiles.ReadDir("inventory")
	if err != nil {
		return nil, err
	}
	var tables []Table
	for _, e := range names {
		if !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		data, err := inventoryFiles.ReadFile(path.Join("inventory", e.Name()))
		if err != nil {
			return nil, err
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		t := Table{Area: strings.TrimSuffix(e.Name(), ".yaml")}
		if err := dec.Decode(&t.Rows); err != nil {
			return nil, fmt.Errorf("inventory/%s: %w", e.Name(), err)
		}
		tables = append(tables, t)
	}
	slices.SortFunc(tables, func(a, b Table) int { return strings.Compare(a.Area, b.Area) })
	return tables, nil
}

// Why a site is not modelled, as categories: a row's why starts with one of a category's
// prefixes. Unreachable sites (a rule refuses first at parse, a branch the stock build never
// takes) and those of other platforms are not gaps: they count in no coverage.
const (
	GapFile      = "file"      // needs a file where Envoy runs (a certificate, a descriptor set, a module)
	GapKey       = "key"       // needs a private key
	GapBoringSSL = "boringssl" // needs BoringSSL itself (parsing a certificate chain)
	GapLua       = "lua"       // needs LuaJIT (a script's top level runs when the filter is built)
	GapRE2       = "re2"       // needs RE2's compiler (a regex's program size)
	GapFlag      = "flag"      // needs a command-line flag
	GapHost      = "host"      // depends on the machine Envoy runs on (kernel, capabilities, environment)
	GapRuntime   = "runtime"   // only when an xDS response arrives, never from a bootstrap alone
	GapSize      = "size"      // needs a configuration of a size no learner writes

	notAGapUnreachable = "unreachable"
	notAGapPlatform    = "platform"
	notAGapElsewhere   = "elsewhere" // listed in the area that reaches it
)

// whyPrefixes maps the start of a why to its category, the first match winning.
var whyPrefixes = []struct{ prefix, category string }{
	{"needs a file", GapFile}, {"needs the file system", GapFile},
	{"needs a private key", GapKey}, {"needs BoringSSL", GapBoringSSL}, {"needs LuaJIT", GapLua},
	{"needs RE2's compiler", GapRE2},
	{"needs a command-line flag", GapFlag}, {"needs a bootstrap with", GapSize},
	{"depends on", GapHost},
	{"only off Linux", notAGapPlatform}, {"Windows only", notAGapPlatform},
	{"the stock Linux build", notAGapPlatform}, {"not compiled in the stock build", notAGapPlatform},
	{"only ", GapRuntime},
	{"unreachable", notAGapUnreachable}, {"reached from", notAGapElsewhere},
	{"validate mode makes no", notAGapUnreachable},
}

// Category is what a not-modelled row's why names, "" when it starts with no known prefix.
func (r Row) Category() string {
	for _, p := range whyPrefixes {
		if strings.HasPrefix(r.Why, p.prefix) {
			return p.category
		}
	}
	return ""
}

// Gap is one category of sites the validator cannot model offline, and how many.
type Gap struct {
	Category string
	Sites    int
}

// Coverage is what the inventory says of the validator: how many of the sites a bootstrap can
// reach are modelled, and the gaps by category, the largest first. Rows of one site reached by
// several paths count once per path: each is a check the validator makes or not.
func Coverage() (modelled, reachable int, gaps []Gap, err error) {
	tables, err := Inventory()
	if err != nil {
		return 0, 0, nil, err
	}
	count := map[string]int{}
	for _, t := range tables {
		for _, r := range t.Rows {
			switch cat := r.Category(); {
			case r.Status == StatusModelled:
				modelled++
				reachable++
			case r.Status == StatusOpen:
				reachable++
			case cat == notAGapUnreachable, cat == notAGapPlatform, cat == notAGapElsewhere:
			default:
				reachable++
				count[cat]++
			}
		}
	}
	for cat, n := range count {
		gaps = append(gaps, Gap{cat, n})
	}
	slices.SortFunc(gaps, func(a, b Gap) int {
		if a.Sites != b.Sites {
			return b.Sites - a.Sites
		}
		return strings.Compare(a.Category, b.Category)
	})
	return modelled, reachable, gaps, nil
}
