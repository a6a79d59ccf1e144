package drill

import (
	"math/rand/v2"
	"strings"

	"ist2-boot/steps/sidecar"
)

// decoys are fields a learner might blame instead: the choices a drill offers besides the right one.
var decoys = []string{
	"node.id",
	"admin.address.socket_address.port_value",
	"dynamic_resources.ads_config.api_type",
	"dynamic_resources.lds_config.resource_api_version",
	"static_resources.clusters[0].connect_timeout",
	"static_resources.clusters[0].name",
	"node.metadata.CLUSTER_ID",
}

// FieldChoices are four fields to choose from, the broken one among them, in an order fixed by
// the seed (for the tutorial, where the field is picked rather than typed).
func (d *Drill) FieldChoices() []string {
	r := rand.New(rand.NewPCG(d.Seed, 0xc401ce5))
	if d.Class == ConfigRejected { // the where is a push: its types
		choices := []string{typesWord([]string{sidecar.ClusterType}), typesWord([]string{sidecar.ListenerType}),
			typesWord([]string{sidecar.ClusterType, sidecar.ListenerType})}
		return choices // in their natural order, CDS, LDS, both (zh r7 L18): the answer's place varies by fault
	}
	choices := []string{d.Field}
	for _, i := range r.Perm(len(decoys)) {
		if len(choices) == 4 {
			break
		}
		if decoys[i] != d.Field && !strings.HasSuffix(d.Field, decoys[i]) {
			choices = append(choices, decoys[i])
		}
	}
	r.Shuffle(len(choices), func(i, j int) { choices[i], choices[j] = choices[j], choices[i] })
	return choices
}
