#!/usr/bin/env bash
# Whole-process comparison of `measure --json CAPTURE` with Node's reference
# script internal/nodeoracle/measure.js on the same capture, and of the same
# with the lean what-if (`--lean`, which Node's script computes too): wall time
# (hyperfine when installed, else repeated runs timed here) and peak memory
# (GNU time's maximum resident set size), on a small real-sized capture
# (about 40 KB; the twin's capture too when present) and a generated
# 10,000-tool capture (about 10 MB).
#
# It prints a markdown table on stdout (progress goes to stderr). Before
# timing, it checks that both programs report the same figures, so the
# table never compares a wrong answer.
#
#   bench/compare.sh
#   SMALL=captures/x.json RUNS=30 bench/compare.sh
#
# Environment:
#   SMALL    the small capture (default: the twin's captures/twin/tools-mcp.json
#            when it exists, and a generated 14-tool capture of about 40 KB)
#   TOOLS    tools in the generated large capture (default 10000)
#   RUNS     timed runs per command (default 20; hyperfine: at least)
#   MEASURE  a measure binary to use instead of building ./cmd/measure
#   NODE     the node binary (default node)
#   TIMER    "loop" to time repeated runs here even when hyperfine is installed
#   MODES    the flag sets compared, "|"-separated (default "|--lean": plain
#            --json, then --json --lean)
#
# Needs: go, node, GNU time at /usr/bin/time (apt-get install time);
# hyperfine is used when installed (apt-get install hyperfine).
# Exit codes: 0 table printed, 1 the two programs disagree, 2 a tool or a
# step failed.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

NODE=${NODE:-node}
RUNS=${RUNS:-20}
TOOLS=${TOOLS:-10000}
script=internal/nodeoracle/measure.js

say() { echo "compare.sh: $*" >&2; }
die() { say "$*"; exit 2; }

command -v "$NODE" >/dev/null || die "node not found: install Node 20 or set NODE"
[ -x /usr/bin/time ] || die "/usr/bin/time not found: apt-get install time"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "${MEASURE:-}" ]; then
  measure=$MEASURE
else
  say "building ./cmd/measure"
  go build -o "$work/measure" ./cmd/measure || die "go build ./cmd/measure failed"
  measure=$work/measure
fi

caps=()
if [ -n "${SMALL:-}" ]; then
  [ -f "$SMALL" ] || die "$SMALL: no such capture"
  caps+=("$SMALL")
else
  [ -f captures/twin/tools-mcp.json ] && caps+=(captures/twin/tools-mcp.json)
  go run ./bench/gencapture --tools 14 --words 280 -o "$work/tools-14.json" >&2 || die "gencapture failed"
  caps+=("$work/tools-14.json")
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

# seconds CAPTURE: mean, stddev and runs for measure then node, in seconds,
# one line per command.
seconds() {
  local cap=$1
  if [ "${TIMER:-}" != loop ] && command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 3 --min-runs "$RUNS" --export-json "$work/h.json" \
      "$measure --json $FLAGS $cap" "$NODE $script $FLAGS $cap" >/dev/null 2>&1 || die "hyperfine failed"
    "$NODE" -e '
      const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).results;
      for (const x of r) console.log(x.mean, x.stddev ?? 0, x.times.length);' "$work/h.json"
    return
  fi
  local cmd i
  for cmd in "$measure --json $FLAGS $cap" "$NODE $script $FLAGS $cap"; do
    for i in 1 2 3; do $cmd >/dev/null; done # warm-ups
    local ts=() t0 t1
    for ((i = 0; i < RUNS; i++)); do
      t0=$(date +%s%N)
      $cmd >/dev/null
      t1=$(date +%s%N)
      ts+=($((t1 - t0)))
    done
    "$NODE" -e '
      const t = process.argv.slice(1).map((n) => Number(n) / 1e9);
      const m = t.reduce((a, b) => a + b, 0) / t.length;
      const sd = Math.sqrt(t.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, t.length - 1));
      console.log(m, sd, t.length);' "${ts[@]}"
  done
}

# peak CMD...: the largest maximum resident set size of three runs, in KiB.
peak() {
  local best=0 kb i
  for i in 1 2 3; do
    kb=$(/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1)
    [[ $kb =~ ^[0-9]+$ ]] || die "/usr/bin/time $*: $kb"
    ((kb > best)) && best=$kb
  done
  echo "$best"
}

rows=()
IFS='|' read -r -a modes <<<"${MODES-|--lean}"
for FLAGS in "${modes[@]}"; do
for cap in "${caps[@]}"; do
  say "checking $cap $FLAGS"
  agree "$cap"
  say "timing $cap $FLAGS"
  times=$(seconds "$cap")
  say "peak memory $cap $FLAGS"
  gomem=$(peak "$measure" --json $FLAGS "$cap")
  nodemem=$(peak "$NODE" "$script" $FLAGS "$cap")
  rows+=("$("$NODE" -e '
    const [cap, flags, size, tools, times, gomem, nodemem] = process.argv.slice(1);
    const [g, n] = times.trim().split("\n").map((l) => l.split(" ").map(Number));
    const ms = (x) => (x[0] * 1000).toFixed(1) + " ms ± " + (x[1] * 1000).toFixed(1);
    const mib = (kb) => (Number(kb) / 1024).toFixed(1) + " MiB";
    const group = (x) => Number(x).toLocaleString("en-US");
    console.log("| " + cap + " | " + (flags ? "`" + flags + "`" : "") + " | " + group(size) + " | " + group(tools) + " | " + ms(g) + " | " + ms(n) +
      " | " + (n[0] / g[0]).toFixed(1) + "× | " + mib(gomem) + " | " + mib(nodemem) +
      " | " + (Number(gomem) * 1024 / Number(size)).toFixed(2) + "× |");
  ' "$(basename "$cap")" "$FLAGS" "$(wc -c <"$cap")" "$("$NODE" -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).tools)' "$work/node.json")" "$times" "$gomem" "$nodemem")")
done
done

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || true)
timer="repeated runs timed by compare.sh"
if [ "${TIMER:-}" != loop ] && command -v hyperfine >/dev/null; then timer=$(hyperfine --version); fi
cat <<EOF
Whole process, \`measure --json [FLAGS] CAPTURE\` against \`node $script [FLAGS] CAPTURE\`: wall time (mean ± standard deviation), peak resident memory (the largest of three runs).

| capture | flags | bytes | tools | \`measure --json\` | \`node measure.js\` | Node / measure | measure peak RSS | Node peak RSS | measure RSS / capture |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|
$(printf '%s\n' "${rows[@]}")

Machine: ${cpu:-unknown CPU}, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(go version | cut -d' ' -f3-); Node $("$NODE" --version); timing: $timer, at least $RUNS runs after 3 warm-ups.
Reproduce: \`bench/compare.sh\` (or \`make bench\`).
EOF
