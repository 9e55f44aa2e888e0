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
