//! Runs of input found by a scan, as string slices, without checking again
//! where they end.
//!
//! The scans of this module's siblings stop on an ASCII byte or at the end
//! of the input, and in UTF-8 both are character boundaries; so of
//! `input[from..end]` only `from` needs checking. Checking both ends of
//! every name and value again in `&input[start..end]` cost about 2% of the
//! tokenizer's instructions (BENCHMARKS.md).

use super::class::{self, CLASS};
use super::find::{find_class, find_class_seen, find2};

/// A run of input a scan skipped, and where it stopped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run<'a> {
    /// The input from where the scan started to where it stopped.
    pub(crate) text: &'a str,
    /// Where it stopped: the offset of a byte of the set it looked
    /// for, or the input's length.
    pub(crate) end: usize,
}

/// The run from `from` to the first byte at or after it whose class has
/// any of the bits in `mask`, and whether the run holds an ASCII
/// uppercase letter. Panics if `from` is past the end of `input` or not
/// on a character boundary.
#[inline(always)]
pub(crate) fn class_run_upper(mask: u8, input: &str, from: usize) -> (Run<'_>, bool) {
    let (run, seen) = class_run_seen(mask, input, from);
    (run, seen & class::UPPER != 0)
}

/// [`class_run_seen`] for a run whose first byte (at `from`, which must
/// be in the input) the caller has seen not to be in `mask`: a tag
/// name's letter. The scan starts after it, which saves a turn of the
/// loop on names of two or three letters. (Were that byte in `mask` after all, the run would only be
/// longer than it should, and still a string.)
#[inline(always)]
pub(crate) fn class_run_seen_past_first(mask: u8, input: &str, from: usize) -> (Run<'_>, u8) {
    let bytes = input.as_bytes();
    let first = CLASS[bytes[from] as usize];
    debug_assert!(first & mask == 0);
    let (end, seen) = find_class_seen(mask, bytes, from + 1);
    // SAFETY: as in `class_run_seen`; `run_to` checks that `from`
    // is a character boundary.
    (unsafe { run_to(input, from, end) }, seen | first)
}

/// The run from `from` to the first byte at or after it whose class has
/// any of the bits in `mask`, and the classes of the bytes in the run,
/// or-ed together. Panics as [`class_run_upper`] does.
#[inline(always)]
pub(crate) fn class_run_seen(mask: u8, input: &str, from: usize) -> (Run<'_>, u8) {
    let (end, seen) = find_class_seen(mask, input.as_bytes(), from);
    // SAFETY: a class scan stops only on an ASCII byte (`CLASS`'s
    // const check: no byte from 0x80 up has a class) or else returns
    // an offset at or past the end, which `run_to` rejects.
    (unsafe { run_to(input, from, end) }, seen)
}

/// The run from `from` to the first byte at or after it whose class has
/// any of the bits in `mask`. Panics as [`class_run_upper`] does.
#[inline(always)]
pub(crate) fn class_run(mask: u8, input: &str, from: usize) -> Run<'_> {
    let end = find_class(mask, input.as_bytes(), from);
    // SAFETY: as in `class_run_seen`.
    unsafe { run_to(input, from, end) }
}

/// The run from `from` to the first `a` or `b` (both ASCII, else this
/// panics) at or after it. Panics as [`class_run_upper`] does.
#[inline(always)]
pub(crate) fn run2(a: u8, b: u8, input: &str, from: usize) -> Run<'_> {
    assert!(a.is_ascii() && b.is_ascii());
    let end = find2(a, b, input.as_bytes(), from);
    // SAFETY: `find2` returns the offset of an `a` or `b`, ASCII
    // (asserted), or `hay.len()`.
    unsafe { run_to(input, from, end) }
}

/// `input[from..end]` as a [`Run`], checking only `from`. Panics if
/// `from` is past `end` or the end of `input`, or not on a character
/// boundary.
///
/// # Safety
/// If `end` is less than `input.len()`, the byte at `end` must be ASCII
/// (so a character boundary). Offsets out of order or past the end are
/// checked here.
#[inline(always)]
unsafe fn run_to(input: &str, from: usize, end: usize) -> Run<'_> {
    let bytes = input.as_bytes();
    assert!(from <= end && end <= bytes.len());
    debug_assert!(bytes.get(end).is_none_or(u8::is_ascii));
    // `from` is a boundary unless it holds a UTF-8 continuation byte;
    // an empty run (`from == end`) is at `end`, a boundary.
    if from < end {
        assert!((bytes[from] as i8) >= -0x40, "not a character boundary");
    }
    // SAFETY: `from <= end <= len` (asserted); `from` is a character
    // boundary (checked just above), and so is `end` (the caller's
    // contract).
    let text = unsafe { input.get_unchecked(from..end) };
    Run { text, end }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs the tag path slices: multi-byte characters inside, an
    /// ASCII stop or the end after, and the one check left, on `from`.
    #[test]
    fn runs_are_the_slices_a_scan_skipped() {
        let input = "é<a é=\"ü&x\" b>ñ";
        let (run, upper) = class_run_upper(class::TAG_NAME_STOP, input, 0);
        assert_eq!((run.text, run.end, upper), ("é<a", 4, false));
        let (run, upper) = class_run_upper(class::ATTR_NAME_STOP, "AbÉ=", 0);
        assert_eq!((run.text, run.end, upper), ("AbÉ", 4, true));
        // Past a first byte not in the mask: the same run, and its class
        // counted (the uppercase `A`, the `"` of an attribute name).
        for (mask, text) in [
            (class::TAG_NAME_STOP, "Ab>"),
            (class::TAG_NAME_STOP, "a"),
            (class::TAG_NAME_STOP, "bR/"),
            (class::ATTR_NAME_STOP_QUIET, "\"x=y"),
            (class::ATTR_NAME_STOP_QUIET, "ü x"),
        ] {
            let (run, seen) = class_run_seen_past_first(mask, text, 0);
            let (want, want_seen) = class_run_seen(mask, text, 0);
            assert_eq!(
                (run.text, run.end, seen),
                (want.text, want.end, want_seen),
                "{text}"
            );
        }
        let run = run2(b'"', b'&', input, 9);
        assert_eq!((run.text, run.end), ("ü", 11));
        let run = class_run(class::UNQUOTED_STOP, input, 17);
        assert_eq!((run.text, run.end), ("ñ", input.len()));
        // Empty runs: at a stop, and at the end.
        assert_eq!(run2(b'"', b'&', input, 11).text, "");
        assert_eq!(class_run(class::WS, input, input.len()).text, "");
        for from in 0..=input.len() {
            let ok = input.is_char_boundary(from);
            let got = std::panic::catch_unwind(|| class_run(class::WS, input, from).text);
            assert_eq!(got.is_ok(), ok, "from {from}");
            if let Ok(text) = got {
                assert_eq!(text, &input[from..from + text.len()]);
            }
        }
        assert!(std::panic::catch_unwind(|| class_run(class::WS, "ab", 3)).is_err());
        assert!(std::panic::catch_unwind(|| run2(b'a', 0xC3, "ab", 0)).is_err());
    }
}
