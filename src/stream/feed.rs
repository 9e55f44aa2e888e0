//! [`Feed`]: the tokens of one chunk, read buffer by buffer by one
//! tokenizer chained to the stream's state ([`ChunkReader`]), with the
//! chunk's source ([`Source`]).

use core::cell::RefCell;
use core::ops::ControlFlow;

use std::rc::Rc;

use bumpalo::Bump;

use crate::token::{Span, Token};
use crate::tokenizer::{BufferChain, Tokenizer};

use super::{StreamError, StreamState, StreamTokenizer};

/// The tokens one chunk completes: an iterator returned by
/// [`StreamTokenizer::feed`] and [`StreamTokenizer::finish`].
///
/// The iterator is the tokenizer of the buffer being read: when a buffer
/// ends, the tokenizer's own end-of-buffer path starts the next one in its
/// place, so a token costs what it costs from a whole input.
///
/// A feed holds the stream's state while it runs and gives it back when
/// dropped, so the stream stays borrowed until then: a feed kept in a
/// variable is dropped (or goes out of scope) before the stream is asked
/// for its errors. Dropped before its end, the tokens of the chunk it did
/// not yield are lost: the stream goes on with the next chunk. A feed
/// never dropped (`mem::forget`) leaves the stream answering
/// [`StreamError::Finished`].
///
/// ```
/// use htmltok::{Options, StreamOptions, StreamTokenizer, bumpalo::Bump};
///
/// let opts = StreamOptions::default().tokenizer(Options::default().errors(true));
/// let mut stream = StreamTokenizer::new(opts);
/// let arena = Bump::new();
/// let mut feed = stream.finish_bytes(b"<p>one</p x>", &arena).unwrap();
/// let first = feed.next();
/// let rest = feed.by_ref().count();
/// assert!(first.is_some() && rest == 2);
/// drop(feed);
/// assert_eq!(stream.errors().len(), 1); // end-tag-with-attributes
/// ```
pub struct Feed<'s, 'a> {
    stream: &'s mut StreamTokenizer,
    /// The tokenizer of the current buffer, chained to `reader`.
    core: Tokenizer<'a>,
    /// What starts each buffer of the chunk in `core`'s place, shared with
    /// `core` (which calls it at the end of each buffer).
    reader: Rc<RefCell<ChunkReader<'a>>>,
    /// The chunk's text ([`Feed::decoded`]).
    text: &'a str,
}

/// What a feed's tokenizer needs to start the next buffer of the chunk in
/// its own place: the stream's state, lent for the feed's life, and how far
/// the chunk has been read.
struct ChunkReader<'a> {
    state: StreamState,
    arena: &'a Bump,
    /// The chunk's text, and how much of it has been handed to a tokenizer.
    text: &'a str,
    taken: usize,
    /// How much of the chunk to copy behind the carry next (doubles while
    /// the carried token is not finished).
    prefix: usize,
    last: bool,
    /// Bytes of a cut character the stream holds (for the memory limit).
    utf8_held: usize,
    /// Whether the tokenizer is on a buffer whose leftovers are not
    /// collected yet.
    live: bool,
    /// How many bytes at the front of the current buffer were carried over
    /// (0 when the buffer is the chunk itself).
    carried: usize,
    /// Whether the buffer with the end of the input has been tokenized.
    ran_final: bool,
    /// Whether the current buffer's final CR was kept back.
    cr_held: bool,
    /// Whether the tokenizer stops at the end of each buffer, for the
    /// caller to start the next (see [`Feed::try_for_each_token_in`]).
    hold: bool,
    done: bool,
}

impl<'s, 'a> Feed<'s, 'a> {
    pub(super) fn new(
        stream: &'s mut StreamTokenizer,
        text: &'a str,
        arena: &'a Bump,
        last: bool,
    ) -> Self {
        let lent = stream.state.lent();
        let state = core::mem::replace(&mut stream.state, lent);
        let reader = Rc::new(RefCell::new(ChunkReader {
            prefix: 256.max(state.pending.len()),
            state,
            arena,
            text,
            taken: 0,
            last,
            utf8_held: stream.utf8_tail.len(),
            live: false,
            carried: 0,
            ran_final: false,
            cr_held: false,
            hold: false,
            done: false,
        }));
        Feed {
            stream,
            core: Tokenizer::chained(arena, reader.clone()),
            reader,
            text,
        }
    }
}

