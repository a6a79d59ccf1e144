#!/usr/bin/env bash
# Copies the bootstraps Istio's pilot-agent writes into the validator's testdata, from the Istio
# module that setup-tools.sh pins: pkg/bootstrap/testdata/*_golden.json are rendered by
# pilot-agent's own bootstrap code from its template and checked by Istio's tests, so they are what
# a real sidecar (and the ambient/waypoint proxies) start with. The validator must accept every one
# that upstream Envoy accepts.
set -euo pipefail
cd "$(dirname "$0")/.."
out=steps/bootcheck/testdata/istio
module=$(sed -n 's|^ISTIOCTL_MODULE=\(istio.io/istio\)/istioctl/cmd/istioctl@\(.*\)$|\1@\2|p' scripts/setup-tools.sh)
[ -n "$module" ] || { echo "no pinned Istio module in scripts/setup-tools.sh" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "$module" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$dir/pkg/bootstrap/testdata" ] || { echo "no pkg/bootstrap/testdata in $module" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
for f in "$dir"/pkg/bootstrap/testdata/*_golden.json; do
  install -m 0644 "$f" "$out/$(basename "$f")"
done
install -m 0644 "$dir/LICENSE" "$out/ISTIO-LICENSE"
cat > "$out/SOURCE.md" <<NOTE
Copied by scripts/copy-istio-bootstraps.sh from $module, pkg/bootstrap/testdata:
the bootstraps Istio's pilot-agent renders (its golden files). Istio is Apache License 2.0
(ISTIO-LICENSE here).
NOTE
echo "$(ls "$out"/*_golden.json | wc -l) bootstraps in $out"
