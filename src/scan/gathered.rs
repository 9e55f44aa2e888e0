//! Text gathered for whitespace collapsing, and its squeezing: the text of
//! many tokens one after the other, collapsed in one call per 16 KiB.
//! `unsafe` for writing the squeezed text straight into the output's spare
//! capacity, byte by byte and (through `arch`) a vector block at a time.

use super::arch;
use super::class::is_ascii_whitespace;
use super::squeeze::{
    LINE_BREAK, MarkSink, Marks, SqueezeBlocks, SqueezeMarkedBlocks, squeeze_byte,
};

/// Text gathered for whitespace collapsing (`extract::collapse`): the text
/// of many tokens as it is, one after the other, with the line breaks due
/// between them marked in it by [`LINE_BREAK`].
///
/// Why in the text: the extractor gathers the text of a page 16 KiB at a
/// time and collapses it in one call ([`Gathered::squeeze`]), and a line
/// break is the one separator that whitespace cannot stand for. Kept
/// beside the text, the breaks cut it into short lines, and the cost of a
/// call per line was most of the collapsing. Marked in it, they are one
/// more kind of whitespace to the vector loop.
///
/// Only `&str` and the marker go in, so the bytes are UTF-8 between the
/// markers, which is what [`Gathered::squeeze`] relies on.
#[derive(Clone, Debug, Default)]
pub(crate) struct Gathered {
    /// The bytes gathered, then zeros: written by index, so that a short
    /// text is copied in place (see [`Gathered::push_str`]).
    buf: Vec<u8>,
    /// How many bytes are gathered.
    len: usize,
}

