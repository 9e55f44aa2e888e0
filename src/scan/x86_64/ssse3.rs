//! SSSE3 (with POPCNT): squeezing in 16-byte blocks, its kept bytes packed
//! by `pshufb`, and main content's class counts, its bytes classified by
//! `pshufb`, where the CPU has them (found at run time, see
//! `x86_64/mod.rs`; AVX2's squeezing packs through this too).

use core::arch::x86_64::*;

use crate::scan::class::is_ascii_whitespace;
use crate::scan::generic;
use crate::scan::generic::squeeze::Squeeze;
use crate::scan::generic::text::Lookup;
use crate::scan::squeeze::Marks;
use crate::scan::vector::Vector;

/// For each byte of 8 that a block keeps (bit `i` for byte `i`),
/// the `pshufb` indices that pack the kept bytes at the front: of
/// the block's first 8 bytes (`PACK[0]`) and of its last 8
/// (`PACK[1]`).
static PACK: [[u64; 256]; 2] = {
    let mut table = [[0u64; 256]; 2];
    let mut half = 0;
    while half < 2 {
        let mut keep = 0;
        while keep < 256 {
            let (mut indices, mut at, mut i) = (0u64, 0, 0);
            while i < 8 {
                if keep & (1 << i) != 0 {
                    indices |= ((8 * half + i) as u64) << (8 * at);
                    at += 1;
                }
                i += 1;
            }
            table[half][keep] = indices;
            keep += 1;
        }
        half += 1;
    }
    table
};

/// For each low half-byte, the one ASCII whitespace byte with that
/// low half (space, tab, LF, FF, CR), or 0x80 where there is none:
/// `pshufb` of it by a block gives back the block's byte exactly
/// where that byte is whitespace (bytes from 0x80 up give 0, never
/// equal; 0x80 equals no ASCII byte).
pub(super) const WHITESPACE_BY_LOW_HALF: [u8; 16] = {
    let mut table = [0x80u8; 16];
    let mut b = 0;
    while b < 256 {
        if is_ascii_whitespace(b as u8) {
            // One whitespace byte for each low half, or the table
            // cannot tell them apart.
            assert!(table[b & 15] == 0x80);
            table[b & 15] = b as u8;
        }
        b += 1;
    }
    table
};

impl Squeeze for __m128i {
    const ALL: u32 = 0xFFFF;
    #[inline(always)]
    unsafe fn whitespace(self) -> Self {
        // SAFETY: the caller guarantees SSSE3; the load reads the table's
        // 16 bytes.
        unsafe {
            let table = _mm_loadu_si128(WHITESPACE_BY_LOW_HALF.as_ptr().cast());
            _mm_shuffle_epi8(table, self).eq(self)
        }
    }
    #[inline(always)]
    unsafe fn pack(self, keep: u32, dst: *mut u8, j: &mut usize) {
        // SAFETY: the caller guarantees SSSE3 and POPCNT, and room at
        // `dst + *j` for the kept bytes plus 16, which covers both 16-byte
        // stores (the second begins after the first half's kept bytes);
        // `low` and `high` are below 256, so each load reads 8 bytes of a
        // row of `PACK`.
        unsafe {
            let low = keep & 0xFF;
            let high = (keep >> 8) & 0xFF;
            let pack_low = _mm_loadl_epi64(PACK[0].as_ptr().add(low as usize).cast());
            _mm_storeu_si128(dst.add(*j).cast(), _mm_shuffle_epi8(self, pack_low));
            *j += low.count_ones() as usize;
            let pack_high = _mm_loadl_epi64(PACK[1].as_ptr().add(high as usize).cast());
            _mm_storeu_si128(dst.add(*j).cast(), _mm_shuffle_epi8(self, pack_high));
            *j += high.count_ones() as usize;
        }
    }
}

/// The vector blocks of squeezing, 16 bytes at a time.
///
/// # Safety
/// The CPU must support SSSE3 and POPCNT; the rest as for
/// `squeeze::SqueezeBlocks`.
#[target_feature(enable = "ssse3,popcnt")]
pub(super) unsafe fn squeeze(
    text: &[u8],
    dst: *mut u8,
    j: &mut usize,
    after_space: &mut bool,
) -> usize {
    // SAFETY: the caller guarantees the instruction sets and the rest.
    unsafe { generic::squeeze::squeeze_blocks::<__m128i>(text, dst, j, after_space) }
}

/// [`squeeze`], telling `marks` where the marks it passes went
/// (`squeeze::SqueezeMarkedBlocks`).
///
/// # Safety
/// As for [`squeeze`].
#[cfg(feature = "extract")]
#[target_feature(enable = "ssse3,popcnt")]
pub(super) unsafe fn squeeze_marked(
    text: &[u8],
    dst: *mut u8,
    j: &mut usize,
    after_space: &mut bool,
    marks: &mut Marks<'_>,
) -> usize {
    // SAFETY: the caller guarantees the instruction sets and the rest.
    unsafe {
        generic::squeeze::squeeze_marked_blocks::<__m128i, _>(text, dst, j, after_space, marks)
    }
}

impl Lookup for __m128i {
    #[inline(always)]
    unsafe fn table(table: &[u8; 16]) -> Self {
        // SAFETY: the caller guarantees SSSE3; the load reads the table's
        // 16 bytes.
        unsafe { _mm_loadu_si128(table.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn lookup(self, index: Self) -> Self {
        // SAFETY: the caller guarantees SSSE3.
        unsafe { _mm_shuffle_epi8(self, index) }
    }
    #[inline(always)]
    unsafe fn high_halves(self) -> Self {
        // SAFETY: the caller guarantees SSSE3 (so SSE2). The shift is of
        // 16-bit lanes: each byte's high half lands in its low half,
        // under bits of the byte above, which the mask clears.
        unsafe { _mm_and_si128(_mm_srli_epi16::<4>(self), _mm_set1_epi8(0x0F)) }
    }
    #[inline(always)]
    unsafe fn double(self) -> Self {
        // SAFETY: the caller guarantees SSSE3 (so SSE2).
        unsafe { _mm_add_epi8(self, self) }
    }
}

/// See `text::count_classes_at`: 64-byte blocks classified with 16-byte
/// vectors (by `pshufb` tables), their masks counted by POPCNT.
///
/// # Safety
/// The CPU must support SSSE3 and POPCNT.
#[target_feature(enable = "ssse3,popcnt")]
pub(super) unsafe fn count_classes_at(
    text: &[u8],
    marks: &[usize],
    at: &mut Vec<[u32; 8]>,
) -> bool {
    // SAFETY: the caller guarantees SSSE3 and POPCNT.
    unsafe { generic::text::count_classes_at::<__m128i>(text, marks, at) };
    true
}
