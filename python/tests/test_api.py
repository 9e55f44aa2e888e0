"""The package's promises beyond the suites: tokens and their fields,
bad arguments, memory caps, threads, pickling, odd input."""

import concurrent.futures
import pickle

import pytest

import htmltok
from conftest import corpus_pages


def test_token_fields():
    html = '<!DOCTYPE html><p id=x class="a b" hidden>Fish &amp; chips<br/><!--c--></p>'
    tokens = list(htmltok.tokenize(html))
    assert [t.kind for t in tokens] == ["doctype", "start_tag", "text", "start_tag", "comment", "end_tag"]
    doctype, p, text, br, comment, end = tokens
    assert (doctype.name, doctype.public_id, doctype.system_id, doctype.force_quirks) == ("html", None, None, False)
    assert p.name == "p" and p.attr("class") == "a b" and p.attr("hidden") == "" and p.attr("nope") is None
    assert [(a.name, a.value, a.value_span) for a in p.attributes] == [
        ("id", "x", (21, 22)), ("class", "a b", (30, 33)), ("hidden", "", None)]
    assert html.encode()[slice(*p.attributes[1].name_span)] == b"class"
    assert (text.data, text.span) == ("Fish & chips", (42, 58))
    assert br.self_closing and br.attributes == ()
    assert comment.data == "c" and end.name == "p"
    assert html.encode()[slice(*p.span)] == b'<p id=x class="a b" hidden>'
    assert repr(p).startswith('Token("start_tag", "p", (Attribute("id", "x"),')


def test_spans_are_utf8_byte_offsets():
    html = "<p>é€😀</p><b>"
    tokens = list(htmltok.tokenize(html))
    assert tokens[1].span == (3, 3 + 2 + 3 + 4)
    assert html.encode()[slice(*tokens[3].span)] == b"<b>"


def test_errors_have_codes_offsets_lines_and_columns():
    tokens = htmltok.tokenize("<p>\n<div class=a class=b>\n&nosuch;</div x>", errors=True)
    list(tokens)
    assert [(e.code, e.line, e.column) for e in tokens.errors] == [
        ("duplicate-attribute", 2, 19),
        ("unknown-named-character-reference", 3, 8),
        ("end-tag-with-attributes", 3, 16),
    ]
    assert tokens.errors[0].offset == 22
    # Off by default, and then empty.
    quiet = htmltok.tokenize("<p a a>")
    list(quiet)
    assert quiet.errors == []


def test_errors_across_chunk_boundaries_are_all_there_and_placed():
    # 100,000 errors over three 256 KiB chunks, taken out of the stream
    # after each chunk.
    page = "<a b b>" * 100_000
    tokens = htmltok.tokenize(page, errors=True)
    assert len(list(tokens)) == 100_000
    first = tokens.errors[0].offset
    assert [e.offset for e in tokens.errors] == [first + 7 * i for i in range(100_000)]
    assert {(e.code, e.line) for e in tokens.errors} == {("duplicate-attribute", 1)}
    assert tokens.errors[-1].column == first + 7 * 99_999 + 1


def test_values_hash_and_print_as_python():
    tokens = htmltok.tokenize("<!DOCTYPE html><a b=1 b=2>x", errors=True)
    doctype, a, text = list(tokens)
    assert repr(doctype) == 'Token("doctype", "html", span=(0, 15))'
    assert repr(text) == 'Token("text", "x", span=(26, 27))'
    assert len({*a.attributes, *a.attributes}) == 2
    assert len(set(tokens.errors)) == 1
    assert hash(htmltok.detect_encoding(b"<p>")) == hash(htmltok.detect_encoding(b"<p>"))


