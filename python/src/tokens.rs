//! `tokenize`: the tokens of a page, as Python objects, made a chunk at a
//! time.
//!
//! The page's text is handed to the library's [`StreamTokenizer`] a chunk
//! ([`CHUNK`] bytes) at a time, as the iterator is pulled: its tokens are
//! those of the whole input (the stream's promise, checked by the crate's
//! chunked tests), and memory stays bounded by the text, one chunk's tokens
//! and the longest token, whatever the page. Each chunk is tokenized with
//! the GIL released.

use std::collections::VecDeque;

use htmltok::bumpalo::Bump;
use htmltok::{
    LineCursor, Options, State, StreamError, StreamOptions, StreamTokenizer, Token as RustToken,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::input::{Decoding, DetectedEncoding, Html, memory_limit_error, with_text};

/// How much of the text one step of the iterator tokenizes.
const CHUNK: usize = 256 << 10;

/// One attribute of a start tag.
#[pyclass(frozen, get_all, eq, hash, module = "htmltok")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Attribute {
    /// The name, lowercased.
    name: String,
    /// The value, character references decoded (`""` for a bare name).
    value: String,
    /// Byte span of the name in the page's UTF-8 text.
    name_span: (usize, usize),
    /// Byte span of the value (without quotes), or `None` for a bare name.
    value_span: Option<(usize, usize)>,
    /// Whether an earlier attribute of the tag has the same name (the
    /// standard drops such an attribute; it is kept here, flagged).
    duplicate: bool,
}

#[pymethods]
impl Attribute {
    #[new]
    #[pyo3(signature = (name, value, name_span, value_span=None, duplicate=false))]
    fn new(
        name: String,
        value: String,
        name_span: (usize, usize),
        value_span: Option<(usize, usize)>,
        duplicate: bool,
    ) -> Self {
        Attribute {
            name,
            value,
            name_span,
            value_span,
            duplicate,
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let a = slf.get();
        let args = (
            a.name.clone(),
            a.value.clone(),
            a.name_span,
            a.value_span,
            a.duplicate,
        );
        (slf.get_type(), args)
            .into_pyobject(slf.py())
            .map(|t| t.into_any())
    }

    fn __repr__(&self) -> String {
        let dup = if self.duplicate {
            ", duplicate=True"
        } else {
            ""
        };
        format!("Attribute({:?}, {:?}{dup})", self.name, self.value)
    }
}

/// A token as the tokenizer made it, before it meets Python.
#[derive(Debug)]
struct RawToken {
    kind: &'static str,
    name: Option<String>,
    data: Option<String>,
    attributes: Vec<Attribute>,
    self_closing: bool,
    public_id: Option<String>,
    system_id: Option<String>,
    force_quirks: bool,
    span: (usize, usize),
}

impl RawToken {
    fn of(token: &RustToken<'_>) -> RawToken {
        let mut raw = RawToken {
            kind: "",
            name: None,
            data: None,
            attributes: Vec::new(),
            self_closing: false,
            public_id: None,
            system_id: None,
            force_quirks: false,
            span: span(token.span()),
        };
        match token {
            RustToken::StartTag(tag) | RustToken::EndTag(tag) => {
                raw.kind = if matches!(token, RustToken::StartTag(_)) {
                    "start_tag"
                } else {
                    "end_tag"
                };
                raw.name = Some(tag.name.to_owned());
                raw.self_closing = tag.self_closing;
                raw.attributes = tag
                    .attributes
                    .iter()
                    .map(|a| Attribute {
                        name: a.name.to_owned(),
                        value: a.value.to_owned(),
                        name_span: span(a.name_span),
                        value_span: a.value_span.map(span),
                        duplicate: a.duplicate,
                    })
                    .collect();
            }
            RustToken::Text(text) => {
                raw.kind = "text";
                raw.data = Some(text.data.to_owned());
            }
            RustToken::Comment(comment) => {
                raw.kind = "comment";
                raw.data = Some(comment.data.to_owned());
            }
            RustToken::Doctype(doctype) => {
                raw.kind = "doctype";
                raw.name = doctype.name.map(str::to_owned);
                raw.public_id = doctype.public_id.map(str::to_owned);
                raw.system_id = doctype.system_id.map(str::to_owned);
                raw.force_quirks = doctype.force_quirks;
            }
        }
        raw
    }
}

fn span(s: htmltok::Span) -> (usize, usize) {
    (s.start, s.end)
}

/// One token: a start tag, end tag, text, comment or doctype.
#[pyclass(frozen, get_all, module = "htmltok")]
#[derive(Debug)]
pub(crate) struct Token {
    /// `"start_tag"`, `"end_tag"`, `"text"`, `"comment"` or `"doctype"`.
    kind: String,
    /// A tag's name (lowercased) or a doctype's name, else `None`.
    name: Option<String>,
    /// The text or comment, else `None`.
    data: Option<String>,
    /// A tag's attributes in source order, duplicates flagged.
    attributes: Py<PyTuple>,
    /// Whether a tag ended with `/>`.
    self_closing: bool,
    /// A doctype's public identifier.
    public_id: Option<String>,
    /// A doctype's system identifier.
    system_id: Option<String>,
    /// A doctype's force-quirks flag.
    force_quirks: bool,
    /// Byte span of the token in the page's UTF-8 text.
    span: (usize, usize),
}

impl Token {
    fn from_raw(py: Python<'_>, raw: RawToken) -> PyResult<Token> {
        let attributes = raw
            .attributes
            .into_iter()
            .map(|a| Py::new(py, a))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Token {
            kind: raw.kind.to_owned(),
            name: raw.name,
            data: raw.data,
            attributes: PyTuple::new(py, attributes)?.unbind(),
            self_closing: raw.self_closing,
            public_id: raw.public_id,
            system_id: raw.system_id,
            force_quirks: raw.force_quirks,
            span: raw.span,
        })
    }

