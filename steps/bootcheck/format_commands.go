package bootcheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// builtinCommands are the commands of Envoy's two built-in command parsers, with their syntax
// flags, read from their tables: getKnownStreamInfoFormatterProviders (source/common/formatter/
// stream_info_formatter.cc:1053-2605) and BuiltInHttpCommandParser::getKnownFormatters
// (source/common/formatter/http_specific_formatter.cc:485-620) at v1.39.0.
var builtinCommands = map[string]builtinCommand{
	"REQUEST_DURATION":                              {cmdOnly, nil},
	"REQUEST_TX_DURATION":                           {cmdOnly, nil},
	"RESPONSE_DURATION":                             {cmdOnly, nil},
	"RESPONSE_TX_DURATION":                          {cmdOnly, nil},
	"DOWNSTREAM_HANDSHAKE_DURATION":                 {cmdOnly, nil},
	"ROUNDTRIP_DURATION":                            {cmdOnly, nil},
	"BYTES_RECEIVED":                                {cmdOnly, nil},
	"BYTES_RETRANSMITTED":                           {cmdOnly, nil},
	"PACKETS_RETRANSMITTED":                         {cmdOnly, nil},
	"UPSTREAM_WIRE_BYTES_RECEIVED":                  {cmdOnly, nil},
	"UPSTREAM_HEADER_BYTES_RECEIVED":                {cmdOnly, nil},
	"UPSTREAM_DECOMPRESSED_HEADER_BYTES_RECEIVED":   {cmdOnly, nil},
	"DOWNSTREAM_WIRE_BYTES_RECEIVED":                {cmdOnly, nil},
	"DOWNSTREAM_HEADER_BYTES_RECEIVED":              {cmdOnly, nil},
	"DOWNSTREAM_DECOMPRESSED_HEADER_BYTES_RECEIVED": {cmdOnly, nil},
	"PROTOCOL":                                      {cmdOnly, nil},
	"UPSTREAM_PROTOCOL":                             {cmdOnly, nil},
	"RESPONSE_CODE":                                 {cmdOnly, nil},
	"RESPONSE_CODE_DETAILS":                         {paramsOptional, nil},
	"CONNECTION_TERMINATION_DETAILS":                {cmdOnly, nil},
	"BYTES_SENT":                                    {cmdOnly, nil},
	"UPSTREAM_WIRE_BYTES_SENT":                      {cmdOnly, nil},
	"UPSTREAM_HEADER_BYTES_SENT":                    {cmdOnly, nil},
	"UPSTREAM_DECOMPRESSED_HEADER_BYTES_SENT":       {cmdOnly, nil},
	"DOWNSTREAM_WIRE_BYTES_SENT":                    {cmdOnly, nil},
	"DOWNSTREAM_HEADER_BYTES_SENT":                  {cmdOnly, nil},
	"DOWNSTREAM_DECOMPRESSED_HEADER_BYTES_SENT":     {cmdOnly, nil},
	"DURATION":                                      {cmdOnly, nil},
	"COMMON_DURATION":                               {paramsRequired, commonDurationArg},
	"CUSTOM_FLAGS":                                  {cmdOnly, nil},
	"RESPONSE_FLAGS":                                {cmdOnly, nil},
	"RESPONSE_FLAGS_LONG":                           {cmdOnly, nil},
	"UPSTREAM_HOST_NAME":                            {cmdOnly, nil},
	"UPSTREAM_HOST_NAME_WITHOUT_PORT":               {cmdOnly, nil},
	"UPSTREAM_HOST":                                 {cmdOnly, nil},
	"UPSTREAM_HOSTS_ATTEMPTED":                      {cmdOnly, nil},
	"UPSTREAM_HOSTS_ATTEMPTED_WITHOUT_PORT":         {cmdOnly, nil},
	"UPSTREAM_HOST_NAMES_ATTEMPTED":                 {cmdOnly, nil},
	"UPSTREAM_HOST_NAMES_ATTEMPTED_WITHOUT_PORT":    {cmdOnly, nil},
	"UPSTREAM_CONNECTION_ID":                        {cmdOnly, nil},
	"UPSTREAM_CONNECTION_IDS_ATTEMPTED":             {cmdOnly, nil},
	"UPSTREAM_CLUSTER":                              {cmdOnly, nil},
	"UPSTREAM_CLUSTER_RAW":                          {cmdOnly, nil},
	"UPSTREAM_LOCAL_ADDRESS":                        {cmdOnly, nil},
	"UPSTREAM_LOCAL_ADDRESS_WITHOUT_PORT":           {paramsOptional, nil},
	"UPSTREAM_LOCAL_PORT":                           {cmdOnly, nil},
	"UPSTREAM_REMOTE_ADDRESS":                       {cmdOnly, nil},
	"UPSTREAM_REMOTE_ADDRESS_WITHOUT_PORT":          {paramsOptional, nil},
	"UPSTREAM_REMOTE_PORT":                          {cmdOnly, nil},
	"UPSTREAM_REMOTE_ADDRESS_ENDPOINT_ID":           {cmdOnly, nil},
	"UPSTREAM_REQUEST_ATTEMPT_COUNT":                {cmdOnly, nil},
	"UPSTREAM_TLS_CIPHER":                           {cmdOnly, nil},
	"UPSTREAM_TLS_GROUP":                            {cmdOnly, nil},
	"UPSTREAM_TLS_VERSION":                          {cmdOnly, nil},
	"UPSTREAM_TLS_SESSION_ID":                       {cmdOnly, nil},
	"UPSTREAM_SERVER_NAME":                          {cmdOnly, nil},
	"UPSTREAM_PEER_ISSUER":                          {cmdOnly, nil},
	"UPSTREAM_PEER_CERT":                            {cmdOnly, nil},
	"UPSTREAM_PEER_SUBJECT":                         {cmdOnly, nil},
	"DOWNSTREAM_LOCAL_ADDRESS":                      {cmdOnly, nil},
	"DOWNSTREAM_DETECTED_CLOSE_TYPE":                {cmdOnly, nil},
	"DOWNSTREAM_DIRECT_LOCAL_ADDRESS":               {cmdOnly, nil},
	"DOWNSTREAM_LOCAL_ADDRESS_WITHOUT_PORT":         {paramsOptional, nil},
	"DOWNSTREAM_DIRECT_LOCAL_ADDRESS_WITHOUT_PORT":  {paramsOptional, nil},
	"DOWNSTREAM_LOCAL_PORT":                         {cmdOnly, nil},
	"DOWNSTREAM_DIRECT_LOCAL_PORT":                  {cmdOnly, nil},
	"DOWNSTREAM_LOCAL_ADDRESS_ENDPOINT_ID":          {cmdOnly, nil},
	"DOWNSTREAM_DIRECT_LOCAL_ADDRESS_ENDPOINT_ID":   {cmdOnly, nil},
	"DOWNSTREAM_REMOTE_ADDRESS":                     {cmdOnly, nil},
	"DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT":        {paramsOptional, nil},
	"DOWNSTREAM_REMOTE_PORT":                        {cmdOnly, nil},
	"DOWNSTREAM_DIRECT_REMOTE_ADDRESS":              {cmdOnly, nil},
	"DOWNSTREAM_DIRECT_REMOTE_ADDRESS_WITHOUT_PORT": {paramsOptional, nil},
	"DOWNSTREAM_DIRECT_REMOTE_PORT":                 {cmdOnly, nil},
	"CONNECTION_ID":                                 {cmdOnly, nil},
	"REQUESTED_SERVER_NAME":                         {paramsOptional, serverNameArg},
	"ROUTE_NAME":                                    {cmdOnly, nil},
	"UPSTREAM_PEER_URI_SAN":                         {cmdOnly, nil},
	"UPSTREAM_PEER_DNS_SAN":                         {cmdOnly, nil},
	"UPSTREAM_PEER_IP_SAN":                          {cmdOnly, nil},
	"UPSTREAM_LOCAL_URI_SAN":                        {cmdOnly, nil},
	"UPSTREAM_LOCAL_DNS_SAN":                        {cmdOnly, nil},
	"UPSTREAM_LOCAL_IP_SAN":                         {cmdOnly, nil},
	"DOWNSTREAM_PEER_URI_SAN":                       {cmdOnly, nil},
	"DOWNSTREAM_PEER_DNS_SAN":                       {cmdOnly, nil},
	"DOWNSTREAM_PEER_IP_SAN":                        {cmdOnly, nil},
	"DOWNSTREAM_PEER_EMAIL_SAN":                     {cmdOnly, nil},
	"DOWNSTREAM_PEER_OTHERNAME_SAN":                 {cmdOnly, nil},
	"DOWNSTREAM_LOCAL_URI_SAN":                      {cmdOnly, nil},
	"DOWNSTREAM_LOCAL_DNS_SAN":                      {cmdOnly, nil},
	"DOWNSTREAM_LOCAL_IP_SAN":                       {cmdOnly, nil},
	"DOWNSTREAM_LOCAL_EMAIL_SAN":                    {cmdOnly, nil},
	"DOWNSTREAM_LOCAL_OTHERNAME_SAN":                {cmdOnly, nil},
	"DOWNSTREAM_PEER_SUBJECT":                       {cmdOnly, nil},
	"DOWNSTREAM_LOCAL_SUBJECT":                      {cmdOnly, nil},
	"DOWNSTREAM_TLS_SESSION_ID":                     {cmdOnly, nil},
	"DOWNSTREAM_TLS_CIPHER":                         {cmdOnly, nil},
	"DOWNSTREAM_TLS_GROUP":                          {cmdOnly, nil},
	"DOWNSTREAM_TLS_VERSION":                        {cmdOnly, nil},
	"DOWNSTREAM_PEER_FINGERPRINT_256":               {cmdOnly, nil},
	"DOWNSTREAM_PEER_FINGERPRINT_1":                 {cmdOnly, nil},
	"DOWNSTREAM_PEER_SERIAL":                        {cmdOnly, nil},
	"DOWNSTREAM_PEER_CHAIN_FINGERPRINTS_256":        {cmdOnly, nil},
	"DOWNSTREAM_PEER_CHAIN_FINGERPRINTS_1":          {cmdOnly, nil},
	"DOWNSTREAM_PEER_CHAIN_SERIALS":                 {cmdOnly, nil},
	"DOWNSTREAM_PEER_ISSUER":                        {cmdOnly, nil},
	"DOWNSTREAM_PEER_ISSUER_FINGERPRINT_256":        {cmdOnly, nil},
	"DOWNSTREAM_PEER_ISSUER_SERIAL":                 {cmdOnly, nil},
	"DOWNSTREAM_PEER_CERT":                          {cmdOnly, nil},
	"DOWNSTREAM_TRANSPORT_FAILURE_REASON":           {cmdOnly, nil},
	"DOWNSTREAM_LOCAL_CLOSE_REASON":                 {cmdOnly, nil},
	"UPSTREAM_TRANSPORT_FAILURE_REASON":             {cmdOnly, nil},
	"UPSTREAM_DETECTED_CLOSE_TYPE":                  {cmdOnly, nil},
	"UPSTREAM_LOCAL_CLOSE_REASON":                   {cmdOnly, nil},
	"HOSTNAME":                                      {cmdOnly, nil},
	"FILTER_CHAIN_NAME":                             {cmdOnly, nil},
	"VIRTUAL_CLUSTER_NAME":                          {cmdOnly, nil},
	"TLS_JA3_FINGERPRINT":                           {cmdOnly, nil},
	"TLS_JA4_FINGERPRINT":                           {cmdOnly, nil},
	"UNIQUE_ID":                                     {cmdOnly, nil},
	"STREAM_ID":                                     {cmdOnly, nil},
	"START_TIME":                                    {paramsOptional, timeArg},
	"START_TIME_LOCAL":                              {paramsOptional, timeArg},
	"EMIT_TIME":                                     {paramsOptional, timeArg},
	"EMIT_TIME_LOCAL":                               {paramsOptional, timeArg},
	"DYNAMIC_METADATA":                              {paramsRequired | lengthAllowed, nil},
	"CLUSTER_METADATA":                              {paramsRequired, nil},
	"UPSTREAM_METADATA":                             {paramsRequired, nil},
	"FILTER_STATE":                                  {paramsOptional | lengthAllowed, filterStateArg},
	"UPSTREAM_FILTER_STATE":                         {paramsOptional | lengthAllowed, filterStateArg},
	"DOWNSTREAM_PEER_CERT_V_START":                  {paramsOptional, timeArg},
	"DOWNSTREAM_PEER_CERT_V_END":                    {paramsOptional, timeArg},
	"UPSTREAM_PEER_CERT_V_START":                    {paramsOptional, timeArg},
	"UPSTREAM_PEER_CERT_V_END":                      {paramsOptional, timeArg},
	"ENVIRONMENT":                                   {paramsRequired | lengthAllowed, nil},
	"UPSTREAM_CONNECTION_POOL_READY_DURATION":       {cmdOnly, nil},
	"REQ":                     {paramsRequired | lengthAllowed, headersArg},
	"REQUEST_HEADER":          {paramsRequired | lengthAllowed, headersArg},
	"RESP":                    {paramsRequired | lengthAllowed, headersArg},
	"RESPONSE_HEADER":         {paramsRequired | lengthAllowed, headersArg},
	"TRAILER":                 {paramsRequired | lengthAllowed, headersArg},
	"RESPONSE_TRAILER":        {paramsRequired | lengthAllowed, headersArg},
	"LOCAL_REPLY_BODY":        {cmdOnly, nil},
	"ACCESS_LOG_TYPE":         {cmdOnly, nil},
	"GRPC_STATUS":             {paramsOptional, grpcStatusArg},
	"GRPC_STATUS_NUMBER":      {cmdOnly, nil},
	"REQUEST_HEADERS_BYTES":   {cmdOnly, nil},
	"RESPONSE_HEADERS_BYTES":  {cmdOnly, nil},
	"RESPONSE_TRAILERS_BYTES": {cmdOnly, nil},
	"STREAM_INFO_REQ":         {paramsRequired | lengthAllowed, headersArg},
	"TRACE_ID":                {cmdOnly, nil},
	"SPAN_ID":                 {cmdOnly, nil},
	"QUERY_PARAM":             {paramsRequired | lengthAllowed, nil},
	"QUERY_PARAMS":            {paramsOptional | lengthAllowed, queryParamsArg},
	"PATH":                    {paramsOptional | lengthAllowed, pathArg},
	"COALESCE":                {paramsRequired | lengthAllowed, nil}, // its check, set below, parses commands itself
}

