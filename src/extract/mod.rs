//! What an indexer takes from a page: its visible text, its links and its
//! metadata, in one pass over the tokens.
//!
//! An [`Extractor`] is fed tokens in order and gathers all three (or the
//! ones [`ExtractOptions`] asks for). It works on any token stream: a
//! [`Tokenizer`] over a whole page, a [`Document`](crate::Document)
//! decoded from bytes, or the pieces a [`StreamTokenizer`] hands out a
//! chunk at a time; for a whole page, [`extract`] does the feeding
//! ([`extract_in`] with an arena kept from page to page).
//!
//! ```
//! use htmltok::extract::{extract, ExtractOptions, Rel};
//! use htmltok::url::Url;
//!
//! let html = r#"<html lang=en><head><title>Fish &amp; chips</title>
//!   <meta name=description content="The best in town">
//!   <script>var x = "not text";</script></head>
//!   <body><h1>Menu</h1><p>Cod,   chips
//!   and <a href="../peas.html" rel=nofollow>mushy <b>peas</b></a>.</p>"#;
//! let page = Url::parse("https://example.com/menu/today.html").unwrap();
//! let found = extract(html, &ExtractOptions::default().url(Some(page)));
//!
//! assert_eq!(found.text, "Menu\nCod, chips and mushy peas.");
//! let link = &found.links[0];
//! assert_eq!(link.url(), "https://example.com/peas.html");
//! assert_eq!(link.anchor_text(), Some("mushy peas"));
//! assert!(link.rel.contains(Rel::NOFOLLOW));
//! assert_eq!(found.metadata.title.as_deref(), Some("Fish & chips"));
//! assert_eq!(found.metadata.lang.as_deref(), Some("en"));
//! assert_eq!(found.metadata.description.as_deref(), Some("The best in town"));
//! ```
//!
//! # Text
//!
//! The text is what a reader sees, laid out as lines: the content of
//! `script`, `style`, `template`, `title` and the like is left out, block
//! elements and `<br>` break lines, whitespace collapses to one space
//! (kept in `<pre>`), character references are decoded (the tokenizer did
//! that). [`visible`](self) rules in detail: see the private module docs
//! in `src/extract/visible.rs`; in short, `hidden` elements are left out
//! (on by default, [`ExtractOptions::hidden`]), image `alt` text can be
//! put in ([`ExtractOptions::alt_text`]), and the output can be capped
//! ([`ExtractOptions::text_limit`]). With [`ExtractOptions::offsets`],
//! each piece of output text comes with the span of the input it came
//! from ([`TextRun`]).
//!
//! ## Compared with resiliparse and a browser
//!
//! On the seven corpus pages the words of this text were compared with
//! resiliparse's `extract_plain_text(tree, main_content=False)` and with
//! headless Chromium's `innerText` (`tools/text_words_diff.py`;
//! BENCHMARKS.md, "Extraction"). htmltok and resiliparse split words the
//! same way everywhere; every difference is content one of them puts in:
//!
//! - resiliparse writes list bullets (`•`, `1.`) before list items; a
//!   browser's `innerText` has none, and neither has this text.
//! - resiliparse writes image `alt` text (even of hidden images, glued to
//!   the next word); `innerText` has none. Here it is an option
//!   ([`ExtractOptions::alt_text`]), off by default, and always part of a
//!   link's anchor text.
//! - resiliparse leaves out `<label>`, `<button>` and `<select>` options;
//!   a browser renders them and `innerText` has them, as this text does.
//! - `&nbsp;` is a space here (an indexer wants `1&nbsp;000` as two
//!   words only when a reader sees a space); resiliparse and `innerText`
//!   keep U+00A0, which most word splitters treat as a space too.
//! - the fallback content of `<audio>` and `<video>` (shown only by a
//!   browser that cannot play them) is left out here, as `innerText`
//!   leaves it out; resiliparse keeps it.
//!
//! Both differ from a browser where CSS hides text (`display:none`): no
//! style sheet is applied here.
//!
//! # Links
//!
//! Every URL-bearing attribute an indexer wants (`a`/`area` `href`, `link`
//! `href`, `img` `src` and `srcset`, the `src` of `iframe`, `frame`,
//! `embed`, `source`, `video`, `audio`, `script`, `form` `action`, a `<meta
//! http-equiv=refresh>` URL, `<base href>`, and a few more), resolved per
//! the URL Standard against the page's address
//! ([`ExtractOptions::url`]) and its `<base href>`, with the element,
//! attribute, `rel` keywords, `hreflang` and, for `<a>`, the anchor text
//! ([`Link`]). An invalid URL is kept as written with the reason it could
//! not be parsed; `javascript:` and `data:` URLs are reported as they are
//! (they are absolute).
//!
//! # Metadata
//!
//! Title, `lang`, charset, description, keywords, robots, canonical,
//! hreflang alternates, refresh, Open Graph and Twitter card properties,
//! JSON-LD blocks, and every `<meta>` ([`Metadata`]).
//!
//! # Feeding it
//!
//! From bytes, through encoding sniffing ([`Document`](crate::Document)):
//!
//! ```
//! # #[cfg(feature = "encoding")] {
//! use htmltok::{DecodeOptions, Document, bumpalo::Bump};
//! use htmltok::extract::{ExtractOptions, Extractor};
//!
//! let bytes = b"<meta charset=windows-1252><p>caf\xe9";
//! let doc = Document::from_bytes(bytes, &DecodeOptions::default()).unwrap();
//! let arena = Bump::new();
//! let mut extractor = Extractor::new(&ExtractOptions::default());
//! for token in doc.tokenizer(&arena) {
//!     extractor.token_in(&token, doc.text());
//! }
//! assert_eq!(extractor.finish().text, "café");
//! # }
//! ```
//!
//! From a stream, a chunk at a time, taking the text as it comes:
//!
//! ```
//! use htmltok::{StreamOptions, StreamTokenizer, bumpalo::Bump};
//! use htmltok::extract::{ExtractOptions, Extractor};
//!
//! let options = ExtractOptions::default();
//! let mut stream = StreamTokenizer::new(StreamOptions::default().tokenizer(options.tokenizer_options()));
//! let mut extractor = Extractor::new(&options);
//! let mut text = String::new();
//! for chunk in [&b"<p>Fish &am"[..], b"p; chi", b"ps</p><p>peas"] {
//!     let arena = Bump::new();
//!     for token in stream.feed(chunk, &arena).unwrap() {
//!         extractor.token(&token);
//!     }
//!     text.push_str(&extractor.take_text());
//! }
//! let arena = Bump::new();
//! for token in stream.finish(&arena).unwrap() {
//!     extractor.token(&token);
//! }
//! text.push_str(&extractor.finish().text);
//! assert_eq!(text, "Fish & chips\npeas");
//! ```
//!
//! # Streaming and memory
//!
//! An extractor holds only what it must: the text written since the
//! caller last took it ([`Extractor::take_text`]), the links not yet taken
//! ([`Extractor::take_links`]), and metadata within a budget
//! ([`ExtractOptions::metadata_limit`]). A caller streaming a page of any
//! size takes text and links as it goes.
//!
//! Without [`ExtractOptions::offsets`], the text is gathered as it comes
//! and collapsed 16 KiB at a time, not token by token (most text tokens
//! are a word or two, and collapsing each on its own cost more than the
//! collapsing). So the text written so far is only known once asked for:
//! [`Extractor::take_text`], [`Extractor::pending_text`] and
//! [`Extractor::text_len`] collapse what is gathered first, and
//! [`Extractor::held_text_len`] says cheaply, after any token, how much
//! is held.
//!
//! [`Tokenizer`]: crate::Tokenizer
//! [`StreamTokenizer`]: crate::StreamTokenizer