impl Drop for Feed<'_, '_> {
    /// Gives the stream its state back, with what the last buffer left if
    /// it was read to its end (the end of the input, or where the memory
    /// limit stopped it: nothing starts a buffer after those).
    fn drop(&mut self) {
        self.core.unchain();
        // (Borrowed only if a panic unwinds from inside the reader: the
        // stream then keeps the lent state, which refuses every call.)
        if let Ok(mut reader) = self.reader.try_borrow_mut() {
            if reader.live && self.core.is_done() {
                reader.collect(&mut self.core);
            }
            let lent = reader.state.lent();
            self.stream.state = core::mem::replace(&mut reader.state, lent);
        }
    }
}

/// Holds a feed's tokenizer at the end of each buffer while it lives.
struct Held<'f, 'a> {
    core: &'f mut Tokenizer<'a>,
    reader: &'f RefCell<ChunkReader<'a>>,
}

impl<'f, 'a> Held<'f, 'a> {
    fn new(core: &'f mut Tokenizer<'a>, reader: &'f RefCell<ChunkReader<'a>>) -> Self {
        reader.borrow_mut().hold = true;
        Held { core, reader }
    }
}

impl Drop for Held<'_, '_> {
    fn drop(&mut self) {
        if let Ok(mut reader) = self.reader.try_borrow_mut() {
            reader.hold = false;
        }
    }
}

impl<'a> BufferChain<'a> for ChunkReader<'a> {
    fn crosses(&self) -> bool {
        !self.hold
    }

    fn next_buffer(&mut self, core: &mut Tokenizer<'a>) -> bool {
        if self.live {
            self.live = false;
            self.collect(core);
        }
        if self.done {
            return false;
        }
        if self.start_next(core) {
            self.live = true;
            return true;
        }
        self.done = true;
        false
    }
}

impl<'a> ChunkReader<'a> {
    /// Starts a tokenizer over the next buffer in `core`'s place: the carry
    /// and a prefix of the chunk copied together, or the rest of the chunk
    /// itself. Returns false when nothing is left to tokenize in this chunk.
    fn start_next(&mut self, core: &mut Tokenizer<'a>) -> bool {
        let rest = &self.text[self.taken..];
        let s = &mut self.state;
        // At the end, one tokenizer always runs, if only over nothing, so
        // the end-of-file rules of the state it stopped in apply.
        let final_due = self.last && !self.ran_final;
        if rest.is_empty() && (s.pending.is_empty() || !self.last) && !final_due {
            return false;
        }
        // A token still cut after the last try: wait (hold the chunk) until
        // it has doubled, unless this is the end.
        if !s.pending.is_empty() && !self.last && s.pending.len() + rest.len() < s.retry_at {
            s.pending.push_str(rest);
            self.taken = self.text.len();
            self.check_held();
            return false;
        }
        let buf: &'a str = if s.pending.is_empty() {
            self.taken = self.text.len();
            self.carried = 0;
            rest
        } else {
            let mut take = self.prefix.min(rest.len());
            while !rest.is_char_boundary(take) {
                take += 1;
            }
            self.prefix = self.prefix.saturating_mul(2);
            self.carried = s.pending.len();
            s.pending.push_str(&rest[..take]);
            self.taken += take;
            let buf = self.arena.alloc_str(&s.pending);
            s.pending.clear();
            buf
        };
        let partial = !(self.last && self.taken == self.text.len());
        self.ran_final |= !partial;
        // A CR at the end of a partial buffer may be half of a CRLF: it
        // waits for the next buffer.
        let (buf, cr) = match buf.strip_suffix('\r') {
            Some(b) if partial => (b, true),
            _ => (buf, false),
        };
        self.cr_held = cr;
        *core = Tokenizer::resume(
            buf,
            self.arena,
            s.opts.tokenizer.clone(),
            &mut s.carry,
            s.pending_base,
            partial,
            s.opts.coalesce_text,
        );
        true
    }

    /// Collects what a finished tokenizer leaves: its errors, its carry, and
    /// the unconsumed end of its buffer.
    fn collect(&mut self, core: &mut Tokenizer<'a>) {
        let s = &mut self.state;
        s.errors.extend(core.take_errors());
        if let Some(end) = core.eof_text_end() {
            s.eof_text_end = Some(end);
        }
        if let Some(e) = core.limit_error() {
            s.failed = Some(StreamError::MemoryLimit(*e));
            self.done = true;
            return;
        }
        s.carry = core.take_carry();
        let input = core.input();
        let at = core.suspended_at().unwrap_or(input.len());
        let unconsumed = input.len() - at + usize::from(self.cr_held);
        if self.carried > 0 && at >= self.carried && unconsumed <= self.taken {
            // The carried token is done and the buffer stopped inside the
            // chunk's own bytes: read the rest from the chunk itself, so
            // its tokens borrow from it.
            self.taken -= unconsumed;
        } else {
            s.pending.push_str(&input[at..]);
            if self.cr_held {
                s.pending.push('\r');
            }
        }
        s.pending_base += at;
        // No progress past a carried token: try again once it has doubled,
        // or before the held part would pass the memory limit (a token that
        // ends under the limit must not fail for what was held after it).
        s.retry_at = if at == 0 && self.carried > 0 {
            input.len().saturating_mul(2).min(s.limiter.limit())
        } else {
            0
        };
        self.check_held();
    }

    /// Stops the stream when what it holds passes
    /// [`StreamOptions::memory_limit`]. What is held is measured, once per
    /// buffer started or collected, not charged as it grows: the limit
    /// bounds the bytes held (their length, which
    /// [`StreamTokenizer::held_bytes`] reports), not the capacity of the
    /// strings that hold them.
    fn check_held(&mut self) {
        let s = &mut self.state;
        if s.limiter.is_limited() {
            let offset = s.carry.held_text_start().unwrap_or(s.pending_base);
            if let Err(e) = s.limiter.check(s.held_bytes(self.utf8_held), Some(offset)) {
                s.failed = Some(StreamError::MemoryLimit(e));
                self.done = true;
            }
        }
    }
}

