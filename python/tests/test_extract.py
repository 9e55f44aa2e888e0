"""Text, links and metadata through the Python API: hand-written pages for
the rules (as `tests/extract.rs` states them), the options, and every
corpus page against the `htmltok` command line, which calls the same
library: the binding must neither lose nor change anything."""

import json
import os
import pathlib
import re
import subprocess

import pytest

import htmltok
from conftest import REPO, corpus_pages

PAGE = """<html lang=en><head><title>Fish &amp; chips</title>
  <meta name=description content="The best in town">
  <script>var x = "not text";</script></head>
  <body><h1>Menu</h1><p>Cod,   chips
  and <a href="../peas.html" rel=nofollow>mushy <b>peas</b></a>.</p>"""


def test_one_pass_gives_text_links_and_metadata():
    found = htmltok.extract(PAGE, url="https://example.com/menu/today.html")
    assert found["text"] == "Menu\nCod, chips and mushy peas."
    assert found["text_truncated"] is False
    [link] = found["links"]
    assert link == {
        "tag": "a",
        "attr": "href",
        "url": "https://example.com/peas.html",
        "raw": "../peas.html",
        "error": None,
        "span": link["span"],
        "rel": ["nofollow"],
        "hreflang": None,
        "anchor_text": "mushy peas",
        "in_main_content": False,
    }
    assert PAGE.encode()[slice(*link["span"])] == b"../peas.html"
    meta = found["metadata"]
    assert (meta["title"], meta["lang"], meta["description"]) == ("Fish & chips", "en", "The best in town")
    assert meta["meta"] == [{"key": "name", "value": "description", "content": "The best in town"}]
    # The single-purpose functions give the same parts.
    assert htmltok.text(PAGE) == found["text"]
    assert htmltok.links(PAGE, url="https://example.com/menu/today.html") == found["links"]
    assert htmltok.metadata(PAGE) == meta
    # Only what was asked for.
    assert set(htmltok.extract(PAGE, links=False, metadata=False)) == {"text", "text_truncated"}
    assert set(htmltok.extract(PAGE, text=False)) == {"links", "metadata"}


def test_visible_text_rules():
    cases = [
        ("<p>one<p>two<br>three", "one\ntwo\nthree"),
        ("<pre>a\n  b<p>c\nd</p>e</pre>f\ng", "a\nb\nc\nd\ne\nf g"),
        ("<p>a\nb</p><pre>\nfn main() {\n    x\n}</pre>c\nd", "a b\nfn main() {\nx\n}\nc d"),
        ("<listing>a\nb</listing><xmp>c\n<p>d</xmp>", "a\nb\nc\n<p>d"),
        ("<div>a<div>b</span></div></div></div>c</p>d", "a\nb\nc\nd"),
        ("</script>a</style>b</title>c", "abc"),
        ('a<b c="d', "a"),
        ("<style>p{}</style><template>t</template><script>s</script>shown", "shown"),
        ("<noscript>no</noscript>yes", "yes"),
        ("<p hidden>secret</p>open", "open"),
        ("a<img alt=cat>b", "ab"),
        ("<ul><li>one<li>two</ul>", "one\ntwo"),
        ("x &lt; y &amp;&amp; 1&nbsp;000", "x < y && 1 000"),
        ("<title>not body</title>body", "body"),
        ("<p>unclosed <b>bold <i>italic", "unclosed bold italic"),
        ("</div></p>stray end tags", "stray end tags"),
    ]
    for html, want in cases:
        assert htmltok.text(html) == want, html


def test_text_options():
    html = "A<img alt=cat><span hidden>secret</span>sat<noscript>ns</noscript>"
    assert htmltok.text(html) == "Asat"
    assert htmltok.text(html, alt_text=True) == "A cat sat"
    assert htmltok.text(html, show_hidden=True) == "Asecretsat"
    assert htmltok.text(html, scripting=False) == "Asatns"
    found = htmltok.extract(html, text_limit=3, links=False, metadata=False)
    assert (found["text"], found["text_truncated"]) == ("Asa", True)
    # A cut falls on a character boundary.
    assert htmltok.text("ééé", text_limit=3) == "é"


