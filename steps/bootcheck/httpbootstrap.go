package bootcheck

import (
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	localratelimitv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/local_ratelimit/v3"
	oauth2v3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/oauth2/v3"
	rlqv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/rate_limit_quota/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
)

// httpBootstrapProblems: what HTTP filters of the static listeners refuse for want of something
// elsewhere in the bootstrap — a static generic secret (oauth2), the local cluster (local rate
// limit shared across the cluster). Envoy stops there, so the filter's later refusals found
// without the bootstrap (httpFilterChecks) give way to these.
func httpBootstrapProblems(bs *bootstrapv3.Bootstrap, tree []visited, problems []Problem, problem func(st stage, path, msg string) Problem) []Problem {
	for _, n := range tree {
		if n.inner == nil || !strings.HasPrefix(n.path, "static_resources.listeners[") {
			continue
		}
		problems = lazyGrpcClients(n, problems)
		var where, msg string
		var later func(msg string) bool // the filter's refusals Envoy meets only after this one
		switch v := n.inner.(type) {
		case *hcmv3.HttpConnectionManager:
			// config.cc:385-388 and :481-486: the request headers' limit, by default the runtime's
			// max_request_headers_size_kb or 60 (codec_runtime_overrides.h:11).
			limit := uint64(60)
			if n, set := runtimeInteger(bs, "envoy.reloadable_features.max_request_headers_size_kb"); set {
				limit = n
			}
			if v.GetMaxRequestHeadersKb() != nil {
				limit = uint64(v.GetMaxRequestHeadersKb().GetValue())
			}
			if f := v.GetHttp2ProtocolOptions().GetMaxHeaderFieldSizeKb(); f != nil && uint64(f.GetValue()) > limit {
				where, msg = "http2_protocol_options.max_header_field_size_kb", "max_header_field_size_kb must not exceed max_request_headers_kb"
			}
			later = func(string) bool { return false }
		case *oauth2v3.OAuth2:
			where, msg = oauth2SecretProblem(bs, v)
			later = func(m string) bool {
				return !pgvWords(m) && m != "token_secret is required when auth_type is not TLS_CLIENT_AUTH"
			}
		case *localratelimitv3.LocalRateLimit:
			// local_ratelimit.cc:104-116, after its rate_limits and before its limiter.
			if _, bad := rateLimitsProblem(v.GetRateLimits(), true); bad == "" && v.GetLocalClusterRateLimit() != nil &&
				!v.GetLocalRateLimitPerDownstreamConnection() && bs.GetClusterManager().GetLocalClusterName() == "" {
				where, msg = "local_cluster_rate_limit", "local_cluster_rate_limit is set but no local cluster name is present"
			}
			later = func(m string) bool {
				return strings.HasPrefix(m, "local rate limit ") || strings.HasPrefix(m, "duplicate descriptor in the local rate descriptor")
			}
		}
		if msg == "" {
			continue
		}
		kept := problems[:0]
		for _, p := range problems {
			if !strings.HasPrefix(p.Path, n.path+".") || !later(p.Message) {
				kept = append(kept, p)
			}
		}
		problems = append(kept, problem(stageListeners, n.path+"."+where, msg))
	}
	return problems
}

// oauth2SecretProblem: the client's token secret (unless it authenticates by TLS) and the HMAC
// secret are fetched by SDS or found among the static generic secrets by name (secretsProvider,
// oauth2/config.cc:31-40, 66-81; SecretManagerImpl::findStaticGenericSecretProvider).
func oauth2SecretProblem(bs *bootstrapv3.Bootstrap, f *oauth2v3.OAuth2) (string, string) {
	c := f.GetConfig()
	creds := c.GetCredentials()
	if c == nil || c.GetAuthType() != oauth2v3.OAuth2Config_TLS_CLIENT_AUTH && creds.GetTokenSecret() == nil {
		return "", "" // nothing to fetch, or refused before (oauth2Problem)
	}
	known := func(s *tlsv3.SdsSecretConfig) bool {
		if s.GetSdsConfig() != nil {
			return true
		}
		for _, sec := range bs.GetStaticResources().GetSecrets() {
			if sec.GetName() == s.GetName() && sec.GetGenericSecret() != nil {
				return true
			}
		}
		return false
	}
	if c.GetAuthType() != oauth2v3.OAuth2Config_TLS_CLIENT_AUTH && !known(creds.GetTokenSecret()) {
		return "config.credentials.token_secret", "invalid token secret configuration"
	}
	if !known(creds.GetHmacSecret()) {
		return "config.credentials.hmac_secret", "invalid HMAC secret configuration"
	}
	return "", ""
}

// lazyGrpcClients: ext_authz, ext_proc and ratelimit make their gRPC client per stream, in the
// filter factory's callback (ext_authz/config.cc:58-70, ext_proc/config.cc:98-105, ratelimit/
// config.cc:41-46), so validate mode never looks their cluster up; only rate_limit_quota builds
// its client with the filter (filter_persistence.cc:49). Their unknown cluster is no refusal.
func lazyGrpcClients(n visited, problems []Problem) []Problem {
	if !strings.Contains(n.path, ".http_filters[") || !strings.HasSuffix(n.path, ".typed_config") {
		return problems
	}
	if _, quota := n.inner.(*rlqv3.RateLimitQuotaFilterConfig); quota {
		return problems
	}
	kept := problems[:0]
	for _, p := range problems {
		if !strings.HasPrefix(p.Path, n.path+".") || !strings.HasPrefix(p.Message, "Unknown gRPC client cluster '") {
			kept = append(kept, p)
		}
	}
	return kept
}
