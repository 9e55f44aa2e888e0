#!/usr/bin/env python3
"""Tokens from Python against the command line's tokens: how much handing
every token to Python as an object costs (issue 16's target: within 3x of
the time `htmltok tokens` takes to write them all as JSON Lines).

Timed, round-robin over ``--runs`` rounds after one warm-up, medians:

* htmltok (Python) -- ``for t in htmltok.tokenize(page): ...`` over every
  page (bytes, so encoding sniffing included), in this process, each
  token's kind, span and name or data read;
* htmltok tokens -- ``htmltok tokens --jobs 1 FILES > /dev/null``, whole
  process, over the same pages written as files.

How to run it (from the repository root, with the package installed in
the Python that runs it, e.g. the one python/test.sh makes):

    cargo build --release -p htmltok-cli
    target/python-venv/bin/python tools/python_tokens_bench.py --copies 5 --runs 7
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from extract_peers import default_binary, default_files, load  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--htmltok", help="the htmltok binary (default target/release/htmltok)")
    args = parser.parse_args()
    import htmltok

    binary = Path(args.htmltok) if args.htmltok else default_binary()
    files = [Path(f) for f in args.files] if args.files else default_files()
    pages = [f.read_bytes() for f in files] * args.copies
    total = sum(map(len, pages))

    def python_tokens():
        n = 0
        start = time.perf_counter()
        for page in pages:
            for t in htmltok.tokenize(page):
                t.kind, t.span, t.name or t.data
                n += 1
        return time.perf_counter() - start, n

    with tempfile.TemporaryDirectory(prefix="py-tokens-") as tmp:
        paths = []
        for i, page in enumerate(pages):
            p = Path(tmp) / f"{i:04d}.html"
            p.write_bytes(page)
            paths.append(str(p))
        argv = [str(binary), "tokens", "--jobs", "1", *paths]

        def cli_tokens():
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
            return time.perf_counter() - start, 0

        tools = [("htmltok (Python)", python_tokens), ("htmltok tokens", cli_tokens)]
        before = load()
        for _, run in tools:
            run()
        times = {name: [] for name, _ in tools}
        tokens = 0
        for r in range(args.runs):
            for name, run in tools:
                t, n = run()
                times[name].append(t)
                tokens = n or tokens
            print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]:.3f} s" for k, v in times.items()),
                  file=sys.stderr)
        after = load()
    py, cli = (statistics.median(times[n]) for n, _ in tools)
    paired = statistics.median(a / b for a, b in zip(*(times[n] for n, _ in tools)))
    print(f"{len(pages)} pages, {total / 1e6:.1f} MB, {tokens:,} tokens; medians of {args.runs} rounds")
    print("| tool | median s | (min-max s) | MB/s | ns/token |")
    print("|---|---:|---:|---:|---:|")
    for name, _ in tools:
        m = statistics.median(times[name])
        print(f"| {name} | {m:.3f} | {min(times[name]):.3f}-{max(times[name]):.3f} | "
              f"{total / m / 1e6:.1f} | {m / tokens * 1e9:.0f} |")
    print(f"\nPython / command line: {py / cli:.2f}x (paired {paired:.2f}x). "
          f"htmltok {htmltok.__version__}, Python {sys.version.split()[0]}. "
          f"Load before {before}, after {after}.")


if __name__ == "__main__":
    main()