impl Gathered {
    /// Empty, with room for `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> Gathered {
        Gathered {
            buf: vec![0; capacity],
            len: 0,
        }
    }

    /// Appends `text` as it is.
    ///
    /// Most text tokens are a word or two: up to [`Gathered::SHORT`] bytes
    /// are copied as two overlapping pieces of fixed length (see
    /// [`copy_short`]), not by a call to `memcpy`, whose call (and the
    /// registers saved around it) costs more than the copy.
    #[inline(always)]
    pub(crate) fn push_str(&mut self, text: &str) {
        let text = text.as_bytes();
        let n = text.len();
        let at = self.len;
        if self.buf.len() - at < n {
            self.grow(n);
        }
        let to = &mut self.buf[at..at + n];
        if n > Self::SHORT {
            to.copy_from_slice(text);
        } else {
            copy_short(to, text);
        }
        self.len = at + n;
    }

    /// The longest text [`Gathered::push_short`] takes.
    pub(crate) const SHORT: usize = 32;

    /// Whether [`Gathered::push_short`] takes `n` bytes and a separator
    /// here, leaving fewer than `limit` bytes gathered: `n` is at most
    /// [`Gathered::SHORT`] and the buffer has room without growing.
    #[inline(always)]
    pub(crate) fn fits_short(&self, n: usize, limit: usize) -> bool {
        n <= Self::SHORT && self.len + n < self.buf.len() && self.len + n + 1 < limit
    }

    /// Appends `sep` (a space or a [`LINE_BREAK`]), if any, then `text`,
    /// with no call made: the caller checked [`Gathered::fits_short`].
    /// What most text tokens take, in a function that saves no registers.
    #[inline(always)]
    pub(crate) fn push_short(&mut self, sep: Option<u8>, text: &str) {
        let text = text.as_bytes();
        let mut at = self.len;
        if let Some(sep) = sep {
            self.buf[at] = sep;
            at += 1;
        }
        let n = text.len();
        copy_short(&mut self.buf[at..at + n], text);
        self.len = at + n;
    }

    /// Appends one byte.
    #[inline(always)]
    fn push_byte(&mut self, b: u8) {
        if self.len == self.buf.len() {
            self.grow(1);
        }
        self.buf[self.len] = b;
        self.len += 1;
    }

    /// Makes room for `more` bytes past the gathered ones.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, more: usize) {
        let needed = self.len + more;
        self.buf.resize(needed.max(self.buf.len() * 2).max(64), 0);
    }

    /// Appends `text` with each of its newlines made a line break (text
    /// inside `<pre>`). Out of line: its loop, inlined into the extractor's
    /// text path, would cost every text token's call registers saved.
    #[inline(never)]
    pub(crate) fn push_pre(&mut self, text: &str) {
        let text = text.as_bytes();
        let n = text.len();
        let at = self.len;
        if self.buf.len() - at < n {
            self.grow(n);
        }
        // Copied with a select per byte, which the compiler makes vector
        // blocks of: most such text is a few words between the tags of
        // highlighted code, shorter than what a search for newlines costs
        // to set up.
        for (to, &b) in self.buf[at..at + n].iter_mut().zip(text) {
            *to = if b == b'\n' { LINE_BREAK } else { b };
        }
        self.len = at + n;
    }

    /// Appends a separator: a space or a [`LINE_BREAK`].
    #[inline(always)]
    pub(crate) fn push_separator(&mut self, sep: u8) {
        debug_assert!(sep == b' ' || sep == LINE_BREAK);
        self.push_byte(sep);
    }

    /// The bytes: UTF-8 text and [`LINE_BREAK`]s.
    #[inline]
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// How many bytes are gathered.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether the bytes from `from` on are blank ([`is_blank`]), after a
    /// line break, if one is first: squeezing makes them one separator
    /// at most (main content forgets the text between two blocks that is
    /// so: it makes no block).
    #[inline]
    pub(crate) fn is_blank_from(&self, from: usize) -> bool {
        let bytes = &self.as_bytes()[from..];
        let first = usize::from(bytes.first() == Some(&LINE_BREAK));
        is_blank(&bytes[first..])
    }

    /// How many bytes the buffer takes.
    pub(crate) fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Forgets the text, keeping the buffer.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// The text of `range` (from a character boundary to one) between its
    /// line breaks, in order.
    pub(crate) fn lines(&self, range: core::ops::Range<usize>) -> impl Iterator<Item = &str> {
        self.as_bytes()[range]
            .split(|&b| b == LINE_BREAK)
            .map(|line| {
                // Text pushed as `&str` and cut at markers and at a boundary.
                core::str::from_utf8(line).expect("gathered text is UTF-8 between its line breaks")
            })
    }

    /// Appends the text from byte `from` to `out`, squeezed: every run of
    /// whitespace (ASCII whitespace, no-break spaces U+00A0 and line
    /// breaks; NULs in it aside) becomes one line break (`\n`) if it holds
    /// a line break, else one space, and every NUL is dropped.
    ///
    /// `from` must be the first byte of a character (checked, and so is
    /// `from <= self.len()`), and not of a run: the caller skips the run
    /// at the start, which it turns into the separator due.
    ///
    /// Why vectors: collapsing segment by segment (words with single spaces
    /// between them, one copy each) pays a branch and a copy per segment,
    /// and lines of real text are a few words between indentation. Here
    /// each 32-byte block (AVX2) or 16-byte block (SSSE3) is classified at
    /// once and the bytes it keeps are packed together with a byte shuffle
    /// (`pshufb`, eight bytes at a time through a 256-entry table of
    /// shuffles), so the cost is per block, whatever the text; 32-byte
    /// blocks halve the classifying and the loop's turns (BENCHMARKS.md).
    /// A NUL or a byte 0xC2 (which may begin a no-break space) goes through
    /// the byte loop, the block's bytes before it as a shorter block (in the
    /// last block's worth of text, the rest of the text goes through the
    /// byte loop); all of the text does where the CPU lacks SSSE3 or POPCNT
    /// (every x86-64 CPU since about 2008 has them). The widest the CPU has
    /// is chosen at the first call (`arch::squeeze_blocks`).
    pub(crate) fn squeeze(&self, from: usize, out: &mut String) {
        let text = &self.as_bytes()[from..];
        debug_assert!(text.first().is_none_or(|&b| !is_run_byte(b)));
        squeeze_with(text, out, arch::squeeze_blocks);
    }

    /// [`Gathered::squeeze`], and where each of `marks` went: for each
    /// mark (an offset into the gathered bytes past `from`, each at a
    /// character boundary, in order) the length of `out` once the bytes
    /// before it are squeezed is pushed to `at`. A run that a mark cuts
    /// is one run: its separator is written where it begins, so a mark
    /// inside it is after that separator.
    ///
    /// Main content marks where each block of the text ends, and finds
    /// its blocks in the text squeezed in one call per 16 KiB, where it
    /// collapsed the text at each block's end.
    pub(crate) fn squeeze_marked(
        &self,
        from: usize,
        out: &mut String,
        marks: &[usize],
        at: &mut Vec<usize>,
    ) {
        let text = &self.as_bytes()[from..];
        debug_assert!(text.first().is_none_or(|&b| !is_run_byte(b)));
        debug_assert!(marks.is_sorted() && marks.iter().all(|&m| m >= from && m <= self.len()));
        let written = out.len();
        squeeze_marked_with(
            text,
            out,
            &mut Marks::new(marks, from, at, written),
            arch::squeeze_marked_blocks,
        );
    }
}

