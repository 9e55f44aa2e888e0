//! Text, links and metadata as plain Python data (`str`, `dict`, `list`,
//! `tuple`): what a pipeline pickles to its workers, writes as JSON Lines
//! or puts in a Parquet column, with no class of this package needed to
//! read it back.
//!
//! The extraction itself is the library's `htmltok::extract`, run with the
//! GIL released; only the conversion of its results holds the GIL.

use htmltok::MemoryLimitError;
use htmltok::extract::{ExtractOptions, Extracted, Link, MainContent, Metadata, TextFormat};
use htmltok::url::Url;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::input::{Decoding, Html, limit_error_with, with_text};

/// What to extract and how: the keyword arguments of `extract`.
#[derive(Clone, Debug)]
pub(crate) struct Wanted {
    /// Which of text, links and metadata go into the result.
    pub(crate) text: bool,
    pub(crate) links: bool,
    pub(crate) metadata: bool,
    pub(crate) alt_text: bool,
    pub(crate) show_hidden: bool,
    /// Scripting as the caller set it; `None` is the library's default (on,
    /// but off with main content).
    pub(crate) scripting: Option<bool>,
    /// The text is the page's main content.
    pub(crate) main_content: bool,
    /// The text's runs with their spans (only with the text).
    pub(crate) offsets: bool,
    /// Plain lines or Markdown.
    pub(crate) format: TextFormat,
    /// With Markdown, links written with their targets.
    pub(crate) link_targets: bool,
    pub(crate) text_limit: Option<usize>,
    pub(crate) metadata_limit: Option<usize>,
    /// The page's address.
    pub(crate) url: Option<Url>,
}

impl Default for Wanted {
    /// Text, links and metadata with the library's default options.
    fn default() -> Wanted {
        Wanted {
            text: true,
            links: true,
            metadata: true,
            alt_text: false,
            show_hidden: false,
            scripting: None,
            main_content: false,
            offsets: false,
            format: TextFormat::Plain,
            link_targets: true,
            text_limit: None,
            metadata_limit: None,
            url: None,
        }
    }
}

impl Wanted {
    /// Only the parts asked for, with default options.
    fn parts(text: bool, links: bool, metadata: bool) -> Wanted {
        Wanted {
            text,
            links,
            metadata,
            ..Wanted::default()
        }
    }

    /// With the page URL a caller gave: a `ValueError` when it does not
    /// parse as an absolute URL.
    pub(crate) fn with_url(mut self, url: Option<&str>) -> PyResult<Wanted> {
        self.url = match url {
            None => None,
            Some(url) => Some(Url::parse(url).map_err(|e| {
                PyValueError::new_err(format!("url {url:?} is not an absolute URL: {e}"))
            })?),
        };
        Ok(self)
    }

    /// With the text format a caller named (`"plain"` or `"markdown"`):
    /// a `ValueError` for another name, or for Markdown with offsets
    /// (Markdown is written anew where a table or a code block ends, so
    /// its runs are not recorded).
    pub(crate) fn with_format(mut self, format: &str, link_targets: bool) -> PyResult<Wanted> {
        self.format = TextFormat::from_name(format).ok_or_else(|| {
            PyValueError::new_err(format!(
                "format {format:?} is not a text format (expected \"plain\" or \"markdown\")"
            ))
        })?;
        if self.format == TextFormat::Markdown && self.runs() {
            return Err(PyValueError::new_err(
                "offsets=True cannot be used with format=\"markdown\" \
                 (Markdown is written anew where a table or a code block ends)",
            ));
        }
        self.link_targets = link_targets;
        Ok(self)
    }

    /// With a record's target URI: one that does not parse leaves relative
    /// links as written.
    pub(crate) fn at(mut self, url: &str) -> Wanted {
        self.url = Url::parse(url).ok();
        self
    }

    /// Whether the text's runs go into the result.
    fn runs(&self) -> bool {
        self.offsets && self.text
    }

    /// The library's options.
    pub(crate) fn options(&self) -> ExtractOptions {
        let mut options = ExtractOptions::default()
            .text(self.text)
            .links(self.links)
            .metadata(self.metadata)
            .url(self.url.clone())
            .alt_text(self.alt_text)
            .hidden(!self.show_hidden)
            .main_content(self.main_content)
            .format(self.format)
            .link_targets(self.link_targets)
            .offsets(self.runs());
        if let Some(on) = self.scripting {
            options = options.scripting(on);
        }
        if let Some(limit) = self.text_limit {
            options = options.text_limit(limit);
        }
        if let Some(limit) = self.metadata_limit {
            options = options.metadata_limit(limit);
        }
        options
    }
}

