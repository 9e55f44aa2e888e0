#!/usr/bin/env bash
# The library (default features, none, all) and the Python extension
# build with the oldest Rust their manifests promise (`rust-version` in
# Cargo.toml and python/Cargo.toml): a promise no other check keeps, since
# everything else builds with the newest stable. Installs that toolchain
# (minimal profile) with rustup; where rustup cannot, it says so and the
# check counts as skipped. The command line, the tests' dependencies
# (html5ever, libtest-mimic) and the benchmarks' (criterion, lol_html) need
# a newer Rust and are not checked.
#
#   tools/msrv.sh        # ~2 minutes the first time; called by .ci/run
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
python_version=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' python/Cargo.toml | head -n 1)
if [ -z "$version" ] || [ "$version" != "$python_version" ]; then
    echo "msrv: Cargo.toml says rust-version '$version', python/Cargo.toml '$python_version'" >&2
    exit 1
fi
if ! command -v rustup >/dev/null; then
    echo "msrv: 0 passed, 0 failed, 4 skipped (no rustup to install Rust $version)"
    exit 0
fi
if ! rustup toolchain install "$version" --profile minimal >/dev/null 2>&1; then
    echo "msrv: 0 passed, 0 failed, 4 skipped (rustup could not install Rust $version)"
    exit 0
fi
export CARGO_TARGET_DIR=target/msrv
cargo +"$version" check -q -p htmltok
cargo +"$version" check -q -p htmltok --no-default-features
cargo +"$version" check -q -p htmltok --all-features
CARGO_TARGET_DIR=target/msrv-python cargo +"$version" check -q --manifest-path python/Cargo.toml
echo "msrv: 4 passed, 0 failed, 0 skipped (Rust $version)"
