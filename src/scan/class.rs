//! What a byte is: ASCII whitespace, the width of the UTF-8 sequence a byte
//! begins, and the byte classes the scans stop at, each decided here once.
//!
//! Everything else in the crate asks these (the tokenizer, the encoding
//! prescan, MIME sniffing, extraction), and the tables and vector forms of
//! this module are built from or tested against them.

/// Whether `b` is ASCII whitespace as HTML defines it
/// (<https://infra.spec.whatwg.org/#ascii-whitespace>): tab, LF, FF, CR or
/// space.
///
/// The same set as [`u8::is_ascii_whitespace`] (and so as `str::trim_ascii`,
/// which the standard library defines by it), checked below; written out
/// here so that the one definition the crate's tables and vector forms are
/// built from and tested against is in view.
#[inline(always)]
pub(crate) const fn is_ascii_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

/// [`is_ascii_whitespace`] for a `char`, the shape `str::split` and
/// `str::trim_matches` take.
#[cfg(feature = "extract")]
#[inline(always)]
pub(crate) const fn is_ascii_whitespace_char(c: char) -> bool {
    c.is_ascii() && is_ascii_whitespace(c as u8)
}

/// The length of the UTF-8 sequence that `lead` begins, as the Encoding
/// Standard's UTF-8 decoder reads it
/// (<https://encoding.spec.whatwg.org/#utf-8-decoder>): 2 for C2–DF, 3 for
/// E0–EF, 4 for F0–F4, and 1 for ASCII and for a byte that cannot begin a
/// sequence (a continuation byte, C0, C1, F5–FF), which the decoder replaces
/// on its own.
///
/// The two kinds of caller:
/// - the stream's decoder (`stream/mod.rs`) meets raw bytes, and needs the
///   invalid ones to count 1 so that each becomes one U+FFFD;
/// - the tokenizer asks about a byte of a `&str` at a character boundary,
///   always a valid lead byte, so for it this is the length of the
///   character.
#[inline(always)]
pub(crate) const fn utf8_width(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 1,
    }
}

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

    /// The set holding ASCII whitespace and `bytes`.
    pub(crate) const fn whitespace_and(bytes: &[u8]) -> ByteSet {
        let ByteSet(mut table) = ByteSet::new(bytes);
        let mut b = 0;
        while b < 256 {
            table[b] |= is_ascii_whitespace(b as u8);
            b += 1;
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

/// The bytes that can begin an input-stream parse error
/// (<https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream>):
/// a control character other than ASCII whitespace and NUL (0x01–0x08,
/// 0x0B, 0x0E–0x1F, 0x7F), or the lead byte of a C1 control (0xC2) or of a
/// possible noncharacter (0xEF for U+FDD0–FDEF and U+FFFE/F, 0xF0–0xF4 for
/// the other planes). Lead bytes only start characters, so in a `&str` a
/// hit is always on a character boundary.
pub(crate) static STREAM_ERROR_START: ByteSet = ByteSet::new(
    b"\x01\x02\x03\x04\x05\x06\x07\x08\x0B\x0E\x0F\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1A\x1B\
      \x1C\x1D\x1E\x1F\x7F\xC2\xEF\xF0\xF1\xF2\xF3\xF4",
);

/// ASCII whitespace ([`is_ascii_whitespace`]), as a class bit of [`CLASS`].
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
/// Ends an attribute name: [`ATTR_NAME_STOP`] but for the characters
/// that are only errors in a name (`"`, `'`, `<`), which the name goes
/// on through (the tokenizer reports them: [`ATTR_NAME_ERROR`]).
pub(crate) const ATTR_NAME_STOP_QUIET: u8 = 32;
/// A parse error in an attribute name: `"`, `'`, `<`.
pub(crate) const ATTR_NAME_ERROR: u8 = 64;

/// The class bits of every byte, for the tag fast path (see
/// `tokenizer/tag.rs`).
pub(crate) static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut c = 0;
        let ws = is_ascii_whitespace(b);
        if ws {
            c |= WS;
        }
        if ws || matches!(b, b'/' | b'>' | 0) {
            c |= TAG_NAME_STOP;
        }
        if ws || matches!(b, b'/' | b'>' | b'=' | 0 | b'"' | b'\'' | b'<') {
            c |= ATTR_NAME_STOP;
        }
        if ws || matches!(b, b'/' | b'>' | b'=' | 0) {
            c |= ATTR_NAME_STOP_QUIET;
        }
        if matches!(b, b'"' | b'\'' | b'<') {
            c |= ATTR_NAME_ERROR;
        }
        if ws || matches!(b, b'&' | b'>' | 0 | b'"' | b'\'' | b'<' | b'=' | b'`') {
            c |= UNQUOTED_STOP;
        }
        if b.is_ascii_uppercase() {
            c |= UPPER;
        }
        t[i] = c;
        i += 1;
    }
    t
};

// Every class holds ASCII bytes only: a scan that stops at a byte of a
// class has stopped on a character boundary (see `Run`).
const _: () = {
    let mut i = 0x80;
    while i < 256 {
        assert!(CLASS[i] == 0);
        i += 1;
    }
};

/// The offset of the first byte at or after `p` that is not ASCII
/// whitespace, or `bytes.len()`.
#[inline(always)]
pub(crate) fn skip_whitespace(bytes: &[u8], mut p: usize) -> usize {
    while p < bytes.len() && CLASS[bytes[p] as usize] & WS != 0 {
        p += 1;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_whitespace() {
        for b in 0..=255u8 {
            let ws = is_ascii_whitespace(b);
            assert_eq!(ws, b.is_ascii_whitespace(), "{b:#04x}");
            assert_eq!(ws, CLASS[b as usize] & WS != 0, "{b:#04x}");
            assert_eq!(ws, ByteSet::whitespace_and(b"").contains(b), "{b:#04x}");
            #[cfg(feature = "extract")]
            assert_eq!(ws, is_ascii_whitespace_char(char::from(b)), "{b:#04x}");
        }
        #[cfg(feature = "extract")]
        assert!(!is_ascii_whitespace_char('\u{a0}') && !is_ascii_whitespace_char('\u{120}'));
        assert_eq!(skip_whitespace(b" \t\n\x0c\rx ", 0), 5);
        assert_eq!(skip_whitespace(b"  ", 1), 2);
        let set = ByteSet::whitespace_and(b">\0");
        assert!(set.contains(b'>') && set.contains(0) && set.contains(b'\r'));
        assert!(!set.contains(0x0B) && !set.contains(b'/'));
    }

    /// On every valid lead byte, the length of its character; elsewhere 1,
    /// each such byte one U+FFFD to the decoder.
    #[test]
    fn utf8_widths() {
        for b in 0..=255u8 {
            let width = utf8_width(b);
            // The shortest well-formed sequence with this lead byte, if any.
            let mut seq = vec![b];
            seq.extend(match b {
                0xE0 => &[0xA0, 0x80][..],
                0xF0 => &[0x90, 0x80, 0x80][..],
                _ => &[0x80, 0x80, 0x80][..],
            });
            let valid = (1..=4).find_map(|n| {
                let s = core::str::from_utf8(seq.get(..n)?).ok()?;
                Some(s.chars().next()?.len_utf8())
            });
            match valid {
                Some(len) => assert_eq!(width, len, "{b:#04x}"),
                None => assert_eq!(width, 1, "{b:#04x}"),
            }
        }
    }
}
