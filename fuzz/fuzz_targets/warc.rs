//! Arbitrary bytes as a WARC archive, through the record reader and the
//! HTML iterator (`tests/support/warc.rs`): no panic, no hang, bounded
//! items, record numbers and offsets consistent, every error with its
//! position, every record accounted for. Seeded with the fixtures of
//! `tests/warc/` (plain and gzip), mutated records come from those.
#![no_main]

use htmltok_test_support::warc;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    warc::check(data);
});
