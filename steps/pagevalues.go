package steps

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// pageValues are the lab's own values a page names, derived as the checks derive them: the
// workload and namespace from the active injection target, the cluster domain from the chart
// values injection renders `--domain` from (`$(POD_NAMESPACE).svc.<clusterDomain>`), the pod IP,
// the pod's hash, the admin port and the practice page's server address from the lesson's params. After new-lab the pages name the new
// lab's values, never the first lab's. Where a fixture cannot be read, a value stays a named
// placeholder (<…>) rather than a guess. {{PROXY_LIST}} is where this lab's injection puts
// istio-proxy.
func (l *Lesson) pageValues(env *Env) map[string]string {
	name, ns, domain := "<deployment>", "<namespace>", "<cluster-domain>"
	// Where injection puts istio-proxy: the init containers when the pod template asks for a
	// native sidecar (sidecar.istio.io/nativeSidecar, which offline kube-inject honours).
	proxyList := "<containers|initContainers>"
	parts := ResolveFixtures(env)
	if raw, err := ReadRegularFile(FixturePath(parts, "INJECT_TARGET"), MaxFixture); err == nil {
		var d struct {
			Kind     string `yaml:"kind"`
			Metadata struct {
				Name      string `yaml:"name"`
				Namespace string `yaml:"namespace"`
			} `yaml:"metadata"`
			Spec struct {
				Template struct {
					Metadata struct {
						Annotations map[string]string `yaml:"annotations"`
					} `yaml:"metadata"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		dec := yaml.NewDecoder(strings.NewReader(string(raw)))
		for dec.Decode(&d) == nil {
			if d.Kind == "Deployment" {
				name, ns = d.Metadata.Name, d.Metadata.Namespace
				if ns == "" {
					ns = "default" // as kubectl applies it
				}
				proxyList = "containers"
				if d.Spec.Template.Metadata.Annotations["sidecar.istio.io/nativeSidecar"] == "true" {
					proxyList = "initContainers"
				}
				break
			}
		}
	}
	if raw, err := ReadRegularFile(FixturePath(parts, "INJECT_VALUES"), MaxFixture); err == nil {
		var v struct {
			Global struct {
				Proxy struct {
					ClusterDomain string `yaml:"clusterDomain"`
				} `yaml:"proxy"`
			} `yaml:"global"`
		}
		if yaml.Unmarshal(raw, &v) == nil && v.Global.Proxy.ClusterDomain != "" {
			domain = v.Global.Proxy.ClusterDomain
		}
	}
	p := l.Params
	return map[string]string{
		"{{WORKLOAD}}":     name,
		"{{NAMESPACE}}":    ns,
		"{{POD_NAME}}":     name + "-" + p["pod_hash"],
		"{{NODE_CLUSTER}}": name + "." + ns,
		"{{NODE_DOMAIN}}":  ns + ".svc." + domain,
		"{{POD_IP}}":       p["pod_ip"],
		"{{ADMIN_PORT}}":   p["admin_port"],
		"{{PROXY_LIST}}":   proxyList,
		// The practice page: where `ist2-boot control-plane` listens, as its commands start it.
		"{{PRACTICE_SERVER}}": p["practice_server"],
	}
}
