package bootcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	gfev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/grpc_field_extraction/v3"
	reversev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/grpc_json_reverse_transcoder/v3"
	transcoderv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/grpc_json_transcoder/v3"
	scrubberv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/proto_api_scrubber/v3"
	pmev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/proto_message_extraction/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

func init() {
	for typ, check := range map[string]func(proto.Message) (string, string){
		"envoy.extensions.filters.http.grpc_json_transcoder.v3.GrpcJsonTranscoder":                transcoderProblem,
		"envoy.extensions.filters.http.grpc_field_extraction.v3.GrpcFieldExtractionConfig":        fieldExtractionProblem,
		"envoy.extensions.filters.http.grpc_json_reverse_transcoder.v3.GrpcJsonReverseTranscoder": reverseTranscoderProblem,
		"envoy.extensions.filters.http.proto_message_extraction.v3.ProtoMessageExtractionConfig":  messageExtractionProblem,
		"envoy.extensions.filters.http.proto_api_scrubber.v3.ProtoApiScrubberConfig":              apiScrubberProblem,
	} {
		httpFilterChecks[typ] = check
	}
}

// descriptorPool is a FileDescriptorSet built file by file into an empty pool, as Protobuf::
// DescriptorPool::BuildFile does: a file's imports must come before it; the same file twice is
// taken once. parsed is false when the bytes are no FileDescriptorSet; failed names the first file
// that does not build (the pool keeps going, as the filters that ignore BuildFile's result do).
func descriptorPool(raw []byte) (files *protoregistry.Files, parsed bool, failed string) {
	var set descriptorpb.FileDescriptorSet
	if proto.Unmarshal(raw, &set) != nil {
		return nil, false, ""
	}
	files = new(protoregistry.Files)
	built := map[string]*descriptorpb.FileDescriptorProto{}
	for _, fd := range set.GetFile() {
		if earlier, ok := built[fd.GetName()]; ok {
			if !proto.Equal(earlier, fd) && failed == "" {
				failed = fd.GetName()
			}
			continue
		}
		f, err := protodesc.NewFile(fd, files)
		if err == nil {
			err = files.RegisterFile(f)
		}
		if err != nil {
			if failed == "" {
				failed = fd.GetName()
			}
			continue
		}
		built[fd.GetName()] = fd
	}
	return files, true, failed
}

// findMethod is DescriptorPool::FindMethodByName ("pkg.Service.Method").
func findMethod(files *protoregistry.Files, name string) bool {
	d, err := files.FindDescriptorByName(protoreflect.FullName(name))
	if err != nil {
		return false
	}
	_, ok := d.(protoreflect.MethodDescriptor)
	return ok
}

// transcoderProblem is JsonTranscoderConfig (json_transcoder_filter.cc:120-190): the inline
// descriptor set parses, every file builds, every listed service is in it.
func transcoderProblem(m proto.Message) (string, string) {
	c := m.(*transcoderv3.GrpcJsonTranscoder)
	if _, inline := c.GetDescriptorSet().(*transcoderv3.GrpcJsonTranscoder_ProtoDescriptorBin); !inline {
		return "", "" // a file: needs the file
	}
	files, parsed, failed := descriptorPool(c.GetProtoDescriptorBin())
	switch {
	case !parsed:
		return "proto_descriptor_bin", "transcoding_filter: Unable to parse proto descriptor"
	case failed != "":
		return "proto_descriptor_bin", "transcoding_filter: Unable to build proto descriptor pool"
	}
	for i, s := range c.GetServices() {
		d, err := files.FindDescriptorByName(protoreflect.FullName(s))
		if _, ok := d.(protoreflect.ServiceDescriptor); err != nil || !ok {
			return fmt.Sprintf("services[%d]", i), "transcoding_filter: Could not find '" + s + "' in the proto descriptor"
		}
	}
	return "", ""
}

