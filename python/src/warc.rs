//! The HTML records of a WARC file, one at a time: the library's
//! `htmltok::warc` reader behind a Python iterator.
//!
//! An archive is read from a path (opened and read in Rust, the GIL
//! released while records are read and inflated) or from any binary file
//! object (`open(..., "rb")`, an `fsspec` or `boto3` stream), whose `read`
//! is called with the GIL held. An exception that `read` raises is raised
//! again from the iterator, which ends there. A damaged record never ends
//! the iteration by surprise: it is kept in [`WarcRecords::errors`] and, by default,
//! reported as an `ArchiveWarning`; `on_error="raise"` raises an
//! `ArchiveError` instead, after which iterating again goes on with the
//! next record.

use std::fs::File;
use std::io::{self, Read};
use std::sync::{Arc, Mutex, OnceLock};

use htmltok::warc::{Counts, HtmlRecord, HtmlRecords, Reader, ReaderOptions, WarcError};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use crate::extract::{Wanted, extract_dict};
use crate::input::{Decoding, Html};
use crate::tokens::{Tokens, tokenize};

create_exception!(
    htmltok,
    ArchiveError,
    PyException,
    "A damaged WARC record (`on_error=\"raise\"`): `archive`, `number` \
     (1-based), `offset` (in the file, or None) say which."
);
create_exception!(
    htmltok,
    ArchiveWarning,
    PyUserWarning,
    "A damaged WARC record, skipped (`on_error=\"warn\"`, the default)."
);

/// A damaged part of an archive, as [`WarcRecords::errors`] keeps it.
#[pyclass(name = "WarcError", frozen, get_all, eq, hash, module = "htmltok")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct WarcErrorInfo {
    /// The archive's path, if it was given one.
    archive: Option<String>,
    /// The record's number, 1-based, in archive order.
    number: u64,
    /// The record's offset in the file, when known.
    offset: Option<u64>,
    /// What went wrong, as `record N (offset O): ...`.
    message: String,
    /// Whether reading could not go on past it.
    fatal: bool,
}

#[pymethods]
impl WarcErrorInfo {
    #[new]
    fn new(
        archive: Option<String>,
        number: u64,
        offset: Option<u64>,
        message: String,
        fatal: bool,
    ) -> Self {
        WarcErrorInfo {
            archive,
            number,
            offset,
            message,
            fatal,
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let e = slf.get();
        let args = (
            e.archive.clone(),
            e.number,
            e.offset,
            e.message.clone(),
            e.fatal,
        );
        (slf.get_type(), args)
            .into_pyobject(slf.py())
            .map(|t| t.into_any())
    }

    fn __str__(&self) -> String {
        match &self.archive {
            Some(archive) => format!("{archive}: {}", self.message),
            None => self.message.clone(),
        }
    }

    fn __repr__(&self) -> String {
        format!("WarcError({:?})", self.__str__())
    }
}

/// One HTML page of an archive, with its record's metadata. Its text,
/// links and metadata are extracted on first use (all three in one pass,
/// links resolved against the target URI) and kept.
#[pyclass(frozen, module = "htmltok")]
pub(crate) struct WarcRecord {
    /// The archive's path, if it was given one.
    #[pyo3(get)]
    archive: Option<String>,
    /// The record's number, 1-based, in archive order.
    #[pyo3(get)]
    number: u64,
    /// The record's offset in the file, when known (always for plain
    /// archives and one gzip member per record).
    #[pyo3(get)]
    offset: Option<u64>,
    /// `"response"` or `"resource"`.
    #[pyo3(get)]
    kind: String,
    /// `WARC-Target-URI`.
    #[pyo3(get)]
    target_uri: String,
    /// `WARC-Record-ID`.
    #[pyo3(get)]
    record_id: Option<String>,
    /// `WARC-Date`.
    #[pyo3(get)]
    date: Option<String>,
    /// `WARC-Truncated`, when the crawler cut the record.
    #[pyo3(get)]
    truncated: Option<String>,
    /// The HTTP status (`None` for a `resource` record).
    #[pyo3(get)]
    status: Option<u16>,
    /// The media type of the payload.
    #[pyo3(get)]
    content_type: Option<String>,
    /// The HTTP `charset`: the transport-layer encoding of sniffing.
    #[pyo3(get)]
    charset: Option<String>,
    payload: Vec<u8>,
    extracted: OnceLock<Py<PyDict>>,
}

impl WarcRecord {
    fn of(archive: Option<String>, record: HtmlRecord) -> WarcRecord {
        let position = record.position();
        WarcRecord {
            archive,
            number: position.number(),
            offset: position.offset(),
            kind: record.kind().as_str().to_owned(),
            target_uri: record.target_uri().to_owned(),
            record_id: record.record_id().map(str::to_owned),
            date: record.date().map(str::to_owned),
            truncated: record.truncated().map(str::to_owned),
            status: record.status(),
            content_type: record.content_type().map(str::to_owned),
            charset: record.charset().map(str::to_owned),
            payload: record.into_payload(),
            extracted: OnceLock::new(),
        }
    }

