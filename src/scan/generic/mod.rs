//! The vector algorithms, each written once over [`Vector`] and
//! instantiated per instruction set by `x86_64/` (as `memchr`'s `generic`
//! module is). Every function is an `unsafe fn` whose caller guarantees the
//! CPU supports `V`'s instruction set, and is inlined into the function
//! that enables that set (`#[target_feature]`), where the vector methods
//! become single instructions.

#[cfg(feature = "extract")]
pub(super) mod squeeze;
#[cfg(feature = "extract")]
pub(super) mod text;

use super::vector::Vector;

/// The first `a` or `b` at or after `from` in the whole `V::BYTES`-byte
/// blocks that end by `limit` (`Ok`), or where those blocks stop (`Err`, the
/// bytes before it hold neither).
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(super) unsafe fn find2_blocks<V: Vector>(
    a: u8,
    b: u8,
    hay: &[u8],
    from: usize,
    limit: usize,
) -> Result<usize, usize> {
    let limit = limit.min(hay.len());
    let mut i = from;
    while i + V::BYTES <= limit {
        // SAFETY: `i + BYTES <= limit <= hay.len()`, so the block is in
        // `hay`; the caller guarantees the instruction set.
        let m = unsafe {
            let v = V::load(hay.as_ptr().add(i));
            v.eq(V::splat(a)).or(v.eq(V::splat(b))).mask()
        };
        if m != 0 {
            return Ok(i + m.trailing_zeros() as usize);
        }
        i += V::BYTES;
    }
    Err(i)
}

/// 0xFF in each byte of `v` that begins an input-stream error (see
/// `class::STREAM_ERROR_START`), as a bit mask: that set as vector
/// operations, tested against it (`x86_64`'s tests).
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
unsafe fn stream_error_starts<V: Vector>(v: V) -> u32 {
    // SAFETY: the caller guarantees `V`'s instruction set.
    unsafe {
        let is = |b: u8| v.eq(V::splat(b));
        // Unsigned `x <= max`, as `min(x, max) == x`.
        let at_most = |x: V, max: u8| x.min(V::splat(max)).eq(x);
        let whitespace_or_nul = is(0).or(is(b'\t')).or(is(b'\n')).or(is(0x0C)).or(is(b'\r'));
        let controls = whitespace_or_nul.and_not(at_most(v, 0x1F)).or(is(0x7F));
        let planes = at_most(v.sub(V::splat(0xF0)), 4);
        let leads = is(0xC2).or(is(0xEF)).or(planes);
        controls.or(leads).mask()
    }
}

/// The first byte of `class::STREAM_ERROR_START` at or after `from` in
/// the whole `V::BYTES`-byte blocks of `hay`, or else where the tail too
/// short for a block starts (unchecked: the caller walks it). Every byte
/// before the returned offset is outside the set.
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(super) unsafe fn skip_stream_error_free<V: Vector>(hay: &[u8], from: usize) -> usize {
    let mut i = from;
    while i + V::BYTES <= hay.len() {
        // SAFETY: `i + BYTES <= hay.len()`, so the block is in `hay`;
        // the caller guarantees the instruction set.
        let mask = unsafe { stream_error_starts(V::load(hay.as_ptr().add(i))) };
        if mask != 0 {
            return i + mask.trailing_zeros() as usize;
        }
        i += V::BYTES;
    }
    i
}
