#!/usr/bin/env bash
# Coverage-guided fuzzing of one target with cargo fuzz (libFuzzer), on
# stable Rust (no sanitizer: katachi has no unsafe code, and `-a` keeps
# debug assertions and overflow checks on).
#
#   tests/fuzz/run.sh TARGET [RUNS [SECONDS]] [-- LIBFUZZER-FLAGS...]
#
# TARGET is database, constraint, positions, sgf or gtp. The run stops
# after RUNS executions (default 10,000,000) or SECONDS (default 3600),
# whichever comes first, or at the first crash, which libFuzzer writes
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
    cp patterns/*.db mkpat/tests/data/ok/*.db mkpat/tests/data/err/*.db "$seeds"/
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
  *) echo "unknown target $target (database, constraint, positions, sgf, gtp)" >&2; exit 2 ;;
esac
cp tests/fuzz/regressions/"$target"/* "$seeds"/ 2>/dev/null || true

exec cargo fuzz run --fuzz-dir tests/fuzz -s none -a "$target" "$corpus" "$seeds" -- \
  -runs="$runs" -max_total_time="$secs" -max_len=65536 -timeout=20 \
  -rss_limit_mb=4096 -print_final_stats=1 "$@"
