#!/usr/bin/env bash
# WARC.gz -> WET.gz of the corpus copied 20 times (issue 43's target):
# `htmltok wet` against fastwarc + resiliparse + warcio (tools/wet_peers.py
# pipeline), each a whole process on one core (taskset), with hyperfine;
# and how much of htmltok's time is gzip: the same conversion to a plain
# WET, and from a plain WARC to a plain WET. Results in BENCHMARKS.md.
#
#   cargo build --release -p htmltok-cli
#   python3 -m venv /tmp/wet-bench-venv
#   /tmp/wet-bench-venv/bin/pip install fastwarc resiliparse warcio
#   tools/wet_bench.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
py="${PYTHON:-/tmp/wet-bench-venv/bin/python}"
bin="$PWD/target/release/htmltok"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
"$py" tools/wet_peers.py archive "$dir/corpus20.warc.gz"
gzip -dc "$dir/corpus20.warc.gz" > "$dir/corpus20.warc"
cpu="taskset -c 1"
hyperfine --warmup 1 --runs "$runs" --export-json "$dir/wet.json" \
    -n 'htmltok wet (WARC.gz -> WET.gz)' "$cpu $bin wet --jobs 1 -o $dir/h.warc.wet.gz $dir/corpus20.warc.gz" \
    -n 'htmltok wet (WARC.gz -> WET)' "$cpu $bin wet --jobs 1 -o $dir/h.warc.wet $dir/corpus20.warc.gz" \
    -n 'htmltok wet (WARC -> WET)' "$cpu $bin wet --jobs 1 -o $dir/h2.warc.wet $dir/corpus20.warc" \
    -n 'gzip -dc (the input inflated, zlib)' "$cpu gzip -dc $dir/corpus20.warc.gz" \
    -n 'fastwarc + resiliparse + warcio' "$cpu $py tools/wet_peers.py pipeline $dir/corpus20.warc.gz $dir/p.warc.wet.gz"
ls -l "$dir"/*.wet* | awk '{print $5, $9}'
# Medians (the figures BENCHMARKS.md quotes), and the ratio to the peers.
python3 - "$dir/wet.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
peer = next(r["median"] for r in rows if r["command"].startswith("fastwarc"))
for r in rows:
    print(f'{r["command"]:40} median {r["median"]:.3f} s  min {r["min"]:.3f} s  peers/this {peer / r["median"]:.2f}x')
PY
