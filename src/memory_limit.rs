//! The one error a memory limit gives, whichever layer it stops: the
//! tokenizer ([`Options::memory_limit`](crate::Options::memory_limit)), the
//! stream ([`StreamOptions::memory_limit`](crate::StreamOptions::memory_limit)),
//! decoding (`DecodeOptions::memory_limit`) and the `<meta>` scan of
//! `Document::resolve` (with the `encoding` feature). Each layer carries it
//! as it is (`StreamError::MemoryLimit`, `DecodeError::MemoryLimit`), so a
//! limit reads the same wherever it is reported, the command line and the
//! Python package included.

use core::fmt;

/// What ran out of room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MemoryLimitKind {
    /// The tokenizer's arena, buffers and parse errors for one document
    /// ([`Options::memory_limit`](crate::Options::memory_limit)).
    Tokenizer,
    /// What a stream holds between chunks: the part of a construct that a
    /// chunk boundary cut, text held back until its run ends, parse errors
    /// not yet taken
    /// ([`StreamOptions::memory_limit`](crate::StreamOptions::memory_limit)).
    Stream,
    /// The decoded (UTF-8) copy of the input (`DecodeOptions::memory_limit`).
    Decode {
        /// The encoding decoded from, by its canonical label
        /// (`"windows-1252"`, `"shift_jis"`...).
        from: &'static str,
    },
    /// The tokenizer's arena, buffers and parse errors while
    /// `Document::resolve` looks for a `<meta>` that changes the encoding
    /// (under the decode limit unless the tokenizer's options set their own).
    MetaScan,
}

impl fmt::Display for MemoryLimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryLimitKind::Tokenizer => f.write_str("the tokenizer's arena, buffers and errors"),
            MemoryLimitKind::Stream => f.write_str("the input the stream holds between chunks"),
            MemoryLimitKind::Decode { from } => {
                write!(f, "the text decoded from {from} to UTF-8")
            }
            MemoryLimitKind::MetaScan => f.write_str(
                "the tokenizer's arena, buffers and errors while looking for a <meta> \
                 that changes the encoding",
            ),
        }
    }
}

/// A memory limit stopped the work: which limit, what was needed, and where.
///
/// ```
/// use htmltok::{MemoryLimitError, MemoryLimitKind};
///
/// let error = MemoryLimitError {
///     kind: MemoryLimitKind::Tokenizer,
///     limit: 4096,
///     needed: 5000,
///     offset: Some(120),
/// };
/// assert_eq!(
///     error.to_string(),
///     "memory limit of 4096 bytes exceeded at byte 120: \
///      5000 bytes needed for the tokenizer's arena, buffers and errors",
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemoryLimitError {
    /// What ran out of room.
    pub kind: MemoryLimitKind,
    /// The limit, in bytes.
    pub limit: usize,
    /// The bytes needed: what the tokenizer had used when it stopped, what
    /// the stream would have had to hold, what the whole decoded text needs.
    pub needed: usize,
    /// The byte offset in the text where the work stopped, when there is
    /// one: for the tokenizer, the position where it stopped (every token
    /// before the construct being tokenized there was delivered, and the
    /// text before it); for a stream, where the part it would have had to
    /// hold begins (every token before it was delivered). `None` for
    /// decoding, which refuses the whole text.
    pub offset: Option<usize>,
}

impl fmt::Display for MemoryLimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "memory limit of {} bytes exceeded", self.limit)?;
        if let Some(offset) = self.offset {
            write!(f, " at byte {offset}")?;
        }
        write!(f, ": {} bytes needed for {}", self.needed, self.kind)
    }
}

impl std::error::Error for MemoryLimitError {}
