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

/// The offset of the first `a` or `b` at or after `from`, or `hay.len()`.
#[inline]
pub(crate) fn find2(a: u8, b: u8, hay: &[u8], from: usize) -> usize {
    match memchr::memchr2(a, b, &hay[from..]) {
        Some(i) => from + i,
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
        assert_eq!(find1(b'<', b"xx", 0), 2);
        assert!(has_cr_or_nul(b"a\rb"));
        assert!(!has_cr_or_nul(b"ab\n"));
    }
}
