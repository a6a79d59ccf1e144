package setup

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
)

// envoyWrapper writes, where Envoy is missing and docker or podman answers (and the learner
// agrees), an `envoy` in the tools dir that runs the official image: the work dir mounted at the
// same path and the host network, so the lab's commands — `envoy --mode validate -c …` and the
// detached start of section 6 — work unchanged and the admin port answers on 127.0.0.1. A runtime
// whose daemon does not answer is not offered: the wrapper would fail at its first run.
func (in *Installer) envoyWrapper(ctx context.Context, spec steps.ToolSpec, emit func(SetupEvent), told bool) error {
	runtime, silent := "", ""
	for _, r := range []string{"docker", "podman"} {
		p, err := lookPathIn(in.Env, r)
		if err != nil {
			continue
		}
		if daemonAnswers(ctx, p) {
			runtime = p
			break
		}
		silent = r
	}
	switch {
	case runtime == "" && silent != "":
		// Inside setup: not "use setup" again, nor the download paragraph said above (ja r12 M8).
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.no_daemon", "runtime", silent)})
		return fmt.Errorf("%s: %s does not answer", spec.Name, silent)
	case runtime == "":
		if !told {
			emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.no_envoy", "how", i18n.Ref(spec.Get))})
		}
		return fmt.Errorf("%s: no way to get it here", spec.Name)
	}
	if in.Envoy == nil || !in.Envoy(filepath.Base(runtime), spec.Container) {
		emit(SetupEvent{Tool: spec.Name, Kind: SetupSkip, Msg: i18n.M("setup.wrapper_declined", "runtime", filepath.Base(runtime))})
		return nil
	}
	path := filepath.Join(in.Env.ToolsDir, spec.Name)
	if err := steps.WriteFileAtomic(path, []byte(EnvoyWrapperScript(runtime, spec.Container)), 0o755); err != nil {
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.build_failed", "tool", spec.Name, "code", err.Error())})
		return err
	}
	emit(SetupEvent{Tool: spec.Name, Kind: SetupDone, Msg: i18n.M("setup.wrapper_written", "path", path, "runtime", filepath.Base(runtime), "image", spec.Container)})
	return nil
}

// EnvoyWrapperScript is the wrapper's text. A TERM (the lab stopping its Envoy by pid) stops the
// container; --version answers without starting one.
func EnvoyWrapperScript(runtime, image string) string {
	return strings.NewReplacer("@RUNTIME@", shellQuote(runtime), "@IMAGE@", shellQuote(image), "@MARK@", steps.WrapperMark).Replace(`#!/bin/sh
@MARK@, run by a container runtime.
# The work dir is mounted at the same path and the host network is used, so "envoy -c FILE" and
# the admin port on 127.0.0.1 work as with a local Envoy. A TERM stops the container.
runtime=@RUNTIME@
image=@IMAGE@
if [ "${1:-}" = "--version" ]; then
  echo "envoy from the container image $image (run by $runtime)"
  exit 0
fi
dir="${LAB_DIR:-$PWD}"
name="ist2-boot-envoy-$$"
case "$PWD/" in
  "$dir"/*) "$runtime" run --rm --name "$name" --network host -v "$dir:$dir" -w "$PWD" "$image" envoy "$@" & ;;
  *) "$runtime" run --rm --name "$name" --network host -v "$dir:$dir" -v "$PWD:$PWD" -w "$PWD" "$image" envoy "$@" & ;;
esac
child=$!
trap '"$runtime" stop -t 5 "$name" > /dev/null 2>&1; wait "$child"; exit 143' TERM INT
wait "$child"
`)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
