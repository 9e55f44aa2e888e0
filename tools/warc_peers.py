#!/usr/bin/env python3
"""Text extraction over a crawl archive: htmltok against the Python stack.

What it measures (issue 15's benchmark): how fast the visible text of the
HTML responses of a WARC file comes out of

* fastwarc alone -- ``ArchiveIterator`` over the archive, every response
  record's payload read: the cost of decompressing and reading records,
  the floor for every tool that reads archives;
* ``gzip -dc`` -- the decompression alone, as a process (zlib's speed);
* fastwarc + resiliparse -- ``extract_plain_text(HTMLTree.parse_from_bytes(
  body, detect_encoding(body)))`` per response;
* fastwarc + selectolax -- ``LexborHTMLParser(body).text()`` per response;
* htmltok (Python) -- ``record.text`` of every record of
  ``htmltok.warc_records(path)``, the Python package (python/; issue 16),
  in this process, when it is installed here (``--no-python`` leaves it
  out);
* htmltok -- ``htmltok text --jobs 1 ARCHIVE`` (another subcommand with
  ``--htmltok-cmd``), whole process, once the binary reads archives (issue
  15); a binary that does not is reported as such, not timed.

The archive: the HTML files (by default the shared corpus) copied
``--copies`` times (20, as in issue 15: 140 responses), each page a
``response`` record with an HTTP/1.1 200 header (``Content-Type:
text/html``) and a ``request`` record before it, gzipped record by record
as Common Crawl writes them, written by warcio (an independent writer) into
a temporary directory, or kept with ``--keep PATH``.

How it times: as ``tools/extract_peers.py`` (whose helpers it uses): one
untimed warm-up, then ``--runs`` rounds (7), each tool once per round,
round-robin; the Python tools in this process, the commands as
subprocesses, on the wall clock. Reported: the median seconds, MB/s of
payload (HTML bytes, 10^6 per second), htmltok's MB/s over each other
tool's, and the load average before and after: run it on a quiet machine.

How to run it (from the repository root):

    cargo build --release -p htmltok-cli
    python3 -m venv /tmp/peers-venv
    /tmp/peers-venv/bin/pip install fastwarc resiliparse selectolax warcio
    /tmp/peers-venv/bin/python tools/warc_peers.py
    /tmp/peers-venv/bin/python tools/warc_peers.py --copies 20 --runs 5 --json
"""

from __future__ import annotations

import argparse
import io
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from extract_peers import (  # noqa: E402  (the sibling script's helpers)
    BUILD_HINT,
    add_common_arguments,
    default_binary,
    default_files,
    htmltok_ratios,
    import_htmltok_module,
    load,
    process_timer,
    run_main,
    table_lines,
    version,
)

INSTALL_HINT = (
    "python3 -m venv /tmp/peers-venv && "
    "/tmp/peers-venv/bin/pip install fastwarc resiliparse selectolax warcio\n"
    "then run this script with /tmp/peers-venv/bin/python"
)


def need(module: str):
    """Imports `module`, or exits with how to install the peers."""
    try:
        return __import__(module, fromlist=["_"])
    except ImportError as err:
        sys.exit(f"error: {err.name or err} is not installed. Install the peers with:\n"
                 f"  {INSTALL_HINT}")


def write_archive(path: Path, files: list[Path], copies: int) -> int:
    """Writes the archive; returns the payload bytes (HTML) it holds."""
    warcio_warcwriter = need("warcio.warcwriter")
    warcio_statusandheaders = need("warcio.statusandheaders")
    StatusAndHeaders = warcio_statusandheaders.StatusAndHeaders
    payload = 0
    with path.open("wb") as out:
        writer = warcio_warcwriter.WARCWriter(out, gzip=True)
        for copy in range(copies):
            for f in files:
                body = f.read_bytes()
                payload += len(body)
                uri = f"https://corpus.example/{copy:03d}/{f.name}"
                request = writer.create_warc_record(
                    uri, "request", payload=io.BytesIO(b""),
                    http_headers=StatusAndHeaders(
                        f"GET /{copy:03d}/{f.name} HTTP/1.1",
                        [("Host", "corpus.example")], is_http_request=True))
                response = writer.create_warc_record(
                    uri, "response", payload=io.BytesIO(body),
                    http_headers=StatusAndHeaders(
                        "200 OK", [("Content-Type", "text/html"),
                                   ("Content-Length", str(len(body)))],
                        protocol="HTTP/1.1"))
                writer.write_record(request)
                writer.write_record(response)
    return payload


def python_archive_timer(archive: Path, per_page):
    """A function that reads every response of the archive with fastwarc
    and hands its payload to `per_page` (None: only read it), timed."""
    warc = need("fastwarc.warc")

    def run() -> tuple[float, int]:
        chars = 0
        start = time.perf_counter()
        with archive.open("rb") as stream:
            for record in warc.ArchiveIterator(
                    stream, record_types=warc.WarcRecordType.response, parse_http=True):
                body = record.reader.read()
                chars += len(body) if per_page is None else len(per_page(body))
        return time.perf_counter() - start, chars

    return run


def python_records_timer(htmltok, archive: Path):
    """A function that takes the text of every HTML record of the archive
    through htmltok's Python package, timed."""

    def run() -> tuple[float, int]:
        chars = 0
        start = time.perf_counter()
        for record in htmltok.warc_records(archive):
            chars += len(record.extract(links=False, metadata=False)["text"])
        return time.perf_counter() - start, chars

    return run


