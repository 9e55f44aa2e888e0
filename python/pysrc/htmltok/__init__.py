"""HTML tokenized exactly as the WHATWG HTML Standard says, and the text,
links and metadata an indexer takes from a page, from the Rust crate
`htmltok`.

Tokens::

    >>> import htmltok
    >>> [(t.kind, t.name or t.data) for t in htmltok.tokenize("<p class=a>Fish &amp; chips</p>")]
    [('start_tag', 'p'), ('text', 'Fish & chips'), ('end_tag', 'p')]

Parse errors, with the standard's codes and html5lib-tests' lines and
columns::

    >>> tokens = htmltok.tokenize("<p a=1 a=2>", errors=True)
    >>> _ = list(tokens)
    >>> tokens.errors
    [ParseError("duplicate-attribute", offset=8, line=1, column=9)]

Text, links and metadata, in one pass::

    >>> page = b'<title>Menu</title><p>Cod,  <a href="../peas">peas</a>'
    >>> found = htmltok.extract(page, url="https://example.com/menu/today")
    >>> found["text"], found["links"][0]["url"], found["metadata"]["title"]
    ('Cod, peas', 'https://example.com/peas', 'Menu')
    >>> htmltok.text("<p>one<p>two<script>not text</script>")
    'one\\ntwo'

The HTML pages of a WARC archive::

    for record in htmltok.warc_records("CC-MAIN-...warc.gz"):
        print(record.target_uri, record.status, len(record.text))

Their text as a WET file, in Common Crawl's layout::

    htmltok.write_wet("CC-MAIN-...warc.gz", "CC-MAIN-...warc.wet.gz")

A page is a ``str`` or ``bytes``; bytes are decoded as a browser decodes
them (BOM, ``encoding=``, ``transport_encoding=`` (the HTTP charset), the
``<meta>`` prescan, windows-1252, and a ``<meta>`` met later). Spans and
offsets are byte offsets into the page's UTF-8 text. Every call releases
the GIL while Rust works; results are plain data, and tokens, errors and
WARC records pickle (the iterators themselves do not).
"""

from ._htmltok import (
    ArchiveError,
    ArchiveWarning,
    Attribute,
    DetectedEncoding,
    MemoryLimitError,
    ParseError,
    Token,
    Tokens,
    WarcError,
    WarcRecord,
    WarcRecords,
    __version__,
    decode,
    detect_encoding,
    encoding_name,
    extract,
    links,
    metadata,
    text,
    tokenize,
    warc_records,
    write_wet,
)

__all__ = [
    "ArchiveError",
    "ArchiveWarning",
    "Attribute",
    "DetectedEncoding",
    "MemoryLimitError",
    "ParseError",
    "Token",
    "Tokens",
    "WarcError",
    "WarcRecord",
    "WarcRecords",
    "__version__",
    "decode",
    "detect_encoding",
    "encoding_name",
    "extract",
    "links",
    "metadata",
    "text",
    "tokenize",
    "warc_records",
    "write_wet",
]
