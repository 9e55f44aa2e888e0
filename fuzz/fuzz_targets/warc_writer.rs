//! Records built from the fuzzer's bytes (any type, fields and block;
//! WARC 1.0 or 1.1; plain or a gzip member per record) written with
//! `htmltok::warc::Writer` read back with `htmltok::warc::Reader` as
//! exactly what was written, at the offsets the writer gave; records the
//! writer refuses are refused for the right reason and write nothing
//! (`tests/support/warc_writer.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

use htmltok_test_support::warc_writer;

fuzz_target!(|data: &[u8]| {
    warc_writer::roundtrip(data);
});
