#!/usr/bin/env bash
# Every test of the project: the Rust workspace (library, command line,
# conformance suites, differential and chunked tests), then the Python
# package (python/test.sh: builds it into a virtual environment and runs
# pytest). The one command README.md gives and .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
cargo build -q -p htmltok-cli
HTMLTOK_BIN="$PWD/target/debug/htmltok" python/test.sh "$@"