// COALESCE's check parses its operators with the built-in parsers, this table among them.
func init() {
	c := builtinCommands["COALESCE"]
	c.arg = coalesceArg
	builtinCommands["COALESCE"] = c
}

// grpcStatusArg is GrpcStatusFormatter::parseFormat (http_specific_formatter.cc:237-252).
func grpcStatusArg(arg string) *formatError {
	switch arg {
	case "", "CAMEL_STRING", "SNAKE_STRING", "NUMBER":
		return nil
	}
	return thrown("GrpcStatusFormatter only supports CAMEL_STRING, SNAKE_STRING or NUMBER. Got: " + arg)
}

// queryParamsArg is QueryParametersFormatter::create (http_specific_formatter.cc:358-369).
func queryParamsArg(arg string) *formatError {
	if arg == "" || arg == "ORIG" || arg == "DECODED" {
		return nil
	}
	return thrown(fmt.Sprintf("Invalid QUERY_PARAMS option: '%s', only 'ORIG'/'DECODED' are allowed", arg))
}

// pathArg is PathFormatter::create (http_specific_formatter.cc:448-479): PATH(WQ|NQ:ORIG|PATH|ORIG_OR_PATH).
func pathArg(arg string) *formatError {
	parts := strings.Split(arg, ":")
	query, option := parts[0], ""
	if len(parts) > 1 {
		option = parts[1]
	}
	switch query {
	case "", "WQ", "NQ":
	default:
		return thrown(fmt.Sprintf("Invalid PATH option: '%s', only 'WQ'/'NQ' are allowed", query))
	}
	switch option {
	case "", "ORIG", "PATH", "ORIG_OR_PATH":
		return nil
	}
	return thrown(fmt.Sprintf("Invalid PATH option: '%s', only 'ORIG'/'PATH'/'ORIG_OR_PATH' are allowed", option))
}

