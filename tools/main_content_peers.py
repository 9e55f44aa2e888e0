#!/usr/bin/env python3
"""Main-content extraction speed: htmltok against trafilatura and resiliparse.

Issue 42's speed targets, in one Python process over the same pages:
``htmltok.text(page, main_content=True)`` at least 20x trafilatura and at
least 2x resiliparse's main content. Timed, one page at a time, pages as
bytes (each tool decodes them itself):

* trafilatura -- ``trafilatura.extract(page)``, its default settings (its
  own encoding detection; lxml; jusText fallback);
* resiliparse -- ``extract_plain_text(HTMLTree.parse_from_bytes(page,
  detect_encoding(page)), main_content=True)``;
* htmltok (Python) -- ``htmltok.text(page, main_content=True)``;
* htmltok (Python, all text) -- ``htmltok.text(page)``, what main content
  costs on top;
* htmltok -- the ``htmltok text --main-content --jobs 1`` command over the
  same pages written as files, whole process (another command with
  ``--htmltok-cmd``).

The rounds, medians, ratios and the table are tools/extract_peers.py's
(round-robin rounds after a warm-up pass, the median of each tool; ratio:
htmltok's MB/s over the peer's; paired: the median over rounds of the
peer's time over htmltok's in the same round).

    cargo build --release -p htmltok-cli
    python3 -m venv /tmp/mc-venv
    /tmp/mc-venv/bin/pip install trafilatura resiliparse ./python
    /tmp/mc-venv/bin/python tools/main_content_peers.py --copies 2 --runs 5
"""

import argparse
import sys

import extract_peers as peers


def measure(args) -> dict:
    try:
        import trafilatura
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import detect_encoding
        from resiliparse.parse.html import HTMLTree
    except ImportError as err:
        sys.exit(f"error: {err.name or err} is not installed: "
                 "pip install trafilatura resiliparse")
    htmltok = peers.import_htmltok_module()
    if htmltok is None:
        sys.exit("error: htmltok's Python package is not installed: pip install ./python")

    def trafilatura_text(page: bytes) -> str:
        return trafilatura.extract(page) or ""

    def resiliparse_text(page: bytes) -> str:
        tree = HTMLTree.parse_from_bytes(page, detect_encoding(page))
        return extract_plain_text(tree, main_content=True)

    def htmltok_main(page: bytes) -> str:
        return htmltok.text(page, main_content=True)

    tools = [
        ("trafilatura", "trafilatura.extract(bytes)", trafilatura_text),
        ("resiliparse", "extract_plain_text(HTMLTree.parse_from_bytes(b, "
         "detect_encoding(b)), main_content=True)", resiliparse_text),
        ("htmltok (Python, all text)", "htmltok.text(bytes)", htmltok.text),
        ("htmltok (Python)", "htmltok.text(bytes, main_content=True)", htmltok_main),
    ]
    versions = {
        "trafilatura": peers.version("trafilatura"),
        "resiliparse": peers.version("resiliparse"),
        "htmltok (Python)": peers.version("htmltok"),
    }
    return peers.measure_python_tools(args, tools, versions, "main-content-peers-")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    peers.add_common_arguments(parser)
    parser.set_defaults(htmltok_cmd="text --main-content", copies=2, runs=5)
    peers.run_main(parser, measure, peers.tools_markdown)


if __name__ == "__main__":
    main()