def test_auto_switch_and_tree_builder_control():
    html = "<script>a<b</script><title>&amp;</title>"
    auto = [(t.kind, t.data) for t in htmltok.tokenize(html) if t.kind == "text"]
    assert auto == [("text", "a<b"), ("text", "&")]
    manual = [t.kind for t in htmltok.tokenize(html, auto_switch=False)]
    assert manual.count("start_tag") == 3  # <script>, <b, <title>
    raw = list(htmltok.tokenize("x</style>y", auto_switch=False, state="rawtext", last_start_tag="style"))
    assert [t.kind for t in raw] == ["text", "end_tag", "text"]
    for name in ["data", "RCDATA", "RAWTEXT state", "script_data", "Script data state", "plaintext",
                 "CDATA section state", "cdata-section"]:
        list(htmltok.tokenize("x", auto_switch=False, state=name))
    # Exact switching follows the elements open outside <svg>: </div> closes it.
    cdata = "<div><svg></div><![CDATA[x]]>"
    assert [t.kind for t in htmltok.tokenize(cdata)][-1] == "text"
    assert [t.kind for t in htmltok.tokenize(cdata, exact_switching=True)][-1] == "comment"
    # Scripting off: <noscript> content is markup.
    assert [t.name for t in htmltok.tokenize("<noscript><p>x", scripting=False) if t.kind == "start_tag"] == [
        "noscript", "p"]


def test_bytes_input_and_its_encoding():
    tokens = htmltok.tokenize(b"<meta charset=windows-1251><p>\xcf\xf0\xe8\xe2\xe5\xf2")
    assert [t.data for t in tokens if t.kind == "text"] == ["Привет"]
    assert tokens.encoding == htmltok.DetectedEncoding("windows-1251", "certain", "prescan", False)
    assert htmltok.tokenize("<p>").encoding is None
    # Invalid bytes become U+FFFD, as the Encoding Standard decodes them.
    assert [t.data for t in htmltok.tokenize(b"<p>\xff\xfe", encoding="utf-8") if t.kind == "text"] == ["\ufffd\ufffd"]


def test_bad_arguments_are_clear_errors():
    with pytest.raises(TypeError, match="str or bytes, not int"):
        htmltok.tokenize(42)
    with pytest.raises(TypeError, match="str or bytes, not list"):
        htmltok.text(["<p>"])
    with pytest.raises(TypeError):
        htmltok.tokenize("<p>", errors=True, nonsense=1)
    with pytest.raises(ValueError, match="unknown state"):
        htmltok.tokenize("<p>", state="nowhere")
    with pytest.raises(ValueError, match="unknown character encoding"):
        htmltok.text(b"<p>", encoding="klingon")
    with pytest.raises(ValueError, match="apply to bytes only"):
        htmltok.text("<p>", encoding="utf-8")
    with pytest.raises(ValueError, match="not an absolute URL"):
        htmltok.links("<a href=x>", url="not a url")
    with pytest.raises(TypeError, match="takes bytes"):
        htmltok.detect_encoding("<p>")
    with pytest.raises(OverflowError):
        htmltok.text("<p>", text_limit=-1)
    with pytest.raises(ValueError, match="kind must be one of"):
        htmltok.Token("tag")


def test_memory_limits_raise_with_limit_needed_and_offset():
    # A comment with CRLFs is normalized, so it is built in the arena.
    page = "<p>" + "x" * 100 + "<!--" + "c\r\n" * 5000 + "-->" + "<p>after"
    tokens = htmltok.tokenize(page, memory_limit=4096)
    got = []
    with pytest.raises(htmltok.MemoryLimitError) as e:
        for t in tokens:
            got.append(t)
    assert isinstance(e.value, MemoryError)
    assert e.value.limit == 4096 and e.value.needed > 4096
    assert e.value.kind == "tokenizer"
    assert 103 < e.value.offset < len(page)
    assert "memory limit of 4096 bytes exceeded at byte" in str(e.value)
    # The tokens finished before it were yielded, and the text before the
    # comment, finished too though the tokenizer still held it.
    assert [t.kind for t in got] == ["start_tag", "text"]
    assert got[1].data == "x" * 100 and got[1].span == (3, 103)
    # Past the error the iterator is exhausted.
    assert list(tokens) == []
    # Decoding a page bigger than the cap.
    big = b"<meta charset=windows-1252>" + b"\xe9" * 10_000
    with pytest.raises(htmltok.MemoryLimitError) as e:
        htmltok.text(big, memory_limit=1000)
    assert e.value.limit == 1000 and e.value.needed > 1000
    assert "memory limit" in str(e.value)
    # Decoding refuses the whole page: there is no offset.
    assert e.value.offset is None
    assert e.value.kind == "decode"
    assert str(e.value) == (
        f"memory limit of 1000 bytes exceeded: {e.value.needed} bytes needed for "
        "the text decoded from windows-1252 to UTF-8"
    )
    # Under the cap, nothing changes.
    assert htmltok.text(page, memory_limit=1 << 20) == htmltok.text(page)


