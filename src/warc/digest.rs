//! `WARC-Block-Digest` and `WARC-Payload-Digest` values: `sha1:` and the
//! SHA-1 of the bytes in RFC 4648 base32, as Common Crawl, Heritrix,
//! warcio and the CDX indexes write them (WARC 1.1's
//! [`WARC-Block-Digest`](https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#warc-block-digest) names the form
//! `algorithm ":" digest-value`; SHA-1 in base32 is the convention).

use data_encoding::BASE32;
use sha1::{Digest, Sha1};

/// The digest of `bytes` as a WARC digest field writes it:
/// `sha1:` and 32 base32 letters and digits.
///
/// ```
/// use htmltok::warc::sha1_digest;
///
/// assert_eq!(sha1_digest(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
/// ```
pub fn sha1_digest(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(37);
    out.push_str("sha1:");
    BASE32.encode_append(&Sha1::digest(bytes), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known answers: the SHA-1 test vectors of FIPS 180 and RFC 3174 (as
    /// hex), base32 per RFC 4648 (its own test vectors below).
    #[test]
    fn known_answers() {
        let hex = |s: &str| -> Vec<u8> {
            (0..s.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
                .collect()
        };
        for (input, sha1) in [
            (&b"abc"[..], "a9993e364706816aba3e25717850c26c9cd0d89d"),
            (b"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            (
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
            ),
        ] {
            let want = format!("sha1:{}", BASE32.encode(&hex(sha1)));
            assert_eq!(sha1_digest(input), want);
        }
        assert_eq!(sha1_digest(b"abc"), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
        // RFC 4648's base32 test vectors
        // (https://www.rfc-editor.org/rfc/rfc4648#section-10).
        for (input, want) in [
            ("", ""),
            ("f", "MY======"),
            ("fo", "MZXQ===="),
            ("foo", "MZXW6==="),
            ("foob", "MZXW6YQ="),
            ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI======"),
        ] {
            assert_eq!(BASE32.encode(input.as_bytes()), want);
        }
    }

    #[test]
    fn a_million_a() {
        // FIPS 180's third vector: a million times `a`.
        let input = vec![b'a'; 1_000_000];
        let digest = sha1_digest(&input);
        let want = BASE32.encode(&[
            0x34, 0xaa, 0x97, 0x3c, 0xd4, 0xc4, 0xda, 0xa4, 0xf6, 0x1e, 0xeb, 0x2b, 0xdb, 0xad,
            0x27, 0x31, 0x65, 0x34, 0x01, 0x6f,
        ]);
        assert_eq!(digest, format!("sha1:{want}"));
    }
}
