#!/usr/bin/env python3
"""WARC.gz -> WET.gz: `htmltok wet` against a Python pipeline (issue 43).

    python3 -m venv /tmp/wet-bench-venv
    /tmp/wet-bench-venv/bin/pip install fastwarc resiliparse warcio
    cargo build --release -p htmltok-cli
    /tmp/wet-bench-venv/bin/python tools/wet_peers.py archive /tmp/corpus20.warc.gz
    tools/wet_bench.sh    # hyperfine, one core (see BENCHMARKS.md)

`archive PATH`: the corpus pages copied --copies times (20) as Common
Crawl's WARC.gz (tools/warc_peers.py's archive: a request and a response
record per page, a gzip member each, written by warcio).

`pipeline ARCHIVE OUT`: the Python way to make a WET file today: FastWARC
reads the responses, resiliparse extracts each page's plain text
(`extract_plain_text(HTMLTree.parse_from_bytes(body, detect_encoding(body)))`),
warcio writes a warcinfo record and a `conversion` record per page with
Common Crawl's fields (`WARC-Refers-To`, a SHA-1 base32 block digest), a
gzip member per record, as htmltok wet does. One process, one thread.
"""

import base64
import hashlib
import io
import sys
from pathlib import Path


def archive(path: str, copies: int = 20) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from extract_peers import default_files  # noqa: E402
    from warc_peers import write_archive  # noqa: E402

    payload = write_archive(Path(path), default_files(), copies)
    print(f"{path}: {payload} bytes of HTML")


def pipeline(source: str, destination: str) -> None:
    from fastwarc.warc import ArchiveIterator, WarcRecordType
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import detect_encoding
    from resiliparse.parse.html import HTMLTree
    from warcio.warcwriter import WARCWriter

    with open(destination, "wb") as out:
        writer = WARCWriter(out, gzip=True, warc_version="WARC/1.0")
        writer.write_record(writer.create_warcinfo_record(
            Path(destination).name, {"Software-Info": "fastwarc+resiliparse+warcio"}))
        with open(source, "rb") as f:
            for record in ArchiveIterator(f, record_types=WarcRecordType.response):
                if not (record.http_content_type or "").startswith("text/html"):
                    continue
                body = record.reader.read()
                text = extract_plain_text(HTMLTree.parse_from_bytes(body, detect_encoding(body)))
                if not text:
                    continue
                block = text.encode()
                digest = "sha1:" + base64.b32encode(hashlib.sha1(block).digest()).decode()
                headers = {
                    "WARC-Date": record.headers.get("WARC-Date"),
                    "WARC-Refers-To": record.record_id,
                    "WARC-Block-Digest": digest,
                    "Content-Type": "text/plain",
                }
                writer.write_record(writer.create_warc_record(
                    record.headers.get("WARC-Target-URI"), "conversion",
                    payload=io.BytesIO(block), warc_headers_dict=headers))


if __name__ == "__main__":
    if sys.argv[1:2] == ["archive"]:
        archive(*sys.argv[2:])
    elif sys.argv[1:2] == ["pipeline"]:
        pipeline(*sys.argv[2:])
    else:
        sys.exit(__doc__)
