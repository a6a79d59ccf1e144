#!/usr/bin/env bash
# Starts the tutorial on a fresh machine: installs the lab's tools, builds, runs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup-tools.sh
go build -o ist2-boot .
exec ./ist2-boot "$@"
