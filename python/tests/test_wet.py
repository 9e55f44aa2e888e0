"""WET files written by `htmltok.write_wet`, read back with two WARC
readers that htmltok had no part in, warcio and FastWARC, record for
record: Common Crawl's layout, digests that verify, and each record's text
equal to `htmltok` text of the same record. On the fixtures (written by
warcio, tools/gen_warc_fixtures.py), the damaged ones, and an archive of
the corpus written here as Common Crawl writes its WARC files."""

import base64
import gzip
import hashlib
import io
import warnings

import pytest
from fastwarc.warc import ArchiveIterator as FastIterator
from fastwarc.warc import WarcRecordType
from warcio.archiveiterator import ArchiveIterator as WarcioIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import htmltok
from conftest import WARC_FIXTURES, corpus_pages

# Common Crawl's order of a conversion record's fields (ia-web-commons'
# WETExtractorOutput); WARC-Identified-Content-Language only when the
# response had one.
CONVERSION_FIELDS = [
    "WARC-Type", "WARC-Target-URI", "WARC-Date", "WARC-Record-ID", "WARC-Refers-To",
    "WARC-Block-Digest", "WARC-Identified-Content-Language", "Content-Type", "Content-Length",
]


def _warcio(path):
    """Every record as (version, type, fields in order, block), by warcio."""
    out = []
    with open(path, "rb") as f:
        for record in WarcioIterator(f):
            out.append((
                record.rec_headers.protocol,
                record.rec_type,
                list(record.rec_headers.headers),
                record.content_stream().read(),
            ))
    return out


def _fastwarc(path):
    """Every record as (type, record id, block, digest verified), by FastWARC."""
    out = []
    with open(path, "rb") as f:
        for record in FastIterator(f, record_types=WarcRecordType.any_type, parse_http=False):
            block = record.reader.read()
            out.append((
                "conversion" if record.record_type == WarcRecordType.conversion
                else "warcinfo" if record.record_type == WarcRecordType.warcinfo else "other",
                record.record_id,
                block,
                hashlib.sha1(block).digest(),
                record.headers.get("WARC-Block-Digest"),
            ))
    return out


def _digest(block):
    return "sha1:" + base64.b32encode(hashlib.sha1(block).digest()).decode()


def _check_wet(wet, archive, counts):
    """`wet`, written from `archive`, read back by both readers."""
    by_warcio = _warcio(wet)
    by_fastwarc = _fastwarc(wet)
    assert len(by_warcio) == len(by_fastwarc) == 1 + counts["conversions"]

    version, kind, fields, block = by_warcio[0]
    assert (version, kind) == ("WARC/1.0", "warcinfo")
    names = [n for n, _ in fields]
    assert names == ["WARC-Type", "WARC-Date", "WARC-Filename", "WARC-Record-ID",
                     "Content-Type", "Content-Length"]
    assert dict(fields)["Content-Type"] == "application/warc-fields"
    assert block.startswith(b"Software-Info: htmltok/" + htmltok.__version__.encode() + b"\r\n")
    assert b"\r\nExtracted-Date: " in block

    pages = {p.record_id: p for p in htmltok.warc_records(archive, on_error="ignore")}
    seen = set()
    for (version, kind, fields, block), fast in zip(by_warcio[1:], by_fastwarc[1:]):
        assert (version, kind) == ("WARC/1.0", "conversion")
        names = [n for n, _ in fields]
        assert names == [n for n in CONVERSION_FIELDS if n in names]
        fields = dict(fields)
        assert int(fields["Content-Length"]) == len(block)
        assert fields["Content-Type"] == "text/plain"
        assert fields["WARC-Block-Digest"] == _digest(block)
        page = pages[fields["WARC-Refers-To"]]
        assert fields["WARC-Target-URI"] == page.target_uri
        assert fields["WARC-Date"] == page.date
        assert block.decode("utf-8") == page.text == htmltok.text(page.payload,
                                                                   transport_encoding=page.charset)
        assert fields["WARC-Record-ID"] not in seen
        seen.add(fields["WARC-Record-ID"])
        # FastWARC reads the same record, and the same digest.
        f_kind, f_id, f_block, f_sha1, f_digest = fast
        assert (f_kind, f_id, f_block) == ("conversion", fields["WARC-Record-ID"], block)
        assert f_digest == fields["WARC-Block-Digest"]
        assert f_digest == "sha1:" + base64.b32encode(f_sha1).decode()
    with open(wet, "rb") as f:
        assert all(r.verify_block_digest() for r in
                   FastIterator(f, record_types=WarcRecordType.conversion, parse_http=False))
    return by_warcio


