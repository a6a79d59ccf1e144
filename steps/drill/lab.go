package drill

import (
	"bytes"
	"errors"
	"io"
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
		Name         string `yaml:"name"`
		StartupProbe *probe `yaml:"startupProbe"`
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
				return Lab{Shape: shape, Probe: p}, nil
			}
		}
	}
}
