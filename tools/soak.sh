#!/usr/bin/env bash
# Soak (issue 13): every HTML page of the Rust documentation on this machine
# plus the corpus copied 1,000 times, through `text`, `links` and `stats`
# with --jobs 2. No input may fail; for each command it prints the wall
# time, the throughput (MB of input a second, 10^6 bytes) and the peak
# resident memory (GNU time's maximum RSS).
#
#   tools/soak.sh            # builds the inputs in a temporary folder
#   SOAK_DIR=/tmp/soak tools/soak.sh   # keeps them there for a rerun
set -euo pipefail
cd "$(dirname "$0")/.."
command -v /usr/bin/time >/dev/null || { echo "soak: needs GNU time (apt-get install time)"; exit 2; }
cargo build --release -q -p htmltok-cli
bin=$PWD/target/release/htmltok
docs="$(rustc --print sysroot)/share/doc/rust/html"
corpus="${HTMLTOK_CORPUS_DIR:-../shared/corpus}"
work="${SOAK_DIR:-$(mktemp -d)}"
mkdir -p "$work"
if [ ! -f "$work/corpus1000/999/wikipedia.html" ]; then
  # The corpus 1,000 times over: hard links where the file system allows
  # (the same bytes, 7,000 files), copies otherwise.
  for i in $(seq -w 0 999); do
    mkdir -p "$work/corpus1000/$i"
    for f in "$corpus"/*.html; do
      ln -f "$f" "$work/corpus1000/$i/" 2>/dev/null || cp "$f" "$work/corpus1000/$i/"
    done
  done
fi
files=$( (find "$docs" -name '*.html'; find "$work/corpus1000" -name '*.html') | wc -l)
bytes=$( (find "$docs" -name '*.html' -print0; find "$work/corpus1000" -name '*.html' -print0) \
  | du -cbl --files0-from=- | tail -1 | cut -f1) # -l: every hard link, as each is read
echo "inputs: $files files, $bytes bytes (Rust documentation: $docs; corpus x1000: $work/corpus1000)"
printf '| command | wall s | MB/s | peak RSS MiB | inputs failed |\n|---|--:|--:|--:|--:|\n'
for cmd in text links stats; do
  # Warm the page cache first, so that the figure is the command's.
  "$bin" stats --total --jobs 2 "$docs" "$work/corpus1000" >/dev/null 2>&1 || true
  set +e
  /usr/bin/time -f '%e %M' -o "$work/$cmd.time" \
    "$bin" "$cmd" --jobs 2 "$docs" "$work/corpus1000" >/dev/null 2>"$work/$cmd.err"
  status=$?
  set -e
  read -r wall rss < "$work/$cmd.time"
  # One line an input that failed, and the run's count line after them.
  failed=$(grep '^htmltok: ' "$work/$cmd.err" | grep -vc ' of [0-9]* inputs ' || true)
  mbs=$(awk -v b="$bytes" -v t="$wall" 'BEGIN { printf "%.0f", b / 1e6 / t }')
  printf '| `htmltok %s --jobs 2` | %s | %s | %s | %s (exit %s) |\n' \
    "$cmd" "$wall" "$mbs" "$(( rss / 1024 ))" "$failed" "$status"
done