def measure(args) -> dict:
    resiliparse_html = need("resiliparse.parse.html")
    resiliparse_encoding = need("resiliparse.parse.encoding")
    html2text = need("resiliparse.extract.html2text")
    lexbor = need("selectolax.lexbor")

    binary = Path(args.htmltok) if args.htmltok else default_binary()
    if not binary.is_file():
        sys.exit(f"error: no htmltok binary at {binary}. Build it with:\n  {BUILD_HINT}\n"
                 "(or give one with --htmltok PATH)")
    files = [Path(f) for f in args.files] if args.files else default_files()

    def resiliparse(body: bytes) -> str:
        tree = resiliparse_html.HTMLTree.parse_from_bytes(
            body, resiliparse_encoding.detect_encoding(body))
        return html2text.extract_plain_text(tree)

    def selectolax(body: bytes) -> str:
        return lexbor.LexborHTMLParser(body).text()

    with tempfile.TemporaryDirectory(prefix="warc-peers-") as tmp:
        archive = Path(args.keep) if args.keep else Path(tmp) / "corpus.warc.gz"
        payload = write_archive(archive, files, args.copies)
        htmltok_argv = [str(binary), *args.htmltok_cmd.split(), "--jobs", "1", str(archive)]
        # A binary from before issue 15 takes an archive for an HTML file
        # (and prints its bytes as text): ask its help whether it reads them.
        help_text = subprocess.run([str(binary), "--help"], capture_output=True,
                                   text=True).stdout
        probe = subprocess.run(htmltok_argv, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        if "warc" not in help_text.lower():
            probe = subprocess.CompletedProcess(htmltok_argv, 2, stderr=(
                "this binary does not read WARC files (its --help never names them)"))
        tools = [
            ("gzip -dc", "the decompression alone, a process",
             process_timer(["gzip", "-dc", str(archive)])),
            ("fastwarc", "ArchiveIterator, every response payload read",
             python_archive_timer(archive, None)),
            ("fastwarc + resiliparse",
             "extract_plain_text(HTMLTree.parse_from_bytes(b, detect_encoding(b)))",
             python_archive_timer(archive, resiliparse)),
            ("fastwarc + selectolax", "LexborHTMLParser(b).text()",
             python_archive_timer(archive, selectolax)),
        ]
        htmltok_python = None if args.no_python else import_htmltok_module()
        if htmltok_python is not None:
            tools.append(("htmltok (Python)", "record.text for warc_records(path)",
                          python_records_timer(htmltok_python, archive)))
        htmltok_note = None
        if probe.returncode == 0:
            tools.append(("htmltok", f"`htmltok {args.htmltok_cmd} --jobs 1 ARCHIVE`, "
                          "whole process", process_timer(htmltok_argv)))
        else:
            htmltok_note = (f"`{' '.join(htmltok_argv[:2])} ... ARCHIVE` failed "
                            f"(exit {probe.returncode}): {probe.stderr.strip()[-300:]}")
        load_before = load()
        for _, _, timed in tools:
            timed()
        times: dict[str, list[float]] = {name: [] for name, *_ in tools}
        for round_ in range(args.runs):
            for name, _, timed in tools:
                times[name].append(timed()[0])
            if not args.json:
                print(f"round {round_ + 1}/{args.runs}: "
                      + ", ".join(f"{n} {t[-1]:.3f} s" for n, t in times.items()),
                      file=sys.stderr)
        load_after = load()
        compressed = archive.stat().st_size

    rows = [{"tool": name, "timed": what, "median_s": statistics.median(times[name]),
             "runs_s": times[name],
             "mb_per_s": payload / statistics.median(times[name]) / 1e6}
            for name, what, _ in tools]
    if rows[-1]["tool"] == "htmltok":
        htmltok_ratios(rows)
    return {
        "files": [str(f) for f in files], "copies": args.copies, "runs": args.runs,
        "responses": len(files) * args.copies, "payload_bytes": payload,
        "archive_bytes": compressed, "rows": rows, "htmltok_note": htmltok_note,
        "versions": {"python": platform.python_version(), "fastwarc": version("fastwarc"),
                     "resiliparse": version("resiliparse"),
                     "selectolax": version("selectolax"), "warcio": version("warcio"),
                     "htmltok (Python)": version("htmltok") if htmltok_python else None},
        "load_before": load_before, "load_after": load_after,
    }


def markdown(result: dict) -> str:
    lines = [
        f"{result['responses']} HTML responses ({len(result['files'])} files x "
        f"{result['copies']} copies): {result['payload_bytes'] / 1e6:,.1f} MB of payload, "
        f"{result['archive_bytes'] / 1e6:,.1f} MB gzipped per record; median of "
        f"{result['runs']} runs (MB/s: 10^6 payload bytes per second; ratio: htmltok's "
        "MB/s / the tool's; paired: the median over rounds of the tool's time / htmltok's "
        "in the same round)",
        "",
    ]
    lines += table_lines(result["rows"])
    if result["htmltok_note"]:
        lines += ["", f"htmltok not timed: {result['htmltok_note']}"]
    v = result["versions"]
    lines += ["", ", ".join(f"{k} {val}" for k, val in v.items())
              + f". Load average before: {result['load_before']}; after: "
              f"{result['load_after']}."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Time htmltok over a WARC file against fastwarc + resiliparse / "
                    "selectolax (see the module docstring).")
    add_common_arguments(parser)
    parser.add_argument("--keep", metavar="PATH",
                        help="write the archive here and keep it (default: a temporary file)")
    run_main(parser, measure, markdown)


if __name__ == "__main__":
    main()
