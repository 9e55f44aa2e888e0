//! [`Stream`]: the library's streaming tokenizer an input is fed to (raw
//! UTF-8, or sniffing and decoding), each thread's arena, and what of
//! `--memory-limit` the stream may take.

use htmltok::bumpalo::Bump;
use htmltok::encoding_rs::Encoding;
use htmltok::stream::Feed;
use htmltok::{Confidence, MemoryLimitError, SniffingStream, StreamError, StreamTokenizer};

use crate::input;

/// How many times over the memory a construct takes while the stream holds
/// it: a construct cut by a chunk boundary is held as bytes (in a string
/// that grows by doubling, so up to twice their size) and tokenized again
/// from a copy in the arena (which, for a copy that large, grows a chunk of
/// its own). Measured: a 100 MB comment peaks at 2.7 times its size in
/// resident memory. So that `--memory-limit` bounds memory, what the
/// stream and the tokenizer may hold is a quarter of it.
pub(super) const HELD_COPIES: usize = 4;

/// Why a stream stopped, for people: the library's message, and for a
/// memory limit the option that sets it (`limit` is `--memory-limit`).
pub(super) fn stream_failure(e: &StreamError, limit: usize) -> String {
    match e {
        StreamError::MemoryLimit(e) => limit_failure(e, limit),
        other => other.to_string(),
    }
}

/// Why a quarter of `--memory-limit` (`limit`) stopped the work on an
/// input, for people: the stream's, the tokenizer's or an extractor's.
pub(super) fn limit_failure(e: &MemoryLimitError, limit: usize) -> String {
    format!(
        "{e} (the limit is a quarter of --memory-limit {}); \
         the rest of the input was not processed",
        input::size_for_people(limit as u64)
    )
}

thread_local! {
    /// Each thread's tokenizer arena, reset after every chunk.
    pub(super) static ARENA: std::cell::RefCell<Bump> = std::cell::RefCell::new(Bump::new());
}

/// The two kinds of stream an input is fed to.
pub(super) enum Stream {
    /// UTF-8 as it is ([`Decoding::Utf8`](super::Decoding::Utf8)).
    Raw(StreamTokenizer),
    /// Sniffed and decoded.
    Sniffing(SniffingStream),
}

impl Stream {
    /// Feeds the next chunk; the input's `last` finishes the stream.
    pub(super) fn feed<'s, 'a>(
        &'s mut self,
        chunk: &'a [u8],
        arena: &'a Bump,
        last: bool,
    ) -> Result<Feed<'s, 'a>, StreamError> {
        match (self, last) {
            (Stream::Raw(s), false) => s.feed(chunk, arena),
            (Stream::Raw(s), true) => s.finish_bytes(chunk, arena),
            (Stream::Sniffing(s), false) => s.feed(chunk, arena),
            (Stream::Sniffing(s), true) => s.finish_bytes(chunk, arena),
        }
    }

    /// The tokenizer inside.
    pub(super) fn tokenizer(&self) -> &StreamTokenizer {
        match self {
            Stream::Raw(s) => s,
            Stream::Sniffing(s) => s.tokenizer(),
        }
    }

    /// The tokenizer inside, to change.
    pub(super) fn tokenizer_mut(&mut self) -> &mut StreamTokenizer {
        match self {
            Stream::Raw(s) => s,
            Stream::Sniffing(s) => s.tokenizer_mut(),
        }
    }

    /// The encoding the input is decoded from, and how sure that is (none
    /// for UTF-8 read as it is).
    pub(super) fn encoding(&self) -> Option<(&'static Encoding, Confidence)> {
        match self {
            Stream::Raw(_) => None,
            Stream::Sniffing(s) => s.encoding(),
        }
    }
}
