//! The extension module `htmltok._htmltok`: the htmltok crate for Python.
//!
//! Every function here converts arguments, releases the GIL, calls the
//! library, and converts results back: no rule of tokenizing or extraction
//! is written a second time. The Python package (`pysrc/htmltok/`) re-exports
//! what is here, with its docs and type stubs.
//!
//! Files, one job each:
//! - `input.rs`: `str` or `bytes` in, the text to tokenize out (encoding
//!   sniffing for bytes), and the errors a caller can hit.
//! - `tokens.rs`: `tokenize` and its token, attribute and parse-error
//!   classes.
//! - `extract.rs`: text, links and metadata as plain Python data.
//! - `warc.rs`: the HTML records of a WARC file, read lazily.
//! - `wet.rs`: a WET file of an archive's pages, written.
//!
//! A Rust panic never reaches the interpreter as an abort: PyO3 turns one
//! into a `pyo3_runtime.PanicException`, and none is expected (the library
//! is fuzzed for panics).

#![deny(missing_docs)]

mod extract;
mod input;
mod tokens;
mod warc;
mod wet;

use pyo3::prelude::*;

/// The module `htmltok._htmltok`.
#[pymodule]
fn _htmltok(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MemoryLimitError", py.get_type::<input::MemoryLimitError>())?;
    m.add("ArchiveError", py.get_type::<warc::ArchiveError>())?;
    m.add("ArchiveWarning", py.get_type::<warc::ArchiveWarning>())?;
    m.add_class::<tokens::Token>()?;
    m.add_class::<tokens::Attribute>()?;
    m.add_class::<tokens::ParseError>()?;
    m.add_class::<tokens::Tokens>()?;
    m.add_class::<input::DetectedEncoding>()?;
    m.add_class::<warc::WarcRecord>()?;
    m.add_class::<warc::WarcRecords>()?;
    m.add_class::<warc::WarcErrorInfo>()?;
    m.add_function(wrap_pyfunction!(tokens::tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(input::detect_encoding, m)?)?;
    m.add_function(wrap_pyfunction!(input::encoding_name, m)?)?;
    m.add_function(wrap_pyfunction!(input::decode, m)?)?;
    m.add_function(wrap_pyfunction!(extract::extract, m)?)?;
    m.add_function(wrap_pyfunction!(extract::text, m)?)?;
    m.add_function(wrap_pyfunction!(extract::links, m)?)?;
    m.add_function(wrap_pyfunction!(extract::metadata, m)?)?;
    m.add_function(wrap_pyfunction!(warc::warc_records, m)?)?;
    m.add_function(wrap_pyfunction!(wet::write_wet, m)?)?;
    Ok(())
}
