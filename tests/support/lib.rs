//! What htmltok's tests, the command line's tests and the fuzz targets
//! share: one crate, so that a check written once runs both
//! deterministically under `cargo test` and under the fuzzer.
//!
//! - [`html5lib`]: the html5lib-tests suites (finding, loading, the JSON
//!   form of tokens and errors, `.dat` files); [`corpus`]: the real-page
//!   corpus; `harness` (feature `harness`): the libtest-mimic runner and
//!   the closing line `N passed, N failed, N skipped` of the
//!   `harness = false` binaries.
//! - The checks the fuzz targets run too: [`invariants`] (`tokenize`),
//!   [`reference`] (`differential`), [`tree_oracle`], [`roundtrip`],
//!   [`chunked`], [`extract_stream`] (`extract`), [`warc`] (`warc`,
//!   `warc_roundtrip`), [`warc_writer`] (`warc_writer`).
//! - [`generate`]: generated documents; [`input`]: what the checks share
//!   about raw inputs; [`counting`]: the allocator of the tests that bound
//!   memory.

pub mod chunked;
pub mod corpus;
pub mod counting;
pub mod extract_stream;
pub mod generate;
#[cfg(feature = "harness")]
pub mod harness;
pub mod html5lib;
pub mod input;
pub mod invariants;
pub mod main_content;
pub mod markdown;
pub mod reference;
pub mod roundtrip;
pub mod tree_oracle;
pub mod warc;
pub mod warc_writer;