// commonDurationArg is CommonDurationFormatter::create (stream_info_formatter.cc:501-536):
// START:END[:ms|us|ns]; any time point name is taken (unknown ones are read from downstream timing).
func commonDurationArg(arg string) *formatError {
	parts := strings.Split(arg, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return status(fmt.Sprintf("Invalid common duration configuration: %s.", arg))
	}
	if len(parts) == 3 && parts[2] != "ms" && parts[2] != "us" && parts[2] != "ns" {
		return status(fmt.Sprintf("Invalid common duration precision: %s.", parts[2]))
	}
	return nil
}

// filterStateArg is FilterStateFormatter::create (stream_info_formatter.cc:196-225):
// KEY[:PLAIN|TYPED|FIELD[:NAME]], FIELD if and only if a field name follows.
func filterStateArg(arg string) *formatError {
	parts := strings.Split(arg, ":")
	key, typ, field := parts[0], "", ""
	if len(parts) > 1 {
		typ = parts[1]
	}
	if len(parts) > 2 {
		field = parts[2]
	}
	if key == "" {
		return status("Invalid filter state configuration, key cannot be empty.")
	}
	if typ == "" {
		typ = "TYPED"
	}
	if typ != "PLAIN" && typ != "TYPED" && typ != "FIELD" {
		return status("Invalid filter state serialize type, only support PLAIN/TYPED/FIELD.")
	}
	if (typ == "FIELD") != (field != "") {
		return status("Invalid filter state serialize type, FIELD should be used with the field name.")
	}
	return nil
}