def test_links_resolve_against_url_and_base():
    html = (
        '<a href="x?a=1&amp;b" rel="nofollow UGC" hreflang=de>one <b>two</b></a>'
        '<img srcset="i.png 1x, j.png 2x"><base href="/base/"><a href=../y>y</a>'
        '<a href="http://exa mple.com/">bad</a><a href="javascript:void(0)">js</a>'
    )
    links = htmltok.links(html, url="https://example.com/dir/page.html")
    got = [(l["tag"], l["attr"], l["url"], l["rel"], l["hreflang"], l["anchor_text"], l["error"] is None) for l in links]
    assert got == [
        ("a", "href", "https://example.com/base/x?a=1&b", ["nofollow", "ugc"], "de", "one two", True),
        ("img", "srcset", "https://example.com/base/i.png", [], None, None, True),
        ("img", "srcset", "https://example.com/base/j.png", [], None, None, True),
        ("base", "href", "https://example.com/base/", [], None, None, True),
        ("a", "href", "https://example.com/y", [], None, "y", True),
        ("a", "href", "http://exa mple.com/", [], None, "bad", False),
        ("a", "href", "javascript:void(0)", [], None, "js", True),
    ]
    # Without a page URL, relative links stay as written.
    assert htmltok.links('<a href="../x">x</a>')[0]["url"] == "../x"


def test_metadata_fields():
    html = """<!DOCTYPE html><html lang=en-GB><head>
        <meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">
        <meta name=keywords content="fish, chips ,peas"><meta name=robots content="noindex, nofollow">
        <link rel=canonical href=/canon><link rel=alternate hreflang=de href=/de>
        <meta http-equiv=refresh content="5; url=/next">
        <meta property=og:title content=OG><meta name=twitter:card content=summary>
        <script type="application/ld+json">{"@type": "Thing"}</script>"""
    meta = htmltok.metadata(html, url="https://example.com/a/b")
    assert meta["lang"] == "en-GB"
    assert meta["charset"] == "iso-8859-1"
    assert meta["keywords"] == ["fish", "chips", "peas"]
    assert meta["robots"] == ["noindex", "nofollow"]
    assert meta["canonical"] == "https://example.com/canon"
    assert meta["alternates"] == [{"href": "https://example.com/de", "hreflang": "de", "type": None}]
    assert meta["refresh"] == {"seconds": 5.0, "url": "https://example.com/next"}
    assert meta["open_graph"] == [{"property": "og:title", "content": "OG"}]
    assert meta["twitter"] == [{"property": "twitter:card", "content": "summary"}]
    assert meta["json_ld"] == ['{"@type": "Thing"}']


def test_bytes_are_decoded_as_a_browser_decodes_them():
    page = b"<meta charset=windows-1251><p>\xcf\xf0\xe8\xe2\xe5\xf2"
    assert htmltok.text(page) == "Привет"
    # The HTTP charset wins over <meta>; an override over both.
    assert htmltok.text(b"<meta charset=utf-8><p>caf\xe9", transport_encoding="latin1") == "café"
    assert htmltok.text(b"<p>caf\xc3\xa9", encoding="utf-8") == "café"
    assert htmltok.text(bytearray(b"<p>x")) == "x"


def test_offsets_map_runs_back_to_the_page():
    html = "<p>Fish &amp;   chips</p><p>peas</p>"
    found = htmltok.extract(html, offsets=True, links=False, metadata=False)
    assert found["text"] == "Fish & chips\npeas"
    runs = found["runs"]
    assert [found["text"][a:b] for (a, b), _ in runs] == ["Fish & chips", "peas"]
    assert [html.encode()[a:b] for _, (a, b) in runs] == [b"Fish &amp;   chips", b"peas"]


def test_offsets_are_characters_of_the_text_and_bytes_of_the_page():
    html = "<p>café 😀 &amp; x</p><p>née</p>"
    found = htmltok.extract(html, offsets=True, links=False, metadata=False)
    assert found["text"] == "café 😀 & x\nnée"
    (t1, s1), (t2, s2) = found["runs"]
    assert found["text"][slice(*t1)] == "café 😀 & x" and found["text"][slice(*t2)] == "née"
    assert html.encode()[slice(*s1)].decode() == "café 😀 &amp; x"
    assert html.encode()[slice(*s2)].decode() == "née"


@pytest.mark.parametrize("path", corpus_pages(), ids=lambda p: p.name)
def test_offsets_on_the_corpus(path):
    """Each run's output text is its source collapsed: character offsets
    into the text, byte offsets into the page."""
    data = path.read_bytes()
    page = htmltok.decode(data).encode()
    found = htmltok.extract(data, offsets=True, links=False, metadata=False)
    text, runs = found["text"], found["runs"]
    assert runs, path
    last_end = 0
    for (a, b), (s, e) in runs:
        assert last_end <= a <= b <= len(text)
        assert 0 <= s <= e <= len(page)
        last_end = b
        source = page[s:e].decode()
        if "&" not in source and "\0" not in source and "\r" not in source:
            assert source.split() == text[a:b].split(), (path.name, s, e)


