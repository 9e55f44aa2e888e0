//! The vector algorithm of squeezing gathered text (`gathered.rs`): a block
//! classified at once, its kept bytes packed together with a byte shuffle.
//! Needs more of a vector than [`Vector`] ([`Squeeze`]): SSSE3's shuffle
//! (`x86_64/ssse3.rs`, 16-byte blocks) or AVX2's (`x86_64/avx2.rs`, 32).

use crate::scan::squeeze::{LINE_BREAK, MarkSink, squeeze_byte};
use crate::scan::vector::Vector;

/// What squeezing needs of a vector past [`Vector`]: finding
/// whitespace by table, and packing the kept bytes.
pub(in crate::scan) trait Squeeze: Vector {
    /// A mask of all the block's bytes.
    const ALL: u32;
    /// 0xFF where a byte is ASCII whitespace, else 0.
    ///
    /// # Safety
    /// The CPU must support the implementation's instruction sets
    /// (SSSE3 and POPCNT for `__m128i`, AVX2 and POPCNT for
    /// `__m256i`).
    unsafe fn whitespace(self) -> Self;
    /// Writes the bytes whose bits are set in `keep` at `dst +
    /// *j`, packed, and adds their number to `*j`.
    ///
    /// # Safety
    /// As for `whitespace`; and `dst + *j` must have room for the
    /// kept bytes plus 16 (the kept bytes of each 8-byte half are
    /// written with a 16-byte store).
    unsafe fn pack(self, keep: u32, dst: *mut u8, j: &mut usize);
}

/// The vector blocks of squeezing (`squeeze::SqueezeBlocks`): takes whole blocks while they
/// hold no NUL nor 0xC2 (tested block by block: main content squeezes
/// each block of a page's text, most a few dozen bytes, and a search
/// ahead by `memchr2` cost each call more than the tests), a block's
/// bytes up to one, that one by the byte loop, and the last bytes as
/// one block; leaves to the caller's byte loop what it returns (the
/// offset reached).
///
/// # Safety
/// The CPU must support `V`'s instruction sets (see [`Squeeze`]);
/// `dst` must have room for `text.len() + 16` bytes past `*j`; `*j`
/// and `*after_space` as for `squeeze_byte`.
#[inline(always)]
pub(in crate::scan) unsafe fn squeeze_blocks<V: Squeeze>(
    text: &[u8],
    dst: *mut u8,
    j: &mut usize,
    after_space: &mut bool,
) -> usize {
    // SAFETY: the caller's contract.
    unsafe { squeeze_marked_blocks::<V, ()>(text, dst, j, after_space, &mut ()) }
}

