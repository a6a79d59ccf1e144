package bootcheck

import (
	"fmt"

	fluentdv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/access_loggers/fluentd/v3"
	otelv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/access_loggers/open_telemetry/v3"
	statslogv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/access_loggers/stats/v3"
	wasmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/wasm/v3"
	otlpv1 "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

// loggerChecks are the stock access loggers' own checks as their factories build them, and the
// Wasm plugin config's (every Wasm extension builds a PluginConfig before its VM).
func loggerChecks(msg any, path string, st stage, clusters func(string) bool, fail func(string, *formatError)) {
	switch v := msg.(type) {
	case *otelv3.OpenTelemetryAccessLogConfig:
		otelCheck(v, fail)
	case *fluentdv3.FluentdAccessLogConfig:
		if st != stageAdmin { // the admin access log is built before the cluster manager exists
			fluentdCheck(v, clusters, fail)
		}
	case *statslogv3.Config:
		statsLoggerCheck(v, fail)
	case *wasmv3.PluginConfig:
		// source/extensions/common/wasm/wasm.cc:574-580, PluginConfig's constructor.
		if v.GetFailOpen() && v.GetFailurePolicy() != wasmv3.FailurePolicy_UNSPECIFIED {
			fail(".fail_open", thrown("only one of fail_open or failure_policy can be set"))
		}
	}
}

// otelCheck is the OpenTelemetry access logger's factory (source/extensions/access_loggers/
// open_telemetry/config.cc:43-90): exactly one transport, its formatters, then the body (packed
// under "body") and the attributes as formats (substitution_formatter.cc:23-82).
func otelCheck(c *otelv3.OpenTelemetryAccessLogConfig, fail func(string, *formatError)) {
	transports := 0
	for _, has := range []bool{c.GetGrpcService() != nil, c.GetHttpService() != nil, c.GetCommonConfig().GetGrpcService() != nil} {
		if has {
			transports++
		}
	}
	switch {
	case transports == 0:
		fail("", thrown("OpenTelemetry access logger requires one of: grpc_service, http_service, or common_config.grpc_service to be configured."))
		return
	case transports > 1:
		fail("", thrown("OpenTelemetry access logger can only have one transport configured. Specify exactly one of: grpc_service, http_service, or common_config.grpc_service."))
		return
	}
	p, err := formatterExtensions(c.GetFormatters(), false)
	if err != nil {
		fail(".formatters", err)
		return
	}
	if c.GetBody().GetValue() != nil {
		if err := otelValueCheck(c.GetBody(), p); err != nil {
			fail(".body", err)
			return
		}
	}
	for _, kv := range c.GetAttributes().GetValues() {
		if err := otelValueCheck(kv.GetValue(), p); err != nil {
			fail(".attributes", err)
			return
		}
	}
}

// otelValueCheck: strings are formats, lists and key-value lists nest, nothing else is taken.
func otelValueCheck(v *otlpv1.AnyValue, p formatParser) *formatError {
	switch k := v.GetValue().(type) {
	case *otlpv1.AnyValue_StringValue:
		_, err := p.parse(k.StringValue)
		return err
	case *otlpv1.AnyValue_KvlistValue:
		for _, kv := range k.KvlistValue.GetValues() {
			if err := otelValueCheck(kv.GetValue(), p); err != nil {
				return err
			}
		}
		return nil
	case *otlpv1.AnyValue_ArrayValue:
		for _, e := range k.ArrayValue.GetValues() {
			if err := otelValueCheck(e, p); err != nil {
				return err
			}
		}
		return nil
	}
	return thrown("Only string values, nested key value lists and array values are supported in OpenTelemetry access log format.")
}

// fluentdCheck is the Fluentd access logger's factory (source/extensions/access_loggers/fluentd/
// config.cc:34-72): a static cluster, a backoff whose maximum (by default 10 times the base, the
// base 500 ms: common/fluentd/fluentd_base.h:23-24) is not below its base, then the record.
func fluentdCheck(c *fluentdv3.FluentdAccessLogConfig, clusters func(string) bool, fail func(string, *formatError)) {
	if !clusters(c.GetCluster()) {
		fail(".cluster", thrown(fmt.Sprintf("cluster '%s' was not found", c.GetCluster())))
		return
	}
	if b := c.GetRetryOptions().GetBackoffOptions(); b != nil {
		base := millisOr(b.GetBaseInterval(), 500)
		if millisOr(b.GetMaxInterval(), base*10) < base {
			fail(".retry_options.backoff_options", thrown("max_backoff_interval must be greater or equal to base_backoff_interval"))
			return
		}
	}
	p, err := formatterExtensions(c.GetFormatters(), false)
	if err != nil {
		fail(".formatters", err)
		return
	}
	if err := structFormatCheck(c.GetRecord(), p); err != nil {
		fail(".record", err)
	}
}

// millisOr is PROTOBUF_GET_MS_OR_DEFAULT.
func millisOr(d *durationpb.Duration, def uint64) uint64 {
	if d == nil {
		return def
	}
	return uint64(d.AsDuration().Milliseconds())
}

// statsLoggerCheck is the stats access logger's factory and constructor (source/extensions/
// access_loggers/stats/config.cc:21-23, stats.cc:20-31 and 183-210): a prefix or a scope, then
// each histogram's value format, one command alone, then each counter's value.
func statsLoggerCheck(c *statslogv3.Config, fail func(string, *formatError)) {
	if (c.GetStatPrefix() == "") == (c.GetStatsScope() == nil) {
		fail("", thrown("Either 'stat_prefix' or 'stats_scope' must be configured, but not both."))
		return
	}
	valueFormat := func(format string) *formatError {
		n, err := formatParser{}.parse(format)
		if err == nil && n != 1 {
			err = thrown("Stats logger `value_format` string must contain exactly one substitution")
		}
		return err
	}
	for i, h := range c.GetHistograms() {
		if err := valueFormat(h.GetValueFormat()); err != nil {
			fail(fmt.Sprintf(".histograms[%d].value_format", i), err)
			return
		}
	}
	for i, ct := range c.GetCounters() {
		where := fmt.Sprintf(".counters[%d]", i)
		switch {
		case ct.GetValueFormat() != "" && ct.GetValueFixed() != nil:
			fail(where, thrown("Stats logger cannot have both `value_format` and `value_fixed` configured."))
			return
		case ct.GetValueFormat() != "":
			if err := valueFormat(ct.GetValueFormat()); err != nil {
				fail(where+".value_format", err)
				return
			}
		case ct.GetValueFixed() == nil:
			fail(where, thrown("Stats logger counter must have either `value_format` or `value_fixed`."))
			return
		}
	}
}