def _cli():
    binary = os.environ.get("HTMLTOK_BIN")
    if binary:
        assert pathlib.Path(binary).is_file(), f"HTMLTOK_BIN={binary} does not exist"
        return binary
    for build in ("release", "debug"):
        candidate = REPO / "target" / build / "htmltok"
        if candidate.is_file():
            return str(candidate)
    pytest.skip("no htmltok binary (cargo build, or set HTMLTOK_BIN)")


def _run(*args):
    return subprocess.run([_cli(), *map(str, args)], check=True, capture_output=True).stdout


@pytest.mark.parametrize("path", corpus_pages(), ids=lambda p: p.name)
def test_corpus_pages_equal_the_command_line(path):
    data = path.read_bytes()
    url = "https://example.com/dir/page.html"
    found = htmltok.extract(data, url=url)
    # The command line sniffs files with UTF-8 detection and without the
    # late <meta> (it streams); the package decodes whole pages as a
    # browser does. Given the encoding, both read the same text.
    encoding = htmltok.detect_encoding(data).name
    assert _run("text", "--encoding", encoding, path).decode() == found["text"] + "\n"
    want_links = [
        json.loads(l) for l in _run("links", "--encoding", encoding, "--base-url", url, path).splitlines()
    ]
    got_links = found["links"]
    assert len(got_links) == len(want_links)
    for got, want in zip(got_links, want_links):
        assert (got["tag"], got["attr"], got["url"], list(got["span"])) == (
            want["tag"], want["attr"], want["url"], [want["start"], want["end"]])
        assert got["error"] == want.get("error")
        assert got["rel"] == want.get("rel", [])
        assert got["hreflang"] == want.get("hreflang")
        assert got["anchor_text"] == want.get("anchor_text")
    want_meta = json.loads(_run("meta", "--encoding", encoding, path))
    got_meta = htmltok.metadata(data)
    for key in ("title", "lang", "charset", "base", "canonical", "robots", "description",
                "keywords", "alternates", "refresh", "open_graph", "twitter", "json_ld", "truncated"):
        assert got_meta[key] == want_meta[key], key
    assert [(m["key"], m["value"], m["content"]) for m in got_meta["meta"]] == [
        next((k, v, m["content"]) for k, v in m.items() if k != "content") for m in want_meta["meta"]
    ]


ARTICLE = """<nav class=site-nav><ul><li><a href=/>Home</a><li><a href=/news>News</a><li><a href=/sport>Sport</a></ul></nav>
<article><h1>Rain tomorrow</h1>
<p>The weather service expects heavy rain across the region tomorrow, with up to forty millimetres
falling in the hills by the evening, and warns of local flooding near the rivers.</p>
<p>Farmers welcomed the news after a dry month, and the reservoirs, which stood at half their usual
level, should begin to fill again, the water board said on Monday.</p></article>
<footer class=site-footer>&copy; 2026 Example News. <a href=/privacy>Privacy</a></footer>"""


def test_main_content_drops_navigation_and_footer():
    found = htmltok.extract(ARTICLE, main_content=True)
    assert found["main_content"] == "found"
    assert found["text"].startswith("Rain tomorrow\nThe weather service")
    assert "Privacy" not in found["text"] and "Sport" not in found["text"]
    assert htmltok.text(ARTICLE, main_content=True) == found["text"]
    links = {l["url"]: l["in_main_content"] for l in found["links"]}
    assert links == {"/": False, "/news": False, "/sport": False, "/privacy": False}
    # Every line is a line of the whole text (read, as main content reads
    # it, with scripting off).
    whole = htmltok.text(ARTICLE, scripting=False).split("\n")
    assert all(line in whole for line in found["text"].split("\n"))
    # Runs map back to the page.
    runs = htmltok.extract(ARTICLE, main_content=True, offsets=True)
    for (a, b), (s, e) in runs["runs"]:
        assert runs["text"][a:b].split() == " ".join(ARTICLE.encode()[s:e].decode().split()).split()
    # Without it, no such key, and all the text.
    assert "main_content" not in htmltok.extract(ARTICLE)
    assert htmltok.extract("", main_content=True)["main_content"] == "empty"


