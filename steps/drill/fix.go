package drill

import (
	"fmt"
	"strconv"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"gopkg.in/yaml.v3"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/sidecar"
)

// JudgeFix judges the learner's fixed bootstrap by what Envoy makes of it, not by its spelling:
// the sidecar's Envoy (the validator with pilot-agent's flags) accepts it without dropping a
// field, and the fault's effect is gone — the broken part means again what it meant before the
// fault, compared as Envoy reads both files (yaml-cpp's typing, either quoting, enums in any case,
// an absent transport_api_version being V3, HTTP/2 in either form).
func (d *Drill) JudgeFix(fixed []byte) Verdict {
	if d.Class == ConfigRejected { // the bootstrap was never broken: istiod's push is
		return Verdict{Fix: true, Why: i18n.M("drill.fix_none")}
	}
	flags := bootcheck.Options{AllowUnknownStaticFields: sidecar.AllowsUnknownFields(d.lab.EnvoyArgs), Serve: true}
	now := bootcheck.ValidateWith(fixed, flags)
	if !now.OK() {
		p := now.Problems[0]
		msg, args := p.WordedHere() // the validator's own words in the learner's language (ko/ja r11 H3)
		key := "drill.fix_rejected"
		if p.Line == 0 { // an empty file has no line to name
			key = "drill.fix_rejected_whole"
		}
		return Verdict{Fix: true, Why: i18n.M(key, append([]string{"line", strconv.Itoa(p.Line), "message", msg}, args...)...)}
	}
	for _, w := range now.Warnings {
		if strings.HasPrefix(w.Message, "Unknown field: ") { // let through, and so left out
			return Verdict{Fix: true, Why: i18n.M("drill.fix_dropped", "line", strconv.Itoa(w.Line), "message", w.Message)}
		}
	}
	was := bootcheck.ValidateWith(d.base, flags).Parsed()
	broken := bootcheck.ValidateWith([]byte(d.Bootstrap), flags).Parsed()
	if was == nil || now.Parsed() == nil {
		return Verdict{Fix: true, Why: i18n.M("drill.fix_unreadable")}
	}
	field := d.Field
	if f, ok := faultByID(d.Fault); ok {
		field = f.fixPath(field)
	}
	if d.Fault == "no-initial-fetch-timeout" { // two fields: name the one still unlike before
		return judgeFetchTimeouts(was, now.Parsed(), field)
	}
	meaning := meaningOf(d.Fault, d.OriginalField())
	before, after := meaning(was), meaning(now.Parsed())
	if before == after {
		// Named as the learner knows it: the misspelt key by its right name, not what held it (ko r12 M8).
		return Verdict{Fix: true, Right: true, Why: i18n.M("drill.fix_right", "field", d.OriginalField())}
	}
	// Still as the fault left it, in a file Envoy refused: the learner made Envoy accept it some
	// other way. Else the field was changed, but not back to what it meant — or, for a fault Envoy
	// accepts, not changed at all.
	key := "drill.fix_not_yet"
	if d.Class == Rejected && broken != nil && meaning(broken) == after {
		key = "drill.fix_other"
	}
	return Verdict{Fix: true, Why: i18n.M(key, "field", field, "want", valueWord(before), "got", valueWord(after))}
}

