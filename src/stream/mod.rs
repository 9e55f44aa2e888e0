//! Streaming input: feed chunks, get the same tokens as from the whole input.
//!
//! A crawler reads a page in pieces and should not hold all of it to start
//! work. [`StreamTokenizer`] takes the input a chunk at a time and yields the
//! tokens each chunk completes, with spans as absolute offsets in the whole
//! stream.
//!
//! # How it works
//!
//! The tokenizer runs over each chunk as a *partial* buffer. When it reaches
//! the end of a chunk in the middle of something it cannot finish (a tag, a
//! comment, a character reference, a `\r` that may be half of a CRLF, a
//! `</scr` that may end a script), it stops at the last *safe point*: the
//! start of that construct. Everything before it has been yielded; the bytes
//! from it on are the *carry*, tokenized again at the front of the next
//! chunk. So:
//!
//! - tokens borrow from the chunk they come from; only a token cut by a chunk
//!   boundary is built from a copy (the carry plus as much of the next chunk
//!   as it takes, copied into the arena, growing geometrically);
//! - a token longer than a chunk is tried again only once the held part has
//!   doubled (the chunks in between are held), so its cost is linear in its
//!   length, not one tokenizing of everything held per chunk;
//! - memory is bounded by twice the longest token plus the chunk, and what
//!   is held is checked against [`StreamOptions::memory_limit`];
//! - every token is the one the whole-input [`Tokenizer`](crate::Tokenizer)
//!   gives, with one exception a caller chooses: a text run that crosses a
//!   chunk boundary. With [`StreamOptions::coalesce_text`] (the default) it
//!   is delivered whole, as from the whole input: the text before the cut
//!   stays pending in the tokenizer and moves on to the next chunk's
//!   tokenizer with the carry (its characters are copied once, held until
//!   the run ends); without it, it comes in pieces, each ending
//!   at a chunk boundary, so that memory stays bounded even for a page that
//!   is one long text. (A piece's span then ends at the chunk boundary: if
//!   only a construct the standard drops, `</>` or an empty CDATA section,
//!   follows before the next token, the whole input's text span would have
//!   covered it and the piece's does not.)
//!
//! A chunk's buffers are read by one tokenizer in turn: when a buffer ends,
//! the tokenizer's end-of-buffer path collects what it left (its errors,
//! the carry) and starts the next buffer in its own place. [`Feed`] *is*
//! that tokenizer, so iterating a stream costs per token what iterating a
//! whole input does; a layer that checked for the end of each buffer on
//! every token cost a tenth of the time (BENCHMARKS.md).
//!
//! Chunks are bytes of UTF-8. A character split between two chunks is joined
//! (its bytes carried); invalid bytes become U+FFFD as in the Encoding
//! Standard's decoder, and offsets are then offsets in the decoded text (the
//! same as in the input wherever it is valid UTF-8).
//!
//! ```
//! use htmltok::{StreamTokenizer, Token, bumpalo::Bump};
//!
//! let page = b"<p class=intro>Fish &amp; chips</p>";
//! let mut stream = StreamTokenizer::new(Default::default());
//! let mut arena = Bump::new();
//! let mut names = Vec::new();
//! for chunk in page.chunks(7) {
//!     for token in stream.feed(chunk, &arena).unwrap() {
//!         if let Token::StartTag(tag) = token {
//!             names.push(tag.name.to_string());
//!         }
//!     }
//!     arena.reset(); // tokens of this chunk are done with
//! }
//! let texts: Vec<String> = stream
//!     .finish(&arena)
//!     .unwrap()
//!     .filter_map(|t| match t {
//!         Token::Text(t) => Some(t.data.to_string()),
//!         _ => None,
//!     })
//!     .collect();
//! assert_eq!(names, ["p"]);
//! // The text "Fish & chips" was cut by chunk boundaries; with coalescing
//! // it arrives once, whole, when the `</p>` that ends it arrives.
//! assert!(texts.is_empty());
//! ```

mod feed; // the tokens of one chunk, buffer by buffer

pub use feed::{Feed, Source};

use core::fmt;

use bumpalo::Bump;

use crate::error::ParseError;
use crate::memory_limit::{MemoryLimitError, MemoryLimitKind, MemoryLimiter};
use crate::scan::utf8_width;
use crate::tokenizer::{Carry, Options, State};

