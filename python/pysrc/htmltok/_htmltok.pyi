"""Type stubs of the extension module (see the package docstring)."""

import os
from typing import BinaryIO, Iterator, List, Literal, Optional, Sequence, Tuple, TypedDict, Union

__version__: str

Html = Union[str, bytes, bytearray]
Span = Tuple[int, int]

class MemoryLimitError(MemoryError):
    """A memory cap (``memory_limit=``) was reached; the tokens before it were yielded,
    and an extraction's result for the page as far as it was read is ``partial``."""

    kind: str
    """What ran out: ``"tokenizer"`` (the tokens' strings and the tokenizer's buffers),
    ``"stream"`` (what a stream holds between chunks), ``"decode"`` (the page decoded to
    UTF-8), ``"meta-scan"`` (the tokenizer looking for a ``<meta>`` that changes the
    encoding) or ``"extract"`` (what an extraction holds until the page ends: its text,
    main content's blocks, the links, the Markdown)."""
    limit: int
    """The cap, in bytes."""
    needed: int
    """What was needed, in bytes."""
    offset: Optional[int]
    """Where in the page's UTF-8 text it happened (``None`` when decoding refused the whole page)."""
    partial: Union[str, "Extracted", List["Link"], "Metadata", None]
    """For ``extract``, ``text``, ``links``, ``metadata`` and ``WarcRecord.extract`` stopped
    by the tokenizer's or the extraction's cap: what the call returns for the page as far
    as it was read (up to ``offset``), so that nothing extracted is lost; else ``None``."""

class ArchiveError(Exception):
    """A damaged WARC record (``on_error="raise"``)."""

    archive: Optional[str]
    number: int
    offset: Optional[int]

class ArchiveWarning(UserWarning):
    """A damaged WARC record, skipped (``on_error="warn"``, the default)."""

class Attribute:
    """One attribute of a start tag."""

    name: str
    """The name, lowercased."""
    value: str
    """The value, character references decoded ("" for a bare name)."""
    name_span: Span
    value_span: Optional[Span]
    """The value's span without quotes, None for a bare name."""
    duplicate: bool
    """An earlier attribute has the same name (the standard drops this one)."""
    def __init__(
        self,
        name: str,
        value: str,
        name_span: Span,
        value_span: Optional[Span] = None,
        duplicate: bool = False,
    ) -> None: ...

class Token:
    """A start tag, end tag, text, comment or doctype."""

    kind: Literal["start_tag", "end_tag", "text", "comment", "doctype"]
    name: Optional[str]
    """A tag's name (lowercased) or a doctype's name."""
    data: Optional[str]
    """The text or comment."""
    attributes: Tuple[Attribute, ...]
    self_closing: bool
    public_id: Optional[str]
    system_id: Optional[str]
    force_quirks: bool
    span: Span
    """Byte span in the page's UTF-8 text."""
    def __init__(
        self,
        kind: str,
        name: Optional[str] = None,
        data: Optional[str] = None,
        attributes: Optional[Sequence[Attribute]] = None,
        self_closing: bool = False,
        public_id: Optional[str] = None,
        system_id: Optional[str] = None,
        force_quirks: bool = False,
        span: Span = (0, 0),
    ) -> None: ...
    def attr(self, name: str) -> Optional[str]:
        """The value of the first attribute named ``name``, or None."""

class ParseError:
    """A parse error (https://html.spec.whatwg.org/multipage/parsing.html#parse-errors)."""

    code: str
    offset: int
    line: int
    """1-based; CR, LF and CRLF each end a line."""
    column: int
    """1-based, in UTF-16 code units (as html5lib-tests counts)."""
    def __init__(self, code: str, offset: int, line: int, column: int) -> None: ...

class DetectedEncoding:
    """The encoding bytes were decoded from, and how it was chosen."""

    name: str
    confidence: Literal["certain", "tentative"]
    source: Literal["bom", "override", "transport", "prescan", "utf8-detection", "default", "meta"]
    had_errors: bool
    def __init__(self, name: str, confidence: str, source: str, had_errors: bool) -> None: ...

class Tokens(Iterator[Token]):
    """The tokens of a page, made a chunk at a time as they are pulled."""

    encoding: Optional[DetectedEncoding]
    """The encoding bytes were decoded from (None for a str)."""
    @property
    def errors(self) -> List[ParseError]:
        """Parse errors so far (all once exhausted); empty unless errors=True."""
    def __iter__(self) -> "Tokens": ...
    def __next__(self) -> Token: ...

State = Literal["data", "rcdata", "rawtext", "script_data", "plaintext", "cdata_section"]

