#!/usr/bin/env bash
# Whole-process comparison of `measure --json CAPTURE` with Node's reference
# script internal/nodeoracle/measure.js on the same capture, and of the same
# with the lean what-if (`--lean`, which Node's script computes too): wall
# time and peak memory, the two programs taking turns run by run
# (bench/alternate: each round runs measure, then Node), so that the load
# of a shared machine weighs on both alike. On the twin's capture (about
# 30 KB, when present), a generated 110-tool capture (about 120 KB) and a
# generated 10,000-tool capture (about 10 MB).
#
# It prints a markdown table on stdout (progress goes to stderr): medians
# of RUNS runs each, the mean and standard deviation beside, the ratio of
# the medians, and the largest peak resident memory of the runs (the
# kernel's maximum resident set size). Before timing, it checks that both
# programs report the same figures, so the table never compares a wrong
# answer.
#
#   bench/compare.sh
#   SMALL=captures/x.json RUNS=30 bench/compare.sh
#
# Environment:
#   SMALL    the small captures, space-separated (default: the twin's
#            captures/twin/tools-mcp.json when it exists, and a generated
#            110-tool capture of about 120 KB)
#   TOOLS    tools in the generated large capture (default 10000)
#   RUNS     timed runs per command (default 15), after 3 warm-ups
#   MEASURE  a measure binary to use instead of building ./cmd/measure
#   NODE     the node binary (default node)
#   MODES    the flag sets compared, "|"-separated (default "|--lean": plain
#            --json, then --json --lean)
#
# Needs: go, node.
# Exit codes: 0 table printed, 1 the two programs disagree, 2 a tool or a
# step failed.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

NODE=${NODE:-node}
RUNS=${RUNS:-15}
TOOLS=${TOOLS:-10000}
script=internal/nodeoracle/measure.js

. bench/lib.sh

command -v "$NODE" >/dev/null || die "node not found: install Node 20 or set NODE"


caps=()
if [ -n "${SMALL:-}" ]; then
  for c in $SMALL; do
    [ -f "$c" ] || die "$c: no such capture"
    caps+=("$c")
  done
else
  [ -f captures/twin/tools-mcp.json ] && caps+=(captures/twin/tools-mcp.json)
  go run ./bench/gencapture --tools 110 -o "$work/tools-110.json" >&2 || die "gencapture failed"
  caps+=("$work/tools-110.json")
fi
go run ./bench/gencapture --tools "$TOOLS" -o "$work/tools-$TOOLS.json" >&2 || die "gencapture failed"
caps+=("$work/tools-$TOOLS.json")

# FLAGS: the what-if flags of the mode being compared (both programs take
# them).
FLAGS=""

# agree CAPTURE: the two programs must report the same figures.
agree() {
  "$measure" --json $FLAGS "$1" >"$work/go.json" || die "measure --json $FLAGS $1 failed"
  "$NODE" "$script" $FLAGS "$1" >"$work/node.json" || die "node $script $FLAGS $1 failed"
  "$NODE" -e '
    const fs = require("fs");
    const go = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const node = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
    const bad = Object.keys(node).filter((k) => JSON.stringify(go[k]) !== JSON.stringify(node[k]));
    if (bad.length > 0) {
      console.error("compare.sh: " + process.argv[3] + ": measure and Node disagree on " + bad.join(", "));
      process.exit(1);
    }' "$work/go.json" "$work/node.json" "$1" || exit 1
}

# timed CAPTURE: bench/alternate's line for measure, then Node's (median,
# mean, sd, min, max in ns, runs, peak RSS median and most in KiB).
timed() {
  "$alternate" --runs "$RUNS" --warmup 3 -- "$measure" --json $FLAGS "$1" ::: "$NODE" "$script" $FLAGS "$1" || die "timing $1 failed"
}

rows=()
IFS='|' read -r -a modes <<<"${MODES-|--lean}"
for FLAGS in "${modes[@]}"; do
for cap in "${caps[@]}"; do
  say "checking $cap $FLAGS"
  agree "$cap"
  say "timing $cap $FLAGS, $RUNS runs each, taking turns with Node"
  times=$(timed "$cap")
  rows+=("$("$NODE" -e '
    const [cap, flags, size, tools, times] = process.argv.slice(1);
    const [g, n] = times.trim().split("\n").map((l) => l.split(" ").map(Number));
    const ms = (x) => (x / 1e6).toFixed(1) + " ms";
    const sd = (x) => (x[1] / 1e6).toFixed(1) + " ± " + (x[2] / 1e6).toFixed(1);
    const mib = (kb) => (Number(kb) / 1024).toFixed(1) + " MiB";
    const group = (x) => Number(x).toLocaleString("en-US");
    console.log("| " + cap + " | " + (flags ? "`" + flags + "`" : "") + " | " + group(size) + " | " + group(tools) + " | " + ms(g[0]) + " (" + sd(g) + ") | " + ms(n[0]) + " (" + sd(n) + ")" +
      " | " + (n[0] / g[0]).toFixed(1) + "× | " + mib(g[7]) + " | " + mib(n[7]) +
      " | " + (Number(g[7]) * 1024 / Number(size)).toFixed(2) + "× |");
  ' "$(basename "$cap")" "$FLAGS" "$(wc -c <"$cap")" "$("$NODE" -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).tools)' "$work/node.json")" "$times")")
done
done

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || true)
cat <<EOF
Whole process, \`measure --json [FLAGS] CAPTURE\` against \`node $script [FLAGS] CAPTURE\`, taking turns run by run: wall time, median of $RUNS runs after 3 warm-ups (mean ± standard deviation), and peak resident memory (the largest of the runs).

| capture | flags | bytes | tools | \`measure --json\` | \`node measure.js\` | Node / measure (medians) | measure peak RSS | Node peak RSS | measure RSS / capture |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|
$(printf '%s\n' "${rows[@]}")

Machine: ${cpu:-unknown CPU}, $(nproc) cores, load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(go version | cut -d' ' -f3-); Node $("$NODE" --version); \`measure\` $(wc -c <"$measure" | tr -d ' ') bytes.
Reproduce: \`bench/compare.sh\` (or \`make bench\`).
EOF