    fn decoding(&self) -> Decoding {
        Decoding {
            transport: self.charset.clone(),
            ..Decoding::default()
        }
    }

    /// Extracts with `wanted` (and the target URI as the page's URL),
    /// within `memory_limit`.
    fn run<'py>(
        &self,
        py: Python<'py>,
        wanted: Wanted,
        memory_limit: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let html = Html::Bytes(self.payload.as_slice().into());
        let decoding = Decoding {
            memory_limit,
            ..self.decoding()
        };
        extract_dict(py, &html, &wanted.at(&self.target_uri), &decoding)
    }

    /// The default extraction, made once.
    fn extracted<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        if let Some(found) = self.extracted.get() {
            return Ok(found.bind(py).clone());
        }
        let found = self.run(py, Wanted::default(), None)?;
        let _ = self.extracted.set(found.clone().unbind());
        Ok(found)
    }

    fn part<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.extracted(py)?
            .get_item(key)?
            .ok_or_else(|| PyValueError::new_err(format!("no {key} extracted")))
    }
}

#[pymethods]
impl WarcRecord {
    #[new]
    #[pyo3(signature = (
        archive, number, offset, kind, target_uri, record_id, date, truncated,
        status, content_type, charset, payload,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        archive: Option<String>,
        number: u64,
        offset: Option<u64>,
        kind: String,
        target_uri: String,
        record_id: Option<String>,
        date: Option<String>,
        truncated: Option<String>,
        status: Option<u16>,
        content_type: Option<String>,
        charset: Option<String>,
        payload: Vec<u8>,
    ) -> Self {
        WarcRecord {
            archive,
            number,
            offset,
            kind,
            target_uri,
            record_id,
            date,
            truncated,
            status,
            content_type,
            charset,
            payload,
            extracted: OnceLock::new(),
        }
    }

    /// The page's bytes (HTTP transfer and content codings undone).
    #[getter]
    fn payload<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.payload)
    }

    /// The page's visible text.
    #[getter]
    fn text<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.part(py, "text")
    }

    /// The page's links, resolved against the target URI.
    #[getter]
    fn links<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.part(py, "links")
    }

    /// The page's metadata.
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.part(py, "metadata")
    }

    /// Text, links and metadata with options of the caller's (those of
    /// `htmltok.extract`, main_content=True, format="markdown" and
    /// memory_limit included; the URL is the target URI).
    #[pyo3(signature = (
        *, text=true, links=true, metadata=true, alt_text=false, show_hidden=false,
        scripting=None, main_content=false, offsets=false, text_limit=None, metadata_limit=None,
        format="plain", link_targets=true, memory_limit=None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn extract<'py>(
        &self,
        py: Python<'py>,
        text: bool,
        links: bool,
        metadata: bool,
        alt_text: bool,
        show_hidden: bool,
        scripting: Option<bool>,
        main_content: bool,
        offsets: bool,
        text_limit: Option<usize>,
        metadata_limit: Option<usize>,
        format: &str,
        link_targets: bool,
        memory_limit: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let wanted = Wanted {
            text,
            links,
            metadata,
            alt_text,
            show_hidden,
            scripting,
            main_content,
            offsets,
            text_limit,
            metadata_limit,
            ..Wanted::default()
        }
        .with_format(format, link_targets)?;
        self.run(py, wanted, memory_limit)
    }

    /// The page decoded with its HTTP charset, as a browser would.
    fn decode(&self, py: Python<'_>) -> PyResult<String> {
        let html = Html::Bytes(self.payload.as_slice().into());
        crate::input::with_text(py, &html, &self.decoding(), |text, _| text.to_owned())
    }

    /// The page's tokens (the arguments of `htmltok.tokenize`; the HTTP
    /// charset is the transport encoding).
    #[pyo3(signature = (
        *, errors=false, auto_switch=true, exact_switching=false, scripting=true, memory_limit=None,
    ))]
    fn tokenize(
        &self,
        py: Python<'_>,
        errors: bool,
        auto_switch: bool,
        exact_switching: bool,
        scripting: bool,
        memory_limit: Option<usize>,
    ) -> PyResult<Tokens> {
        let payload = PyBytes::new(py, &self.payload);
        tokenize(
            py,
            payload.as_any(),
            errors,
            auto_switch,
            exact_switching,
            scripting,
            None,
            None,
            None,
            self.charset.clone(),
            memory_limit,
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let r = slf.get();
        let args = (
            r.archive.clone(),
            r.number,
            r.offset,
            r.kind.clone(),
            r.target_uri.clone(),
            r.record_id.clone(),
            r.date.clone(),
            r.truncated.clone(),
            r.status,
            r.content_type.clone(),
            r.charset.clone(),
            PyBytes::new(py, &r.payload),
        )
            .into_pyobject(py)?;
        (slf.get_type(), args)
            .into_pyobject(py)
            .map(|t| t.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "WarcRecord(number={}, target_uri={:?}, status={:?}, {} bytes)",
            self.number,
            self.target_uri,
            self.status,
            self.payload.len()
        )
    }
}

