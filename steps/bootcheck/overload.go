package bootcheck

import (
	"fmt"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	overloadv3 "github.com/envoyproxy/go-control-plane/envoy/config/overload/v3"
)

// wellKnownOverloadActions are the actions an overload manager takes
// (OverloadActionNames::WellKnownActions, envoy/server/overload/overload_manager.h:50 at v1.39.0).
var wellKnownOverloadActions = map[string]bool{
	"envoy.overload_actions.stop_accepting_requests":     true,
	"envoy.overload_actions.disable_http_keepalive":      true,
	"envoy.overload_actions.stop_accepting_connections":  true,
	"envoy.overload_actions.reject_incoming_connections": true,
	"envoy.overload_actions.shrink_heap":                 true,
	"envoy.overload_actions.reduce_timeouts":             true,
	"envoy.overload_actions.reset_high_memory_stream":    true,
	"envoy.overload_actions.close_idle_http_connections": true,
}

// proactiveMonitor is the resource monitor a trigger may name without configuring it
// (OverloadProactiveResourceNameValues, envoy/server/overload/thread_local_overload_state.h:24).
const proactiveMonitor = "envoy.resource_monitors.global_downstream_max_connections"

// overloadChecks is OverloadManagerImpl's constructor (source/server/overload_manager_impl.cc:
// 432-569), built in validate mode right after the runtime (config_validation/server.cc:154):
// the monitors, then each action — its name, its triggers (OverloadAction's constructor, :355),
// its uniqueness, its typed_config, its triggers' monitors — then the load-shed points.
func overloadChecks(bs *bootstrapv3.Bootstrap, add addFunc) {
	om := bs.GetOverloadManager()
	monitors := map[string]bool{}
	for i, m := range om.GetResourceMonitors() {
		if monitors[m.GetName()] {
			add(stageOverload, fmt.Sprintf("overload_manager.resource_monitors[%d].name", i), "Duplicate resource monitor "+m.GetName())
			return
		}
		monitors[m.GetName()] = true
	}
	actions := map[string]bool{}
	for i, a := range om.GetActions() {
		path, name := fmt.Sprintf("overload_manager.actions[%d]", i), a.GetName()
		if !wellKnownOverloadActions[name] {
			add(stageOverload, path+".name", "Unknown Overload Manager Action "+name)
			return
		}
		if msg, where := triggersProblem(a.GetTriggers(), "Duplicate trigger resource for overload action "+name); msg != "" {
			add(stageOverload, path+where, msg)
			return
		}
		if actions[name] {
			add(stageOverload, path+".name", "Duplicate overload action "+name)
			return
		}
		actions[name] = true
		if msg := actionConfigProblem(a, om); msg != "" {
			add(stageOverload, path, msg)
			return
		}
		for j, t := range a.GetTriggers() {
			if !monitors[t.GetName()] && t.GetName() != proactiveMonitor {
				add(stageOverload, fmt.Sprintf("%s.triggers[%d].name", path, j), fmt.Sprintf("Unknown trigger resource %s for overload action %s", t.GetName(), name))
				return
			}
		}
	}
	points := map[string]bool{}
	for i, p := range om.GetLoadshedPoints() {
		path := fmt.Sprintf("overload_manager.loadshed_points[%d]", i)
		for j, t := range p.GetTriggers() { // only configured monitors here (:546-553)
			if !monitors[t.GetName()] {
				add(stageOverload, fmt.Sprintf("%s.triggers[%d].name", path, j), fmt.Sprintf("Unknown trigger resource %s for loadshed point %s", t.GetName(), p.GetName()))
				return
			}
		}
		if msg, where := triggersProblem(p.GetTriggers(), "Duplicate trigger resource for LoadShedPoint "+p.GetName()); msg != "" {
			add(stageOverload, path+where, msg)
			return
		}
		if points[p.GetName()] {
			add(stageOverload, path+".name", "Duplicate loadshed point "+p.GetName())
			return
		}
		points[p.GetName()] = true
	}
}

// triggersProblem: each trigger is made (a scaled one's thresholds in order,
// ScaledTriggerImpl::create, :50-53), then kept by its monitor's name, once.
func triggersProblem(triggers []*overloadv3.Trigger, duplicate string) (msg, where string) {
	seen := map[string]bool{}
	for j, t := range triggers {
		if s := t.GetScaled(); s != nil && s.GetScalingThreshold() >= s.GetSaturationThreshold() {
			return "scaling_threshold must be less than saturation_threshold", fmt.Sprintf(".triggers[%d].scaled", j)
		}
		if seen[t.GetName()] {
			return duplicate, fmt.Sprintf(".triggers[%d].name", j)
		}
		seen[t.GetName()] = true
	}
	return "", ""
}

// actionConfigProblem: what an action's typed_config may be (:507-529): reduce_timeouts' timer
// scale factors name each timer once (parseTimerMinimums, :159-176); reset_high_memory_stream
// needs the buffer factory; only shrink_heap takes a config besides.
func actionConfigProblem(a *overloadv3.OverloadAction, om *overloadv3.OverloadManager) string {
	switch a.GetName() {
	case "envoy.overload_actions.reduce_timeouts":
		var cfg overloadv3.ScaleTimersOverloadActionConfig
		if a.GetTypedConfig().UnmarshalTo(&cfg) != nil {
			return ""
		}
		seen := map[overloadv3.ScaleTimersOverloadActionConfig_TimerType]bool{}
		for _, f := range cfg.GetTimerScaleFactors() {
			if seen[f.GetTimer()] {
				return "Found duplicate entry for timer type " + f.GetTimer().String()
			}
			seen[f.GetTimer()] = true
		}
	case "envoy.overload_actions.reset_high_memory_stream":
		if om.GetBufferFactoryConfig() == nil {
			return fmt.Sprintf("Overload action %q requires buffer_factory_config.", a.GetName())
		}
	case "envoy.overload_actions.shrink_heap":
	default:
		if a.GetTypedConfig() != nil {
			return fmt.Sprintf("Overload action %q has an unexpected value for the typed_config field", a.GetName())
		}
	}
	return ""
}
