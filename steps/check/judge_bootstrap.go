package check

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"ist2-boot/steps/i18n"

	"gopkg.in/yaml.v3"
)

// Paths into a bootstrap, by proto field name.
var (
	adsClusterPath = []string{"dynamic_resources", "ads_config", "grpc_services", "[0]", "envoy_grpc", "cluster_name"}
	endpointPath   = []string{"load_assignment", "endpoints", "[0]", "lb_endpoints", "[0]", "endpoint", "address", "socket_address"}
)

// httpProtocolOptions is the extension that carries a cluster's HTTP/2 setting in Envoy v3.
const httpProtocolOptions = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions"

// expectedNode is node.id, node.cluster and node.metadata as pilot-agent would build them for the
// lab's pod: the target's Deployment and namespace, the lab's pod IP and hash, the learner's
// injected args and ISTIO_META_ variables.
func (c *checker) expectedNode(file string) (id, cluster string, metadata map[string]string, why *i18n.Msg) {
	_, proxy, why := c.learnerInject(file)
	if why != nil {
		return "", "", nil, why
	}
	t := c.fixtures.Target
	ns, name := t.Namespace(), t.Metadata.Name
	role := ""
	if len(proxy.Args) > 1 {
		role = proxy.Args[1]
	}
	domain, _ := proxy.argAfter("--domain")
	domain = strings.ReplaceAll(domain, "$(POD_NAMESPACE)", ns)
	p := c.lesson.Params
	pod := name + "-" + p["pod_hash"]
	id = strings.Join([]string{role, p["pod_ip"], pod + "." + ns, domain}, "~")
	metadata = map[string]string{"NAMESPACE": ns}
	for _, k := range []string{"CLUSTER_ID", "MESH_ID", "WORKLOAD_NAME"} {
		if e := proxy.env("ISTIO_META_" + k); e != nil {
			metadata[k] = e.shown()
		}
	}
	return id, name + "." + ns, metadata, nil
}

// treeFact reads a field of a tree as a fact.
func treeFact(tree any, field, want string, path ...string) fact {
	f := fact{Field: field, Want: want}
	if v, ok := at(tree, path...); ok {
		f.Got, f.Has = scalar(v), true
	}
	return f
}

func isZeroDuration(s string) bool {
	d, err := time.ParseDuration(s)
	return err == nil && strings.HasSuffix(s, "s") && d == 0
}

// judgeBootstrap: admin port, node, cds/lds over ADS that wait forever, gRPC ADS naming the
// static cluster, which is STRICT_DNS to the discovery address and speaks HTTP/2.
func judgeBootstrap(c *checker, file, text string) FileResult {
	tree, err := c.bootstrapFields(text)
	if err != nil {
		return failWith(file, unreadableYAML(file, err, text))
	}
	id, cluster, metadata, why := c.expectedNode(file)
	if why != nil {
		return failWith(file, *why)
	}
	v, note := c.bootstrapVerdict(file, text)
	p := c.lesson.Params
	facts := []fact{
		treeFact(tree, "admin.address.socket_address.port_value", p["admin_port"], "admin", "address", "socket_address", "port_value"),
		treeFact(tree, "node.id", id, "node", "id"),
		treeFact(tree, "node.cluster", cluster, "node", "cluster"),
	}
	for _, k := range slices.Sorted(maps.Keys(metadata)) {
		facts = append(facts, treeFact(tree, "node.metadata."+k, metadata[k], "node", "metadata", k))
	}
	for _, src := range []string{"cds_config", "lds_config"} {
		ads := treeFact(tree, "dynamic_resources."+src+".ads", "{}", "dynamic_resources", src, "ads")
		wait := treeFact(tree, "dynamic_resources."+src+".initial_fetch_timeout", "0s", "dynamic_resources", src, "initial_fetch_timeout")
		wait.OK = isZeroDuration
		facts = append(facts, ads, wait)
	}
	api := treeFact(tree, "dynamic_resources.ads_config.api_type", "GRPC", "dynamic_resources", "ads_config", "api_type")
	api.OK = func(s string) bool { return s == "GRPC" || s == "DELTA_GRPC" }
	facts = append(facts, api,
		treeFact(tree, pathString(adsClusterPath), p["xds_cluster"], adsClusterPath...))
	r := judgeFacts(file, append(facts, xdsClusterFacts(tree, p["xds_cluster"], c.fixtures.Discovery)...))
	if !v.ok { // Envoy's refusal comes first: it is what the learner would see, a CrashLoop
		r.Status, r.Reason = Fail, v.reason(file)
		r = r.withDiff()
	}
	r.Note = withoutEcho(r.Reason, note)
	return r
}