/// A page's results as a `dict` (GIL released while extracting): what
/// every function here and a WARC record's `extract` return. Past
/// `memory_limit=` (the decoding's, the tokenizer's or the extraction's),
/// `MemoryLimitError`, with the `dict` of the page as far as it was read.
pub(crate) fn extract_dict<'py>(
    py: Python<'py>,
    html: &Html<'_>,
    wanted: &Wanted,
    decoding: &Decoding,
) -> PyResult<Bound<'py, PyDict>> {
    let (found, stopped) = extract_dict_as_far_as_read(py, html, wanted, decoding)?;
    match stopped {
        Some(error) => Err(limit_error_with(&error, found.into_any())),
        None => Ok(found),
    }
}

/// [`extract_dict`], and where a memory limit stopped the extraction, if
/// one did (the `dict` is then the page's as far as it was read).
fn extract_dict_as_far_as_read<'py>(
    py: Python<'py>,
    html: &Html<'_>,
    wanted: &Wanted,
    decoding: &Decoding,
) -> PyResult<(Bound<'py, PyDict>, Option<MemoryLimitError>)> {
    let options = wanted.options().memory_limit(decoding.memory_limit);
    let (found, runs) = with_text(py, html, decoding, |text, _| {
        let found = extract_reusing_arena(text, &options);
        let runs = char_runs(&found);
        (found, runs)
    })?;
    Ok((to_dict(py, &found, &runs, wanted)?, found.memory_limit))
}

/// The most an arena kept for the next page may hold: a page whose tokens
/// took more gives its arena back (memory stays bounded by what one page
/// needs, not by the largest page seen).
const ARENA_KEPT_MAX: usize = 64 << 20;

thread_local! {
    /// The arena of the pages extracted on this thread, reset for each.
    static ARENA: core::cell::RefCell<htmltok::bumpalo::Bump> = Default::default();
}

/// `htmltok::extract::extract` in this thread's arena: a pipeline calls
/// `text()` page after page, and a new arena for each page was allocated,
/// faulted in and given back to the system every time (with glibc's
/// allocator, up to a third of the time of `text()` over the corpus).
pub(crate) fn extract_reusing_arena(
    text: &str,
    options: &htmltok::extract::ExtractOptions,
) -> Extracted {
    ARENA.with(|arena| match arena.try_borrow_mut() {
        Ok(mut arena) => {
            let found = htmltok::extract::extract_in(text, options, &mut arena);
            if arena.allocated_bytes() > ARENA_KEPT_MAX {
                *arena = Default::default();
            }
            found
        }
        // Not reentrant; never reached (no Python runs inside), but safe.
        Err(_) => htmltok::extract::extract(text, options),
    })
}

/// Each text run as (start, end) in characters of the output text and
/// (start, end) in bytes of the page: Python slices the `str` it gets by
/// characters, and everything else in the package gives page offsets in
/// bytes.
pub(crate) fn char_runs(found: &Extracted) -> Vec<[usize; 4]> {
    let mut runs = Vec::with_capacity(found.runs.len());
    let (mut byte, mut chars) = (0, 0);
    let count = |from: usize, to: usize| {
        found.text.as_bytes()[from..to]
            .iter()
            .filter(|&&b| (b as i8) >= -0x40)
            .count()
    };
    for run in &found.runs {
        // Runs are in output order; each count starts where the last ended.
        let start = chars + count(byte, run.text.start);
        let end = start + count(run.text.start, run.text.end);
        runs.push([start, end, run.source.start, run.source.end]);
        (byte, chars) = (run.text.end, end);
    }
    runs
}

/// A result as a `dict` with the parts asked for.
pub(crate) fn to_dict<'py>(
    py: Python<'py>,
    found: &Extracted,
    runs: &[[usize; 4]],
    wanted: &Wanted,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    if wanted.text {
        out.set_item(intern!(py, "text"), PyString::new(py, &found.text))?;
        out.set_item(intern!(py, "text_truncated"), found.text_truncated)?;
    }
    if wanted.text && wanted.main_content {
        out.set_item(
            intern!(py, "main_content"),
            main_content_name(found.main_content),
        )?;
    }
    if wanted.runs() {
        let runs = runs
            .iter()
            .map(|[a, b, c, d]| ((*a, *b), (*c, *d)))
            .collect::<Vec<_>>();
        out.set_item(intern!(py, "runs"), runs)?;
    }
    if wanted.links {
        out.set_item(intern!(py, "links"), links_to_list(py, &found.links)?)?;
    }
    if wanted.metadata {
        out.set_item(
            intern!(py, "metadata"),
            metadata_to_dict(py, &found.metadata)?,
        )?;
    }
    Ok(out)
}

/// What a result's `main_content` says of its text.
pub(crate) fn main_content_name(outcome: MainContent) -> &'static str {
    match outcome {
        MainContent::Found => "found",
        MainContent::Empty => "empty",
        MainContent::OverLimit => "over_limit",
        MainContent::NotAsked => "not_asked",
        _ => "all_text",
    }
}