/// Copies `from` (at most [`Gathered::SHORT`] bytes) to `to`, of the same
/// length, as two overlapping pieces of the largest fixed length that
/// fits: a few moves, no call.
#[inline(always)]
pub(super) fn copy_short(to: &mut [u8], from: &[u8]) {
    let n = from.len();
    debug_assert!(n <= Gathered::SHORT && to.len() == n);
    if n >= 16 {
        to[..16].copy_from_slice(&from[..16]);
        to[n - 16..].copy_from_slice(&from[n - 16..]);
    } else if n >= 8 {
        to[..8].copy_from_slice(&from[..8]);
        to[n - 8..].copy_from_slice(&from[n - 8..]);
    } else if n >= 4 {
        to[..4].copy_from_slice(&from[..4]);
        to[n - 4..].copy_from_slice(&from[n - 4..]);
    } else if n > 0 {
        to[0] = from[0];
        to[n / 2] = from[n / 2];
        to[n - 1] = from[n - 1];
    }
}

/// Whether each byte of `bytes` is a space, a line feed, a tab or a NUL:
/// most of the bytes of [`is_run_byte`] (text has no carriage return,
/// and form feeds are rare), read 8 bytes at a time (the last 8
/// overlapping, a short text's zero-extended, a NUL being blank), where
/// a byte at a time cost about 5 instructions a byte of the indentation
/// between a page's tags.
fn is_blank(bytes: &[u8]) -> bool {
    let n = bytes.len();
    let u32_at = |at: usize| {
        let mut word = [0; 4];
        word.copy_from_slice(&bytes[at..at + 4]);
        u64::from(u32::from_le_bytes(word))
    };
    let u64_at = |at: usize| {
        let mut word = [0; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(word)
    };
    match n {
        0 => true,
        1..=3 => blank_word(
            u64::from(bytes[0]) | u64::from(bytes[n / 2]) << 8 | u64::from(bytes[n - 1]) << 16,
        ),
        4..=7 => blank_word(u32_at(0) | u32_at(n - 4) << 32),
        _ => {
            let mut at = 0;
            while at + 8 < n {
                if !blank_word(u64_at(at)) {
                    return false;
                }
                at += 8;
            }
            blank_word(u64_at(n - 8))
        }
    }
}

/// Whether each of the 8 bytes of `x` is blank ([`is_blank`]): a space
/// (0x20), a line feed (0x0A), a tab (0x09) or a NUL.
#[inline(always)]
fn blank_word(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // Not blank: a byte past ASCII or past a space (adding 0x5F carries
    // out of a byte only past ASCII, which its high bit tells); one with
    // bit 2 or 4 set (4 to 7, 12 to 31); and of the rest (0 to 3, 8 to 11,
    // 0x20), those whose bits 0, 1 and 3 are not 000, 101 or 110.
    let past = (x | x.wrapping_add(0x5F * ONES)) & (0x80 * ONES);
    let (b1, b3) = (x >> 1, x >> 3);
    let low = ((x ^ b1 ^ b3) | (x & b1)) & ONES;
    past | (x & (0x14 * ONES)) | low == 0
}

/// Whether `b` is ASCII whitespace, a NUL or a [`LINE_BREAK`].
fn is_run_byte(b: u8) -> bool {
    is_ascii_whitespace(b) || b == 0 || b == LINE_BREAK
}

/// [`Gathered::squeeze`] by a byte loop, over text of any start: the
/// definition, for the tests.
#[cfg(test)]
pub(crate) fn squeeze_by_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut after_space = false;
    let mut i = 0;
    while i < bytes.len() {
        let nbsp = bytes[i] == 0xC2 && bytes.get(i + 1) == Some(&0xA0);
        match bytes[i] {
            0 => {}
            b if is_ascii_whitespace(b) || b == LINE_BREAK => {
                let c = if bytes[i] == LINE_BREAK { b'\n' } else { b' ' };
                if !after_space {
                    out.push(c);
                } else if c == b'\n' {
                    *out.last_mut().expect("a run begins with a byte written") = c;
                }
                after_space = true;
            }
            _ if nbsp => {
                if !after_space {
                    out.push(b' ');
                }
                after_space = true;
                i += 1;
            }
            b => {
                out.push(b);
                after_space = false;
            }
        }
        i += 1;
    }
    out
}

