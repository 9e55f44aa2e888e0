//! A page in: a `str` as it is, `bytes` through
//! [encoding sniffing](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm)
//! the way a browser reads them; and the errors a caller can hit on the
//! way (bad arguments, memory caps).
//!
//! Strings are handed to the library as UTF-8, so every span the package
//! gives is a byte offset into the page's UTF-8 text: into `str.encode()`
//! for a `str`, into [`decode`]'s result for `bytes`. A `str` with a lone
//! surrogate (which Python allows and UTF-8 cannot hold) has each one
//! replaced by U+FFFD, which is as long in UTF-8 as the surrogate was, so
//! offsets after it stay right.

use std::borrow::Cow;

use htmltok::{
    DecodeError, DecodeOptions, Document, MemoryLimitError as LimitError, canonical_label,
    encoding_for_label,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

create_exception!(
    htmltok,
    MemoryLimitError,
    PyMemoryError,
    "A memory cap (`memory_limit=`) was reached: `kind` says what ran out \
     (\"tokenizer\", \"stream\", \"decode\", \"meta-scan\" or \"extract\"), the \
     attributes `limit` and `needed` are bytes, `offset` is where in the page's \
     text it happened (None when decoding refused the whole page). The tokens \
     before it were yielded; an extraction's `partial` is what the call gives \
     for the page as far as it was read (None for the rest)."
);

/// A page as the caller gave it.
pub(crate) enum Html<'py> {
    /// A `str`, as UTF-8.
    Text(Cow<'py, str>),
    /// `bytes` (borrowed) or a `bytearray` (copied), still to be decoded.
    Bytes(Cow<'py, [u8]>),
}

impl<'py> Html<'py> {
    /// Takes `str`, `bytes` or `bytearray`; anything else is a `TypeError`.
    pub(crate) fn from_py(html: &'py Bound<'py, PyAny>) -> PyResult<Html<'py>> {
        if let Ok(s) = html.cast::<PyString>() {
            return Ok(Html::Text(utf8_of(s)?));
        }
        if let Ok(b) = html.cast::<PyBytes>() {
            return Ok(Html::Bytes(Cow::Borrowed(b.as_bytes())));
        }
        if let Ok(b) = html.cast::<PyByteArray>() {
            return Ok(Html::Bytes(Cow::Owned(b.to_vec())));
        }
        Err(PyTypeError::new_err(format!(
            "html must be str or bytes, not {}",
            html.get_type().name()?
        )))
    }
}

/// The UTF-8 of a `str`; lone surrogates become U+FFFD (three bytes each
/// way, so offsets after one are unchanged).
fn utf8_of<'py>(s: &'py Bound<'py, PyString>) -> PyResult<Cow<'py, str>> {
    if let Ok(text) = s.to_cow() {
        return Ok(text);
    }
    let encoded = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
    let mut bytes = encoded.cast::<PyBytes>()?.as_bytes().to_vec();
    let mut i = 0;
    while i + 2 < bytes.len() {
        // A surrogate is ED A0..BF xx in this (otherwise valid) UTF-8.
        if bytes[i] == 0xED && bytes[i + 1] >= 0xA0 {
            bytes[i..i + 3].copy_from_slice("\u{FFFD}".as_bytes());
            i += 3;
        } else {
            i += 1;
        }
    }
    String::from_utf8(bytes)
        .map(Cow::Owned)
        .map_err(|e| PyValueError::new_err(format!("html is not valid text: {e}")))
}

/// How `bytes` are decoded: the `encoding=`, `transport_encoding=` and
/// `memory_limit=` arguments.
#[derive(Clone, Debug, Default)]
pub(crate) struct Decoding {
    /// The user's override (a label): wins over everything but a BOM.
    pub(crate) encoding: Option<String>,
    /// The HTTP `charset`: wins over `<meta>`.
    pub(crate) transport: Option<String>,
    /// A cap on the decoded text (and, for tokens, the tokenizer's arena).
    pub(crate) memory_limit: Option<usize>,
}

impl Decoding {
    /// From the keyword arguments of the same names.
    pub(crate) fn new(
        encoding: Option<String>,
        transport: Option<String>,
        memory_limit: Option<usize>,
    ) -> Decoding {
        Decoding {
            encoding,
            transport,
            memory_limit,
        }
    }

    /// The library's options, or a `ValueError` for an unknown override.
    pub(crate) fn options(&self) -> PyResult<DecodeOptions> {
        let mut options = DecodeOptions::default();
        if let Some(label) = &self.encoding {
            options = options.override_label(label).map_err(decode_error)?;
        }
        if let Some(label) = &self.transport {
            options = options.transport_charset(label.clone());
        }
        Ok(options.memory_limit(self.memory_limit))
    }

    /// A `ValueError` when encoding arguments came with a `str` (which has
    /// no encoding left to choose).
    pub(crate) fn check_for_str(&self) -> PyResult<()> {
        if self.encoding.is_some() || self.transport.is_some() {
            return Err(PyValueError::new_err(
                "encoding= and transport_encoding= apply to bytes only: a str is already decoded",
            ));
        }
        Ok(())
    }
}

/// Runs `f` on the page's text with the GIL released: a `str` as it is,
/// `bytes` decoded as a browser would (BOM, override, transport charset,
/// `<meta>` prescan, then a `<meta>` met while tokenizing), with the
/// encoding it was decoded from.
pub(crate) fn with_text<R: Send>(
    py: Python<'_>,
    html: &Html<'_>,
    decoding: &Decoding,
    f: impl FnOnce(&str, Option<DetectedEncoding>) -> R + Send,
) -> PyResult<R> {
    match html {
        Html::Text(text) => {
            decoding.check_for_str()?;
            Ok(py.detach(|| f(text, None)))
        }
        Html::Bytes(bytes) => {
            let options = decoding.options()?;
            py.detach(|| {
                let doc = Document::from_bytes_resolved(bytes, &options)?;
                let detected = DetectedEncoding::of(&doc);
                Ok(f(doc.text(), Some(detected)))
            })
            .map_err(decode_error)
        }
    }
}

/// A [`DecodeError`] as the Python exception a caller expects.
pub(crate) fn decode_error(error: DecodeError) -> PyErr {
    match &error {
        DecodeError::MemoryLimit(e) => memory_limit_error(e),
        DecodeError::UnknownLabel { .. } => PyValueError::new_err(error.to_string()),
        _ => PyMemoryError::new_err(error.to_string()),
    }
}

/// The library's memory limit error as a [`MemoryLimitError`]: its message,
/// `kind` (the kind's name), `limit`, `needed` and `offset`; `partial`
/// None.
pub(crate) fn memory_limit_error(e: &LimitError) -> PyErr {
    Python::attach(|py| limit_error_with(e, py.None().into_bound(py)))
}

/// [`memory_limit_error`] for an extraction that stopped at the limit:
/// `partial` is what it gives for the page as far as it was read, so that
/// nothing extracted is lost.
pub(crate) fn limit_error_with(e: &LimitError, partial: Bound<'_, PyAny>) -> PyErr {
    let py = partial.py();
    let error = MemoryLimitError::new_err(e.to_string());
    let value = error.value(py);
    let set = || -> PyResult<()> {
        value.setattr("kind", e.kind.name())?;
        value.setattr("limit", e.limit)?;
        value.setattr("needed", e.needed)?;
        value.setattr("offset", e.offset)?;
        value.setattr("partial", &partial)
    };
    match set() {
        Ok(()) => error,
        Err(e) => e,
    }
}

/// The encoding a page's bytes were decoded from, and how it was chosen.
#[pyclass(frozen, get_all, eq, hash, module = "htmltok")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct DetectedEncoding {
    /// The encoding's name in the Encoding Standard (`"utf-8"`,
    /// `"windows-1252"`, ...).
    name: String,
    /// `"certain"` or `"tentative"` (the sniffing's confidence:
    /// https://html.spec.whatwg.org/multipage/parsing.html#concept-encoding-confidence).
    confidence: String,
    /// The step that chose it: `"bom"`, `"override"`, `"transport"`,
    /// `"prescan"`, `"utf8-detection"`, `"default"` or `"meta"`.
    source: String,
    /// Whether some bytes did not decode and became U+FFFD.
    had_errors: bool,
}

