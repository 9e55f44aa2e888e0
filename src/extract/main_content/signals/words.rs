//! The words of a `class` or `id` value, and what they say: a value is
//! split into words, each looked up by its hash among the known words
//! (and, when long, by the known parts it starts or ends with).

use super::vocabulary::{PARTS, WORDS};
use super::{Signals, u64_at};

/// The most bytes of one `class` or `id` value looked at: the words that
/// say what a part is come first, and a hostile value costs no more.
const VALUE_BYTES: usize = 256;

/// The longest word looked up (longer ones are no known word).
const WORD_BYTES: usize = 24;

/// The signals of the words of a `class` or `id` value.
pub(crate) fn of_words(value: &str) -> Signals {
    let bytes = &value.as_bytes()[..value.len().min(VALUE_BYTES)];
    let n = bytes.len();
    let mut signals = Signals::NONE;
    // Where the word being read starts.
    let mut start = 0;
    let mut i = 0;
    loop {
        // Most bytes: a lowercase letter or a digit, which goes on the
        // word; skipped 8 at a time.
        while i + 8 <= n {
            let other = not_lower_or_digit(u64_at(bytes, i));
            if other != 0 {
                i += (other.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        if i + 8 > n {
            while i < n && BYTE_CLASS[bytes[i] as usize] & LOWER_OR_DIGIT != 0 {
                i += 1;
            }
            if i == n {
                break;
            }
        }
        let class = BYTE_CLASS[bytes[i] as usize];
        // A word ends at a byte that is no letter or digit, and before an
        // uppercase letter that follows a lowercase one (`mainNav`).
        let previous_lower = i > 0 && BYTE_CLASS[bytes[i - 1] as usize] == LOWER;
        if class == OTHER || previous_lower {
            if i > start {
                signals |= of_word(&bytes[start..i]);
            }
            start = i + usize::from(class == OTHER);
        }
        i += 1;
    }
    if n > start {
        signals |= of_word(&bytes[start..]);
    }
    signals
}

/// The high bit of each byte of `x` that is no lowercase ASCII letter
/// nor digit.
#[inline(always)]
fn not_lower_or_digit(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x80 * ONES;
    // Each byte's low seven bits: adding `0x80 - lo` sets the high bit
    // when the byte is at least `lo`, adding `0x7F - hi` when it is past
    // `hi` (neither carries out of the byte).
    let t = x & !HIGH;
    let within = |lo: u64, hi: u64| {
        (t.wrapping_add((0x80 - lo) * ONES)) & !(t.wrapping_add((0x7F - hi) * ONES))
    };
    let ok = (within(0x61, 0x7A) | within(0x30, 0x39)) & !x & HIGH;
    !ok & HIGH
}

/// Byte classes of [`of_words`].
const OTHER: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const DIGIT: u8 = 3;
/// The bit [`LOWER`] and [`DIGIT`] share.
const LOWER_OR_DIGIT: u8 = LOWER & DIGIT;

/// The class of every byte.
static BYTE_CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = if c.is_ascii_lowercase() {
            LOWER
        } else if c.is_ascii_uppercase() {
            UPPER
        } else if c.is_ascii_digit() {
            DIGIT
        } else {
            OTHER
        };
        b += 1;
    }
    table
};

/// The longest part of [`PARTS`].
const PART_BYTES: usize = 10;

/// The signals of one word (letters and digits): its own, or those of the
/// known words it starts or ends with, if it is long.
#[inline]
fn of_word(word: &[u8]) -> Signals {
    let len = word.len();
    if len > WORD_BYTES {
        return Signals::NONE;
    }
    let own = known(hash(word));
    if !own.is_empty() || len < 6 {
        return own;
    }
    // The parts it may start or end with, by its first two bytes and its
    // last two (most long words of a page, its ids, start and end with no
    // part's: then nothing more), each compared.
    let mut signals = Signals::NONE;
    let mut parts = |mut candidates: u32, at_end: bool| {
        while candidates != 0 {
            let (part, part_signals) = PARTS[candidates.trailing_zeros() as usize];
            candidates &= candidates - 1;
            let n = part.len();
            if n >= len {
                continue;
            }
            let piece = if at_end { &word[len - n..] } else { &word[..n] };
            if piece.eq_ignore_ascii_case(part) {
                signals |= part_signals;
            }
        }
    };
    parts(PART_STARTS.of(word[0], word[1]), false);
    parts(PART_ENDS.of(word[len - 1], word[len - 2]), true);
    signals
}

/// The parts of [`PARTS`] (a bit each) by a pair of letters, by their
/// low five bits (a letter's case aside; a digit or other byte may share
/// a letter's bits, which only gives a part more to compare).
struct Pairs([u32; 1024]);

impl Pairs {
    /// The parts by their first two bytes (`last` false), or by their
    /// last two, the last first (`last` true).
    const fn of_parts(last: bool) -> Pairs {
        assert!(PARTS.len() <= 32);
        let mut parts = [0u32; 1024];
        let mut i = 0;
        while i < PARTS.len() {
            let part = PARTS[i].0;
            let n = part.len();
            assert!(n <= PART_BYTES);
            let (a, b) = if last {
                (part[n - 1], part[n - 2])
            } else {
                (part[0], part[1])
            };
            parts[Pairs::index(a, b)] |= 1 << i;
            i += 1;
        }
        Pairs(parts)
    }

    /// Where the pair `a`, `b` is.
    #[inline(always)]
    const fn index(a: u8, b: u8) -> usize {
        ((a as usize & 31) << 5) | (b as usize & 31)
    }

    /// The parts of the pair `a`, `b`.
    #[inline(always)]
    fn of(&self, a: u8, b: u8) -> u32 {
        self.0[Pairs::index(a, b)]
    }
}

/// The parts by their first two bytes.
static PART_STARTS: Pairs = Pairs::of_parts(false);

/// The parts by their last two bytes, the last first.
static PART_ENDS: Pairs = Pairs::of_parts(true);

/// How many slots [`TABLE`] has: a power of two, at least four times the
/// known words, so that probes are short.
const SLOTS: usize = 1024;

/// The hash of a word of letters and digits (at most [`WORD_BYTES`]),
/// lowercased: how a word is looked up. Its bytes read 8 at a time (the
/// last 8 overlapping the ones before; a shorter word as two overlapping
/// 4-byte words, or its first, middle and last byte), each lowercased by
/// setting its bit 0x20 (which a digit has), each word mixed in by
/// multiplying, and the length.
#[inline(always)]
const fn hash(word: &[u8]) -> u64 {
    const K1: u64 = 0x9e37_79b9_7f4a_7c15;
    const K2: u64 = 0xff51_afd7_ed55_8ccd;
    const LOWER: u64 = 0x2020_2020_2020_2020;
    let n = word.len();
    let mut h = (n as u64).wrapping_mul(K2);
    if n < 4 {
        if n > 0 {
            let x = (word[0] as u64) | (word[n / 2] as u64) << 8 | (word[n - 1] as u64) << 16;
            h ^= x | 0x20_2020;
        }
    } else if n < 8 {
        h ^= (read4(word, 0) | read4(word, n - 4) << 32) | LOWER;
    } else {
        let mut at = 0;
        while at + 8 < n {
            h = (h ^ (read8(word, at) | LOWER))
                .wrapping_mul(K1)
                .rotate_left(29);
            at += 8;
        }
        h ^= read8(word, n - 8) | LOWER;
    }
    let h = h.wrapping_mul(K1);
    h ^ (h >> 32)
}

/// The 4 bytes of `word` from `at`, in a `const fn`.
#[inline(always)]
const fn read4(word: &[u8], at: usize) -> u64 {
    u32::from_le_bytes([word[at], word[at + 1], word[at + 2], word[at + 3]]) as u64
}

/// The 8 bytes of `word` from `at`, in a `const fn`.
#[inline(always)]
const fn read8(word: &[u8], at: usize) -> u64 {
    u64::from_le_bytes([
        word[at],
        word[at + 1],
        word[at + 2],
        word[at + 3],
        word[at + 4],
        word[at + 5],
        word[at + 6],
        word[at + 7],
    ])
}

/// The known words by the hash of their bytes, in open addressing (a
/// key of 0 is an empty slot). A word is known by its 64-bit hash alone:
/// two of the few hundred words sharing one is ruled out when the table is
/// built, and a page's word taken for a known one by chance is one in
/// 2^64 / 300.
static TABLE: [(u64, Signals); SLOTS] = {
    let mut table = [(0u64, Signals::NONE); SLOTS];
    let mut g = 0;
    while g < WORDS.len() {
        let (signals, words) = WORDS[g];
        let mut w = 0;
        while w < words.len() {
            let bytes = words[w].as_bytes();
            assert!(bytes.len() <= WORD_BYTES);
            let hash = hash(bytes);
            assert!(hash != 0);
            let mut slot = hash as usize % SLOTS;
            while table[slot].0 != 0 {
                // A word listed twice would be a mistake in the list.
                assert!(table[slot].0 != hash);
                slot = (slot + 1) % SLOTS;
            }
            table[slot] = (hash, signals);
            w += 1;
        }
        g += 1;
    }
    table
};

/// The signals of the known word with hash `hash`, if it is one.
#[inline]
fn known(hash: u64) -> Signals {
    let mut slot = hash as usize % SLOTS;
    loop {
        let (key, signals) = TABLE[slot];
        if key == hash {
            return signals;
        }
        if key == 0 {
            return Signals::NONE;
        }
        slot = (slot + 1) % SLOTS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_split_and_matched() {
        assert_eq!(of_words("site-nav"), Signals::NAV);
        assert_eq!(of_words("mainNav"), Signals::CONTENT | Signals::NAV);
        assert_eq!(of_words("  Footer__links "), Signals::FOOTER);
        assert_eq!(of_words("comment_list commentlist"), Signals::COMMENT);
        assert_eq!(of_words("sitenavigation"), Signals::NAV);
        assert_eq!(of_words("article-body"), Signals::ARTICLE | Signals::BODY);
        assert_eq!(of_words("address"), Signals::NONE);
        assert_eq!(of_words("adsbygoogle ad"), Signals::AD);
        assert_eq!(of_words(""), Signals::NONE);
        // A word past the longest looked up is no word.
        assert_eq!(of_words(&"nav".repeat(20)), Signals::NONE);
    }

    /// [`of_words`] by a byte loop: the definition.
    fn of_words_by_bytes(value: &str) -> Signals {
        let bytes = &value.as_bytes()[..value.len().min(VALUE_BYTES)];
        let mut signals = Signals::NONE;
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let class = BYTE_CLASS[b as usize];
            if class & LOWER_OR_DIGIT != 0 {
                continue;
            }
            let previous_lower = i > 0 && BYTE_CLASS[bytes[i - 1] as usize] == LOWER;
            if class == OTHER || previous_lower {
                if i > start {
                    signals |= of_word(&bytes[start..i]);
                }
                start = i + usize::from(class == OTHER);
            }
        }
        if bytes.len() > start {
            signals |= of_word(&bytes[start..]);
        }
        signals
    }

    /// Words skipped 8 bytes at a time end where the byte loop ends them:
    /// known words and parts at each offset, after and before each kind
    /// of byte.
    #[test]
    fn words_by_blocks_are_words_by_bytes() {
        let words = ["nav", "mainNav", "footer", "commentlist", "sidebar", "x"];
        for pad in 0..=17 {
            for word in words {
                for sep in ["-", " ", "A", "9", "\u{e9}", "_", "Z", "b"] {
                    for lead in ["", "a", "7", "Q"] {
                        let value = format!(
                            "{lead}{}{sep}{word}{sep}{}",
                            "q".repeat(pad),
                            "k".repeat(pad % 9)
                        );
                        assert_eq!(of_words(&value), of_words_by_bytes(&value), "{value}");
                        let upper = value.to_uppercase();
                        assert_eq!(of_words(&upper), of_words_by_bytes(&upper), "{upper}");
                    }
                }
            }
        }
        let long = "a".repeat(300) + "-nav";
        assert_eq!(of_words(&long), of_words_by_bytes(&long));
    }

    /// Every listed word is found, alone and inside a value.
    #[test]
    fn every_known_word_is_found() {
        for &(signals, words) in WORDS {
            for word in words {
                assert_eq!(of_words(word), signals, "{word}");
                assert!(of_words(&format!("x-{word} y")).any(signals), "{word}");
            }
        }
    }

    /// Every part is found at the start and at the end of a longer word,
    /// in either case.
    #[test]
    fn every_part_is_found_inside_a_word() {
        for &(part, signals) in PARTS {
            let part = core::str::from_utf8(part).expect("ASCII");
            for word in [format!("{part}qqqqqq"), format!("qqqqqq{part}")] {
                assert!(of_words(&word).any(signals), "{word}");
                assert!(of_words(&word.to_ascii_uppercase()).any(signals), "{word}");
            }
        }
    }
}
