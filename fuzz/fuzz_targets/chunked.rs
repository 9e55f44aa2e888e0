//! The input cut into chunks and fed through `StreamTokenizer` gives exactly
//! the tokens and parse errors of the whole input, with text coalesced and
//! in pieces. The first bytes choose the options and the cuts (see
//! `tests/support/chunked.rs`); the rest is the document, any bytes.
#![no_main]

use htmltok_test_support::chunked;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    chunked::check_fuzz_input(data);
});
