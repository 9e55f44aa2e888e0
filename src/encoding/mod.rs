//! Bytes in: encoding sniffing, decoding to UTF-8 and the `<meta>` encoding
//! change, as the HTML Standard says ([the input byte stream](https://html.spec.whatwg.org/multipage/parsing.html#the-input-byte-stream)). Behind the `encoding`
//! feature, on by default.
//!
//! The tokenizer works on a `&str`. Pages come as bytes, in whatever
//! encoding their server, byte order mark or `<meta>` says, or none. This
//! module turns bytes into the text a browser would tokenize:
//!
//! 1. **Sniffing** ([`sniff()`], the [encoding sniffing algorithm](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm)): a byte order mark, else the
//!    caller's override, else the transport layer's charset (HTTP
//!    `Content-Type`), all *certain*; else the `<meta>` prescan of the first
//!    1024 bytes ([`prescan`]), else (optionally) UTF-8 detection, else a
//!    default (windows-1252), all *tentative*.
//! 2. **Decoding** (the Encoding Standard's decoders, from `encoding_rs`):
//!    malformed sequences become U+FFFD exactly as the standard says (the
//!    "maximal subpart" rule for UTF-8, so `E2 82 41` is U+FFFD `A`).
//!    **Nothing is copied** when the bytes already are the text: valid UTF-8
//!    decoded as UTF-8, or ASCII-only bytes in an ASCII-compatible encoding.
//!    Then [`Document::text`] is a `&str` over the caller's bytes (after the
//!    BOM) and every borrowed token string points into them. Otherwise one
//!    copy is made, bounded by [`DecodeOptions::memory_limit`].
//! 3. **[Changing the encoding](https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing)**: with a tentative encoding, a
//!    `<meta charset>` the tokenizer meets later (past the prescan's 1024
//!    bytes, say) that names another encoding means the page is to be
//!    decoded again. [`EncodingWatcher`] and
//!    [`Document::tokens_with_encoding_check`] report it as an
//!    [`EncodingChange`], [`Document::reparse`] decodes again, and
//!    [`Document::from_bytes_resolved`] does the whole round.
//!
//! # Why a feature
//!
//! Decoding needs the Encoding Standard's tables (`encoding_rs`, some
//! hundreds of KiB of code and data). A caller whose input is already a
//! `&str` (most Rust programs) does not need them, so `default-features =
//! false` leaves the tokenizer with no `encoding_rs` at all; everything in
//! this module, and its re-exports at the crate root, is then absent.
//! `encoding_rs` is re-exported as [`crate::encoding_rs`] so callers can name
//! encodings (`htmltok::encoding_rs::SHIFT_JIS`) without a dependency of
//! their own.
//!
//! # Example
//!
//! ```
//! use htmltok::{Confidence, DecodeOptions, Document, Token, bumpalo::Bump};
//!
//! // Shift_JIS bytes for "<meta charset=shift_jis><p>日本語</p>".
//! let bytes = b"<meta charset=shift_jis><p>\x93\xfa\x96\x7b\x8c\xea</p>";
//! let doc = Document::from_bytes(bytes, &DecodeOptions::default())?;
//! assert_eq!(doc.encoding_label(), "shift_jis");
//! assert_eq!(doc.confidence(), Confidence::Tentative); // from the prescan
//!
//! let arena = Bump::new();
//! let text: String = doc
//!     .tokenizer(&arena)
//!     .filter_map(|t| match t { Token::Text(t) => Some(t.data), _ => None })
//!     .collect();
//! assert_eq!(text, "日本語");
//! # Ok::<(), htmltok::DecodeError>(())
//! ```
//!
//! Valid UTF-8 is not copied: tokens borrow the caller's bytes.
//!
//! ```
//! use htmltok::{DecodeOptions, Document, Token, bumpalo::Bump};
//!
//! let bytes = "<meta charset=utf-8><p>naïve café".as_bytes();
//! let doc = Document::from_bytes(bytes, &DecodeOptions::default())?;
//! assert!(doc.is_borrowed());
//! let arena = Bump::new();
//! let Some(Token::Text(text)) = doc.tokenizer(&arena).nth(2) else { unreachable!() };
//! assert!(bytes.as_ptr_range().contains(&text.data.as_ptr()));
//! # Ok::<(), htmltok::DecodeError>(())
//! ```
//!
//! A memory cap turns an oversized decode into an error, never a panic or
//! an abort:
//!
//! ```
//! use htmltok::{DecodeError, DecodeOptions, Document};
//!
//! let bytes = vec![0xE9; 10_000]; // "é" × 10,000 in windows-1252: 20,000 bytes of UTF-8
//! let opts = DecodeOptions::default().memory_limit(Some(4096));
//! let err = Document::from_bytes(&bytes, &opts).unwrap_err();
//! assert!(matches!(err, DecodeError::MemoryLimit(e) if e.needed == 20_000 && e.limit == 4096));
//! assert_eq!(
//!     err.to_string(),
//!     "memory limit of 4096 bytes exceeded: \
//!      20000 bytes needed for the text decoded from windows-1252 to UTF-8",
//! );
//! ```