@pytest.mark.parametrize("name", ["good.warc", "good.warc.gz", "good-whole.warc.gz"])
def test_the_fixtures_wet_reads_back_with_warcio_and_fastwarc(tmp_path, name):
    wet = tmp_path / "good.warc.wet.gz"
    counts = htmltok.write_wet(WARC_FIXTURES / name, wet)
    assert counts["html"] == 9 and counts["errors"] == 0
    assert counts["conversions"] + counts["empty"] + counts["undecodable"] == 9
    assert counts["conversions"] >= 7
    records = _check_wet(wet, WARC_FIXTURES / name, counts)
    assert dict(records[0][2])["WARC-Filename"] == "good.warc.wet.gz"
    # A gzip member per record, as Common Crawl writes them.
    data = wet.read_bytes()
    assert data.count(b"\x1f\x8b\x08") >= len(records)
    assert gzip.decompress(data).count(b"WARC/1.0\r\n") == len(records)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.warc.wet.gz"]


def test_plain_output_and_options(tmp_path):
    wet = tmp_path / "good.warc.wet"
    counts = htmltok.write_wet(WARC_FIXTURES / "good.warc", wet, seed=7, filename="x.wet",
                               alt_text=True)
    data = wet.read_bytes()
    assert data.startswith(b"WARC/1.0\r\nWARC-Type: warcinfo\r\n")
    assert b"WARC-Filename: x.wet\r\n" in data
    again = tmp_path / "again.warc.wet"
    htmltok.write_wet(WARC_FIXTURES / "good.warc", again, seed=7, filename="x.wet", alt_text=True)
    # The seed gives the same record ids; only the extraction date may differ.
    ids = [f for r in _warcio(wet) for f in r[2] if f[0] == "WARC-Record-ID"]
    assert ids == [f for r in _warcio(again) for f in r[2] if f[0] == "WARC-Record-ID"]
    pages = {p.record_id: p for p in htmltok.warc_records(WARC_FIXTURES / "good.warc")}
    for _, kind, fields, block in _warcio(wet)[1:]:
        page = pages[dict(fields)["WARC-Refers-To"]]
        assert block.decode() == page.extract(alt_text=True, links=False, metadata=False)["text"]
    assert counts["conversions"] == len(_warcio(wet)) - 1
    # With main content, each record holds the page's main content.
    main = tmp_path / "mc.wet"
    htmltok.write_wet(WARC_FIXTURES / "good.warc", main, main_content=True)
    records = _warcio(main)[1:]
    assert records
    for _, kind, fields, block in records:
        page = pages[dict(fields)["WARC-Refers-To"]]
        assert block.decode() == page.extract(main_content=True, links=False, metadata=False)["text"]
    # With Markdown, each record holds the page's Markdown, said to be so.
    md = tmp_path / "md.wet"
    htmltok.write_wet(WARC_FIXTURES / "good.warc", md, format="markdown")
    records = _warcio(md)[1:]
    assert records
    for _, kind, fields, block in records:
        assert dict(fields)["Content-Type"] == "text/markdown"
        page = pages[dict(fields)["WARC-Refers-To"]]
        assert block.decode() == page.extract(format="markdown", links=False, metadata=False)["text"]


def test_from_a_records_iterator_and_a_file_object(tmp_path):
    from_path = tmp_path / "a.warc.wet.gz"
    htmltok.write_wet(WARC_FIXTURES / "good.warc.gz", from_path, seed=1)
    records = htmltok.warc_records(WARC_FIXTURES / "good.warc.gz")
    from_iterator = tmp_path / "b.warc.wet.gz"
    counts = htmltok.write_wet(records, from_iterator, seed=1, filename="a.warc.wet.gz")
    assert counts["html"] == records.counts["html"] == 9
    with open(WARC_FIXTURES / "good.warc.gz", "rb") as f:
        from_file = tmp_path / "c.warc.wet.gz"
        htmltok.write_wet(io.BytesIO(f.read()), from_file, seed=1, filename="a.warc.wet.gz")

    def blocks(path):
        return [(r[1], r[3]) for r in _warcio(path)[1:]]

    assert blocks(from_path) == blocks(from_iterator) == blocks(from_file)