mod collapse;
mod kinds;
mod links;
mod meta;
mod resolve;
mod visible;

use core::ops::{ControlFlow, Range};

use bumpalo::Bump;
use url::Url;

use crate::element::Element;
use crate::token::{Span, Tag, Text, Token};
use crate::tokenizer::{Options, Tokenizer};

use crate::scan::{Gathered, LINE_BREAK};
use collapse::{Collapse, Out, Pending};
use kinds::{END_CALL_CLOSED, END_CALL_OPEN, END_LINE, KindsOf, START_MORE, TagKinds};
use links::Found;
pub use links::{ANCHOR_TEXT_LIMIT, LINKS_PER_BUFFER, Link, Rel};
pub use meta::{Alternate, MetaKey, MetaTag, Metadata, Refresh};
use resolve::Written;
pub use resolve::{Resolved, Resolver};
use visible::{Boundary, ElementSet, Visible};

/// ASCII whitespace, as HTML defines it.
pub(crate) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0C' | '\r')
}

/// What to extract, and how.
///
/// ```
/// use htmltok::extract::{extract, ExtractOptions};
///
/// let html = "<p>A <img alt=cat src=c.png> <span hidden>secret</span>sat";
/// let text = |o: &ExtractOptions| extract(html, o).text;
/// assert_eq!(text(&ExtractOptions::default()), "A sat");
/// assert_eq!(text(&ExtractOptions::default().alt_text(true)), "A cat sat");
/// assert_eq!(text(&ExtractOptions::default().hidden(false)), "A secretsat");
/// assert_eq!(text(&ExtractOptions::default().text_limit(3)), "A s");
/// ```
#[derive(Clone, Debug)]
pub struct ExtractOptions {
    text: bool,
    links: bool,
    metadata: bool,
    alt_text: bool,
    hidden: bool,
    scripting: bool,
    offsets: bool,
    text_limit: usize,
    metadata_limit: usize,
    url: Option<Url>,
}

impl Default for ExtractOptions {
    /// Text, links and metadata; `hidden` honoured, no alt text, scripting
    /// on, no offsets, no cap on the text, 4 MiB of metadata, no page URL.
    fn default() -> ExtractOptions {
        ExtractOptions {
            text: true,
            links: true,
            metadata: true,
            alt_text: false,
            hidden: true,
            scripting: true,
            offsets: false,
            text_limit: usize::MAX,
            metadata_limit: 4 << 20,
            url: None,
        }
    }
}

impl ExtractOptions {
    /// Whether to extract the visible text (default on).
    pub fn text(mut self, on: bool) -> ExtractOptions {
        self.text = on;
        self
    }

    /// Whether to extract links (default on).
    pub fn links(mut self, on: bool) -> ExtractOptions {
        self.links = on;
        self
    }

    /// Whether to extract metadata (default on).
    pub fn metadata(mut self, on: bool) -> ExtractOptions {
        self.metadata = on;
        self
    }

    /// Whether the `alt` text of images (`<img>`, `<input type=image>`)
    /// is part of the text, as a word between spaces (default off: a
    /// browser shows it only when the image is missing).
    pub fn alt_text(mut self, on: bool) -> ExtractOptions {
        self.alt_text = on;
        self
    }

    /// Whether an element with the `hidden` attribute is left out with
    /// its content, as a browser renders it (default on).
    pub fn hidden(mut self, on: bool) -> ExtractOptions {
        self.hidden = on;
        self
    }

    /// Whether scripting is on, which hides `<noscript>` and `<canvas>`
    /// content (default
    /// on, as in a browser and in the tokenizer's [`Options::scripting`]).
    pub fn scripting(mut self, on: bool) -> ExtractOptions {
        self.scripting = on;
        self
    }

    /// Whether to record, for each piece of output text, the span of the
    /// input it came from ([`TextRun`]; default off).
    pub fn offsets(mut self, on: bool) -> ExtractOptions {
        self.offsets = on;
        self
    }

    /// The most bytes of text to write (cut at a character boundary;
    /// default: no cap). [`Extracted::text_truncated`] says when it cut.
    pub fn text_limit(mut self, bytes: usize) -> ExtractOptions {
        self.text_limit = bytes;
        self
    }

