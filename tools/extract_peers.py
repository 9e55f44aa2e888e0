#!/usr/bin/env python3
"""Text-extraction throughput of `htmltok text` against two Python peers.

What it measures (issue 14's peer measurement): how fast the visible text of
real pages comes out of

* selectolax -- ``LexborHTMLParser(html).text()``, html as bytes (selectolax
  parses bytes as UTF-8 unless ``encoding=True``; a ``str`` would first be
  encoded to UTF-8 by selectolax itself, an extra copy). Note that ``.text()``
  is the root's text content: it keeps the text of <script>, <style> and
  <title> and collapses no whitespace, so it does less than the others.
* resiliparse -- ``extract_plain_text(...)`` with its defaults, two ways:
    - ``resiliparse (bytes)``: ``HTMLTree.parse_from_bytes(html,
      detect_encoding(html))``, from bytes to text as its documentation
      recommends, encoding detection included (uchardet on a sample of up to
      128 KiB: a real share of the time on small pages);
    - ``resiliparse (str)``: ``extract_plain_text(HTMLTree.parse(html))``,
      the call issue 14 names, with ``html`` a ``str`` decoded beforehand
      (``bytes_to_str(html, detect_encoding(html))``, outside the timing).
* htmltok (Python) -- ``htmltok.text(html)``, html as bytes, from the
  Python package (python/; issue 16's measurement), in this same process
  like the peers: encoding sniffing included. Left out when the package is
  not installed in the interpreter running this script (``pip install
  ./python``), or with ``--no-python``.
* htmltok (Python, str) -- ``htmltok.text(s)`` on the same ``str`` objects as
  resiliparse (str), decoded beforehand: neither decodes in the timed call.
* htmltok -- the ``htmltok text --jobs 1`` command (another subcommand with
  ``--htmltok-cmd``), run as a subprocess over the same pages written once as
  separate files into a temporary directory, timed whole-process on the wall
  clock (process start, reading the files, encoding sniffing and decoding,
  tokenizing, writing the text to /dev/null).

Why: htmltok's benchmarks (BENCHMARKS.md) compare tokenizers; a user who
wants the text of pages would otherwise reach for one of these Python
libraries, which build a whole DOM with lexbor (C) and walk it. This puts the
CLI's number next to theirs on the same bytes.

How it times: all pages are read into memory as bytes first (the file list
repeated ``--copies`` times, 20 by default as in issue 14: "corpus copied 20
times"); then, for each of ``--runs`` rounds (7 by default), each tool goes
once over all of them, one after the other (round-robin, so that a change in
the machine's load hits every tool alike), after one untimed warm-up pass.
The Python peers run in this one process, one page at a time; htmltok runs
one process per round over all the files. Reported: the MEDIAN seconds of a
round, MB/s of input HTML bytes (10^6 bytes per second), and htmltok's MB/s
divided by each peer's (above 1: htmltok is faster), the packages' versions
and the load average before and after (``uptime``). The machine's other work
shows in that load: run it on a quiet machine, and never two at once.

How to run it (from the repository root):

    cargo build --release -p htmltok-cli        # the binary it times
    python3 -m venv /tmp/peers-venv
    /tmp/peers-venv/bin/pip install selectolax resiliparse
    /tmp/peers-venv/bin/pip install ./python   # htmltok's Python package too
    /tmp/peers-venv/bin/python tools/extract_peers.py
    /tmp/peers-venv/bin/python tools/extract_peers.py --copies 20 --runs 5 --json
    /tmp/peers-venv/bin/python tools/extract_peers.py --htmltok-cmd stats

Files: the HTML files given as arguments, else ``*.html`` of
``$HTMLTOK_CORPUS_DIR``, else of ``../shared/corpus`` beside the repository
root, else of ``/work/shared/corpus``. The binary: ``--htmltok PATH``, else
``$CARGO_TARGET_DIR/release/htmltok``, else ``target/release/htmltok``.
Only the standard library is used besides the two peers.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUILD_HINT = "cargo build --release -p htmltok-cli"
INSTALL_HINT = (
    "python3 -m venv /tmp/peers-venv && "
    "/tmp/peers-venv/bin/pip install selectolax resiliparse\n"
    "then run this script with /tmp/peers-venv/bin/python"
)


def import_peers():
    """The peers' functions, or exit with how to install them."""
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
        from resiliparse.parse.html import HTMLTree
        from selectolax.lexbor import LexborHTMLParser
    except ImportError as err:
        sys.exit(f"error: {err.name or err} is not installed. Install the peers with:\n"
                 f"  {INSTALL_HINT}")
    return LexborHTMLParser, HTMLTree, extract_plain_text, detect_encoding, bytes_to_str


