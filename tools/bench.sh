#!/usr/bin/env bash
# Runs both benchmarks and regenerates benches/chart.svg and the generated
# section of BENCHMARKS.md (the tables; also printed and saved to
# target/bench-tables.md).
#
#   tools/bench.sh                 # everything: throughput (~8 min), instructions (~1.5 min)
#   tools/bench.sh --no-iai        # skip the callgrind benchmark
#   tools/bench.sh -- es6          # extra arguments after -- go to the throughput bench
#
# Needs valgrind and `cargo install iai-callgrind-runner --version 0.16.1`
# (the version of benches/Cargo.toml's iai-callgrind) for the instructions
# benchmark; without them it is skipped with a note. Honours
# HTMLTOK_CORPUS_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

iai=1
crit_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --no-iai) iai=0 ;;
        --) shift; crit_args=("$@"); break ;;
        *) echo "usage: tools/bench.sh [--no-iai] [-- CRITERION_ARGS...]" >&2; exit 2 ;;
    esac
    shift
done

# The runner must be the version of the iai-callgrind library in Cargo.lock.
want_runner=$(awk '/^name = "iai-callgrind"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock 2>/dev/null || true)
if [ "$iai" = 1 ]; then
    have_runner=$(cargo install --list 2>/dev/null | sed -n 's/^iai-callgrind-runner v\([0-9.]*\):$/\1/p')
    if ! command -v valgrind >/dev/null; then
        echo "note: valgrind not found; skipping the instructions benchmark" >&2
        iai=0
    elif [ -z "$have_runner" ]; then
        echo "note: iai-callgrind-runner not installed; skipping the instructions benchmark" >&2
        echo "      (cargo install iai-callgrind-runner --version ${want_runner:-0.16.1})" >&2
        iai=0
    elif [ -n "$want_runner" ] && [ "$have_runner" != "$want_runner" ]; then
        echo "note: iai-callgrind-runner is $have_runner, the library is $want_runner; skipping" >&2
        echo "      (cargo install iai-callgrind-runner --version $want_runner --force)" >&2
        iai=0
    fi
fi

# The commit measured, taken before building (bench_chart.py reports it).
HTMLTOK_BENCH_COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo '?')"
git diff --quiet HEAD -- src 2>/dev/null || HTMLTOK_BENCH_COMMIT+="+"
export HTMLTOK_BENCH_COMMIT
echo "== htmltok $HTMLTOK_BENCH_COMMIT, $(date -u +%Y-%m-%dT%H:%MZ)" >&2
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
export HTMLTOK_BENCH_LOAD="$load"
if awk -v l="$load" 'BEGIN { exit !(l > 0.5) }'; then
    echo "warning: load average is $load; wall-clock numbers will be noisy (stop other work first)" >&2
fi

SECONDS=0
cargo bench --bench throughput -- "${crit_args[@]}"
echo "== throughput: ${SECONDS}s" >&2
if [ "$iai" = 1 ]; then
    SECONDS=0
    cargo bench --bench instructions -- --save-summary=json
    echo "== instructions: ${SECONDS}s" >&2
fi

# (Without a new instructions run, the last one in target/iai is reported, with its date.)
python3 tools/bench_chart.py --update BENCHMARKS.md | tee target/bench-tables.md
echo "== BENCHMARKS.md and benches/chart.svg regenerated (tables also in target/bench-tables.md)" >&2
