#!/usr/bin/env python3
"""Writes the WARC fixtures of tests/warc.rs with an independent writer,
warcio, and a manifest of what they hold.

    python3 -m venv /tmp/warcio-venv
    /tmp/warcio-venv/bin/pip install warcio brotli
    /tmp/warcio-venv/bin/python tools/gen_warc_fixtures.py          # writes tests/warc/
    /tmp/warcio-venv/bin/python tools/gen_warc_fixtures.py --check  # compares, writes nothing

Why an independent writer: a reader tested only on archives its own
author wrote would share that author's misreadings of the format. warcio
(the Webrecorder project's library, used by pywb and Browsertrix) writes
the good archives; the damaged ones are made here from its output by
cutting and editing bytes, as damage happens in the wild. warcio then
reads the good archives back (its ArchiveIterator, which undoes chunked
and content codings itself) and the manifest records what it found:
record types, URIs, ids, dates, HTTP statuses, offsets, and the page
bytes it decoded, which the generator checks against the pages it wrote.
With `--fastwarc PYTHON` (a Python with FastWARC installed) the records
are also read with FastWARC and compared the same way.

Everything is deterministic (fixed record ids and dates; gzip headers
without a time), so `--check` can tell whether the checked-in files are
what this script writes.
"""

import argparse
import brotli
import gzip
import hashlib
import io
import json
import os
import subprocess
import sys
import zlib

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "warc")
DATE = "2024-05-01T12:00:{:02d}Z"


def record_id(n):
    return "<urn:uuid:00000000-0000-4000-8000-{:012d}>".format(n)


# The pages, as a server would send them (before any coding).
PAGES = {
    "menu.html": (
        "<!DOCTYPE html><html lang=en><head><title>Fish &amp; chips</title>"
        '<meta name=description content="The best in town"></head>'
        "<body><h1>Menu</h1><p>Cod, chips and <a href=\"../peas.html\">mushy peas</a>.</p>"
        '<p>Open <a href="/hours">every day</a>.</p></body></html>\n'
    ).encode("utf-8"),
    # Cyrillic in windows-1251, the charset only in the HTTP header: read as
    # windows-1252 it would be mojibake.
    "privet.html": (
        "<html><head><title>Привет</title></head><body><p>Привет, мир! "
        '<a href="страница.html">Дальше</a></p></body></html>\n'
    ).encode("windows-1251"),
    "chunked-gzip.html": (
        "<html><title>Chunked</title><p>Sent chunked and gzipped. "
        + "Repeated text. " * 40
        + '<a href="https://example.org/x">x</a></p></html>\n'
    ).encode("utf-8"),
    "brotli.html": (
        "<html><title>Brotli</title><p>Café crème, sent as br. "
        + "Encore. " * 30
        + "</p></html>\n"
    ).encode("utf-8"),
    "deflate.html": b"<html><title>Deflate</title><p>Sent with Content-Encoding: deflate.</p></html>\n",
    "resource.html": b"<!doctype html><title>A resource</title><p>Stored as a resource record.\n",
    "untyped.html": b"<!DOCTYPE html><html><title>No type</title><p>No Content-Type: sniffed as HTML.</p></html>\n",
    "xhtml.xhtml": (
        b'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
        b"<head><title>XHTML</title></head><body><p>An XHTML page.</p></body></html>\n"
    ),
    "gone.html": b"<html><title>Not found</title><p>This page is gone. <a href=/>Home</a></p></html>\n",
}

OTHER = {
    "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00",
    "app.js": b"console.log('not a page');\n",
    "notes.txt": b"Just some words, no tags at all.\n",
}