// withoutEcho is the note unless it is the validator's HTTP/2 advice under a reason that already
// says it: one fact said once (zh r14 M8).
func withoutEcho(reason, note i18n.Msg) i18n.Msg {
	if reason.Key == "reason.http2_missing" && note.Key == "reason.validator_advises" && note.Args["message"] == i18n.Ref("validate.no_http2") {
		return i18n.Msg{}
	}
	return note
}

// xdsClusterFacts: the static cluster named name exists, is STRICT_DNS, points at discovery
// (host:port) and speaks HTTP/2.
func xdsClusterFacts(tree any, name, discovery string) []fact {
	base := "static_resources.clusters[" + name + "]"
	exists := fact{Field: "static_resources.clusters[].name", Want: name}
	clusters, _ := at(tree, "static_resources", "clusters")
	list, _ := clusters.([]any)
	var found any
	var names []string
	for _, cl := range list {
		n, _ := field(cl, "name")
		names = append(names, scalar(n))
		if scalar(n) == name && found == nil {
			found = cl
		}
	}
	if len(list) > 0 {
		named := found != nil
		exists.Got, exists.Has = strings.Join(names, ", "), true
		exists.OK = func(string) bool { return named }
	}
	host, port := discovery, ""
	if i := strings.LastIndex(discovery, ":"); i >= 0 {
		host, port = discovery[:i], discovery[i+1:]
	}
	if found == nil {
		found = map[string]any{}
	}
	return []fact{
		exists,
		treeFact(found, base+".type", "STRICT_DNS", "type"),
		treeFact(found, base+"."+pathString(endpointPath)+".address", host, append(slices.Clone(endpointPath), "address")...),
		treeFact(found, base+"."+pathString(endpointPath)+".port_value", port, append(slices.Clone(endpointPath), "port_value")...),
		http2Fact(found, base, name),
	}
}

// pathString writes a path the way the reasons show it: a.b[0].c
func pathString(path []string) string {
	return strings.ReplaceAll(strings.Join(path, "."), ".[", "[")
}

// http2Fact: HTTP/2 on the cluster itself (http2_protocol_options, deprecated but accepted) or
// through typed_extension_protocol_options' HttpProtocolOptions.explicit_http_config.
func http2Fact(cluster any, base, name string) fact {
	absent := i18n.M("reason.http2_missing", "cluster", name) // not a path: say it as a sentence (ja r11 L7)
	f := fact{Field: base + " HTTP/2", Want: "http2_protocol_options: {}", Absent: &absent}
	if v, ok := field(cluster, "http2_protocol_options"); ok {
		if _, isMap := asMap(v); isMap {
			f.Got, f.Has = "http2_protocol_options: {}", true
			return f
		}
	}
	opts, _ := field(cluster, "typed_extension_protocol_options")
	if v, ok := at(opts, httpProtocolOptions); ok {
		if _, ok := at(v, "explicit_http_config", "http2_protocol_options"); ok {
			f.Got, f.Has = "http2_protocol_options: {}", true
		}
	}
	return f
}

// bootstrapTree is the learner's bootstrap.yaml, which file is compared with; it need not pass,
// only be there and parse.
func (c *checker) bootstrapTree(file string) (map[string]any, *i18n.Msg) {
	text, why := c.present("bootstrap.yaml", file)
	if why != nil {
		return nil, why
	}
	tree, err := c.bootstrapFields(text)
	if err != nil {
		m := i18n.M("reason.depends", "file", file, "dep", "bootstrap.yaml", "status", i18n.Ref("status.fail"))
		return nil, &m
	}
	return tree, nil
}

// judgeTypoBootstrap: bootstrap.yaml with only the ADS cluster_name changed to the typo.
func judgeTypoBootstrap(c *checker, file, text string) FileResult {
	tree, orig, bad := c.copyOfBootstrap(file, text)
	if bad != nil {
		return *bad
	}
	typo := c.lesson.Params["typo_cluster"]
	v, note := c.bootstrapVerdict(file, text)
	rejection := fact{Field: "envoy --mode validate", Label: "field.envoy_verdict", Want: "Unknown gRPC client cluster '" + typo + "'", Got: "OK", Has: true}
	if !v.ok {
		rejection.Got = v.message
	}
	rejection.OK = func(got string) bool { return !v.ok && strings.HasSuffix(got, rejection.Want) }
	facts := []fact{treeFact(tree, pathString(adsClusterPath), typo, adsClusterPath...)}
	facts = append(facts, xdsClusterFacts(tree, c.lesson.Params["xds_cluster"], c.fixtures.Discovery)[0])
	// The rest must be bootstrap.yaml as it is: compare with the ADS name put back.
	want := deepCopy(orig)
	setAt(want, typo, adsClusterPath...)
	rest := fact{Field: "rest of the file", Want: "bootstrap.yaml", Got: "bootstrap.yaml", Has: true}
	diffAt := firstDifference(want, setAtCopy(tree, typo), "")
	if diffAt != "" {
		rest.Got = "differs at " + diffAt
	}
	r := judgeFacts(file, append(facts, rest, rejection))
	if r.Status == Fail && r.Reason.Args["field"] == rest.Field {
		if why := c.failingOriginal(file); why != nil {
			return failWith(file, *why) // not a diff towards a bootstrap.yaml that fails itself (ja r16 H1)
		}
		r.Reason = i18n.M("reason.typo_differs", "file", file, "path", diffAt)
		if at, meant := misspelling(want, setAtCopy(tree, typo), ""); meant != "" {
			r.Reason = i18n.M("reason.typo_key_maybe", "file", file, "path", at, "maybe", meant)
		}
	}
	r.Expected, r.Produced, r.Diff = yamlText(want), yamlText(tree), ""
	r.Note = note
	return r.withDiff()
}