/// The source of the tokens [`Feed::try_for_each_token_in`] hands out
/// (and of the iterator's, through [`Feed::source`]):
/// the buffer the token was read from, and the text its chunk added.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The buffer's text.
    input: &'a str,
    /// Where the buffer starts in the stream.
    base: usize,
    /// The chunk decoded ([`Feed::decoded`]).
    decoded: &'a str,
}

impl<'a> Source<'a> {
    /// The source of the tokens of `core`'s buffer, in a chunk that
    /// decoded to `decoded`.
    fn of(core: &Tokenizer<'a>, decoded: &'a str) -> Source<'a> {
        Source {
            input: core.input(),
            base: core.base(),
            decoded,
        }
    }

    /// The source text of `span` when it lies inside the buffer, as
    /// [`Feed::source`] answers it.
    pub fn source(&self, span: Span) -> Option<&'a str> {
        let start = span.start.checked_sub(self.base)?;
        let end = span.end.checked_sub(self.base)?;
        self.input.get(start..end)
    }

    /// The text the chunk added to the stream, as [`Feed::decoded`].
    pub fn decoded(&self) -> &'a str {
        self.decoded
    }
}

impl<'a> Feed<'_, 'a> {
    /// The text this chunk added to the stream: the chunk decoded (borrowed
    /// when it was valid UTF-8), starting where the text fed before it
    /// ended. Offsets into the stream's text are offsets into these pieces
    /// laid end to end.
    pub fn decoded(&self) -> &'a str {
        self.text
    }

    /// The source text of `span`, an offset range in the stream, when it
    /// lies inside the buffer the last token came from: every span of the
    /// last token the iterator returned, except a text's span that began in
    /// an earlier chunk (coalesced text). A token's strings differ from its
    /// source where the tokenizer decoded something (character references,
    /// CR, NUL, uppercase names), so this is how to tell which did.
    ///
    /// ```
    /// use htmltok::{StreamTokenizer, Token, bumpalo::Bump};
    ///
    /// let mut stream = StreamTokenizer::new(Default::default());
    /// let arena = Bump::new();
    /// let mut feed = stream.feed(b"<a href='x&amp;y' title=plain>", &arena).unwrap();
    /// let Some(Token::StartTag(tag)) = feed.next() else { unreachable!() };
    /// let raw: Vec<_> = tag.attributes.iter().map(|a| feed.source(a.value_span.unwrap())).collect();
    /// assert_eq!(raw, [Some("x&amp;y"), Some("plain")]);
    /// ```
    pub fn source(&self, span: Span) -> Option<&'a str> {
        self.current_source().source(span)
    }
}