def test_memory_limit_error_says_what_ran_out():
    # The tokenizer's own buffers: a text run of decoded references.
    page = "<p>" + "&amp;" * 5000
    with pytest.raises(htmltok.MemoryLimitError) as e:
        list(htmltok.tokenize(page, memory_limit=4096))
    assert e.value.kind == "tokenizer"
    assert "the tokenizer's arena, buffers and errors" in str(e.value)
    # Decoding the page to UTF-8.
    with pytest.raises(htmltok.MemoryLimitError) as e:
        htmltok.text(b"\xe9" * 10_000, encoding="windows-1252", memory_limit=1000)
    assert e.value.kind == "decode"
    # The scan for a <meta> that changes the encoding runs under the same
    # cap: ASCII bytes need no decoded copy, the scan's text run does.
    page = b"<p>" + b"&amp;" * 5000 + b"<meta charset=utf-8>"
    with pytest.raises(htmltok.MemoryLimitError) as e:
        htmltok.text(page, memory_limit=4096)
    assert e.value.kind == "meta-scan"
    assert e.value.limit == 4096 and e.value.needed > 4096


def test_lone_surrogates_become_replacement_characters():
    tokens = list(htmltok.tokenize("<p>a\ud800b</p>"))
    assert tokens[1].data == "a\ufffdb"
    assert tokens[2].span == (8, 12)  # U+FFFD is as long in UTF-8 as the surrogate
    assert htmltok.text("a\udfffb") == "a\ufffdb"


def test_odd_inputs_never_crash():
    for html in ["", "<", "</", "<!", "&", "\0", "\r\n\r", "<a " * 1000, "<!--" * 1000, b"\xff" * 100,
                 "<svg><![CDATA[x", "<plaintext>" + "<" * 100]:
        tokens = htmltok.tokenize(html, errors=True)
        list(tokens)
        tokens.errors
        htmltok.extract(html, offsets=True)


def test_everything_pickles():
    tokens = htmltok.tokenize('<!DOCTYPE x PUBLIC "p" "s"><a href=/x b b>t<!--c-->', errors=True)
    items = list(tokens) + tokens.errors + [htmltok.detect_encoding(b"<p>")]
    again = pickle.loads(pickle.dumps(items))
    assert again == items
    assert [type(x) for x in again] == [type(x) for x in items]
    found = htmltok.extract(b"<a href=/x>x</a>", url="https://e.com/", offsets=True)
    assert pickle.loads(pickle.dumps(found)) == found


def test_threads_get_the_same_results():
    pages = [p.read_bytes() for p in corpus_pages()]
    want = [htmltok.extract(p, url="https://example.com/") for p in pages]

    def work(i):
        out = []
        for p in pages[i % len(pages):] + pages[: i % len(pages)]:
            out.append(htmltok.extract(p, url="https://example.com/"))
        return out

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, range(4)))
    for i, got in enumerate(results):
        rotated = want[i % len(pages):] + want[: i % len(pages)]
        assert got == rotated

    def tokens(p):
        return [(t.kind, t.span) for t in htmltok.tokenize(p)]

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert list(pool.map(tokens, pages * 2)) == [tokens(p) for p in pages * 2]


def test_long_pages_are_tokenized_a_chunk_at_a_time_with_the_same_tokens():
    # Text runs and a comment that cross the 256 KiB chunk boundaries.
    page = ("<p>" + "word " * 70_000 + "<!--" + "c" * 300_000 + "--><b>é" * 3) * 2
    tokens = list(htmltok.tokenize(page))
    assert sum(t.kind == "comment" for t in tokens) == 2
    spans = [t.span for t in tokens]
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert spans[-1][1] == len(page.encode())
    assert htmltok.text(page).count("word") == 140_000
