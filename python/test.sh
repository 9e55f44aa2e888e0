#!/usr/bin/env bash
# The Python package's tests: creates a virtual environment (once, under
# target/), installs maturin, pytest and Dask into it, builds the abi3 wheel
# from python/, installs it, and runs python/tests. Extra arguments go to
# pytest (e.g. `-k warc`).
#
# Environment: PYTHON (the interpreter to make the environment with,
# default python3), HTMLTOK_PY_VENV (the environment, default
# target/python-venv), HTMLTOK_BIN (the `htmltok` command line the
# extraction tests compare with; built here when unset).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
venv="${HTMLTOK_PY_VENV:-$repo/target/python-venv}"
python="${PYTHON:-python3}"
# The extension module builds in a target directory of its own: its
# dependencies are built with other features than the workspace's.
py_target="$repo/target/python"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements-test.txt"

if [ -z "${HTMLTOK_BIN:-}" ]; then
    cargo build -q --manifest-path "$repo/Cargo.toml" -p htmltok-cli
    export HTMLTOK_BIN="$repo/target/debug/htmltok"
fi

rm -rf "$py_target/wheels"
CARGO_TARGET_DIR="$py_target" "$venv/bin/maturin" build --quiet --release \
    --manifest-path "$here/Cargo.toml" -o "$py_target/wheels"
wheel="$(ls "$py_target"/wheels/htmltok-*.whl)"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"

cd "$here"
HTMLTOK_WHEEL="$wheel" "$venv/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
