#!/usr/bin/env bash
# Whole-process start-up of measure against `true` and a Go hello-world,
# taking turns run by run (bench/alternate): `true` (what starting any
# process costs here), a Go program that prints a line (built as measure
# is: what starting any Go program costs here), `measure --version` (the
# runtime and package initialisation, nothing read), `measure --json` on a
# capture of one tool (start-up, one small read and the report) and
# `measure --json --lean` on a generated 110-tool capture of about 120 KB,
# whose median it also gives over the hello-world's. Then the package initialisation of `measure
# --json` as GODEBUG=inittrace=1 reports it: the sum of every package's
# init clock (the median of INITRUNS runs), that of the packages outside
# the standard library, and what they allocate; and the binary's size.
#
#   bench/startup.sh
#   RUNS=50 bench/startup.sh
#
# Environment:
#   RUNS      timed runs per command (default 21), after 3 warm-ups
#   INITRUNS  runs of GODEBUG=inittrace=1 (default 21)
#   MEASURE   a measure binary to use instead of building ./cmd/measure
#
# Needs: go.
# Exit codes: 0 table printed, 2 a tool or a step failed.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

RUNS=${RUNS:-21}
INITRUNS=${INITRUNS:-21}

. bench/lib.sh

go run ./bench/gencapture --tools 1 -o "$work/tools-1.json" >&2 || die "gencapture failed"
go run ./bench/gencapture --tools 110 -o "$work/tools-110.json" >&2 || die "gencapture failed"
truebin=$(command -v true)
mkdir "$work/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$work/hello/main.go"
printf 'module hello\n\ngo 1.25\n' >"$work/hello/go.mod"
(cd "$work/hello" && CGO_ENABLED=${CGO_ENABLED:-0} go build -trimpath -o ../hello-go .) || die "go build of the hello-world failed"

say "timing, $RUNS runs each, taking turns"
(cd "$work" && ./alternate --runs "$RUNS" --warmup 3 --markdown -- "$truebin" ::: ./hello-go ::: "$measure" --version ::: "$measure" --json tools-1.json ::: "$measure" --json --lean tools-110.json) >"$work/times.md" ||
  die "timing failed"
sed -i "s|$work/||g" "$work/times.md"
# the medians of the hello-world and of the 120 KB capture, from their rows
ms() { grep -F "| \`$1" "$work/times.md" | head -1 | awk -F'|' '{ gsub(/[^0-9.]/, "", $3); print $3 }'; }
ratio=$(awk -v a="$(ms "measure --json --lean tools-110.json")" -v b="$(ms ./hello-go)" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')

say "GODEBUG=inittrace=1, $INITRUNS runs"
for ((i = 0; i < INITRUNS; i++)); do
  GODEBUG=inittrace=1 "$measure" --json "$work/tools-1.json" 2>&1 >/dev/null |
    awk '/^init / { split($2, p, "/"); own = (p[1] ~ /\./ || $2 == "main"); all += $5; if (own) { mine += $5; bytes += $8 } }
      END { printf "%.3f %.3f %d\n", all, mine, bytes }'
done >"$work/inits"
# the median of each column
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
all=$(cut -d' ' -f1 "$work/inits" | median)
mine=$(cut -d' ' -f2 "$work/inits" | median)
bytes=$(cut -d' ' -f3 "$work/inits" | median)

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || true)
cat <<EOF
Start-up, taking turns run by run: wall time from start to exit, median of $RUNS runs after 3 warm-ups, and peak resident memory (the kernel's maximum resident set size, which for a process this small is at least the timer's own, about 5 MiB).

$(cat "$work/times.md")

\`measure --json --lean\` on the 120 KB capture over the Go hello-world (medians): ${ratio}×.

Package initialisation of \`measure --json\` (GODEBUG=inittrace=1, median of $INITRUNS runs): $all ms for every package, $mine ms for those outside the standard library, which allocate $bytes bytes. \`measure\` is $(wc -c <"$measure" | tr -d ' ') bytes.

Machine: ${cpu:-unknown CPU}, $(nproc) cores, load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(go version | cut -d' ' -f3-).
Reproduce: \`bench/startup.sh\` (or \`make bench\`).
EOF