// meaningOf is what a fault broke, as Envoy reads it: the value a fix must bring back.
func meaningOf(fault, original string) func(*bootstrapv3.Bootstrap) string {
	// The static cluster the ADS config names, wherever it stands in the list (fact r23 M1).
	xds := func(bs *bootstrapv3.Bootstrap) *clusterv3.Cluster {
		if gs := bs.GetDynamicResources().GetAdsConfig().GetGrpcServices(); len(gs) > 0 {
			for _, c := range bs.GetStaticResources().GetClusters() {
				if c.GetName() == gs[0].GetEnvoyGrpc().GetClusterName() {
					return c
				}
			}
		}
		return nil
	}
	switch fault {
	case "ads-cluster-typo":
		return func(bs *bootstrapv3.Bootstrap) string {
			if gs := bs.GetDynamicResources().GetAdsConfig().GetGrpcServices(); len(gs) > 0 {
				return gs[0].GetEnvoyGrpc().GetClusterName()
			}
			return ""
		}
	case "transport-v2":
		return func(bs *bootstrapv3.Bootstrap) string {
			v := bs.GetDynamicResources().GetAdsConfig().GetTransportApiVersion()
			if v == corev3.ApiVersion_AUTO { // "When not specified, we assume v3" (Envoy 1.31 on)
				v = corev3.ApiVersion_V3
			}
			return v.String()
		}
	case "bad-enum", "static-hostname":
		return func(bs *bootstrapv3.Bootstrap) string {
			switch t := xds(bs).GetType(); t {
			case clusterv3.Cluster_STRICT_DNS, clusterv3.Cluster_LOGICAL_DNS:
				return "STRICT_DNS|LOGICAL_DNS" // either resolves the host name
			default:
				return t.String()
			}
		}
	case "no-node-cluster":
		return func(bs *bootstrapv3.Bootstrap) string { return bs.GetNode().GetCluster() }
	case "discovery-wrong":
		return func(bs *bootstrapv3.Bootstrap) string {
			for _, ep := range xds(bs).GetLoadAssignment().GetEndpoints() {
				for _, lb := range ep.GetLbEndpoints() {
					return fmt.Sprint(lb.GetEndpoint().GetAddress().GetSocketAddress().GetPortValue())
				}
			}
			return ""
		}
	case "no-http2":
		return func(bs *bootstrapv3.Bootstrap) string {
			if c := xds(bs); c != nil && bootcheck.SpeaksHTTP2(c) {
				return "HTTP/2"
			}
			return ""
		}
	}
	// misspelt-field: the field under its right name (a sidecar's Envoy dropped the misspelt one).
	compact := func(m proto.Message) string {
		if m == nil || !m.ProtoReflect().IsValid() {
			return ""
		}
		return strings.TrimSpace(prototext.MarshalOptions{}.Format(m))
	}
	return func(bs *bootstrapv3.Bootstrap) string {
		switch {
		case strings.HasSuffix(original, ".load_assignment"):
			if c := xds(bs); c != nil && c.GetLoadAssignment() != nil {
				return compact(c.GetLoadAssignment())
			}
			return ""
		case original == "node.cluster":
			return bs.GetNode().GetCluster()
		}
		return compact(bs)
	}
}

// judgeFetchTimeouts judges the fix of both subscriptions' initial_fetch_timeout: each must wait
// as long as it did before the fault (an absent one waits Envoy's default); the first that does
// not is named alone, with the value it has (or that it is absent, and the default that means).
func judgeFetchTimeouts(was, now *bootstrapv3.Bootstrap, field string) Verdict {
	sources := []struct {
		path string
		of   func(*bootstrapv3.Bootstrap) *corev3.ConfigSource
	}{
		{"dynamic_resources.cds_config.initial_fetch_timeout", func(bs *bootstrapv3.Bootstrap) *corev3.ConfigSource { return bs.GetDynamicResources().GetCdsConfig() }},
		{"dynamic_resources.lds_config.initial_fetch_timeout", func(bs *bootstrapv3.Bootstrap) *corev3.ConfigSource { return bs.GetDynamicResources().GetLdsConfig() }},
	}
	for _, s := range sources {
		before, after := s.of(was), s.of(now)
		if fetchTimeout(before) == fetchTimeout(after) {
			continue
		}
		if after.GetInitialFetchTimeout() == nil { // absent: say what Envoy waits then
			args := append([]string{"field", s.path, "want", fetchTimeout(before).String()}, i18n.ElapsedArgs("default", fetchTimeout(after))...)
			return Verdict{Fix: true, Why: i18n.M("drill.fix_timeout_absent", args...)}
		}
		return Verdict{Fix: true, Why: i18n.M("drill.fix_not_yet", "field", s.path, "want", fetchTimeout(before).String(), "got", fetchTimeout(after).String())}
	}
	return Verdict{Fix: true, Right: true, Why: i18n.M("drill.fix_right", "field", field)}
}

// OriginalField is the broken field under the name it had before the fault: for a misspelt key,
// the key of the original bootstrap that the drill's no longer has; else the field itself.
func (d *Drill) OriginalField() string {
	if d.Fault != "misspelt-field" {
		return d.Field
	}
	var was, now yaml.Node
	if yaml.Unmarshal(d.base, &was) != nil || yaml.Unmarshal([]byte(d.Bootstrap), &now) != nil {
		return d.Field
	}
	at := parent(d.Field)
	m, _ := walk(&was, at+".x")
	n, _ := walk(&now, at+".x")
	if m == nil || n == nil {
		return d.Field
	}
	have := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		have[n.Content[i].Value] = true
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !have[m.Content[i].Value] {
			return at + "." + m.Content[i].Value
		}
	}
	return d.Field
}
