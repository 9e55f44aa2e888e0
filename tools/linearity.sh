#!/usr/bin/env bash
# Instructions per byte of each adversarial shape at 1 MB and 16 MB
# (callgrind counts only `tokenize_all`), and their ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --example adversarial -q
bin=target/release/examples/adversarial
shapes="huge-attribute many-attributes open-comment amp-storm amp-no-semicolon end-tag-open-runs deep-nesting deep-svg script-games nul-cr"
printf '| shape | instr/byte at 1 MB | at 16 MB | ratio |\n|---|---|---|---|\n'
for s in $shapes; do
  ipb() {
    local out bytes instr
    out=$(valgrind --tool=callgrind --toggle-collect=tokenize_all --callgrind-out-file=/dev/null "$bin" "$s" "$1" 2>&1)
    bytes=$(echo "$out" | awk -v s="$s" '$1==s {print $2}')
    instr=$(echo "$out" | grep Collected | awk '{print $4}' | tr -d ,)
    echo "$instr $bytes" | awk '{printf "%.2f", $1/$2}'
  }
  a=$(ipb 1); b=$(ipb 16)
  printf '| %s | %s | %s | %s |\n' "$s" "$a" "$b" "$(echo "$a $b" | awk '{printf "%.3f", $2/$1}')"
done
