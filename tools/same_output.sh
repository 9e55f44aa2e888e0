#!/usr/bin/env bash
# Whether two builds of the `htmltok` command line give byte-identical
# output: `text`, `links`, `meta`, `tokens` and `errors` (each in its
# formats and with the options that change what is computed) over the
# corpus pages, the WARC fixtures and their pages, and the embedded
# sample. A change meant to keep behaviour (a refactoring) is checked with
#
#   git stash; cargo build --release -p htmltok-cli; cp target/release/htmltok /tmp/before
#   git stash pop; cargo build --release -p htmltok-cli
#   tools/same_output.sh /tmp/before target/release/htmltok
#
# It prints one line per command and input set with the SHA-256 of both
# outputs, then `N same, N different`, and exits 1 when any differ
# (stderr is compared too: damaged archives report there).
set -uo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 2 ]; then
    echo "usage: tools/same_output.sh BEFORE_BIN AFTER_BIN" >&2
    exit 2
fi
before=$1
after=$2
corpus=${HTMLTOK_CORPUS_DIR:-../shared/corpus}
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }

inputs=("$corpus" tests/warc tests/warc/pages cli/src/sample.html)
runs=(
    "text"
    "text --offsets"
    "text --chunk-size 7"
    "text --alt-text --show-hidden"
    "links"
    "links --base-url https://example.com/a/b.html"
    "meta"
    "tokens"
    "tokens --errors"
    "tokens --exact-switching"
    "tokens --chunk-size 7"
    "tokens --format html5lib --errors"
    "errors"
    "errors --format json"
)

same=0
different=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for run in "${runs[@]}"; do
    for input in "${inputs[@]}"; do
        # shellcheck disable=SC2086 # the run's words are its arguments
        "$before" $run --jobs 1 "$input" >"$tmp/b.out" 2>"$tmp/b.err"
        echo "exit $?" >>"$tmp/b.err"
        # shellcheck disable=SC2086
        "$after" $run --jobs 1 "$input" >"$tmp/a.out" 2>"$tmp/a.err"
        echo "exit $?" >>"$tmp/a.err"
        b=$(cat "$tmp/b.out" "$tmp/b.err" | sha256sum | cut -c1-16)
        a=$(cat "$tmp/a.out" "$tmp/a.err" | sha256sum | cut -c1-16)
        if [ "$a" = "$b" ]; then
            same=$((same + 1))
            status=same
        else
            different=$((different + 1))
            status=DIFFERENT
        fi
        printf '%-9s %s %s  htmltok %s %s (%s bytes)\n' "$status" "$b" "$a" "$run" "$input" "$(wc -c <"$tmp/a.out")"
    done
done
echo "$same same, $different different"
[ "$different" -eq 0 ]
