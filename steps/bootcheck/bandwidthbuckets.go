package bootcheck

import (
	"fmt"
	"sort"
	"strings"

	bandwidthsharev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/bandwidth_share/v3"
)

// bandwidthBucketChecks: bandwidth_share's token buckets are one server-wide set, by bucket_id
// (TokenBucketSingleton, a singleton: filters/http/bandwidth_share/token_bucket_singleton.cc:
// 119-169). Each config that is built — an HTTP filter, an upstream one in a cluster, a per-route
// config — sets its request bucket, then its response bucket (config.cc:73-86); a bucket_id set
// before with another runtime key, default rate or fill interval is refused. Clusters are built
// before listeners; a filter found by discovery is not built from the bootstrap and is left out.
func bandwidthBucketChecks(tree []visited, add addFunc) {
	type config struct {
		path string
		c    *bandwidthsharev3.BandwidthShare
	}
	var configs []config
	for _, n := range tree {
		if c, ok := n.inner.(*bandwidthsharev3.BandwidthShare); ok && strings.HasPrefix(n.path, "static_resources.") && !strings.Contains(n.path, "config_discovery") {
			configs = append(configs, config{n.path, c})
		}
	}
	if len(configs) < 2 {
		return
	}
	cluster := func(p string) bool { return strings.HasPrefix(p, "static_resources.clusters[") }
	sort.SliceStable(configs, func(i, j int) bool { return cluster(configs[i].path) && !cluster(configs[j].path) })
	type bucket struct {
		key           string
		def, interval uint64
	}
	buckets := map[string]bucket{}
	for _, c := range configs {
		interval := uint64(50) // PROTOBUF_GET_MS_OR_DEFAULT(config, fill_interval, 50)
		if fi := c.c.GetFillInterval(); fi != nil {
			interval = uint64(fi.AsDuration().Milliseconds())
		}
		for _, l := range []struct {
			field string
			limit *bandwidthsharev3.BandwidthShare_Limit
		}{{"request_limit", c.c.GetRequestLimit()}, {"response_limit", c.c.GetResponseLimit()}} {
			if l.limit == nil {
				continue
			}
			id, now := l.limit.GetBucketId(), bucket{l.limit.GetKbps().GetRuntimeKey(), uint64(l.limit.GetKbps().GetDefaultValue()), interval}
			was, seen := buckets[id]
			if !seen {
				buckets[id] = now
				continue
			}
			var msg string
			switch {
			case now.key != was.key:
				msg = fmt.Sprintf("bandwidth_share bucket %s attempted configuration with mismatched runtime config key %s vs. existing %s - to have different config you must use a distinct bucket_id", id, now.key, was.key)
			case now.def != was.def:
				msg = fmt.Sprintf("bandwidth_share bucket %s attempted configuration with mismatched default value %dKiB/s vs. existing %dKiB/s - to have different config you must use a distinct bucket_id", id, now.def, was.def)
			case now.interval != was.interval:
				msg = fmt.Sprintf("bandwidth_share bucket %s attempted configuration with mismatched fill_interval %dms vs. existing %dms - to have different config you must use a distinct bucket_id", id, now.interval, was.interval)
			default:
				continue
			}
			add(stageOfAny(c.path), c.path+"."+l.field, msg)
			return
		}
	}
}
