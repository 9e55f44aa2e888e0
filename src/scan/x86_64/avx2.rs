//! AVX2: 32-byte vectors, where the CPU has them (found at run time, see
//! `x86_64/mod.rs`).

use core::arch::x86_64::*;

use crate::scan::generic;
#[cfg(feature = "extract")]
use crate::scan::generic::squeeze::Squeeze;
#[cfg(feature = "extract")]
use crate::scan::generic::text::Lookup;
#[cfg(feature = "extract")]
use crate::scan::squeeze::Marks;
use crate::scan::vector::Vector;

impl Vector for __m256i {
    const BYTES: usize = 32;
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller guarantees AVX2 and the 32 bytes at `p`
        // readable (the trait's contract).
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: the caller guarantees AVX2 (the trait's contract).
        unsafe { _mm256_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX2 (the trait's contract).
        unsafe { _mm256_cmpeq_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn min(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX2 (the trait's contract).
        unsafe { _mm256_min_epu8(self, other) }
    }
    #[inline(always)]
    unsafe fn sub(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX2 (the trait's contract).
        unsafe { _mm256_sub_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX2 (the trait's contract).
        unsafe { _mm256_or_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn and_not(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX2 (the trait's contract).
        unsafe { _mm256_andnot_si256(self, other) }
    }
    #[cfg(feature = "extract")]
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX2 (the trait's contract).
        unsafe { _mm256_and_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn mask(self) -> u32 {
        // SAFETY: the caller guarantees AVX2 (the trait's contract).
        unsafe { _mm256_movemask_epi8(self) as u32 }
    }
}

/// `find::find_stream_error_start`'s vector blocks, 32 bytes at a time.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn skip_stream_error_free(hay: &[u8], from: usize) -> usize {
    // SAFETY: the caller guarantees AVX2.
    unsafe { generic::skip_stream_error_free::<__m256i>(hay, from) }
}

#[cfg(feature = "extract")]
impl Squeeze for __m256i {
    const ALL: u32 = u32::MAX;
    #[inline(always)]
    unsafe fn whitespace(self) -> Self {
        // SAFETY: the caller guarantees AVX2; the load reads the table's
        // 16 bytes.
        unsafe {
            let table = _mm_loadu_si128(super::ssse3::WHITESPACE_BY_LOW_HALF.as_ptr().cast());
            // `pshufb` looks up within each 16-byte lane: the
            // table in both.
            _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(table), self).eq(self)
        }
    }
    #[inline(always)]
    unsafe fn pack(self, keep: u32, dst: *mut u8, j: &mut usize) {
        // SAFETY: the caller guarantees AVX2 (so SSSE3) and POPCNT, and
        // room for each half's kept bytes plus 16, as `__m128i`'s `pack`
        // needs.
        unsafe {
            _mm256_castsi256_si128(self).pack(keep & 0xFFFF, dst, j);
            _mm256_extracti128_si256::<1>(self).pack(keep >> 16, dst, j);
        }
    }
}

/// The vector blocks of squeezing, 32 bytes at a time: half the
/// classifying and the loop's turns of 16-byte blocks, the same packing
/// (16 bytes is what one `pshufb` table of 8-byte halves packs; AVX2
/// shuffles within 16-byte lanes anyway).
///
/// # Safety
/// The CPU must support AVX2 and POPCNT; the rest as for
/// `squeeze::SqueezeBlocks`.
#[cfg(feature = "extract")]
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn squeeze(
    text: &[u8],
    dst: *mut u8,
    j: &mut usize,
    after_space: &mut bool,
) -> usize {
    // SAFETY: the caller guarantees the instruction sets and the rest.
    unsafe { generic::squeeze::squeeze_blocks::<__m256i>(text, dst, j, after_space) }
}

/// [`squeeze`], telling `marks` where the marks it passes went
/// (`squeeze::SqueezeMarkedBlocks`).
///
/// # Safety
/// As for [`squeeze`].
#[cfg(feature = "extract")]
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn squeeze_marked(
    text: &[u8],
    dst: *mut u8,
    j: &mut usize,
    after_space: &mut bool,
    marks: &mut Marks<'_>,
) -> usize {
    // SAFETY: the caller guarantees the instruction sets and the rest.
    unsafe {
        generic::squeeze::squeeze_marked_blocks::<__m256i, _>(text, dst, j, after_space, marks)
    }
}

#[cfg(feature = "extract")]
impl Lookup for __m256i {
    #[inline(always)]
    unsafe fn table(table: &[u8; 16]) -> Self {
        // SAFETY: the caller guarantees AVX2; the load reads the table's
        // 16 bytes.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn lookup(self, index: Self) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_shuffle_epi8(self, index) }
    }
    #[inline(always)]
    unsafe fn high_halves(self) -> Self {
        // SAFETY: the caller guarantees AVX2. The shift is of 16-bit
        // lanes: each byte's high half lands in its low half, under
        // bits of the byte above, which the mask clears.
        unsafe { _mm256_and_si256(_mm256_srli_epi16::<4>(self), _mm256_set1_epi8(0x0F)) }
    }
    #[inline(always)]
    unsafe fn double(self) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_add_epi8(self, self) }
    }
}

/// See `text::count_classes_at`: 64-byte blocks classified with 32-byte
/// vectors (by `pshufb` tables), their masks counted by POPCNT.
///
/// # Safety
/// The CPU must support AVX2 and POPCNT.
#[cfg(feature = "extract")]
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn count_classes_at(
    text: &[u8],
    marks: &[usize],
    at: &mut Vec<[u32; 8]>,
) -> bool {
    // SAFETY: the caller guarantees AVX2 and POPCNT.
    unsafe { generic::text::count_classes_at::<__m256i>(text, marks, at) };
    true
}
