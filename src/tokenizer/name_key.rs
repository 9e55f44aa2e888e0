//! Keys for the hash tables a hostile page can grow: a tag's attribute
//! names (for duplicate detection) and the open elements of foreign content
//! (for end tags). Both must stay O(1) per lookup however a page is built,
//! and both sit on paths real pages take, so the key is cheap to make.
//!
//! A name of up to seven bytes (nearly every element and attribute name)
//! is its own key: its bytes and its length packed into a `u64`, exact, no
//! hashing. A longer name is hashed (foldhash, randomly seeded per process,
//! so a page cannot aim for collisions), with the top byte set apart so it
//! never equals a packed key. Two long names may still share a key: the
//! tables check the name itself before they trust one.

use core::hash::BuildHasher;

use foldhash::fast::RandomState;

/// Makes [`NameKey`]s: holds the seed for long names.
#[derive(Clone, Debug, Default)]
pub(super) struct NameKeys {
    seed: RandomState,
}

/// The key of a name: see the module docs.
pub(super) type NameKey = u64;

/// What a hash table keyed by [`NameKey`]s hashes its keys with.
pub(super) type KeyHasher = RandomState;

impl NameKeys {
    /// The key of `name`.
    #[inline]
    pub(super) fn key(&self, name: &str) -> NameKey {
        let bytes = name.as_bytes();
        if bytes.len() < 8 {
            packed(bytes)
        } else {
            self.seed.hash_one(bytes) | LONG
        }
    }
}

/// The top byte of the key of a name of eight bytes or more.
const LONG: NameKey = 0xFF << 56;

/// Whether `key` is the key of a long name (hashed, so not exact): the top
/// bit, as a short name's top byte is its length, below 8. (The other bits
/// of the top byte are free for a table to flip: the element stack marks
/// HTML names with one.)
#[inline]
pub(super) fn is_long(key: NameKey) -> bool {
    key >> 63 != 0
}

/// The key of a name shorter than eight bytes: its bytes, little-endian,
/// and its length in the top byte. (A byte loop: a `copy_from_slice` of so
/// few bytes is a call to `memcpy`, which costs more than the loop.)
#[inline]
pub(super) const fn packed(bytes: &[u8]) -> NameKey {
    let mut key = (bytes.len() as u64) << 56;
    let mut i = 0;
    while i < bytes.len() {
        key |= (bytes[i] as u64) << (8 * i);
        i += 1;
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_are_exact_and_long_names_apart() {
        let keys = NameKeys::default();
        let short = ["", "a", "ab", "a\u{e9}", "abcdefg", "g", "svg"];
        for a in short {
            for b in short {
                assert_eq!(keys.key(a) == keys.key(b), a == b, "{a:?} {b:?}");
            }
            assert_ne!(keys.key(a) >> 56, 0xFF);
        }
        assert_eq!(keys.key("foreignobject"), keys.key("foreignobject"));
        assert!(is_long(keys.key("abcdefgh")) && !is_long(keys.key("abcdefg")));
        assert_eq!(keys.key("mtext"), packed(b"mtext"));
    }
}
