//! SSE2: 16-byte vectors, part of the x86-64 baseline (this module is
//! compiled only where the target has it, so it needs no run-time check).

use core::arch::x86_64::*;

use crate::scan::generic;
use crate::scan::vector::Vector;

impl Vector for __m128i {
    const BYTES: usize = 16;
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller guarantees SSE2 and the 16 bytes at `p`
        // readable (the trait's contract).
        unsafe { _mm_loadu_si128(p.cast()) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: the caller guarantees SSE2 (the trait's contract).
        unsafe { _mm_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2 (the trait's contract).
        unsafe { _mm_cmpeq_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn min(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2 (the trait's contract).
        unsafe { _mm_min_epu8(self, other) }
    }
    #[inline(always)]
    unsafe fn sub(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2 (the trait's contract).
        unsafe { _mm_sub_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2 (the trait's contract).
        unsafe { _mm_or_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn and_not(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2 (the trait's contract).
        unsafe { _mm_andnot_si128(self, other) }
    }
    #[cfg(feature = "extract")]
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2 (the trait's contract).
        unsafe { _mm_and_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn mask(self) -> u32 {
        // SAFETY: the caller guarantees SSE2 (the trait's contract).
        unsafe { _mm_movemask_epi8(self) as u32 }
    }
}

/// `find::find_stream_error_start`'s vector blocks, 16 bytes at a time.
///
/// # Safety
/// The CPU must support SSE2 (every x86-64 CPU does).
#[target_feature(enable = "sse2")]
pub(super) unsafe fn skip_stream_error_free(hay: &[u8], from: usize) -> usize {
    // SAFETY: the caller guarantees SSE2.
    unsafe { generic::skip_stream_error_free::<__m128i>(hay, from) }
}

/// How many classes `text::count_classes` counts.
#[cfg(feature = "extract")]
const CLASSES: usize = 8;

/// See `text::count_classes`: each 16-byte block classified at once, each
/// class counted in a byte lane of its own (255 blocks at most, then added
/// up), the byte before each byte found by a load one byte back. The last
/// block is the text's last 16 bytes with those already counted cleared
/// (a zero is of no class); a text shorter than a block is copied into
/// one, zeros after it.
///
/// # Safety
/// The CPU must support SSE2.
#[cfg(feature = "extract")]
#[inline]
pub(super) unsafe fn count_classes(text: &[u8]) -> [u32; CLASSES] {
    /// 0x00 for 16 bytes, then 0xFF for 16: from byte `k` on, a block
    /// whose last `k` bytes are set.
    static LAST: [u8; 32] = {
        let mut bytes = [0u8; 32];
        let mut i = 16;
        while i < 32 {
            bytes[i] = 0xFF;
            i += 1;
        }
        bytes
    };
    let n = text.len();
    let mut totals = [0u32; CLASSES];
    if n == 0 {
        return totals;
    }
    // SAFETY: the caller guarantees SSE2; every load below reads 16
    // bytes inside `text` (at `i` with `i + 16 <= n`, at `i - 1` with
    // `1 <= i` and `i + 15 <= n`, at `n - 16` and `n - 17` with
    // `n >= 17`), inside `padded`, or inside `LAST` (at `k` for
    // `1 <= k <= 15`).
    unsafe {
        let mut lanes = [_mm_setzero_si128(); CLASSES];
        let load = |at: usize| _mm_loadu_si128(text.as_ptr().add(at).cast());
        // The first block: the byte before its first is taken as a
        // separator (the text's first word begins there).
        let first = if n >= 16 {
            load(0)
        } else {
            let mut padded = [0u8; 16];
            crate::scan::gathered::copy_short(&mut padded[..n], text);
            _mm_loadu_si128(padded.as_ptr().cast())
        };
        let first_separators = separators(first);
        let before_first =
            _mm_or_si128(_mm_slli_si128(first_separators, 1), _mm_cvtsi32_si128(0xFF));
        count_block(first, before_first, &mut lanes);
        let mut i = 16;
        let mut blocks = 1;
        while i + 16 <= n {
            if blocks == 255 {
                add_lanes(&mut lanes, &mut totals);
                blocks = 0;
            }
            count_block(load(i), separators(load(i - 1)), &mut lanes);
            blocks += 1;
            i += 16;
        }
        if i < n {
            let last = _mm_and_si128(
                load(n - 16),
                _mm_loadu_si128(LAST.as_ptr().add(n - i).cast()),
            );
            count_block(last, separators(load(n - 17)), &mut lanes);
        }
        add_lanes(&mut lanes, &mut totals);
    }
    totals
}

/// 0xFF where a byte of `block` is a space or a LF.
///
/// # Safety
/// The CPU must support SSE2.
#[cfg(feature = "extract")]
#[inline(always)]
unsafe fn separators(block: __m128i) -> __m128i {
    // SAFETY: the caller guarantees SSE2.
    unsafe {
        _mm_or_si128(
            _mm_cmpeq_epi8(block, _mm_set1_epi8(b' ' as i8)),
            _mm_cmpeq_epi8(block, _mm_set1_epi8(b'\n' as i8)),
        )
    }
}

/// Adds one to the lane of each class for each byte of `block` of it;
/// `before` is 0xFF where the byte before a byte is a separator.
///
/// # Safety
/// The CPU must support SSE2.
#[cfg(feature = "extract")]
#[inline(always)]
unsafe fn count_block(block: __m128i, before: __m128i, lanes: &mut [__m128i; CLASSES]) {
    // SAFETY: the caller guarantees SSE2.
    unsafe {
        let is = |b: u8| _mm_cmpeq_epi8(block, _mm_set1_epi8(b as i8));
        // `b - from` (wrapping) is below `len` where `from <= b < from + len`.
        let within = |from: u8, len: u8| {
            let d = _mm_sub_epi8(block, _mm_set1_epi8(from as i8));
            _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8((len - 1) as i8)), d)
        };
        let lf = is(b'\n');
        let classes = [
            _mm_or_si128(is(b' '), lf),
            lf,
            within(b'0', 10),
            _mm_or_si128(_mm_or_si128(is(b'.'), is(b'!')), is(b'?')),
            _mm_or_si128(is(b','), is(b';')),
            _mm_or_si128(_mm_or_si128(is(b'|'), is(b'/')), is(b'>')),
            _mm_cmpeq_epi8(
                _mm_and_si128(block, _mm_set1_epi8(0xC0u8 as i8)),
                _mm_set1_epi8(0x80u8 as i8),
            ),
            _mm_and_si128(within(b'A', 26), before),
        ];
        // A class's bytes are 0xFF, -1: subtracted, they count one.
        for (lane, class) in lanes.iter_mut().zip(classes) {
            *lane = _mm_sub_epi8(*lane, class);
        }
    }
}

/// Adds each class's lanes to its total, and clears them.
///
/// # Safety
/// The CPU must support SSE2.
#[cfg(feature = "extract")]
#[inline(always)]
unsafe fn add_lanes(lanes: &mut [__m128i; CLASSES], totals: &mut [u32; CLASSES]) {
    // SAFETY: the caller guarantees SSE2.
    unsafe {
        for (lane, total) in lanes.iter_mut().zip(totals.iter_mut()) {
            // Each half's eight bytes summed into its low 16 bits.
            let sums = _mm_sad_epu8(*lane, _mm_setzero_si128());
            let high = _mm_unpackhi_epi64(sums, sums);
            *total += _mm_cvtsi128_si32(_mm_add_epi64(sums, high)) as u32;
            *lane = _mm_setzero_si128();
        }
    }
}
