package drill

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"ist2-boot/steps/sidecar"
)

// Lab is what a drill takes from the learner's lab, so its pod is this lab's pod: where injection
// put istio-proxy, and its startup probe — read from the injected manifest (section 1's
// inject.yaml), never assumed.
type Lab struct {
	Shape sidecar.Shape
	Probe sidecar.Probe
	// EnvoyArgs: how pilot-agent starts Envoy in this pod, from the container's arguments
	// (--proxyLogLevel, --proxyComponentLogLevel) and its CPU limit (--concurrency).
	EnvoyArgs []string
}

// ErrNoProxy: the manifest has no istio-proxy with a startup probe.
var ErrNoProxy = errors.New("the injected manifest has no istio-proxy with a startup probe")

// LabFromManifest reads the pod template of the injected Deployment: istio-proxy among the init
// containers is the native form; its startupProbe's periodSeconds and failureThreshold, with
// Kubernetes' defaults (10 s, 3) where they are left out.
func LabFromManifest(manifest []byte) (Lab, error) {
	type probe struct {
		PeriodSeconds    int `yaml:"periodSeconds"`
		FailureThreshold int `yaml:"failureThreshold"`
	}
	type container struct {
		Name         string   `yaml:"name"`
		Args         []string `yaml:"args"`
		StartupProbe *probe   `yaml:"startupProbe"`
		Env          []struct {
			Name  string `yaml:"name"`
			Value string `yaml:"value"`
		} `yaml:"env"`
		Resources struct {
			Limits map[string]string `yaml:"limits"`
		} `yaml:"resources"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(manifest))
	for {
		var doc struct {
			Kind string `yaml:"kind"`
			Spec struct {
				Template struct {
					Spec struct {
						Containers     []container `yaml:"containers"`
						InitContainers []container `yaml:"initContainers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return Lab{}, ErrNoProxy
		}
		if err != nil {
			return Lab{}, err
		}
		spec := doc.Spec.Template.Spec
		for shape, list := range map[sidecar.Shape][]container{sidecar.Classic: spec.Containers, sidecar.Native: spec.InitContainers} {
			for _, c := range list {
				if c.Name != "istio-proxy" || c.StartupProbe == nil {
					continue
				}
				p := sidecar.Probe{Period: 10 * time.Second, Threshold: 3}
				if c.StartupProbe.PeriodSeconds > 0 {
					p.Period = time.Duration(c.StartupProbe.PeriodSeconds) * time.Second
				}
				if c.StartupProbe.FailureThreshold > 0 {
					p.Threshold = c.StartupProbe.FailureThreshold
				}
				var level, component string
				for _, a := range c.Args {
					if v, ok := strings.CutPrefix(a, "--proxyLogLevel="); ok {
						level = v
					}
					if v, ok := strings.CutPrefix(a, "--proxyComponentLogLevel="); ok {
						component = v
					}
				}
				var proxyConfig string
				for _, e := range c.Env {
					if e.Name == "PROXY_CONFIG" {
						proxyConfig = e.Value
					}
				}
				args := sidecar.EnvoyArgs(level, component, concurrency(proxyConfig, c.Resources.Limits["cpu"]))
				return Lab{Shape: shape, Probe: p, EnvoyArgs: args}, nil
			}
		}
	}
}

// concurrency is the --concurrency pilot-agent passes: ProxyConfig's concurrency when the pod's
// PROXY_CONFIG sets it, else the CPU limit that ISTIO_CPU_LIMIT carries (a resourceFieldRef with
// divisor 1: whole cores, rounded up); 0 (no flag) without either (Istio
// pilot/cmd/pilot-agent/config/config.go ConstructProxyConfig, pkg/envoy/proxy.go args).
func concurrency(proxyConfig, cpuLimit string) int {
	var pc struct {
		Concurrency *int `json:"concurrency"`
	}
	if json.Unmarshal([]byte(proxyConfig), &pc) == nil && pc.Concurrency != nil {
		return *pc.Concurrency
	}
	if cpuLimit == "" {
		return 0
	}
	if m, ok := strings.CutSuffix(cpuLimit, "m"); ok {
		milli, err := strconv.Atoi(m)
		if err != nil {
			return 0
		}
		return (milli + 999) / 1000
	}
	cores, err := strconv.ParseFloat(cpuLimit, 64)
	if err != nil {
		return 0
	}
	return int(math.Ceil(cores))
}
