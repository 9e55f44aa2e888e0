//! Decoding to UTF-8: zero-copy when the bytes already are the text, one
//! bounded copy otherwise.

use std::borrow::Cow;

use encoding_rs::{CoderResult, Decoder, Encoding, UTF_8};

use super::{DecodeError, canonical_label};
use crate::memory_limit::{MemoryLimitKind, MemoryLimiter};

/// Size of the stack buffer the decoder writes into before the text is
/// appended to the output. Any decoder makes progress with this much room.
const SCRATCH: usize = 8 * 1024;

/// Decodes `bytes` (the input after its BOM, if any) from `encoding`, with
/// malformed sequences replaced by U+FFFD as the Encoding Standard says.
///
/// Borrows when nothing needs to change: valid UTF-8 in UTF-8, ASCII-only
/// bytes in an ASCII-compatible encoding. Otherwise the decoded text is
/// built in a `String` whose capacity never exceeds `limit`; past it, the
/// rest is decoded into a fixed buffer only to count the bytes, so the error
/// can say how much would have been needed. Returns the text and whether a
/// malformed sequence was replaced.
pub(crate) fn decode<'a>(
    bytes: &'a [u8],
    encoding: &'static Encoding,
    limit: Option<usize>,
) -> Result<(Cow<'a, str>, bool), DecodeError> {
    if encoding == UTF_8 || (encoding.is_ascii_compatible() && bytes.is_ascii()) {
        if let Ok(text) = core::str::from_utf8(bytes) {
            return Ok((Cow::Borrowed(text), false));
        }
    }
    if bytes.is_empty() {
        return Ok((Cow::Borrowed(""), false));
    }

    let mut limiter = MemoryLimiter::new(
        MemoryLimitKind::Decode {
            from: canonical_label(encoding),
        },
        limit,
    );
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = String::new();
    // A first guess of one byte of text per byte of input (exact for ASCII,
    // close for UTF-8 with a few errors); growth below projects from the
    // ratio seen so far.
    grow(
        &mut out,
        bytes.len().min(limiter.limit()),
        encoding,
        &mut limiter,
    )?;

    let mut buf = [0u8; SCRATCH];
    let scratch = match core::str::from_utf8_mut(&mut buf) {
        Ok(scratch) => scratch,
        Err(_) => unreachable!("zero bytes are UTF-8"),
    };
    let mut src = bytes;
    let mut had_errors = false;
    loop {
        let (result, read, written, errors) = decoder.decode_to_str(src, scratch, true);
        had_errors |= errors;
        src = &src[read..];
        let needed_now = out.len() + written;
        if needed_now > out.capacity() {
            // The text's one buffer grows: what it needs beyond its
            // capacity is charged, and refused past the limit.
            if !limiter.fits(needed_now - out.capacity()) {
                let rest = count_rest(&mut decoder, src, &result, scratch);
                return Err(DecodeError::MemoryLimit(
                    limiter.error(needed_now.saturating_add(rest), None),
                ));
            }
            let consumed = bytes.len() - src.len();
            let projected = project(needed_now, consumed, bytes.len());
            let target = projected.max(needed_now).min(limiter.limit());
            grow(&mut out, target, encoding, &mut limiter)?;
        }
        out.push_str(&scratch[..written]);
        if result == CoderResult::InputEmpty {
            return Ok((Cow::Owned(out), had_errors));
        }
    }
}

/// Estimates the final length from `produced` bytes of text for `consumed`
/// of `total` bytes of input, with 1/16 to spare.
fn project(produced: usize, consumed: usize, total: usize) -> usize {
    if consumed == 0 {
        return produced.saturating_mul(2);
    }
    let estimate = produced as u128 * total as u128 / consumed as u128;
    let estimate = estimate + estimate / 16 + 16;
    usize::try_from(estimate).unwrap_or(usize::MAX)
}

/// Makes the capacity of `out` at least `target` bytes, exactly, charging
/// `limiter` with the growth and reporting an allocation failure as an
/// error rather than aborting.
fn grow(
    out: &mut String,
    target: usize,
    encoding: &'static Encoding,
    limiter: &mut MemoryLimiter,
) -> Result<(), DecodeError> {
    if target <= out.capacity() {
        return Ok(());
    }
    let before = out.capacity();
    out.try_reserve_exact(target - out.len())
        .map_err(|_| DecodeError::AllocationFailed {
            encoding,
            requested: target,
        })?;
    // Never past the limit: `target` is at most the limit, the one buffer's
    // capacity is all that is charged.
    limiter.charge(out.capacity() - before);
    Ok(())
}

/// Decodes what is left of the input only to count the UTF-8 bytes it makes.
fn count_rest(
    decoder: &mut Decoder,
    mut src: &[u8],
    last: &CoderResult,
    scratch: &mut str,
) -> usize {
    if *last == CoderResult::InputEmpty {
        return 0;
    }
    let mut total = 0usize;
    loop {
        let (result, read, written, _) = decoder.decode_to_str(src, scratch, true);
        src = &src[read..];
        total = total.saturating_add(written);
        if result == CoderResult::InputEmpty {
            return total;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{SHIFT_JIS, UTF_16LE, WINDOWS_1252};

    #[test]
    fn borrows_valid_utf8_and_ascii() {
        let bytes = "héllo".as_bytes();
        let (text, errors) = decode(bytes, UTF_8, Some(0)).unwrap();
        assert!(matches!(text, Cow::Borrowed(_)) && !errors);
        assert_eq!(text.as_ptr(), bytes.as_ptr());
        let (text, _) = decode(b"plain ascii", SHIFT_JIS, Some(0)).unwrap();
        assert!(matches!(text, Cow::Borrowed("plain ascii")));
        // Not ASCII-compatible: always decoded.
        let (text, _) = decode(b"a\0", UTF_16LE, None).unwrap();
        assert!(matches!(text, Cow::Owned(_)));
        assert_eq!(text, "a");
    }

    #[test]
    fn exact_limit_fits_and_one_less_does_not() {
        let bytes = b"caf\xe9 \x80 na\xefve";
        let expected = "café € naïve";
        let (text, errors) = decode(bytes, WINDOWS_1252, Some(expected.len())).unwrap();
        assert_eq!((text.as_ref(), errors), (expected, false));
        let err = decode(bytes, WINDOWS_1252, Some(expected.len() - 1)).unwrap_err();
        match err {
            DecodeError::MemoryLimit(e) => {
                assert_eq!((e.limit, e.needed), (expected.len() - 1, expected.len()));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn large_input_counts_needed_exactly() {
        // Far more than the scratch buffer, so the limit is hit mid-way.
        let bytes: Vec<u8> = (0..100_000)
            .map(|i| if i % 3 == 0 { 0xE9 } else { b'a' })
            .collect();
        let full = WINDOWS_1252.decode_without_bom_handling(&bytes).0.len();
        let err = decode(&bytes, WINDOWS_1252, Some(20_000)).unwrap_err();
        assert!(matches!(err, DecodeError::MemoryLimit(e) if e.needed == full));
        let (text, _) = decode(&bytes, WINDOWS_1252, Some(full)).unwrap();
        assert_eq!(text.len(), full);
        let (text, _) = decode(&bytes, WINDOWS_1252, None).unwrap();
        assert_eq!(text.len(), full);
    }
}
