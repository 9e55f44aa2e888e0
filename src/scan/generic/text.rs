//! The vector algorithms of extraction's per-token scans (see `text.rs`):
//! skipping collapsed text, and the bit masks of a short text or URL.

use crate::scan::vector::Vector;

/// `text::skip_collapsed` in whole `V::BYTES`-byte blocks with a byte
/// after them.
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(in crate::scan) unsafe fn skip_collapsed<V: Vector>(hay: &[u8], from: usize) -> usize {
    let mut i = from;
    // Each block is compared with the block one byte later, to see
    // what follows each space: so a block needs one more byte.
    while i + V::BYTES < hay.len() {
        // SAFETY: `i + BYTES + 1 <= hay.len()`, so both blocks are in
        // `hay`; the caller guarantees the instruction set.
        let stop = unsafe {
            let here = V::load(hay.as_ptr().add(i));
            let next = V::load(hay.as_ptr().add(i + 1));
            // A byte at most 0x20 (controls and space), or 0xC2.
            let special = |v: V| v.min(V::splat(0x20)).eq(v).or(v.eq(V::splat(0xC2)));
            let space = here.eq(V::splat(b' '));
            // A special byte ends the run, but for a space with an
            // ordinary byte after it.
            space
                .and_not(special(here))
                .or(space.and(special(next)))
                .mask()
        };
        if stop != 0 {
            return i + stop.trailing_zeros() as usize;
        }
        i += V::BYTES;
    }
    i
}

/// The classes of one block, as `text::TextMasks` of its `V::BYTES` bits.
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(in crate::scan) unsafe fn text_block_masks<V: Vector>(v: V) -> [u64; 3] {
    // SAFETY: the caller guarantees the instruction set.
    unsafe {
        // Tab, LF, VT, FF, CR are 0x09..=0x0D; VT is not whitespace.
        let controls = v.sub(V::splat(0x09));
        let controls = controls.min(V::splat(4)).eq(controls);
        let space = v.eq(V::splat(b' '));
        let whitespace = v.eq(V::splat(0x0B)).and_not(controls).or(space);
        let other = v.eq(V::splat(0)).or(v.eq(V::splat(0xC2)));
        [whitespace.mask(), space.mask(), other.mask()].map(u64::from)
    }
}

/// The classes of one block, as `text::UrlMasks` of its `V::BYTES` bits.
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(in crate::scan) unsafe fn url_block_masks<V: Vector>(v: V) -> [u64; 4] {
    // SAFETY: the caller guarantees the instruction set.
    unsafe {
        let is = |b: u8| v.eq(V::splat(b));
        // Printable ASCII, 0x21..=0x7E, is 0..=0x5D less 0x21.
        let graphic = v.sub(V::splat(0x21));
        let graphic = graphic.min(V::splat(0x5D)).eq(graphic);
        let fragment = is(b'"').or(is(b'<')).or(is(b'>')).or(is(b'`'));
        let fragment = graphic.and_not(V::splat(0xFF)).or(fragment);
        let special = fragment
            .or(is(b'{'))
            .or(is(b'}'))
            .or(is(b'\''))
            .or(is(b'\\'));
        [
            fragment.mask(),
            special.mask(),
            is(b'/').mask(),
            is(b'.').or(is(b'%')).mask(),
        ]
        .map(u64::from)
    }
}

/// The classes of one block, as `text::MarkdownMasks` of its `V::BYTES`
/// bits.
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(in crate::scan) unsafe fn markdown_block_masks<V: Vector>(v: V) -> [u64; 5] {
    // SAFETY: the caller guarantees the instruction set.
    unsafe {
        let is = |b: u8| v.eq(V::splat(b));
        let [whitespace, space, other] = text_block_masks(v);
        // `[`, `\`, `]`, `^`, `_`, `` ` `` are 0x5B..=0x60; `^` is not markup.
        let brackets = v.sub(V::splat(0x5B));
        let brackets = brackets.min(V::splat(5)).eq(brackets);
        let markup = is(b'^')
            .and_not(brackets)
            .or(is(b'*'))
            .or(is(b'<'))
            .or(is(b'&'));
        [
            whitespace,
            space,
            u64::from(markup.mask()),
            u64::from(is(b'|').mask()),
            other,
        ]
    }
}

