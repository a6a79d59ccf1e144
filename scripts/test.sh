#!/usr/bin/env bash
# The test command: installs what a fresh machine lacks, then vets and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup-tools.sh
unformatted=$(gofmt -l main.go steps ui content assets 2> /dev/null || true)
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
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
