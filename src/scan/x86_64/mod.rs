//! The x86-64 implementations, one file an instruction set, and the choice
//! among them.
//!
//! Two kinds of choice, by how often a scan is called:
//! - per token (`find2`'s first blocks, and extraction's `skip_collapsed`,
//!   `TextMasks::of`, `UrlMasks::of`): SSE2, the x86-64 baseline, chosen at
//!   compile time (this module is compiled only where the target has SSE2)
//!   and inlined into the caller. A choice at run time would cost each call
//!   a load and an indirect call, and the per-token scans are a few blocks
//!   long, too short for wider vectors to win that back.
//! - per buffer (the input-stream error starts over the whole input, and
//!   squeezing 16 KiB of gathered text): the widest instruction set the CPU
//!   has, AVX2 or SSSE3, checked at each call.
//!
//! Each `unsafe fn` of the instruction-set files needs only that the CPU
//! has its instruction sets: the choice here is what guarantees it.

mod avx2;
mod sse2;
#[cfg(feature = "extract")]
mod ssse3;

use core::arch::x86_64::__m128i;

use super::generic;
#[cfg(feature = "extract")]
use super::squeeze::SqueezeBlocks;

/// How far `find::find2` searches by itself, in SSE2 blocks, before
/// handing over to memchr, whose start-up only pays on longer runs (the
/// length was measured: BENCHMARKS.md, "Scanning").
pub(super) const FIND2_SHORT: usize = 128;

/// The first byte that may begin an input-stream error at or after `from`
/// in whole vector blocks (AVX2's 32 bytes where the CPU has them, else
/// SSE2's 16), or else where the tail too short for a block starts
/// (unchecked: the caller walks it). Every byte before the returned offset
/// is outside the set.
#[inline]
pub(super) fn skip_stream_error_free(hay: &[u8], from: usize) -> usize {
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above).
        return unsafe { avx2::skip_stream_error_free(hay, from) };
    }
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    unsafe { sse2::skip_stream_error_free(hay, from) }
}

/// The first `a` or `b` at or after `from` in the whole 16-byte blocks that
/// end by `limit` (`Ok`), or where those blocks stop (`Err`, the bytes
/// before it hold neither). SSE2, chosen at compile time.
#[inline(always)]
pub(super) fn find2_blocks(
    a: u8,
    b: u8,
    hay: &[u8],
    from: usize,
    limit: usize,
) -> Result<usize, usize> {
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    unsafe { generic::find2_blocks::<__m128i>(a, b, hay, from, limit) }
}

/// See `text::skip_collapsed`: whole 16-byte blocks with a byte after
/// them. SSE2, chosen at compile time.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn skip_collapsed(hay: &[u8], from: usize) -> usize {
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    unsafe { generic::text::skip_collapsed::<__m128i>(hay, from) }
}

/// See `TextMasks::of`: 16-byte blocks (SSE2, chosen at compile time), the
/// last one overlapping the one before it rather than reading past the
/// text; a text shorter than a block is copied into one first.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn text_masks(text: &[u8]) -> Option<[u64; 3]> {
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    Some(unsafe { generic::text::short_masks::<__m128i, 3>(text, generic::text::text_block_masks) })
}

/// See `UrlMasks::of`: as [`text_masks`].
#[cfg(feature = "extract")]
#[inline]
pub(super) fn url_masks(url: &[u8]) -> Option<[u64; 4]> {
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    Some(unsafe { generic::text::short_masks::<__m128i, 4>(url, generic::text::url_block_masks) })
}

/// The widest vector squeezing the CPU has, of at most `widest` bytes a
/// block: AVX2's 32 where it has AVX2 and POPCNT, SSSE3's 16 where it has
/// SSSE3 and POPCNT (all past the x86-64 baseline), else none (the byte
/// loop alone); with its width.
#[cfg(feature = "extract")]
fn squeezer(widest: usize) -> (usize, SqueezeBlocks) {
    let popcnt = std::is_x86_feature_detected!("popcnt");
    if widest >= 32 && popcnt && std::is_x86_feature_detected!("avx2") {
        (32, avx2::squeeze)
    } else if widest >= 16 && popcnt && std::is_x86_feature_detected!("ssse3") {
        (16, ssse3::squeeze)
    } else {
        (0, super::squeeze::no_blocks)
    }
}

/// Squeezing's vector blocks, the widest the CPU has (see `squeezer`).
///
/// # Safety
/// As for `squeeze::SqueezeBlocks`, but for the instruction sets, which
/// this checks.
#[cfg(feature = "extract")]
#[inline]
pub(super) unsafe fn squeeze_blocks(
    text: &[u8],
    dst: *mut u8,
    j: &mut usize,
    after_space: &mut bool,
) -> usize {
    let (_, blocks) = squeezer(32);
    // SAFETY: `squeezer` gives an implementation whose instruction sets
    // the CPU has; the rest is the caller's contract.
    unsafe { blocks(text, dst, j, after_space) }
}

/// Every squeezing the CPU has, with its width, for the tests to compare
/// each with the byte loop.
#[cfg(all(test, feature = "extract"))]
pub(super) fn squeezers() -> Vec<(usize, SqueezeBlocks)> {
    let mut all: Vec<_> = [32, 16, 0].into_iter().map(squeezer).collect();
    all.dedup_by_key(|(width, _)| *width);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::class::STREAM_ERROR_START;

    /// Every byte value at every position of a block, through each
    /// vector width the CPU has: the same answer as the table.
    #[test]
    fn vectors_agree_with_the_table() {
        let avx2 = std::is_x86_feature_detected!("avx2");
        for b in 0..=255u8 {
            let member = STREAM_ERROR_START.contains(b);
            // Under Miri (slow), the members and their neighbours.
            let near = |d: u8| STREAM_ERROR_START.contains(b.wrapping_add(d));
            if cfg!(miri) && !(member || near(1) || near(255)) {
                continue;
            }
            for len in [16, 32, 48, 64] {
                for at in 0..len {
                    let mut hay = vec![b'a'; len];
                    hay[at] = b;
                    // Exact within whole blocks; the tail is left
                    // to the table.
                    let check = |got: usize, width: usize, name: &str| {
                        let blocks = len / width * width;
                        let want = if member && at < blocks { at } else { blocks };
                        assert_eq!(got, want, "{name}: byte {b:#04x} at {at} of {len}");
                    };
                    // SAFETY: SSE2 is part of the x86-64 baseline.
                    check(unsafe { sse2::skip_stream_error_free(&hay, 0) }, 16, "sse2");
                    if avx2 {
                        // SAFETY: AVX2 was detected.
                        check(unsafe { avx2::skip_stream_error_free(&hay, 0) }, 32, "avx2");
                    }
                    // The chosen one, whichever it is.
                    let width = if avx2 { 32 } else { 16 };
                    check(skip_stream_error_free(&hay, 0), width, "chosen");
                }
            }
        }
    }
}