/// [`Gathered::squeeze`] of `text` (UTF-8 with [`LINE_BREAK`]s in it,
/// beginning with a byte that is neither a run's nor a character's
/// continuation), its whole blocks by `blocks` and the rest by the byte
/// loop.
#[inline(always)]
fn squeeze_with(text: &[u8], out: &mut String, blocks: SqueezeBlocks) {
    squeeze_into(
        text,
        out,
        &mut (),
        // SAFETY: `blocks` is one `arch` gave out, for instruction sets
        // the CPU has; the rest is `squeeze_into`'s to give.
        |dst, j, after_space, _| unsafe { blocks(text, dst, j, after_space) },
    );
}

/// [`squeeze_with`], telling `marks` (offsets into `text`) where each
/// went, as bytes written from where `out` ended.
#[inline(always)]
fn squeeze_marked_with(
    text: &[u8],
    out: &mut String,
    marks: &mut Marks<'_>,
    blocks: SqueezeMarkedBlocks,
) {
    squeeze_into(
        text,
        out,
        marks,
        // SAFETY: as in `squeeze_with`.
        |dst, j, after_space, marks| unsafe { blocks(text, dst, j, after_space, marks) },
    );
}

/// Squeezes `text` into `out`: its whole blocks by `blocks`, called with
/// where to write (room for `text.len() + 16` bytes), the bytes written
/// so far and whether the last was in a run (both as before any byte),
/// and `marks`; the rest by the byte loop, which tells `marks` of each
/// byte it reaches.
#[inline(always)]
fn squeeze_into<M: MarkSink>(
    text: &[u8],
    out: &mut String,
    marks: &mut M,
    blocks: impl FnOnce(*mut u8, &mut usize, &mut bool, &mut M) -> usize,
) {
    assert!(
        text.first().is_none_or(|&b| b & 0xC0 != 0x80),
        "squeezing from the middle of a character"
    );
    let n = text.len();
    // A block's kept bytes are stored 16 at a time, wherever they
    // begin; so room for 16 more than the text.
    out.reserve(n + 16);
    // SAFETY: what is written below is `text` with whole characters
    // (ASCII ones and no-break spaces) and line-break markers dropped
    // or made ASCII, from a character boundary on; between the
    // markers `text` is UTF-8; so the buffer stays UTF-8. `set_len`
    // covers only bytes written.
    let buf = unsafe { out.as_mut_vec() };
    let len = buf.len();
    let dst = buf.spare_capacity_mut().as_mut_ptr().cast::<u8>();
    // Bytes written, and whether the last byte taken (NULs aside) was
    // in a run, whose first byte was then the last written.
    let mut j = 0;
    let mut after_space = false;
    let mut i = blocks(dst, &mut j, &mut after_space, marks);
    while i < n {
        marks.reach(i, i, j, 0);
        // SAFETY: `j <= i < n` (at most a byte is written per byte
        // read): inside the room reserved.
        i += unsafe { squeeze_byte(text, i, dst, &mut j, &mut after_space) };
    }
    marks.reach(n, n, j, 0);
    // SAFETY: the first `j` bytes after `len` were written above.
    unsafe { buf.set_len(len + j) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_are_gathered_as_push_str_gathers_them() {
        let source: String = ('a'..='z').chain('A'..='Z').collect();
        for n in 0..=Gathered::SHORT + 2 {
            let text = &source[..n];
            for sep in [None, Some(b' '), Some(LINE_BREAK)] {
                for before in [0, 5, 17] {
                    let mut short = Gathered::with_capacity(64);
                    short.push_str(&source[source.len() - before..]);
                    let mut want = short.clone();
                    if let Some(sep) = sep {
                        want.push_byte(sep);
                    }
                    want.push_str(text);
                    let fits = short.fits_short(n, 64);
                    // Fits exactly when short enough, with room for the
                    // separator and the text, and below the limit after.
                    assert_eq!(
                        fits,
                        n <= Gathered::SHORT && before + n + 1 < 64,
                        "{n} {before}"
                    );
                    if fits {
                        short.push_short(sep, text);
                        assert_eq!(short.as_bytes(), want.as_bytes(), "{n} {sep:?} {before}");
                    }
                    assert!(
                        !short.fits_short(n, before + n + 1),
                        "the limit is exclusive"
                    );
                }
            }
        }
    }

    /// Blank bytes, 8 at a time, are those of the byte loop's runs (but
    /// for form feeds, carriage returns and line breaks): each byte at
    /// each place of texts of each length.
    #[test]
    fn blank_by_words() {
        let by_bytes = |t: &[u8]| t.iter().all(|&b| matches!(b, b' ' | b'\n' | b'\t' | 0));
        assert!((0..=255).all(|b| !by_bytes(&[b]) || is_run_byte(b)));
        for n in 0..=19 {
            for b in 0..=255u8 {
                for at in 0..n {
                    for fill in [b' ', b'\n', 0, b'\t'] {
                        let mut text = vec![fill; n];
                        text[at] = b;
                        assert_eq!(is_blank(&text), by_bytes(&text), "{n} {b} {at} {fill}");
                    }
                }
            }
        }
        assert!(is_blank(b"\n        \n\t\n\0  "));
        assert!(!is_blank(b"\n        \n\t  x"));
        assert!(!is_blank("\u{a0}".as_bytes()));
        let mut g = Gathered::default();
        g.push_str("x");
        g.push_separator(LINE_BREAK);
        g.push_str("\n   \t  ");
        assert!(g.is_blank_from(1) && g.is_blank_from(2) && !g.is_blank_from(0));
        g.push_separator(LINE_BREAK);
        assert!(!g.is_blank_from(1));
    }

    /// Gathered text from `pieces`: `None` is a line break, `Some((text,
    /// pre))` text, inside `<pre>` when `pre`.
    fn gathered(pieces: &[Option<(&str, bool)>]) -> Gathered {
        let mut g = Gathered::default();
        for piece in pieces {
            match piece {
                None => g.push_separator(LINE_BREAK),
                Some((text, false)) => g.push_str(text),
                Some((text, true)) => g.push_pre(text),
            }
        }
        g
    }

    /// Squeezes `g` from its first byte outside a run, every way (vector
    /// blocks of 32 and of 16 bytes where the CPU has them, and the byte
    /// loop alone), and checks each against the definition.
    fn check_squeeze(g: &Gathered) {
        let bytes = g.as_bytes();
        let from = bytes
            .iter()
            .position(|&b| !is_run_byte(b))
            .unwrap_or(bytes.len());
        let want = squeeze_by_bytes(&bytes[from..]);
        for (width, blocks) in arch::squeezers() {
            // After text already written, as the extractor calls it.
            let mut out = String::from("before");
            squeeze_with(&bytes[from..], &mut out, blocks);
            assert_eq!(
                &out.as_bytes()[6..],
                &want[..],
                "vectors of {width} bytes, from {from} of {bytes:?}"
            );
        }
    }

    /// [`check_squeeze`] with marks at `marks` (offsets into `g` at
    /// character boundaries, in order): the same text, and each mark's
    /// place is the length of what the bytes before it squeeze to.
    fn check_squeeze_marked(g: &Gathered, marks: &[usize]) {
        let bytes = g.as_bytes();
        let from = bytes
            .iter()
            .position(|&b| !is_run_byte(b))
            .unwrap_or(bytes.len());
        let marks: Vec<usize> = marks.iter().copied().filter(|&m| m >= from).collect();
        let want = squeeze_by_bytes(&bytes[from..]);
        let want_at: Vec<usize> = marks
            .iter()
            .map(|&m| 6 + squeeze_by_bytes(&bytes[from..m]).len())
            .collect();
        for (width, blocks) in arch::marked_squeezers() {
            let mut out = String::from("before");
            let mut at = Vec::new();
            squeeze_marked_with(
                &bytes[from..],
                &mut out,
                &mut Marks::new(&marks, from, &mut at, 6),
                blocks,
            );
            assert_eq!(&out.as_bytes()[6..], &want[..], "vectors of {width} bytes");
            assert_eq!(
                at, want_at,
                "vectors of {width} bytes, marks {marks:?} in {bytes:?}"
            );
        }
    }

    /// `pieces` gathered (see [`gathered`]) and squeezed from the start.
    fn squeezed(pieces: &[Option<(&str, bool)>]) -> String {
        let mut out = String::new();
        gathered(pieces).squeeze(0, &mut out);
        out
    }

    #[test]
    fn squeezing_follows_the_definition() {
        let pieces = [
            Some(("a  b\t\n c", false)),
            None,
            Some((" d\u{a0}\u{a0}e\0f ", false)),
        ];
        assert_eq!(squeezed(&pieces), "a b c\nd ef ");
        let pieces = [
            Some(("x\n\n y", true)),
            Some((" z \0 ", false)),
            None,
            Some((" ", false)),
        ];
        assert_eq!(squeezed(&pieces), "x\ny z\n");
        // The definition itself: a line break anywhere in a run wins.
        assert_eq!(squeeze_by_bytes(b"a \xFF\t b\xFF\xFF c \0"), b"a\nb\nc ");
        assert_eq!(
            squeeze_by_bytes("a\u{a9}\u{a0}\0\u{a0}b".as_bytes()),
            "a\u{a9} b".as_bytes()
        );
        for g in [
            gathered(&[]),
            gathered(&[None, Some(("  ", false)), None]),
            gathered(&[Some(("word", false))]),
        ] {
            check_squeeze(&g);
        }
    }

    /// Every special byte at every position of text two and a half blocks
    /// of 32 bytes long (five of 16), around block boundaries and in the
    /// tail, in words and in runs.
    #[test]
    fn squeezing_at_every_position() {
        let specials: [&[u8]; 9] = [
            b" ",
            b"  ",
            b"\t",
            b"\n\r",
            b"\0",
            b"\xFF",
            b"\xC2\xA0",
            b"\xC2\xA9",
            b" \xFF ",
        ];
        let backgrounds: [&[u8]; 3] = [b"abcdefghij", b"ab cd ef g", b"a   \n  b "];
        let step = if cfg!(miri) { 7 } else { 1 };
        for background in backgrounds {
            for len in (1..84).step_by(step) {
                for at in (0..len).step_by(step) {
                    for special in specials {
                        let mut text: Vec<u8> =
                            background.iter().copied().cycle().take(len).collect();
                        text.splice(at..at, special.iter().copied());
                        let text = String::from_utf8(
                            text.iter()
                                .map(|&b| if b == LINE_BREAK { b'|' } else { b })
                                .collect(),
                        )
                        .expect("ASCII and whole characters");
                        // Line breaks where the `|`s are.
                        let pieces: Vec<Option<(&str, bool)>> = text
                            .split('|')
                            .enumerate()
                            .flat_map(|(i, piece)| {
                                [(i > 0).then_some(None), Some(Some((piece, false)))]
                            })
                            .flatten()
                            .collect();
                        let g = gathered(&pieces);
                        check_squeeze(&g);
                        // Marks around the special bytes and the blocks'
                        // edges, at character boundaries.
                        let bytes = g.as_bytes();
                        let mut marks: Vec<usize> = [at, at + special.len()]
                            .into_iter()
                            .chain([15, 16, 17, 31, 32, 33, 63, 64, 65])
                            .chain([bytes.len()])
                            .filter(|&m| {
                                m <= bytes.len() && bytes.get(m).is_none_or(|&b| b & 0xC0 != 0x80)
                            })
                            .collect();
                        marks.sort_unstable();
                        marks.dedup();
                        check_squeeze_marked(&g, &marks);
                    }
                }
            }
        }
    }

    /// Random gathered text from a small alphabet of words, runs, line
    /// breaks, NULs and characters beginning with 0xC2.
    #[test]
    fn squeezing_random_text() {
        const PIECES: [&str; 12] = [
            "a", "bc", " ", "  ", "\t", "\n", "\r\n", "\x0C", "\0", "\u{a0}", "\u{a9}", "\u{e9}",
        ];
        let mut next = crate::testing::below(0x9E37_79B9_7F4A_7C15);
        let cases = if cfg!(miri) { 40 } else { 4000 };
        for _ in 0..cases {
            let len = next(120);
            let mut pieces = Vec::new();
            for _ in 0..len {
                match next(PIECES.len() + 2) {
                    k if k < PIECES.len() => pieces.push(Some((PIECES[k], false))),
                    k if k == PIECES.len() => pieces.push(None),
                    _ => pieces.push(Some(("x\n y\n", true))),
                }
            }
            check_squeeze(&gathered(&pieces));
            // Marks between pieces, as main content marks its blocks' ends.
            let mut g = Gathered::default();
            let mut marks = Vec::new();
            for piece in &pieces {
                if next(3) == 0 {
                    marks.push(g.len());
                }
                match piece {
                    None => g.push_separator(LINE_BREAK),
                    Some((text, false)) => g.push_str(text),
                    Some((text, true)) => g.push_pre(text),
                }
            }
            if next(2) == 0 {
                marks.push(g.len());
            }
            check_squeeze_marked(&g, &marks);
        }
    }
}
