package bootcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
)

// stage is where in Envoy's start-up (InstanceBase::initializeOrThrow, then MainImpl::initialize)
// a problem is met. Envoy stops at the first problem it meets, so problems are ordered by stage,
// then by line.
type stage int

const (
	stageParse               stage = iota // YAML, fields, types, constraints
	stageLogFormat                        // application_log_config: right after the bootstrap loads
	stageServer                           // the regex engine, stats tags
	stageAdmin                            // the admin address (Configuration::InitialImpl), its access log
	stageBootstrapExtensions              // bootstrap extensions (config_validation/server.cc:139)
	stageRuntime                          // the runtime loader and its layers
	stageOverload                         // the overload manager (config_validation/server.cc:154)
	stageTracing                          // MainImpl::initialize: tracing, then static secrets,
	stageClusters                         // the cluster manager's primary clusters
	stageADSVersion                       // the ADS mux: its transport version,
	stageADSCluster                       // then its gRPC cluster,
	stageNode                             // then the node identity it sends
	stageSecondaryClusters                // EDS clusters, loaded once ADS is up (cluster_manager_impl.cc:409)
	stageLocalCluster                     // the local cluster, once the static clusters exist
	stageSubscriptions                    // CDS, LDS and every other config source; other gRPC clients
	stageListeners                        // static listeners and what their filters build
	stageLast                             // watchdogs, stats sinks; anything not placed above
)

// stageOfAny is where Envoy builds (and so validates) an extension config, or compiles a regex,
// found at path: the bootstrap is checked without recursing into Any
// (InstanceUtil::loadBootstrapConfig), each Any when its factory makes it (source/server/config_validation/server.cc ValidationInstance::
// initialize, source/server/configuration_impl.cc MainImpl::initialize).
func stageOfAny(path string) stage {
	for _, s := range []struct {
		prefix string
		st     stage
	}{
		{"default_regex_engine", stageServer}, {"stats_config", stageServer}, {"overload_manager", stageOverload},
		{"admin", stageAdmin}, {"layered_runtime", stageRuntime}, {"bootstrap_extensions", stageBootstrapExtensions},
		{"tracing", stageTracing}, {"static_resources.secrets", stageTracing},
		{"static_resources.clusters", stageClusters}, {"cluster_manager", stageClusters},
		{"dynamic_resources", stageSubscriptions}, {"static_resources.listeners", stageListeners},
	} {
		if path == s.prefix || strings.HasPrefix(path, s.prefix+".") || strings.HasPrefix(path, s.prefix+"[") {
			return s.st
		}
	}
	return stageLast
}

// addFunc records a problem met at a stage, at a field path.
type addFunc func(st stage, path, msg string)

// applicationLogChecks: a JSON application log format may not use %v or %_
// (Logger::Registry::setJsonLogFormat, reached from InstanceBase::initializeOrThrow).
func applicationLogChecks(bs *bootstrapv3.Bootstrap, add addFunc) {
	format := bs.GetApplicationLogConfig().GetLogFormat().GetJsonFormat()
	if format == nil {
		return
	}
	raw, _ := protojson.Marshal(format)
	for _, flag := range []string{"%v", "%_"} {
		if strings.Contains(string(raw), flag) {
			add(stageLogFormat, "application_log_config.log_format.json_format",
				fmt.Sprintf("setJsonLogFormat error: INVALID_ARGUMENT: Usage of %s is unavailable for JSON log formats", flag))
			return
		}
	}
}

// adminChecks: the admin listener's address is resolved as an IP (no DNS at start-up).
func adminChecks(bs *bootstrapv3.Bootstrap, add addFunc) {
	checkIP(stageAdmin, bs.GetAdmin().GetAddress(), "admin.address", add)
}

// checkIP: an address is resolved as it is bound, with no DNS (addressProblem).
func checkIP(st stage, a *corev3.Address, path string, add addFunc) {
	if msg, field := addressProblem(a); msg != "" {
		add(st, path+field, msg)
	}
}

// runtimeChecks: layer names are unique and one admin layer at most, as the loader registers the
// layers (Runtime::LoaderImpl); then, as it loads the first snapshot, a static layer's values are
// scalars or objects of them (ProtoLayer::walkProtoValue).
func runtimeChecks(bs *bootstrapv3.Bootstrap, add addFunc) {
	seen, admin := map[string]bool{}, false
	layers := bs.GetLayeredRuntime().GetLayers()
	for i, layer := range layers {
		path := fmt.Sprintf("layered_runtime.layers[%d]", i)
		if seen[layer.GetName()] {
			add(stageRuntime, path+".name", "Duplicate layer name: "+layer.GetName())
			return
		}
		seen[layer.GetName()] = true
		if layer.GetAdminLayer() != nil {
			if admin {
				add(stageRuntime, path+".admin_layer", "Too many admin layers specified in LayeredRuntime, at most one may be specified")
				return
			}
			admin = true
		}
		// A disk layer's watch splits its symlink_root at the last '/' (InstanceImplPosix::
		// splitPathFromFilename, filesystem_impl.cc:314-317); past that, it needs the directory.
		if root := layer.GetDiskLayer().GetSymlinkRoot(); layer.GetDiskLayer() != nil && !strings.Contains(root, "/") {
			add(stageRuntime, path+".disk_layer.symlink_root", "invalid file path "+root)
			return
		}
	}
	for i, layer := range layers {
		fields := layer.GetStaticLayer().GetFields()
		for _, key := range slices.Sorted(maps.Keys(fields)) {
			if bad, ok := invalidRuntimeValue(fields[key], key); ok {
				add(stageRuntime, fmt.Sprintf("layered_runtime.layers[%d].static_layer.%s", i, bad), "Invalid runtime entry value for "+bad)
				return
			}
		}
	}
}

// invalidRuntimeValue finds a null or list value below prefix; objects nest with dots.
func invalidRuntimeValue(v *structpb.Value, prefix string) (string, bool) {
	switch k := v.GetKind().(type) {
	case nil, *structpb.Value_NullValue, *structpb.Value_ListValue:
		return prefix, true
	case *structpb.Value_StructValue:
		fields := k.StructValue.GetFields()
		for _, key := range slices.Sorted(maps.Keys(fields)) {
			if bad, ok := invalidRuntimeValue(fields[key], prefix+"."+key); ok {
				return bad, true
			}
		}
	}
	return "", false
}

// localClusterCheck: cluster_manager.local_cluster_name must name a static cluster
// (ClusterManagerImpl, "local cluster '…' must be defined").
func localClusterCheck[C any](bs *bootstrapv3.Bootstrap, static map[string]C, add addFunc) {
	name := bs.GetClusterManager().GetLocalClusterName()
	if _, ok := static[name]; name != "" && !ok {
		add(stageLocalCluster, "cluster_manager.local_cluster_name", fmt.Sprintf("local cluster '%s' must be defined", name))
	}
}