/// Links as a list of dicts, every key always there (`None` when absent),
/// so that rows of a table line up.
pub(crate) fn links_to_list<'py>(py: Python<'py>, links: &[Link]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for link in links {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "tag"), link.tag)?;
        d.set_item(intern!(py, "attr"), link.attr)?;
        d.set_item(intern!(py, "url"), link.url())?;
        d.set_item(intern!(py, "raw"), link.raw())?;
        d.set_item(intern!(py, "error"), link.error.as_deref())?;
        d.set_item(intern!(py, "span"), (link.span.start, link.span.end))?;
        d.set_item(intern!(py, "rel"), link.rel.keywords().collect::<Vec<_>>())?;
        d.set_item(intern!(py, "hreflang"), link.hreflang())?;
        d.set_item(intern!(py, "anchor_text"), link.anchor_text())?;
        d.set_item(intern!(py, "in_main_content"), link.in_main_content)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Metadata as a dict of the same fields as `htmltok meta` prints.
pub(crate) fn metadata_to_dict<'py>(
    py: Python<'py>,
    meta: &Metadata,
) -> PyResult<Bound<'py, PyDict>> {
    let pairs = |pairs: &[(String, String)]| -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for (property, content) in pairs {
            let d = PyDict::new(py);
            d.set_item(intern!(py, "property"), property)?;
            d.set_item(intern!(py, "content"), content)?;
            out.append(d)?;
        }
        Ok(out)
    };
    let d = PyDict::new(py);
    d.set_item(intern!(py, "title"), &meta.title)?;
    d.set_item(intern!(py, "lang"), &meta.lang)?;
    d.set_item(intern!(py, "charset"), &meta.charset)?;
    d.set_item(intern!(py, "base"), &meta.base)?;
    d.set_item(intern!(py, "canonical"), &meta.canonical)?;
    d.set_item(intern!(py, "description"), &meta.description)?;
    d.set_item(intern!(py, "keywords"), &meta.keywords)?;
    d.set_item(intern!(py, "robots"), &meta.robots)?;
    let alternates = PyList::empty(py);
    for a in &meta.alternates {
        let entry = PyDict::new(py);
        entry.set_item(intern!(py, "href"), &a.href)?;
        entry.set_item(intern!(py, "hreflang"), &a.hreflang)?;
        entry.set_item(intern!(py, "type"), &a.media_type)?;
        alternates.append(entry)?;
    }
    d.set_item(intern!(py, "alternates"), alternates)?;
    let refresh = match &meta.refresh {
        Some(r) => {
            let entry = PyDict::new(py);
            entry.set_item(intern!(py, "seconds"), r.seconds)?;
            entry.set_item(intern!(py, "url"), &r.url)?;
            Some(entry)
        }
        None => None,
    };
    d.set_item(intern!(py, "refresh"), refresh)?;
    d.set_item(intern!(py, "open_graph"), pairs(&meta.open_graph)?)?;
    d.set_item(intern!(py, "twitter"), pairs(&meta.twitter)?)?;
    d.set_item(intern!(py, "json_ld"), &meta.json_ld)?;
    let tags = PyList::empty(py);
    for m in &meta.meta {
        let entry = PyDict::new(py);
        entry.set_item(intern!(py, "key"), m.key.as_str())?;
        entry.set_item(intern!(py, "value"), &m.value)?;
        entry.set_item(intern!(py, "content"), &m.content)?;
        tags.append(entry)?;
    }
    d.set_item(intern!(py, "meta"), tags)?;
    d.set_item(intern!(py, "truncated"), meta.truncated)?;
    Ok(d)
}

