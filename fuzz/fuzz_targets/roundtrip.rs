//! Tokens serialized with `htmltok::serialize` and tokenized again give the
//! same tokens, as far as the module promises (see
//! `tests/support/roundtrip.rs`).
#![no_main]

use htmltok_test_support::roundtrip;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    roundtrip::check_all(&input);
});