// timeNewline is getSystemTimeFormatNewlinePattern (stream_info_formatter.cc:53): strftime's %n,
// with flags, width and modifier, writes a newline a header may not hold.
var timeNewline = regexp.MustCompile(`%[-_0^#]*[1-9]*(E|O)?n`)

// timeArg is SystemTimeFormatter::checkConstructPreconditions (stream_info_formatter.cc:634-641).
func timeArg(arg string) *formatError {
	if timeNewline.MatchString(arg) {
		return status("Invalid header configuration. Format string contains newline.")
	}
	return nil
}

// serverNameArg is RequestedServerNameFormatter::create (stream_info_formatter.cc:690-728).
func serverNameArg(arg string) *formatError {
	parts := strings.Split(arg, ":")
	source, option := parts[0], ""
	if len(parts) > 1 {
		option = parts[1]
	}
	switch source {
	case "", "SNI_ONLY", "SNI_FIRST", "HOST_FIRST":
	default:
		return status(fmt.Sprintf("Invalid REQUESTED_SERVER_NAME option: '%s', only 'SNI_ONLY'/'SNI_FIRST'/'HOST_FIRST' are allowed", source))
	}
	switch option {
	case "", "ORIG_OR_HOST", "HOST", "ORIG":
		return nil
	}
	return status(fmt.Sprintf("Invalid REQUESTED_SERVER_NAME option: '%s', only 'ORIG_OR_HOST'/'HOST'/'ORIG' are allowed", option))
}