def tokenize(
    html: Html,
    *,
    errors: bool = False,
    auto_switch: bool = True,
    exact_switching: bool = False,
    scripting: bool = True,
    state: Optional[Union[State, str]] = None,
    last_start_tag: Optional[str] = None,
    encoding: Optional[str] = None,
    transport_encoding: Optional[str] = None,
    memory_limit: Optional[int] = None,
) -> Tokens:
    """Tokenizes a page as the HTML Standard's tokenization says
    (https://html.spec.whatwg.org/multipage/parsing.html#tokenization).

    ``auto_switch`` follows ``<script>``, ``<style>``, ``<title>``,
    ``<textarea>``, ``<plaintext>``, ``<svg>``/``<math>`` as a browser's tree
    builder would; turn it off and give ``state`` and ``last_start_tag`` to
    drive the tokenizer as a tree builder (or html5lib-tests) does.
    ``exact_switching`` decides those switches by following the standard's
    tree construction exactly (insertion modes, open elements, formatting
    elements, tables) rather than the default approximation, which differs
    only on contrived markup.
    ``memory_limit`` caps the decoded text (for bytes) and the bytes the
    tokenizer builds; past it :class:`MemoryLimitError` is raised after the
    tokens finished before it.
    """

class Link(TypedDict):
    tag: str
    attr: str
    url: str
    """Resolved against the page URL and <base href>; as written when it cannot be."""
    raw: str
    error: Optional[str]
    span: Span
    rel: List[str]
    hreflang: Optional[str]
    anchor_text: Optional[str]
    in_main_content: bool
    """Whether the link lies in the main content (with main_content=True)."""

class Alternate(TypedDict):
    href: str
    hreflang: Optional[str]
    type: Optional[str]

class Refresh(TypedDict):
    seconds: float
    url: Optional[str]

class Property(TypedDict):
    property: str
    content: str

class MetaTag(TypedDict):
    key: Literal["name", "property", "http-equiv", "itemprop"]
    value: str
    content: str

class Metadata(TypedDict):
    title: Optional[str]
    lang: Optional[str]
    charset: Optional[str]
    base: Optional[str]
    canonical: Optional[str]
    description: Optional[str]
    keywords: List[str]
    robots: List[str]
    alternates: List[Alternate]
    refresh: Optional[Refresh]
    open_graph: List[Property]
    twitter: List[Property]
    json_ld: List[str]
    meta: List[MetaTag]
    truncated: bool

class Extracted(TypedDict, total=False):
    text: str
    text_truncated: bool
    runs: List[Tuple[Span, Span]]
    """(character span in text, byte span in the page), with offsets=True."""
    links: List[Link]
    metadata: Metadata
    main_content: Literal["found", "all_text", "empty", "over_limit"]
    """With main_content=True: what the text is (all the text, and why, unless "found")."""

def extract(
    html: Html,
    *,
    url: Optional[str] = None,
    text: bool = True,
    links: bool = True,
    metadata: bool = True,
    alt_text: bool = False,
    show_hidden: bool = False,
    scripting: Optional[bool] = None,
    main_content: bool = False,
    offsets: bool = False,
    text_limit: Optional[int] = None,
    metadata_limit: Optional[int] = None,
    format: Literal["plain", "markdown"] = "plain",
    link_targets: bool = True,
    encoding: Optional[str] = None,
    transport_encoding: Optional[str] = None,
    memory_limit: Optional[int] = None,
) -> Extracted:
    """Text, links and metadata of a page in one pass (the parts asked for).

    With ``main_content=True`` the text is the page's main content (its
    article, post, product or documentation, without navigation, footers,
    banners, comments and sidebars); scripting defaults to off then, so that
    <noscript> content is read.

    With ``format="markdown"`` the text is Markdown (CommonMark with GitHub's
    tables); ``link_targets=False`` writes links as their text alone. Not with
    ``offsets=True``.

    ``memory_limit`` caps, in bytes, the page decoded to text (for bytes), the
    tokenizer, and what the extraction holds until the page ends (its text, main
    content's blocks, the links, the Markdown); past it :class:`MemoryLimitError`
    is raised, its ``partial`` the result for the page as far as it was read."""

def text(
    html: Html,
    *,
    alt_text: bool = False,
    show_hidden: bool = False,
    scripting: Optional[bool] = None,
    main_content: bool = False,
    text_limit: Optional[int] = None,
    format: Literal["plain", "markdown"] = "plain",
    link_targets: bool = True,
    url: Optional[str] = None,
    encoding: Optional[str] = None,
    transport_encoding: Optional[str] = None,
    memory_limit: Optional[int] = None,
) -> str:
    """The visible text of a page: lines of collapsed text (the main content
    only with ``main_content=True``; Markdown with ``format="markdown"``, its
    links resolved against ``url``). Past ``memory_limit``,
    :class:`MemoryLimitError` with ``partial`` the text as far as the page was
    read (see ``extract``)."""

def links(
    html: Html,
    *,
    url: Optional[str] = None,
    encoding: Optional[str] = None,
    transport_encoding: Optional[str] = None,
    memory_limit: Optional[int] = None,
) -> List[Link]:
    """The links of a page, resolved against ``url`` and its <base href>."""

def metadata(
    html: Html,
    *,
    url: Optional[str] = None,
    encoding: Optional[str] = None,
    transport_encoding: Optional[str] = None,
    memory_limit: Optional[int] = None,
) -> Metadata:
    """The metadata of a page."""