def import_htmltok_module():
    """htmltok's Python package, or None (with a note) when it is not
    installed in this interpreter."""
    try:
        import htmltok
    except ImportError:
        print("note: htmltok's Python package is not installed here (pip install ./python): "
              "its row is left out", file=sys.stderr)
        return None
    return htmltok


def import_htmltok_python():
    """``htmltok.text`` from the Python package, or None."""
    module = import_htmltok_module()
    return module.text if module else None


def default_files() -> list[Path]:
    """The corpus pages: $HTMLTOK_CORPUS_DIR, ../shared/corpus, /work/shared/corpus."""
    candidates = []
    if os.environ.get("HTMLTOK_CORPUS_DIR"):
        candidates.append(Path(os.environ["HTMLTOK_CORPUS_DIR"]))
    candidates += [REPO.parent / "shared" / "corpus", Path("/work/shared/corpus")]
    for directory in candidates:
        files = sorted(directory.glob("*.html"))
        if files:
            return files
    sys.exit("error: no corpus found (tried " + ", ".join(map(str, candidates))
             + "); give HTML files as arguments")


def default_binary() -> Path:
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    if not target.is_absolute():
        target = REPO / target
    return target / "release" / "htmltok"


def version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def python_timer(extract, pages):
    """A function that extracts the text of every page once, timed."""

    def run() -> tuple[float, int]:
        chars = 0
        start = time.perf_counter()
        for page in pages:
            chars += len(extract(page))
        return time.perf_counter() - start, chars

    return run


def process_timer(argv):
    """A function that runs argv once, timed on the wall clock."""

    def run() -> tuple[float, int]:
        start = time.perf_counter()
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"error: {shlex.join(argv[:4])} ... exited with {done.returncode}:\n"
                     + done.stderr.decode(errors="replace")[-2000:])
        return elapsed, 0

    return run


def measure(args) -> dict:
    (LexborHTMLParser, HTMLTree, extract_plain_text,
     detect_encoding, bytes_to_str) = import_peers()

    binary = Path(args.htmltok) if args.htmltok else default_binary()
    if not binary.is_file():
        sys.exit(f"error: no htmltok binary at {binary}. Build it with:\n  {BUILD_HINT}\n"
                 "(or give one with --htmltok PATH)")
    htmltok_cmd = shlex.split(args.htmltok_cmd)
    htmltok_version = subprocess.run([str(binary), "--version"], capture_output=True,
                                     text=True).stdout.strip() or "?"

    files = [Path(f) for f in args.files] if args.files else default_files()
    originals = [f.read_bytes() for f in files]
    pages = originals * args.copies
    total = sum(len(p) for p in pages)
    # Decoded beforehand for the str variant, as issue 14's call takes a str.
    decoded = [bytes_to_str(p, detect_encoding(p)) for p in originals] * args.copies

    def resiliparse_bytes(page: bytes) -> str:
        return extract_plain_text(HTMLTree.parse_from_bytes(page, detect_encoding(page)))

    def resiliparse_str(page: str) -> str:
        return extract_plain_text(HTMLTree.parse(page))

    def selectolax(page: bytes) -> str:
        return LexborHTMLParser(page).text()

    load_before = load()
    with tempfile.TemporaryDirectory(prefix="extract-peers-") as tmp:
        paths = []
        for copy in range(args.copies):
            for f, page in zip(files, originals):
                path = Path(tmp) / f"{copy:03d}-{f.name}"
                path.write_bytes(page)
                paths.append(str(path))
        htmltok_argv = [str(binary), *htmltok_cmd, "--jobs", "1", *paths]
        tools = [
            ("selectolax", "LexborHTMLParser(bytes).text()",
             python_timer(selectolax, pages), python_timer(selectolax, originals)),
            ("resiliparse (bytes)",
             "extract_plain_text(HTMLTree.parse_from_bytes(b, detect_encoding(b)))",
             python_timer(resiliparse_bytes, pages), python_timer(resiliparse_bytes, originals)),
            ("resiliparse (str)",
             "extract_plain_text(HTMLTree.parse(s)), s decoded beforehand",
             python_timer(resiliparse_str, decoded),
             python_timer(resiliparse_str, decoded[:len(originals)])),
        ]
        python_api = None if args.no_python else import_htmltok_python()
        if python_api is not None:
            tools.append(("htmltok (Python)", "htmltok.text(bytes), in this process",
                          python_timer(python_api, pages), python_timer(python_api, originals)))
            # The same from `str`, to set beside resiliparse from `str`
            # (neither decodes in the timed call).
            tools.append(("htmltok (Python, str)", "htmltok.text(s), s decoded beforehand",
                          python_timer(python_api, decoded),
                          python_timer(python_api, decoded[:len(originals)])))
        tools += [
            ("htmltok", f"`htmltok {shlex.join(htmltok_cmd)} --jobs 1` over "
             f"{len(paths)} files, whole process",
             process_timer(htmltok_argv), process_timer(htmltok_argv)),
        ]
        for _, _, _, warm_up in tools:
            warm_up()
        times: dict[str, list[float]] = {name: [] for name, *_ in tools}
        chars: dict[str, int] = {}
        for round_ in range(args.runs):
            for name, _, timed, _ in tools:
                seconds, n = timed()
                times[name].append(seconds)
                chars[name] = n
            if not args.json:
                print(f"round {round_ + 1}/{args.runs}: "
                      + ", ".join(f"{n} {t[-1]:.3f} s" for n, t in times.items()),
                      file=sys.stderr)
    load_after = load()

    rows = tool_rows(tools, times, chars, total, args.copies)
    return {
        "files": [str(f) for f in files],
        "copies": args.copies,
        "runs": args.runs,
        "input_bytes": total,
        "rows": rows,
        "versions": {
            "python": platform.python_version(),
            "selectolax": version("selectolax"),
            "resiliparse": version("resiliparse"),
            "htmltok": htmltok_version,
            "htmltok (Python)": version("htmltok") if python_api else None,
        },
        "htmltok_binary": str(binary),
        "load_before": load_before,
        "load_after": load_after,
        "uptime": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(),
        "cpus": os.cpu_count(),
    }