def test_damaged_records_are_reported_and_skipped(tmp_path):
    for name in ["bad-records.warc", "bad-truncated-gzip.warc.gz", "bad-past-end.warc"]:
        wet = tmp_path / (name + ".wet")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            counts = htmltok.write_wet(WARC_FIXTURES / name, wet)
        archive_warnings = [w for w in caught if issubclass(w.category, htmltok.ArchiveWarning)]
        assert counts["errors"] >= 1
        assert len(archive_warnings) == counts["errors"], name
        # What was readable is there, and reads back.
        _check_wet(wet, WARC_FIXTURES / name, counts)


def test_an_interrupted_run_leaves_no_file(tmp_path):
    wet = tmp_path / "bad.warc.wet.gz"
    with pytest.raises(htmltok.ArchiveError):
        htmltok.write_wet(WARC_FIXTURES / "bad-records.warc", wet, on_error="raise")
    assert list(tmp_path.iterdir()) == []

    class Failing(io.BytesIO):
        def read(self, size=-1):
            if self.tell() > 2000:
                raise RuntimeError("the network went away")
            return super().read(min(size, 500))

    with pytest.raises(RuntimeError, match="network"):
        htmltok.write_wet(Failing((WARC_FIXTURES / "good.warc").read_bytes()), wet)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(FileNotFoundError):
        htmltok.write_wet(WARC_FIXTURES / "good.warc", tmp_path / "no" / "such.wet")


def test_a_common_crawl_style_archive_of_the_corpus(tmp_path):
    """The corpus pages as Common Crawl archives them (warcinfo with
    isPartOf/operator/description, request, response with a language,
    metadata, and a non-HTML response), through write_wet and back."""
    archive = tmp_path / "CC-MAIN-corpus.warc.gz"
    with open(archive, "wb") as f:
        writer = WARCWriter(f, gzip=True)
        writer.write_record(writer.create_warcinfo_record("CC-MAIN-corpus.warc.gz", {
            "software": "warcio", "isPartOf": "CC-MAIN-2024-10",
            "operator": "Common Crawl Admin (info@commoncrawl.org)",
            "description": "Wide crawl of the web", "format": "WARC File Format 1.1",
        }))
        for i, page in enumerate(corpus_pages()):
            uri = f"https://example.com/{page.stem}"
            writer.write_record(writer.create_warc_record(
                uri, "request", payload=io.BytesIO(b"GET / HTTP/1.1\r\n\r\n")))
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")],
                                    protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                uri, "response", payload=io.BytesIO(page.read_bytes()), http_headers=http,
                warc_headers_dict={"WARC-Identified-Content-Language": "eng"} if i % 2 else {}))
        http = StatusAndHeaders("200 OK", [("Content-Type", "image/png")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(
            "https://example.com/a.png", "response", payload=io.BytesIO(b"\x89PNG\r\n"),
            http_headers=http))
    wet = tmp_path / "CC-MAIN-corpus.warc.wet.gz"
    counts = htmltok.write_wet(archive, wet)
    n = len(corpus_pages())
    assert (counts["html"], counts["conversions"], counts["requests"]) == (n, n, n)
    assert counts["skipped_by_type"] == 1 and counts["errors"] == 0
    records = _check_wet(wet, archive, counts)
    info = records[0][3].decode()
    assert "\r\nisPartOf: CC-MAIN-2024-10\r\n" in info
    assert "\r\noperator: Common Crawl Admin (info@commoncrawl.org)\r\n" in info
    assert "\r\ndescription: Wide crawl of the web\r\n" in info
    assert info.endswith("\r\n\r\n")
    languages = [dict(r[2]).get("WARC-Identified-Content-Language") for r in records[1:]]
    assert languages == ["eng" if i % 2 else None for i in range(n)]
