#!/usr/bin/env python3
"""Whole commands timed by hyperfine in rounds, for ratios on a noisy host.

hyperfine times one command's runs, then the next command's. On a host
whose speed drifts over minutes (a virtual machine on a shared machine),
the commands then meet different speeds, and the ratio of their medians
carries the drift. This runs hyperfine ``--rounds`` times over all the
commands, a few runs each (``--runs``), and reports for each command the
median of its rounds' medians and, against the first command, the median
over rounds of the ratio of the two medians of the same round: both
commands of a round ran within seconds of each other.

    python3 tools/paired_hyperfine.py --rounds 10 --runs 3 \\
        'target/release/htmltok stats --jobs 1 /tmp/c20' \\
        'target/release/htmltok text --jobs 1 /tmp/c20'

Needs ``hyperfine`` on the PATH (Debian: ``apt-get install hyperfine``).
Commands run without a shell (``-N``), output to /dev/null, after one
warm-up run each round.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def round_medians(commands: list[str], runs: int) -> list[float]:
    """One hyperfine invocation over `commands`: each one's median, seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "round.json"
        argv = ["hyperfine", "-N", "-w", "1", "-r", str(runs), "--export-json", str(out),
                "--style", "none", *commands]
        done = subprocess.run(argv, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"hyperfine failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
        results = json.loads(out.read_text())["results"]
    return [r["median"] for r in results]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commands", nargs="+", help="commands; ratios are to the first")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3, help="runs of each command a round")
    args = parser.parse_args()
    if len(args.commands) < 2:
        parser.error("give at least two commands to compare")
    if args.rounds < 1 or args.runs < 1:
        parser.error("--rounds and --runs must be at least 1")

    medians: list[list[float]] = []
    for i in range(args.rounds):
        medians.append(round_medians(args.commands, args.runs))
        print(f"round {i + 1}/{args.rounds}: "
              + ", ".join(f"{m:.3f}" for m in medians[-1]), file=sys.stderr)

    print(f"{args.rounds} rounds of {args.runs} runs each (hyperfine -N -w 1); seconds")
    print()
    print("| command | median of round medians s | (min-max s) | / first, paired |")
    print("|---|---:|---:|---:|")
    for j, command in enumerate(args.commands):
        column = [m[j] for m in medians]
        paired = statistics.median(m[j] / m[0] for m in medians)
        ratio = "" if j == 0 else f"{paired:.3f}"
        print(f"| `{command}` | {statistics.median(column):.3f} | "
              f"{min(column):.3f}-{max(column):.3f} | {ratio} |")


if __name__ == "__main__":
    main()
