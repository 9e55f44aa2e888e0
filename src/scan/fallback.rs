//! The entry points of `x86_64/` for every other target: no vector blocks,
//! so each scan's byte or word loop does all the work (the callers' loops,
//! and the byte-loop definitions of the masks).

/// No vector blocks: squeezing is the byte loop's.
#[cfg(feature = "extract")]
pub(super) use super::squeeze::no_blocks as squeeze_blocks;
/// No vector blocks: squeezing with marks is the byte loop's.
#[cfg(feature = "extract")]
pub(super) use super::squeeze::no_marked_blocks as squeeze_marked_blocks;
#[cfg(all(test, feature = "extract"))]
use super::squeeze::{SqueezeBlocks, SqueezeMarkedBlocks};

/// How far `find::find2` searches by itself, in `u64` words, before
/// handing over to memchr.
pub(super) const FIND2_SHORT: usize = 32;

/// No vector blocks: the caller's byte loop walks from `from`.
#[inline]
pub(super) fn skip_stream_error_free(_hay: &[u8], from: usize) -> usize {
    from
}

/// No vector blocks: the caller's word loop searches from `from`.
#[inline(always)]
pub(super) fn find2_blocks(
    _a: u8,
    _b: u8,
    _hay: &[u8],
    from: usize,
    _limit: usize,
) -> Result<usize, usize> {
    Err(from)
}

/// No vector blocks: the caller's byte loop decides from `from`.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn skip_collapsed(_hay: &[u8], from: usize) -> usize {
    from
}

/// No vector blocks: `TextMasks::of` takes its byte loop.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn text_masks(_text: &[u8]) -> Option<[u64; 3]> {
    None
}

/// No vector blocks: `text::count_classes_at` takes its byte loop.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn count_classes_at(_: &[u8], _: &[usize], _: &mut Vec<[u32; 8]>) -> bool {
    false
}

/// No vector blocks: `UrlMasks::of` takes its byte loop.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn url_masks(_url: &[u8]) -> Option<[u64; 4]> {
    None
}

/// No vector blocks: `text::destination_changes` takes its byte loop.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn destination_changes(_url: &[u8]) -> Option<bool> {
    None
}

/// No vector blocks: `MarkdownMasks::of` takes its byte loop.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn markdown_masks(_text: &[u8]) -> Option<[u64; 5]> {
    None
}

/// The one squeezing there is, for the tests.
#[cfg(all(test, feature = "extract"))]
pub(super) fn squeezers() -> Vec<(usize, SqueezeBlocks)> {
    vec![(0, squeeze_blocks)]
}

/// The one squeezing with marks there is, for the tests.
#[cfg(all(test, feature = "extract"))]
pub(super) fn marked_squeezers() -> Vec<(usize, SqueezeMarkedBlocks)> {
    vec![(0, squeeze_marked_blocks)]
}

/// A counting of `text::count_classes_at`'s classes, for the tests.
#[cfg(all(test, feature = "extract"))]
type ClassCounter = fn(&[u8], &[usize], &mut Vec<[u32; 8]>) -> bool;

/// No vector counting: the tests compare the byte loop with none.
#[cfg(all(test, feature = "extract"))]
pub(super) fn class_counters() -> Vec<ClassCounter> {
    Vec::new()
}