def measure_python_tools(args, tools, versions: dict, prefix: str) -> dict:
    """Times ``tools`` (``(name, what, function of page bytes to text)``,
    one Python process) and the htmltok command line (``args.htmltok_cmd``
    with ``--jobs 1``, whole process, over the pages written as files) on
    ``args.copies`` copies of the pages, in ``args.runs`` round-robin
    rounds after a warm-up pass: the measurement of the peer scripts that
    compare one kind of output (main content, Markdown)."""
    binary = Path(args.htmltok) if args.htmltok else default_binary()
    if not binary.is_file():
        sys.exit(f"error: no htmltok binary at {binary}: {BUILD_HINT}")
    command = shlex.split(args.htmltok_cmd)
    files = [Path(f) for f in args.files] if args.files else default_files()
    originals = [f.read_bytes() for f in files]
    pages = originals * args.copies
    total = sum(len(p) for p in pages)
    load_before = load()
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        paths = []
        for copy in range(args.copies):
            for f, page in zip(files, originals):
                path = Path(tmp) / f"{copy:03d}-{f.name}"
                path.write_bytes(page)
                paths.append(str(path))
        argv = [str(binary), *command, "--jobs", "1", *paths]
        timers = [(name, what, python_timer(f, pages), python_timer(f, originals))
                  for name, what, f in tools]
        timers.append(("htmltok", f"`htmltok {shlex.join(command)} --jobs 1` over "
                       f"{len(paths)} files, whole process",
                       process_timer(argv), process_timer(argv)))
        for _, _, _, warm_up in timers:
            warm_up()
        times = {name: [] for name, *_ in timers}
        chars = {}
        for round_ in range(args.runs):
            for name, _, timed, _ in timers:
                seconds, n = timed()
                times[name].append(seconds)
                chars[name] = n
            print(f"round {round_ + 1}/{args.runs}: "
                  + ", ".join(f"{n} {t[-1]:.3f} s" for n, t in times.items()), file=sys.stderr)
    load_after = load()
    return {
        "files": [str(f) for f in files],
        "copies": args.copies,
        "runs": args.runs,
        "input_bytes": total,
        "rows": tool_rows(timers, times, chars, total, args.copies),
        "versions": versions,
        "load_before": load_before,
        "load_after": load_after,
    }


def tools_markdown(result: dict) -> str:
    """The table of a ``measure_python_tools`` result, with what was run."""
    lines = [
        f"{len(result['files'])} files x {result['copies']} copies = "
        f"{result['input_bytes'] / 1e6:,.1f} MB of HTML; median of {result['runs']} rounds",
        "",
        *table_lines(result["rows"]),
        "",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in result["versions"].items())
        + f". Load average before: {result['load_before']}; after: {result['load_after']}.",
    ]
    return "\n".join(lines)


def tool_rows(tools, times: dict, chars: dict, total: int, copies: int) -> list[dict]:
    """A row per tool ``(name, what, ...)``: its median over the rounds'
    ``times``, MB/s of ``total`` input bytes, the characters it gave a copy
    of the pages, and htmltok's ratios (``htmltok_ratios``)."""
    rows = []
    for name, what, *_ in tools:
        median = statistics.median(times[name])
        rows.append({
            "tool": name,
            "timed": what,
            "median_s": median,
            "runs_s": times[name],
            "mb_per_s": total / median / 1e6,
            "output_chars": chars[name] // copies if chars[name] else None,
        })
    htmltok_ratios(rows)
    return rows


