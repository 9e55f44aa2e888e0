#!/usr/bin/env bash
# Instructions per byte of each adversarial shape (examples/adversarial.rs)
# at two sizes, with parse errors off and on: callgrind counts only the
# tokenizing function (`tokenize_all`). The cost per byte must not grow
# with the input (the ratio stays near 1) and must stay bounded (issue 13:
# at most 150 instructions per byte).
#
#   tools/linearity.sh                 # every shape, 1 MB and 16 MB
#   SIZES="1 4" tools/linearity.sh     # other sizes (megabytes)
#   tools/linearity.sh deep-svg nul-cr # some shapes
#   EXACT=1 tools/linearity.sh         # with Options::exact_switching
#   MAIN_CONTENT=1 tools/linearity.sh tiny-blocks nested-divs huge-block deep-lists class-words
#                                      # main content's cost (extract_main_content)
#
# (The example is built where cargo builds: $CARGO_TARGET_DIR if set.)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --example adversarial -q
bin=${CARGO_TARGET_DIR:-target}/release/examples/adversarial
read -r small large <<<"${SIZES:-1 16}"
if [ $# -gt 0 ]; then
  shapes="$*"
else
  shapes=$("$bin" 2>&1 | sed -n 's/^shapes: //p' | tr -d , || true)
fi
counted=tokenize_all
if [ -n "${MAIN_CONTENT:-}" ]; then counted=extract_main_content; fi
# instr/byte of shape $1 at $2 MB, errors on when $3 is "errors"
ipb() {
  local out bytes instr
  out=$(valgrind --tool=callgrind --toggle-collect="$counted" \
    --callgrind-out-file=/dev/null "$bin" "$1" "$2" ${3:-} ${EXACT:+exact} ${MAIN_CONTENT:+main-content} 2>&1)
  bytes=$(echo "$out" | awk -v s="$1" '$1==s {print $2}')
  instr=$(echo "$out" | grep Collected | awk '{print $4}' | tr -d ,)
  echo "$instr $bytes" | awk '{printf "%.2f", $1/$2}'
}
ratio() { echo "$1 $2" | awk '{printf "%.3f", $2/$1}'; }
printf '| shape | %s MB | %s MB | ratio | %s MB, errors on | %s MB, errors on | ratio |\n' "$small" "$large" "$small" "$large"
printf '|---|--:|--:|--:|--:|--:|--:|\n'
for s in $shapes; do
  a=$(ipb "$s" "$small"); b=$(ipb "$s" "$large")
  c=$(ipb "$s" "$small" errors); d=$(ipb "$s" "$large" errors)
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$s" "$a" "$b" "$(ratio "$a" "$b")" "$c" "$d" "$(ratio "$c" "$d")"
done