def detect_encoding(
    data: Union[bytes, bytearray],
    transport_encoding: Optional[str] = None,
    *,
    encoding: Optional[str] = None,
) -> DetectedEncoding:
    """The encoding a browser decodes ``data`` with (the encoding sniffing
    algorithm, https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm)."""

def decode(
    data: Html,
    *,
    encoding: Optional[str] = None,
    transport_encoding: Optional[str] = None,
    memory_limit: Optional[int] = None,
) -> str:
    """The text ``data`` decodes to, as detect_encoding chooses."""

def encoding_name(label: str) -> Optional[str]:
    """The Encoding Standard's name for a label, or None."""

class WarcError:
    """A damaged part of an archive."""

    archive: Optional[str]
    number: int
    offset: Optional[int]
    message: str
    fatal: bool
    def __init__(
        self, archive: Optional[str], number: int, offset: Optional[int], message: str, fatal: bool
    ) -> None: ...

class WarcRecord:
    """One HTML page of an archive; text, links, metadata made on first use."""

    def __init__(
        self,
        archive: Optional[str],
        number: int,
        offset: Optional[int],
        kind: str,
        target_uri: str,
        record_id: Optional[str],
        date: Optional[str],
        truncated: Optional[str],
        status: Optional[int],
        content_type: Optional[str],
        charset: Optional[str],
        payload: bytes,
    ) -> None: ...

    archive: Optional[str]
    number: int
    offset: Optional[int]
    kind: Literal["response", "resource"]
    target_uri: str
    record_id: Optional[str]
    date: Optional[str]
    truncated: Optional[str]
    status: Optional[int]
    content_type: Optional[str]
    charset: Optional[str]
    @property
    def payload(self) -> bytes: ...
    @property
    def text(self) -> str: ...
    @property
    def links(self) -> List[Link]: ...
    @property
    def metadata(self) -> Metadata: ...
    def extract(
        self,
        *,
        text: bool = True,
        links: bool = True,
        metadata: bool = True,
        alt_text: bool = False,
        show_hidden: bool = False,
        scripting: Optional[bool] = None,
        main_content: bool = False,
        offsets: bool = False,
        text_limit: Optional[int] = None,
        metadata_limit: Optional[int] = None,
        format: Literal["plain", "markdown"] = "plain",
        link_targets: bool = True,
        memory_limit: Optional[int] = None,
    ) -> Extracted: ...
    def decode(self) -> str: ...
    def tokenize(
        self,
        *,
        errors: bool = False,
        auto_switch: bool = True,
        exact_switching: bool = False,
        scripting: bool = True,
        memory_limit: Optional[int] = None,
    ) -> Tokens: ...

class Counts(TypedDict):
    records: int
    html: int
    skipped_by_type: int
    revisits: int
    requests: int
    warcinfo: int
    metadata: int
    other: int
    errors: int

class WarcRecords(Iterator[WarcRecord]):
    """The HTML records of an archive, in archive order."""

    archive: Optional[str]
    @property
    def errors(self) -> List[WarcError]: ...
    @property
    def counts(self) -> Counts: ...
    def __iter__(self) -> "WarcRecords": ...
    def __next__(self) -> WarcRecord: ...

def warc_records(
    source: Union[str, "os.PathLike[str]", BinaryIO],
    *,
    on_error: Literal["warn", "raise", "ignore"] = "warn",
    max_record_size: Optional[int] = None,
) -> WarcRecords:
    """The HTML pages of a WARC file (.warc or .warc.gz), from a path or a binary file object."""

class WetCounts(Counts):
    conversions: int
    empty: int
    undecodable: int

def write_wet(
    source: Union[str, "os.PathLike[str]", BinaryIO, WarcRecords],
    destination: Union[str, "os.PathLike[str]"],
    *,
    main_content: bool = False,
    alt_text: bool = False,
    show_hidden: bool = False,
    scripting: Optional[bool] = None,
    format: Literal["plain", "markdown"] = "plain",
    on_error: Literal["warn", "raise", "ignore"] = "warn",
    max_record_size: Optional[int] = None,
    gzip: Optional[bool] = None,
    filename: Optional[str] = None,
    seed: Optional[int] = None,
) -> WetCounts:
    """Writes a WET file (Common Crawl's layout: a warcinfo record, then a
    conversion record of each HTML page's text) of an archive's HTML pages.

    `source` is what `warc_records` reads (a path or a binary file object),
    or a `WarcRecords` iterator (its records not yet read are converted).
    Each page's record holds the text `WarcRecord.text` gives (with the
    options given); empty pages get no record. Damaged records and pages
    that cannot be decoded are reported as `on_error` says and skipped. The
    output is a gzip member per record when `gzip` is true (by default,
    when `destination` ends in `.gz`), written under a temporary name and
    renamed once whole: an exception halfway leaves no file. `filename` is
    the warcinfo's WARC-Filename (the destination's name by default);
    `seed` makes the record ids reproducible. `main_content=True` is not
    available yet (NotImplementedError). Returns the input's counts with
    the conversions written, the empty pages and the undecodable ones.

        write_wet("CC-MAIN-...warc.gz", "CC-MAIN-...warc.wet.gz")
    """

__all__: List[str]
