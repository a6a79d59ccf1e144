package bootcheck

import (
	"fmt"
	"slices"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
)

// hcmType is the type an HTTP connection manager's typed_config carries.
const hcmType = "envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager"

// hcmFieldRank is the order in which HttpConnectionManagerConfig's constructor
// (source/extensions/filters/network/http_connection_manager/config.cc) reads the fields that can
// refuse: a field not listed reads with the options, first. The problems of one connection
// manager come from several checks (its own, format strings, regexes, extensions), each met in
// this order, not in the order the file writes the fields.
var hcmFieldRank = map[string]int{
	"typed_header_validation_config": 1, "internal_address_config": 2, "local_reply_config": 3, // config.cc:450 overrides :373; :471
	"http2_protocol_options": 4, "http_protocol_options": 5, "common_http_protocol_options": 5, // :475-501
	"strip_any_host_port": 6, "strip_matching_host_port": 6, "request_id_extension": 7, // :506-524
	"original_ip_detection_extensions": 8, "early_header_mutation_extensions": 9, // :529-585
	"route_config": 10, "rds": 10, "scoped_routes": 10, // :595-620
	"forward_client_cert_details": 11, "set_current_client_cert_details": 11, "tracing": 12, "access_log": 13, // :626-650
	"access_log_options": 14, "flush_access_log_on_new_request": 14, "access_log_flush_interval": 14, // :654-685
	"server_header_transformation": 15, "scheme_header_transformation": 15, "server_name": 15, // :685-704
	"codec_type": 16, "http_filters": 17, "upgrade_configs": 18, // :704, :742, :746
}

// pgvWords: a problem found as the extension's config is read (MessageUtil::validate, before its
// factory runs), which Envoy meets before anything the factory checks.
func pgvWords(msg string) bool {
	return strings.HasPrefix(msg, "Proto constraint validation failed") || strings.HasPrefix(msg, "Invalid duration: ")
}

// inEnvoyOrder adds what a connection manager and its filters refuse because of the rest of the
// bootstrap (its runtime, httpBootstrapProblems), then
// reorders the listeners' problems, already sorted by stage and line, so that those of
// one connection manager come in the order its constructor meets them (hcmFieldRank; within the
// route table, a virtual host's routes before its domains, RouteMatcher in config_impl.cc; within
// the HTTP filters, each filter's config before its terminal check, FilterChainHelper::
// processFilter).
func inEnvoyOrder(bs *bootstrapv3.Bootstrap, tree []visited, problems []Problem, problem func(st stage, path, msg string) Problem) []Problem {
	problems = httpBootstrapProblems(bs, tree, problems, problem)
	var hcms []string
	for i, l := range bs.GetStaticResources().GetListeners() {
		chains := l.GetFilterChains()
		if l.GetDefaultFilterChain() != nil {
			chains = append(slices.Clone(chains), l.GetDefaultFilterChain())
		}
		for j, fc := range chains {
			where := fmt.Sprintf("static_resources.listeners[%d].filter_chains[%d]", i, j)
			if j == len(l.GetFilterChains()) {
				where = fmt.Sprintf("static_resources.listeners[%d].default_filter_chain", i)
			}
			for k, f := range fc.GetFilters() {
				if typeName(f.GetTypedConfig()) == hcmType {
					hcms = append(hcms, fmt.Sprintf("%s.filters[%d].typed_config", where, k))
				}
			}
		}
	}
	// With the universal header validator turned on, every connection manager is refused: the
	// stock build has none (config.cc:203-207).
	if len(hcms) > 0 && runtimeFlag(bs, "envoy.reloadable_features.enable_universal_header_validator", false) {
		for _, h := range hcms {
			problems = append(problems, problem(stageListeners, h+".typed_header_validation_config", "Header validator can not be enabled since this Envoy binary does not support it."))
		}
	}
	if !slices.IsSortedFunc(problems, byStageAndLine) {
		slices.SortStableFunc(problems, byStageAndLine)
	}
	if !slices.ContainsFunc(problems, func(p Problem) bool { return p.stage == stageListeners }) {
		return problems
	}
	keys := make([][]int, len(problems))
	anchor := map[string][2]int{} // an HCM's first problem's place: where its problems go as a block
	for i, p := range problems {
		keys[i] = []int{int(p.stage), i} // other stages: already in Envoy's order
		if p.stage != stageListeners {
			continue
		}
		keys[i] = []int{int(p.stage), p.Line, p.Col}
		for _, h := range hcms {
			if rest, ok := strings.CutPrefix(p.Path, h+"."); ok {
				if _, seen := anchor[h]; !seen {
					anchor[h] = [2]int{p.Line, p.Col}
				}
				a := anchor[h]
				keys[i] = append([]int{int(p.stage), a[0], a[1]}, append(hcmRanks(rest, pgvWords(p.Message)), p.Line, p.Col)...)
				break
			}
		}
	}
	order := make([]int, len(problems))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return slices.Compare(keys[a], keys[b]) })
	out := make([]Problem, len(problems))
	for i, j := range order {
		out[i] = problems[j]
	}
	return out
}

func byStageAndLine(a, b Problem) int {
	switch {
	case before(a, b):
		return -1
	case before(b, a):
		return 1
	}
	return 0
}

// hcmRanks is where, in the connection manager's construction, a problem at rest (the path below
// its typed_config) is met: its field's rank, then the place within that field.
func hcmRanks(rest string, pgv bool) []int {
	field := rest
	if i := strings.IndexAny(rest, ".["); i >= 0 {
		field = rest[:i]
	}
	if pgv && !strings.Contains(rest, ".typed_config.") { // the connection manager's own config
		return []int{0, 0, 0}
	}
	rank := hcmFieldRank[field]
	var index, part int
	switch field {
	case "http_filters", "upgrade_configs":
		// A filter's config is built before the terminal check names the filter itself.
		fmt.Sscanf(rest[len(field):], "[%d]", &index)
		switch {
		case strings.HasSuffix(rest, "]") && strings.Count(rest, "[") == 1:
			part = 1
		case strings.HasSuffix(rest, "].disabled"): // checked before the filter is looked up
			part = -1
		}
	case "route_config":
		// CommonConfigImpl first, then each virtual host built (its routes among it), then its domains.
		if _, err := fmt.Sscanf(strings.TrimPrefix(rest, "route_config."), "virtual_hosts[%d]", &index); err == nil {
			index++
			if strings.Contains(rest, "].domains") {
				part = 1
			}
		}
	}
	return []int{rank, index, part}
}
