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
    let mut previous_lower = false;
    for (i, &b) in bytes.iter().enumerate() {
        let class = BYTE_CLASS[b as usize];
        // A word ends at a byte that is no letter or digit, and before an
        // uppercase letter that follows a lowercase one (`mainNav`).
        if class == OTHER || (class == UPPER && previous_lower) {
            if i > start {
                signals |= of_word(hash, &bytes[start..i]);
            }
            start = i + usize::from(class == OTHER);
            hash = FNV_OFFSET;
        }
        previous_lower = class == LOWER;
        if class != OTHER {
            hash = fnv(hash, b | (0x20 * u8::from(class == UPPER)));
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
    // Its starts and its ends of the lengths a part has, by their hashes
    // (an end hashed from its last byte back); only where its first two
    // bytes begin a part, or its last two end one (most long words of a
    // page, its ids, do neither: no lookup then).
    let starts = PART_STARTS.has(word[0], word[1]);
    let ends = PART_ENDS.has(word[len - 1], word[len - 2]);
    if !starts && !ends {
        return Signals::NONE;
    }
    let mut signals = Signals::NONE;
    let (mut prefix, mut suffix) = (FNV_OFFSET, SUFFIX_OFFSET);
    for k in 1..len.min(PART_BYTES + 1) {
        prefix = fnv(prefix, word[k - 1].to_ascii_lowercase());
        suffix = fnv(suffix, word[len - k].to_ascii_lowercase());
        if PART_LENGTH[k] {
            if starts {
                signals |= part(prefix);
            }
            if ends {
                signals |= part(suffix);
            }
        }
    }
    signals
}

/// A set of pairs of letters, by their low five bits (a letter's case
/// aside; a digit or other byte may share a letter's bits, which only
/// lets more words through to the lookup).
struct Pairs([u64; 16]);

impl Pairs {
    /// The pairs that begin the parts (`last` false), or end them, the
    /// last byte first (`last` true).
    const fn of_parts(last: bool) -> Pairs {
        let mut bits = [0u64; 16];
        let mut i = 0;
        while i < PARTS.len() {
            let part = PARTS[i].0;
            let n = part.len();
            let (a, b) = if last {
                (part[n - 1], part[n - 2])
            } else {
                (part[0], part[1])
            };
            let at = Pairs::index(a, b);
            bits[at / 64] |= 1 << (at % 64);
            i += 1;
        }
        Pairs(bits)
    }

    /// Where the pair `a`, `b` is.
    #[inline(always)]
    const fn index(a: u8, b: u8) -> usize {
        ((a as usize & 31) << 5) | (b as usize & 31)
    }

    /// Whether the pair `a`, `b` is in the set.
    #[inline(always)]
    fn has(&self, a: u8, b: u8) -> bool {
        let at = Pairs::index(a, b);
        self.0[at / 64] & (1 << (at % 64)) != 0
    }
}

/// The first two bytes of every part.
static PART_STARTS: Pairs = Pairs::of_parts(false);

/// The last two bytes of every part, the last first.
static PART_ENDS: Pairs = Pairs::of_parts(true);

/// Where hashing an end of a word starts, told apart from the starts.
const SUFFIX_OFFSET: u64 = FNV_OFFSET ^ 0x5bd1_e995;

/// Whether some part is `k` bytes long.
static PART_LENGTH: [bool; PART_BYTES + 1] = {
    let mut table = [false; PART_BYTES + 1];
    let mut i = 0;
    while i < PARTS.len() {
        table[PARTS[i].0.len()] = true;
        i += 1;
    }
    table
};

/// The parts by the hash of their bytes (as a word's start) and of their
/// bytes from the last back (as its end), as [`TABLE`] holds the known
/// words.
static PART_TABLE: [(u64, Signals); 256] = {
    let mut table = [(0u64, Signals::NONE); 256];
    let mut i = 0;
    while i < 2 * PARTS.len() {
        let (part, signals) = PARTS[i / 2];
        assert!(part.len() <= PART_BYTES);
        let mut hash = if i % 2 == 0 {
            FNV_OFFSET
        } else {
            SUFFIX_OFFSET
        };
        let mut j = 0;
        while j < part.len() {
            hash = fnv(
                hash,
                if i % 2 == 0 {
                    part[j]
                } else {
                    part[part.len() - 1 - j]
                },
            );
            j += 1;
        }
        let mut slot = hash as usize % 256;
        while table[slot].0 != 0 {
            assert!(table[slot].0 != hash);
            slot = (slot + 1) % 256;
        }
        table[slot] = (hash, signals);
        i += 1;
    }
    table
};

/// The signals of the part with hash `hash`, if it is one.
#[inline]
fn part(hash: u64) -> Signals {
    let mut slot = hash as usize % 256;
    loop {
        let (key, signals) = PART_TABLE[slot];
        if key == hash {
            return signals;
        }
        if key == 0 {
            return Signals::NONE;
        }
        slot = (slot + 1) % 256;
    }
}

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
