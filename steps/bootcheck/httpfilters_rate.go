package bootcheck

import (
	"fmt"
	"slices"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	ratelimitv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	localratelimitv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/local_ratelimit/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
)

func init() {
	httpFilterChecks["envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit"] = localRateLimitProblem
	httpFilterChecks["envoy.extensions.filters.http.router.v3.Router"] = routerProblem
}

// localRateLimitProblem is the HTTP local rate limit's FilterConfig (local_ratelimit.cc:24-131):
// its rate_limits (RateLimitConfig), then the limiter (LocalRateLimiterImpl,
// filters/common/local_ratelimit/local_ratelimit_impl.cc:106-172): the bucket's fill interval,
// then each descriptor's, and no descriptor twice.
func localRateLimitProblem(m proto.Message) (string, string) {
	c := m.(*localratelimitv3.LocalRateLimit)
	if where, msg := rateLimitsProblem(c.GetRateLimits(), true); msg != "" {
		return where, msg
	}
	if c.GetLocalClusterRateLimit() != nil && c.GetLocalRateLimitPerDownstreamConnection() { // local_ratelimit.cc:103-108
		return "local_cluster_rate_limit", "local_cluster_rate_limit is set and local_rate_limit_per_downstream_connection is set to true"
	}
	if c.GetTokenBucket().GetMaxTokens() != 0 && fillMillis(c.GetTokenBucket().GetFillInterval()) > 0 && fillMillis(c.GetTokenBucket().GetFillInterval()) < 50 {
		return "token_bucket.fill_interval", "local rate limit token bucket fill timer must be >= 50ms"
	}
	var seen [][]*ratelimitv3.RateLimitDescriptor_Entry
	for i, d := range c.GetDescriptors() {
		where := fmt.Sprintf("descriptors[%d]", i)
		if d.GetTokenBucket().GetMaxTokens() != 0 && fillMillis(d.GetTokenBucket().GetFillInterval()) < 50 {
			return where + ".token_bucket.fill_interval", "local rate limit descriptor token bucket fill timer must be >= 50ms"
		}
		entries := d.GetEntries()
		if slices.ContainsFunc(entries, func(e *ratelimitv3.RateLimitDescriptor_Entry) bool { return e.GetValue() == "" }) {
			continue // a wildcard descriptor: kept apart
		}
		for _, earlier := range seen {
			if slices.EqualFunc(earlier, entries, func(a, b *ratelimitv3.RateLimitDescriptor_Entry) bool {
				return a.GetKey() == b.GetKey() && a.GetValue() == b.GetValue()
			}) {
				parts := make([]string, len(entries))
				for j, e := range entries { // LocalDescriptor::toString (envoy/ratelimit/ratelimit.h:109)
					parts[j] = e.GetKey() + "=" + e.GetValue()
				}
				return where, "duplicate descriptor in the local rate descriptor: " + strings.Join(parts, ", ")
			}
		}
		seen = append(seen, entries)
	}
	return "", ""
}

// fillMillis is PROTOBUF_GET_MS_OR_DEFAULT: whole milliseconds, 0 when unset.
func fillMillis(d *durationpb.Duration) int64 {
	if d == nil {
		return 0
	}
	return d.AsDuration().Milliseconds()
}

// rateLimitsProblem is RateLimitPolicy for each entry of rate_limits (filters/common/
// ratelimit_config/ratelimit_config.cc:20-62): hits_addend a format of one substitution or a
// number, no stage or disable_key, and no limit where the owner takes none (noLimit).
func rateLimitsProblem(limits []*routev3.RateLimit, noLimit bool) (string, string) {
	for i, rl := range limits {
		where := fmt.Sprintf("rate_limits[%d]", i)
		if ha := rl.GetHitsAddend(); ha != nil {
			switch {
			case ha.GetFormat() != "" && ha.GetNumber() != nil, ha.GetFormat() == "" && ha.GetNumber() == nil:
				return where + ".hits_addend", "hits_addend must contain either a format or a number"
			case ha.GetFormat() != "":
				n, err := formatParser{}.parse(ha.GetFormat())
				if err != nil {
					return where + ".hits_addend.format", err.msg
				}
				if n != 1 {
					return where + ".hits_addend.format", "hits_addend format must contain exactly one substitution"
				}
			}
		}
		if rl.GetStage() != nil || rl.GetDisableKey() != "" {
			return where, "'stage' field and 'disable_key' field are not supported"
		}
		if rl.GetLimit() != nil && noLimit {
			return where + ".limit", "'limit' field is not supported"
		}
	}
	return "", ""
}

// routerProblem: the router's upstream HTTP filters go through FilterChainHelper as the
// "router upstream http" chain (router.cc:105-121), which must end in the upstream codec
// (upstream_codec_filter.h:124), with an extra sentence when it does not (config/utility.cc:401).
func routerProblem(m proto.Message) (string, string) {
	filters := m.(*routerv3.Router).GetUpstreamHttpFilters()
	for i, f := range filters {
		where := fmt.Sprintf("upstream_http_filters[%d]", i)
		last := i == len(filters)-1
		if last && f.GetDisabled() {
			return where + ".disabled", fmt.Sprintf("Error: the last (terminal) filter (%s) in the chain cannot be disabled by default.", f.GetName())
		}
		typ := factoryType(f.GetTypedConfig())
		if f.GetConfigDiscovery() != nil || !takes(catHTTPFilter, typ) {
			continue
		}
		codec := typ == "envoy.extensions.filters.http.upstream_codec.v3.UpstreamCodec"
		switch {
		case codec && !last:
			return where, fmt.Sprintf("Error: terminal filter named %s of type envoy.filters.http.upstream_codec must be the last filter in a router upstream http filter chain.", f.GetName())
		case !codec && last:
			return where, fmt.Sprintf("Error: non-terminal filter named %s of type %s is the last filter in a router upstream http filter chain. When upstream_http_filters are specified, they must explicitly end with an UpstreamCodec filter.", f.GetName(), httpFilterFactoryName(typ))
		}
	}
	return "", ""
}
