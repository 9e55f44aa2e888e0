"""WARC archives through the Python API, on the fixtures that warcio wrote
for `tests/warc.rs` (tools/gen_warc_fixtures.py, tests/warc/manifest.json):
the records, their pages, extraction equal to the page as bytes, and the
damaged archives, each reported once with reading going on."""

import gzip
import io
import json
import pickle
import warnings

import pytest

import htmltok
from conftest import WARC_FIXTURES

MANIFEST = json.loads((WARC_FIXTURES / "manifest.json").read_text())
HTML_RECORDS = [r for r in MANIFEST["records"] if r["html"]]
GOOD = ["good.warc", "good.warc.gz", "good-whole.warc.gz"]


def _records(name, **kwargs):
    return htmltok.warc_records(WARC_FIXTURES / name, **kwargs)


@pytest.mark.parametrize("name", GOOD)
def test_html_records_are_the_pages_the_generator_wrote(name):
    records = _records(name)
    pages = list(records)
    assert len(pages) == len(HTML_RECORDS) == 9
    for page, want in zip(pages, HTML_RECORDS):
        assert page.archive == str(WARC_FIXTURES / name)
        assert page.target_uri == want["uri"]
        assert page.record_id == want["id"]
        assert page.date == want["date"]
        assert page.status == want["status"]
        assert page.charset == want.get("charset")
        assert page.kind == want["type"]
        assert page.payload == (WARC_FIXTURES / "pages" / want["page"]).read_bytes()
    if name == "good.warc":
        assert [p.offset for p in pages] == [r["offset"] for r in HTML_RECORDS]
    assert records.counts == {
        "records": 17, "html": 9, "skipped_by_type": 4, "revisits": 1, "requests": 1,
        "warcinfo": 1, "metadata": 1, "other": 0, "errors": 0,
    }
    assert records.errors == []


def test_a_binary_file_object_reads_the_same():
    from_path = [(p.record_id, p.payload) for p in _records("good.warc.gz")]
    with open(WARC_FIXTURES / "good.warc.gz", "rb") as f:
        from_file = [(p.record_id, p.payload) for p in htmltok.warc_records(f)]
    from_bytes = [(p.record_id, p.payload) for p in
                  htmltok.warc_records(io.BytesIO((WARC_FIXTURES / "good.warc.gz").read_bytes()))]
    assert from_path == from_file == from_bytes

    class Greedy:
        """A file object whose read() ignores the size asked for."""

        def __init__(self, data):
            self.data = data
            self.calls = 0

        def read(self, n=-1):
            self.calls += 1
            take = 3 * n + 7 if n > 0 else len(self.data)
            out, self.data = self.data[:take], self.data[take:]
            return out

    greedy = [(p.record_id, p.payload) for p in
              htmltok.warc_records(Greedy((WARC_FIXTURES / "good.warc.gz").read_bytes()))]
    assert greedy == from_path
    with open(WARC_FIXTURES / "good.warc", "r", encoding="latin-1") as f:
        with pytest.raises(TypeError, match="binary mode"):
            htmltok.warc_records(f, on_error="ignore")

    class Failing(io.BytesIO):
        """A stream that breaks partway, as a network stream may."""

        def read(self, n=-1):
            if self.tell() > 3000:
                raise ConnectionResetError("the peer went away")
            return super().read(min(n, 1000) if n > 0 else 1000)

    records = htmltok.warc_records(Failing((WARC_FIXTURES / "good.warc").read_bytes()), on_error="ignore")
    with pytest.raises(ConnectionResetError, match="the peer went away"):
        for _ in records:
            pass


def test_extraction_of_a_record_equals_extraction_of_the_page_as_bytes():
    pages = list(_records("good.warc.gz"))
    for page, want in zip(pages, HTML_RECORDS):
        data = (WARC_FIXTURES / "pages" / want["page"]).read_bytes()
        as_file = htmltok.extract(data, url=want["uri"], transport_encoding=want.get("charset"))
        assert page.text == as_file["text"]
        assert page.links == as_file["links"]
        assert page.metadata == as_file["metadata"]
        assert page.extract() == as_file
        assert page.decode() == htmltok.decode(data, transport_encoding=want.get("charset"))
        assert list(page.tokenize()) == list(htmltok.tokenize(data, transport_encoding=want.get("charset")))
    privet = next(p for p in pages if p.target_uri == "http://example.ru/privet")
    # The charset is only in the HTTP header: it is what makes the text right.
    assert privet.text == "Привет, мир! Дальше"
    assert htmltok.text(privet.payload) != privet.text
    assert privet.links[0]["url"] == "http://example.ru/%D1%81%D1%82%D1%80%D0%B0%D0%BD%D0%B8%D1%86%D0%B0.html"
    for page, want in zip(pages, HTML_RECORDS):
        data = (WARC_FIXTURES / "pages" / want["page"]).read_bytes()
        main = htmltok.extract(data, url=want["uri"], transport_encoding=want.get("charset"), main_content=True)
        assert page.extract(main_content=True) == main
        md = htmltok.extract(data, url=want["uri"], transport_encoding=want.get("charset"), format="markdown")
        assert page.extract(format="markdown") == md
        # memory_limit as htmltok.extract takes it: a cap the page does not
        # reach changes nothing; past one, the error, with what was read.
        assert page.extract(main_content=True, memory_limit=1 << 30) == main
        with pytest.raises(htmltok.MemoryLimitError) as e:
            page.extract(main_content=True, memory_limit=16)
        assert e.value.kind in ("extract", "tokenizer", "meta-scan", "decode")
        assert e.value.partial is None or e.value.partial["main_content"] in ("found", "all_text", "empty")
    menu = pages[0]
    assert [l["url"] for l in menu.links] == ["https://example.com/peas.html", "https://example.com/hours"]
    assert menu.extract(links=False, metadata=False, alt_text=True) == {"text": menu.text, "text_truncated": False}