impl<'a> Iterator for Feed<'_, 'a> {
    type Item = Token<'a>;

    /// The current buffer's tokenizer is the iterator: it starts the next
    /// buffer itself, and coalescing happens inside it (text cut by the
    /// buffer's end stays pending and moves to the next buffer), so its
    /// tokens are handed straight out.
    #[inline(always)]
    fn next(&mut self) -> Option<Token<'a>> {
        self.core.next()
    }
}

impl core::iter::FusedIterator for Feed<'_, '_> {}

impl<'a> Feed<'_, 'a> {
    /// Hands every token of this chunk to `sink`: the push interface of
    /// [`Tokenizer::for_each_token`], the same tokens as iterating the feed.
    ///
    /// ```
    /// use htmltok::{StreamTokenizer, Token, bumpalo::Bump};
    ///
    /// let mut stream = StreamTokenizer::new(Default::default());
    /// let arena = Bump::new();
    /// let mut names = Vec::new();
    /// for chunk in [&b"<p>one</p><a hr"[..], b"ef=x>two</a>"] {
    ///     stream.feed(chunk, &arena).unwrap().for_each_token(|token| {
    ///         if let Token::StartTag(tag) = token {
    ///             names.push(tag.name.to_string());
    ///         }
    ///     });
    /// }
    /// stream.finish(&arena).unwrap().for_each(drop);
    /// assert_eq!(names, ["p", "a"]);
    /// ```
    pub fn for_each_token<F: FnMut(Token<'a>)>(&mut self, sink: F) {
        // The tokenizer goes from buffer to buffer itself.
        self.core.for_each_token(sink);
    }

    /// [`Feed::for_each_token`] for a closure that may stop early, as
    /// [`Tokenizer::try_for_each_token`]: the feed keeps its place.
    pub fn try_for_each_token<B, F>(&mut self, sink: F) -> ControlFlow<B>
    where
        F: FnMut(Token<'a>) -> ControlFlow<B>,
    {
        // The tokenizer goes from buffer to buffer itself.
        self.core.try_for_each_token(sink)
    }

    /// [`Feed::try_for_each_token`] for a closure that also wants the
    /// source of what it gets: each token comes with the [`Source`] of the
    /// buffer it was read from, which answers what [`Feed::source`] and
    /// [`Feed::decoded`] answer after the iterator returned that token
    /// (the feed itself is borrowed while it pushes).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use htmltok::{StreamTokenizer, Token, bumpalo::Bump};
    ///
    /// let mut stream = StreamTokenizer::new(Default::default());
    /// let arena = Bump::new();
    /// let mut raw = Vec::new();
    /// let mut feed = stream.feed(b"<a href='x&amp;y' title=plain>", &arena).unwrap();
    /// let _ = feed.try_for_each_token_in(|token, source| {
    ///     if let Token::StartTag(tag) = token {
    ///         raw.extend(tag.attributes.iter().map(|a| source.source(a.value_span.unwrap())));
    ///     }
    ///     ControlFlow::<()>::Continue(())
    /// });
    /// assert_eq!(raw, [Some("x&amp;y"), Some("plain")]);
    /// ```
    pub fn try_for_each_token_in<B, F>(&mut self, mut sink: F) -> ControlFlow<B>
    where
        F: FnMut(Token<'a>, &Source<'a>) -> ControlFlow<B>,
    {
        // Each buffer's tokenizer pushes its tokens and stops at the
        // buffer's end, so that the next buffer's tokens get its source.
        let text = self.text;
        let held = Held::new(&mut self.core, &self.reader);
        loop {
            let source = Source::of(held.core, text);
            held.core.try_for_each_token(
                #[inline(always)]
                |token| sink(token, &source),
            )?;
            if !held.core.next_buffer() {
                return ControlFlow::Continue(());
            }
        }
    }

    /// The [`Source`] of the buffer the feed is on (one that answers
    /// `None` for every span before the first buffer).
    fn current_source(&self) -> Source<'a> {
        Source::of(&self.core, self.text)
    }
}