    /// The constructor's arguments, for pickling and equality.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.kind.clone(),
            self.name.clone(),
            self.data.clone(),
            self.attributes.clone_ref(py),
            self.self_closing,
            self.public_id.clone(),
            self.system_id.clone(),
            self.force_quirks,
            self.span,
        )
            .into_pyobject(py)
    }
}

#[pymethods]
impl Token {
    #[new]
    #[pyo3(signature = (
        kind, name=None, data=None, attributes=None, self_closing=false,
        public_id=None, system_id=None, force_quirks=false, span=(0, 0),
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        kind: String,
        name: Option<String>,
        data: Option<String>,
        attributes: Option<Vec<Py<Attribute>>>,
        self_closing: bool,
        public_id: Option<String>,
        system_id: Option<String>,
        force_quirks: bool,
        span: (usize, usize),
    ) -> PyResult<Self> {
        const KINDS: [&str; 5] = ["start_tag", "end_tag", "text", "comment", "doctype"];
        if !KINDS.contains(&kind.as_str()) {
            return Err(PyValueError::new_err(format!(
                "kind must be one of {KINDS:?}, not {kind:?}"
            )));
        }
        Ok(Token {
            kind,
            name,
            data,
            attributes: PyTuple::new(py, attributes.unwrap_or_default())?.unbind(),
            self_closing,
            public_id,
            system_id,
            force_quirks,
            span,
        })
    }

    /// The value of the first attribute named `name`, or `None`.
    fn attr(&self, py: Python<'_>, name: &str) -> PyResult<Option<String>> {
        for a in self.attributes.bind(py).iter() {
            let a = a.cast::<Attribute>()?.get();
            if a.name == name {
                return Ok(Some(a.value.clone()));
            }
        }
        Ok(None)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        (slf.get_type(), slf.get().state(py)?)
            .into_pyobject(py)
            .map(|t| t.into_any())
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<Token>() {
            Ok(other) => self.state(py)?.eq(other.get().state(py)?),
            Err(_) => Ok(false),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let what = match self.kind.as_str() {
            "text" | "comment" => format!("{:?}", self.data.as_deref().unwrap_or("")),
            "doctype" => format!("{:?}", self.name.as_deref().unwrap_or("")),
            _ => {
                let attributes = self.attributes.bind(py);
                let mut s = format!("{:?}", self.name.as_deref().unwrap_or(""));
                if !attributes.is_empty() {
                    s.push_str(", ");
                    s.push_str(&attributes.repr()?.to_string());
                }
                if self.self_closing {
                    s.push_str(", self_closing=True");
                }
                s
            }
        };
        Ok(format!(
            "Token({:?}, {what}, span={:?})",
            self.kind, self.span
        ))
    }
}

