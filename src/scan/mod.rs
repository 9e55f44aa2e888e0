//! Finding the next byte that matters.
//!
//! Every long-run state of the tokenizer (data, RCDATA, RAWTEXT, script data,
//! comments, attribute values, CDATA) spends its time skipping bytes that need
//! no work and stopping at the few that do. This module holds that search so
//! that the state machine stays a transcription of the spec and speed work
//! (SIMD, runtime feature detection) has one place to happen.
//!
//! Three tools: `memchr` for the data state, where runs are long and the
//! delimiters are few (after their first 128 bytes, searched in SSE2 blocks
//! on x86-64: most runs end sooner, and memchr's start-up costs more than a
//! block); a 256-entry byte-class table for everything else, where runs
//! are short and a call into memchr costs more than it saves; and vector
//! classification (the `simd` module, one of the crate's two places of
//! `unsafe`) for the pass over the whole input that looks for input-stream
//! errors, where the set of interesting bytes is too large for memchr.
//! Text extraction's whitespace collapsing has its vector loops here too
//! ([`Gathered`]), for the same reason: one place for `unsafe`.
//!
//! The tag path also takes its names and values from here as string slices
//! ([`Run`]): a scan that stops at an ASCII byte has found a character
//! boundary, so the slice needs no further check (the `cut` module, the
//! crate's other `unsafe`). Checking both ends of every name and value again
//! in `&input[start..end]` cost about 2% of the instructions on the corpus.
//!
//! The text and URL scans (collapsing, [`TextMasks`], [`UrlMasks`]) serve
//! the `extract` feature only; without it they are compiled and unused,
//! which is not worth a warning to a crate built with default features off.
#![cfg_attr(not(feature = "extract"), allow(dead_code))]

pub(crate) mod class;

#[cfg(feature = "extract")]
pub(crate) use class::is_ascii_whitespace_char;
pub(crate) use class::{
    ByteSet, CLASS, STREAM_ERROR_START, is_ascii_whitespace, skip_whitespace, utf8_width,
};

pub(crate) use cut::{
    Run, class_run, class_run_seen, class_run_seen_past_first, class_run_upper, run2,
};

/// Runs of input found by a scan, as string slices, without checking again
/// where they end.
///
/// The scans of this module stop on an ASCII byte or at the end of the
/// input, and in UTF-8 both are character boundaries; so of
/// `input[from..end]` only `from` needs checking. This is the crate's
/// `unsafe` apart from [`simd`].
#[allow(unsafe_code)]
mod cut {
    use super::{CLASS, class, find_class, find_class_seen, find2};

    /// A run of input a scan skipped, and where it stopped.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Run<'a> {
        /// The input from where the scan started to where it stopped.
        pub(crate) text: &'a str,
        /// Where it stopped: the offset of a byte of the set it looked
        /// for, or the input's length.
        pub(crate) end: usize,
    }

    /// The run from `from` to the first byte at or after it whose class has
    /// any of the bits in `mask`, and whether the run holds an ASCII
    /// uppercase letter. Panics if `from` is past the end of `input` or not
    /// on a character boundary.
    #[inline(always)]
    pub(crate) fn class_run_upper(mask: u8, input: &str, from: usize) -> (Run<'_>, bool) {
        let (run, seen) = class_run_seen(mask, input, from);
        (run, seen & class::UPPER != 0)
    }

    /// [`class_run_seen`] for a run whose first byte (at `from`, which must
    /// be in the input) the caller has seen not to be in `mask`: a tag
    /// name's letter. The scan starts after it, which saves a turn of the
    /// loop on names of two or three letters. (Were that byte in `mask` after all, the run would only be
    /// longer than it should, and still a string.)
    #[inline(always)]
    pub(crate) fn class_run_seen_past_first(mask: u8, input: &str, from: usize) -> (Run<'_>, u8) {
        let bytes = input.as_bytes();
        let first = CLASS[bytes[from] as usize];
        debug_assert!(first & mask == 0);
        let (end, seen) = find_class_seen(mask, bytes, from + 1);
        // SAFETY: as in `class_run_seen`; `run_to` checks that `from`
        // is a character boundary.
        (unsafe { run_to(input, from, end) }, seen | first)
    }

    /// The run from `from` to the first byte at or after it whose class has
    /// any of the bits in `mask`, and the classes of the bytes in the run,
    /// or-ed together. Panics as [`class_run_upper`] does.
    #[inline(always)]
    pub(crate) fn class_run_seen(mask: u8, input: &str, from: usize) -> (Run<'_>, u8) {
        let (end, seen) = find_class_seen(mask, input.as_bytes(), from);
        // SAFETY: a class scan stops only on an ASCII byte (`CLASS`'s
        // const check: no byte from 0x80 up has a class) or else returns
        // an offset at or past the end, which `run_to` rejects.
        (unsafe { run_to(input, from, end) }, seen)
    }

    /// The run from `from` to the first byte at or after it whose class has
    /// any of the bits in `mask`. Panics as [`class_run_upper`] does.
    #[inline(always)]
    pub(crate) fn class_run(mask: u8, input: &str, from: usize) -> Run<'_> {
        let end = find_class(mask, input.as_bytes(), from);
        // SAFETY: as in `class_run_seen`.
        unsafe { run_to(input, from, end) }
    }

    /// The run from `from` to the first `a` or `b` (both ASCII, else this
    /// panics) at or after it. Panics as [`class_run_upper`] does.
    #[inline(always)]
    pub(crate) fn run2(a: u8, b: u8, input: &str, from: usize) -> Run<'_> {
        assert!(a.is_ascii() && b.is_ascii());
        let end = find2(a, b, input.as_bytes(), from);
        // SAFETY: `find2` returns the offset of an `a` or `b`, ASCII
        // (asserted), or `hay.len()`.
        unsafe { run_to(input, from, end) }
    }

    /// `input[from..end]` as a [`Run`], checking only `from`. Panics if
    /// `from` is past `end` or the end of `input`, or not on a character
    /// boundary.
    ///
    /// # Safety
    /// If `end` is less than `input.len()`, the byte at `end` must be ASCII
    /// (so a character boundary). Offsets out of order or past the end are
    /// checked here.
    #[inline(always)]
    unsafe fn run_to(input: &str, from: usize, end: usize) -> Run<'_> {
        let bytes = input.as_bytes();
        assert!(from <= end && end <= bytes.len());
        debug_assert!(bytes.get(end).is_none_or(u8::is_ascii));
        // `from` is a boundary unless it holds a UTF-8 continuation byte;
        // an empty run (`from == end`) is at `end`, a boundary.
        if from < end {
            assert!((bytes[from] as i8) >= -0x40, "not a character boundary");
        }
        // SAFETY: `from <= end <= len` (asserted); `from` is a character
        // boundary (checked just above), and so is `end` (the caller's
        // contract).
        let text = unsafe { input.get_unchecked(from..end) };
        Run { text, end }
    }
}

