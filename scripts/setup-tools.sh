#!/usr/bin/env bash
# Installs what the lab's commands and the tests need and a fresh machine lacks. Idempotent: a
# second run changes nothing and takes a second.
#   Debian packages (when root, or with sudo): jq, curl, tmux
#   Go tools, at the versions pinned below (lesson.yaml pins the same), into the program's tools dir
#   ($XDG_DATA_HOME/ist2-boot/bin), which ist2-boot puts first on the PATH of every command:
#     istioctl (5 to 10 minutes on 2 cores and 200 MB the first time), yq (mikefarah v4), and gojq as jq
#     where Debian's jq cannot be installed.
# Source it to get the tools dir on PATH too: . scripts/setup-tools.sh
set -euo pipefail

ISTIOCTL_MODULE=istio.io/istio/istioctl/cmd/istioctl@v0.0.0-20260827124520-eed52ebb66ad
YQ_MODULE=github.com/mikefarah/yq/v4@v4.54.3
GOJQ_MODULE=github.com/itchyny/gojq/cmd/gojq@v0.12.19

tools_dir="${XDG_DATA_HOME:-$HOME/.local/share}/ist2-boot/bin"
mkdir -p "$tools_dir"
export PATH="$tools_dir:$PATH"

say() { printf 'setup: %s\n' "$*" >&2; }

missing=()
for pkg in jq curl tmux; do
  command -v "$pkg" > /dev/null || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=$(command -v sudo || true)
  if [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; then
    say "installing Debian packages: ${missing[*]}"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
  else
    say "cannot install ${missing[*]} (not root, no sudo); install them with your package manager"
  fi
fi

# go_tool NAME MODULE [BINARY]: go install MODULE into the tools dir unless NAME is there already.
# The build goes to a temp dir first, so an interrupted install leaves nothing half-written.
go_tool() {
  local name=$1 module=$2 binary=${3:-$1}
  if [ -x "$tools_dir/$name" ]; then
    return
  fi
  say "go install $module (into $tools_dir)"
  local tmp
  tmp=$(mktemp -d)
  local start=$SECONDS
  # The first istioctl build takes 5 to 10 minutes on 2 cores: say every 15 s that it goes on.
  GOBIN="$tmp" go install "$module" &
  local pid=$!
  while kill -0 "$pid" 2> /dev/null; do
    sleep 1
    if [ $(((SECONDS - start) % 15)) -eq 0 ] && kill -0 "$pid" 2> /dev/null; then
      say "still building $name: $((SECONDS - start)) s so far"
    fi
  done
  wait "$pid"
  mv "$tmp/$binary" "$tools_dir/$name"
  rm -rf "$tmp"
  say "$name ready in $((SECONDS - start)) s"
}

command -v go > /dev/null || { say "Go is needed (1.26 or newer)"; exit 1; }
go_tool yq "$YQ_MODULE"
go_tool istioctl "$ISTIOCTL_MODULE"
if ! command -v jq > /dev/null; then
  go_tool jq "$GOJQ_MODULE" gojq
fi
