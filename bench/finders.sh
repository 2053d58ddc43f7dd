#!/usr/bin/env bash
# Whole-process cost of --profile and the finders: `measure --json` against
# `measure --json --profile --drop-unused-defs --hoist-repeated`, taking
# turns run by run (bench/alternate), on bench/gencapture's 1,000-tool
# capture whose tools carry shared definitions they mostly leave unused and
# repeat subschemas (`--defs`); then the peak resident memory of the same
# two commands on the 10,000-tool benchmark capture (GNU time, the largest
# of three runs), beside the capture's size.
#
#   bench/finders.sh
#   RUNS=30 bench/finders.sh
#
# Environment:
#   RUNS     timed runs per command (default 11), after 3 warm-ups
#   MEASURE  a measure binary to use instead of building ./cmd/measure
#
# Needs: go, GNU time at /usr/bin/time (apt-get install time).
# Exit codes: 0 tables printed, 2 a tool or a step failed.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

RUNS=${RUNS:-11}

. bench/lib.sh

[ -x /usr/bin/time ] || die "/usr/bin/time not found: apt-get install time"

go run ./bench/gencapture --defs --tools 1000 -o "$work/defs-1000.json" >&2 || die "gencapture failed"
go run ./bench/gencapture --tools 10000 -o "$work/tools-10000.json" >&2 || die "gencapture failed"

say "timing, $RUNS runs each, taking turns"
(cd "$work" && ./alternate --runs "$RUNS" --warmup 3 --markdown -- \
  "$measure" --json defs-1000.json ::: \
  "$measure" --json --profile --drop-unused-defs --hoist-repeated defs-1000.json) >"$work/times.md" ||
  die "timing failed"
sed -i "s|$work/||g" "$work/times.md"

# peak CAPTURE ARGS...: the largest peak RSS in KiB of three runs.
peak() {
  local cap=$1 i m best=0
  shift
  for i in 1 2 3; do
    m=$( { /usr/bin/time -f '%M' "$measure" "$@" "$cap" >/dev/null; } 2>&1 | tail -1) || die "measure $* $cap failed"
    ((m > best)) && best=$m
  done
  echo "$best"
}
size=$(wc -c <"$work/tools-10000.json" | tr -d ' ')
plain=$(peak "$work/tools-10000.json" --json)
full=$(peak "$work/tools-10000.json" --json --profile --drop-unused-defs --hoist-repeated)

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || true)
cat <<OUT
\`measure --json\` against \`measure --json --profile --drop-unused-defs --hoist-repeated\` on bench/gencapture's 1,000-tool capture with shared definitions and repeated subschemas ($(wc -c <"$work/defs-1000.json" | tr -d ' ') bytes), taking turns, $RUNS runs after 3 warm-ups:

$(cat "$work/times.md")

Peak resident memory on the 10,000-tool benchmark capture ($size bytes), the largest of three runs: \`measure --json\` $plain KiB, with \`--profile --drop-unused-defs --hoist-repeated\` $full KiB.

Machine: ${cpu:-unknown CPU}, $(nproc) cores, load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(go version | cut -d' ' -f3-).
Reproduce: \`bench/finders.sh\`.
OUT
