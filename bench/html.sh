#!/usr/bin/env bash
# The size of measure's --html page of a generated 1,000-tool capture,
# and how long headless Chromium takes to draw it (from the start of the
# navigation to the end of the page's script: the HTML parsed, the data
# read, the treemap, the table and the findings made and laid out once),
# loaded RUNS times in one browser (bench/htmlpage). The aims: under 2 MB,
# under 2 s.
#
#   bench/html.sh
#   RUNS=20 TOOLS=1000 bench/html.sh
#
# Environment:
#   RUNS     page loads (default 11)
#   TOOLS    tools in the generated capture (default 1000)
#   MEASURE  a measure binary to use instead of building ./cmd/measure
#   CHROMIUM a Chromium binary (default: chromium-headless-shell on PATH)
#
# Needs: go, Debian's chromium-headless-shell (or $CHROMIUM).
# Exit codes: 0 table printed, 2 a tool or a step failed.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

RUNS=${RUNS:-11}
TOOLS=${TOOLS:-1000}

. bench/lib.sh

cap=tools-$TOOLS.json
go run ./bench/gencapture --tools "$TOOLS" -o "$work/$cap" >&2 || die "gencapture failed"
go build -o "$work/htmlpage" ./bench/htmlpage || die "go build ./bench/htmlpage failed"

for args in "" "--tokenizer o200k,cl100k --lean"; do
  # shellcheck disable=SC2086 # the flags are words
  (cd "$work" && "$measure" $args --html page.html "$cap" >/dev/null) || die "measure $args --html failed"
  line=$("$work/htmlpage" -runs "$RUNS" "$work/page.html") || die "htmlpage failed"
  echo "| \`measure ${args:+$args }--html page.html $cap\` | ${line#*: } |"
done | {
  cat <<TABLE
measure's --html page of a generated $TOOLS-tool capture ($(wc -c <"$work/$cap" | tr -d ' ') bytes), drawn in $(basename "$(command -v "${CHROMIUM:-chromium-headless-shell}" || echo chromium)") $("${CHROMIUM:-chromium-headless-shell}" --version 2>/dev/null | head -1 || true); the page's "drawn" mark, median of $RUNS loads in one browser (the first included).

| command | page size, time to draw |
|---|---|
TABLE
  cat
}
say "load average: $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
