//! The tokenizer's scans: to the next byte of a class (a table lookup a
//! byte, for the short runs of tags), to the next of one or two bytes (the
//! long runs of text, comments and values: vector blocks, words, then
//! memchr), and to the next byte that may begin an input-stream error.

use super::arch;
use super::class::{CLASS, STREAM_ERROR_START};

/// Like [`find_class`], and also the classes of the bytes skipped, or-ed
/// together: whether a name holds an ASCII uppercase letter (so it is
/// lowercased in the same pass that finds its end), or a character that is
/// a parse error in it.
#[inline(always)]
pub(super) fn find_class_seen(mask: u8, hay: &[u8], from: usize) -> (usize, u8) {
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
/// the bits in `mask`, or `hay.len()`. (Callers outside `scan` take the
/// run as a slice through `run::class_run`.)
#[inline(always)]
pub(super) fn find_class(mask: u8, hay: &[u8], from: usize) -> usize {
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

/// The offset of the first `a` or `b` at or after `from`, or `hay.len()`.
/// (`run::run2` relies on exactly that for soundness: the offset of an `a`
/// or `b`, or the length.)
///
/// Most runs in real pages are short (the text between two tags, a class
/// name), where memchr's start-up costs more than the search; so the first
/// `arch::FIND2_SHORT` bytes are searched here, in vector blocks where
/// the architecture has them (16 at a time with SSE2 on x86-64, the
/// baseline: no run-time check) and eight at a time in a plain `u64`
/// elsewhere and at the end of the input, and only a longer run goes to
/// memchr.
#[inline(always)]
pub(crate) fn find2(a: u8, b: u8, hay: &[u8], from: usize) -> usize {
    let limit = hay.len().min(from + arch::FIND2_SHORT);
    let mut i = match arch::find2_blocks(a, b, hay, from, limit) {
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
/// speed where the architecture has vectors (`arch`) and only the tail is
/// walked a byte at a time.
#[inline]
pub(crate) fn find_stream_error_start(hay: &[u8], from: usize) -> usize {
    let i = arch::skip_stream_error_free(hay, from);
    STREAM_ERROR_START.find(hay, i)
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
    use crate::scan::class::{self, ByteSet};

    /// How far `find2` searches before memchr.
    const SHORT: usize = arch::FIND2_SHORT;

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
}
