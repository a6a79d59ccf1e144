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

// WhyGroup is the not-modelled rows that need one same thing.
type WhyGroup struct {
	Why  string
	Rows []Row
}

// NotModelled is what the validator cannot check offline, grouped by what it would need, the
// largest group first (then by name): what `validate --help` owes the learner.
func NotModelled() ([]WhyGroup, error) {
	tables, err := Inventory()
	if err != nil {
		return nil, err
	}
	at := map[string]int{}
	var groups []WhyGroup
	for _, t := range tables {
		for _, r := range t.Rows {
			if r.Status != StatusNotModelled {
				continue
			}
			i, ok := at[r.Why]
			if !ok {
				i = len(groups)
				at[r.Why] = i
				groups = append(groups, WhyGroup{Why: r.Why})
			}
			groups[i].Rows = append(groups[i].Rows, r)
		}
	}
	slices.SortStableFunc(groups, func(a, b WhyGroup) int {
		if len(a.Rows) != len(b.Rows) {
			return len(b.Rows) - len(a.Rows)
		}
		return strings.Compare(a.Why, b.Why)
	})
	return groups, nil
}