    /// The most bytes of metadata values to hold (default 4 MiB); past it
    /// values are left out and [`Metadata::truncated`] is set.
    pub fn metadata_limit(mut self, bytes: usize) -> ExtractOptions {
        self.metadata_limit = bytes;
        self
    }

    /// The tokenizer options these extraction options go with: the
    /// defaults, with [`Options::scripting`] as set here. Tokenize with
    /// them when feeding an [`Extractor`] yourself.
    pub fn tokenizer_options(&self) -> Options {
        Options::default().scripting(self.scripting)
    }

    /// The address the page was fetched from, which its relative URLs
    /// (and its `<base href>`) are resolved against (default none:
    /// relative URLs stay as written).
    pub fn url(mut self, url: Option<Url>) -> ExtractOptions {
        self.url = url;
        self
    }
}

/// One piece of the output text and where in the input it came from: the
/// collapsed text of one text token (or of the pieces of one, in a
/// stream).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextRun {
    /// Where the piece is in the whole output text, in bytes.
    pub text: Range<usize>,
    /// The span of the input it came from.
    pub source: Span,
}

/// Everything extracted from a page.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Extracted {
    /// The visible text: lines of collapsed text, no newline at the end.
    pub text: String,
    /// Where each piece of the text came from (with
    /// [`ExtractOptions::offsets`]).
    pub runs: Vec<TextRun>,
    /// Whether [`ExtractOptions::text_limit`] cut the text.
    pub text_truncated: bool,
    /// The links, in page order.
    pub links: Vec<Link>,
    /// The metadata.
    pub metadata: Metadata,
}

/// Extracts text, links and metadata from a whole page (tokenized with
/// the default [`Options`], scripting as `options` says).
///
/// See the [module docs](self) for an example.
pub fn extract(html: &str, options: &ExtractOptions) -> Extracted {
    extract_in(html, options, &mut Bump::new())
}

