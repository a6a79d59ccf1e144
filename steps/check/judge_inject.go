package check

import (
	"strings"

	"ist2-boot/steps/i18n"
)

// proxyContainer is the sidecar container istioctl injects.
const proxyContainer = "istio-proxy"

// injectedDeployment finds the Deployment named name in a kube-inject output.
func injectedDeployment(text, name string) (*deployment, *i18n.Msg) {
	ds, err := deploymentsIn(text)
	if err != nil {
		m := unreadableYAML("inject.yaml", err, text)
		return nil, &m
	}
	for i := range ds {
		if ds[i].Metadata.Name == name {
			return &ds[i], nil
		}
	}
	m := i18n.M("reason.no_deployment", "file", "inject.yaml", "name", name)
	return nil, &m
}

// judgeInject: the target's Deployment, with an istio-proxy container whose args begin
// "proxy sidecar", and every app container of the target still there.
func judgeInject(c *checker, file, text string) FileResult {
	target := c.fixtures.Target
	d, why := injectedDeployment(text, target.Metadata.Name)
	if why != nil {
		return failWith(file, *why)
	}
	c.injected = d // the sections that read it next need not parse it again
	present := "present"
	has := func(name string) fact {
		absent := i18n.M("reason.no_container", "file", file, "container", name)
		f := fact{Field: "containers[" + name + "]", Want: present, Absent: &absent}
		if d.Spec.Template.Spec.container(name) != nil {
			f.Got, f.Has = present, true
		}
		return f
	}
	facts := []fact{{Field: "Deployment", Want: target.Metadata.Name, Got: d.Metadata.Name, Has: true}}
	for _, app := range target.Spec.Template.Spec.Containers {
		facts = append(facts, has(app.Name))
	}
	proxy := has(proxyContainer)
	proxy.Field = d.Spec.Template.Spec.listOf(proxyContainer) + "[" + proxyContainer + "]"
	facts = append(facts, proxy)
	args := fact{Field: proxy.Field + ".args[0:2]", Want: "proxy sidecar"}
	if p := d.Spec.Template.Spec.container(proxyContainer); p != nil && len(p.Args) > 0 {
		args.Got, args.Has = strings.Join(p.Args[:min(2, len(p.Args))], " "), true
	}
	return judgeFacts(file, append(facts, args))
}

// judgeArgs: role is the 2nd arg, domain the arg after --domain verbatim, and the two log levels
// the values of --proxyLogLevel= and --proxyComponentLogLevel=, all from the learner's inject.yaml.
func judgeArgs(c *checker, file, text string) FileResult {
	_, proxy, why := c.learnerInject(file)
	if why != nil {
		return failWith(file, *why)
	}
	role := ""
	if len(proxy.Args) > 1 {
		role = proxy.Args[1]
	}
	domain, _ := proxy.argAfter("--domain")
	level, _ := proxy.argValue("--proxyLogLevel=")
	component, _ := proxy.argValue("--proxyComponentLogLevel=")
	return judgeKV(file, text, []kv{
		{Key: "role", Want: role},
		{Key: "domain", Want: domain},
		{Key: "proxy_log_level", Want: level},
		{Key: "component_log_level", Want: component},
	})
}

// envKeys are the seven variables of 02-env.txt, each written as the lab writes it: its value, or
// fieldRef:<fieldPath> for those the pod fills in.
var envKeys = []string{"CA_ADDR", "PILOT_CERT_PROVIDER", "ISTIO_META_CLUSTER_ID", "TRUST_DOMAIN",
	"ISTIO_META_WORKLOAD_NAME", "POD_NAMESPACE", "SERVICE_ACCOUNT"}

func judgeEnv(c *checker, file, text string) FileResult {
	_, proxy, why := c.learnerInject(file)
	if why != nil {
		return failWith(file, *why)
	}
	var want []kv
	for _, k := range envKeys {
		w := kv{Key: k}
		if e := proxy.env(k); e != nil {
			w.Want = e.shown()
		}
		want = append(want, w)
	}
	return judgeKV(file, text, want)
}

// judgeIdentity: the projected-token volume, its audience and mount in istio-proxy; the ConfigMap
// of volume istiod-ca-cert and its mount.
func judgeIdentity(c *checker, file, text string) FileResult {
	d, proxy, why := c.learnerInject(file)
	if why != nil {
		return failWith(file, *why)
	}
	pod := d.Spec.Template.Spec
	var tokenVol, audience, tokenMount, caMap, caMount string
	for _, v := range pod.Volumes {
		if v.Projected == nil {
			continue
		}
		for _, s := range v.Projected.Sources {
			if s.ServiceAccountToken != nil && tokenVol == "" {
				tokenVol, audience = v.Name, s.ServiceAccountToken.Audience
			}
		}
	}
	if m := proxy.mount(tokenVol); m != nil {
		tokenMount = m.MountPath
	}
	const caVolume = "istiod-ca-cert" // named by the lab's question
	if v := pod.volume(caVolume); v != nil && v.ConfigMap != nil {
		caMap = v.ConfigMap.Name
	}
	if m := proxy.mount(caVolume); m != nil {
		caMount = m.MountPath
	}
	return judgeKV(file, text, []kv{
		{Key: "token_volume", Want: tokenVol},
		{Key: "token_audience", Want: audience},
		{Key: "token_mount", Want: tokenMount},
		{Key: "ca_configmap", Want: caMap},
		{Key: "ca_mount", Want: caMount},
	})
}

// judgeMesh: three values from the mesh config, and whether its discovery address is CA_ADDR of
// the learner's inject.yaml letter for letter.
func judgeMesh(c *checker, file, text string) FileResult {
	_, proxy, why := c.learnerInject(file)
	if why != nil {
		return failWith(file, *why)
	}
	same := "no"
	if ca := proxy.env("CA_ADDR"); ca != nil && ca.shown() == c.fixtures.Discovery {
		same = "yes"
	}
	return judgeKV(file, text, []kv{
		{Key: "discovery_address", Want: c.fixtures.Discovery},
		{Key: "root_namespace", Want: c.fixtures.RootNS},
		{Key: "trust_domain", Want: c.fixtures.TrustDom},
		{Key: "ca_addr_same", Want: same},
	})
}