/// Text, links and metadata of a page in one pass.
///
/// Returns a dict with the parts asked for: "text" and "text_truncated",
/// "runs" (with offsets=True: the character span of each run of text and
/// the byte span of the page it came from), "links" (dicts) and
/// "metadata" (a dict). Links are resolved against `url` and the page's
/// <base href>.
///
/// With main_content=True the text is the page's main content (its
/// article, post, product or documentation, without navigation, footers,
/// banners, comments and sidebars), "main_content" says what it is
/// ("found", or "all_text", "empty" or "over_limit" when it is all the
/// text and why), and each link's "in_main_content" whether the link lies
/// in it. Scripting is off by default then (<noscript> content is read).
///
/// With format="markdown" the text is Markdown (CommonMark with GitHub's
/// tables: headings, lists, quotes, code, emphasis, links resolved against
/// `url`, tables; images with alt_text=True); link_targets=False writes
/// links as their text alone. Not with offsets=True.
///
/// memory_limit caps, in bytes, the page decoded to text (for bytes), the
/// tokenizer, and what the extraction holds until the page ends (its text,
/// main content's blocks, the links, the Markdown). Past it,
/// MemoryLimitError is raised ("decode", "tokenizer" or "extract" its
/// kind), with `partial` the result for the page as far as it was read.
///
///     >>> found = extract('<title>T</title><p>Hi <a href="/x">there</a>', url="https://e.com/a/")
///     >>> found["text"], found["links"][0]["url"], found["metadata"]["title"]
///     ('Hi there', 'https://e.com/x', 'T')
#[pyfunction]
#[pyo3(signature = (
    html, *, url=None, text=true, links=true, metadata=true, alt_text=false,
    show_hidden=false, scripting=None, main_content=false, offsets=false, text_limit=None,
    metadata_limit=None, format="plain", link_targets=true, encoding=None,
    transport_encoding=None, memory_limit=None,
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn extract<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<&str>,
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
    encoding: Option<String>,
    transport_encoding: Option<String>,
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
    .with_url(url)?
    .with_format(format, link_targets)?;
    let decoding = Decoding::new(encoding, transport_encoding, memory_limit);
    extract_dict(py, &Html::from_py(html)?, &wanted, &decoding)
}

/// The visible text of a page, as lines of collapsed text.
///
/// Script, style, template and head content, the title included (it is
/// metadata), are left out; block elements and <br> break lines; <pre>
/// keeps its line breaks; `hidden` elements are left out unless
/// show_hidden=True; image alt text is put in with alt_text=True. With
/// main_content=True, only the page's main content (see `extract`). With
/// format="markdown", the text as Markdown (see `extract`; links resolved
/// against `url`). Past memory_limit, MemoryLimitError with `partial` the
/// text as far as the page was read (see `extract`).
///
///     >>> text("<h1>Menu</h1><p>Cod,   chips<script>x()</script><br>peas")
///     'Menu\nCod, chips\npeas'
///     >>> text("<h1>Menu</h1><ul><li><b>Cod</b><li>chips</ul>", format="markdown")
///     '# Menu\n\n- **Cod**\n- chips'
#[pyfunction]
#[pyo3(signature = (
    html, *, alt_text=false, show_hidden=false, scripting=None, main_content=false,
    text_limit=None, format="plain", link_targets=true, url=None, encoding=None,
    transport_encoding=None, memory_limit=None,
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn text<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    alt_text: bool,
    show_hidden: bool,
    scripting: Option<bool>,
    main_content: bool,
    text_limit: Option<usize>,
    format: &str,
    link_targets: bool,
    url: Option<&str>,
    encoding: Option<String>,
    transport_encoding: Option<String>,
    memory_limit: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let wanted = Wanted {
        alt_text,
        show_hidden,
        scripting,
        main_content,
        text_limit,
        ..Wanted::parts(true, false, false)
    }
    .with_url(url)?
    .with_format(format, link_targets)?;
    part(
        py,
        html,
        wanted,
        "text",
        encoding,
        transport_encoding,
        memory_limit,
    )
}

/// The links of a page, resolved against `url` and its <base href>.
///
///     >>> [(l["tag"], l["url"], l["anchor_text"]) for l in links('<a href="b">B</a>', url="https://e.com/a/")]
///     [('a', 'https://e.com/a/b', 'B')]
#[pyfunction]
#[pyo3(signature = (html, *, url=None, encoding=None, transport_encoding=None, memory_limit=None))]
pub(crate) fn links<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<&str>,
    encoding: Option<String>,
    transport_encoding: Option<String>,
    memory_limit: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let wanted = Wanted::parts(false, true, false).with_url(url)?;
    part(
        py,
        html,
        wanted,
        "links",
        encoding,
        transport_encoding,
        memory_limit,
    )
}

/// The metadata of a page.
#[pyfunction]
#[pyo3(signature = (html, *, url=None, encoding=None, transport_encoding=None, memory_limit=None))]
pub(crate) fn metadata<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<&str>,
    encoding: Option<String>,
    transport_encoding: Option<String>,
    memory_limit: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let wanted = Wanted::parts(false, false, true).with_url(url)?;
    part(
        py,
        html,
        wanted,
        "metadata",
        encoding,
        transport_encoding,
        memory_limit,
    )
}

/// One part of a page's results.
fn part<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    wanted: Wanted,
    key: &str,
    encoding: Option<String>,
    transport_encoding: Option<String>,
    memory_limit: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let decoding = Decoding::new(encoding, transport_encoding, memory_limit);
    let (found, stopped) =
        extract_dict_as_far_as_read(py, &Html::from_py(html)?, &wanted, &decoding)?;
    let part = found
        .get_item(key)?
        .ok_or_else(|| PyValueError::new_err(format!("no {key} extracted")))?;
    match stopped {
        Some(error) => Err(limit_error_with(&error, part)),
        None => Ok(part),
    }
}