impl DetectedEncoding {
    fn of(doc: &Document<'_>) -> DetectedEncoding {
        DetectedEncoding {
            name: doc.encoding_label().to_owned(),
            confidence: doc.confidence().as_str().to_owned(),
            source: doc.source().as_str().to_owned(),
            had_errors: doc.had_errors(),
        }
    }
}

#[pymethods]
impl DetectedEncoding {
    #[new]
    fn new(name: String, confidence: String, source: String, had_errors: bool) -> Self {
        DetectedEncoding {
            name,
            confidence,
            source,
            had_errors,
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.get();
        let args = (
            me.name.clone(),
            me.confidence.clone(),
            me.source.clone(),
            me.had_errors,
        );
        (slf.get_type(), args)
            .into_pyobject(slf.py())
            .map(|t| t.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "DetectedEncoding(name={:?}, confidence={:?}, source={:?}, had_errors={})",
            self.name,
            self.confidence,
            self.source,
            if self.had_errors { "True" } else { "False" }
        )
    }
}

/// The encoding a browser decodes `data` with (the encoding sniffing
/// algorithm, https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm): byte order mark,
/// the override, the transport charset, the `<meta>` prescan, UTF-8
/// detection off, windows-1252 by default, and a `<meta>` met while
/// tokenizing that the prescan missed.
#[pyfunction]
#[pyo3(signature = (data, transport_encoding=None, *, encoding=None))]
pub(crate) fn detect_encoding(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    transport_encoding: Option<String>,
    encoding: Option<String>,
) -> PyResult<DetectedEncoding> {
    let html = Html::from_py(data)?;
    if let Html::Text(_) = html {
        return Err(PyTypeError::new_err(
            "detect_encoding takes bytes: a str is already decoded",
        ));
    }
    let decoding = Decoding::new(encoding, transport_encoding, None);
    with_text(py, &html, &decoding, |_, detected| detected).map(|d| d.expect("bytes are decoded"))
}

/// The text a page's bytes decode to, as [`detect_encoding`] chooses.
#[pyfunction]
#[pyo3(signature = (data, *, encoding=None, transport_encoding=None, memory_limit=None))]
pub(crate) fn decode(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    encoding: Option<String>,
    transport_encoding: Option<String>,
    memory_limit: Option<usize>,
) -> PyResult<String> {
    let html = Html::from_py(data)?;
    let decoding = Decoding::new(encoding, transport_encoding, memory_limit);
    with_text(py, &html, &decoding, |text, _| text.to_owned())
}

/// The Encoding Standard's name for an encoding label (`"latin1"` gives
/// `"windows-1252"`), or `None` for a label that names none.
#[pyfunction]
pub(crate) fn encoding_name(label: &str) -> Option<&'static str> {
    encoding_for_label(label).map(canonical_label)
}