def test_a_page_past_the_memory_limit_raises_with_what_was_read():
    # Main content holds the page's text until its end: 3.8 MB of it passes
    # a 1 MiB cap, which says so, and keeps what was read.
    paragraph = "<p>The survey of the deep ocean floor found the trench far deeper than the old charts had it.</p>\n"
    page = "<article><h1>The deep ocean floor</h1>\n" + paragraph * 40_000
    with pytest.raises(htmltok.MemoryLimitError) as e:
        htmltok.text(page, main_content=True, memory_limit=1 << 20)
    assert isinstance(e.value, MemoryError)
    assert e.value.kind == "extract"
    assert e.value.limit == 1 << 20 and e.value.needed > 1 << 20
    assert 100_000 < e.value.offset < len(page)
    assert "needed for the text, blocks and links the extraction holds" in str(e.value)
    # `partial` is the text of the page as far as it was read: the page cut
    # where the extraction stopped gives the same (an ASCII page: its
    # UTF-8 offsets are its characters).
    cut = page[: e.value.offset]
    assert e.value.partial and e.value.partial == htmltok.text(cut, main_content=True)
    # extract() gives its dict, which says which case applied; bytes too.
    with pytest.raises(htmltok.MemoryLimitError) as e:
        htmltok.extract(page.encode(), main_content=True, memory_limit=1 << 20)
    assert e.value.kind == "extract"
    assert e.value.partial == htmltok.extract(page[: e.value.offset], main_content=True)
    assert e.value.partial["main_content"] in ("found", "all_text")
    # Markdown holds the page too.
    with pytest.raises(htmltok.MemoryLimitError) as e:
        htmltok.text(page, format="markdown", memory_limit=1 << 20)
    assert e.value.kind == "extract"
    assert e.value.partial.startswith("# The deep ocean floor\n\nThe survey")
    # The links are held to the end as well (and the tokenizer, under the
    # same cap, holds every tag's attributes of the page: it may pass first).
    with pytest.raises(htmltok.MemoryLimitError) as e:
        htmltok.links(paragraph.replace("<p>", '<p><a href="/x">x</a>') * 20_000, memory_limit=1 << 20)
    assert e.value.kind in ("extract", "tokenizer") and len(e.value.partial) > 1000
    # Under a cap it does not reach, nothing changes; a cap that stops
    # decoding has nothing to give.
    assert htmltok.text(page, main_content=True, memory_limit=64 << 20) == htmltok.text(page, main_content=True)
    with pytest.raises(htmltok.MemoryLimitError) as e:
        htmltok.text(b"\xe9" * 10_000, encoding="windows-1252", memory_limit=1000)
    assert e.value.kind == "decode" and e.value.partial is None


@pytest.mark.parametrize("path", corpus_pages(), ids=lambda p: p.name)
def test_main_content_equals_the_command_line(path):
    data = path.read_bytes()
    encoding = htmltok.detect_encoding(data).name
    found = htmltok.text(data, main_content=True)
    cli = _run("text", "--main-content", "--encoding", encoding, path).decode()
    assert cli == (found + "\n" if found else "")


def test_markdown():
    page = (
        '<h1>Fish &amp; chips</h1><p>Cod, <b>chips</b> and <a href="peas.html">peas</a>.'
        "<ul><li>one<li>two</ul><pre class=language-sh>ls -l</pre>"
        "<table><tr><th>A<th>B<tr><td>1<td>2</table>"
    )
    want = (
        "# Fish & chips\n\nCod, **chips** and [peas](https://e.com/peas.html).\n\n- one\n- two\n\n"
        "```sh\nls -l\n```\n\n| A | B |\n| --- | --- |\n| 1 | 2 |"
    )
    assert htmltok.text(page, format="markdown", url="https://e.com/") == want
    found = htmltok.extract(page, format="markdown", url="https://e.com/")
    assert found["text"] == want
    # Links and metadata are the same whatever the text's format.
    assert found["links"] == htmltok.extract(page, url="https://e.com/")["links"]
    assert htmltok.text("<p>See <a href=/x>this</a>.", format="markdown", link_targets=False) == "See this."
    assert htmltok.text(page, format="plain") == htmltok.text(page)
    # Main content in Markdown: the article's, with its heading.
    main = htmltok.text(ARTICLE, format="markdown", main_content=True)
    assert main.startswith("# Rain tomorrow\n\nThe weather service"), main
    assert "Privacy" not in main
    with pytest.raises(ValueError, match="format"):
        htmltok.text(page, format="html")
    with pytest.raises(ValueError, match="offsets"):
        htmltok.extract(page, format="markdown", offsets=True)


@pytest.mark.parametrize("path", corpus_pages(), ids=lambda p: p.name)
def test_markdown_equals_the_command_line(path):
    data = path.read_bytes()
    encoding = htmltok.detect_encoding(data).name
    found = htmltok.text(data, format="markdown")
    cli = _run("text", "--format", "markdown", "--encoding", encoding, path).decode()
    assert cli == (found + "\n" if found else "")
