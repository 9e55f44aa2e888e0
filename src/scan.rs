//! Finding the next byte that matters.
//!
//! Every long-run state of the tokenizer (data, RCDATA, RAWTEXT, script data,
//! comments, attribute values, CDATA) spends its time skipping bytes that need
//! no work and stopping at the few that do. This module holds that search so
//! that the state machine stays a transcription of the spec and speed work
//! (SIMD, runtime feature detection) has one place to happen.
//!
//! Two tools: `memchr` for the data state, where runs are long and the
//! delimiters are few, and a 256-entry byte-class table for everything else,
//! where runs are short and a call into memchr costs more than it saves.

/// A set of bytes, as a lookup table.
pub(crate) struct ByteSet([bool; 256]);

impl ByteSet {
    /// The set holding exactly `bytes`.
    pub(crate) const fn new(bytes: &[u8]) -> ByteSet {
        let mut table = [false; 256];
        let mut i = 0;
        while i < bytes.len() {
            table[bytes[i] as usize] = true;
            i += 1;
        }
        ByteSet(table)
    }

    /// Whether `b` is in the set.
    #[inline(always)]
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.0[b as usize]
    }

    /// The offset of the first byte at or after `from` that is in the set, or
    /// `hay.len()` when there is none.
    #[inline]
    pub(crate) fn find(&self, hay: &[u8], from: usize) -> usize {
        let mut i = from;
        while i < hay.len() {
            if self.contains(hay[i]) {
                return i;
            }
            i += 1;
        }
        hay.len()
    }
}

/// Byte classes for the tag fast path (see `tag.rs`), as bit flags.
pub(crate) mod class {
    /// ASCII whitespace, CR included.
    pub(crate) const WS: u8 = 1;
    /// Ends a tag name: whitespace, `/`, `>`, NUL.
    pub(crate) const TAG_NAME_STOP: u8 = 2;
    /// Ends an attribute name: whitespace, `/`, `>`, `=`, NUL, and the
    /// characters that are parse errors in a name (`"`, `'`, `<`).
    pub(crate) const ATTR_NAME_STOP: u8 = 4;
    /// Ends an unquoted attribute value, or needs the slow path in one:
    /// whitespace, `&`, `>`, NUL, `"`, `'`, `<`, `=`, `` ` ``.
    pub(crate) const UNQUOTED_STOP: u8 = 8;
    /// An ASCII uppercase letter.
    pub(crate) const UPPER: u8 = 16;
}

/// The class bits of every byte.
pub(crate) static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut c = 0;
        let ws = matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ');
        if ws {
            c |= class::WS;
        }
        if ws || matches!(b, b'/' | b'>' | 0) {
            c |= class::TAG_NAME_STOP;
        }
        if ws || matches!(b, b'/' | b'>' | b'=' | 0 | b'"' | b'\'' | b'<') {
            c |= class::ATTR_NAME_STOP;
        }
        if ws || matches!(b, b'&' | b'>' | 0 | b'"' | b'\'' | b'<' | b'=' | b'`') {
            c |= class::UNQUOTED_STOP;
        }
        if b.is_ascii_uppercase() {
            c |= class::UPPER;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// Like [`find_class`], and also whether the bytes skipped hold an ASCII
/// uppercase letter (so a name is lowercased in the same pass that finds
/// its end).
#[inline(always)]
pub(crate) fn find_class_upper(mask: u8, hay: &[u8], from: usize) -> (usize, bool) {
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
    (i, seen & class::UPPER != 0)
}

/// The offset of the first byte at or after `from` whose class has any of
/// the bits in `mask`, or `hay.len()`.
#[inline(always)]
pub(crate) fn find_class(mask: u8, hay: &[u8], from: usize) -> usize {
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

/// How far the word-at-a-time search goes before handing over to memchr,
/// whose start-up cost only pays on longer runs.
const SHORT: usize = 32;

/// The offset of the first `a` or `b` at or after `from`, or `hay.len()`.
///
/// Most runs in real pages are short (the text between two tags, a class
/// name), where memchr's start-up costs more than the search; so the first
/// 32 bytes are searched eight at a time in a plain `u64`, and only a longer
/// run goes to memchr.
#[inline(always)]
pub(crate) fn find2(a: u8, b: u8, hay: &[u8], from: usize) -> usize {
    let mut i = from;
    let limit = hay.len().min(from + SHORT);
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

/// The offset of the first 8-byte word at or after `from` that holds a byte
/// outside printable ASCII (below 0x20 or from 0x7F up), or the offset of
/// the last partial word. Everything before it is plain printable ASCII.
/// The input-stream error scan uses it to skip what can't be an error.
#[inline]
pub(crate) fn skip_printable_ascii(hay: &[u8], from: usize) -> usize {
    let mut i = from;
    while i + 8 <= hay.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&hay[i..i + 8]);
        let w = u64::from_le_bytes(word);
        let below_space = w.wrapping_sub(LO * 0x20) & !w & HI;
        let del_or_high = (w | w.wrapping_add(LO)) & HI;
        if below_space | del_or_high != 0 {
            break;
        }
        i += 8;
    }
    i
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
        // Every position, inside and past the word-at-a-time prefix.
        for len in 0..80 {
            for at in 0..=len {
                let mut hay = vec![b'x'; len];
                if at < len {
                    hay[at] = b'&';
                }
                assert_eq!(find2(b'<', b'&', &hay, 0), at, "len {len} at {at}");
                assert_eq!(find2(b'<', b'&', &hay, at.min(len)), at);
            }
        }
        assert_eq!(find_class(class::WS, b"ab c", 0), 2);
        assert_eq!(CLASS[b'A' as usize] & class::UPPER, class::UPPER);
        assert_eq!(CLASS[b'`' as usize], class::UNQUOTED_STOP);
        assert_eq!(find1(b'<', b"xx", 0), 2);
        assert!(has_cr_or_nul(b"a\rb"));
        assert_eq!(skip_printable_ascii(b"abcdefgh\nbcdefgh", 0), 8);
        assert_eq!(skip_printable_ascii(b"abcdefghabcdefgh\x7f", 0), 16);
        assert_eq!(skip_printable_ascii(b"abcdefgh~bcdefg\x80", 0), 8);
        assert_eq!(skip_printable_ascii(b"abcdefgh ~~~~~~~abc", 0), 16);
        assert!(!has_cr_or_nul(b"ab\n"));
    }
}
