//! Tokens serialized with `htmltok::serialize` and tokenized again give the
//! same tokens, as far as the module promises (see
//! `tests/support/roundtrip.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/roundtrip.rs"]
mod roundtrip;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    roundtrip::check_all(&input);
});
