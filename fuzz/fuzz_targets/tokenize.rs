//! Arbitrary bytes (as lossy UTF-8) through every option combination: no
//! panic, no hang, and the span, borrowing and errors-on/off invariants of
//! `tests/support/invariants.rs` hold.
#![no_main]

use htmltok_test_support::invariants;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    invariants::check_all(&input);
});
