//! Encoding sniffing on a stream: [`SniffingStream`].
//!
//! The [encoding sniffing algorithm](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm) lets a user agent wait for the first bytes of a page before it
//! decides the encoding ("wait for 1024 bytes or the end"): the `<meta>`
//! prescan looks only there. So the stream holds the first
//! [`DecodeOptions::prescan_bytes`] bytes (1024), sniffs them exactly as
//! [`Document::from_bytes`](super::Document::from_bytes) would, and from
//! then on decodes each chunk as it comes and hands the text to a
//! [`StreamTokenizer`]. UTF-8 (the common case) is not decoded at all: the
//! tokenizer reads the chunk's bytes as they are, and tokens borrow them.
//! Other encodings are decoded chunk by chunk with `encoding_rs`'s streaming
//! decoder (a character split between chunks is handled by the decoder) into
//! the arena.
//!
//! Offsets in tokens and errors are offsets in the decoded text (after a
//! byte order mark), as for a [`Document`](super::Document).
//!
//! One difference from the whole-input path: with
//! [`DecodeOptions::detect_utf8`], the stream can only test the bytes it
//! holds when it decides (the first chunks, at least the prescan window),
//! where [`Document::from_bytes`](super::Document::from_bytes) tests the
//! whole input. A page with no BOM or `<meta>` whose first non-ASCII byte
//! comes later can then be sniffed differently; a caller that knows the
//! answer (the CLI, from the whole file) turns detection off and passes it
//! as [`DecodeOptions::default_encoding`].

use bumpalo::Bump;
use encoding_rs::{Decoder, Encoding, UTF_8};

use super::{Confidence, DecodeOptions, EncodingSource, sniff};
use crate::error::ParseError;
use crate::stream::{Feed, StreamError, StreamOptions, StreamTokenizer};

/// A [`StreamTokenizer`] over bytes in any encoding, sniffed from the start
/// of the stream (see the [module docs](crate::encoding)).
///
/// ```
/// use htmltok::{DecodeOptions, SniffingStream, StreamOptions, Token, bumpalo::Bump};
///
/// let page = b"<meta charset=windows-1252><p>caf\xe9</p>";
/// let mut stream = SniffingStream::new(StreamOptions::default(), DecodeOptions::default());
/// let arena = Bump::new();
/// let mut text = String::new();
/// for chunk in page.chunks(5) {
///     for token in stream.feed(chunk, &arena).unwrap() {
///         if let Token::Text(t) = token {
///             text.push_str(t.data);
///         }
///     }
/// }
/// for token in stream.finish(&arena).unwrap() {
///     if let Token::Text(t) = token {
///         text.push_str(t.data);
///     }
/// }
/// assert_eq!(text, "café");
/// assert_eq!(stream.encoding().unwrap().0.name(), "windows-1252");
/// ```
pub struct SniffingStream {
    stream: StreamTokenizer,
    opts: DecodeOptions,
    /// The first bytes, held until there are enough to sniff.
    held: Vec<u8>,
    decided: Option<Decided>,
}

/// What the sniffing decided, and the decoder that goes with it.
struct Decided {
    encoding: &'static Encoding,
    confidence: Confidence,
    source: EncodingSource,
    /// `None` for UTF-8: the bytes go to the tokenizer as they are.
    decoder: Option<Decoder>,
    /// Bytes of a UTF-8 byte order mark still to skip.
    bom_left: usize,
}

impl SniffingStream {
    /// A new stream; `opts` says how to sniff (transport charset, override,
    /// default, how many bytes the prescan waits for).
    pub fn new(stream_opts: StreamOptions, opts: DecodeOptions) -> SniffingStream {
        SniffingStream {
            stream: StreamTokenizer::new(stream_opts),
            opts,
            held: Vec::new(),
            decided: None,
        }
    }

    /// The encoding and its confidence, once decided (after the prescan
    /// window has been fed, or at the end).
    pub fn encoding(&self) -> Option<(&'static Encoding, Confidence)> {
        self.decided.as_ref().map(|d| (d.encoding, d.confidence))
    }

    /// Which step of the sniffing algorithm decided, once decided.
    pub fn source(&self) -> Option<EncodingSource> {
        self.decided.as_ref().map(|d| d.source)
    }

    /// The tokenizer underneath (for its errors and options).
    pub fn tokenizer(&self) -> &StreamTokenizer {
        &self.stream
    }

    /// The tokenizer underneath, to set its context before the first chunk
    /// ([`StreamTokenizer::set_last_start_tag`], [`StreamTokenizer::set_state`],
    /// [`StreamTokenizer::set_foreign`]).
    ///
    /// ```
    /// use htmltok::{DecodeOptions, SniffingStream, StreamOptions, Token, bumpalo::Bump};
    ///
    /// let mut stream = SniffingStream::new(StreamOptions::default(), DecodeOptions::default());
    /// stream.tokenizer_mut().set_state(htmltok::State::Rawtext);
    /// stream.tokenizer_mut().set_last_start_tag(Some("style"));
    /// let arena = Bump::new();
    /// let tokens: Vec<Token> = stream.feed(b"a<b></style>", &arena).unwrap().collect();
    /// assert!(tokens.is_empty()); // still inside the prescan window
    /// let tokens: Vec<Token> = stream.finish(&arena).unwrap().collect();
    /// assert!(matches!(&tokens[0], Token::Text(t) if t.data == "a<b>"));
    /// assert!(matches!(&tokens[1], Token::EndTag(t) if t.name == "style"));
    /// ```
    pub fn tokenizer_mut(&mut self) -> &mut StreamTokenizer {
        &mut self.stream
    }

