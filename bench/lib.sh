# Shared set-up of the bench scripts, sourced after `cd` to the repository
# root: say and die (messages on stderr, prefixed with the script's name;
# die exits 2), load0 (the load average at the start), work (a temporary
# directory removed on exit), alternate (bench/alternate, built in work,
# which times commands taking turns) and measure (MEASURE made absolute, or a
# build of ./cmd/measure in work, built as action.yml installs it: static,
# CGO_ENABLED=0 and -trimpath; CGO_ENABLED=1 in the environment builds it
# as a plain `go install` does on a machine with a C compiler).

me=$(basename "$0")
say() { echo "$me: $*" >&2; }
die() { say "$*"; exit 2; }

load0=$(cut -d' ' -f1-3 /proc/loadavg)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "${MEASURE:-}" ]; then
  measure=$MEASURE
  case $measure in /*) ;; *) measure=$PWD/$measure ;; esac
else
  cgo=${CGO_ENABLED:-0}
  say "building ./cmd/measure (CGO_ENABLED=$cgo)"
  CGO_ENABLED=$cgo go build -trimpath -o "$work/measure" ./cmd/measure || die "go build ./cmd/measure failed"
  measure=$work/measure
fi

go build -o "$work/alternate" ./bench/alternate || die "go build ./bench/alternate failed"
alternate=$work/alternate
