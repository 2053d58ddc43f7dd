#!/usr/bin/env bash
# What counting real tokens costs `measure`, whole process: `measure
# --json CAPTURE` against `measure --json --tokenizer o200k CAPTURE` and
# `--tokenizer cl100k`, on a generated 10,000-tool capture (about 10 MB),
# taking turns run by run (bench/alternate). It prints the medians and the
# ratio of each tokenizer's to the plain count's.
#
#   bench/tokenizer.sh
#   RUNS=30 TOOLS=1000 bench/tokenizer.sh
#
# Environment:
#   RUNS     timed runs per command (default 15), after 3 warm-ups
#   TOOLS    tools in the generated capture (default 10000)
#   MEASURE  a measure binary to use instead of building ./cmd/measure
#
# Needs: go.
# Exit codes: 0 table printed, 2 a tool or a step failed.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

RUNS=${RUNS:-15}
TOOLS=${TOOLS:-10000}

. bench/lib.sh

cap=tools-$TOOLS.json
go run ./bench/gencapture --tools "$TOOLS" -o "$work/$cap" >&2 || die "gencapture failed"

say "timing, $RUNS runs each, taking turns"
(cd "$work" && ./alternate --runs "$RUNS" --warmup 3 -- "$measure" --json "$cap" ::: "$measure" --json --tokenizer o200k "$cap" ::: "$measure" --json --tokenizer cl100k "$cap") >"$work/times" ||
  die "timing failed"

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || true)
cat <<TABLE
Whole process on $cap ($(wc -c <"$work/$cap" | tr -d ' ') bytes), taking turns run by run: wall time, median of $RUNS runs after 3 warm-ups (mean ± standard deviation), peak resident memory (the median and the largest of the runs), and the ratio of the medians to the plain count's.

| command | median (mean ± sd) | / plain count | peak RSS (median, most) |
|---|---:|---:|---:|
$(awk -v cap="$cap" 'BEGIN { split("|--tokenizer o200k |--tokenizer cl100k ", f, "|") }
  NR == 1 { base = $1 }
  { printf "| `measure --json %s%s` | %.1f ms (%.1f ± %.1f) | %.2f× | %.1f MiB, %.1f MiB |\n", f[NR], cap, $1 / 1e6, $2 / 1e6, $3 / 1e6, $1 / base, $7 / 1024, $8 / 1024 }' "$work/times")

Machine: ${cpu:-unknown CPU}, $(nproc) cores, load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(go version | cut -d' ' -f3-).
Reproduce: \`bench/tokenizer.sh\` (or \`make bench\`).
TABLE
