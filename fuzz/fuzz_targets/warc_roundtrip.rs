//! Valid archives built from the fuzzer's bytes (records of any type with
//! arbitrary blocks: line ends, `WARC/1.`, gzip magic, NULs; plain, gzip
//! per record or gzip whole) read back as exactly their records, with
//! their numbers and offsets and no error (`tests/support/warc.rs`).
#![no_main]

use htmltok_test_support::warc;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    warc::roundtrip(data);
});