    /// The parse errors found so far.
    pub fn errors(&self) -> &[ParseError] {
        self.stream.errors()
    }

    /// Feeds the next chunk of bytes. Until the prescan window is full the
    /// bytes are held and nothing is yielded.
    pub fn feed<'s, 'a>(
        &'s mut self,
        chunk: &'a [u8],
        arena: &'a Bump,
    ) -> Result<Feed<'s, 'a>, StreamError> {
        self.feed_or_finish(chunk, arena, false)
    }

    /// Ends the input (deciding the encoding now if the stream was shorter
    /// than the prescan window).
    pub fn finish<'s, 'a>(&'s mut self, arena: &'a Bump) -> Result<Feed<'s, 'a>, StreamError> {
        self.feed_or_finish(&[], arena, true)
    }

    /// Feeds a last chunk of bytes and ends the input. A whole input given
    /// this way, in one call, is sniffed and tokenized without a copy (as
    /// [`Document::from_bytes`](super::Document::from_bytes) would).
    ///
    /// ```
    /// use htmltok::{DecodeOptions, SniffingStream, StreamOptions, Token, bumpalo::Bump};
    ///
    /// let page = b"<p>caf\xc3\xa9";
    /// let mut stream = SniffingStream::new(StreamOptions::default(), DecodeOptions::default().detect_utf8(true));
    /// let arena = Bump::new();
    /// let tokens: Vec<Token> = stream.finish_bytes(page, &arena).unwrap().collect();
    /// let Token::Text(text) = &tokens[1] else { unreachable!() };
    /// assert_eq!(text.data, "café");
    /// assert!(page.as_ptr_range().contains(&text.data.as_ptr())); // borrowed
    /// ```
    pub fn finish_bytes<'s, 'a>(
        &'s mut self,
        chunk: &'a [u8],
        arena: &'a Bump,
    ) -> Result<Feed<'s, 'a>, StreamError> {
        self.feed_or_finish(chunk, arena, true)
    }

    /// Holds bytes until the prescan window is full (or the input ends),
    /// then decides and passes them on; a chunk that fills the window by
    /// itself is sniffed and passed on as it is.
    fn feed_or_finish<'s, 'a>(
        &'s mut self,
        chunk: &'a [u8],
        arena: &'a Bump,
        last: bool,
    ) -> Result<Feed<'s, 'a>, StreamError> {
        if self.decided.is_some() {
            return self.pass(chunk, arena, last);
        }
        if self.held.is_empty() && (last || chunk.len() >= self.opts.prescan_bytes) {
            self.decide(chunk);
            return self.pass(chunk, arena, last);
        }
        self.held.extend_from_slice(chunk);
        if self.held.len() < self.opts.prescan_bytes && !last {
            return self.stream.feed_str("", arena);
        }
        let held = core::mem::take(&mut self.held);
        self.decide(&held);
        let held: &'a [u8] = arena.alloc_slice_copy(&held);
        self.pass(held, arena, last)
    }

    fn decide(&mut self, first: &[u8]) {
        let sniffed = sniff(first, &self.opts);
        let utf8 = sniffed.encoding == UTF_8;
        self.decided = Some(Decided {
            encoding: sniffed.encoding,
            confidence: sniffed.confidence,
            source: sniffed.source,
            decoder: (!utf8).then(|| sniffed.encoding.new_decoder_with_bom_removal()),
            bom_left: if utf8 { sniffed.bom_len } else { 0 },
        });
    }

    /// Hands `bytes` to the tokenizer: as they are for UTF-8, decoded into
    /// the arena for anything else.
    fn pass<'s, 'a>(
        &'s mut self,
        bytes: &'a [u8],
        arena: &'a Bump,
        last: bool,
    ) -> Result<Feed<'s, 'a>, StreamError> {
        let decided = self
            .decided
            .as_mut()
            .expect("decided before passing bytes on");
        match &mut decided.decoder {
            None => {
                let skip = decided.bom_left.min(bytes.len());
                decided.bom_left -= skip;
                let bytes = &bytes[skip..];
                if last {
                    self.stream.finish_bytes(bytes, arena)
                } else {
                    self.stream.feed(bytes, arena)
                }
            }
            Some(decoder) => {
                let mut text = String::with_capacity(
                    decoder
                        .max_utf8_buffer_length(bytes.len())
                        .unwrap_or(bytes.len() * 3 + 16),
                );
                let _ = decoder.decode_to_string(bytes, &mut text, last);
                let text: &'a str = arena.alloc_str(&text);
                if last {
                    self.stream.finish_str(text, arena)
                } else {
                    self.stream.feed_str(text, arena)
                }
            }
        }
    }
}
