package bootcheck

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"google.golang.org/protobuf/types/known/anypb"
)

// networkFilterProblem is what a stock network filter's factory refuses as it is built
// (createFilterFactoryFromProto), field is where, below the filter's typed_config.
func networkFilterProblem(config *anypb.Any, static map[string]*clusterv3.Cluster) (msg, field string) {
	inner, err := config.UnmarshalNew()
	if err != nil {
		return "", ""
	}
	switch inner.(type) {
	}
	return "", ""
}
