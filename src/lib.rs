//! A zero-copy HTML tokenizer that follows the WHATWG HTML Standard exactly.
//!
//! `htmltok` implements the [tokenization](https://html.spec.whatwg.org/multipage/parsing.html#tokenization) stage of the
//! HTML Living Standard (all 80 states, with its [parse errors](https://html.spec.whatwg.org/multipage/parsing.html#parse-errors)
//! and the [preprocessing of the input stream](https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream))
//! over the bytes of a `&str`. It yields
//! [`Token`]s whose strings borrow from the input wherever the source is
//! already the answer, and go to a caller-supplied [`bumpalo::Bump`] arena
//! only when they differ from it (decoded character references, lowercased
//! names, replaced NULs, normalized newlines).
//!
//! # Example
//!
//! ```
//! use htmltok::{Token, Tokenizer, bumpalo::Bump};
//!
//! let html = r#"<a href="/x?a=1&amp;b=2">Fish &amp; chips</a>"#;
//! let arena = Bump::new();
//! let mut out = Vec::new();
//! for token in Tokenizer::new(html, &arena) {
//!     match token {
//!         Token::StartTag(tag) => out.push(format!("<{} {:?}>", tag.name, tag.attr_value("href"))),
//!         Token::Text(text) => out.push(text.data.to_string()),
//!         Token::EndTag(tag) => out.push(format!("</{}>", tag.name)),
//!         _ => {}
//!     }
//! }
//! assert_eq!(out, [r#"<a Some("/x?a=1&b=2")>"#, "Fish & chips", "</a>"]);
//! ```
//!
//! # Pulled or pushed
//!
//! The tokenizer is an [`Iterator`]; it also hands every token to a
//! closure ([`Tokenizer::for_each_token`], or
//! [`Tokenizer::try_for_each_token`] to stop early). Both run the same
//! loop and give the same tokens and errors; pushing skips the trip out of
//! the loop and back for each token, which makes it the faster of the two
//! (about 12% fewer instructions over real pages, BENCHMARKS.md), and the
//! two mix: the tokenizer keeps its place either way.
//!
//! ```
//! use htmltok::{Token, Tokenizer, bumpalo::Bump};
//!
//! let arena = Bump::new();
//! let mut tok = Tokenizer::new("<title>Fish</title><p>one<p>two", &arena);
//! // Pull the first tokens, then push the rest.
//! let first: Vec<Token> = tok.by_ref().take(3).collect();
//! assert!(matches!(&first[1], Token::Text(t) if t.data == "Fish"));
//! let mut paragraphs = 0;
//! tok.for_each_token(|token| {
//!     if matches!(token, Token::StartTag(tag) if tag.name == "p") {
//!         paragraphs += 1;
//!     }
//! });
//! assert_eq!(paragraphs, 2);
//! ```
//!
//! # Borrowed or in the arena
//!
//! ```
//! use htmltok::{Token, Tokenizer, bumpalo::Bump};
//!
//! let html = "<p>plain</p><p>a &lt; b</p>";
//! let arena = Bump::new();
//! let texts: Vec<&str> = Tokenizer::new(html, &arena)
//!     .filter_map(|t| match t { Token::Text(t) => Some(t.data), _ => None })
//!     .collect();
//! // "plain" is a slice of `html` itself: no copy was made.
//! assert!(html.as_bytes().as_ptr_range().contains(&texts[0].as_ptr()));
//! // "a < b" differs from its source, so it was written to the arena.
//! assert_eq!(texts[1], "a < b");
//! assert!(!html.as_bytes().as_ptr_range().contains(&texts[1].as_ptr()));
//! ```
//!
//! # Parse errors
//!
//! Off by default, and free when off. When on, each error has its spec code
//! and byte offset; [`LineIndex`] turns offsets into lines and columns.
//!
//! ```
//! use htmltok::{LineIndex, Options, Tokenizer, bumpalo::Bump};
//!
//! let html = "<p>\n<div class=a class=b>";
//! let arena = Bump::new();
//! let mut tok = Tokenizer::with_options(html, &arena, Options::default().errors(true));
//! tok.by_ref().for_each(drop);
//! let index = LineIndex::new(html);
//! let errs: Vec<_> = tok
//!     .errors()
//!     .iter()
//!     .map(|e| (e.code.as_str(), index.line_col(e.offset)))
//!     .collect();
//! assert_eq!(errs, [("duplicate-attribute", (2, 19))]);
//! ```
//!
//! # Driving it from a tree builder
//!
//! By default the tokenizer switches content model after `<script>`,
//! `<style>`, `<title>`, `<textarea>` and the like, and follows `<svg>` and
//! `<math>` for CDATA sections (and, after a `<frameset>` has taken over
//! the page, ignores those tags as a tree builder does), so that iterating
//! over a page gives what a browser's tokenizer sees. A tree builder turns that off with
//! [`Options::auto_switch`] and calls [`Tokenizer::set_state`],
//! [`Tokenizer::set_last_start_tag`] and [`Tokenizer::set_foreign`] itself.
//!
//! Those switches come from an approximation of tree construction that
//! costs O(1) a tag and is exact on real pages; on contrived markup (an end
//! tag closing `<svg>` from outside it, misnested formatting elements,
//! table tags inside foreign content) it can differ from a browser.
//! [`Options::exact_switching`] follows tree construction exactly instead,
//! at a tree builder's cost:
//!
//! ```
//! use htmltok::{Options, Token, Tokenizer, bumpalo::Bump};
//!
//! let arena = Bump::new();
//! let page = "<div><svg></div><![CDATA[x]]>";
//! let last = |opts| Tokenizer::with_options(page, &arena, opts).last();
//! // `</div>` closes the `svg`, so a browser reads a bogus comment.
//! let exact = last(Options::default().exact_switching(true));
//! assert!(matches!(exact, Some(Token::Comment(c)) if c.data == "[CDATA[x]]"));
//! // The approximation does not follow the `div`.
//! assert!(matches!(last(Options::default()), Some(Token::Text(t)) if t.data == "x"));
//! ```
//!
//! # Streaming
//!
//! [`StreamTokenizer`] takes the input a chunk at a time and yields the same
//! tokens as the whole input would, with spans absolute in the stream and
//! memory bounded by twice the longest token plus the chunk (see
//! [`stream`]).
//!
//! # Bytes in
//!
//! With the `encoding` feature (on by default), `Document::from_bytes`
//! takes the bytes of a page and finds its encoding as a browser does
//! ([the encoding sniffing algorithm](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm): byte order mark, the caller's override or HTTP charset, the
//! `<meta>` prescan, a default of windows-1252), decodes it to UTF-8 (without
//! a copy when the bytes already are valid UTF-8, and within an optional
//! memory limit), and tokenizes it. The `encoding` module has the details,
//! including the `<meta>` met later that changes the encoding.
//!
//! ```
//! # #[cfg(feature = "encoding")] {
//! use htmltok::{DecodeOptions, Document, bumpalo::Bump};
//!
//! let bytes = b"<meta charset=windows-1251><p>\xcf\xf0\xe8\xe2\xe5\xf2";
//! let doc = Document::from_bytes(bytes, &DecodeOptions::default()).unwrap();
//! assert_eq!((doc.encoding_label(), doc.confidence().as_str()), ("windows-1251", "tentative"));
//! assert_eq!(doc.text(), "<meta charset=windows-1251><p>Привет");
//! let arena = Bump::new();
//! assert_eq!(doc.tokenizer(&arena).count(), 3); // <meta>, <p>, the text
//! # }
//! ```
//!
//! # Crawl archives
//!
//! With the `warc` feature (off by default), the `warc` module reads WARC
//! files (plain or gzip, from any `Read`): every record with its number
//! and offset, and the HTML pages among them with their target URI,
//! record id, HTTP status and a `Document` decoded with the HTTP charset.
//! Damaged archives are reported record by record, and reading goes on.
//! It also writes them: records (WARC 1.0 or 1.1, plain or a gzip member
//! per record), and WET files of the pages' text as Common Crawl lays
//! them out.
//!
//! # Back to HTML
//!
//! The [`serialize`] module writes tokens back as HTML, escaping as the
//! standard's serialization algorithm does; tokenizing its output gives the
//! same tokens again (see [`serialize`] for the exact promise).