/// A parse error (https://html.spec.whatwg.org/multipage/parsing.html#parse-errors): its code, and where in the page it is.
#[pyclass(frozen, get_all, eq, hash, module = "htmltok")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ParseError {
    /// The standard's code, such as `"duplicate-attribute"`.
    code: String,
    /// Byte offset in the page's UTF-8 text.
    offset: usize,
    /// 1-based line (CR, LF and CRLF each end one).
    line: usize,
    /// 1-based column, in UTF-16 code units as html5lib-tests counts them.
    column: usize,
}

#[pymethods]
impl ParseError {
    #[new]
    fn new(code: String, offset: usize, line: usize, column: usize) -> Self {
        ParseError {
            code,
            offset,
            line,
            column,
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let e = slf.get();
        let args = (e.code.clone(), e.offset, e.line, e.column);
        (slf.get_type(), args)
            .into_pyobject(slf.py())
            .map(|t| t.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "ParseError({:?}, offset={}, line={}, column={})",
            self.code, self.offset, self.line, self.column
        )
    }
}

/// Where a [`Tokens`] iterator is.
struct Progress {
    /// The whole text being tokenized.
    text: String,
    /// How much of it has been fed.
    fed: usize,
    stream: StreamTokenizer,
    /// Tokens made and not yet handed out.
    ready: VecDeque<RawToken>,
    /// The end was fed.
    finished: bool,
    /// The memory limit was hit: raised once the tokens before it are out.
    failed: Option<StreamError>,
    /// The parse errors so far, taken out of the stream after each chunk
    /// (what a stream holds counts against its memory limit) and placed.
    errors: Vec<ParseError>,
    /// Where the last error was placed: errors come in order, so placing
    /// them all reads the page once.
    at: LineCursor,
}

impl Progress {
    /// Tokenizes the next chunk into `ready` (GIL released by the caller).
    fn step(&mut self) {
        let arena = Bump::new();
        let rest = &self.text[self.fed..];
        let mut end = rest.len().min(CHUNK);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let chunk = &rest[..end];
        self.fed += end;
        let last = self.fed == self.text.len();
        if last {
            self.finished = true;
        }
        // The feed holds the stream until it is dropped, at the end of
        // this statement.
        match if last {
            self.stream.finish_str(chunk, &arena)
        } else {
            self.stream.feed_str(chunk, &arena)
        } {
            Ok(tokens) => self.ready.extend(tokens.map(|t| RawToken::of(&t))),
            Err(e) => self.failed = Some(e),
        }
        for e in self.stream.take_errors() {
            self.at = self.at.advance(&self.text, e.offset);
            let (line, column) = self.at.line_col();
            self.errors.push(ParseError {
                code: e.code.as_str().to_owned(),
                offset: e.offset,
                line,
                column,
            });
        }
        if let Some(e) = self.stream.error() {
            self.failed = Some(e.clone());
            self.finished = true;
        }
    }
}

/// The tokens of a page, made as they are asked for. Parse errors (with
/// `errors=True`) are in [`Tokens::errors`], complete once the iterator
/// is exhausted.
#[pyclass(module = "htmltok")]
pub(crate) struct Tokens {
    progress: Progress,
    /// The encoding bytes were decoded from (`None` for a `str`).
    #[pyo3(get)]
    encoding: Option<DetectedEncoding>,
}

#[pymethods]
impl Tokens {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Token>> {
        loop {
            if let Some(raw) = self.progress.ready.pop_front() {
                return Token::from_raw(py, raw).map(Some);
            }
            if let Some(error) = self.progress.failed.take() {
                return Err(match error {
                    StreamError::MemoryLimit(e) => memory_limit_error(&e),
                    other => PyValueError::new_err(other.to_string()),
                });
            }
            if self.progress.finished {
                return Ok(None);
            }
            let progress = &mut self.progress;
            py.detach(|| progress.step());
        }
    }