def htmltok_ratios(rows: list[dict]) -> None:
    """Sets, on each peer's row and for each htmltok row (the Python
    package's, if measured, and the command line's, the last row), the
    ratio of htmltok's MB/s to the peer's from the medians, and the paired
    ratio: the median over rounds of the peer's time over htmltok's in the
    same round. Rounds run the tools one after another, so the paired
    figure holds when the host's speed drifts between rounds, which moves
    the medians of each tool apart."""
    ours = [row for row in rows if row["tool"].startswith("htmltok")]
    for row in rows:
        if row in ours:
            continue
        row["ratios"] = {
            o["tool"]: (o["mb_per_s"] / row["mb_per_s"],
                        statistics.median(peer / t for peer, t in zip(row["runs_s"], o["runs_s"])))
            for o in ours
        }
        # The command line's, under the names older runs used.
        row["htmltok_ratio"], row["htmltok_paired"] = row["ratios"][rows[-1]["tool"]]


def ratio_cells(row: dict, ours: list[str]) -> str:
    """The ratio cells of a row: for each htmltok row, medians' ratio and
    paired ratio."""
    if "ratios" not in row:
        return " | ".join(" " for _ in range(2 * len(ours)))
    return " | ".join(f"{row['ratios'][o][0]:.2f} | {row['ratios'][o][1]:.2f}" for o in ours)


def table_lines(rows: list[dict]) -> list[str]:
    """The Markdown table of the tools' rows, with a ratio and a paired
    column for each htmltok row (shared with tools/warc_peers.py)."""
    ours = [row["tool"] for row in rows if row["tool"].startswith("htmltok")]
    lines = [
        "| tool | timed | median s | (min-max s) | MB/s | "
        + " | ".join(f"{o} / this | paired" for o in ours) + " |",
        "|---|---|---:|---:|---:|" + "---:|" * (2 * len(ours)),
    ]
    for row in rows:
        lines.append(f"| {row['tool']} | {row['timed']} | {row['median_s']:.3f} | "
                     f"{min(row['runs_s']):.3f}-{max(row['runs_s']):.3f} | "
                     f"{row['mb_per_s']:,.1f} | {ratio_cells(row, ours)} |")
    return lines


def markdown(result: dict) -> str:
    lines = [
        f"{len(result['files'])} files x {result['copies']} copies = "
        f"{result['input_bytes'] / 1e6:,.1f} MB of HTML; median of {result['runs']} runs "
        "(MB/s: 10^6 input bytes per second; ratio: htmltok's MB/s / the peer's, "
        "above 1 = htmltok faster; paired: the median over rounds of the peer's time / "
        "htmltok's in the same round)",
        "",
    ]
    lines += table_lines(result["rows"])
    v = result["versions"]
    lines += [
        "",
        f"Versions: selectolax {v['selectolax']}, resiliparse {v['resiliparse']}, "
        f"{v['htmltok']} ({result['htmltok_binary']}), Python {v['python']}.",
        f"Load average before: {result['load_before']}; after: {result['load_after']} "
        f"({result['cpus']} CPUs). `uptime`: {result['uptime']}",
    ]
    return "\n".join(lines)


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """The options this script shares with tools/warc_peers.py."""
    parser.add_argument("files", nargs="*", help="HTML files (default: the shared corpus)")
    parser.add_argument("--copies", type=int, default=20,
                        help="repeat the file list N times (default 20)")
    parser.add_argument("--runs", type=int, default=7,
                        help="timed rounds; the median is reported (default 7)")
    parser.add_argument("--htmltok", metavar="PATH",
                        help="the htmltok binary (default: target/release/htmltok; "
                             f"build it with `{BUILD_HINT}`)")
    parser.add_argument("--htmltok-cmd", default="text", metavar="CMD",
                        help="the htmltok subcommand and its options to time "
                             "(default: text; e.g. 'stats')")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    parser.add_argument("--no-python", action="store_true",
                        help="leave out htmltok's Python package even when it is installed")


def run_main(parser: argparse.ArgumentParser, measure_with, to_markdown) -> None:
    """Parses the options, measures and prints (JSON or Markdown)."""
    args = parser.parse_args()
    if args.copies < 1 or args.runs < 1:
        parser.error("--copies and --runs must be at least 1")
    result = measure_with(args)
    print(json.dumps(result, indent=2) if args.json else to_markdown(result))


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Time htmltok text against selectolax and resiliparse "
                    "(see the module docstring).")
    add_common_arguments(parser)
    run_main(parser, measure, markdown)


if __name__ == "__main__":
    main()
