#!/usr/bin/env python3
"""Threads against one thread: whether htmltok's Python package releases
the GIL enough for threads to scale (issue 16: "the GIL is released while
Rust works, so threads scale").

The corpus pages (copied ``--copies`` times, bytes) are split between
``--threads`` threads of a ThreadPoolExecutor, each calling
``htmltok.text`` on its share; against the same pages in one thread.
Rounds alternate the two, one untimed warm-up each; medians and the
paired ratio (the median over rounds of one thread's time over the
threads' time in the same round).

    target/python-venv/bin/python tools/python_threads_bench.py --copies 20 --runs 7
"""

import argparse
import concurrent.futures
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from extract_peers import default_files, load  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    import htmltok

    pages = [f.read_bytes() for f in default_files()] * args.copies
    shares = [pages[i::args.threads] for i in range(args.threads)]
    pool = concurrent.futures.ThreadPoolExecutor(args.threads)

    def one():
        start = time.perf_counter()
        for p in pages:
            htmltok.text(p)
        return time.perf_counter() - start

    def threaded():
        start = time.perf_counter()
        list(pool.map(lambda share: [htmltok.text(p) for p in share], shares))
        return time.perf_counter() - start

    before = load()
    one(), threaded()
    times = {"1 thread": [], f"{args.threads} threads": []}
    for r in range(args.runs):
        times["1 thread"].append(one())
        times[f"{args.threads} threads"].append(threaded())
        print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]:.3f} s" for k, v in times.items()),
              file=sys.stderr)
    after = load()
    total = sum(map(len, pages))
    print(f"{len(pages)} pages, {total / 1e6:.1f} MB; medians of {args.runs} rounds")
    print("| | median s | (min-max s) | MB/s |\n|---|---:|---:|---:|")
    for k, v in times.items():
        m = statistics.median(v)
        print(f"| {k} | {m:.3f} | {min(v):.3f}-{max(v):.3f} | {total / m / 1e6:.1f} |")
    a, b = times.values()
    print(f"\nspeed-up {statistics.median(a) / statistics.median(b):.2f}x "
          f"(paired {statistics.median(x / y for x, y in zip(a, b)):.2f}x); "
          f"{os.cpu_count()} CPUs; load before {before}, after {after}")


if __name__ == "__main__":
    main()