/// Whether one block holds a byte that a Markdown link destination
/// changes (`text::destination_changes`): a control character or a space
/// (up to 0x20), `<`, `>`, `(`, `)`, `\`, `|`, DEL, or 0xC2 (which may
/// begin a C1 control).
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(in crate::scan) unsafe fn destination_block<V: Vector>(v: V) -> bool {
    // SAFETY: the caller guarantees the instruction set.
    unsafe {
        let is = |b: u8| v.eq(V::splat(b));
        let low = v.min(V::splat(0x20)).eq(v);
        // `(` and `)` are 0x28 and 0x29.
        let parens = v.sub(V::splat(0x28));
        let parens = parens.min(V::splat(1)).eq(parens);
        let found = low
            .or(parens)
            .or(is(b'<'))
            .or(is(b'>'))
            .or(is(b'\\'))
            .or(is(b'|'))
            .or(is(0x7F))
            .or(is(0xC2));
        found.mask() != 0
    }
}

/// Whether any byte of `hay` is one `block` finds: whole `V::BYTES`-byte
/// blocks, the last one overlapping the one before it; a text shorter
/// than a block copied into one first (after `a`s, which `block` must not
/// find).
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(in crate::scan) unsafe fn any_in_blocks<V: Vector>(
    hay: &[u8],
    block: unsafe fn(V) -> bool,
) -> bool {
    let n = hay.len();
    if n < V::BYTES {
        let mut padded = [b'a'; 32];
        assert!(V::BYTES <= padded.len());
        padded[..n].copy_from_slice(hay);
        // SAFETY: `padded` holds 32 >= BYTES bytes; the caller guarantees
        // the instruction set.
        return unsafe { block(V::load(padded.as_ptr())) };
    }
    let mut i = 0;
    loop {
        let at = i.min(n - V::BYTES);
        // SAFETY: `at + BYTES <= n`; the caller guarantees the instruction
        // set.
        if unsafe { block(V::load(hay.as_ptr().add(at))) } {
            return true;
        }
        i += V::BYTES;
        if i >= n {
            return false;
        }
    }
}

/// The generic body of `TextMasks::of`, `UrlMasks::of` and `MarkdownMasks::of`: the `K` bit masks
/// of `text` (its first 64 bytes), `block` giving those of each
/// `V::BYTES`-byte block: blocks of `text`, the last one overlapping
/// the one before it rather than reading past the text; a text shorter
/// than a block is copied into one first (the bits of the zeros after
/// it cleared).
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(in crate::scan) unsafe fn short_masks<V: Vector, const K: usize>(
    text: &[u8],
    block: unsafe fn(V) -> [u64; K],
) -> [u64; K] {
    let n = text.len().min(64);
    if n < V::BYTES {
        // Zeros after the text, whose bits are cleared below. Copied
        // as two overlapping words, not by `memcpy`, whose branches on
        // the length cost more than the copy.
        let mut padded = [0u8; 32];
        assert!(V::BYTES <= padded.len());
        if n >= 8 {
            padded[..8].copy_from_slice(&text[..8]);
            padded[n - 8..n].copy_from_slice(&text[n - 8..n]);
        } else if n >= 4 {
            padded[..4].copy_from_slice(&text[..4]);
            padded[n - 4..n].copy_from_slice(&text[n - 4..n]);
        } else if n > 0 {
            // Three bytes that cover one to three, each copied alone:
            // `copy_from_slice` of a length not known here calls
            // `memcpy`.
            padded[0] = text[0];
            padded[n / 2] = text[n / 2];
            padded[n - 1] = text[n - 1];
        }
        // SAFETY: `padded` holds 32 >= BYTES bytes (16 or 32); the caller
        // guarantees the instruction set.
        let masks = unsafe { block(V::load(padded.as_ptr())) };
        let valid = (1u64 << n) - 1;
        return masks.map(|m| m & valid);
    }
    let mut masks = [0; K];
    let mut i = 0;
    loop {
        // The last block ends at the text's end, overlapping the one
        // before it; its bits for bytes already seen are the same.
        let at = i.min(n - V::BYTES);
        // SAFETY: `at + BYTES <= n <= text.len()`; the caller
        // guarantees the instruction set.
        let got = unsafe { block(V::load(text.as_ptr().add(at))) };
        for (m, g) in masks.iter_mut().zip(got) {
            *m |= g << at;
        }
        i += V::BYTES;
        if i >= n {
            break;
        }
    }
    masks
}

