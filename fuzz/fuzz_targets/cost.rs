//! Searches for the inputs that cost the tokenizer the most per byte.
//!
//! The fuzzer's bytes (lossy UTF-8, at most 256) are a pattern, repeated
//! to 16 KiB and to 128 KiB, and tokenized with parse errors on (the
//! costlier setting, which `htmltok errors` and `stats` use). The time per
//! byte of the smaller input, relative to an ordinary tag-dense page's
//! measured at start, is turned into coverage: each doubling of the ratio
//! (in quarter steps) reaches a code path of its own, so libFuzzer keeps the
//! inputs that climb, and the corpus grows toward the costliest shapes. It
//! fails when an input costs more than 12 times the ordinary page per byte,
//! or when the cost per byte grows with the size: the 128 KiB input more
//! than 3 times the 16 KiB one per byte (8 times the bytes: a quadratic
//! cost would be 8 times per byte; caches alone can cost 2 to 3).
//!
//! Times are noisy (a run is the fastest of three, and a failing input is
//! measured twice), and coverage instrumentation weighs on them, so build it
//! with the least (`--sanitizer none -O --no-trace-compares`): a failure is
//! a lead, not a verdict. `examples/adversarial.rs file:PATH` under
//! callgrind gives the instructions per byte of a found input
//! (fuzz/README.md).
#![no_main]

use std::sync::OnceLock;
use std::time::Instant;

use htmltok::bumpalo::Bump;
use htmltok::{Options, Tokenizer};
use libfuzzer_sys::fuzz_target;

/// Tokenizes `input` three times and returns the fastest, in nanoseconds
/// per byte.
fn ns_per_byte(input: &str) -> f64 {
    let mut arena = Bump::new();
    let mut best = f64::MAX;
    for _ in 0..3 {
        arena.reset();
        let started = Instant::now();
        let mut tokenizer =
            Tokenizer::with_options(input, &arena, Options::default().errors(true));
        let n = tokenizer.by_ref().count() + tokenizer.errors().len();
        std::hint::black_box(n);
        best = best.min(started.elapsed().as_nanos() as f64);
    }
    best / input.len().max(1) as f64
}

/// `pattern` repeated to at least `len` bytes.
fn repeated(pattern: &str, len: usize) -> String {
    pattern.repeat(len / pattern.len() + 1)
}

/// The cost per byte of an ordinary tag-dense page.
fn ordinary() -> f64 {
    static ORDINARY: OnceLock<f64> = OnceLock::new();
    *ORDINARY.get_or_init(|| {
        let page = repeated(
            "<div class=\"row\"><a href=\"/p?a=1&amp;b=2\">Some text &lt; more</a></div>\n",
            64 * 1024,
        );
        (0..5).map(|_| ns_per_byte(&page)).fold(f64::MAX, f64::min)
    })
}

/// Reaches one of 48 code paths, one per quarter-doubling of `ratio`.
fn reach(ratio: f64) {
    let step = ((ratio.max(1.0).log2() * 4.0) as usize).min(47);
    macro_rules! steps {
        ($($n:literal)*) => {
            match step {
                $($n => { std::hint::black_box($n); })*
                _ => {}
            }
        };
    }
    steps!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
           24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47);
}

/// The cost per byte of `pattern` at 16 KiB and at 128 KiB.
fn costs(pattern: &str) -> (f64, f64) {
    (
        ns_per_byte(&repeated(pattern, 16 * 1024)),
        ns_per_byte(&repeated(pattern, 128 * 1024)),
    )
}

/// Whether costs are beyond the bounds: more than 12 times an ordinary
/// page's per byte, or growing with the size.
fn too_costly((small, large): (f64, f64)) -> bool {
    small / ordinary() > 12.0 || large > 3.0 * small + 0.5
}

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    let pattern = String::from_utf8_lossy(&data[..data.len().min(256)]);
    let (small, large) = costs(&pattern);
    reach(small / ordinary());
    // A time can be one disturbed run: only what is measured so again fails.
    if too_costly((small, large)) {
        let again = costs(&pattern);
        assert!(
            !too_costly(again),
            "{:.1} times an ordinary page's cost per byte ({:.2} ns at 16 KiB, {:.2} at 128 KiB): \
             {pattern:?}",
            again.0 / ordinary(),
            again.0,
            again.1,
        );
    }
});