// dataSourceCase is DataSource::specifier_case's number, as these filters print it.
func dataSourceCase(ds *corev3.DataSource) int {
	switch ds.GetSpecifier().(type) {
	case *corev3.DataSource_Filename:
		return 1
	case *corev3.DataSource_InlineBytes:
		return 2
	case *corev3.DataSource_InlineString:
		return 3
	case *corev3.DataSource_EnvironmentVariable:
		return 4
	}
	return 0
}

// extractionPool is initDescriptorPool of grpc_field_extraction (filter_config.cc:58-90) and
// proto_message_extraction (filter_config.cc:99-132): inline bytes that parse; files that do not
// build are left out.
func extractionPool(ds *corev3.DataSource, field string) (*protoregistry.Files, string, string) {
	switch dataSourceCase(ds) {
	case 1:
		return nil, "", "" // a file: needs the file
	case 2:
		files, parsed, _ := descriptorPool(ds.GetInlineBytes())
		if !parsed {
			return nil, field, "unable to parse proto descriptor from inline bytes: " + string(ds.GetInlineBytes())
		}
		return files, "", ""
	}
	return nil, field, fmt.Sprintf("unsupported DataSource case `%d` for configuring `descriptor_set`", dataSourceCase(ds))
}

// fieldExtractionProblem: the descriptor pool, then each method named, in name order (Envoy: its
// map's): it exists, then its request fields (initExtractors, filter_config.cc:36-56).
func fieldExtractionProblem(m proto.Message) (string, string) {
	c := m.(*gfev3.GrpcFieldExtractionConfig)
	files, where, msg := extractionPool(c.GetDescriptorSet(), "descriptor_set")
	if files == nil {
		return where, msg
	}
	for _, name := range slices.Sorted(maps.Keys(c.GetExtractionsByMethod())) {
		if !findMethod(files, name) {
			return "extractions_by_method[" + name + "]", fmt.Sprintf("couldn't find the gRPC method `%s` defined in the proto descriptor", name)
		}
		fields := sortedKeys(c.GetExtractionsByMethod()[name].GetRequestFieldExtractions())
		if msg := methodFieldsProblem(files, name, false, fields); msg != "" {
			return "extractions_by_method[" + name + "]", msg
		}
	}
	return "", ""
}

// messageExtractionProblem: the descriptor pool, then each method: it exists, no request field
// counts repeated cardinality, at most one response field does, then the fields it extracts,
// the request's then the response's, all but those counted (initExtractors,
// proto_message_extraction/filter_config.cc:52-92; ExtractorImpl::init, extractor_impl.cc:82-110).
func messageExtractionProblem(m proto.Message) (string, string) {
	c := m.(*pmev3.ProtoMessageExtractionConfig)
	if c.GetDataSource() == nil {
		return "", ""
	}
	files, where, msg := extractionPool(c.GetDataSource(), "data_source")
	if files == nil {
		return where, msg
	}
	byMethod := c.GetExtractionByMethod()
	for _, name := range slices.Sorted(maps.Keys(byMethod)) {
		where := "extraction_by_method[" + name + "]"
		if !findMethod(files, name) {
			return where, fmt.Sprintf("couldn't find the gRPC method `%s` defined in the proto descriptor", name)
		}
		for _, d := range byMethod[name].GetRequestExtractionByField() {
			if d == pmev3.MethodExtraction_EXTRACT_REPEATED_CARDINALITY {
				return where, fmt.Sprintf("method `%s`: EXTRACT_REPEATED_CARDINALITY is not supported for request fields.", name)
			}
		}
		n := 0
		for _, d := range byMethod[name].GetResponseExtractionByField() {
			if d == pmev3.MethodExtraction_EXTRACT_REPEATED_CARDINALITY {
				n++
			}
		}
		if n > 1 {
			return where, fmt.Sprintf("method `%s`: only one field can be tagged with EXTRACT_REPEATED_CARDINALITY for response.", name)
		}
		for i, side := range []map[string]pmev3.MethodExtraction_ExtractDirective{byMethod[name].GetRequestExtractionByField(), byMethod[name].GetResponseExtractionByField()} {
			var fields []string
			for _, f := range sortedKeys(side) {
				if side[f] != pmev3.MethodExtraction_EXTRACT_REPEATED_CARDINALITY {
					fields = append(fields, f)
				}
			}
			if msg := methodFieldsProblem(files, name, i == 1, fields); msg != "" {
				return where, msg
			}
		}
	}
	return "", ""
}

