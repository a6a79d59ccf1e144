#!/usr/bin/env bash
# The test command: installs what a fresh machine lacks, then vets and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup-tools.sh
# goimports (a developer's tool, kept out of the lab's tools dir): gofmt's layout plus one grouping
# of imports — the standard library, then other modules, then ist2-boot's own packages.
GOIMPORTS_MODULE=golang.org/x/tools/cmd/goimports@v0.52.0
dev_bin="${XDG_CACHE_HOME:-$HOME/.cache}/ist2-boot-dev/bin"
if [ ! -x "$dev_bin/goimports" ]; then
  mkdir -p "$dev_bin"
  GOBIN="$dev_bin" go install "$GOIMPORTS_MODULE"
fi
unformatted=$("$dev_bin/goimports" -local ist2-boot -l main.go steps ui content assets)
if [ -n "$unformatted" ]; then
  echo "goimports -local ist2-boot would change: $unformatted" >&2
  exit 1
fi
go vet ./...
go vet -tags labtools ./...
# -tags labtools: also the tests that run the lab with the real istioctl, yq, jq and curl.
go test -tags labtools -count=1 ./... 2>&1
# The tutorial as a person sees it: tmux, keys, screens.
smoke_log=$(mktemp)
bash scripts/tui-smoke.sh > "$smoke_log" 2>&1 || { cat "$smoke_log"; exit 1; }
tail -n 1 "$smoke_log"
rm -f "$smoke_log"