/// Like [`find_class`], and also the classes of the bytes skipped, or-ed
/// together: whether a name holds an ASCII uppercase letter (so it is
/// lowercased in the same pass that finds its end), or a character that is
/// a parse error in it.
#[inline(always)]
fn find_class_seen(mask: u8, hay: &[u8], from: usize) -> (usize, u8) {
    let mut i = from;
    let mut seen = 0;
    while i < hay.len() {
        let c = CLASS[hay[i] as usize];
        if c & mask != 0 {
            break;
        }
        seen |= c;
        i += 1;
    }
    (i, seen)
}

/// The offset of the first byte at or after `from` whose class has any of
/// the bits in `mask`, or `hay.len()`. (Callers outside this module take
/// the run as a slice through [`class_run`].)
#[inline(always)]
fn find_class(mask: u8, hay: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < hay.len() {
        if CLASS[hay[i] as usize] & mask != 0 {
            return i;
        }
        i += 1;
    }
    hay.len()
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// A word whose lowest set bit marks the first byte of `w` equal to `b`
/// (the classic "has zero byte" trick on `w ^ b…b`; bits above the first
/// match may be set spuriously, the lowest one never is).
#[inline(always)]
fn matches(w: u64, b: u8) -> u64 {
    let x = w ^ (LO * b as u64);
    x.wrapping_sub(LO) & !x & HI
}

/// How far [`find2`] searches by itself before handing over to memchr,
/// whose start-up cost only pays on longer runs: 128 bytes in SSE2 blocks
/// on x86-64 (the corpus through the iterator: 101.6 M instructions with
/// 64, 101.3 M with 128; 32 in `u64` words before the blocks, 108.4 M),
/// 32 bytes in words elsewhere.
const SHORT: usize = if cfg!(target_arch = "x86_64") {
    128
} else {
    32
};

/// The offset of the first `a` or `b` at or after `from`, or `hay.len()`.
/// (`cut::run2` relies on exactly that for soundness: the offset of an `a`
/// or `b`, or the length.)
///
/// Most runs in real pages are short (the text between two tags, a class
/// name), where memchr's start-up costs more than the search; so the first
/// [`SHORT`] bytes are searched here, 16 at a time with SSE2 on x86-64
/// (the x86-64 baseline: no run-time check) and eight at a time in a plain
/// `u64` elsewhere and at the end of the input, and only a longer run goes
/// to memchr.
#[inline(always)]
pub(crate) fn find2(a: u8, b: u8, hay: &[u8], from: usize) -> usize {
    let limit = hay.len().min(from + SHORT);
    let mut i = match simd::find2_short(a, b, hay, from, limit) {
        Ok(found) => return found,
        Err(next) => next,
    };
    while i + 8 <= limit {
        let mut word = [0u8; 8];
        word.copy_from_slice(&hay[i..i + 8]);
        let w = u64::from_le_bytes(word);
        let m = matches(w, a) | matches(w, b);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    match memchr::memchr2(a, b, &hay[i..]) {
        Some(j) => i + j,
        None => hay.len(),
    }
}

/// The offset of the first `a` at or after `from`, or `hay.len()`.
#[inline]
pub(crate) fn find1(a: u8, hay: &[u8], from: usize) -> usize {
    match memchr::memchr(a, &hay[from..]) {
        Some(i) => from + i,
        None => hay.len(),
    }
}

/// The offset of the first byte at or after `from` that can begin an
/// input-stream parse error (see [`STREAM_ERROR_START`]), or `hay.len()`.
///
/// Real pages hold almost none, so this runs over the whole input at vector
/// speed (see [`simd`]) and only the tail is walked a byte at a time.
#[inline]
pub(crate) fn find_stream_error_start(hay: &[u8], from: usize) -> usize {
    let i = simd::skip_stream_error_free(hay, from);
    STREAM_ERROR_START.find(hay, i)
}

/// Skips text that whitespace collapsing (`extract::collapse`) copies as
/// it is: returns an offset at or after `from`, at most `hay.len()`, such
/// that every byte from `from` up to it is a byte of a word or a single
/// ASCII space with such a byte after it. Searched in whole vector blocks
/// (see [`simd`]); the byte at the offset, and the tail too short for a
/// block, are left to the caller's byte loop, which decides exactly.
///
/// "A byte of a word" is taken narrowly here: any byte above 0x20 but the
/// lead byte 0xC2 (which may begin a no-break space). Text has a space
/// every six bytes or so, and a search that stopped at each would hand
/// most of the work back to the byte loop; a word-at-a-time (`u64`)
/// version of this was measured and cost as much as the byte loop, since
/// every space costs it a step.
#[inline]
pub(crate) fn skip_collapsed(hay: &[u8], from: usize) -> usize {
    simd::skip_collapsed(hay, from)
}

/// The byte that marks a line break in [`Gathered`] text: 0xFF, which
/// UTF-8 never uses.
pub(crate) const LINE_BREAK: u8 = 0xFF;

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

    /// Forgets the text, keeping the buffer.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// The text from byte `from` (a character boundary) between its line
    /// breaks, in order.
    pub(crate) fn lines(&self, from: usize) -> impl Iterator<Item = &str> {
        self.as_bytes()[from..]
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
    /// blocks halve the classifying and the loop's turns (squeezing the
    /// corpus's text: 9.5 M instructions in 16-byte blocks, 6.4 M in 32).
    /// A NUL or a byte 0xC2 (which may begin a no-break space) goes through
    /// the byte loop, the block's bytes before it as a shorter block (in the
    /// last block's worth of text, the rest of the text goes through the
    /// byte loop); all of the text does where the CPU lacks SSSE3 or POPCNT
    /// (every x86-64 CPU since about 2008 has them).
    pub(crate) fn squeeze(&self, from: usize, out: &mut String) {
        let text = &self.as_bytes()[from..];
        debug_assert!(text.first().is_none_or(|&b| !is_run_byte(b)));
        simd::squeeze(text, out);
    }
}

/// Copies `from` (at most [`Gathered::SHORT`] bytes) to `to`, of the same
/// length, as two overlapping pieces of the largest fixed length that
/// fits: a few moves, no call.
#[inline(always)]
fn copy_short(to: &mut [u8], from: &[u8]) {
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

/// The classes of the bytes of a short text (at most [`TextMasks::MAX`]
/// bytes), one bit per byte (bit `i` for byte `i`), for whitespace
/// collapsing (`extract::collapse`): with them, a text token is split into
/// words by bit operations, where a byte loop would branch at the end of
/// every word and space run (the branches the processor mispredicts most
/// in text extraction).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TextMasks {
    /// ASCII whitespace: space, tab, LF, FF, CR.
    pub(crate) whitespace: u64,
    /// The space character itself.
    pub(crate) space: u64,
    /// NUL and the lead byte 0xC2 (which may begin a no-break space): the
    /// bytes that need the byte loop.
    pub(crate) other: u64,
}

impl TextMasks {
    /// The longest text classified at once.
    pub(crate) const MAX: usize = 64;

    /// The classes of `text`'s bytes; `text.len() <= MAX`.
    #[inline]
    pub(crate) fn of(text: &[u8]) -> TextMasks {
        debug_assert!(text.len() <= Self::MAX);
        simd::text_masks(text)
    }

    /// The same by a byte loop: the definition, for other architectures
    /// and the tests.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    pub(crate) fn by_bytes(text: &[u8]) -> TextMasks {
        let mut m = TextMasks::default();
        for (i, &b) in text.iter().enumerate().take(Self::MAX) {
            let bit = 1u64 << i;
            if is_ascii_whitespace(b) {
                m.whitespace |= bit;
            }
            if b == b' ' {
                m.space |= bit;
            }
            if b == 0 || b == 0xC2 {
                m.other |= bit;
            }
        }
        m
    }
}

/// The classes of the bytes of a short URL (at most [`UrlMasks::MAX`]
/// bytes), one bit per byte, for link resolution (`extract::resolve`): a
/// URL whose bytes the URL parser writes out as they are is resolved by
/// copying, and this tells which are in one vector pass, where a byte loop
/// cost more than the copies (several instructions a byte, over every
/// URL of a page).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct UrlMasks {
    /// Bytes the parser changes in a fragment: anything but printable
    /// ASCII, and `"`, `<`, `>`, `` ` ``.
    pub(crate) fragment: u64,
    /// Those and the bytes it changes in a special URL's path or query:
    /// `{`, `}`, `'`, `\`.
    pub(crate) special: u64,
    /// `/`.
    pub(crate) slash: u64,
    /// `.` and `%`, which begin a dot segment (`..`, `%2e`) after a `/`.
    pub(crate) dot: u64,
}

