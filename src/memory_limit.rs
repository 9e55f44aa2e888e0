//! The one error a memory limit gives, whichever layer it stops: the
//! tokenizer ([`Options::memory_limit`](crate::Options::memory_limit)), the
//! stream ([`StreamOptions::memory_limit`](crate::StreamOptions::memory_limit)),
//! decoding (`DecodeOptions::memory_limit`), the `<meta>` scan of
//! `Document::resolve` (with the `encoding` feature) and extraction
//! (`ExtractOptions::memory_limit`, with the `extract` feature). Each layer carries it
//! as it is (`StreamError::MemoryLimit`, `DecodeError::MemoryLimit`), so a
//! limit reads the same wherever it is reported, the command line and the
//! Python package included.
//!
//! Every layer keeps its budget in one [`MemoryLimiter`] (lol_html's
//! limiter is the model): the owned buffers charge it when their capacity
//! grows, which is rare and amortized, so the check costs nothing per byte;
//! what a layer cannot charge as it grows (the tokenizer's bumpalo arena,
//! which has no hook at its chunks' growth; what a stream holds between
//! chunks, bounded by length) is measured and checked against the same
//! limiter where that is cheaper, and past the limit the limiter makes the
//! one [`MemoryLimitError`].

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
    /// What an extractor holds of a page until it takes it or the page
    /// ends: the text and its runs, main content's blocks, the links,
    /// the Markdown (`ExtractOptions::memory_limit`).
    Extract,
}

impl MemoryLimitKind {
    /// The kind's short name, for a program to tell kinds apart (the
    /// Python package's `MemoryLimitError.kind`): `"tokenizer"`,
    /// `"stream"`, `"decode"`, `"meta-scan"` or `"extract"`.
    /// [`Display`](fmt::Display)
    /// says the same for people.
    ///
    /// ```
    /// use htmltok::MemoryLimitKind;
    ///
    /// assert_eq!(MemoryLimitKind::MetaScan.name(), "meta-scan");
    /// assert_eq!(MemoryLimitKind::Decode { from: "shift_jis" }.name(), "decode");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            MemoryLimitKind::Tokenizer => "tokenizer",
            MemoryLimitKind::Stream => "stream",
            MemoryLimitKind::Decode { .. } => "decode",
            MemoryLimitKind::MetaScan => "meta-scan",
            MemoryLimitKind::Extract => "extract",
        }
    }
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
            MemoryLimitKind::Extract => {
                f.write_str("the text, blocks and links the extraction holds")
            }
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
    /// the stream would have had to hold, what the whole decoded text needs,
    /// what the extractor held with the token it would have taken.
    pub needed: usize,
    /// The byte offset in the text where the work stopped, when there is
    /// one: for the tokenizer, the position where it stopped (every token
    /// before the construct being tokenized there was delivered, and the
    /// text before it); for a stream, where the part it would have had to
    /// hold begins (every token before it was delivered); for an
    /// extractor, where the token it did not take begins (what came before
    /// was extracted). `None` for decoding, which refuses the whole text.
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

/// One layer's memory budget: a limit, and the bytes charged against it.
///
/// Owned buffers [`charge`](Self::charge) it when their capacity grows (and
/// [`release`](Self::release) what they hand away), as lol_html's
/// `SharedMemoryLimiter` is charged by its `LimitedVec`s; a charge past the
/// limit stays counted, so the error says what would have been needed. What
/// is measured rather than charged is [`check`](Self::check)ed on top of the
/// charge.
#[derive(Clone, Debug)]
pub(crate) struct MemoryLimiter {
    kind: MemoryLimitKind,
    /// The limit in bytes; `usize::MAX` for none, so that no charge passes it.
    limit: usize,
    /// What the owned buffers have charged as they grew, less what they
    /// released.
    charged: usize,
}

impl MemoryLimiter {
    /// A budget of `limit` bytes (`None`: unlimited) for `kind`.
    pub(crate) fn new(kind: MemoryLimitKind, limit: Option<usize>) -> MemoryLimiter {
        MemoryLimiter {
            kind,
            limit: limit.unwrap_or(usize::MAX),
            charged: 0,
        }
    }

    /// Whether there is a limit.
    #[inline]
    pub(crate) fn is_limited(&self) -> bool {
        self.limit != usize::MAX
    }

    /// The limit in bytes (`usize::MAX` when there is none).
    #[inline]
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// The bytes charged so far.
    #[inline]
    pub(crate) fn charged(&self) -> usize {
        self.charged
    }

    /// Charges `bytes` an owned buffer grew by (or is about to); returns
    /// whether the charge is now past the limit. The charge stays either
    /// way: a buffer that must grow has grown, and one that refuses to
    /// leaves what it would have needed in the error.
    #[inline]
    pub(crate) fn charge(&mut self, bytes: usize) -> bool {
        // No overflow: what is charged is memory taken.
        self.charged += bytes;
        self.charged > self.limit
    }

    /// Charges `bytes` without telling whether the limit is passed: for a
    /// charge too frequent to compare each time, compared by the next
    /// [`check`](Self::check).
    #[inline(always)]
    pub(crate) fn add(&mut self, bytes: usize) {
        self.charged += bytes;
    }

    /// Gives back `bytes` a buffer no longer holds (handed to another
    /// layer, or freed).
    #[inline]
    pub(crate) fn release(&mut self, bytes: usize) {
        self.charged = self.charged.saturating_sub(bytes);
    }

    /// Whether `measured` bytes on top of the charge fit the limit.
    #[inline]
    pub(crate) fn fits(&self, measured: usize) -> bool {
        self.charged.saturating_add(measured) <= self.limit
    }

    /// Checks `measured` bytes (what the layer holds that it does not
    /// charge) on top of the charge: past the limit, the error for them at
    /// `offset`.
    pub(crate) fn check(
        &self,
        measured: usize,
        offset: Option<usize>,
    ) -> Result<(), MemoryLimitError> {
        if self.fits(measured) {
            Ok(())
        } else {
            Err(self.error(self.charged.saturating_add(measured), offset))
        }
    }

    /// The error this budget gives when `needed` bytes passed it.
    pub(crate) fn error(&self, needed: usize, offset: Option<usize>) -> MemoryLimitError {
        MemoryLimitError {
            kind: self.kind,
            limit: self.limit,
            needed,
            offset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_pass_the_limit_and_stay_counted() {
        let mut limiter = MemoryLimiter::new(MemoryLimitKind::Stream, Some(10));
        assert!(limiter.is_limited());
        assert!(!limiter.charge(6));
        assert!(limiter.fits(4) && !limiter.fits(5));
        assert!(limiter.charge(8));
        assert_eq!(limiter.charged(), 14);
        limiter.release(8);
        assert_eq!(limiter.check(4, Some(3)), Ok(()));
        let error = limiter.check(5, Some(3)).unwrap_err();
        assert_eq!(
            (error.kind, error.limit, error.needed),
            (MemoryLimitKind::Stream, 10, 11)
        );
        assert_eq!(error.offset, Some(3));
        let mut unlimited = MemoryLimiter::new(MemoryLimitKind::Tokenizer, None);
        assert!(!unlimited.is_limited() && !unlimited.charge(usize::MAX - 1));
    }
}