/// See `text::count_classes_at`: each block of 64 bytes classified into a
/// bit mask per class (its vectors' masks side by side), the masks counted
/// by `count_ones` (POPCNT where the caller enables it): one count a class
/// for 64 bytes, whatever the vectors' width; a mark inside a block takes
/// the bits below it. The tail is copied into a block of zeros (a zero is
/// of no class).
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(in crate::scan) unsafe fn count_classes_at<V: Vector>(
    text: &[u8],
    marks: &[usize],
    at: &mut Vec<[u32; 8]>,
) {
    const W: usize = 64;
    let n = text.len();
    let mut totals = [0u32; 8];
    let mut marks = marks.iter().copied().peekable();
    // Whether the byte before the block is a separator: the text's first
    // byte counts as after one.
    let mut after = 1u64;
    let mut i = 0;
    while i < n {
        let masks = if i + W <= n {
            // SAFETY: `i + W <= n`: the block is in `text`; the caller
            // guarantees the instruction set.
            unsafe { class_masks::<V>(text.as_ptr().add(i), after) }
        } else {
            let mut padded = [0u8; W];
            padded[..n - i].copy_from_slice(&text[i..]);
            // SAFETY: `padded` holds `W` bytes; the caller guarantees the
            // instruction set.
            unsafe { class_masks::<V>(padded.as_ptr(), after) }
        };
        after = masks[0] >> (W - 1);
        while let Some(mark) = marks.next_if(|&m| m < i + W) {
            let below = (1u64 << (mark - i)) - 1;
            at.push(core::array::from_fn(|c| {
                totals[c] + (masks[c] & below).count_ones()
            }));
        }
        for (total, mask) in totals.iter_mut().zip(masks) {
            *total += mask.count_ones();
        }
        i += W;
    }
    at.extend(marks.map(|_| totals));
}

/// The masks of `count_classes_at`'s classes in the 64 bytes at `p` (bit
/// `k` for byte `k`); `after` (0 or 1) says whether the byte before them
/// is a separator.
///
/// # Safety
/// `p..p + 64` must be readable; the CPU must support `V`'s instruction
/// set.
#[inline(always)]
unsafe fn class_masks<V: Vector>(p: *const u8, after: u64) -> [u64; 8] {
    // SAFETY: the caller guarantees the 64 bytes readable and the
    // instruction set.
    let (low, high) = unsafe { (half_masks::<V>(p), half_masks::<V>(p.add(32))) };
    let mut masks: [u64; 8] =
        core::array::from_fn(|c| u64::from(low[c]) | u64::from(high[c]) << 32);
    // The uppercase letters that begin a word.
    masks[7] &= (masks[0] << 1) | after;
    // Opaque: else the compiler sees each count of a mask as a sum over
    // the vector's lanes, and spells it out bit by bit.
    core::hint::black_box(masks)
}

/// [`vector_masks`] of the 32 bytes at `p`.
///
/// # Safety
/// `p..p + 32` must be readable; the CPU must support `V`'s instruction
/// set.
#[inline(always)]
unsafe fn half_masks<V: Vector>(p: *const u8) -> [u32; 8] {
    // SAFETY: the caller guarantees the bytes readable and the
    // instruction set; `V::BYTES` is 16 or 32.
    unsafe {
        let low = vector_masks(V::load(p));
        if V::BYTES == 32 {
            return low;
        }
        let high = vector_masks(V::load(p.add(16)));
        core::array::from_fn(|c| low[c] | high[c] << 16)
    }
}

/// The masks of `count_classes_at`'s classes in `block` (bit `k` for byte
/// `k`), the last the ASCII uppercase letters (whether after a separator
/// or not).
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
unsafe fn vector_masks<V: Vector>(block: V) -> [u32; 8] {
    // SAFETY: the caller guarantees the instruction set.
    unsafe {
        let is = |b: u8| block.eq(V::splat(b));
        // `b - from` (wrapping) is below `len` where `from <= b < from + len`.
        let within = |from: u8, len: u8| {
            let d = block.sub(V::splat(from));
            d.min(V::splat(len - 1)).eq(d)
        };
        let lf = is(b'\n');
        [
            is(b' ').or(lf).mask(),
            lf.mask(),
            within(b'0', 10).mask(),
            is(b'.').or(is(b'!')).or(is(b'?')).mask(),
            is(b',').or(is(b';')).mask(),
            is(b'|').or(is(b'/')).or(is(b'>')).mask(),
            block.and(V::splat(0xC0)).eq(V::splat(0x80)).mask(),
            within(b'A', 26).mask(),
        ]
    }
}