def test_records_pickle_with_their_payload():
    for page in _records("good.warc"):
        copy = pickle.loads(pickle.dumps(page))
        for field in ("archive", "number", "offset", "kind", "target_uri", "record_id", "date",
                      "truncated", "status", "content_type", "charset", "payload", "text", "links"):
            assert getattr(copy, field) == getattr(page, field), field


def _summaries(name, **kwargs):
    records = _records(name, on_error="ignore", **kwargs)
    pages = [p.record_id for p in records]
    return pages, records.errors, records


def test_truncated_gzip_members_cost_their_record_only():
    pages, errors, records = _summaries("bad-truncated-gzip.warc.gz")
    # Records 4 (metadata) and 17 (dns) are lost, no page with them.
    assert [MANIFEST["records"][i]["type"] for i in (3, 16)] == ["metadata", "response"]
    assert pages == [r["id"] for r in HTML_RECORDS]
    assert [e.number for e in errors] == [4, 17]
    o = MANIFEST["gzip_offsets"][3]
    assert errors[0].offset == o
    assert errors[0].message == (
        f"record 4 (offset {o}): corrupt gzip member (starting at offset {o}): corrupt deflate stream")
    assert str(errors[0]) == f"{WARC_FIXTURES / 'bad-truncated-gzip.warc.gz'}: {errors[0].message}"
    assert records.counts["errors"] == 2


def test_damaged_archives_report_each_problem_once_and_go_on():
    offsets = [r["offset"] for r in MANIFEST["records"]]
    pages, errors, _ = _summaries("bad-garbage.warc")
    assert len(pages) == 9
    assert [e.message for e in errors] == [
        f"record 3 (offset {offsets[2]}): 81 bytes that are not a WARC record (no `WARC/1.` header), skipped"]
    pages, errors, _ = _summaries("bad-gzip-garbage.warc.gz")
    assert len(pages) == 9 and len(errors) == 1 and "16 bytes that are not gzip data" in errors[0].message
    pages, errors, _ = _summaries("bad-past-end.warc")
    assert len(errors) == 1 and errors[0].number == 5
    assert errors[0].message.startswith(
        f"record 5 (offset {offsets[4]}): Content-Length 8498 runs past the end of the archive (")
    pages, errors, _ = _summaries("bad-short-length.warc")
    assert len(errors) == 1 and "the content does not end where Content-Length" in errors[0].message
    pages, errors, _ = _summaries("bad-whole-truncated.warc.gz")
    assert len(pages) >= 3 and len(errors) == 1 and "in the inflated stream" in errors[0].message


def test_records_wrong_inside_are_errors_between_the_pages():
    want = MANIFEST["bad_records"]
    records = _records("bad-records.warc", on_error="ignore")
    assert [p.target_uri for p in records] == [
        "https://example.com/good/1", "https://example.com/good/2",
        "https://example.com/good/3", "https://example.com/good/4"]
    assert [e.message for e in records.errors] == [
        f"record 2 (offset {want[1]['offset']}): no WARC-Target-URI in a response or resource record",
        f"record 4 (offset {want[3]['offset']}): the response record's content is not an HTTP response (no status line)",
        f"record 6 (offset {want[5]['offset']}): HTTP header: the header block has no blank line after it",
    ]
    assert [e.fatal for e in records.errors] == [False] * 3


def test_errors_warn_by_default_and_raise_on_request():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        records = _records("bad-records.warc")
        pages = list(records)
    assert len(pages) == 4
    assert [w.category for w in caught] == [htmltok.ArchiveWarning] * 3
    assert [str(w.message) for w in caught] == [str(e) for e in records.errors]
    records = _records("bad-records.warc", on_error="raise")
    got = []
    while True:
        try:
            page = next(records)
        except StopIteration:
            break
        except htmltok.ArchiveError as e:
            got.append(("error", e.number, e.offset))
            continue
        got.append(("page", page.target_uri))
    offsets = [r["offset"] for r in MANIFEST["bad_records"]]
    assert got == [
        ("page", "https://example.com/good/1"), ("error", 2, offsets[1]),
        ("page", "https://example.com/good/2"), ("error", 4, offsets[3]),
        ("page", "https://example.com/good/3"), ("error", 6, offsets[5]),
        ("page", "https://example.com/good/4"),
    ]
    assert len(records.errors) == 3


def test_records_over_the_size_limit_are_skipped_and_reported():
    records = _records("good.warc", on_error="ignore", max_record_size=500)
    pages = list(records)
    assert len(pages) < 9 and records.errors
    assert all("500" in e.message for e in records.errors)


def test_bad_sources():
    with pytest.raises(FileNotFoundError) as e:
        htmltok.warc_records(WARC_FIXTURES / "no-such.warc")
    assert "no-such.warc" in str(e.value)
    with pytest.raises(TypeError, match="path or a binary file object"):
        htmltok.warc_records(42)
    with pytest.raises(ValueError, match="on_error"):
        htmltok.warc_records(WARC_FIXTURES / "good.warc", on_error="explode")
    # Not an archive at all: reported, never a hang or a crash.
    records = htmltok.warc_records(io.BytesIO(b"<html>not a warc</html>" * 100), on_error="ignore")
    assert list(records) == [] and len(records.errors) == 1
    records = htmltok.warc_records(io.BytesIO(gzip.compress(b"\x00" * 10000)), on_error="ignore")
    assert list(records) == [] and records.errors