/// [`squeeze_blocks`], telling `marks` of the marks it passes (see
/// [`MarkSink`]): those before the offset it returns.
///
/// # Safety
/// As for [`squeeze_blocks`].
#[inline(always)]
pub(in crate::scan) unsafe fn squeeze_marked_blocks<V: Squeeze, M: MarkSink>(
    text: &[u8],
    dst: *mut u8,
    j: &mut usize,
    after_space: &mut bool,
    marks: &mut M,
) -> usize {
    let w = V::BYTES;
    let n = text.len();
    // Kept in registers, given back at the end.
    let (mut written, mut after) = (*j, *after_space);
    // SAFETY: the caller guarantees the instruction sets.
    let special = |block: V| unsafe { block.eq(V::splat(0)).or(block.eq(V::splat(0xC2))).mask() };
    let mut i = 0;
    while i + w <= n {
        // SAFETY: `i + w <= n`, so the block is in `text`; the caller
        // guarantees the instruction sets.
        let block = unsafe { V::load(text.as_ptr().add(i)) };
        let specials = special(block);
        if specials != 0 {
            // A block with a NUL or a 0xC2: its bytes before that
            // one as a block, that one (or two: a no-break space)
            // by the byte loop, and the blocks go on after it.
            let k = specials.trailing_zeros() as usize;
            let before = written;
            let keep = if k > 0 {
                // SAFETY: as below, with only the first `k` bytes
                // kept.
                unsafe { squeeze_block(block, (1 << k) - 1, dst, &mut written, &mut after) }
            } else {
                0
            };
            marks.reach(i + k, i, before, keep);
            i += k;
            // SAFETY: `written <= i < n`: in the room.
            i += unsafe { squeeze_byte(text, i, dst, &mut written, &mut after) };
            continue;
        }
        let before = written;
        // SAFETY: `written <= i` (at most a byte is written per byte
        // read), and a block keeps at most its `w` bytes, so its
        // 16-byte stores end before `i + w + 16 <= n + 16`; the caller
        // guarantees the instruction sets.
        let keep = unsafe { squeeze_block(block, V::ALL, dst, &mut written, &mut after) };
        marks.reach(i + w, i, before, keep);
        i += w;
    }
    if i < n {
        // The tail, as a last block: the `w` bytes that end the
        // text (its first ones already taken, and left out by the
        // mask of new ones), or the text copied into a block; left to
        // the byte loop if it holds a NUL or a 0xC2.
        let new = n - i;
        let (block, valid, base) = if n >= w {
            // SAFETY: `n - w .. n` is in `text`.
            let block = unsafe { V::load(text.as_ptr().add(n - w)) };
            (block, V::ALL & !((1u32 << (w - new)) - 1), n - w)
        } else {
            let mut padded = [b'a'; 32];
            padded[..n].copy_from_slice(text);
            // SAFETY: `padded` holds 32 bytes, at least `w`.
            (unsafe { V::load(padded.as_ptr()) }, (1u32 << n) - 1, 0)
        };
        if special(block) & valid == 0 {
            let before = written;
            // SAFETY: `written <= i` and only the `new` bytes are kept,
            // so the stores end before `i + new + 16 = n + 16`; the
            // caller guarantees the instruction sets.
            let keep = unsafe { squeeze_block(block, valid, dst, &mut written, &mut after) };
            marks.reach(n, base, before, keep);
            i = n;
        }
    }
    (*j, *after_space) = (written, after);
    i
}

/// Squeezes the bytes of `block` whose bits are set in `valid` (the
/// block's last bytes, or its first), which hold no NUL nor 0xC2:
/// writes at `dst + *j` the ones it keeps, and gives their bits.
///
/// # Safety
/// `dst + *j` must have room for the valid bytes plus 16, the CPU
/// must support `V`'s instruction sets, and `*after_space` as for
/// `squeeze_byte`.
#[inline(always)]
unsafe fn squeeze_block<V: Squeeze>(
    block: V,
    valid: u32,
    dst: *mut u8,
    j: &mut usize,
    after_space: &mut bool,
) -> u32 {
    // SAFETY: the caller guarantees the instruction sets and the
    // room for the stores.
    unsafe {
        let whitespace = block.whitespace();
        let breaks = block.eq(V::splat(LINE_BREAK));
        let runs = whitespace.or(breaks);
        let run = runs.mask();
        // A run's byte is kept (as its separator) when it begins
        // the run: when the byte before is not in one, which for
        // the first new byte `*after_space` says (the byte before
        // it in the block may end a no-break space).
        let first = valid.trailing_zeros();
        let after = ((run << 1) & (valid << 1)) | (u32::from(*after_space) << first);
        let keep = !(run & after) & valid;
        *after_space = run & (1 << (31 - valid.leading_zeros())) != 0;
        // Whitespace made spaces, line-break markers newlines.
        let spaced = runs
            .and_not(block)
            .or(whitespace.and(V::splat(b' ')))
            .or(breaks.and(V::splat(b'\n')));
        // Packed without a branch on whether anything is dropped:
        // blocks that drop nothing and blocks that do alternate in
        // text, and the branch was mispredicted more than it saved.
        let at = *j;
        spaced.pack(keep, dst, j);
        // A run with a line break in it is a line break. Where the
        // marker begins the run it was kept, a newline; else the
        // run's first byte is made one: kept here, or (a run from
        // the block before) the last byte written before this
        // block.
        let mut marks = breaks.mask() & valid & !keep;
        let starts = keep & run;
        while marks != 0 {
            let mark = marks.trailing_zeros();
            marks &= marks - 1;
            let before = starts & (u32::MAX >> (31 - mark));
            let to = if before == 0 {
                at - 1
            } else {
                let start = 31 - before.leading_zeros();
                at + (keep & ((1 << start) - 1)).count_ones() as usize
            };
            dst.add(to).write(b'\n');
        }
        keep
    }
}
