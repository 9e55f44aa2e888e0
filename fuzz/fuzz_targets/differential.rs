//! htmltok against html5ever's tokenizer, both driven alike (the same
//! content-model switching after start tags, initial state, last start tag
//! and foreign flag): the full token streams must be equal, after the
//! normalizations of `tests/support/reference.rs` (each one a documented
//! html5ever deviation from the standard).
#![no_main]

use htmltok_test_support::reference;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    for config in reference::configs_for(&input) {
        if let Err(m) = reference::compare(&input, &config) {
            panic!("htmltok and html5ever differ on {input:?} ({config}): {m}");
        }
    }
});
