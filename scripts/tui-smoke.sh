#!/usr/bin/env bash
# Drives the built tutorial in tmux at 100×30 in a temp sandbox, as a person would, and fails
# unless each screen shows what it should: section 1's title in Korean, then Chinese, then
# Japanese; the streamed output of its commands; a state word after the check; a diff. Then at
# 80×24 in Japanese: section 3's run, its output kept, its pass saved, ? and q on the key line.
# Expected words come from content/ (lesson.yaml, strings.yaml), not from this script.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tmux > /dev/null || { echo "tui-smoke: tmux is needed" >&2; exit 1; }
command -v yq > /dev/null || { echo "tui-smoke: yq is needed (scripts/setup-tools.sh)" >&2; exit 1; }

tmp=$(mktemp -d)
session="ist2-boot-smoke-$$"
# tutorial_gone waits (up to 5 s) until no tutorial started from $tmp runs: one still saving its
# state as it quits would make the removal of $tmp fail.
tutorial_gone() {
  local f running
  for _ in $(seq 1 50); do
    running=no
    for f in /proc/[0-9]*/cmdline; do
      if [ "$(tr '\0' '\n' 2> /dev/null < "$f" | head -n 1)" = "$tmp/ist2-boot" ]; then
        running=yes
        break
      fi
    done
    [ "$running" = no ] && return 0
    sleep 0.1
  done
}
trap 'tmux kill-session -t "$session" 2> /dev/null || true; tutorial_gone; rm -rf "$tmp"' EXIT
go build -o "$tmp/ist2-boot" .

# The first two words of section 1's title: the prose may wrap the rest.
title() { yq ".sections[0].title.$1" content/lesson.yaml | awk '{print $1, $2}'; }
word() { yq ".\"$1\".$2" content/strings.yaml; }

tmux new-session -d -s "$session" -x 100 -y 30 \
  "env XDG_DATA_HOME=$tmp/data XDG_STATE_HOME=$tmp/state LANG=C.UTF-8 PATH='$PATH' $tmp/ist2-boot; sleep 600"

step=0
# expect TEXT [SECONDS]: wait until the pane shows TEXT, print the capture, fail if it never does.
expect() {
  local text=$1 wait=${2:-10} screen=""
  step=$((step + 1))
  for _ in $(seq 1 $((wait * 10))); do
    screen=$(tmux capture-pane -p -t "$session")
    if grep -qF -- "$text" <<< "$screen"; then
      printf '\n=== %d: %s\n%s\n' "$step" "$text" "$screen"
      return
    fi
    sleep 0.1
  done
  printf '\n=== %d: FAILED waiting for %q\n%s\n' "$step" "$text" "$screen"
  exit 1
}
keys() { tmux send-keys -t "$session" "$@"; }

expect "$(yq '.intro.title.ko' content/lesson.yaml)"
keys n
expect "$(title ko)"
keys l
expect "$(title zh)"
keys l
expect "$(title ja)"
keys r
expect "$(word ui.confirm_run ja | awk -F'？' '{print $1}')"
keys y
# The commands' own output: the role line 01-args.txt holds, as the run's last command prints it
# (the listed commands say role=$(…), never the value; an earlier line may have scrolled away).
expect "$(grep '^role=' steps/testdata/answers/01-args.txt)" 60
# The run's end (its words from strings.yaml, up to the first comma): the files are written.
expect "$(word ui.run_ended ja | sed 's/{code}/0/' | awk -F'、' '{print $1}')" 60
# A learner's mistake, then check and diff.
sed -i 's/^role=.*/role=router/' "$tmp/data/ist2-boot/work/01-args.txt"
keys c
expect "$(word status.fail ja)"
keys d
expect "+++ 01-args.txt$(word diff.side ja | sed "s/{side}/$(word diff.expected ja)/")"
keys Escape q
sleep 0.5
if tmux capture-pane -p -t "$session" | grep -qF "$(title ja)"; then
  echo "tui-smoke: the tutorial did not quit on q" >&2
  exit 1
fi

# The first fifteen minutes at 80×24 in Japanese: sections 1 and 2 made on the command line, then
# r y on section 3 in the tutorial. Four seconds after the run its output is still on screen (the
# watcher's late check does not replace it), progress.json says the section passed (a pass the
# learner did not check by hand is saved), and the key line shows ? and q.
tmux kill-session -t "$session" 2> /dev/null || true
env XDG_DATA_HOME="$tmp/data2" XDG_STATE_HOME="$tmp/state2" "$tmp/ist2-boot" run args env > /dev/null
tmux new-session -d -s "$session" -x 80 -y 24 \
  "env XDG_DATA_HOME=$tmp/data2 XDG_STATE_HOME=$tmp/state2 LANG=C.UTF-8 PATH='$PATH' $tmp/ist2-boot --lang ja; sleep 600"
expect "$(word keys.quit ja)"
keys n n n
expect "$(yq '.sections[2].title.ja' content/lesson.yaml | awk '{print $1}')"
keys r
expect "$(word ui.confirm_run ja | awk -F'？' '{print $1}')"
keys y
expect "$(word ui.run_ended ja | sed 's/{code}/0/' | awk -F'、' '{print $1}')" 60
sleep 4
expect "$(grep "^ca_addr_same=" steps/testdata/answers/03-mesh.txt)" 1 # the run's own output (its value, not the listed command), still there
expect "? $(word keys.help ja)" 1
expect "q $(word keys.quit ja)" 1
if [ "$(jq -r '.sections.mesh.status' "$tmp/state2/ist2-boot/progress.json")" != pass ]; then
  echo "tui-smoke: progress.json does not say section 3 passed:" >&2
  cat "$tmp/state2/ist2-boot/progress.json" >&2
  exit 1
fi
keys q

echo
echo "tui-smoke: all $step screens as expected"
