package check

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// mutation turns a right answer into a wrong one (or another right one).
type mutation struct {
	name   string
	file   string
	edit   func(string) string
	status Status
	reason string // message key
	field  string // text the reason's arguments must contain ("" for any)
}

func replace(old, new string) func(string) string {
	return func(s string) string {
		if !strings.Contains(s, old) {
			panic("test mutation: " + old + " not in answer")
		}
		return strings.Replace(s, old, new, 1)
	}
}

func set(text string) func(string) string { return func(string) string { return text } }

var mutations = []mutation{
	// inject.yaml
	{"no sidecar", "inject.yaml", replace("        name: istio-proxy\n", "        name: sidecar\n"), Fail, "reason.no_container", "istio-proxy"},
	{"app container gone", "inject.yaml", replace("        name: payments\n        ports:", "        name: web\n        ports:"), Fail, "reason.no_container", "payments"},
	{"other deployment", "inject.yaml", replace("  name: payments\n  namespace", "  name: ledger\n  namespace"), Fail, "reason.no_deployment", "payments"},
	{"args not proxy sidecar", "inject.yaml", replace("        - proxy\n        - sidecar\n", "        - proxy\n        - router\n"), Fail, "reason.field_wrong", "args[0:2]"},
	{"not yaml", "inject.yaml", set("kind: [Deployment\n"), Fail, "reason.bad_yaml_at", ""},
	// 01-args.txt
	{"domain expanded", "01-args.txt", replace("domain=$(POD_NAMESPACE).svc.cluster.local", "domain=default.svc.cluster.local"), Fail, "reason.wrong_value", "domain"},
	{"key missing", "01-args.txt", replace("component_log_level=misc:error\n", ""), Fail, "reason.missing_key", "component_log_level"},
	{"key twice", "01-args.txt", func(s string) string { return s + "role=sidecar\n" }, Fail, "reason.dup_key", "role"},
	{"extra key", "01-args.txt", func(s string) string { return s + "image=proxyv2\n" }, Fail, "reason.extra_key", "image"},
	{"empty value", "03-mesh.txt", replace("trust_domain=cluster.local", "trust_domain="), Fail, "reason.empty_value", "trust_domain"},
	{"misspelt key", "03-mesh.txt", func(s string) string { return s + "trust_domian=cluster.local\n" }, Fail, "reason.extra_key_maybe", "trust_domian"},
	{"not key=value", "01-args.txt", replace("role=sidecar", "role: sidecar"), Fail, "reason.not_kv", "role: sidecar"},
	{"any order, CRLF, no final newline", "01-args.txt", func(s string) string {
		lines := strings.Split(strings.TrimSpace(s), "\n")
		lines[0], lines[3] = lines[3], lines[0]
		return strings.Join(lines, "  \r\n")
	}, Pass, "", ""},
	{"an editor's byte order mark", "03-mesh.txt", func(s string) string { return "\ufeff" + s }, Pass, "", ""},
	// 02-env.txt
	{"fieldRef written as value", "02-env.txt", replace("POD_NAMESPACE=fieldRef:metadata.namespace", "POD_NAMESPACE=default"), Fail, "reason.wrong_value", "POD_NAMESPACE"},
	{"value written as fieldRef", "02-env.txt", replace("CA_ADDR=istiod.istio-system.svc:15012", "CA_ADDR=fieldRef:CA_ADDR"), Fail, "reason.wrong_value", "CA_ADDR"},
	{"service account missing", "02-env.txt", replace("SERVICE_ACCOUNT=fieldRef:spec.serviceAccountName\n", ""), Fail, "reason.missing_key", "SERVICE_ACCOUNT"},
	// 03-mesh.txt
	{"ca_addr_same wrong", "03-mesh.txt", replace("ca_addr_same=yes", "ca_addr_same=no"), Fail, "reason.wrong_value", "ca_addr_same"},
	{"port dropped", "03-mesh.txt", replace("discovery_address=istiod.istio-system.svc:15012", "discovery_address=istiod.istio-system.svc"), Fail, "reason.wrong_value", "discovery_address"},
	{"empty", "03-mesh.txt", set("\n \n"), Fail, "reason.empty", ""},
	// bootstrap.yaml
	{"no HTTP/2", "bootstrap.yaml", replace("    typed_extension_protocol_options:\n      envoy.extensions.upstreams.http.v3.HttpProtocolOptions:\n        \"@type\": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions\n        explicit_http_config:\n          http2_protocol_options: {}\n", ""), Fail, "reason.http2_missing", "xds-grpc"},
	// Envoy checks the HttpProtocolOptions' own constraints: explicit_http_config needs a protocol.
	{"empty explicit_http_config", "bootstrap.yaml", replace("          http2_protocol_options: {}\n", ""), Fail, "reason.envoy_rejects_at", `field: "upstream_protocol_options", reason: is required`},
	{"node.id order", "bootstrap.yaml", replace("id: sidecar~10.0.0.7~payments-6d5f9.default~default.svc.cluster.local", "id: sidecar~payments-6d5f9.default~10.0.0.7~default.svc.cluster.local"), Fail, "reason.field_wrong", "node.id"},
	{"ADS names another cluster", "bootstrap.yaml", replace("        cluster_name: xds-grpc\n  cds_config", "        cluster_name: xds_grpc\n  cds_config"), Fail, "reason.envoy_rejects_at", "Unknown gRPC client cluster 'xds_grpc'"},
	{"misspelled field", "bootstrap.yaml", replace("          http2_protocol_options: {}", "          http2_protocol_option: {}"), Fail, "reason.envoy_rejects_at", "http2_protocol_options"},
	{"port as a word", "bootstrap.yaml", replace("port_value: 15012", "port_value: grpc"), Fail, "reason.envoy_rejects_at", "invalid number: 'grpc'"},
	{"fetch timeout not 0s", "bootstrap.yaml", replace("    initial_fetch_timeout: 0s\n    resource_api_version: V3\n  lds", "    initial_fetch_timeout: 15s\n    resource_api_version: V3\n  lds"), Fail, "reason.field_wrong", "cds_config.initial_fetch_timeout"},
	{"LOGICAL_DNS", "bootstrap.yaml", replace("type: STRICT_DNS", "type: LOGICAL_DNS"), Fail, "reason.field_wrong", ".type"},
	{"admin port", "bootstrap.yaml", replace("port_value: 9982", "port_value: 15000"), Fail, "reason.field_wrong", "admin.address"},
	{"cluster-level http2 and camelCase", "bootstrap.yaml", func(s string) string {
		s = replace("    typed_extension_protocol_options:\n      envoy.extensions.upstreams.http.v3.HttpProtocolOptions:\n        \"@type\": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions\n        explicit_http_config:\n          http2_protocol_options: {}\n", "    http2ProtocolOptions: {}\n")(s)
		return strings.ReplaceAll(s, "initial_fetch_timeout: 0s", "initialFetchTimeout: 0.000s")
	}, Pass, "", ""},
	{"a list, not a mapping", "bootstrap.yaml", set("- admin\n- node\n"), Fail, "reason.yaml_not_map", ""},
	// 04-validate.txt
	{"rc not 0", "04-validate.txt", replace("rc=0", "rc=1"), Fail, "reason.field_wrong", "field.last_line"},
	{"no success line", "04-validate.txt", replace("configuration '/work/ist2-boot/bootstrap.yaml' OK\n", ""), Fail, "reason.field_missing", "field.envoy_line"},
	{"validated another file", "04-validate.txt", replace("bootstrap.yaml' OK", "boot-typo.yaml' OK"), Fail, "reason.field_wrong", "field.envoy_line"},
	// boot-typo.yaml
	{"no typo", "boot-typo.yaml", replace("cluster_name: istiod-xds", "cluster_name: xds-grpc"), Fail, "reason.field_wrong", "cluster_name"},
	{"static cluster renamed too", "boot-typo.yaml", replace("  - name: xds-grpc", "  - name: istiod-xds"), Fail, "reason.field_wrong", "clusters[].name"},
	{"typo that Envoy accepts", "boot-typo.yaml", func(s string) string {
		return strings.Replace(replace("  - name: xds-grpc", "  - name: istiod-xds")(s), "      cluster_name: xds-grpc", "      cluster_name: istiod-xds", 1)
	}, Fail, "reason.field_wrong", "cluster"},
	{"something else changed", "boot-typo.yaml", replace("port_value: 9982", "port_value: 9983"), Fail, "reason.typo_differs", "admin.address.socket_address.port_value"},
	{"a key misspelt in the copy", "boot-typo.yaml", replace("connect_timeout", "conect_timeout"), Fail, "reason.typo_key_maybe", "static_resources.clusters[0].conect_timeout"},
	{"a key of the copy dropped for another", "boot-typo.yaml", replace("connect_timeout", "connect_timeouts"), Fail, "reason.typo_key_maybe", "connect_timeout"},
	// 05-typo.txt
	{"rc 0", "05-typo.txt", replace("rc=1", "rc=0"), Fail, "reason.field_wrong", "field.last_line"},
	{"no rc line", "05-typo.txt", replace("rc=1\n", ""), Fail, "reason.field_wrong", "field.last_line"},
	{"rejection of another name", "05-typo.txt", replace("client cluster 'istiod-xds'", "client cluster 'xds-grpc'"), Fail, "reason.field_wrong", "field.envoy_line"},
	// 06-node.json
	{"Envoy's extras kept", "06-node.json", replace("{\n", "{\n  \"user_agent_name\": \"envoy\",\n"), Fail, "reason.field_wrong", "field.top_keys"},
	{"metadata differs from bootstrap", "06-node.json", replace("\"MESH_ID\": \"cluster.local\"", "\"MESH_ID\": \"mesh1\""), Fail, "reason.field_wrong", "metadata.MESH_ID"},
	{"not JSON", "06-node.json", set("id: sidecar\n"), Fail, "reason.bad_json_at", ""},
	{"a JSON list", "06-node.json", set("[1, 2]\n"), Fail, "reason.bad_json", ""},
	// 06-ready.txt
	{"LIVE", "06-ready.txt", replace("ready_body=PRE_INITIALIZING", "ready_body=LIVE"), Fail, "reason.wrong_value", "ready_body"},
	{"200", "06-ready.txt", replace("ready_code=503", "ready_code=200"), Fail, "reason.wrong_value", "ready_code"},
	// 07-identity.txt
	{"mount of the CA volume", "07-identity.txt", replace("token_mount=/var/run/secrets/tokens", "token_mount=/var/run/secrets/istio"), Fail, "reason.wrong_value", "token_mount"},
	{"configmap missing", "07-identity.txt", replace("ca_configmap=istio-ca-root-cert\n", ""), Fail, "reason.missing_key", "ca_configmap"},
	{"binary", "07-identity.txt", set("token_volume=\x00\x01"), Fail, "reason.binary", ""},
	// 08-report.md
	{"typo_rc 0", "08-report.md", replace("typo_rc=1", "typo_rc=0"), Fail, "reason.wrong_value", "typo_rc"},
	{"misspelt report key", "08-report.md", replace("xds_address=", "xds_adress="), Fail, "reason.extra_key_maybe", "xds_adress"},
	// The key lines are numbered as the file numbers them, not among themselves: typo_rc moves to line 5.
	{"report under a heading", "08-report.md", func(s string) string { return "# report\n\n" + replace("typo_rc=1", "typo_rc=0")(s) }, Fail, "reason.wrong_value", "5"},
	{"four placeholder notes", "08-report.md", func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "- ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n") + "\n- a\n- a\n- a\n- a\n"
	}, Fail, "reason.few_bullets", "0"},
	{"three bullets", "08-report.md", func(s string) string { return s[:strings.LastIndex(strings.TrimRight(s, "\n"), "\n- ")+1] }, Fail, "reason.few_bullets", "3"},
	{"cluster of the typo", "08-report.md", replace("xds_cluster=xds-grpc", "xds_cluster=istiod-xds"), Fail, "reason.wrong_value", "xds_cluster"},
}

