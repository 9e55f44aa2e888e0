//! The vector algorithms of extraction's per-token scans (see `text.rs`):
//! skipping collapsed text, and the bit masks of a short text or URL; and
//! main content's class counts over a page's text.

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

/// What `count_classes_at` needs of a vector past [`Vector`]: a lookup
/// in a 16-byte table by each byte's low half (`pshufb`: SSSE3's
/// `x86_64/ssse3.rs`, AVX2's `x86_64/avx2.rs`).
pub(in crate::scan) trait Lookup: Vector {
    /// `table` in every 16-byte lane.
    ///
    /// # Safety
    /// The CPU must support the implementation's instruction sets
    /// (SSSE3 and POPCNT for `__m128i`, AVX2 and POPCNT for `__m256i`).
    unsafe fn table(table: &[u8; 16]) -> Self;
    /// The byte of the table `self` at each byte of `index`, which must
    /// be below 16. (Safety: as `table`.)
    unsafe fn lookup(self, index: Self) -> Self;
    /// Each byte's high half, as a byte below 16. (Safety: as `table`.)
    unsafe fn high_halves(self) -> Self;
    /// Each byte shifted left by one bit. (Safety: as `table`.)
    unsafe fn double(self) -> Self;
}

/// The classes of `count_classes_at` as bits of a byte, bit `c` for class
/// `c`, each the union of two sets of bytes whose high halves are in one
/// set and low halves in another (`(bit, pair, high halves, low
/// halves)`, a set of halves as a bit per half): so a byte's class bits
/// are `LOW[0][low] & HIGH[0][high] | LOW[1][low] & HIGH[1][high]`, four
/// table lookups. Bit 5 is the navigation separators and `.`, `?` (taken
/// out by bit 3, sentence ends); bit 7 every ASCII uppercase letter (those
/// after a separator are picked after).
const CLASS_SETS: [(u8, usize, u16, u16); 13] = [
    (0, 0, 1 << 2, 1 << 0x0),            // space
    (0, 1, 1 << 0, 1 << 0xA),            // LF
    (1, 0, 1 << 0, 1 << 0xA),            // LF
    (2, 0, 1 << 3, 0x03FF),              // 0-9
    (3, 0, 1 << 2, 1 << 0x1 | 1 << 0xE), // ! .
    (3, 1, 1 << 3, 1 << 0xF),            // ?
    (4, 0, 1 << 2, 1 << 0xC),            // ,
    (4, 1, 1 << 3, 1 << 0xB),            // ;
    (5, 0, 1 << 2 | 1 << 3, 0xC000),     // . / > ?
    (5, 1, 1 << 7, 1 << 0xC),            // |
    (6, 0, 0x0F00, 0xFFFF),              // 0x80-0xBF
    (7, 0, 1 << 4, 0xFFFE),              // A-O
    (7, 1, 1 << 5, 0x07FF),              // P-Z
];

/// The four tables of [`CLASS_SETS`]: by low half, by high half, of
/// each pair.
const CLASS_TABLES: [[u8; 16]; 4] = {
    let mut tables = [[0u8; 16]; 4];
    let mut k = 0;
    while k < CLASS_SETS.len() {
        let (bit, pair, highs, lows) = CLASS_SETS[k];
        let mut half = 0;
        while half < 16 {
            if lows & (1 << half) != 0 {
                tables[2 * pair][half] |= 1 << bit;
            }
            if highs & (1 << half) != 0 {
                tables[2 * pair + 1][half] |= 1 << bit;
            }
            half += 1;
        }
        k += 1;
    }
    tables
};