// coalesceArg is CoalesceFormatter::create (source/common/formatter/coalesce_formatter.cc:10-54):
// a JSON object whose "operators" list commands, each parsed by the built-in parsers. The format
// cannot hold a newline, so Envoy's JSON errors always name lines 1-1.
func coalesceArg(arg string) *formatError {
	var doc interface{}
	dec := json.NewDecoder(strings.NewReader(arg))
	dec.UseNumber() // Envoy's JSON tells integers from doubles
	err := dec.Decode(&doc)
	if err == nil && dec.More() {
		err = fmt.Errorf("unexpected data after the JSON value")
	}
	if err != nil { // Envoy's detail is its JSON parser's
		return status("COALESCE: failed to parse JSON configuration: " + err.Error())
	}
	obj, _ := doc.(map[string]interface{})
	ops, has := obj["operators"]
	if !has {
		return status("COALESCE: JSON configuration must contain 'operators' array")
	}
	list, isList := ops.([]interface{})
	if !isList {
		return status("COALESCE: 'operators' must be an array: key 'operators' missing or not an array from lines 1-1")
	}
	if len(list) == 0 {
		return status("COALESCE: 'operators' array must not be empty")
	}
	for i, op := range list {
		if err := coalesceOperator(op); err != nil {
			if err.thrown { // an exception from a built-in parser passes the wrapping by
				return err
			}
			return status(fmt.Sprintf("COALESCE: failed to parse operator at index %d: %s", i, err.msg))
		}
	}
	return nil
}

// coalesceOperator is CoalesceFormatter::parseOperatorEntry and createFormatterForCommand
// (coalesce_formatter.cc:56-117): "COMMAND" or {"command", "param", "max_length"}.
func coalesceOperator(op interface{}) *formatError {
	if name, ok := op.(string); ok {
		return coalesceCommand(name, "", false)
	}
	entry, ok := op.(map[string]interface{})
	if !ok {
		return status("operator entry must be either a string (command name) or an object with 'command' field")
	}
	name, ok := entry["command"].(string)
	if !ok {
		return status("operator object must have 'command' field: key 'command' missing or not a string from lines 1-1")
	}
	param := ""
	if v, has := entry["param"]; has {
		if param, ok = v.(string); !ok {
			return status("'param' field must be a string: key 'param' missing or not a string from lines 1-1")
		}
	}
	v, hasLength := entry["max_length"]
	if hasLength {
		num, _ := v.(json.Number)
		n, err := strconv.ParseInt(string(num), 10, 64)
		if err != nil {
			return status("'max_length' field must be an integer: key 'max_length' missing or not an integer from lines 1-1")
		}
		if n <= 0 {
			return status("'max_length' must be a positive integer")
		}
	}
	return coalesceCommand(name, param, hasLength)
}

// coalesceCommand: only the built-in parsers are tried; one that knows no such command is a status.
func coalesceCommand(name, param string, hasLength bool) *formatError {
	_, builtin := builtinCommands[name]
	_, ext := extensionCommands[name]
	if !builtin && !ext {
		return status(fmt.Sprintf("unknown command: '%s'", name))
	}
	return builtinParse(name, param, hasLength, false)
}
