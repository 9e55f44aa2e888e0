#!/usr/bin/env python3
"""Markdown speed: htmltok against html2text, markdownify and trafilatura.

Issue 43's speed targets, in one Python process over the same pages:
``htmltok.text(page, format="markdown")`` at least 30x html2text and at
least 10x trafilatura's Markdown output. Timed, one page at a time, pages
as bytes (each tool decodes them as its users do):

* html2text -- ``html2text.HTML2Text().handle(page.decode("utf-8",
  "replace"))`` (it takes text; links kept, its default settings);
* markdownify -- ``markdownify.markdownify(text)`` (BeautifulSoup with
  html.parser underneath, its default);
* trafilatura -- ``trafilatura.extract(page, output_format="markdown")``:
  main content, so compared with htmltok's main content as Markdown too;
* htmltok (Python) -- ``htmltok.text(page, format="markdown")``;
* htmltok (Python, main content) -- the same with ``main_content=True``;
* htmltok (Python, plain text) -- ``htmltok.text(page)``, what Markdown
  costs on top;
* htmltok -- the ``htmltok text --format markdown --jobs 1`` command over
  the same pages written as files, whole process.

The rounds, medians, ratios and the table are tools/extract_peers.py's.

    cargo build --release -p htmltok-cli
    python3 -m venv /tmp/md-venv
    /tmp/md-venv/bin/pip install html2text markdownify trafilatura ./python
    /tmp/md-venv/bin/python tools/markdown_peers.py --copies 2 --runs 5
"""

import argparse
import sys

import extract_peers as peers


def measure(args) -> dict:
    try:
        import html2text
        import markdownify
        import trafilatura
    except ImportError as err:
        sys.exit(f"error: {err.name or err} is not installed: "
                 "pip install html2text markdownify trafilatura")
    htmltok = peers.import_htmltok_module()
    if htmltok is None:
        sys.exit("error: htmltok's Python package is not installed: pip install ./python")

    def html2text_md(page: bytes) -> str:
        return html2text.HTML2Text().handle(page.decode("utf-8", "replace"))

    def markdownify_md(page: bytes) -> str:
        return markdownify.markdownify(page.decode("utf-8", "replace"))

    def trafilatura_md(page: bytes) -> str:
        return trafilatura.extract(page, output_format="markdown") or ""

    def htmltok_md(page: bytes) -> str:
        return htmltok.text(page, format="markdown")

    def htmltok_main_md(page: bytes) -> str:
        return htmltok.text(page, format="markdown", main_content=True)

    tools = [
        ("html2text", "html2text.HTML2Text().handle(str)", html2text_md),
        ("markdownify", "markdownify.markdownify(str)", markdownify_md),
        ("trafilatura", "trafilatura.extract(bytes, output_format=\"markdown\")", trafilatura_md),
        ("htmltok (Python, plain text)", "htmltok.text(bytes)", htmltok.text),
        ("htmltok (Python, main content)",
         "htmltok.text(bytes, format=\"markdown\", main_content=True)", htmltok_main_md),
        ("htmltok (Python)", "htmltok.text(bytes, format=\"markdown\")", htmltok_md),
    ]
    versions = {
        "html2text": peers.version("html2text"),
        "markdownify": peers.version("markdownify"),
        "trafilatura": peers.version("trafilatura"),
        "htmltok (Python)": peers.version("htmltok"),
    }
    return peers.measure_python_tools(args, tools, versions, "markdown-peers-")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    peers.add_common_arguments(parser)
    parser.set_defaults(htmltok_cmd="text --format markdown", copies=2, runs=5)
    peers.run_main(parser, measure, peers.tools_markdown)


if __name__ == "__main__":
    main()