/// The Python exception a file object's `read` raised, kept to be raised
/// again from the iterator (the reader sees only that reading failed).
type RaisedSlot = Arc<Mutex<Option<PyErr>>>;

/// A binary file object read through its `read` method (with the GIL,
/// which the reader takes back for each call).
struct PyReader {
    file: Py<PyAny>,
    raised: RaisedSlot,
    /// What a `read` gave beyond what was asked for (a file object is free
    /// to), handed out first next time.
    over: Vec<u8>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.over.is_empty() {
            let n = self.over.len().min(buf.len());
            buf[..n].copy_from_slice(&self.over[..n]);
            self.over.drain(..n);
            return Ok(n);
        }
        Python::attach(|py| {
            let raise = |error: PyErr| {
                let message = error.to_string();
                *self.raised.lock().unwrap_or_else(|p| p.into_inner()) = Some(error);
                io::Error::other(message)
            };
            let data = self
                .file
                .call_method1(py, "read", (buf.len(),))
                .map_err(raise)?;
            let data = data.bind(py);
            if data.is_instance_of::<PyString>() {
                return Err(raise(PyTypeError::new_err(
                    "the file object gave str: open the archive in binary mode (\"rb\")",
                )));
            }
            let bytes = data.cast::<PyBytes>().map_err(|_| {
                raise(PyTypeError::new_err(format!(
                    "the file object's read() gave {}, not bytes",
                    data.get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                )))
            })?;
            let bytes = bytes.as_bytes();
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            self.over.extend_from_slice(&bytes[n..]);
            Ok(n)
        })
    }
}

/// What to do with a damaged record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnError {
    Warn,
    Raise,
    Ignore,
}

/// The HTML records of an archive, in archive order.
#[pyclass(module = "htmltok")]
pub(crate) struct WarcRecords {
    records: Mutex<HtmlRecords<Box<dyn Read + Send>>>,
    /// An exception the file object's `read` raised, raised again here.
    raised: RaisedSlot,
    /// The archive's path, if it was given one.
    #[pyo3(get)]
    archive: Option<String>,
    errors: Vec<WarcErrorInfo>,
    on_error: OnError,
}

impl WarcRecords {
    /// The next item of the archive, read with the GIL released; an
    /// exception the file object's `read` raised comes first.
    pub(crate) fn next_item(
        &mut self,
        py: Python<'_>,
    ) -> PyResult<Option<Result<HtmlRecord, WarcError>>> {
        let records = &self.records;
        let next = py.detach(|| {
            records
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .next()
        });
        let raised = self.raised.lock().unwrap_or_else(|p| p.into_inner()).take();
        match raised {
            // The file object failed: its own exception, not an archive
            // error (reading cannot go on after it).
            Some(error) => Err(error),
            None => Ok(next),
        }
    }

    /// The archive's records, for a caller that reads them itself.
    pub(crate) fn records(&self) -> std::sync::MutexGuard<'_, HtmlRecords<Box<dyn Read + Send>>> {
        self.records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A damaged record: kept in `errors`, then warned about, raised or
    /// let go, as `on_error` says.
    pub(crate) fn report(&mut self, py: Python<'_>, error: &WarcError) -> PyResult<()> {
        let info = self.error_info(error);
        self.errors.push(info.clone());
        match self.on_error {
            OnError::Ignore => Ok(()),
            OnError::Warn => {
                let category = py.get_type::<ArchiveWarning>();
                PyErr::warn(py, &category, &std::ffi::CString::new(info.__str__())?, 1)
            }
            OnError::Raise => {
                let error = ArchiveError::new_err(info.__str__());
                let value = error.value(py);
                value.setattr("archive", info.archive)?;
                value.setattr("number", info.number)?;
                value.setattr("offset", info.offset)?;
                Err(error)
            }
        }
    }