/// How a [`StreamTokenizer`] behaves.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct StreamOptions {
    /// The tokenizer options (auto-switching, errors, initial state…).
    pub tokenizer: Options,
    /// Deliver a text run that crosses chunk boundaries as one token, as
    /// the whole-input tokenizer does (on by default). Off, it comes in
    /// pieces that end at chunk boundaries.
    pub coalesce_text: bool,
    /// The most bytes the stream may hold between chunks (the carried part
    /// of a token, and with coalescing the text held back), or `None` (the
    /// default) for no limit. Past it the stream stops with
    /// [`StreamError::MemoryLimit`].
    pub memory_limit: Option<usize>,
}

impl Default for StreamOptions {
    fn default() -> StreamOptions {
        StreamOptions {
            tokenizer: Options::default(),
            coalesce_text: true,
            memory_limit: None,
        }
    }
}

impl StreamOptions {
    /// Sets [`StreamOptions::tokenizer`].
    pub fn tokenizer(mut self, opts: Options) -> StreamOptions {
        self.tokenizer = opts;
        self
    }

    /// Sets [`StreamOptions::coalesce_text`].
    pub fn coalesce_text(mut self, on: bool) -> StreamOptions {
        self.coalesce_text = on;
        self
    }

    /// Sets [`StreamOptions::memory_limit`].
    pub fn memory_limit(mut self, limit: Option<usize>) -> StreamOptions {
        self.memory_limit = limit;
        self
    }
}

/// Why a stream stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamError {
    /// A memory limit stopped the stream: what it had to hold between
    /// chunks passed [`StreamOptions::memory_limit`]
    /// ([`MemoryLimitKind::Stream`]), or its tokenizer passed
    /// [`Options::memory_limit`] ([`MemoryLimitKind::Tokenizer`]). Every
    /// token before the error's offset was delivered.
    MemoryLimit(MemoryLimitError),
    /// [`StreamTokenizer::feed`] or [`StreamTokenizer::finish`] was called
    /// after `finish`.
    Finished,
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::MemoryLimit(error) => error.fmt(f),
            StreamError::Finished => f.write_str("the stream was already finished"),
        }
    }
}

impl std::error::Error for StreamError {}

/// A tokenizer fed one chunk at a time (see the [module docs](self)).
#[derive(Debug)]
pub struct StreamTokenizer {
    /// What goes on from chunk to chunk. A [`Feed`] borrows the stream
    /// for its life and takes this with it (see [`ChunkReader`]): moved, not
    /// reached through the borrow, it lets the feed's tokenizer start the
    /// next buffer itself.
    state: StreamState,
    /// The bytes of a UTF-8 character cut by the end of the last chunk.
    utf8_tail: Vec<u8>,
    finished: bool,
}

/// The part of a [`StreamTokenizer`] its feed's tokenizers work on.
#[derive(Debug)]
struct StreamState {
    opts: StreamOptions,
    /// [`StreamOptions::memory_limit`], checked against what is held.
    limiter: MemoryLimiter,
    carry: Carry,
    /// Decoded input not yet tokenized: the start of a token a chunk
    /// boundary cut. Always whole characters.
    pending: String,
    /// Offset in the stream of `pending[0]`.
    pending_base: usize,
    /// How long `pending` must grow before the tokenizer tries it again:
    /// twice the buffer of the last try that could not get past the
    /// carried token's start (0 when the last try made progress). A token
    /// longer than a chunk is then tokenized again only each time it has
    /// doubled, not once per chunk, so a long comment, tag or attribute
    /// value costs time linear in its length (amortized), not quadratic.
    retry_at: usize,
    errors: Vec<ParseError>,
    failed: Option<StreamError>,
    /// Where text running to the end of the input ends, once it has ended.
    eof_text_end: Option<usize>,
}

impl StreamState {
    /// What the stream holds while a feed has its state: nothing allocated,
    /// and an error for any call, should the feed never be dropped
    /// (`mem::forget`) and so never give the state back.
    fn lent(&self) -> StreamState {
        StreamState {
            opts: self.opts.clone(),
            limiter: self.limiter.clone(),
            carry: Carry::empty(),
            pending: String::new(),
            pending_base: self.pending_base,
            retry_at: 0,
            errors: Vec::new(),
            failed: Some(StreamError::Finished),
            eof_text_end: None,
        }
    }

    /// Bytes held between chunks, with `utf8_tail` bytes of a cut
    /// character (see [`StreamTokenizer::held_bytes`]).
    fn held_bytes(&self, utf8_tail: usize) -> usize {
        self.pending.len()
            + utf8_tail
            + self.carry.heap_bytes()
            + self.errors.len() * core::mem::size_of::<ParseError>()
    }
}