/// See `text::count_classes_at`: each block of 64 bytes classified into a
/// bit mask per class (its vectors' masks side by side), the masks counted
/// by `count_ones` (POPCNT where the caller enables it): one count a class
/// for 64 bytes, whatever the vectors' width; a mark inside a block takes
/// the bits below it. The tail is copied into a block of zeros (a zero is
/// of no class).
///
/// # Safety
/// The CPU must support `V`'s instruction sets.
#[inline(always)]
pub(in crate::scan) unsafe fn count_classes_at<V: Lookup>(
    text: &[u8],
    marks: &[usize],
    at: &mut Vec<[u32; 8]>,
) {
    const W: usize = 64;
    let n = text.len();
    // SAFETY: the caller guarantees the instruction sets.
    let tables = CLASS_TABLES.map(|t| unsafe { V::table(&t) });
    let mut totals = [0u32; 8];
    at.reserve(marks.len());
    // The next mark's index.
    let mut k = 0;
    // Whether the byte before the block is a separator: the text's first
    // byte counts as after one.
    let mut after = 1u64;
    let mut i = 0;
    while i < n {
        let masks = if i + W <= n {
            // SAFETY: `i + W <= n`: the block is in `text`; the caller
            // guarantees the instruction sets.
            unsafe { class_masks::<V>(text.as_ptr().add(i), after, &tables) }
        } else {
            let mut padded = [0u8; W];
            padded[..n - i].copy_from_slice(&text[i..]);
            // SAFETY: `padded` holds `W` bytes; the caller guarantees the
            // instruction sets.
            unsafe { class_masks::<V>(padded.as_ptr(), after, &tables) }
        };
        after = masks[0] >> (W - 1);
        while k < marks.len() && marks[k] < i + W {
            let below = (1u64 << (marks[k] - i)) - 1;
            at.push(core::array::from_fn(|c| {
                totals[c] + (masks[c] & below).count_ones()
            }));
            k += 1;
        }
        for (total, mask) in totals.iter_mut().zip(masks) {
            *total += mask.count_ones();
        }
        i += W;
    }
    at.extend(marks[k..].iter().map(|_| totals));
}

/// The masks of `count_classes_at`'s classes in the 64 bytes at `p` (bit
/// `k` for byte `k`); `after` (0 or 1) says whether the byte before them
/// is a separator.
///
/// # Safety
/// `p..p + 64` must be readable; the CPU must support `V`'s instruction
/// sets.
#[inline(always)]
unsafe fn class_masks<V: Lookup>(p: *const u8, after: u64, tables: &[V; 4]) -> [u64; 8] {
    // SAFETY: the caller guarantees the 64 bytes readable and the
    // instruction sets.
    let (low, high) = unsafe { (half_masks(p, tables), half_masks(p.add(32), tables)) };
    let mut masks: [u64; 8] =
        core::array::from_fn(|c| u64::from(low[c]) | u64::from(high[c]) << 32);
    // Navigation separators, without the sentence ends `.` and `?`.
    masks[5] &= !masks[3];
    // The uppercase letters that begin a word.
    masks[7] &= (masks[0] << 1) | after;
    masks
}

/// [`vector_masks`] of the 32 bytes at `p`.
///
/// # Safety
/// `p..p + 32` must be readable; the CPU must support `V`'s instruction
/// sets.
#[inline(always)]
unsafe fn half_masks<V: Lookup>(p: *const u8, tables: &[V; 4]) -> [u32; 8] {
    // SAFETY: the caller guarantees the bytes readable and the
    // instruction sets; `V::BYTES` is 16 or 32.
    unsafe {
        let low = vector_masks(V::load(p), tables);
        if V::BYTES == 32 {
            return low;
        }
        let high = vector_masks(V::load(p.add(16)), tables);
        core::array::from_fn(|c| low[c] | high[c] << 16)
    }
}

/// The masks of the class bits of `block` (see [`CLASS_SETS`]), bit `k`
/// for byte `k`.
///
/// # Safety
/// The CPU must support `V`'s instruction sets.
#[inline(always)]
unsafe fn vector_masks<V: Lookup>(block: V, tables: &[V; 4]) -> [u32; 8] {
    // SAFETY: the caller guarantees the instruction sets; both halves
    // are below 16.
    unsafe {
        let low = block.and(V::splat(0x0F));
        let high = block.high_halves();
        let [low0, high0, low1, high1] = *tables;
        let mut bits = low0
            .lookup(low)
            .and(high0.lookup(high))
            .or(low1.lookup(low).and(high1.lookup(high)));
        // Each class's bit moved to the top in turn, bit 7 first.
        let mut masks = [0u32; 8];
        for c in (0..8).rev() {
            masks[c] = bits.mask();
            if c > 0 {
                bits = bits.double();
            }
        }
        masks
    }
}