func TestRightAnswersPass(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	results, err := Check(l, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		for _, f := range r.Files {
			if f.Status != Pass {
				t.Errorf("%s: %s: %s\n%s", f.File, f.Status, f.Reason.In(i18n.Korean), f.Diff)
			}
		}
	}
}

func TestWrongAnswersFailWithReasonAndDiff(t *testing.T) {
	l := steptest.Lesson(t)
	perFile := map[string]int{}
	for _, m := range mutations {
		t.Run(m.file+"/"+m.name, func(t *testing.T) {
			env := steptest.Env(t, steptest.PathWithout("envoy"))
			steptest.CopyAnswers(t, env)
			steptest.WriteFile(t, env.Path(m.file), m.edit(steptest.ReadFile(t, env.Path(m.file))))
			r := fileResult(t, l, env, m.file)
			if r.Status != m.status {
				t.Fatalf("status %s, want %s (%s)", r.Status, m.status, r.Reason.In(i18n.Korean))
			}
			if m.status == Pass {
				return
			}
			if strings.TrimSuffix(r.Reason.Key, "_named") != m.reason {
				t.Fatalf("reason %s (%s), want %s", r.Reason.Key, r.Reason.In(i18n.Korean), m.reason)
			}
			args := strings.Join(argValues(r.Reason), "\n")
			if !strings.Contains(args, m.field) {
				t.Errorf("reason %q does not name %q", r.Reason.In(i18n.Korean), m.field)
			}
			for _, lang := range i18n.Langs {
				if text := r.Reason.In(lang); text == "" || placeholder.MatchString(text) {
					t.Errorf("%s reason not filled: %q", lang, text)
				}
			}
			if !strings.HasPrefix(r.Reason.Key, "reason.bad_yaml") && !strings.HasPrefix(r.Reason.Key, "reason.bad_json") && r.Reason.Key != "reason.yaml_not_map" && r.Reason.Key != "reason.binary" && r.Reason.Key != "reason.empty" && r.Reason.Key != "reason.no_deployment" {
				if !strings.Contains(r.Diff, "@@") || r.Expected == r.Produced {
					t.Errorf("no diff: expected %q produced %q", r.Expected, r.Produced)
				}
			}
			for _, lang := range i18n.Langs {
				for _, line := range strings.Split(r.DiffIn(lang), "\n") {
					for field := range r.Labels { // ours, not the file's: in the learner's words (ja r14 H1)
						if strings.HasPrefix(line[min(1, len(line)):], field+": ") {
							t.Errorf("%s diff line %q in English", lang, line)
						}
					}
				}
			}
			perFile[m.file]++
		})
	}
	for _, s := range l.Sections {
		for _, f := range s.Files {
			if perFile[f.Name] < 2 {
				t.Errorf("%s: %d kinds of wrong answer tested, want at least 2", f.Name, perFile[f.Name])
			}
		}
	}
}

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

