#!/usr/bin/env bash
# Coverage-guided fuzzing of one target with cargo fuzz (libFuzzer), on
# stable Rust (no sanitizer: katachi has no unsafe code, and `-a` keeps
# debug assertions and overflow checks on).
#
#   tests/fuzz/run.sh TARGET [RUNS [SECONDS]] [-- LIBFUZZER-FLAGS...]
#
# TARGET is database, constraint, positions, sgf, gtp, openings, five_records or gomocup. The run stops
# after RUNS executions (default 10,000,000) or SECONDS of CPU time spent
# by the fuzzing process (default 3600, one CPU-hour; CPU time, not wall
# time, so that a run sharing the machine still gets its hour), whichever
# comes first, or at the first crash, which libFuzzer writes
# under tests/fuzz/artifacts/TARGET/: copy it into
# tests/fuzz/regressions/TARGET/ so that `cargo test --test fuzz_corpora`
# keeps it a test. The growing corpus is tests/fuzz/corpus/TARGET/ (not
# committed); the seeds are rebuilt each run from the project's test data
# and, when present, ../shared's GNU Go 2.6 database and positions.
set -euo pipefail
cd "$(dirname "$0")/../.."

target=${1:?usage: tests/fuzz/run.sh TARGET [RUNS [SECONDS]] [-- FLAGS]}
shift
runs=10000000
secs=3600
if [ $# -gt 0 ] && [ "$1" != "--" ]; then runs=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" != "--" ]; then secs=$1; shift; fi
[ "${1:-}" = "--" ] && shift

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

seeds=tests/fuzz/target/seeds/$target
corpus=tests/fuzz/corpus/$target
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus"
gnugo=../shared/conformance/gnugo-2.6
# Splits FILE before each line starting with MARKER, PER pieces an output.
split_into() { # FILE MARKER PER PREFIX
  awk -v m="$2" -v per="$3" -v out="$4" '
    index($0, m) == 1 { n++ }
    { f = sprintf("%s-%04d", out, int(n / per)); print > f }
  ' "$1"
}
case $target in
  database)
    # Named by their paths: two folders may hold a file of one name.
    for f in patterns/*.db mkpat/tests/data/ok/*.db mkpat/tests/data/err/*.db; do
      cp "$f" "$seeds/${f//\//_}"
    done
    [ -f $gnugo/patterns.db ] && split_into $gnugo/patterns.db "Pattern " 5 "$seeds/gnugo26"
    ;;
  constraint)
    cp tests/fuzz/seeds/constraint/* "$seeds"/
    if [ -f $gnugo/patterns.db ]; then
      grep '^;' $gnugo/patterns.db | cut -c2- | awk -v d="$seeds" '{ f = sprintf("%s/gnugo26-%03d", d, NR); printf "%s", $0 > f }'
    fi
    ;;
  positions)
    cp tests/data/positions/* "$seeds"/
    [ -f $gnugo/positions_real.txt ] && split_into $gnugo/positions_real.txt "to_move" 2 "$seeds/real"
    ;;
  sgf) cp tests/data/sgf/*.sgf "$seeds"/ ;;
  gtp) cp tests/fuzz/seeds/gtp/* "$seeds"/ ;;
  openings) cp tests/fuzz/seeds/openings/* "$seeds"/ ;;
  five_records) cp tests/fuzz/seeds/five_records/* "$seeds"/ ;;
  gomocup) cp tests/fuzz/seeds/gomocup/* "$seeds"/ ;;
  contest) cp tests/fuzz/seeds/contest/* "$seeds"/ ;;
  *) echo "unknown target $target (database, constraint, positions, sgf, gtp, openings, five_records, gomocup, contest)" >&2; exit 2 ;;
esac
cp tests/fuzz/regressions/"$target"/* "$seeds"/ 2>/dev/null || true

cargo fuzz build --fuzz-dir tests/fuzz -s none -a "$target"
bin=$(find tests/fuzz/target -path "*/release/$target" -type f -perm -u+x | head -n1)
[ -x "$bin" ] || { echo "no fuzz binary for $target under tests/fuzz/target" >&2; exit 1; }

mkdir -p "tests/fuzz/artifacts/$target"
# libFuzzer's own -max_total_time counts wall time; the CPU budget is kept
# here instead: the run is interrupted (SIGINT, after which libFuzzer
# prints its final stats) once it has used SECONDS of CPU.
"$bin" -runs="$runs" -max_total_time=$((secs * 20)) -max_len=65536 -timeout=20 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="tests/fuzz/artifacts/$target/" \
  "$@" "$corpus" "$seeds" &
pid=$!
trap 'kill -INT $pid 2>/dev/null' INT TERM
tick=$(getconf CLK_TCK)
while kill -0 $pid 2>/dev/null; do
  # Fields 14 and 15 of /proc/PID/stat: user and system time, in ticks.
  cpu=$(awk -v t="$tick" '{ print int(($14 + $15) / t) }' /proc/$pid/stat 2>/dev/null || echo 0)
  if [ "$cpu" -ge "$secs" ]; then
    echo "run.sh: $cpu s of CPU used, stopping $target" >&2
    kill -INT $pid 2>/dev/null || true
    break
  fi
  sleep 5
done
status=0
wait $pid || status=$?
# libFuzzer exits 72 when interrupted: the budget was spent, not a failure.
[ $status -eq 72 ] && status=0
exit $status