// failingOriginal is why a copy of bootstrap.yaml that differs from it is not judged against
// it, when bootstrap.yaml fails its own check: the learner may have copied the right values
// from a bootstrap.yaml fixed since, or be told to copy a wrong one. Nil when it passes.
func (c *checker) failingOriginal(file string) *i18n.Msg {
	if st := c.file("bootstrap.yaml").Status; st == Fail {
		m := i18n.M("reason.depends", "file", file, "dep", "bootstrap.yaml", "status", i18n.Ref(st.Key()))
		return &m
	}
	return nil
}

// setAtCopy returns tree with the ADS cluster name set, for comparing "everything else".
func setAtCopy(tree map[string]any, name string) map[string]any {
	cp := deepCopy(tree)
	setAt(cp, name, adsClusterPath...)
	return cp
}

func deepCopy(v map[string]any) map[string]any { return copyTree(v).(map[string]any) }

// setAt sets a scalar at path where the path exists.
func setAt(tree any, value string, path ...string) {
	parent, ok := at(tree, path[:len(path)-1]...)
	if !ok {
		return
	}
	last := path[len(path)-1]
	if m, ok := parent.(map[string]any); ok {
		if _, has := m[last]; has {
			m[last] = value
		} else if _, has := m[jsonName(last)]; has {
			m[jsonName(last)] = value
		}
	}
}

// yamlText writes a tree in the two-space indent the lab's files use, so diffs stay small.
func yamlText(v any) string {
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return err.Error()
	}
	_ = enc.Close()
	return b.String()
}

// judgeNode: a JSON object with exactly id, cluster and metadata, equal to bootstrap.yaml's node.
func judgeNode(c *checker, file, text string) FileResult {
	var got map[string]any
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		return failWith(file, unreadableJSON(file, err, []byte(text)))
	}
	if got == nil { // the document is JSON's null
		return failWith(file, i18n.M("reason.bad_json", "file", file, "error", i18n.Ref("json.top_kind"), "kind", i18n.Ref("json.kind.null")))
	}
	boot, why := c.bootstrapTree(file)
	if why != nil {
		return failWith(file, *why)
	}
	keys := fact{Field: "keys", Label: "field.top_keys", Want: "cluster, id, metadata", Got: strings.Join(slices.Sorted(maps.Keys(got)), ", "), Has: true}
	facts := []fact{keys, treeFact(got, "id", wantScalar(boot, "node", "id"), "id"),
		treeFact(got, "cluster", wantScalar(boot, "node", "cluster"), "cluster")}
	bootMeta, _ := at(boot, "node", "metadata")
	bm, _ := asMap(bootMeta)
	gotMeta, _ := at(got, "metadata")
	gm, _ := asMap(gotMeta)
	all := slices.Sorted(maps.Keys(bm))
	for _, k := range slices.Sorted(maps.Keys(gm)) {
		if _, ok := bm[k]; !ok {
			all = append(all, k)
		}
	}
	for _, k := range all {
		f := treeFact(got, "metadata."+k, absentMark, "metadata", k)
		if v, ok := bm[k]; ok {
			f.Want = scalar(v)
		}
		facts = append(facts, f)
	}
	return judgeFacts(file, facts)
}

func wantScalar(tree any, path ...string) string {
	if v, ok := at(tree, path...); ok {
		return scalar(v)
	}
	return absentMark
}

// copyOfBootstrap reads a file that is bootstrap.yaml with some fields changed (section 5's typo,
// the practice page's copy): its fields, and bootstrap.yaml's to compare them with; bad, when
// set, is the verdict that one of them cannot be read.
func (c *checker) copyOfBootstrap(file, text string) (tree, orig map[string]any, bad *FileResult) {
	tree, err := c.bootstrapFields(text)
	if err != nil {
		r := failWith(file, unreadableYAML(file, err, text))
		return nil, nil, &r
	}
	orig, why := c.bootstrapTree(file)
	if why != nil {
		r := failWith(file, *why)
		return nil, nil, &r
	}
	return tree, orig, nil
}