impl StreamTokenizer {
    /// A new stream at its start.
    pub fn new(opts: StreamOptions) -> StreamTokenizer {
        StreamTokenizer {
            state: StreamState {
                carry: Carry::new(&opts.tokenizer),
                limiter: MemoryLimiter::new(MemoryLimitKind::Stream, opts.memory_limit),
                opts,
                pending: String::new(),
                pending_base: 0,
                retry_at: 0,
                errors: Vec::new(),
                failed: None,
                eof_text_end: None,
            },
            utf8_tail: Vec::new(),
            finished: false,
        }
    }

    /// Sets the last start tag name, as [`Tokenizer::set_last_start_tag`](crate::Tokenizer::set_last_start_tag)
    /// does. Call it before the first chunk.
    pub fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.state.carry.set_last_start_tag(name);
    }

    /// Sets whether the adjusted current node is foreign, as
    /// [`Tokenizer::set_foreign`](crate::Tokenizer::set_foreign) does. Call it before the first chunk.
    pub fn set_foreign(&mut self, foreign: bool) {
        self.state.carry.set_foreign(foreign);
    }

    /// Sets the state to start in. Call it before the first chunk.
    pub fn set_state(&mut self, state: State) {
        self.state.carry.set_state(state);
    }

    /// The parse errors found so far (with [`Options::errors`] on), offsets
    /// absolute in the stream.
    pub fn errors(&self) -> &[ParseError] {
        &self.state.errors
    }

    /// Takes the parse errors found so far.
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        core::mem::take(&mut self.state.errors)
    }

    /// Bytes held between chunks now (the carry, a cut character, text
    /// waiting for its run to end, parse errors not yet taken): what
    /// [`StreamOptions::memory_limit`] bounds.
    pub fn held_bytes(&self) -> usize {
        self.state.held_bytes(self.utf8_tail.len())
    }

    /// The offset in the stream where tokenizing resumes with the next
    /// chunk: the start of the construct the last chunk boundary cut (held,
    /// to be tokenized again with what follows), or the end of the text fed
    /// so far. Every token and parse error that starts before it has been
    /// handed out (but for text still held with
    /// [`StreamOptions::coalesce_text`]), and every parse error still to
    /// come is at or after it: a caller that turns offsets into lines and
    /// columns need keep only the text from here on.
    ///
    /// ```
    /// use htmltok::{StreamTokenizer, bumpalo::Bump};
    ///
    /// let mut stream = StreamTokenizer::new(Default::default());
    /// let arena = Bump::new();
    /// stream.feed(b"<p>one</p><a hr", &arena).unwrap().for_each(drop);
    /// assert_eq!(stream.resume_offset(), 10); // the cut <a ...
    /// ```
    pub fn resume_offset(&self) -> usize {
        self.state.pending_base
    }

    /// Once the input has ended (its last tokens run): where a text token
    /// running to the end of the input ends. That is the end of the input,
    /// or the start of a construct the end cut short and the standard drops
    /// (`<a href` with no `>`); text before it ends there whether or not a
    /// construct the standard drops silently (`</>`, an empty CDATA
    /// section) comes between. Without
    /// [`StreamOptions::coalesce_text`], a piece of text handed out at a
    /// chunk boundary cannot grow afterwards: a caller joining pieces into
    /// the whole input's text token ends a run that nothing followed here.
    ///
    /// ```
    /// use htmltok::{StreamOptions, StreamTokenizer, Token, bumpalo::Bump};
    ///
    /// let mut stream = StreamTokenizer::new(StreamOptions::default().coalesce_text(false));
    /// let arena = Bump::new();
    /// let pieces: Vec<Token> = stream.feed(b"abc", &arena).unwrap().collect();
    /// assert!(matches!(&pieces[..], [Token::Text(t)] if t.span.range() == (0..3)));
    /// assert_eq!(stream.finish_bytes(b"</>", &arena).unwrap().count(), 0);
    /// // The whole input's text token is "abc" with the span 0..6.
    /// assert_eq!(stream.text_end_at_eof(), Some(6));
    /// ```
    pub fn text_end_at_eof(&self) -> Option<usize> {
        self.state.eof_text_end
    }

    /// Why the stream stopped, if it did: the error the next call to
    /// [`feed`](Self::feed) or [`finish`](Self::finish) would return. Check
    /// it after running a chunk's tokens, since a limit hit while
    /// tokenizing ends that chunk's iterator early.
    pub fn error(&self) -> Option<&StreamError> {
        self.state.failed.as_ref()
    }

    /// Feeds the next chunk of the input; the iterator yields the tokens it
    /// completes. Strings borrow from `chunk` where they can and are
    /// written to `arena` otherwise.
    ///
    /// The iterator should be run to its end before the next call; tokens it
    /// did not yield are lost. An error means the stream stopped earlier
    /// (the memory limit, or a call after [`finish`](Self::finish)).
    pub fn feed<'s, 'a>(
        &'s mut self,
        chunk: &'a [u8],
        arena: &'a Bump,
    ) -> Result<Feed<'s, 'a>, StreamError> {
        self.check()?;
        let text = self.decode(chunk, arena, false);
        Ok(Feed::new(self, text, arena, false))
    }

    /// Feeds a chunk that is already text.
    pub fn feed_str<'s, 'a>(
        &'s mut self,
        chunk: &'a str,
        arena: &'a Bump,
    ) -> Result<Feed<'s, 'a>, StreamError> {
        self.check()?;
        let text = if self.utf8_tail.is_empty() {
            chunk
        } else {
            // A cut character before valid text can't be completed: it was
            // invalid.
            self.decode(chunk.as_bytes(), arena, false)
        };
        Ok(Feed::new(self, text, arena, false))
    }

    /// Ends the input: the iterator yields the remaining tokens, with the
    /// end-of-file rules applied.
    pub fn finish<'s, 'a>(&'s mut self, arena: &'a Bump) -> Result<Feed<'s, 'a>, StreamError> {
        self.finish_bytes(&[], arena)
    }

    /// Feeds a last chunk of bytes and ends the input.
    pub fn finish_bytes<'s, 'a>(
        &'s mut self,
        chunk: &'a [u8],
        arena: &'a Bump,
    ) -> Result<Feed<'s, 'a>, StreamError> {
        self.check()?;
        let text = self.decode(chunk, arena, true);
        self.finished = true;
        Ok(Feed::new(self, text, arena, true))
    }

    /// Feeds a last chunk of text and ends the input.
    pub fn finish_str<'s, 'a>(
        &'s mut self,
        chunk: &'a str,
        arena: &'a Bump,
    ) -> Result<Feed<'s, 'a>, StreamError> {
        self.finish_bytes(chunk.as_bytes(), arena)
    }

    fn check(&self) -> Result<(), StreamError> {
        if let Some(e) = &self.state.failed {
            return Err(e.clone());
        }
        if self.finished {
            return Err(StreamError::Finished);
        }
        Ok(())
    }

    /// Turns a chunk of bytes into text: borrowed when it is valid UTF-8
    /// (after completing a character cut by the last chunk), an arena copy
    /// with U+FFFD for invalid bytes otherwise. The bytes of a character cut
    /// by the end of this chunk are kept for the next one (or, at the end,
    /// replaced).
    fn decode<'a>(&mut self, chunk: &'a [u8], arena: &'a Bump, last: bool) -> &'a str {
        let mut bytes = chunk;
        let mut prefix = None;
        if let Some(&lead) = self.utf8_tail.first() {
            let need = utf8_width(lead);
            while self.utf8_tail.len() < need && bytes.first().is_some_and(|b| b & 0xC0 == 0x80) {
                self.utf8_tail.push(bytes[0]);
                bytes = &bytes[1..];
            }
            if self.utf8_tail.len() < need && bytes.is_empty() && !last {
                return "";
            }
            prefix = Some(String::from_utf8_lossy(&self.utf8_tail).into_owned());
            self.utf8_tail.clear();
        }
        let keep = if last { 0 } else { incomplete_suffix(bytes) };
        let (body, tail) = bytes.split_at(bytes.len() - keep);
        self.utf8_tail.extend_from_slice(tail);
        match (prefix, core::str::from_utf8(body)) {
            (None, Ok(text)) => text,
            (prefix, _) => {
                let mut text = prefix.unwrap_or_default();
                text.push_str(&String::from_utf8_lossy(body));
                arena.alloc_str(&text)
            }
        }
    }
}

/// How many bytes at the end of `bytes` begin a character that more bytes
/// could complete: a lead byte followed by fewer continuation bytes than
/// it needs.
fn incomplete_suffix(bytes: &[u8]) -> usize {
    let n = bytes.len();
    for back in 1..=n.min(3) {
        let b = bytes[n - back];
        if b & 0xC0 != 0x80 {
            return if utf8_width(b) > back { back } else { 0 };
        }
    }
    0
}