mod change;
mod decode;
mod labels;
mod sniff;
mod stream;

use std::borrow::Cow;
use std::fmt;

use bumpalo::Bump;
use encoding_rs::{Encoding, WINDOWS_1252};

use crate::memory_limit::{MemoryLimitError, MemoryLimitKind};
use crate::tokenizer::{Options, Tokenizer};

pub use change::{CheckedTokens, EncodingChange, EncodingWatcher, meta_declared_encoding};
pub use labels::{canonical_label, encoding_for_label};
pub use sniff::{PRESCAN_BYTES, Sniffed, extract_meta_charset, prescan, sniff};
pub use stream::SniffingStream;

/// How sure the sniffing algorithm is of an encoding (its
/// [confidence](https://html.spec.whatwg.org/multipage/parsing.html#concept-encoding-confidence)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Confidence {
    /// From a byte order mark, the user's override or the transport layer,
    /// or confirmed or set by a `<meta>` while parsing: a `<meta>` can no
    /// longer change it.
    Certain,
    /// From the `<meta>` prescan, UTF-8 detection or the default: a
    /// `<meta>` met while parsing can still change it.
    Tentative,
}

impl Confidence {
    /// `"certain"` or `"tentative"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Certain => "certain",
            Confidence::Tentative => "tentative",
        }
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which step decided a document's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodingSource {
    /// A byte order mark at the start of the bytes (certain).
    Bom,
    /// [`DecodeOptions::override_encoding`] (certain).
    Override,
    /// [`DecodeOptions::transport_charset`] (certain).
    Transport,
    /// The `<meta>` prescan (or an XML declaration; tentative).
    Prescan,
    /// UTF-8 detection, [`DecodeOptions::detect_utf8`] (tentative).
    Utf8Detection,
    /// [`DecodeOptions::default_encoding`] (tentative).
    Default,
    /// A `<meta>` found while tokenizing changed the encoding and the
    /// document was decoded again ([`Document::reparse`]; certain).
    Meta,
}

impl EncodingSource {
    /// A short name: `"bom"`, `"override"`, `"transport"`, `"prescan"`,
    /// `"utf8-detection"`, `"default"` or `"meta"`.
    pub fn as_str(self) -> &'static str {
        match self {
            EncodingSource::Bom => "bom",
            EncodingSource::Override => "override",
            EncodingSource::Transport => "transport",
            EncodingSource::Prescan => "prescan",
            EncodingSource::Utf8Detection => "utf8-detection",
            EncodingSource::Default => "default",
            EncodingSource::Meta => "meta",
        }
    }
}

