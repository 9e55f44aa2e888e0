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
//! cost would be 8 times per byte), and the 1 MiB input more than 3 times
//! the 128 KiB one again (caches, and the fresh pages a pattern that keeps
//! much takes, make one step of up to 5 from the first size to the second;
//! a cost that grows with the size grows again).
//!
//! Times are noisy (a run is the fastest of three, and a failing input is
//! measured three times more, each time against the ordinary page measured
//! again right before it), and coverage instrumentation weighs on them, so build it
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
        let mut tokenizer = Tokenizer::with_options(input, &arena, Options::default().errors(true));
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

/// An ordinary tag-dense page.
fn ordinary_page() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        repeated(
            "<div class=\"row\"><a href=\"/p?a=1&amp;b=2\">Some text &lt; more</a></div>\n",
            64 * 1024,
        )
    })
}

/// The cost per byte of [`ordinary_page`], measured now: the fastest of
/// five runs.
fn ordinary_now() -> f64 {
    (0..5)
        .map(|_| ns_per_byte(ordinary_page()))
        .fold(f64::MAX, f64::min)
}

/// The cost per byte of an ordinary page, measured at start.
fn ordinary() -> f64 {
    static ORDINARY: OnceLock<f64> = OnceLock::new();
    *ORDINARY.get_or_init(ordinary_now)
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

/// The most a pattern may cost per byte, in ordinary pages' cost per byte.
const MOST: f64 = 12.0;

/// Whether the cost per byte grew from `smaller` to `larger`, 8 times the
/// bytes: more than 3 times (a quadratic cost would be 8).
fn grows(smaller: f64, larger: f64) -> bool {
    larger > 3.0 * smaller + 0.5
}

/// Whether costs may be beyond the bounds: more than [`MOST`] times an
/// ordinary page's per byte (`ordinary`), or growing with the size. A
/// first screen, which [`beyond`] confirms.
fn too_costly((small, large): (f64, f64), ordinary: f64) -> bool {
    small / ordinary > MOST || grows(small, large)
}

/// Why `pattern`'s costs (`small`, `large`) are beyond the bounds, if they
/// are, against the ordinary page's cost `reference`.
///
/// A cost per byte that grows from 16 to 128 KiB is measured at 1 MiB too:
/// caches, and the fresh pages the tokens of a pattern that keeps much
/// (a tag with 40,000 attributes) take, make one step up in the time per
/// byte once the input's tokens outgrow them, while a cost that grows with
/// the size grows again.
fn beyond(pattern: &str, (small, large): (f64, f64), reference: f64) -> Option<String> {
    if small / reference > MOST {
        return Some(format!(
            "{:.1} times an ordinary page's cost per byte ({small:.2} ns at 16 KiB, \
             the ordinary page {reference:.2})",
            small / reference
        ));
    }
    if grows(small, large) {
        let huge = ns_per_byte(&repeated(pattern, 1024 * 1024));
        if grows(large, huge) {
            return Some(format!(
                "a cost per byte that grows with the size: {small:.2}, {large:.2} and \
                 {huge:.2} ns at 16 KiB, 128 KiB and 1 MiB"
            ));
        }
    }
    None
}

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    let pattern = String::from_utf8_lossy(&data[..data.len().min(256)]);
    let (small, large) = costs(&pattern);
    reach(small / ordinary());
    // A time can be one disturbed run, and the machine's speed moves (a
    // build or a benchmark on the other core slows memory-bound code more
    // than the ordinary page): only a pattern measured so three times
    // again, each against the ordinary page measured right before it, fails.
    if too_costly((small, large), ordinary()) {
        let mut why = None;
        for _ in 0..3 {
            let reference = ordinary_now();
            why = beyond(&pattern, costs(&pattern), reference);
            if why.is_none() {
                return;
            }
        }
        panic!("{}: {pattern:?}", why.expect("measured three times"));
    }
});