func argValues(m i18n.Msg) []string {
	var out []string
	for _, v := range m.Args {
		out = append(out, v)
	}
	return out
}

func TestDependentFilesWaitForInject(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	steptest.WriteFile(t, env.Path("inject.yaml"), "kind: [\n")
	for _, f := range []string{"01-args.txt", "02-env.txt", "03-mesh.txt", "07-identity.txt", "bootstrap.yaml"} {
		r := fileResult(t, l, env, f)
		if r.Status != Fail || r.Reason.Key != "reason.depends" || r.Reason.Args["dep"] != "inject.yaml" {
			t.Errorf("%s: %s %s, want fail reason.depends on inject.yaml", f, r.Status, r.Reason.Key)
		}
	}
}

func TestAbsentFiles(t *testing.T) {
	l := steptest.Lesson(t)
	t.Run("envoy missing: needs-tool for what a missing tool makes, missing for the rest", func(t *testing.T) {
		env := steptest.Env(t, steptest.PathWithout("envoy"))
		tools := steps.FindTools(env, l.Tools) // istioctl and yq too, on a machine without them
		results, err := Check(l, env, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			for _, f := range r.Files {
				_, spec := l.ProducerOf(f.File)
				want := Missing
				for _, tool := range spec.Needs {
					if !tools.Get(tool).Found {
						want = NeedsTool
					}
				}
				if f.Status != want {
					t.Errorf("%s: %s, want %s", f.File, f.Status, want)
				}
				if want == NeedsTool && spec.Needs[0] == "envoy" && (f.Tool != "envoy" || !strings.Contains(f.HowToGet.In(i18n.Japanese), "ist2-boot setup")) {
					t.Errorf("%s: does not say how to get Envoy: tool %q, %s", f.File, f.Tool, f.HowToGet.In(i18n.Japanese))
				}
			}
		}
	})
	t.Run("envoy present: missing", func(t *testing.T) {
		env := steptest.Env(t, steptest.FakeEnvoyPath(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
		if r := fileResult(t, l, env, "05-typo.txt"); r.Status != Missing {
			t.Errorf("05-typo.txt: %s, want missing", r.Status)
		}
	})
	t.Run("a file that exists is judged whatever is installed", func(t *testing.T) {
		env := steptest.Env(t, steptest.PathWithout("envoy"))
		steptest.CopyAnswers(t, env)
		if r := fileResult(t, l, env, "05-typo.txt"); r.Status != Pass {
			t.Errorf("05-typo.txt: %s, want pass", r.Status)
		}
	})
}

func TestEnvironmentErrors(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, "")
	env.Fixtures = t.TempDir()
	if _, err := Check(l, env, nil); err == nil || !strings.Contains(err.Error(), "inject-target.yaml") {
		t.Errorf("missing fixtures: %v", err)
	}
	env = steptest.Env(t, "")
	env.Mesh = env.Path("mesh.yaml")
	steptest.WriteFile(t, env.Mesh, "defaultConfig: [\n")
	if _, err := Check(l, env, nil); err == nil || !strings.Contains(err.Error(), "mesh config") {
		t.Errorf("malformed mesh: %v", err)
	}
	if _, err := Check(l, steptest.Env(t, ""), []string{"nope"}); err == nil {
		t.Error("unknown section accepted")
	}
}

// B8: without Envoy, what only Envoy can produce (05-typo.txt, 06-ready.txt) is needs-tool, and a
// right 08-report.md written by hand is judged against Envoy's documented answers (the lesson's
// params), with a note saying so — not failed.
func TestReportWithoutEnvoy(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	for _, f := range []string{"05-typo.txt", "06-ready.txt", "06-node.json"} {
		if err := os.Remove(env.Path(f)); err != nil {
			t.Fatal(err)
		}
	}
	r := fileResult(t, l, env, "08-report.md")
	if r.Status != Pass || r.Note.Key != "note.documented_without_envoy" {
		t.Errorf("08-report.md: %s %s (note %q)", r.Status, r.Reason.In(i18n.Japanese), r.Note.Key)
	}
	broken := strings.Replace(steptest.ReadFile(t, env.Path("08-report.md")), "typo_rc=1", "typo_rc=0", 1)
	steptest.WriteFile(t, env.Path("08-report.md"), broken)
	if r := fileResult(t, l, env, "08-report.md"); r.Status != Fail {
		t.Errorf("a wrong typo_rc without Envoy: %s", r.Status)
	}
}

// Newcomer L3: with 05-typo.txt there and passing but 06's files missing (no Envoy), the note
// names only what was taken from the documentation: step 6's answer, not step 5's.
func TestReportNoteNamesOnlyTheDocumentedAnswers(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	for _, f := range []string{"06-ready.txt", "06-node.json"} {
		if err := os.Remove(env.Path(f)); err != nil {
			t.Fatal(err)
		}
	}
	if r := fileResult(t, l, env, "05-typo.txt"); r.Status != Pass {
		t.Fatalf("05-typo.txt: %s", r.Status)
	}
	r := fileResult(t, l, env, "08-report.md")
	if r.Status != Pass || r.Note.Key != "note.documented_ready_without_envoy" {
		t.Errorf("08-report.md: %s, note %q", r.Status, r.Note.Key)
	}
	if strings.Contains(r.Note.In(i18n.Chinese), "第 5") {
		t.Errorf("the note names step 5: %s", r.Note.In(i18n.Chinese))
	}
}

// Newcomer L16: a file written under a near name is pointed at, not only "missing".
func TestAMissingFileNamesItsNearMiss(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	if err := os.Rename(env.Path("boot-typo.yaml"), env.Path("boot_typo.yaml")); err != nil {
		t.Fatal(err)
	}
	r := fileResult(t, l, env, "boot-typo.yaml")
	if r.Status != Missing || r.Reason.Key != "reason.missing_near" || r.Reason.Args["near"] != "boot_typo.yaml" {
		t.Errorf("%s %s %v", r.Status, r.Reason.Key, r.Reason.Args)
	}
	if r := fileResult(t, l, env, "07-identity.txt"); r.Status != Pass {
		t.Errorf("07-identity.txt: %s", r.Status)
	}
	if err := os.Remove(env.Path("02-env.txt")); err != nil {
		t.Fatal(err)
	}
	// 01-args.txt is one edit from nothing the lesson lacks: a lesson file is never the near miss.
	if r := fileResult(t, l, env, "02-env.txt"); r.Reason.Key == "reason.missing_near" {
		t.Errorf("02-env.txt: %s %v", r.Reason.Key, r.Reason.Args)
	}
}