impl UrlMasks {
    /// The longest URL classified at once.
    pub(crate) const MAX: usize = 64;

    /// The classes of `url`'s bytes; `url.len() <= MAX`.
    #[inline]
    pub(crate) fn of(url: &[u8]) -> UrlMasks {
        debug_assert!(url.len() <= Self::MAX);
        simd::url_masks(url)
    }

    /// The same by a byte loop: the definition, for other architectures
    /// and the tests.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    pub(crate) fn by_bytes(url: &[u8]) -> UrlMasks {
        let mut m = UrlMasks::default();
        for (i, &b) in url.iter().enumerate().take(Self::MAX) {
            let bit = 1u64 << i;
            let fragment = !b.is_ascii_graphic() || matches!(b, b'"' | b'<' | b'>' | b'`');
            if fragment {
                m.fragment |= bit;
            }
            if fragment || matches!(b, b'{' | b'}' | b'\'' | b'\\') {
                m.special |= bit;
            }
            if b == b'/' {
                m.slash |= bit;
            }
            if matches!(b, b'.' | b'%') {
                m.dot |= bit;
            }
        }
        m
    }
}

/// Vector classification of whole blocks of input.
///
/// One generic algorithm (`Vector` operations, written once) with thin
/// per-architecture entry points: AVX2 (32 bytes a step) when the CPU has
/// it, found at run time, else SSE2 (16 bytes, part of the x86-64
/// baseline). Other architectures use the byte table alone. Every path
/// gives the same answers; the tests compare each with the table.
///
/// This and [`cut`] are the crate's only `unsafe` code: here the vector
/// loads, and calling functions compiled for a CPU feature once the feature
/// is known.
#[allow(unsafe_code)]
mod simd {
    /// The first [`super::STREAM_ERROR_START`] byte at or after `from`
    /// found in whole vector blocks, or else where the tail too short for a
    /// block starts (unchecked: the caller walks it). Every byte before the
    /// returned offset is outside the set.
    #[inline]
    pub(super) fn skip_stream_error_free(hay: &[u8], from: usize) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2 (checked just above).
                return unsafe { x86::skip_stream_error_free_avx2(hay, from) };
            }
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe { x86::skip_stream_error_free_sse2(hay, from) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = hay;
            from
        }
    }

    /// The first `a` or `b` at or after `from` in the whole 16-byte blocks
    /// that end by `limit` (`Ok`), or where those blocks stop (`Err`, the
    /// bytes before it hold neither). SSE2 only, as for `skip_collapsed`.
    #[inline(always)]
    pub(super) fn find2_short(
        a: u8,
        b: u8,
        hay: &[u8],
        from: usize,
        limit: usize,
    ) -> Result<usize, usize> {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::__m128i;
            let limit = limit.min(hay.len());
            let mut i = from;
            while i + 16 <= limit {
                // SAFETY: `i + 16 <= limit <= hay.len()`, so the block is
                // in `hay`; SSE2 is part of the x86-64 baseline.
                let m = unsafe {
                    let v = <__m128i as Vector>::load(hay.as_ptr().add(i));
                    v.eq(Vector::splat(a)).or(v.eq(Vector::splat(b))).mask()
                };
                if m != 0 {
                    return Ok(i + m.trailing_zeros() as usize);
                }
                i += 16;
            }
            Err(i)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (a, b, hay, limit);
            Err(from)
        }
    }

    /// See [`super::skip_collapsed`]: whole 16-byte blocks with a byte
    /// after them (SSE2 only: the blocks are short, and a run-time feature
    /// check on every call would cost more than wider vectors save).
    #[inline]
    pub(super) fn skip_collapsed(hay: &[u8], from: usize) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe { skip_collapsed_with::<core::arch::x86_64::__m128i>(hay, from) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = hay;
            from
        }
    }

    /// See [`super::Gathered::squeeze`]: `text` is UTF-8 with
    /// [`super::LINE_BREAK`]s in it, and begins with a byte that is neither
    /// a run's nor a character's continuation. Vector blocks of 32 bytes
    /// where the CPU has AVX2 and POPCNT, of 16 where it has SSSE3 and
    /// POPCNT (found at run time: all are past the x86-64 baseline), else
    /// the byte loop.
    pub(super) fn squeeze(text: &[u8], out: &mut String) {
        squeeze_with(text, out, 32);
    }

    /// [`squeeze`] with vector blocks of at most `widest` bytes (32, 16, or
    /// 0 for the byte loop alone), as far as the CPU has them.
    pub(super) fn squeeze_with(text: &[u8], out: &mut String, widest: usize) {
        assert!(
            text.first().is_none_or(|&b| b & 0xC0 != 0x80),
            "squeezing from the middle of a character"
        );
        #[cfg(target_arch = "x86_64")]
        let popcnt = std::is_x86_feature_detected!("popcnt");
        #[cfg(target_arch = "x86_64")]
        let width = if widest >= 32 && popcnt && std::is_x86_feature_detected!("avx2") {
            32
        } else if widest >= 16 && popcnt && std::is_x86_feature_detected!("ssse3") {
            16
        } else {
            0
        };
        #[cfg(not(target_arch = "x86_64"))]
        let _ = widest;
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
        // SAFETY: the CPU supports the instruction sets (checked above);
        // `dst` has room for `n + 16` bytes.
        #[cfg(target_arch = "x86_64")]
        let mut i = unsafe {
            match width {
                32 => x86::squeeze_avx2(text, dst, &mut j, &mut after_space),
                16 => x86::squeeze_ssse3(text, dst, &mut j, &mut after_space),
                _ => 0,
            }
        };
        #[cfg(not(target_arch = "x86_64"))]
        let mut i = 0;
        while i < n {
            // SAFETY: `j <= i < n` (at most a byte is written per byte
            // read): inside the room reserved.
            i += unsafe { squeeze_byte(text, i, dst, &mut j, &mut after_space) };
        }
        // SAFETY: the first `j` bytes after `len` were written above.
        unsafe { buf.set_len(len + j) };
    }

    /// One step of the byte loop of [`squeeze`] at `text[i]`: writes at
    /// `dst + *j` what it keeps, and returns how many bytes it took (2 for
    /// a no-break space).
    ///
    /// # Safety
    /// `dst + *j` must be writable, `i < text.len()`, and when
    /// `*after_space` the byte at `dst + *j - 1` must be the one the run
    /// wrote.
    #[inline(always)]
    unsafe fn squeeze_byte(
        text: &[u8],
        i: usize,
        dst: *mut u8,
        j: &mut usize,
        after_space: &mut bool,
    ) -> usize {
        let b = text[i];
        let (kept, taken) = match b {
            0 => return 1,
            b if super::is_ascii_whitespace(b) => (b' ', 1),
            super::LINE_BREAK => (b'\n', 1),
            0xC2 if text.get(i + 1) == Some(&0xA0) => (b' ', 2),
            _ => {
                // SAFETY: the caller guarantees `dst + *j` writable.
                unsafe { dst.add(*j).write(b) };
                *j += 1;
                *after_space = false;
                return 1;
            }
        };
        if !*after_space {
            // SAFETY: as above.
            unsafe { dst.add(*j).write(kept) };
            *j += 1;
        } else if kept == b'\n' {
            // A line break in the run makes its separator one.
            // SAFETY: the caller guarantees the run wrote `dst + *j - 1`.
            unsafe { dst.add(*j - 1).write(kept) };
        }
        *after_space = true;
        taken
    }

    /// See [`super::TextMasks::of`]: 16-byte blocks (SSE2), the last one
    /// overlapping the one before it rather than reading past the text; a
    /// text shorter than a block is copied into one first.
    #[inline]
    pub(super) fn text_masks(text: &[u8]) -> super::TextMasks {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            let [whitespace, space, other] =
                unsafe { short_masks_with::<core::arch::x86_64::__m128i, 3>(text, block_masks) };
            super::TextMasks {
                whitespace,
                space,
                other,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            super::TextMasks::by_bytes(text)
        }
    }

    /// See [`super::UrlMasks::of`]: as [`text_masks`].
    #[inline]
    pub(super) fn url_masks(url: &[u8]) -> super::UrlMasks {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            let [fragment, special, slash, dot] =
                unsafe { short_masks_with::<core::arch::x86_64::__m128i, 4>(url, url_block_masks) };
            super::UrlMasks {
                fragment,
                special,
                slash,
                dot,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            super::UrlMasks::by_bytes(url)
        }
    }

    /// The operations the generic algorithms need from a vector of bytes.
    ///
    /// Every method is an `unsafe fn` because it runs a CPU instruction
    /// set the caller must have checked for (see each implementation).
    #[cfg(target_arch = "x86_64")]
    trait Vector: Copy {
        /// Bytes per vector.
        const BYTES: usize;
        /// Loads `Self::BYTES` bytes from `p`, unaligned.
        ///
        /// # Safety
        /// `p..p + BYTES` must be readable, and the CPU must support the
        /// implementation's instruction set.
        unsafe fn load(p: *const u8) -> Self;
        /// Every byte `b`. (Safety: the instruction set, as for `load`.)
        unsafe fn splat(b: u8) -> Self;
        /// 0xFF where the bytes are equal, else 0. (Safety: as `splat`.)
        unsafe fn eq(self, other: Self) -> Self;
        /// Unsigned minimum per byte. (Safety: as `splat`.)
        unsafe fn min(self, other: Self) -> Self;
        /// Wrapping subtraction per byte. (Safety: as `splat`.)
        unsafe fn sub(self, other: Self) -> Self;
        /// Bitwise or. (Safety: as `splat`.)
        unsafe fn or(self, other: Self) -> Self;
        /// `!self & other`. (Safety: as `splat`.)
        unsafe fn and_not(self, other: Self) -> Self;
        /// Bitwise and. (Safety: as `splat`.)
        unsafe fn and(self, other: Self) -> Self;
        /// The top bit of each byte, byte `i` as bit `i`. (Safety: as `splat`.)
        unsafe fn mask(self) -> u32;
    }

    /// 0xFF in each byte of `v` that begins an input-stream error (see
    /// [`super::STREAM_ERROR_START`]), as a bit mask.
    ///
    /// # Safety
    /// The CPU must support `V`'s instruction set.
    #[cfg(target_arch = "x86_64")]
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

    /// The generic loop of `skip_stream_error_free`.
    ///
    /// # Safety
    /// The CPU must support `V`'s instruction set.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn skip_stream_error_free_with<V: Vector>(hay: &[u8], from: usize) -> usize {
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

    /// The generic loop of `skip_collapsed`.
    ///
    /// # Safety
    /// The CPU must support `V`'s instruction set.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn skip_collapsed_with<V: Vector>(hay: &[u8], from: usize) -> usize {
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

    /// The classes of one block, as `TextMasks` of its `V::BYTES` bits.
    ///
    /// # Safety
    /// The CPU must support `V`'s instruction set.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn block_masks<V: Vector>(v: V) -> [u64; 3] {
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

    /// The classes of one block, as `UrlMasks` of its `V::BYTES` bits.
    ///
    /// # Safety
    /// The CPU must support `V`'s instruction set.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn url_block_masks<V: Vector>(v: V) -> [u64; 4] {
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

    /// The generic body of `text_masks` and `url_masks`: the `K` bit masks
    /// of `text` (its first 64 bytes), `block` giving those of each
    /// `V::BYTES`-byte block: blocks of `text`, the last one overlapping
    /// the one before it rather than reading past the text; a text shorter
    /// than a block is copied into one first (the bits of the zeros after
    /// it cleared).
    ///
    /// # Safety
    /// The CPU must support `V`'s instruction set.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn short_masks_with<V: Vector, const K: usize>(
        text: &[u8],
        block: unsafe fn(V) -> [u64; K],
    ) -> [u64; K] {
        let n = text.len().min(64);
        if n < V::BYTES {
            // Zeros after the text, whose bits are cleared below. Copied
            // as two overlapping words, not by `memcpy`, whose branches on
            // the length cost more than the copy.
            let mut padded = [0u8; 64];
            if n >= 8 {
                padded[..8].copy_from_slice(&text[..8]);
                padded[n - 8..n].copy_from_slice(&text[n - 8..n]);
            } else if n >= 4 {
                padded[..4].copy_from_slice(&text[..4]);
                padded[n - 4..n].copy_from_slice(&text[n - 4..n]);
            } else {
                padded[..n].copy_from_slice(&text[..n]);
            }
            // SAFETY: `padded` holds 64 >= BYTES bytes; the caller
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

    #[cfg(target_arch = "x86_64")]
    mod x86 {
        use super::{Vector, skip_stream_error_free_with};
        use core::arch::x86_64::*;

        /// `skip_stream_error_free` with AVX2.
        ///
        /// # Safety
        /// The CPU must support AVX2.
        #[target_feature(enable = "avx2")]
        pub(in crate::scan) unsafe fn skip_stream_error_free_avx2(
            hay: &[u8],
            from: usize,
        ) -> usize {
            // SAFETY: the caller guarantees AVX2.
            unsafe { skip_stream_error_free_with::<__m256i>(hay, from) }
        }

        /// `skip_stream_error_free` with SSE2.
        ///
        /// # Safety
        /// The CPU must support SSE2 (every x86-64 CPU does).
        #[target_feature(enable = "sse2")]
        pub(in crate::scan) unsafe fn skip_stream_error_free_sse2(
            hay: &[u8],
            from: usize,
        ) -> usize {
            // SAFETY: the caller guarantees SSE2.
            unsafe { skip_stream_error_free_with::<__m128i>(hay, from) }
        }

        /// The vector blocks of `squeeze`, 16 bytes at a time.
        ///
        /// # Safety
        /// The CPU must support SSSE3 and POPCNT; the rest as for
        /// [`squeeze_blocks`].
        #[target_feature(enable = "ssse3,popcnt")]
        pub(in crate::scan) unsafe fn squeeze_ssse3(
            text: &[u8],
            dst: *mut u8,
            j: &mut usize,
            after_space: &mut bool,
        ) -> usize {
            // SAFETY: the caller guarantees the instruction sets and the
            // rest.
            unsafe { squeeze_blocks::<__m128i>(text, dst, j, after_space) }
        }

        /// The vector blocks of `squeeze`, 32 bytes at a time: half the
        /// classifying and the loop's turns of 16-byte blocks, the same
        /// packing (16 bytes is what one `pshufb` table of 8-byte halves
        /// packs; AVX2 shuffles within 16-byte lanes anyway).
        ///
        /// # Safety
        /// The CPU must support AVX2 and POPCNT; the rest as for
        /// [`squeeze_blocks`].
        #[target_feature(enable = "avx2,popcnt")]
        pub(in crate::scan) unsafe fn squeeze_avx2(
            text: &[u8],
            dst: *mut u8,
            j: &mut usize,
            after_space: &mut bool,
        ) -> usize {
            // SAFETY: the caller guarantees the instruction sets and the
            // rest.
            unsafe { squeeze_blocks::<__m256i>(text, dst, j, after_space) }
        }

        /// The vector blocks of `squeeze`: takes whole blocks while they
        /// hold no NUL nor 0xC2 (found ahead by `memchr2`, not block by
        /// block), a block's bytes up to one, that one by the byte loop,
        /// and the last bytes as one block; leaves to the caller's byte
        /// loop what it returns (the offset reached).
        ///
        /// # Safety
        /// The CPU must support `V`'s instruction sets (see [`Squeeze`]);
        /// `dst` must have room for `text.len() + 16` bytes past `*j`; `*j`
        /// and `*after_space` as for `squeeze_byte`.
        #[inline(always)]
        unsafe fn squeeze_blocks<V: Squeeze>(
            text: &[u8],
            dst: *mut u8,
            j: &mut usize,
            after_space: &mut bool,
        ) -> usize {
            let w = V::BYTES;
            let n = text.len();
            // Kept in registers, given back at the end.
            let (mut written, mut after) = (*j, *after_space);
            let special =
                |from: usize| memchr::memchr2(0, 0xC2, &text[from..]).map_or(n, |k| from + k);
            let mut next_special = special(0);
            let mut i = 0;
            while i + w <= n {
                if i + w > next_special {
                    // A block with a NUL or a 0xC2: its bytes before that
                    // one as a block, that one (or two: a no-break space)
                    // by the byte loop, and the blocks go on after it.
                    let k = next_special - i;
                    if k > 0 {
                        // SAFETY: as below, with only the first `k` bytes
                        // kept.
                        unsafe {
                            let block = V::load(text.as_ptr().add(i));
                            squeeze_block(block, (1 << k) - 1, dst, &mut written, &mut after);
                        }
                    }
                    i = next_special;
                    // SAFETY: `written <= i < n`: in the room.
                    i += unsafe { super::squeeze_byte(text, i, dst, &mut written, &mut after) };
                    next_special = special(i);
                    continue;
                }
                // SAFETY: `i + w <= n`, so the block is in `text`;
                // `written <= i` (at most a byte is written per byte read),
                // and a block keeps at most its `w` bytes, so its 16-byte
                // stores end before `i + w + 16 <= n + 16`; the caller
                // guarantees the instruction sets.
                unsafe {
                    let block = V::load(text.as_ptr().add(i));
                    squeeze_block(block, V::ALL, dst, &mut written, &mut after);
                }
                i += w;
            }
            if i < n && next_special == n {
                // The tail, as a last block: the `w` bytes that end the
                // text (its first ones already taken, and left out by the
                // mask of new ones), or the text copied into a block.
                let new = n - i;
                let (block, valid) = if n >= w {
                    // SAFETY: `n - w .. n` is in `text`.
                    let block = unsafe { V::load(text.as_ptr().add(n - w)) };
                    (block, V::ALL & !((1u32 << (w - new)) - 1))
                } else {
                    let mut padded = [b'a'; 32];
                    padded[..n].copy_from_slice(text);
                    // SAFETY: `padded` holds 32 bytes, at least `w`.
                    (unsafe { V::load(padded.as_ptr()) }, (1u32 << n) - 1)
                };
                // SAFETY: `written <= i` and only the `new` bytes are kept,
                // so the stores end before `i + new + 16 = n + 16`; the
                // caller guarantees the instruction sets.
                unsafe { squeeze_block(block, valid, dst, &mut written, &mut after) };
                i = n;
            }
            (*j, *after_space) = (written, after);
            i
        }

        /// What squeezing needs of a vector past [`Vector`]: finding
        /// whitespace by table, and packing the kept bytes.
        trait Squeeze: Vector {
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
        const WHITESPACE_BY_LOW_HALF: [u8; 16] = {
            let mut table = [0x80u8; 16];
            let mut b = 0;
            while b < 256 {
                if crate::scan::is_ascii_whitespace(b as u8) {
                    // One whitespace byte for each low half, or the table
                    // cannot tell them apart.
                    assert!(table[b & 15] == 0x80);
                    table[b & 15] = b as u8;
                }
                b += 1;
            }
            table
        };

        // SAFETY (both methods): the caller guarantees SSSE3 and POPCNT,
        // and the room for the stores.
        impl Squeeze for __m128i {
            const ALL: u32 = 0xFFFF;
            #[inline(always)]
            unsafe fn whitespace(self) -> Self {
                unsafe {
                    let table = _mm_loadu_si128(WHITESPACE_BY_LOW_HALF.as_ptr().cast());
                    _mm_shuffle_epi8(table, self).eq(self)
                }
            }
            #[inline(always)]
            unsafe fn pack(self, keep: u32, dst: *mut u8, j: &mut usize) {
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

        // SAFETY (both methods): the caller guarantees AVX2 (which
        // implies SSSE3) and POPCNT, and the room for the stores.
        impl Squeeze for __m256i {
            const ALL: u32 = u32::MAX;
            #[inline(always)]
            unsafe fn whitespace(self) -> Self {
                unsafe {
                    let table = _mm_loadu_si128(WHITESPACE_BY_LOW_HALF.as_ptr().cast());
                    // `pshufb` looks up within each 16-byte lane: the
                    // table in both.
                    _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(table), self).eq(self)
                }
            }
            #[inline(always)]
            unsafe fn pack(self, keep: u32, dst: *mut u8, j: &mut usize) {
                unsafe {
                    _mm256_castsi256_si128(self).pack(keep & 0xFFFF, dst, j);
                    _mm256_extracti128_si256::<1>(self).pack(keep >> 16, dst, j);
                }
            }
        }

        /// Squeezes the bytes of `block` whose bits are set in `valid` (the
        /// block's last bytes, or its first), which hold no NUL nor 0xC2:
        /// writes at `dst + *j` the ones it keeps.
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
        ) {
            // SAFETY: the caller guarantees the instruction sets and the
            // room for the stores.
            unsafe {
                let whitespace = block.whitespace();
                let breaks = block.eq(V::splat(super::super::LINE_BREAK));
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
            }
        }

        // SAFETY (every method): the caller guarantees SSE2, as the trait
        // requires; `load` reads 16 bytes the caller guarantees readable.
        impl Vector for __m128i {
            const BYTES: usize = 16;
            #[inline(always)]
            unsafe fn load(p: *const u8) -> Self {
                unsafe { _mm_loadu_si128(p.cast()) }
            }
            #[inline(always)]
            unsafe fn splat(b: u8) -> Self {
                unsafe { _mm_set1_epi8(b as i8) }
            }
            #[inline(always)]
            unsafe fn eq(self, other: Self) -> Self {
                unsafe { _mm_cmpeq_epi8(self, other) }
            }
            #[inline(always)]
            unsafe fn min(self, other: Self) -> Self {
                unsafe { _mm_min_epu8(self, other) }
            }
            #[inline(always)]
            unsafe fn sub(self, other: Self) -> Self {
                unsafe { _mm_sub_epi8(self, other) }
            }
            #[inline(always)]
            unsafe fn or(self, other: Self) -> Self {
                unsafe { _mm_or_si128(self, other) }
            }
            #[inline(always)]
            unsafe fn and_not(self, other: Self) -> Self {
                unsafe { _mm_andnot_si128(self, other) }
            }
            #[inline(always)]
            unsafe fn and(self, other: Self) -> Self {
                unsafe { _mm_and_si128(self, other) }
            }
            #[inline(always)]
            unsafe fn mask(self) -> u32 {
                unsafe { _mm_movemask_epi8(self) as u32 }
            }
        }

        // SAFETY (every method): the caller guarantees AVX2, as the trait
        // requires; `load` reads 32 bytes the caller guarantees readable.
        impl Vector for __m256i {
            const BYTES: usize = 32;
            #[inline(always)]
            unsafe fn load(p: *const u8) -> Self {
                unsafe { _mm256_loadu_si256(p.cast()) }
            }
            #[inline(always)]
            unsafe fn splat(b: u8) -> Self {
                unsafe { _mm256_set1_epi8(b as i8) }
            }
            #[inline(always)]
            unsafe fn eq(self, other: Self) -> Self {
                unsafe { _mm256_cmpeq_epi8(self, other) }
            }
            #[inline(always)]
            unsafe fn min(self, other: Self) -> Self {
                unsafe { _mm256_min_epu8(self, other) }
            }
            #[inline(always)]
            unsafe fn sub(self, other: Self) -> Self {
                unsafe { _mm256_sub_epi8(self, other) }
            }
            #[inline(always)]
            unsafe fn or(self, other: Self) -> Self {
                unsafe { _mm256_or_si256(self, other) }
            }
            #[inline(always)]
            unsafe fn and_not(self, other: Self) -> Self {
                unsafe { _mm256_andnot_si256(self, other) }
            }
            #[inline(always)]
            unsafe fn and(self, other: Self) -> Self {
                unsafe { _mm256_and_si256(self, other) }
            }
            #[inline(always)]
            unsafe fn mask(self) -> u32 {
                unsafe { _mm256_movemask_epi8(self) as u32 }
            }
        }

        #[cfg(test)]
        mod tests {
            use super::*;
            use crate::scan::STREAM_ERROR_START;

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
                            check(unsafe { skip_stream_error_free_sse2(&hay, 0) }, 16, "sse2");
                            if avx2 {
                                // SAFETY: AVX2 was detected.
                                check(unsafe { skip_stream_error_free_avx2(&hay, 0) }, 32, "avx2");
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Whether the input holds any CR or NUL. Nearly no real page does, and
/// when none does the hot loops can look for fewer delimiters.
#[inline]
pub(crate) fn has_cr_or_nul(hay: &[u8]) -> bool {
    memchr::memchr2(b'\r', 0, hay).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_member() {
        const SET: ByteSet = ByteSet::new(b"<&");
        assert_eq!(SET.find(b"abc&d<", 0), 3);
        assert_eq!(SET.find(b"abc&d<", 4), 5);
        assert_eq!(SET.find(b"abc", 1), 3);
        assert_eq!(find2(b'<', b'&', b"xx<", 0), 2);
        // Every position, in the SSE2 blocks, the words after them at the
        // end of the input, and past `SHORT` (memchr); either byte, with
        // the other one later; from every start up to it. (Under Miri, a
        // few lengths around each boundary.)
        let lengths: Vec<usize> = if cfg!(miri) {
            vec![0, 1, 7, 8, 15, 16, 17, 31, 33, SHORT - 1, SHORT, SHORT + 9]
        } else {
            (0..SHORT + 40).collect()
        };
        for &len in &lengths {
            for at in 0..=len {
                if cfg!(miri) && !lengths.contains(&at) && at != len / 2 {
                    continue;
                }
                for (first, second) in [(b'&', b'<'), (b'<', b'&')] {
                    let mut hay = vec![b'x'; len];
                    if at < len {
                        // The second byte halfway to the end, or on `at`
                        // itself at the end (then overwritten).
                        hay[len - 1 - (len - 1 - at) / 2] = second;
                        hay[at] = first;
                    }
                    assert_eq!(find2(b'<', b'&', &hay, 0), at, "len {len} at {at}");
                    let starts = [0, at / 2, at.saturating_sub(1), at.saturating_sub(16), at];
                    for from in starts {
                        assert_eq!(
                            find2(b'<', b'&', &hay, from),
                            at,
                            "len {len} at {at} from {from}"
                        );
                    }
                }
            }
        }
        assert_eq!(find_class(class::WS, b"ab c", 0), 2);
        assert_eq!(CLASS[b'A' as usize] & class::UPPER, class::UPPER);
        assert_eq!(CLASS[b'`' as usize], class::UNQUOTED_STOP);
        for b in 0..=255u8 {
            let quiet = CLASS[b as usize] & class::ATTR_NAME_STOP_QUIET != 0;
            let stop = CLASS[b as usize] & class::ATTR_NAME_STOP != 0;
            let error = matches!(b, b'"' | b'\'' | b'<');
            assert_eq!(quiet, stop && !error, "{b:#04x}");
            assert_eq!(CLASS[b as usize] & class::ATTR_NAME_ERROR != 0, error);
        }
        assert_eq!(find1(b'<', b"xx", 0), 2);
        assert!(has_cr_or_nul(b"a\rb"));
        assert!(!has_cr_or_nul(b"ab\n"));
    }

    /// The runs the tag path slices: multi-byte characters inside, an
    /// ASCII stop or the end after, and the one check left, on `from`.
    #[test]
    fn runs_are_the_slices_a_scan_skipped() {
        let input = "é<a é=\"ü&x\" b>ñ";
        let (run, upper) = class_run_upper(class::TAG_NAME_STOP, input, 0);
        assert_eq!((run.text, run.end, upper), ("é<a", 4, false));
        let (run, upper) = class_run_upper(class::ATTR_NAME_STOP, "AbÉ=", 0);
        assert_eq!((run.text, run.end, upper), ("AbÉ", 4, true));
        // Past a first byte not in the mask: the same run, and its class
        // counted (the uppercase `A`, the `"` of an attribute name).
        for (mask, text) in [
            (class::TAG_NAME_STOP, "Ab>"),
            (class::TAG_NAME_STOP, "a"),
            (class::TAG_NAME_STOP, "bR/"),
            (class::ATTR_NAME_STOP_QUIET, "\"x=y"),
            (class::ATTR_NAME_STOP_QUIET, "ü x"),
        ] {
            let (run, seen) = class_run_seen_past_first(mask, text, 0);
            let (want, want_seen) = class_run_seen(mask, text, 0);
            assert_eq!(
                (run.text, run.end, seen),
                (want.text, want.end, want_seen),
                "{text}"
            );
        }
        let run = run2(b'"', b'&', input, 9);
        assert_eq!((run.text, run.end), ("ü", 11));
        let run = class_run(class::UNQUOTED_STOP, input, 17);
        assert_eq!((run.text, run.end), ("ñ", input.len()));
        // Empty runs: at a stop, and at the end.
        assert_eq!(run2(b'"', b'&', input, 11).text, "");
        assert_eq!(class_run(class::WS, input, input.len()).text, "");
        for from in 0..=input.len() {
            let ok = input.is_char_boundary(from);
            let got = std::panic::catch_unwind(|| class_run(class::WS, input, from).text);
            assert_eq!(got.is_ok(), ok, "from {from}");
            if let Ok(text) = got {
                assert_eq!(text, &input[from..from + text.len()]);
            }
        }
        assert!(std::panic::catch_unwind(|| class_run(class::WS, "ab", 3)).is_err());
        assert!(std::panic::catch_unwind(|| run2(b'a', 0xC3, "ab", 0)).is_err());
    }

    /// Every byte value at the end of inputs of several lengths (in the
    /// tail or in a vector block): `find_stream_error_start` agrees with
    /// the table.
    /// A short-text classifier (`of`) against its byte-loop definition
    /// (`by_bytes`): every byte value at every position of texts of every
    /// length up to 64, made of `filler` around it. Under Miri, only the
    /// `interesting` bytes and the lengths `miri_lengths`.
    fn masks_match_the_definition<M: PartialEq + core::fmt::Debug>(
        interesting: fn(u8) -> bool,
        miri_lengths: &[usize],
        filler: &[u8],
        of: fn(&[u8]) -> M,
        by_bytes: fn(&[u8]) -> M,
    ) {
        for b in 0..=255u8 {
            if cfg!(miri) && !interesting(b) {
                continue;
            }
            for len in 0..=64 {
                if cfg!(miri) && !miri_lengths.contains(&len) {
                    continue;
                }
                for at in 0..len {
                    let mut text: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
                    text[at] = b;
                    assert_eq!(of(&text), by_bytes(&text), "{b:#04x} at {at} of {len}");
                }
            }
        }
    }

    /// `TextMasks::of` against its byte-loop definition.
    #[test]
    fn text_masks_match_the_definition() {
        assert_eq!(TextMasks::MAX, 64);
        masks_match_the_definition(
            |b| matches!(b, 0 | 0x09..=0x0D | b' ' | 0xC2 | 0x08 | 0x0E | 0x21),
            &[0, 1, 15, 16, 17, 31, 33, 63, 64],
            b"a b\tc\nd  e",
            TextMasks::of,
            TextMasks::by_bytes,
        );
    }

    /// `UrlMasks::of` against its byte-loop definition.
    #[test]
    fn url_masks_match_the_definition() {
        assert_eq!(UrlMasks::MAX, 64);
        masks_match_the_definition(
            |b| {
                matches!(
                    b,
                    0 | 0x20 | 0x21 | 0x7E | 0x7F | 0x80 | 0xFF | b'"' | b'`' | b'\\' | b'/' | b'%'
                )
            },
            &[0, 1, 7, 15, 16, 17, 31, 33, 63, 64],
            b"/a.b/{c}?d=%2e#e'f",
            UrlMasks::of,
            UrlMasks::by_bytes,
        );
    }

    /// `skip_collapsed` against its definition, byte by byte: every byte
    /// value at every position of texts of several lengths, alone and
    /// after a space; the scan must stop exactly at the first byte that
    /// may end a segment when that byte is in a whole block it checked,
    /// and never skip one.
    #[test]
    fn skip_collapsed_stops_where_a_segment_may_end() {
        let special = |b: u8| b <= 0x20 || b == 0xC2;
        let stops = |hay: &[u8], j: usize| {
            special(hay[j]) && !(hay[j] == b' ' && j + 1 < hay.len() && !special(hay[j + 1]))
        };
        for b in 0..=255u8 {
            if cfg!(miri) && !(special(b) || b == b'!' || b == 0xC3) {
                continue;
            }
            for len in [1, 15, 16, 17, 18, 33, 40] {
                for at in 0..len {
                    for before in [b'x', b' '] {
                        let mut hay: Vec<u8> = b"ab cd efg hij k"
                            .iter()
                            .copied()
                            .cycle()
                            .take(len)
                            .collect();
                        hay[at] = b;
                        if at > 0 {
                            hay[at - 1] = before;
                        }
                        for from in [0, 1.min(len - 1)] {
                            let got = skip_collapsed(&hay, from);
                            let first_stop = (from..len).find(|&j| stops(&hay, j)).unwrap_or(len);
                            assert!(
                                got <= first_stop,
                                "{b:#04x} at {at} of {len} from {from}: {got}"
                            );
                            assert!(got >= from && got <= len);
                            // Stopping early is allowed only in the tail a
                            // whole block with a byte after it cannot cover.
                            if cfg!(target_arch = "x86_64") && got < first_stop {
                                assert!(got + 16 >= len, "{b:#04x} at {at} of {len}: {got}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn stream_error_starts_match_the_table() {
        for b in 0..=255u8 {
            let member = STREAM_ERROR_START.contains(b);
            for len in [1, 15, 16, 17, 31, 32, 33, 40] {
                let mut hay = vec![b'\n'; len];
                hay[len - 1] = b;
                let want = if member { len - 1 } else { len };
                assert_eq!(
                    find_stream_error_start(&hay, 0),
                    want,
                    "byte {b:#04x} len {len}"
                );
            }
        }
        assert!(STREAM_ERROR_START.contains(0x01) && STREAM_ERROR_START.contains(0x0B));
        for b in [0u8, b'\t', b'\n', 0x0C, b'\r', b' ', 0x80, 0xC3, 0xEE, 0xF5] {
            assert!(!STREAM_ERROR_START.contains(b), "{b:#04x}");
        }
    }

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
        for widest in [32, 16, 0] {
            // After text already written, as the extractor calls it.
            let mut out = String::from("before");
            simd::squeeze_with(&bytes[from..], &mut out, widest);
            assert_eq!(
                &out.as_bytes()[6..],
                &want[..],
                "vectors of {widest} bytes, from {from} of {bytes:?}"
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
                        check_squeeze(&gathered(&pieces));
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
        }
    }
}