impl fmt::Display for EncodingSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How [`Document::from_bytes`] sniffs and decodes. Build one with
/// [`DecodeOptions::default`] and the builder methods.
///
/// ```
/// use htmltok::{DecodeOptions, encoding_rs};
/// let opts = DecodeOptions::default()
///     .transport_charset("ISO-8859-1")      // from Content-Type: text/html; charset=ISO-8859-1
///     .default_encoding(encoding_rs::UTF_8) // instead of windows-1252
///     .memory_limit(Some(64 << 20));        // at most 64 MiB for the decoded copy
/// # let _ = opts;
/// let opts = DecodeOptions::default().override_label("sjis")?; // a user's --encoding
/// assert_eq!(opts.override_encoding, Some(encoding_rs::SHIFT_JIS));
/// # Ok::<(), htmltok::DecodeError>(())
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct DecodeOptions {
    /// The charset the transport layer gave (the `charset` parameter of an
    /// HTTP `Content-Type`), as a label. A known label decides with
    /// certainty, as is (`utf-16` is UTF-16LE); an unknown one is ignored,
    /// as the standard says. Check it with [`encoding_for_label`] to warn.
    /// A byte order mark still wins. `None` by default.
    pub transport_charset: Option<String>,
    /// The user's explicit choice of encoding (a command line's
    /// `--encoding`): decides with certainty over the transport layer and
    /// the prescan, but not over a byte order mark (as in browsers). `None`
    /// by default.
    pub override_encoding: Option<&'static Encoding>,
    /// The encoding when nothing else decides: windows-1252 by default, the
    /// standard's suggestion for most locales (UTF-8 suits a controlled
    /// environment).
    pub default_encoding: &'static Encoding,
    /// The most bytes the decode stage may allocate for the decoded text
    /// (its UTF-8 copy), or `None` (the default) for no limit. Zero-copy
    /// input (valid UTF-8, or ASCII in an ASCII-compatible encoding)
    /// allocates nothing and is never refused; a decode that would need more
    /// fails with [`DecodeError::MemoryLimit`] ([`MemoryLimitKind::Decode`]),
    /// saying how much it needed.
    /// This bounds decoding; the tokenizer has its own
    /// [`Options::memory_limit`] for its arena, which
    /// [`Document::resolve`] sets to this one when it is not set.
    pub memory_limit: Option<usize>,
    /// How many bytes the `<meta>` prescan looks at: [`PRESCAN_BYTES`]
    /// (1024) by default, as browsers do; 0 turns the prescan off.
    pub prescan_bytes: usize,
    /// When nothing certain or declared decides, take valid UTF-8 with some
    /// non-ASCII bytes as UTF-8 (tentative) rather than the default. The
    /// standard allows such detection and modern pages are mostly UTF-8.
    /// Off by default, for results identical to a browser's.
    pub detect_utf8: bool,
}

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions {
            transport_charset: None,
            override_encoding: None,
            default_encoding: WINDOWS_1252,
            memory_limit: None,
            prescan_bytes: PRESCAN_BYTES,
            detect_utf8: false,
        }
    }
}

impl DecodeOptions {
    /// Sets [`DecodeOptions::transport_charset`].
    pub fn transport_charset(mut self, label: impl Into<String>) -> DecodeOptions {
        self.transport_charset = Some(label.into());
        self
    }

    /// Sets [`DecodeOptions::override_encoding`].
    pub fn override_encoding(mut self, encoding: &'static Encoding) -> DecodeOptions {
        self.override_encoding = Some(encoding);
        self
    }

    /// Sets [`DecodeOptions::override_encoding`] from a label, or fails with
    /// [`DecodeError::UnknownLabel`].
    pub fn override_label(self, label: &str) -> Result<DecodeOptions, DecodeError> {
        match encoding_for_label(label) {
            Some(encoding) => Ok(self.override_encoding(encoding)),
            None => Err(DecodeError::UnknownLabel {
                label: label.to_string(),
            }),
        }
    }

    /// Sets [`DecodeOptions::default_encoding`].
    pub fn default_encoding(mut self, encoding: &'static Encoding) -> DecodeOptions {
        self.default_encoding = encoding;
        self
    }

    /// Sets [`DecodeOptions::memory_limit`].
    pub fn memory_limit(mut self, limit: Option<usize>) -> DecodeOptions {
        self.memory_limit = limit;
        self
    }

    /// Sets [`DecodeOptions::prescan_bytes`].
    pub fn prescan_bytes(mut self, bytes: usize) -> DecodeOptions {
        self.prescan_bytes = bytes;
        self
    }

    /// Sets [`DecodeOptions::detect_utf8`].
    pub fn detect_utf8(mut self, on: bool) -> DecodeOptions {
        self.detect_utf8 = on;
        self
    }
}

