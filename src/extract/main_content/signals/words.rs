//! The words of a `class` or `id` value, and what they say: a value is
//! split into words, each looked up by its hash among the known words
//! (and, when long, by the known parts it starts or ends with).

use super::Signals;
use super::vocabulary::{PARTS, WORDS};

/// The most bytes of one `class` or `id` value looked at: the words that
/// say what a part is come first, and a hostile value costs no more.
const VALUE_BYTES: usize = 256;

/// The longest word looked up (longer ones are no known word).
const WORD_BYTES: usize = 24;

/// The signals of the words of a `class` or `id` value.
pub(crate) fn of_words(value: &str) -> Signals {
    let bytes = &value.as_bytes()[..value.len().min(VALUE_BYTES)];
    let mut signals = Signals::NONE;
    // The word being read: where it starts, and the hash of its bytes
    // lowercased.
    let mut start = 0;
    let mut hash = FNV_OFFSET;
    for (i, &b) in bytes.iter().enumerate() {
        let class = BYTE_CLASS[b as usize];
        // Most bytes: a lowercase letter or a digit, which goes on the
        // word.
        if class & LOWER_OR_DIGIT != 0 {
            hash = fnv(hash, b);
            continue;
        }
        // A word ends at a byte that is no letter or digit, and before an
        // uppercase letter that follows a lowercase one (`mainNav`).
        let previous_lower = i > 0 && BYTE_CLASS[bytes[i - 1] as usize] == LOWER;
        if class == OTHER || previous_lower {
            if i > start {
                signals |= of_word(hash, &bytes[start..i]);
            }
            start = i + usize::from(class == OTHER);
            hash = FNV_OFFSET;
        }
        if class == UPPER {
            hash = fnv(hash, b | 0x20);
        }
    }
    if bytes.len() > start {
        signals |= of_word(hash, &bytes[start..]);
    }
    signals
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

/// The signals of one word (`hash` is the hash of its bytes lowercased):
/// its own, or those of the known words it starts or ends with, if it is
/// long.
#[inline]
fn of_word(hash: u64, word: &[u8]) -> Signals {
    let len = word.len();
    if len > WORD_BYTES {
        return Signals::NONE;
    }
    let own = known(hash);
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

/// FNV-1a, 64 bits, over lowercase bytes: how a word is looked up.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// One step of FNV-1a.
#[inline(always)]
const fn fnv(hash: u64, byte: u8) -> u64 {
    (hash ^ byte as u64).wrapping_mul(FNV_PRIME)
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
            let mut hash = FNV_OFFSET;
            let mut i = 0;
            while i < bytes.len() {
                hash = fnv(hash, bytes[i]);
                i += 1;
            }
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