// reverseTranscoderProblem is GrpcJsonReverseTranscoderConfig (grpc_json_reverse_transcoder/
// filter_config.cc:47-72): a descriptor, that parses, whose files all build.
func reverseTranscoderProblem(m proto.Message) (string, string) {
	c := m.(*reversev3.GrpcJsonReverseTranscoder)
	switch {
	case c.GetDescriptorPath() != "":
		return "", ""
	case len(c.GetDescriptorBinary()) == 0:
		return "", "Descriptor set not set"
	}
	_, parsed, failed := descriptorPool(c.GetDescriptorBinary())
	switch {
	case !parsed:
		return "descriptor_binary", "Unable to parse proto descriptor binary"
	case failed != "":
		return "descriptor_binary", "Unable to build proto descriptor pool"
	}
	return "", ""
}

// scrubberError starts every proto_api_scrubber refusal (kConfigInitializationError).
const scrubberError = "Error encountered during config initialization."

// apiScrubberProblem is ProtoApiScrubberFilterConfig::initialize (proto_api_scrubber/
// filter_config.cc:95-125): the descriptor set (loadDescriptorSet, :175-215), then each method
// restriction's name (validateMethodName, :234-268), in name order (Envoy: its map's).
func apiScrubberProblem(m proto.Message) (string, string) {
	c := m.(*scrubberv3.ProtoApiScrubberConfig)
	ds := c.GetDescriptorSet().GetDataSource()
	var files *protoregistry.Files
	switch dataSourceCase(ds) {
	case 1:
		return "", ""
	case 2:
		f, parsed, failed := descriptorPool(ds.GetInlineBytes())
		switch {
		case !parsed:
			return "descriptor_set", fmt.Sprintf("%s Unable to parse proto descriptor from inline bytes `%s`", scrubberError, ds.GetInlineBytes())
		case failed != "":
			return "descriptor_set", fmt.Sprintf("%s Error occurred in file `%s` while trying to build proto descriptors.", scrubberError, failed)
		}
		files = f
	default:
		return "descriptor_set", fmt.Sprintf("%s Unsupported DataSource case `%d` for configuring `descriptor_set`", scrubberError, dataSourceCase(ds))
	}
	methods := c.GetRestrictions().GetMethodRestrictions()
	for _, name := range slices.Sorted(maps.Keys(methods)) {
		where := "restrictions.method_restrictions[" + name + "]"
		parts := strings.Split(name, "/")
		switch {
		case name == "":
			return where, fmt.Sprintf("%s Invalid method name: '%s'. Method name is empty.", scrubberError, name)
		case strings.Contains(name, "*"):
			return where, fmt.Sprintf("%s Invalid method name: '%s'. Method name contains '*' which is not supported.", scrubberError, name)
		case len(parts) != 3 || parts[0] != "" || !apiNameValid(parts[1]) || parts[2] == "":
			return where, fmt.Sprintf("%s Invalid method name: '%s'. Method name should follow the gRPC format ('/package.ServiceName/MethodName').", scrubberError, name)
		case !findMethod(files, parts[1]+"."+parts[2]):
			return where, fmt.Sprintf("%s Invalid method name: '%s'. The method is not found in the descriptor pool.", scrubberError, name)
		}
	}
	return "", ""
}

// apiNameValid is isApiNameValid (filter_config.cc:39-48): dotted, no empty part.
func apiNameValid(name string) bool {
	parts := strings.Split(name, ".")
	return len(parts) > 1 && !slices.Contains(parts, "")
}
