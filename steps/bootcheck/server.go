package bootcheck

import (
	"fmt"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	metricsv3 "github.com/envoyproxy/go-control-plane/envoy/config/metrics/v3"
)

// serverChecks: the server parts a bootstrap configures besides clusters and listeners, each as
// Envoy builds it — the stats tags, the stats flush settings, the static secrets (source/common/secret/secret_manager_impl.cc addStaticSecret,
// from MainImpl::initialize) and the watchdogs (MainImpl::initializeWatchdogs,
// source/server/configuration_impl.cc).
func serverChecks(bs *bootstrapv3.Bootstrap, add addFunc) {
	// The stats tags (TagProducerImpl: a tag with no regex must be one of Envoy's default tag
	// names, all of which are envoy.*) and the flush settings (StatsConfigImpl,
	// source/server/configuration_impl.cc) come first.
	for i, tag := range bs.GetStatsConfig().GetStatsTags() {
		if tag.GetRegex() != "" && tag.GetTagName() == "" { // TagExtractorImplBase::createTagExtractor, tag_extractor_impl.cc:73
			add(stageServer, fmt.Sprintf("stats_config.stats_tags[%d].tag_name", i), "tag_name cannot be empty")
			return
		}
		if stdRegexUnclosedGroup(tag.GetRegex()) { // parseStdRegex, tag_extractor_impl.cc:21-26
			add(stageServer, fmt.Sprintf("stats_config.stats_tags[%d].regex", i), fmt.Sprintf("Invalid regex '%s': The expression contained mismatched ( and ).", tag.GetRegex()))
			return
		}
		if tag.GetRegex() == "" && tag.GetFixedValue() == "" && !strings.HasPrefix(tag.GetTagName(), "envoy.") {
			add(stageServer, fmt.Sprintf("stats_config.stats_tags[%d]", i), fmt.Sprintf("No regex specified for tag specifier and no default regex for name: '%s'", tag.GetTagName()))
			return
		}
	}
	if bs.GetStatsFlushInterval() != nil && bs.GetStatsFlush() != nil {
		// StatsConfigImpl, made by MainImpl::initialize after the tracers (configuration_impl.cc:91).
		add(stageTracing, "stats_flush_interval", "Only one of stats_flush_interval or stats_flush_on_admin should be set!")
		return
	}
	flush := int64(5000) // configuration_impl.cc:96-106: the eviction interval is whole flushes
	if bs.GetStatsFlushInterval() != nil {
		flush = bs.GetStatsFlushInterval().AsDuration().Milliseconds()
	}
	if evict := bs.GetStatsEvictionInterval().AsDuration().Milliseconds(); flush > 0 && evict%flush != 0 {
		add(stageTracing, "stats_eviction_interval", "stats_eviction_interval must be a multiple of stats_flush_interval")
		return
	}
	secretKinds := map[string]map[string]bool{}
	for i, s := range bs.GetStaticResources().GetSecrets() {
		kind := ""
		switch {
		case s.GetTlsCertificate() != nil:
			kind = "TlsCertificate"
		case s.GetValidationContext() != nil:
			kind = "CertificateValidationContext"
		case s.GetSessionTicketKeys() != nil:
			kind = "TlsSessionTicketKeys"
		case s.GetGenericSecret() != nil:
			kind = "GenericSecret"
		default:
			continue
		}
		if secretKinds[kind] == nil {
			secretKinds[kind] = map[string]bool{}
		}
		if secretKinds[kind][s.GetName()] {
			add(stageTracing, fmt.Sprintf("static_resources.secrets[%d].name", i), fmt.Sprintf("Duplicate static %s secret name %s", kind, s.GetName()))
			return
		}
		secretKinds[kind][s.GetName()] = true
	}
	if bs.GetWatchdog() != nil && bs.GetWatchdogs() != nil {
		add(stageLast, "watchdogs", "Only one of watchdog or watchdogs should be set!")
		return
	}
	statsSinkChecks(bs, add)
}

// statsSinkChecks: a TCP statsd sink, made last (MainImpl::initializeStatsConfig), checks the node
// and then its cluster among the cluster manager's (TcpStatsdSink, stat_sinks/common/statsd/
// statsd.cc:196-200; Config::Utility::checkCluster, utility.cc:33-38).
func statsSinkChecks(bs *bootstrapv3.Bootstrap, add addFunc) {
	for i, sink := range bs.GetStatsSinks() {
		var cfg metricsv3.StatsdSink
		if sink.GetTypedConfig().UnmarshalTo(&cfg) != nil || cfg.GetTcpClusterName() == "" {
			continue
		}
		path := fmt.Sprintf("stats_sinks[%d]", i)
		if bs.GetNode().GetId() == "" || bs.GetNode().GetCluster() == "" {
			add(stageLast, path, "tcp statsd: "+nodeRequired)
			return
		}
		known := false
		for _, c := range bs.GetStaticResources().GetClusters() {
			known = known || c.GetName() == cfg.GetTcpClusterName()
		}
		if !known {
			add(stageLast, path+".typed_config.tcp_cluster_name", fmt.Sprintf("tcp statsd: unknown cluster '%s'", cfg.GetTcpClusterName()))
			return
		}
	}
}

// stdRegexUnclosedGroup: a tag's regex is std::regex's ECMAScript, not RE2, so only the fault
// both grammars agree on is judged here — a group opened and never closed, which libc++'s parser
// refuses as error_paren (its what(): "The expression contained mismatched ( and ).").
// Escapes and bracket expressions hold no group.
func stdRegexUnclosedGroup(re string) bool {
	open, inClass := 0, false
	for i := 0; i < len(re); i++ {
		switch c := re[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true // in ECMAScript "[]" is empty: the first ] closes it
		case c == '(':
			open++
		case c == ')':
			if open == 0 {
				return false // a stray ) is a different refusal, not judged
			}
			open--
		}
	}
	return open > 0 && !inClass
}
