//! `write_wet`: a WET file (Common Crawl's layout: a `warcinfo` record,
//! then a `conversion` record of each HTML page's text) from the HTML
//! records of an archive, through the library's `htmltok::warc::WetWriter`.
//!
//! The records come from a `WarcRecords` (what `warc_records` gives), or
//! from a path or binary file object, which `warc_records` is called on;
//! damaged records are reported as that iterator reports them (`on_error`).
//! The output is an `OutputFile`: written under a temporary name and
//! renamed once whole, so an exception halfway leaves no file behind. The
//! GIL is released while a page is extracted and its record written.

use htmltok::warc::{
    Compression, OutputFile, PageOutcome, WarcError, WarcErrorKind, WetOptions, WetWriter,
    WriteError,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::extract::Wanted;
use crate::input::Decoding;
use crate::warc::{WarcRecords, set_counts, warc_records};

/// Writes a WET file of an archive's HTML pages to `destination`.
///
/// `source` is what `warc_records` reads (a path or a binary file object),
/// or a `WarcRecords` iterator itself (its records not yet read are
/// converted; its `errors` and `counts` grow as it is read). Each HTML
/// page whose text is not empty becomes a `conversion` record holding
/// `htmltok.text` of the page (the same text as `WarcRecord.text`, with
/// the options given; with `main_content=True`, its main content; with
/// `format="markdown"`, its Markdown, in records of `Content-Type:
/// text/markdown`); the `warcinfo` record first carries the input
/// archive's `isPartOf`, `operator` and `description`. Damaged records and
/// pages that cannot be decoded are reported as `on_error` says and
/// skipped; the output is gzip-compressed per record when `gzip` is true
/// (by default, when `destination` ends in `.gz`) and gets its name only
/// once it is whole. Returns the counts: the input's (as
/// `WarcRecords.counts`), and the `conversions` written, the `empty` pages
/// (no record) and the `undecodable` ones.
///
///     counts = write_wet("crawl.warc.gz", "crawl.warc.wet.gz")
#[pyfunction]
#[pyo3(signature = (
    source, destination, *, main_content=false, alt_text=false, show_hidden=false,
    scripting=None, format="plain", on_error="warn", max_record_size=None, gzip=None, filename=None,
    seed=None,
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_wet<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    destination: &Bound<'py, PyAny>,
    main_content: bool,
    alt_text: bool,
    show_hidden: bool,
    scripting: Option<bool>,
    format: &str,
    on_error: &str,
    max_record_size: Option<u64>,
    gzip: Option<bool>,
    filename: Option<String>,
    seed: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let records = match source.cast::<WarcRecords>() {
        Ok(records) => records.clone(),
        Err(_) => Bound::new(py, warc_records(py, source, on_error, max_record_size)?)?,
    };
    let mut records = records.borrow_mut();

    let path: String = py
        .import("os")?
        .call_method1("fsdecode", (destination,))?
        .extract()?;
    let name = std::path::Path::new(&path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.clone());
    let wanted = Wanted {
        links: false,
        metadata: false,
        alt_text,
        show_hidden,
        scripting,
        main_content,
        ..Wanted::default()
    }
    .with_format(format, true)?;
    let mut options = WetOptions::default()
        .extract(wanted.options())
        .decode(Decoding::default().options()?)
        .filename(filename.unwrap_or(name))
        .compression(if gzip.unwrap_or(path.ends_with(".gz")) {
            Compression::gzip()
        } else {
            Compression::None
        });
    if let Some(seed) = seed {
        options = options.seed(seed);
    }
    // PyO3 picks the exception by the error's kind (FileNotFoundError,
    // PermissionError, ...); the message names the file.
    let os_error = PyErr::from;
    let write_error = |e: WriteError| match e {
        WriteError::Io(e) => os_error(e),
        refused => PyValueError::new_err(refused.to_string()),
    };
    let out = py.detach(|| OutputFile::create(&path)).map_err(os_error)?;
    let mut wet = WetWriter::new(out, options);

    let mut started = false;
    while let Some(item) = records.next_item(py)? {
        let page = match item {
            Ok(page) => page,
            Err(error) => {
                records.report(py, &error)?;
                continue;
            }
        };
        // The input's warcinfo, read by now if the archive has one, goes
        // into the WET's before the first page.
        let warcinfo = match started {
            false => records.records().warcinfo().cloned(),
            true => None,
        };
        started = true;
        let outcome = py
            .detach(|| {
                wet.write_warcinfo(warcinfo.as_ref())?;
                wet.write_page(&page)
            })
            .map_err(write_error)?;
        if let PageOutcome::Undecodable(error) = outcome {
            let kind = WarcErrorKind::Decode(error.to_string());
            records.report(py, &WarcError::new(page.position(), kind))?;
        }
    }
    let warcinfo = records.records().warcinfo().cloned();
    let counts = *wet.counts();
    py.detach(|| {
        wet.write_warcinfo(warcinfo.as_ref())?;
        wet.finish()?.commit()?;
        Ok(())
    })
    .map_err(write_error)?;

    let d = PyDict::new(py);
    set_counts(&d, records.records().counts())?;
    d.set_item("conversions", counts.conversions)?;
    d.set_item("empty", counts.empty)?;
    d.set_item("undecodable", counts.undecodable)?;
    Ok(d)
}