#![deny(missing_docs)]
// Unsafe code is allowed in one module only, `scan` (its docs list where:
// the vector code, the slicing of scanned runs, the squeezed text's writes).
#![deny(unsafe_code)]

pub use bumpalo;

pub mod element;
#[cfg(feature = "encoding")]
pub mod encoding;
mod entities;
mod error;
#[cfg(feature = "extract")]
pub mod extract;
mod memory_limit;
pub mod mime;
mod position;
mod scan;
pub mod serialize;
pub mod stream;
#[cfg(test)]
mod testing;
mod token;
mod tokenizer;
#[cfg(feature = "warc")]
pub mod warc;

pub use element::Element;
pub use error::{ErrorCode, ParseError};
pub use memory_limit::{MemoryLimitError, MemoryLimitKind};
pub use position::{LineCursor, LineIndex};
pub use stream::{Feed, StreamError, StreamOptions, StreamTokenizer};
pub use token::{Attribute, Attributes, Comment, Doctype, Span, Tag, Text, Token};
pub use tokenizer::{Options, State, Tokenizer};

#[cfg(feature = "encoding")]
pub use encoding::{
    Confidence, DecodeError, DecodeOptions, Document, EncodingChange, EncodingSource,
    EncodingWatcher, SniffingStream, canonical_label, encoding_for_label,
};
#[cfg(feature = "encoding")]
pub use encoding_rs;
/// The `url` crate, whose `Url` gives [`extract`] a page's address.
#[cfg(feature = "extract")]
pub use url;

/// The README's Rust examples, compiled and run with the doc tests so that
/// they stay true to the API.
#[cfg(all(doctest, feature = "warc", feature = "extract"))]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
