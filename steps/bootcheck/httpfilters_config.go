package bootcheck

import (
	"fmt"
	"strings"

	adaptivev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/adaptive_concurrency/v3"
	admissionv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/admission_control/v3"
	awslambdav3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/aws_lambda/v3"
	awssigningv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/aws_request_signing/v3"
	bandwidthsharev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/bandwidth_share/v3"
	cachev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/cache/v3"
	cachev2v3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/cache_v2/v3"
	compressorv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/compressor/v3"
	credentialv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/credential_injector/v3"
	decompressorv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/decompressor/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

func init() {
	for typ, check := range map[string]func(proto.Message) (string, string){
		"envoy.extensions.filters.http.adaptive_concurrency.v3.AdaptiveConcurrency": adaptiveConcurrencyProblem,
		"envoy.extensions.filters.http.admission_control.v3.AdmissionControl":       admissionControlProblem,
		"envoy.extensions.filters.http.aws_lambda.v3.Config":                        awsLambdaProblem,
		"envoy.extensions.filters.http.aws_request_signing.v3.AwsRequestSigning":    awsSigningProblem,
		"envoy.extensions.filters.http.bandwidth_share.v3.BandwidthShare":           bandwidthShareProblem,
		"envoy.extensions.filters.http.cache.v3.CacheConfig": func(m proto.Message) (string, string) {
			c := m.(*cachev3.CacheConfig)
			return cacheProblem(c.GetDisabled().GetValue(), c.GetTypedConfig(), "envoy.extensions.http.cache.")
		},
		"envoy.extensions.filters.http.cache_v2.v3.CacheV2Config": func(m proto.Message) (string, string) {
			c := m.(*cachev2v3.CacheV2Config)
			return cacheProblem(c.GetDisabled().GetValue(), c.GetTypedConfig(), "envoy.extensions.http.cache_v2.")
		},
		"envoy.extensions.filters.http.compressor.v3.Compressor": func(m proto.Message) (string, string) {
			return compressionLibraryProblem(m.(*compressorv3.Compressor).GetCompressorLibrary().GetTypedConfig(), "compressor_library", "compressor")
		},
		"envoy.extensions.filters.http.decompressor.v3.Decompressor": func(m proto.Message) (string, string) {
			return compressionLibraryProblem(m.(*decompressorv3.Decompressor).GetDecompressorLibrary().GetTypedConfig(), "decompressor_library", "decompressor")
		},
		"envoy.extensions.filters.http.credential_injector.v3.CredentialInjector": credentialInjectorProblem,
	} {
		httpFilterChecks[typ] = check
	}
}

// adaptiveConcurrencyProblem: the gradient controller needs a minRTT interval of at least 1 ms or a
// fixed minRTT (GradientControllerConfig, adaptive_concurrency/controller/gradient_controller.cc:
// 48-53; both in whole milliseconds).
func adaptiveConcurrencyProblem(m proto.Message) (string, string) {
	g := m.(*adaptivev3.AdaptiveConcurrency).GetGradientControllerConfig()
	if g == nil {
		return "", ""
	}
	if p := g.GetMinRttCalcParams(); fillMillis(p.GetInterval()) < 1 && fillMillis(p.GetFixedValue()) <= 0 {
		return "gradient_controller_config.min_rtt_calc_params", "adaptive_concurrency: neither `concurrency_update_interval` nor `fixed_value` set"
	}
	return "", ""
}

// admissionControlProblem: the success rate threshold at least 1% (admission_control/config.cc:
// 39-41), then the success criteria (SuccessCriteriaEvaluator: HTTP ranges within [100, 600],
// gRPC codes up to 16, success_criteria_evaluator.cc:24-55).
func admissionControlProblem(m proto.Message) (string, string) {
	c := m.(*admissionv3.AdmissionControl)
	if c.GetSrThreshold() != nil && c.GetSrThreshold().GetDefaultValue().GetValue() < 1.0 {
		return "sr_threshold", "Success rate threshold cannot be less than 1.0%."
	}
	sc := c.GetSuccessCriteria()
	for i, r := range sc.GetHttpCriteria().GetHttpSuccessStatus() {
		if s, e := r.GetStart(), r.GetEnd(); !(s <= e && s < 600 && s >= 100 && e <= 600 && e >= 100) {
			return fmt.Sprintf("success_criteria.http_criteria.http_success_status[%d]", i), fmt.Sprintf("invalid HTTP range: [%d, %d)", s, e)
		}
	}
	for i, code := range sc.GetGrpcCriteria().GetGrpcSuccessStatus() {
		if code > 16 {
			return fmt.Sprintf("success_criteria.grpc_criteria.grpc_success_status[%d]", i), fmt.Sprintf("invalid gRPC code %d", code)
		}
	}
	return "", ""
}

// awsLambdaProblem: the ARN has at least seven ':'-separated parts and starts with "arn"
// (parseArn, aws_lambda_filter.cc:410-420; aws_lambda/config.cc:64-67).
func awsLambdaProblem(m proto.Message) (string, string) {
	arn := m.(*awslambdav3.Config).GetArn()
	if parts := strings.Split(arn, ":"); len(parts) < 7 || parts[0] != "arn" {
		return "arn", "aws_lambda_filter: Invalid ARN: " + arn
	}
	return "", ""
}

// awsSigningProblem: SigV4 signs for one region, so its region names no set — no '*' or ','
// (createSigner, aws_request_signing/config.cc:20-27, :160-165). Judged when the region and
// inline credentials are written: otherwise Envoy first reads them from the environment.
func awsSigningProblem(m proto.Message) (string, string) {
	c := m.(*awssigningv3.AwsRequestSigning)
	if c.GetRegion() == "" || c.GetCredentialProvider().GetInlineCredential() == nil || c.GetSigningAlgorithm() == awssigningv3.AwsRequestSigning_AWS_SIGV4A {
		return "", ""
	}
	if strings.ContainsAny(c.GetRegion(), "*,") {
		return "region", "SigV4 region string cannot contain wildcards or commas. Region sets can be specified when using signing_algorithm: AWS_SIGV4A."
	}
	return "", ""
}

// bandwidthShareProblem: response trailers named only when enabled (bandwidth_share/config.cc:
// 53-56).
func bandwidthShareProblem(m proto.Message) (string, string) {
	c := m.(*bandwidthsharev3.BandwidthShare)
	if c.GetResponseTrailerPrefix() != "" && !c.GetEnableResponseTrailers() {
		return "response_trailer_prefix", "enable_response_trailers must be true if response_trailer_prefix is set"
	}
	// Then the tenant selector's tree (:58-70), whose actions return strings: a format string or
	// a string (common/matcher/actions/string_returning_action.cc:25-82). An action of another
	// type is refused by its lookup, wrapped; judged only when every input is one Envoy has, so
	// no earlier lookup refuses first.
	tree := c.GetTenantNameSelector()
	inputs := func(u string) bool {
		typ := u[strings.LastIndex(u, "/")+1:]
		return factoryName("envoy.matching.http.input", typ) != "" || factoryName("envoy.matching.common_inputs", typ) != ""
	}
	if firstBadInput(tree, inputs) != "" {
		return "", ""
	}
	name, typ := firstUnknownAction(tree, func(typ string) bool {
		return typ == "envoy.config.core.v3.SubstitutionFormatString" || typ == "google.protobuf.StringValue"
	})
	if typ != "" {
		return "tenant_name_selector", fmt.Sprintf("invalid tenant_name_selector:\nDidn't find a registered implementation for '%s' with type URL: '%s'", name, typ)
	}
	return "", ""
}

// cacheProblem: unless disabled, a cache of a type the stock build has (cache/config.cc:15-24,
// cache_v2/config.cc:17-26: simple_http_cache and file_system_http_cache, by the Any's own type).
func cacheProblem(disabled bool, typed *anypb.Any, pkg string) (string, string) {
	if disabled {
		return "", ""
	}
	if typed == nil {
		return "", "at least one of typed_config or disabled must be set"
	}
	typ := typeName(typed)
	if rest, ok := strings.CutPrefix(typ, pkg); !ok || (!strings.HasPrefix(rest, "simple_http_cache.v3.") && !strings.HasPrefix(rest, "file_system_http_cache.v3.")) {
		return "typed_config", fmt.Sprintf("Didn't find a registered implementation for type: '%s'", typ)
	}
	return "", ""
}

// compressionLibraryProblem: the (de)compressor library found by the Any's own type: gzip, brotli
// or zstd (compressor/config.cc:21-28, decompressor/config.cc:17-25).
func compressionLibraryProblem(typed *anypb.Any, field, side string) (string, string) {
	typ := typeName(typed)
	for _, lib := range []string{"gzip", "brotli", "zstd"} {
		if strings.HasPrefix(typ, "envoy.extensions.compression."+lib+"."+side+".v3.") {
			return "", ""
		}
	}
	return field + ".typed_config", fmt.Sprintf("Didn't find a registered implementation for type: '%s'", typ)
}

// credentialInjectorProblem: the credential found by type: generic or oauth2 (credential_injector/
// config.cc:21-29).
func credentialInjectorProblem(m proto.Message) (string, string) {
	cred := m.(*credentialv3.CredentialInjector).GetCredential()
	switch typ := factoryType(cred.GetTypedConfig()); typ {
	case "envoy.extensions.http.injected_credentials.generic.v3.Generic", "envoy.extensions.http.injected_credentials.oauth2.v3.OAuth2":
		return "", ""
	default:
		return "credential", fmt.Sprintf("Didn't find a registered implementation for '%s' with type URL: '%s'", cred.GetName(), typ)
	}
}
