//! [`Utf8Check`]: UTF-8 detection over an input given in pieces, for an
//! input longer than a chunk whose encoding nothing else decides.

/// Checks bytes given in pieces for UTF-8 validity (a character may be cut
/// between pieces) and for a non-ASCII byte.
#[derive(Default)]
pub(super) struct Utf8Check {
    /// The start of a character cut by the end of the last piece.
    tail: Vec<u8>,
    invalid: bool,
    non_ascii: bool,
}

impl Utf8Check {
    /// Takes in the next piece; false once the bytes are known invalid.
    pub(super) fn push(&mut self, mut bytes: &[u8]) -> bool {
        if self.invalid {
            return false;
        }
        if let Some(&lead) = self.tail.first() {
            // Complete the cut character (its lead byte says how long it
            // is; a prefix `from_utf8` left over starts a valid one).
            let need = match lead {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            let take = (need - self.tail.len()).min(bytes.len());
            self.tail.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.tail.len() < need {
                return true;
            }
            self.invalid = core::str::from_utf8(&self.tail).is_err();
            self.tail.clear();
            if self.invalid {
                return false;
            }
        }
        self.non_ascii |= !bytes.is_ascii();
        match core::str::from_utf8(bytes) {
            Ok(_) => true,
            Err(e) if e.error_len().is_none() => {
                self.tail.extend_from_slice(&bytes[e.valid_up_to()..]);
                true
            }
            Err(_) => {
                self.invalid = true;
                false
            }
        }
    }

    /// Whether all the bytes were valid UTF-8, with some non-ASCII byte.
    pub(super) fn finish(&self) -> bool {
        !self.invalid && self.tail.is_empty() && self.non_ascii
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_check_across_pieces() {
        let check = |pieces: &[&[u8]]| {
            let mut c = Utf8Check::default();
            for p in pieces {
                c.push(p);
            }
            c.finish()
        };
        let text = "caf\u{e9} \u{20ac} \u{1F600}".as_bytes();
        assert!(check(&[text]));
        for cut in 0..=text.len() {
            assert!(check(&[&text[..cut], &text[cut..]]), "cut at {cut}");
            let mut bad = text.to_vec();
            bad.insert(cut, 0xFF);
            assert!(!check(&[&bad[..cut], &bad[cut..]]), "0xFF at {cut}");
        }
        let bytes: Vec<&[u8]> = text.chunks(1).collect();
        assert!(check(&bytes));
        assert!(!check(&[b"plain ascii"]), "no non-ASCII byte");
        assert!(!check(&[b"cut \xE2\x82"]), "a cut character at the end");
        assert!(!check(&[b"\xE2", b"\x82A"]), "an invalid continuation");
    }
}