/// Why bytes could not be made into a [`Document`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// A memory limit stopped the work: the decoded text would need more
    /// than [`DecodeOptions::memory_limit`] ([`MemoryLimitKind::Decode`]),
    /// or [`Document::resolve`]'s tokenizer passed its limit while looking
    /// for a `<meta>` ([`MemoryLimitKind::MetaScan`]).
    MemoryLimit(MemoryLimitError),
    /// The allocator refused memory for the decoded text.
    AllocationFailed {
        /// The encoding being decoded from.
        encoding: &'static Encoding,
        /// The capacity asked for, in bytes.
        requested: usize,
    },
    /// An encoding label that names no encoding of the Encoding Standard.
    UnknownLabel {
        /// The label as given.
        label: String,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::MemoryLimit(error) => error.fmt(f),
            DecodeError::AllocationFailed {
                encoding,
                requested,
            } => write!(
                f,
                "out of memory while decoding from {} to UTF-8: could not allocate \
                 {requested} bytes for the decoded text",
                canonical_label(encoding)
            ),
            DecodeError::UnknownLabel { label } => write!(
                f,
                "unknown character encoding {label:?} (expected a label of the WHATWG \
                 Encoding Standard, such as utf-8, windows-1252, shift_jis, gbk, euc-kr)"
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

/// An HTML document decoded from bytes: its text, the encoding it was
/// decoded with, and how sure that encoding is.
///
/// Make one with [`Document::from_bytes`] (sniff and decode) or
/// [`Document::from_bytes_resolved`] (also apply a `<meta>` found while
/// tokenizing), then tokenize it with [`Document::tokenizer`].
///
/// When the bytes are valid UTF-8 and UTF-8 was chosen (or they are ASCII
/// and the encoding is ASCII-compatible), the text borrows them
/// ([`Document::is_borrowed`]): tokens then point into the caller's bytes,
/// just as with [`Tokenizer::new`] over a `&str`.
#[derive(Clone, Debug)]
pub struct Document<'a> {
    bytes: &'a [u8],
    text: Cow<'a, str>,
    encoding: &'static Encoding,
    confidence: Confidence,
    source: EncodingSource,
    had_errors: bool,
    bom_len: usize,
    memory_limit: Option<usize>,
}

impl<'a> Document<'a> {
    /// Sniffs the encoding of `bytes` ([`sniff()`]) and decodes them.
    ///
    /// Fails only when [`DecodeOptions::memory_limit`] (or the allocator)
    /// refuses the decoded copy.
    pub fn from_bytes(bytes: &'a [u8], opts: &DecodeOptions) -> Result<Document<'a>, DecodeError> {
        let sniffed = sniff(bytes, opts);
        Document::decode(bytes, sniffed, opts.memory_limit)
    }

    /// [`Document::from_bytes`], then [`Document::resolve`] with the default
    /// tokenizer [`Options`]: the encoding a browser ends up with,
    /// `<meta>`s past the prescan's window included. This is what the
    /// html5lib-tests encoding suite expects.
    ///
    /// ```
    /// use htmltok::{Confidence, DecodeOptions, Document, EncodingSource};
    ///
    /// let mut page = format!("<!--{}-->", "x".repeat(2000)).into_bytes();
    /// page.extend_from_slice(b"<meta charset=iso-8859-2>");
    /// let doc = Document::from_bytes_resolved(&page, &DecodeOptions::default())?;
    /// assert_eq!(doc.encoding_label(), "iso-8859-2");
    /// assert_eq!((doc.confidence(), doc.source()), (Confidence::Certain, EncodingSource::Meta));
    /// # Ok::<(), htmltok::DecodeError>(())
    /// ```
    pub fn from_bytes_resolved(
        bytes: &'a [u8],
        opts: &DecodeOptions,
    ) -> Result<Document<'a>, DecodeError> {
        Document::from_bytes(bytes, opts)?.resolve(Options::default())
    }

    /// Decodes `bytes` with a known encoding and confidence (a byte order
    /// mark still wins, as the Encoding Standard's "decode" says).
    fn decode(
        bytes: &'a [u8],
        sniffed: Sniffed,
        memory_limit: Option<usize>,
    ) -> Result<Document<'a>, DecodeError> {
        let (encoding, bom_len) = match Encoding::for_bom(bytes) {
            Some(bom) => bom,
            None => (sniffed.encoding, 0),
        };
        let (text, had_errors) = decode::decode(&bytes[bom_len..], encoding, memory_limit)?;
        Ok(Document {
            bytes,
            text,
            encoding,
            confidence: sniffed.confidence,
            source: sniffed.source,
            had_errors,
            bom_len,
            memory_limit,
        })
    }

    /// Tokenizes the document (with `options`, whose `errors` are not
    /// needed) looking for a `<meta>` that changes the encoding
    /// ([`EncodingWatcher`]), and applies what it finds: a tentative
    /// encoding that a `<meta>` confirms becomes certain; one that a
    /// `<meta>` contradicts is replaced, decoding the bytes again
    /// ([`Document::reparse`]). A certain encoding is returned as it is,
    /// without tokenizing.
    ///
    /// The scan tokenizes into a temporary arena, dropped before returning;
    /// it is skipped when the text holds no `<meta` at all. Unless `options`
    /// sets its own [`Options::memory_limit`], the arena gets the decode
    /// limit ([`DecodeOptions::memory_limit`]); hitting it is
    /// [`DecodeError::MemoryLimit`] of [`MemoryLimitKind::MetaScan`].
    pub fn resolve(mut self, options: Options) -> Result<Document<'a>, DecodeError> {
        if self.confidence == Confidence::Certain {
            return Ok(self);
        }
        if !has_meta_tag_open(&self.text) {
            return Ok(self);
        }
        let (change, confidence) = {
            let arena = Bump::new();
            let limit = options.memory_limit.or(self.memory_limit);
            let options = options.errors(false).memory_limit(limit);
            let mut tokens = self.tokens_with_encoding_check_and_options(&arena, options);
            // Up to the first <meta> that confirms or changes the encoding.
            while tokens.confidence() == Confidence::Tentative && tokens.next().is_some() {}
            if let Some(error) = tokens.tokenizer().limit_error() {
                return Err(DecodeError::MemoryLimit(MemoryLimitError {
                    kind: MemoryLimitKind::MetaScan,
                    ..*error
                }));
            }
            (tokens.change().copied(), tokens.confidence())
        };
        match change {
            Some(change) => self.reparse(&change),
            None => {
                self.confidence = confidence;
                Ok(self)
            }
        }
    }

    /// Decodes the same bytes again for an [`EncodingChange`]: with its
    /// `to` encoding, certain, source [`EncodingSource::Meta`], under the
    /// same memory limit.
    pub fn reparse(&self, change: &EncodingChange) -> Result<Document<'a>, DecodeError> {
        let sniffed = Sniffed {
            encoding: change.to,
            confidence: Confidence::Certain,
            source: EncodingSource::Meta,
            bom_len: 0,
        };
        Document::decode(self.bytes, sniffed, self.memory_limit)
    }

    /// The decoded text (without the byte order mark), to tokenize.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The decoded text, borrowed from the bytes or owned.
    pub fn into_text(self) -> Cow<'a, str> {
        self.text
    }

    /// Whether the text borrows the input bytes (no copy was made).
    pub fn is_borrowed(&self) -> bool {
        matches!(self.text, Cow::Borrowed(_))
    }

    /// The bytes the document was decoded from, BOM included.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The encoding the text was decoded from.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The encoding's name in lowercase, as html5lib-tests and most tools
    /// write it: `"utf-8"`, `"windows-1252"`, `"shift_jis"`
    /// ([`canonical_label`]).
    pub fn encoding_label(&self) -> &'static str {
        canonical_label(self.encoding)
    }

    /// Whether the encoding is certain or tentative.
    pub fn confidence(&self) -> Confidence {
        self.confidence
    }

    /// Which step decided the encoding.
    pub fn source(&self) -> EncodingSource {
        self.source
    }

    /// Whether malformed byte sequences were replaced by U+FFFD while
    /// decoding (a conformance checker reports them as errors).
    pub fn had_errors(&self) -> bool {
        self.had_errors
    }

    /// Length of the byte order mark that was skipped (0, 2 or 3). A span in
    /// the text is a span in the bytes plus this, when the text is borrowed.
    pub fn bom_len(&self) -> usize {
        self.bom_len
    }

    /// A tokenizer over the text, with default [`Options`].
    pub fn tokenizer<'t>(&'t self, arena: &'t Bump) -> Tokenizer<'t> {
        Tokenizer::new(&self.text, arena)
    }

    /// A tokenizer over the text with `options`.
    pub fn tokenizer_with_options<'t>(
        &'t self,
        arena: &'t Bump,
        options: Options,
    ) -> Tokenizer<'t> {
        Tokenizer::with_options(&self.text, arena, options)
    }

    /// The tokens (default [`Options`]) with an [`EncodingWatcher`] looking
    /// for a `<meta>` that changes the encoding: see [`CheckedTokens`].
    pub fn tokens_with_encoding_check<'t>(&'t self, arena: &'t Bump) -> CheckedTokens<'t> {
        self.tokens_with_encoding_check_and_options(arena, Options::default())
    }

    /// [`Document::tokens_with_encoding_check`] with tokenizer `options`.
    pub fn tokens_with_encoding_check_and_options<'t>(
        &'t self,
        arena: &'t Bump,
        options: Options,
    ) -> CheckedTokens<'t> {
        CheckedTokens::new(
            self.tokenizer_with_options(arena, options),
            EncodingWatcher::for_document(self),
        )
    }
}

/// Whether `text` has `<meta` (any case) anywhere: a `meta` start tag token
/// cannot come from text without one.
fn has_meta_tag_open(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'<', bytes).any(|i| {
        bytes
            .get(i + 1..i + 5)
            .is_some_and(|name| name.eq_ignore_ascii_case(b"meta"))
    })
}

#[cfg(test)]
mod tests;