    /// The parse errors found so far, in order (all of them once the
    /// iterator is exhausted); empty unless `errors=True`.
    #[getter]
    fn errors(&self) -> Vec<ParseError> {
        self.progress.errors.clone()
    }
}

/// The content model a tokenizer starts in, by its name in the standard
/// or in html5lib-tests.
fn state_named(name: &str) -> PyResult<State> {
    let key: String = name
        .trim_end_matches(" state")
        .chars()
        .map(|c| match c {
            ' ' | '-' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    Ok(match key.as_str() {
        "data" => State::Data,
        "rcdata" => State::Rcdata,
        "rawtext" => State::Rawtext,
        "script_data" => State::ScriptData,
        "plaintext" => State::Plaintext,
        "cdata_section" => State::CdataSection,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown state {name:?}: expected one of \"data\", \"rcdata\", \"rawtext\", \
                 \"script_data\", \"plaintext\", \"cdata_section\""
            )));
        }
    })
}

/// Tokenizes a page as the HTML Standard's tokenization says
/// (https://html.spec.whatwg.org/multipage/parsing.html#tokenization).
///
/// Returns an iterator of Token objects, made a chunk at a time as it is
/// pulled; with errors=True its `errors` are the parse errors (complete
/// once it is exhausted). `html` is a str, or bytes decoded as a browser
/// decodes them (`encoding=` overrides, `transport_encoding=` is the HTTP
/// charset). Spans are byte offsets into the page's UTF-8 text.
///
///     >>> [(t.kind, t.name, t.data) for t in tokenize("<b>bold</b>")]
///     [('start_tag', 'b', None), ('text', None, 'bold'), ('end_tag', 'b', None)]
///     >>> [t.data for t in tokenize("<title><b></title>")]
///     [None, '<b>', None]
///     >>> [t.kind for t in tokenize("<title><b>", auto_switch=False)]
///     ['start_tag', 'start_tag']
///
/// exact_switching=True decides the switches by following the standard's
/// tree construction exactly (insertion modes, open elements, formatting
/// elements, tables) rather than the default approximation, which differs
/// only on contrived markup:
///
///     >>> [t.kind for t in tokenize("<div><svg></div><![CDATA[x]]>")][-1]
///     'text'
///     >>> [t.kind for t in tokenize("<div><svg></div><![CDATA[x]]>", exact_switching=True)][-1]
///     'comment'
#[pyfunction]
#[pyo3(signature = (
    html, *, errors=false, auto_switch=true, exact_switching=false, scripting=true, state=None,
    last_start_tag=None, encoding=None, transport_encoding=None, memory_limit=None,
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tokenize(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    errors: bool,
    auto_switch: bool,
    exact_switching: bool,
    scripting: bool,
    state: Option<&str>,
    last_start_tag: Option<&str>,
    encoding: Option<String>,
    transport_encoding: Option<String>,
    memory_limit: Option<usize>,
) -> PyResult<Tokens> {
    let mut options = Options::default()
        .errors(errors)
        .auto_switch(auto_switch)
        .exact_switching(exact_switching)
        .scripting(scripting)
        .memory_limit(memory_limit);
    if let Some(state) = state {
        options = options.initial_state(state_named(state)?);
    }
    let html = Html::from_py(html)?;
    let decoding = Decoding::new(encoding, transport_encoding, memory_limit);
    let (text, encoding) = with_text(py, &html, &decoding, |text, detected| {
        (text.to_owned(), detected)
    })?;
    let mut stream = StreamTokenizer::new(
        StreamOptions::default()
            .tokenizer(options)
            .memory_limit(memory_limit),
    );
    stream.set_last_start_tag(last_start_tag);
    Ok(Tokens {
        progress: Progress {
            text,
            fed: 0,
            stream,
            ready: VecDeque::new(),
            finished: false,
            failed: None,
            errors: Vec::new(),
            at: LineCursor::START,
        },
        encoding,
    })
}
