#!/usr/bin/env bash
# The test command: installs what a fresh machine lacks, then vets and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup-tools.sh
# goimports and staticcheck (developers' tools, kept out of the lab's tools dir, at pinned
# versions): goimports checks gofmt's layout and that ist2-boot's own imports stand apart
# (-local); it does not reorder the groups a file has.
GOIMPORTS_MODULE=golang.org/x/tools/cmd/goimports@v0.52.0
STATICCHECK_MODULE=honnef.co/go/tools/cmd/staticcheck@v0.8.2
dev_bin="${XDG_CACHE_HOME:-$HOME/.cache}/ist2-boot-dev/bin"
mkdir -p "$dev_bin"
if [ ! -x "$dev_bin/goimports" ]; then
  GOBIN="$dev_bin" go install "$GOIMPORTS_MODULE"
fi
if ! "$dev_bin/staticcheck" -version 2>/dev/null | grep -qF '(0.8.2)'; then
  GOBIN="$dev_bin" go install "$STATICCHECK_MODULE"
fi
unformatted=$("$dev_bin/goimports" -local ist2-boot -l main.go steps ui content assets)
if [ -n "$unformatted" ]; then
  echo "goimports -local ist2-boot would change: $unformatted" >&2
  exit 1
fi
go vet ./...
go vet -tags labtools ./...
# -tags labtools: every file, the lab-tool tests included; it prints nothing when clean.
"$dev_bin/staticcheck" -tags labtools ./...
echo "staticcheck $("$dev_bin/staticcheck" -version | awk '{print $2}'): no findings"
# -tags labtools: also the tests that run the lab with the real istioctl, yq, jq and curl.
go test -tags labtools -count=1 ./... 2>&1
# The tutorial as a person sees it: tmux, keys, screens.
smoke_log=$(mktemp)
bash scripts/tui-smoke.sh > "$smoke_log" 2>&1 || { cat "$smoke_log"; exit 1; }
tail -n 1 "$smoke_log"
rm -f "$smoke_log"