    fn error_info(&self, error: &WarcError) -> WarcErrorInfo {
        let position = error.position();
        WarcErrorInfo {
            archive: self.archive.clone(),
            number: position.number(),
            offset: position.offset(),
            message: error.to_string(),
            fatal: error.is_fatal(),
        }
    }
}

#[pymethods]
impl WarcRecords {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<WarcRecord>> {
        loop {
            match self.next_item(py)? {
                None => return Ok(None),
                Some(Ok(record)) => return Ok(Some(WarcRecord::of(self.archive.clone(), record))),
                Some(Err(error)) => self.report(py, &error)?,
            }
        }
    }

    /// The damaged parts met so far, in order.
    #[getter]
    fn errors(&self) -> Vec<WarcErrorInfo> {
        self.errors.clone()
    }

    /// How many records of each sort were read so far.
    #[getter]
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let counts: Counts = *self.records().counts();
        let d = PyDict::new(py);
        set_counts(&d, &counts)?;
        Ok(d)
    }
}

/// The counts of an archive's records as `dict` items.
pub(crate) fn set_counts(d: &Bound<'_, PyDict>, counts: &Counts) -> PyResult<()> {
    d.set_item("records", counts.records)?;
    d.set_item("html", counts.html)?;
    d.set_item("skipped_by_type", counts.skipped_by_type)?;
    d.set_item("revisits", counts.revisits)?;
    d.set_item("requests", counts.requests)?;
    d.set_item("warcinfo", counts.warcinfo)?;
    d.set_item("metadata", counts.metadata)?;
    d.set_item("other", counts.other)?;
    d.set_item("errors", counts.errors)?;
    Ok(())
}

/// The HTML records of a WARC file (.warc, .warc.gz), from a path or a
/// binary file object.
///
/// Each record is a WarcRecord with its target URI, record id, date, HTTP
/// status and charset, and text, links and metadata made on first use.
/// Records that are not HTML are counted (`counts`), not yielded; damaged
/// ones are kept in `errors` and, with on_error="warn" (the default),
/// reported as ArchiveWarning; on_error="raise" raises ArchiveError (and
/// iterating again goes on with the next record).
///
///     for record in warc_records("crawl.warc.gz"):
///         print(record.target_uri, record.status, record.text[:80])
#[pyfunction]
#[pyo3(signature = (source, *, on_error="warn", max_record_size=None))]
pub(crate) fn warc_records(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    on_error: &str,
    max_record_size: Option<u64>,
) -> PyResult<WarcRecords> {
    let on_error = match on_error {
        "warn" => OnError::Warn,
        "raise" => OnError::Raise,
        "ignore" => OnError::Ignore,
        other => {
            return Err(PyValueError::new_err(format!(
                "on_error must be \"warn\", \"raise\" or \"ignore\", not {other:?}"
            )));
        }
    };
    let mut options = ReaderOptions::default();
    if let Some(bytes) = max_record_size {
        options = options.max_record_size(bytes);
    }
    let os = py.import("os")?;
    let raised = RaisedSlot::default();
    let (read, archive): (Box<dyn Read + Send>, Option<String>) =
        if source.is_instance_of::<PyString>() || source.hasattr("__fspath__")? {
            let path: String = os.call_method1("fsdecode", (source,))?.extract()?;
            let file = py.detach(|| File::open(&path)).map_err(|e| {
                PyOSError::new_err((e.raw_os_error().unwrap_or(0), e.to_string(), path.clone()))
            })?;
            (Box::new(file), Some(path))
        } else if source.hasattr("read")? {
            (
                Box::new(PyReader {
                    file: source.clone().unbind(),
                    raised: raised.clone(),
                    over: Vec::new(),
                }),
                None,
            )
        } else {
            return Err(PyTypeError::new_err(format!(
                "source must be a path or a binary file object, not {}",
                source.get_type().name()?
            )));
        };
    let reader = py.detach(|| Reader::with_options(read, options));
    if let Some(error) = raised.lock().unwrap_or_else(|p| p.into_inner()).take() {
        return Err(error);
    }
    Ok(WarcRecords {
        raised,
        records: Mutex::new(reader.html_records()),
        archive,
        errors: Vec::new(),
        on_error,
    })
}