/// [`extract`] with the tokens' strings in `arena`, which is reset first:
/// a caller that extracts page after page keeps one arena for them all,
/// rather than allocating (and faulting in) a new one for each page.
///
/// ```
/// use htmltok::bumpalo::Bump;
/// use htmltok::extract::{extract_in, ExtractOptions};
///
/// let mut arena = Bump::new();
/// let options = ExtractOptions::default();
/// for page in ["<p>one &amp; two", "<title>T</title><p>three"] {
///     let found = extract_in(page, &options, &mut arena);
///     assert!(!found.text.is_empty());
/// }
/// ```
pub fn extract_in(html: &str, options: &ExtractOptions, arena: &mut Bump) -> Extracted {
    arena.reset();
    let arena = &*arena;
    let mut extractor = Extractor::new(options);
    extractor.reserve_page(html.len());
    let mut tokenizer = Tokenizer::with_options(html, arena, options.tokenizer_options());
    // Pushed rather than iterated: the faster way through a whole page.
    // Only a capped text can end the work early; without a cap the loop
    // that cannot stop is 8% cheaper (callgrind over the corpus: 141 M
    // against 154 M instructions for the text alone).
    if options.text_limit == usize::MAX || options.links || options.metadata {
        tokenizer.for_each_token(
            #[inline(always)]
            |token| extractor.token_in(&token, html),
        );
    } else {
        let _ = tokenizer.try_for_each_token(
            #[inline(always)]
            |token| {
                extractor.token_in(&token, html);
                if extractor.is_done() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
    }
    extractor.finish()
}

/// How much text is gathered before it is collapsed (see
/// [`Extractor::gather`]): enough for collapsing to run over long stretches,
/// little enough to stay in the processor's cache.
const GATHERED: usize = 16 << 10;

/// The byte that stands for the separator `due` in the gathered text, if
/// any: a space, or the [`LINE_BREAK`] marker.
#[inline(always)]
fn gathered_separator(due: Pending) -> Option<u8> {
    match due {
        Pending::Nothing => None,
        Pending::Space => Some(b' '),
        Pending::LineBreak => Some(LINE_BREAK),
    }
}

/// The anchor text of the `<a href>` being read, if one is, and the
/// strings of the links not yet taken: the anchor text is collapsed
/// straight into the buffer that holds them (`out`), after them, where it
/// was collapsed into a buffer of its own and copied over at `</a>`.
#[derive(Debug)]
struct Anchor {
    /// The open link's index in the links not yet taken, if one is open.
    link: Option<usize>,
    collapse: Collapse,
    /// Its buffer holds the strings of the links not yet taken (their
    /// ranges index it), then the anchor text being read.
    out: Out,
    /// Where the anchor text being read starts in `out`.
    start: usize,
}

impl Anchor {
    /// Whether an `<a href>` is open.
    #[inline(always)]
    fn is_open(&self) -> bool {
        self.link.is_some()
    }

    /// Collapses `text` into the anchor text, if a link is open.
    #[inline(always)]
    fn push(&mut self, text: &str) {
        if self.is_open() {
            self.collapse.push(&mut self.out, text, false);
        }
    }

    /// A space is due in the anchor text, if a link is open.
    #[inline(always)]
    fn space(&mut self) {
        if self.is_open() {
            self.collapse.space();
        }
    }
}

/// How many bytes of a page [`Extractor::reserve_page`] reserves one link
/// for.
pub const PAGE_BYTES_PER_LINK: usize = 256;

/// The most links [`Extractor::reserve_page`] reserves room for.
pub const LINKS_RESERVED_MAX: usize = 1 << 16;

/// The end tags that need more than a boundary while text is shown: they
/// hide or show text, end an anchor, or are read by the metadata.
const END_TAGS: ElementSet = visible::END_NOT_PLAIN
    .union(ElementSet::of(&[Element::A]))
    .union(meta::END_ELEMENTS);

/// The end tags worth a call to [`Extractor::end_tag`] while text is
/// shown: those of [`END_TAGS`], and those that make a boundary when it
/// goes to the text (but for the text alone, whose dispatch writes a
/// block's line break itself) or to the anchor text being read.
fn end_calls(text_only: bool, want_text: bool, anchor_open: bool) -> ElementSet {
    if text_only {
        visible::END_NOT_PLAIN
    } else if want_text || anchor_open {
        END_TAGS.union(visible::BOUNDARY)
    } else {
        END_TAGS
    }
}

/// Extracts text, links and metadata from tokens fed in order.
///
/// ```
/// use htmltok::{Tokenizer, bumpalo::Bump};
/// use htmltok::extract::{ExtractOptions, Extractor};
///
/// let html = "<ul><li>one<li>two</ul><a href=http://x.example/>x</a>";
/// let arena = Bump::new();
/// let mut extractor = Extractor::new(&ExtractOptions::default());
/// for token in Tokenizer::new(html, &arena) {
///     extractor.token_in(&token, html);
/// }
/// let found = extractor.finish();
/// assert_eq!(found.text, "one\ntwo\nx");
/// assert_eq!(found.links[0].url(), "http://x.example/");
/// ```
#[derive(Debug)]
pub struct Extractor {
    want_text: bool,
    want_links: bool,
    want_metadata: bool,
    alt_text: bool,
    offsets: bool,
    /// Whether the `hidden` attribute is honoured.
    hidden: bool,
    /// Whether what is visible is followed: for the text, and for the
    /// anchor text of links (metadata alone does without).
    track_visible: bool,
    /// Whether only the text is wanted (no links, no metadata), so that
    /// most end tags are a line break or nothing.
    text_only: bool,
    /// `text_only && !offsets`, kept as one flag for the test
    /// [`Extractor::text`] makes on every text token: whether
    /// [`Extractor::text_alone`] takes it.
    text_alone: bool,
    /// Whether a text token is worth a call ([`Extractor::takes_text`]),
    /// kept up to date where it changes: tested on every text token, it
    /// is one load instead of four.
    takes_text: bool,
    /// What each element's tags ask of this extractor, given its options.
    kinds: TagKinds,
    /// The bit of `kinds` that says an end tag is worth a call to
    /// [`Extractor::end_tag`] while text is shown ([`END_CALL_OPEN`] while
    /// an anchor is open, else [`END_CALL_CLOSED`]), kept up to date with
    /// `takes_text`: the rest are at most the line break the token
    /// dispatch writes for the text alone.
    end_call: u8,
    visible: Visible,
    /// The elements whose start tags matter past what is visible, for
    /// what is wanted: [`links::ELEMENTS`], [`meta::ELEMENTS`], and the
    /// images whose `alt` text is anchor text.
    start_tags: ElementSet,
    /// The separator due before the next text: from tags, and, with
    /// offsets (text collapsed token by token), from whitespace too.
    collapse: Collapse,
    /// The text gathered and not yet collapsed, line breaks marked in it.
    raw: Gathered,
    /// Collapses `raw`; its state is the separator due at the end of the
    /// text collapsed so far.
    raw_collapse: Collapse,
    out: Out,
    runs: Vec<TextRun>,
    /// Links found and not yet taken (nor resolved), their strings in
    /// `anchor.out`.
    links: Vec<Found>,
    anchor: Anchor,
    meta: meta::MetaCollector,
    /// Resolves against the page's address.
    document: Resolver,
    /// Resolves against the page's base URL, once its `<base href>` is
    /// seen (until then, links wait).
    base: Option<Resolver>,
    address: Option<Url>,
}

impl Extractor {
    /// An extractor at the start of a page.
    pub fn new(options: &ExtractOptions) -> Extractor {
        let text_only = options.text && !options.links && !options.metadata;
        let track_visible = options.text || options.links;
        let start_tags = [
            (options.links, links::ELEMENTS),
            (options.metadata, meta::ELEMENTS),
            (track_visible, visible::IMAGES),
        ]
        .into_iter()
        .filter(|(wanted, _)| *wanted)
        .fold(ElementSet::of(&[]), |set, (_, elements)| {
            set.union(elements)
        });
        Extractor {
            want_text: options.text,
            want_links: options.links,
            want_metadata: options.metadata,
            alt_text: options.alt_text,
            offsets: options.offsets,
            hidden: options.hidden,
            track_visible,
            text_only,
            text_alone: text_only && !options.offsets,
            takes_text: options.text,
            kinds: TagKinds::new(&KindsOf {
                start_tags,
                track_visible,
                text_only,
                end_calls_closed: end_calls(text_only, options.text, false),
                end_calls_open: end_calls(text_only, options.text, true),
            }),
            end_call: END_CALL_CLOSED,
            visible: Visible::new(options.scripting, options.hidden),
            start_tags,
            collapse: Collapse::default(),
            // Offsets collapse token by token and gather nothing.
            raw: Gathered::with_capacity(if options.text && !options.offsets {
                GATHERED * 2
            } else {
                0
            }),
            raw_collapse: Collapse::default(),
            out: Out::new(if options.text { options.text_limit } else { 0 }),
            runs: Vec::new(),
            links: Vec::new(),
            anchor: Anchor {
                link: None,
                collapse: Collapse::default(),
                out: Out::new(ANCHOR_TEXT_LIMIT),
                start: 0,
            },
            meta: meta::MetaCollector::new(options.metadata_limit),
            document: Resolver::new(options.url.as_ref(), None),
            base: None,
            address: options.url.clone(),
        }
    }

    /// Takes in the next token. Each URL of a `srcset` (or a `ping`, or a
    /// refresh) gets the span of the whole attribute value; see
    /// [`Extractor::token_in`] for spans of their own.
    #[inline]
    pub fn token(&mut self, token: &Token<'_>) {
        self.token_with_source(token, &|_| None);
    }

    /// Takes in the next token of `input` (the text its spans index).
    #[inline]
    pub fn token_in(&mut self, token: &Token<'_>, input: &str) {
        self.token_with_source(token, &|span: Span| input.get(span.range()));
    }

    /// Takes in the next token; `source` gives the input text of a span
    /// of it, when the caller has it (a stream may not, for a span that
    /// began in an earlier chunk).
    #[inline]
    pub fn token_with_source<'s>(
        &mut self,
        token: &Token<'_>,
        source: &dyn Fn(Span) -> Option<&'s str>,
    ) {
        match token {
            // Metadata alone takes only the text of a few elements, links
            // alone only that of an `<a>`: the rest is not worth a call
            // (`text` tests the same).
            Token::Text(text) if self.takes_text() => self.text(text),
            Token::Text(_) => {}
            Token::StartTag(tag) => self.start_tag(tag, source),
            Token::EndTag(tag) => {
                // Most end tags while text is shown: a line break for the
                // text alone, nothing for the rest (see `end_calls`).
                let kind = self.kinds.of(tag.element);
                if self.visible.shows_text() && kind & self.end_call == 0 {
                    if kind & END_LINE != 0 {
                        self.collapse.line_break();
                    }
                } else {
                    self.end_tag(tag);
                }
            }
            Token::Comment(_) | Token::Doctype(_) => {}
        }
    }

    /// Takes in a text token, or a piece of one (a stream that does not
    /// join text hands out pieces; fed in order, they give what the
    /// whole token gives).
    #[inline]
    pub fn text(&mut self, text: &Text<'_>) {
        // Inlined into the token dispatch, which then calls one of the
        // two straight away (a call of its own cost 0.5% of extracting the
        // text); each is out of line, so that neither pays for what the
        // other keeps in registers.
        if self.text_alone {
            self.text_alone(text);
        } else if self.takes_text() {
            self.text_and_more(text);
        }
    }

    /// [`Extractor::text`] when only the text is wanted, without offsets:
    /// the most frequent token of a page. A short text outside `<pre>`
    /// that fills nothing up (most text tokens) is copied here, with no
    /// call, so that this function saves no registers; the rest goes on
    /// in a call in tail position.
    #[inline(never)]
    fn text_alone(&mut self, text: &Text<'_>) {
        if !self.visible.shows_text() || self.out.is_full() {
            return;
        }
        if self.visible.in_pre() || !self.raw.fits_short(text.data.len(), GATHERED) {
            return self.gather_out_of_line(text.data);
        }
        let sep = gathered_separator(self.collapse.take_due());
        self.raw.push_short(sep, text.data);
    }

    /// [`Extractor::gather`], for [`Extractor::text_alone`]'s text that is
    /// long, in `<pre>`, or fills the gathered text up.
    #[inline(never)]
    fn gather_out_of_line(&mut self, text: &str) {
        self.gather(text, self.visible.in_pre());
    }

    /// Whether a text token here is worth a call: the text is wanted, or
    /// the anchor text of an open link (an anchor is only open when links
    /// are wanted, and then what is visible is followed), or the metadata
    /// reads this element's text.
    #[inline(always)]
    fn takes_text(&self) -> bool {
        debug_assert_eq!(self.takes_text, self.takes_text_now());
        self.takes_text
    }

    /// Works out again what the token dispatch tests (`takes_text`,
    /// `end_call`) after a tag that may have changed it.
    #[inline(always)]
    fn refresh(&mut self) {
        self.takes_text = self.takes_text_now();
        self.end_call = if self.anchor.is_open() {
            END_CALL_OPEN
        } else {
            END_CALL_CLOSED
        };
    }

    /// [`Extractor::takes_text`] worked out from the three things it
    /// stands for, which only the tags that open or close a link or that
    /// the metadata reads change ([`Extractor::start_tag_rest`],
    /// [`Extractor::end_tag`], [`Extractor::end_tag_rest`]: each ends with
    /// [`Extractor::refresh`]).
    fn takes_text_now(&self) -> bool {
        self.want_text || self.anchor.is_open() || self.meta.takes_text()
    }

    /// [`Extractor::text`] when links or metadata are wanted too, or
    /// offsets.
    #[inline(never)]
    fn text_and_more(&mut self, text: &Text<'_>) {
        if self.want_metadata {
            self.meta.text(text);
        }
        if !self.visible.shows_text() {
            return;
        }
        if self.want_text && !self.out.is_full() {
            if self.offsets {
                let at = self
                    .collapse
                    .push(&mut self.out, text.data, self.visible.in_pre());
                self.run(at, text.span);
            } else {
                self.gather(text.data, self.visible.in_pre());
            }
        }
        self.anchor.push(text.data);
    }

    /// Gathers `text` as it is, after the separator the tags before it
    /// made due, to be collapsed in bulk when enough is gathered (all but
    /// [`ExtractOptions::offsets`], which needs each token's place in the
    /// output).
    ///
    /// Collapsing text token by token costs a call, a classification and
    /// a copy per token, and most text tokens are a word or two (14 bytes
    /// on average over the corpus): gathered, 16 KiB of text are
    /// collapsed at once, in vector blocks that go across inline tags (`a
    /// <b>b</b> c`) and lines. Collapsing is the same either way: its only
    /// state is the separator due, and a line break, marked in the
    /// gathered text, is the one separator whitespace cannot stand for (a
    /// table cell's space is a space).
    #[inline(always)]
    fn gather(&mut self, text: &str, pre: bool) {
        if let Some(sep) = gathered_separator(self.collapse.take_due()) {
            self.raw.push_separator(sep);
        }
        if pre {
            // Inside `<pre>` each newline is a line break.
            self.raw.push_pre(text);
        } else {
            self.raw.push_str(text);
        }
        if self.raw.len() >= GATHERED {
            self.collapse_gathered();
        }
    }

    /// Collapses the text gathered into the output.
    #[inline(never)]
    fn collapse_gathered(&mut self) {
        self.raw_collapse.push_gathered(&mut self.out, &self.raw);
        self.raw.clear();
    }

    /// Records the output since `at` as coming from `span` (joined to the
    /// last run when `span` continues it).
    fn run(&mut self, at: Option<usize>, span: Span) {
        let end = self.out.len();
        match self.runs.last_mut() {
            Some(last) if last.source.end == span.start => {
                last.source.end = span.end;
                last.text.end = end;
            }
            _ => {
                if let Some(at) = at {
                    self.runs.push(TextRun {
                        text: at..end,
                        source: span,
                    });
                }
            }
        }
    }

    fn boundary(&mut self, boundary: Option<Boundary>) {
        match boundary {
            Some(Boundary::Block) => self.collapse.line_break(),
            Some(Boundary::Cell) => self.collapse.space(),
            None => return,
        }
        self.anchor.space();
    }

    #[inline(never)]
    fn start_tag<'s>(&mut self, tag: &Tag<'_>, source: &dyn Fn(Span) -> Option<&'s str>) {
        // Most tags: nothing is wanted of them past what is visible, and
        // they plainly change nothing of that; at most a boundary. Tested
        // without a call, so that they do not pay for the registers the
        // rest needs saved.
        let kind = self.kinds.of(tag.element);
        // `START_MORE` covers the elements `is_plainly_shown_start` asks
        // to be ruled out; the boundary bits are clear unless what is
        // visible is followed.
        if kind & START_MORE == 0
            && (!self.track_visible || self.visible.is_plainly_shown_start(tag))
        {
            self.boundary(kinds::boundary(kind));
            return;
        }
        self.start_tag_slow(tag, source);
    }

    /// [`Extractor::start_tag`] for the tags that may change what is
    /// visible, or that something past that is wanted of.
    #[inline(never)]
    fn start_tag_slow<'s>(&mut self, tag: &Tag<'_>, source: &dyn Fn(Span) -> Option<&'s str>) {
        if self.track_visible {
            let boundary = self.visible.start_tag(tag);
            self.boundary(boundary);
        }
        if self.text_only {
            // Only images (alt text) matter past what is visible.
            if visible::IMAGES.contains(tag.element) && self.visible.shows_text() {
                self.alt(tag);
            }
            return;
        }
        if self.start_tags.contains(tag.element) {
            self.start_tag_rest(tag, source);
        }
    }

    /// [`Extractor::start_tag_slow`] past what is visible, when links or
    /// metadata are wanted, for the elements of `start_tags`.
    #[inline(always)]
    fn start_tag_rest<'s>(&mut self, tag: &Tag<'_>, source: &dyn Fn(Span) -> Option<&'s str>) {
        match tag.element {
            Element::Img | Element::Input if self.track_visible && self.visible.shows_text() => {
                self.alt(tag)
            }
            Element::A => self.close_anchor(),
            Element::Base if self.base.is_none() && tag.attr("href").is_some() => {
                self.base = Some(Resolver::new(self.address.as_ref(), tag.attr_value("href")));
            }
            _ => {}
        }
        let wanted = if self.want_links {
            links::url_attributes_of(tag)
        } else {
            None
        };
        if let Some(wanted) = wanted {
            let first = self.links.len();
            let anchor = &mut self.anchor;
            let before = anchor.out.buf.len();
            links::tag_links(source, tag, wanted, &mut self.links, &mut anchor.out.buf);
            let after = anchor.out.buf.len();
            if anchor.is_open() && after != before {
                // The strings of a link inside the anchor (an `<img>`)
                // went after the anchor text so far, which moves after
                // them (into bytes left unused until the links are taken).
                if anchor.start != before {
                    // (Through a copy: `String::extend_from_within` is
                    // newer than the crate's MSRV; the case is rare.)
                    let so_far = anchor.out.buf[anchor.start..before].to_owned();
                    anchor.out.buf.push_str(&so_far);
                }
                anchor.start = after;
            }
            let href = (first..self.links.len()).find(|&i| self.links[i].head.is_href());
            if let Some(i) = href.filter(|_| tag.element == Element::A) {
                anchor.link = Some(i);
                anchor.collapse = Collapse::default();
                anchor.out.restart(ANCHOR_TEXT_LIMIT);
                anchor.start = anchor.out.buf.len();
            }
        }
        if self.want_metadata {
            self.meta.start_tag(tag);
        }
        self.refresh();
    }

    /// Writes the `alt` text of an image, when asked to (and to the anchor
    /// text of the link it is in, always).
    fn alt(&mut self, tag: &Tag<'_>) {
        if tag.element == Element::Input
            && !tag
                .attr_value("type")
                .is_some_and(|t| t.eq_ignore_ascii_case("image"))
        {
            return;
        }
        let Some(alt) = tag.attr("alt") else {
            return;
        };
        if self.hidden && visible::has_hidden_attribute(tag) {
            return;
        }
        self.anchor.space();
        self.anchor.push(alt.value);
        self.anchor.space();
        if self.alt_text && self.want_text {
            self.collapse.space();
            if self.offsets {
                let at = self.collapse.push(&mut self.out, alt.value, false);
                let span = alt.value_span.unwrap_or(alt.name_span);
                if let Some(at) = at {
                    self.runs.push(TextRun {
                        text: at..self.out.len(),
                        source: span,
                    });
                }
            } else {
                self.gather(alt.value, false);
            }
            self.collapse.space();
        }
    }

    #[inline(never)]
    fn end_tag(&mut self, tag: &Tag<'_>) {
        // Most end tags while text is shown are at most a boundary: of the
        // text and the anchor text, if they are wanted.
        if self.visible.shows_text() && !END_TAGS.contains(tag.element) {
            if self.want_text || self.anchor.is_open() {
                self.boundary(visible::boundary(tag.element));
            }
            return;
        }
        if tag.element == Element::A && self.visible.shows_text() {
            // Neither a boundary nor read by the metadata: it ends the
            // anchor text, if any.
            self.close_anchor();
            return self.refresh();
        }
        self.end_tag_rest(tag);
    }

    /// [`Extractor::end_tag`] for the end tags of `END_TAGS`, and any
    /// while text is hidden.
    #[inline(never)]
    fn end_tag_rest(&mut self, tag: &Tag<'_>) {
        if self.track_visible {
            let boundary = self.visible.end_tag(tag);
            self.boundary(boundary);
        }
        if tag.element == Element::A {
            self.close_anchor();
        }
        if self.want_metadata {
            self.meta.end_tag(tag);
        }
        self.refresh();
    }

    #[inline(never)]
    fn close_anchor(&mut self) {
        if let Some(link) = self.anchor.link.take() {
            let text = (self.anchor.start, self.anchor.out.buf.len());
            self.links[link].set_anchor_text(text);
        }
    }

    /// Makes room for `bytes` more of text (no more than
    /// [`ExtractOptions::text_limit`] lets through), as
    /// [`String::reserve`] does: a hint for a caller who knows the page's
    /// length.
    ///
    /// The text of a page is shorter than the page (each byte of it comes
    /// from a byte of text or of an attribute, each separator from a tag),
    /// and on real pages about a third of it; room for half the page spares
    /// the regrowing of the text as it comes, each of which copies the text
    /// so far (over the corpus, 2.3 M instructions of the 141 M that text
    /// extraction takes). [`extract`] does this.
    ///
    /// ```
    /// use htmltok::extract::{ExtractOptions, Extractor};
    /// use htmltok::Tokenizer;
    /// use bumpalo::Bump;
    ///
    /// let html = "<p>One<p>Two";
    /// let mut extractor = Extractor::new(&ExtractOptions::default());
    /// extractor.reserve_text(html.len() / 2);
    /// let arena = Bump::new();
    /// for token in Tokenizer::new(html, &arena) {
    ///     extractor.token_in(&token, html);
    /// }
    /// assert_eq!(extractor.finish().text, "One\nTwo");
    /// ```
    pub fn reserve_text(&mut self, bytes: usize) {
        if self.want_text {
            // And room to collapse the last text gathered into (see
            // `Extractor::gather`), so that the text that fits `bytes`
            // needs no more.
            self.out.reserve(bytes.saturating_add(GATHERED + 64));
        }
    }

    /// Makes room for what a page of `page_bytes` bytes usually yields,
    /// for a caller who knows its length: text for half of it (see
    /// [`Extractor::reserve_text`]) and, when links are wanted, one link
    /// for every [`PAGE_BYTES_PER_LINK`] bytes (at most
    /// [`LINKS_RESERVED_MAX`]). [`extract`] does this.
    ///
    /// Links wait in the extractor for the page's `<base>` (or its end),
    /// in a list that otherwise grows by doubling, copying what it holds
    /// each time: over the corpus, 4 M instructions of the 146 M that
    /// link extraction takes. The pages of the corpus hold one link for
    /// every 208 to 3,400 bytes; room reserved and not used is not touched.
    ///
    /// ```
    /// use htmltok::extract::{ExtractOptions, Extractor};
    /// use htmltok::Tokenizer;
    /// use bumpalo::Bump;
    ///
    /// let html = "<a href=/a>A</a> <a href=/b>B</a>";
    /// let mut extractor = Extractor::new(&ExtractOptions::default());
    /// extractor.reserve_page(html.len());
    /// let arena = Bump::new();
    /// for token in Tokenizer::new(html, &arena) {
    ///     extractor.token_in(&token, html);
    /// }
    /// assert_eq!(extractor.finish().links.len(), 2);
    /// ```
    pub fn reserve_page(&mut self, page_bytes: usize) {
        self.reserve_text(page_bytes / 2);
        if self.want_links {
            let links = (page_bytes / PAGE_BYTES_PER_LINK).min(LINKS_RESERVED_MAX);
            self.links.reserve(links);
            // A URL and its anchor text: about 32 bytes a link.
            self.anchor.out.buf.reserve(links * 32);
        }
    }

    /// Whether nothing more can be extracted: only text was asked for, and
    /// its cap is reached. A caller may stop tokenizing.
    pub fn is_done(&self) -> bool {
        !self.want_links && !self.want_metadata && self.out.is_full()
    }

    /// The text written since it was last taken (the whole text so far,
    /// the first time), to write out as the page goes by. Runs
    /// ([`TextRun`]) keep their offsets in the whole text.
    pub fn take_text(&mut self) -> String {
        self.collapse_gathered();
        self.out.drain()
    }

    /// The text written since it was last taken or cleared, without taking
    /// it: with [`Extractor::clear_text`], a caller that writes the text
    /// out as it goes reuses one buffer (and asks
    /// [`Extractor::held_text_len`] when to).
    pub fn pending_text(&mut self) -> &str {
        self.collapse_gathered();
        &self.out.buf
    }

    /// Forgets the text written since it was last taken or cleared (see
    /// [`Extractor::pending_text`]).
    pub fn clear_text(&mut self) {
        self.collapse_gathered();
        self.out.drained += self.out.buf.len();
        self.out.buf.clear();
    }

    /// The length of the whole text written so far, taken or not.
    pub fn text_len(&mut self) -> usize {
        self.collapse_gathered();
        self.out.len()
    }

    /// How many bytes of text the extractor holds, collapsed or not yet:
    /// at least the length of [`Extractor::pending_text`], and cheap to
    /// ask after every token (it collapses nothing).
    ///
    /// ```
    /// use htmltok::extract::{ExtractOptions, Extractor};
    /// use htmltok::{Tokenizer, bumpalo::Bump};
    ///
    /// let arena = Bump::new();
    /// let mut extractor = Extractor::new(&ExtractOptions::default());
    /// let mut written = String::new();
    /// for token in Tokenizer::new("<p>one <b>two</b><p>three", &arena) {
    ///     extractor.token(&token);
    ///     if extractor.held_text_len() >= 4 {
    ///         written.push_str(extractor.pending_text());
    ///         extractor.clear_text();
    ///     }
    /// }
    /// written.push_str(extractor.pending_text());
    /// assert_eq!(written, "one two\nthree");
    /// ```
    pub fn held_text_len(&self) -> usize {
        self.out.buf.len() + self.raw.len()
    }

    /// The text runs recorded since they were last taken.
    pub fn take_runs(&mut self) -> Vec<TextRun> {
        core::mem::take(&mut self.runs)
    }

    /// How many links the extractor holds, not yet taken (a caller that
    /// bounds its memory takes them with
    /// [`Extractor::take_links_unresolved`] past some number).
    pub fn links_held(&self) -> usize {
        self.links.len()
    }

    /// About how many bytes the links not yet taken hold (their strings
    /// and what the extractor keeps of each): what a caller that bounds
    /// its memory compares with its budget, as `htmltok links` does for
    /// the links that wait for a page's `<base>`.
    ///
    /// ```
    /// use htmltok::extract::{ExtractOptions, Extractor};
    /// use htmltok::{Tokenizer, bumpalo::Bump};
    ///
    /// let html = "<a href=/one>1</a><a href=/two>2</a>";
    /// let arena = Bump::new();
    /// let mut extractor = Extractor::new(&ExtractOptions::default());
    /// for token in Tokenizer::new(html, &arena) {
    ///     extractor.token(&token);
    /// }
    /// assert_eq!(extractor.links_held(), 2);
    /// assert!(extractor.links_held_bytes() >= "/one1/two2".len());
    /// let links = extractor.take_links_unresolved();
    /// assert_eq!(extractor.links_held_bytes(), 0);
    /// ```
    pub fn links_held_bytes(&self) -> usize {
        self.links.len() * core::mem::size_of::<Found>() + self.anchor.out.buf.len()
    }

    /// Whether the page's base URL is known: its `<base href>` was seen.
    /// Until then (or the end of the page) [`Extractor::take_links`] holds
    /// links back, since a `<base>` applies to the links before it too.
    pub fn base_known(&self) -> bool {
        self.base.is_some()
    }

    /// The links found and resolved since they were last taken, in page
    /// order: none until the base URL is known (see
    /// [`Extractor::base_known`]); an `<a>` whose anchor text is still
    /// being read and the links after it stay.
    pub fn take_links(&mut self) -> Vec<Link> {
        if self.base.is_none() {
            return Vec::new();
        }
        self.take_resolved()
    }

    /// The finished links, resolved as far as the page has been read.
    fn take_resolved(&mut self) -> Vec<Link> {
        let (document, base) = (&self.document, self.base.as_ref());
        let url_room = base
            .unwrap_or(document)
            .base()
            .map_or(0, |url| url.as_str().len());
        Self::drain_ready_links(
            &mut self.links,
            &mut self.anchor.out.buf,
            &mut self.anchor.link,
            url_room,
            |found, raw, out| {
                let is_base = found.head.element == Element::Base;
                resolver_of(is_base, document, base).resolve_trimmed_into(raw, out)
            },
        )
    }

    /// The finished links not yet taken (an `<a>` whose anchor text is
    /// still being read, and the links after it, stay), their URLs resolved
    /// by `resolve` (see [`Link::assemble_all`]).
    fn drain_ready_links(
        links: &mut Vec<Found>,
        links_text: &mut String,
        anchor: &mut Option<usize>,
        url_room: usize,
        resolve: impl Fn(&Found, &str, &mut String) -> Written,
    ) -> Vec<Link> {
        let ready = anchor.unwrap_or(links.len());
        if let Some(link) = anchor {
            *link = 0;
        }
        let taken = Link::assemble_all(&links[..ready], links_text, url_room, resolve);
        links.drain(..ready);
        if links.is_empty() {
            links_text.clear();
        }
        taken
    }

    /// The links found since they were last taken, with `url` as written
    /// whatever the base: for a caller that keeps them elsewhere (a page
    /// with a million links before its `<base>`, or none) and resolves
    /// them at the end with [`Extractor::resolve`].
    pub fn take_links_unresolved(&mut self) -> Vec<Link> {
        Self::drain_ready_links(
            &mut self.links,
            &mut self.anchor.out.buf,
            &mut self.anchor.link,
            0,
            |_, raw, out| {
                out.push_str(raw);
                Written {
                    error: None,
                    ends_with_raw: true,
                }
            },
        )
    }

    /// Resolves a link taken with [`Extractor::take_links_unresolved`],
    /// against the page's base URL as far as the page has been read (its
    /// final base URL, once the whole page has been).
    pub fn resolve(&self, link: &mut Link) {
        let resolver = resolver_of(link.tag == "base", &self.document, self.base.as_ref());
        *link = link.reassembled(|raw, out| resolver.resolve_into(raw, out));
    }

    /// Resolves `raw` as a URL of a `tag` element (`<base href>` against
    /// the page's address, anything else against its base URL), as far as
    /// the page has been read.
    pub fn resolve_url(&self, tag: &str, raw: &str) -> Resolved {
        resolver_of(tag == "base", &self.document, self.base.as_ref()).resolve(raw)
    }

    /// Ends the page: everything not yet taken.
    pub fn finish(mut self) -> Extracted {
        self.collapse_gathered();
        self.close_anchor();
        let links = self.take_resolved();
        let base = self.base.take().unwrap_or_else(|| self.document.clone());
        let text_truncated = self.out.truncated;
        let mut text = self.out.drain();
        if text.capacity() > 2 * text.len() + 4096 {
            // Room reserved for more than came: given back (in place).
            text.shrink_to_fit();
        }
        Extracted {
            text,
            runs: self.runs,
            text_truncated,
            links,
            metadata: self.meta.finish(&self.document, &base),
        }
    }
}

/// What resolves a URL of an element: the page's address (`document`)
/// for `<base href>` (`is_base`), its base URL as far as the page has been
/// read for anything else.
fn resolver_of<'r>(
    is_base: bool,
    document: &'r Resolver,
    base: Option<&'r Resolver>,
) -> &'r Resolver {
    if is_base {
        document
    } else {
        base.unwrap_or(document)
    }
}