def chunked(data, size):
    out = b""
    for i in range(0, len(data), size):
        piece = data[i : i + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def gzip_bytes(data):
    return gzip.compress(data, mtime=0)


class Archive:
    """Records written with warcio, numbered in order, with a manifest."""

    def __init__(self, gzip_members):
        self.buf = io.BytesIO()
        self.writer = WARCWriter(self.buf, gzip=gzip_members, warc_version="1.1")
        self.n = 0
        self.expect = []

    def _headers(self, extra=None):
        self.n += 1
        headers = {"WARC-Record-ID": record_id(self.n), "WARC-Date": DATE.format(self.n)}
        headers.update(extra or {})
        return headers

    def write(self, record, **expect):
        self.writer.write_record(record)
        expect.setdefault("html", False)
        self.expect.append(expect)

    def response(self, uri, body, content_type, status="200 OK", wire_body=None, extra=(), **expect):
        headers = [("Content-Type", content_type)] if content_type else []
        headers += list(extra)
        wire = body if wire_body is None else wire_body
        headers.append(("Content-Length", str(len(wire))))
        http = StatusAndHeaders(status, headers, protocol="HTTP/1.1")
        record = self.writer.create_warc_record(
            uri,
            "response",
            payload=io.BytesIO(wire),
            length=len(wire),
            http_headers=http,
            warc_headers_dict=self._headers(),
        )
        self.write(record, **expect)


def good_archive(gzip_members):
    a = Archive(gzip_members)
    info = a.writer.create_warcinfo_record("fixture.warc", {"software": "warcio (tools/gen_warc_fixtures.py)"})
    info.rec_headers.replace_header("WARC-Record-ID", record_id(1))
    info.rec_headers.replace_header("WARC-Date", DATE.format(1))
    a.n = 1
    a.write(info)

    request = StatusAndHeaders("GET /menu/today.html HTTP/1.1", [("Host", "example.com")], is_http_request=True)
    a.write(
        a.writer.create_warc_record(
            "https://example.com/menu/today.html",
            "request",
            payload=io.BytesIO(b""),
            length=0,
            http_headers=request,
            warc_headers_dict=a._headers(),
        )
    )
    a.response("https://example.com/menu/today.html", PAGES["menu.html"], "text/html; charset=utf-8",
               html=True, page="menu.html", charset="utf-8")
    meta = a.writer.create_warc_record(
        "https://example.com/menu/today.html",
        "metadata",
        payload=io.BytesIO(b"outlinks: 2\n"),
        length=12,
        warc_content_type="application/warc-fields",
        warc_headers_dict=a._headers(),
    )
    a.write(meta)
    a.response("http://example.ru/privet", PAGES["privet.html"], "text/html; charset=windows-1251",
               html=True, page="privet.html", charset="windows-1251")
    page = PAGES["chunked-gzip.html"]
    a.response("https://example.com/chunked", page, "text/html",
               wire_body=chunked(gzip_bytes(page), 100),
               extra=[("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")],
               html=True, page="chunked-gzip.html")
    page = PAGES["brotli.html"]
    a.response("https://example.com/brotli", page, "text/html; charset=UTF-8",
               wire_body=brotli.compress(page), extra=[("Content-Encoding", "br")],
               html=True, page="brotli.html", charset="UTF-8")
    page = PAGES["deflate.html"]
    a.response("https://example.com/deflate", page, "text/html",
               wire_body=zlib.compress(page), extra=[("Content-Encoding", "deflate")],
               html=True, page="deflate.html")
    a.response("https://example.com/logo.png", OTHER["logo.png"], "image/png")
    a.response("https://example.com/app.js", OTHER["app.js"], "application/javascript")
    a.write(
        a.writer.create_warc_record(
            "https://example.com/resource.html",
            "resource",
            payload=io.BytesIO(PAGES["resource.html"]),
            length=len(PAGES["resource.html"]),
            warc_content_type="text/html",
            warc_headers_dict=a._headers(),
        ),
        html=True,
        page="resource.html",
    )
    a.response("https://example.com/untyped", PAGES["untyped.html"], None,
               html=True, page="untyped.html")
    a.response("https://example.com/notes", OTHER["notes.txt"], None)
    revisit = a.writer.create_revisit_record(
        "https://example.com/menu/today.html",
        digest="sha1:" + "A" * 32,
        refers_to_uri="https://example.com/menu/today.html",
        refers_to_date=DATE.format(3),
        warc_headers_dict=a._headers(),
    )
    a.write(revisit)
    a.response("https://example.com/page.xhtml", PAGES["xhtml.xhtml"], "application/xhtml+xml",
               html=True, page="xhtml.xhtml")
    a.response("https://example.com/gone", PAGES["gone.html"], "text/html", status="404 Not Found",
               html=True, page="gone.html")
    dns = b"20240501120000\nexample.com.\t300\tIN\tA\t93.184.216.34\n"
    a.write(
        a.writer.create_warc_record(
            "dns:example.com",
            "response",
            payload=io.BytesIO(dns),
            length=len(dns),
            warc_content_type="text/dns",
            warc_headers_dict=a._headers(),
        )
    )
    return a.buf.getvalue(), a.expect


def read_back(data):
    """What warcio reads from an archive: one dict per record."""
    out = []
    it = ArchiveIterator(io.BytesIO(data), arc2warc=False)
    for record in it:
        entry = {
            "type": record.rec_type,
            "uri": record.rec_headers.get_header("WARC-Target-URI"),
            "id": record.rec_headers.get_header("WARC-Record-ID"),
            "date": record.rec_headers.get_header("WARC-Date"),
            "status": None,
        }
        if record.http_headers and record.rec_type == "response":
            code = record.http_headers.get_statuscode()
            entry["status"] = int(code) if code and code.isdigit() else None
        coding = record.http_headers.get_header("Content-Encoding") if record.http_headers else None
        if coding == "br":
            # warcio's own brotli path fails with brotli >= 1.2 (no
            # `unused_data`): take its raw payload and decode here.
            payload = brotli.decompress(record.raw_stream.read())
        else:
            payload = record.content_stream().read()
        entry["payload_sha1"] = hashlib.sha1(payload).hexdigest()
        entry["offset"] = it.get_record_offset()
        out.append(entry)
    return out


def block(data, offset):
    """The content block of the plain record at `offset`."""
    end = data.index(b"\r\n\r\n", offset)
    length = int(data[offset:end].split(b"Content-Length: ")[1].split(b"\r\n")[0])
    return data[end + 4 : end + 4 + length]


def members(gz, offsets):
    """The gzip members of a member-per-record archive, by record offsets."""
    bounds = offsets + [len(gz)]
    return [gz[bounds[i] : bounds[i + 1]] for i in range(len(offsets))]


def set_header(data, offset, name, value):
    """Replaces (or with value None, removes) a header line of the plain
    record at `offset`."""
    end = data.index(b"\r\n\r\n", offset)
    head = data[offset:end].split(b"\r\n")
    lines = []
    for line in head:
        if line.lower().startswith(name.lower() + b":"):
            if value is not None:
                lines.append(name + b": " + value)
        else:
            lines.append(line)
    return data[:offset] + b"\r\n".join(lines) + data[end:]


def bad_records_archive():
    """Records that are framed right but wrong inside: a response without
    WARC-Target-URI, one whose content is not HTTP, one whose HTTP header
    block has no blank line; good pages around each."""
    a = Archive(False)

    def good(k):
        page = b"<html><title>Good %d</title><p>Page %d.</p></html>\n" % (k, k)
        a.response("https://example.com/good/%d" % k, page, "text/html", html=True)

    def flipped(uri, block):
        # warcio would parse (and fix) the HTTP of a response record: write
        # a resource, then make it a response (both words have 8 letters).
        a.write(
            a.writer.create_warc_record(
                uri, "resource", payload=io.BytesIO(block), length=len(block),
                warc_content_type="application/http; msgtype=response",
                warc_headers_dict=a._headers(),
            ),
            error=True,
        )

    good(1)
    a.response("https://example.com/no-uri", b"<p>no uri</p>\n", "text/html", error=True)
    good(2)
    flipped("https://example.com/not-http", b"Hello, this is not an HTTP response.\n")
    good(3)
    flipped("https://example.com/no-blank-line", b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
    good(4)
    data = a.buf.getvalue().replace(b"WARC-Type: resource", b"WARC-Type: response")
    # (warcio cannot read a response without a target URI: read it first.)
    records = read_back(data)
    edited = set_header(data, records[1]["offset"], b"WARC-Target-URI", None)
    records[1]["uri"] = None
    for record in records[2:]:
        record["offset"] -= len(data) - len(edited)
    data = edited
    return data, [dict(r, **e) for r, e in zip(records, a.expect)]


def fastwarc_check(python, path, expected):
    """Reads `path` with FastWARC (in another Python) and compares records."""
    script = r"""
import hashlib, json, sys
from fastwarc.warc import ArchiveIterator, WarcRecordType
out = []
for r in ArchiveIterator(open(sys.argv[1], 'rb'), record_types=WarcRecordType.any_type, parse_http=False):
    h = r.headers
    out.append({"type": h.get("WARC-Type"), "uri": h.get("WARC-Target-URI"), "id": r.record_id,
                "block_sha1": hashlib.sha1(r.reader.read()).hexdigest()})
print(json.dumps(out))
"""
    found = json.loads(subprocess.check_output([python, "-c", script, path]))
    want = [{k: e[k] for k in ("type", "uri", "id", "block_sha1")} for e in expected]
    if found != want:
        sys.exit("fastwarc disagrees on %s:\n%s\n%s" % (path, found, want))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with tests/warc/, write nothing")
    ap.add_argument("--fastwarc", metavar="PYTHON", help="a Python with FastWARC, to cross-check")
    args = ap.parse_args()

    files = {}
    plain, expect = good_archive(False)
    per_record, _ = good_archive(True)
    files["good.warc"] = plain
    files["good.warc.gz"] = per_record
    files["good-whole.warc.gz"] = gzip_bytes(plain)

    plain_records = read_back(plain)
    for record in plain_records:
        record["block_sha1"] = hashlib.sha1(block(plain, record["offset"])).hexdigest()
    gz_records = read_back(per_record)
    # (warcio refuses a file gzipped as one member, which it cannot seek
    # in; FastWARC reads it below.)
    for a, b in zip(plain_records, gz_records):
        assert dict(a, offset=None, block_sha1=None) == dict(b, offset=None, block_sha1=None)
    # warcio decodes the page bytes itself: they must be the pages we wrote.
    for record, e in zip(plain_records, expect):
        if "page" in e:
            assert record["payload_sha1"] == hashlib.sha1(PAGES[e["page"]]).hexdigest(), e["page"]

    # Damaged archives, from the good ones.
    offsets = [r["offset"] for r in plain_records]
    gz_offsets = [r["offset"] for r in gz_records]
    parts = members(per_record, gz_offsets)
    # Record 4's member cut in half, and the last member too.
    cut = list(parts)
    cut[3] = cut[3][: len(cut[3]) // 2]
    cut[-1] = cut[-1][: len(cut[-1]) // 2]
    files["bad-truncated-gzip.warc.gz"] = b"".join(cut)
    # Bytes that are not gzip between the members of records 2 and 3.
    files["bad-gzip-garbage.warc.gz"] = b"".join(parts[:2]) + b"not gzip at all\n" + b"".join(parts[2:])
    # The whole-file gzip cut two thirds in.
    whole = files["good-whole.warc.gz"]
    files["bad-whole-truncated.warc.gz"] = whole[: len(whole) * 2 // 3]
    # Record 5's Content-Length running past the end of the archive.
    files["bad-past-end.warc"] = set_header(plain, offsets[4], b"Content-Length", str(len(plain)).encode())
    # Record 5's Content-Length 10 bytes short.
    length = len(block(plain, offsets[4]))
    files["bad-short-length.warc"] = set_header(plain, offsets[4], b"Content-Length", str(length - 10).encode())
    # Garbage between records 2 and 3.
    files["bad-garbage.warc"] = plain[: offsets[2]] + b"this is not a WARC record\r\n" * 3 + plain[offsets[2] :]
    bad_records, bad_manifest = bad_records_archive()
    files["bad-records.warc"] = bad_records

    manifest = {
        "generator": "tools/gen_warc_fixtures.py (warcio)",
        "records": [dict(r, **{k: v for k, v in e.items()}) for r, e in zip(plain_records, expect)],
        "gzip_offsets": gz_offsets,
        "bad_records": bad_manifest,
        "member_count": len(parts),
    }
    for rec in manifest["records"] + manifest["bad_records"]:
        rec.pop("payload_sha1")
        rec.pop("block_sha1", None)
    files["manifest.json"] = (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    for name, data in PAGES.items():
        files["pages/" + name] = data

    if args.fastwarc:
        for name in ("good.warc", "good.warc.gz", "good-whole.warc.gz"):
            tmp = "/tmp/gen_warc_fixture_" + name
            with open(tmp, "wb") as f:
                f.write(files[name])
            fastwarc_check(args.fastwarc, tmp, plain_records)
        print("fastwarc agrees on the good archives")

    stale = []
    for name, data in sorted(files.items()):
        path = os.path.join(OUT, name)
        if args.check:
            if not os.path.exists(path) or open(path, "rb").read() != data:
                stale.append(name)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    if stale:
        sys.exit("tests/warc/ is not what tools/gen_warc_fixtures.py writes: " + ", ".join(stale))
    print("%s %d files in tests/warc/" % ("checked" if args.check else "wrote", len(files)))


if __name__ == "__main__":
    main()
