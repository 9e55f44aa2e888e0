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
//! size takes text and links as it goes. Main content and Markdown hold
//! the page's text until its end; [`ExtractOptions::memory_limit`] bounds
//! what an extractor holds, and past it the page is extracted as far as
//! it was read and reported ([`Extracted::memory_limit`]).
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

// The module map: what each file does, in the order a token meets them.
mod collapse; // whitespace collapsing, run by run or in gathered blocks
mod extracted; // the result: `Extracted`, `TextRun`
mod extractor; // `Extractor`: the token dispatch, and taking what it gathered
mod held; // links not yet taken: anchor text, base URL, resolving them out
mod kinds; // one byte per element: what its tags ask of the dispatch
mod link; // `Link`: a URL found, its strings shared with the links taken with it
mod links; // which attributes of which elements hold URLs, and finding them
pub mod main_content; // the page's main content: blocks, their features, the model
pub mod markdown; // the text as Markdown: blocks, inline markup, tables, escaping
mod meta; // the metadata: title, description, robots, Open Graph, ...
mod options; // `ExtractOptions`
mod rel; // `Rel`: the `rel` keywords an indexer acts on
mod resolve; // URL resolution per the URL Standard, against the base URL
mod text; // the text as written: gathered, or token by token with offsets
mod url_lists; // attributes of several URLs: `srcset`, `ping`, a refresh
mod visible; // which text a reader sees, tag by tag

use core::ops::ControlFlow;

use bumpalo::Bump;

use crate::tokenizer::Tokenizer;

pub use extracted::{Extracted, MainContent, TextRun};
pub use extractor::{Extractor, LINKS_RESERVED_MAX, PAGE_BYTES_PER_LINK};
pub use link::{ANCHOR_TEXT_LIMIT, LINKS_PER_BUFFER, Link};
pub use meta::{Alternate, MetaKey, MetaTag, Metadata, Refresh};
pub use options::{ExtractOptions, TextFormat};
pub use rel::Rel;
pub use resolve::{Resolved, Resolver};

/// Extracts text, links and metadata from a whole page (tokenized with
/// the default [`Options`](crate::Options), scripting and the memory
/// limit as `options` say: [`ExtractOptions::tokenizer_options`]).
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
    // Only a capped text or a memory limit can end the work early; without
    // them the loop that cannot stop is cheaper (BENCHMARKS.md, "Why the
    // extraction code is as it is").
    let capped = options.text_limit != usize::MAX && !options.links && !options.metadata;
    if !capped && options.memory_limit.is_none() {
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
    let mut found = extractor.finish();
    if found.memory_limit.is_none() {
        found.memory_limit = tokenizer.limit_error().copied();
    }
    found
}
