#!/usr/bin/env bash
# Whole-process figure of a syntax error met early in a huge capture:
# `measure CAPTURE` on a 2 GiB capture broken at byte 11 (a sparse file,
# which takes no disk: the bytes `{"tools": [!` then zeros), on a 2 GiB
# event stream broken the same way (`data: {"tools": [!`, at byte 17), and
# on a 4 KiB capture broken as the first (what any run costs: the process,
# its start). Wall time (mean ± standard deviation), CPU time
# (user + system, from GNU time: hundredths of a second) and peak resident
# memory (the largest run, GNU time's), over RUNS runs after 3 warm-ups. Each run must exit 2 with the
# one-line error.
#
#   bench/earlyerror.sh
#   RUNS=50 bench/earlyerror.sh
#
# Environment:
#   RUNS     timed runs per capture (default 20)
#   MEASURE  a measure binary to use instead of building ./cmd/measure
#
# Needs: go, GNU time at /usr/bin/time (apt-get install time), a file
# system with sparse files (ext4, xfs, tmpfs: any usual one).
# Exit codes: 0 table printed, 1 measure did not fail as it should, 2 a
# tool or a step failed.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

RUNS=${RUNS:-20}

. bench/lib.sh

[ -x /usr/bin/time ] || die "/usr/bin/time not found: apt-get install time"

# broken FILE SIZE [PREFIX]: a capture of SIZE bytes, PREFIX then
# `{"tools": [!` then zeros.
broken() {
  truncate -s "$2" "$1"
  printf '%s{"tools": [!' "${3:-}" | dd of="$1" conv=notrunc status=none
}
broken "$work/huge.json" 2147483648
broken "$work/huge.sse" 2147483648 'data: '
broken "$work/small.json" 4096
[ "$(du -k "$work/huge.json" | cut -f1)" -lt 1024 ] || say "warning: huge.json takes disk: the file system has no sparse files"

# runs CAPTURE WHERE: one line per run, "wall-ns user-s system-s maxrss-KiB",
# after 3 warm-ups; each run must exit 2 with the expected line. The wall
# time is taken around GNU time (whose own is in hundredths of a second).
runs() {
  local cap=$1 where=$2 i out t0 t1
  for ((i = 0; i < RUNS + 3; i++)); do
    t0=$(date +%s%N)
    out=$( { /usr/bin/time -f 'TIME %U %S %M' "$measure" "$cap" >/dev/null; } 2>&1 ) && die "measure $cap exited 0"
    t1=$(date +%s%N)
    grep -qF "measure: $cap: line 1, column $where: unexpected character '!'" <<<"$out" || { say "measure $cap: $out"; exit 1; }
    ((i < 3)) || echo "$((t1 - t0)) $(grep '^TIME ' <<<"$out" | cut -d' ' -f2-)"
  done
}

# row NAME BYTES: the table row of the runs on stdin.
row() {
  awk -v name="$1" -v bytes="$2" '
    { n++; w[n] = $1 / 1e6; cpu += ($2 + $3) * 1000; s += w[n]; if ($4 > rss) rss = $4 }
    END {
      m = s / n; for (i = 1; i <= n; i++) v += (w[i] - m) ^ 2
      sd = n > 1 ? sqrt(v / (n - 1)) : 0
      printf "| %s | %s | %.1f ms ± %.1f | %.1f ms | %.1f MiB |\n", name, bytes, m, sd, cpu / n, rss / 1024
    }'
}

say "timing the 2 GiB capture"
huge=$(runs "$work/huge.json" 12 | row huge.json 2,147,483,648)
say "timing the 2 GiB event stream"
sse=$(runs "$work/huge.sse" "18: event 1's data" | row huge.sse 2,147,483,648)
say "timing the 4 KiB capture"
small=$(runs "$work/small.json" 12 | row small.json 4,096)

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || true)
cat <<OUT
Whole process, \`measure CAPTURE\` on a capture broken early (\`{"tools": [!\` then zeros, a sparse file; the event stream's one data line the same): wall time (mean ± standard deviation), CPU time (user + system, mean) and peak resident memory (the largest run), $RUNS runs after 3 warm-ups; each exits 2 with \`measure: CAPTURE: line 1, column 12: unexpected character '!'\` (the event stream's: column 18, in event 1's data).

| capture | bytes | wall time | CPU time | peak RSS |
|---|---:|---:|---:|---:|
$huge
$sse
$small

Machine: ${cpu:-unknown CPU}, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(go version | cut -d' ' -f3-).
Reproduce: \`bench/earlyerror.sh\`.
OUT
