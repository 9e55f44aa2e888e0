//! What an extraction is asked to do: [`ExtractOptions`].

use url::Url;

use crate::tokenizer::Options;

/// How the text is written ([`ExtractOptions::format`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TextFormat {
    /// Lines of plain text (the default).
    #[default]
    Plain,
    /// Markdown: CommonMark with GitHub's pipe tables (headings, lists,
    /// quotes, code, emphasis, links, tables, math; see
    /// [`markdown`](super::markdown)).
    Markdown,
}

impl TextFormat {
    /// The format's name, as the command line and Python take it:
    /// `plain` or `markdown`.
    pub fn name(self) -> &'static str {
        match self {
            TextFormat::Plain => "plain",
            TextFormat::Markdown => "markdown",
        }
    }

    /// The format of a name (`plain`, `text`, `markdown` or `md`, in any
    /// case).
    ///
    /// ```
    /// use htmltok::extract::TextFormat;
    /// assert_eq!(TextFormat::from_name("Markdown"), Some(TextFormat::Markdown));
    /// assert_eq!(TextFormat::from_name("html"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<TextFormat> {
        match name.to_ascii_lowercase().as_str() {
            "plain" | "text" => Some(TextFormat::Plain),
            "markdown" | "md" => Some(TextFormat::Markdown),
            _ => None,
        }
    }
}

/// What to extract, and how.
///
/// ```
/// use htmltok::extract::{extract, ExtractOptions};
///
/// let html = "<p>A <img alt=cat src=c.png> <span hidden>secret</span>sat";
/// let text = |o: &ExtractOptions| extract(html, o).text;
/// assert_eq!(text(&ExtractOptions::default()), "A sat");
/// assert_eq!(text(&ExtractOptions::default().alt_text(true)), "A cat sat");
/// assert_eq!(text(&ExtractOptions::default().hidden(false)), "A secretsat");
/// assert_eq!(text(&ExtractOptions::default().text_limit(3)), "A s");
/// ```
#[derive(Clone, Debug)]
pub struct ExtractOptions {
    pub(super) text: bool,
    pub(super) links: bool,
    pub(super) metadata: bool,
    pub(super) alt_text: bool,
    pub(super) hidden: bool,
    /// Set by [`ExtractOptions::scripting`]; `None` is the default, which
    /// depends on [`ExtractOptions::main_content`].
    scripting: Option<bool>,
    pub(super) offsets: bool,
    pub(super) main_content: bool,
    pub(super) format: TextFormat,
    pub(super) link_targets: bool,
    pub(super) text_limit: usize,
    pub(super) metadata_limit: usize,
    pub(super) memory_limit: Option<usize>,
    pub(super) url: Option<Url>,
}

impl Default for ExtractOptions {
    /// Text, links and metadata; `hidden` honoured, no alt text, scripting
    /// on, no offsets, no cap on the text, 4 MiB of metadata, no memory
    /// limit, no page URL.
    fn default() -> ExtractOptions {
        ExtractOptions {
            text: true,
            links: true,
            metadata: true,
            alt_text: false,
            hidden: true,
            scripting: None,
            offsets: false,
            main_content: false,
            format: TextFormat::Plain,
            link_targets: true,
            text_limit: usize::MAX,
            metadata_limit: 4 << 20,
            memory_limit: None,
            url: None,
        }
    }
}

impl ExtractOptions {
    /// Whether to extract the visible text (default on).
    pub fn text(mut self, on: bool) -> ExtractOptions {
        self.text = on;
        self
    }

    /// Whether to extract links (default on).
    pub fn links(mut self, on: bool) -> ExtractOptions {
        self.links = on;
        self
    }

    /// Whether to extract metadata (default on).
    pub fn metadata(mut self, on: bool) -> ExtractOptions {
        self.metadata = on;
        self
    }

    /// Whether the `alt` text of images (`<img>`, `<input type=image>`)
    /// is part of the text, as a word between spaces (default off: a
    /// browser shows it only when the image is missing).
    pub fn alt_text(mut self, on: bool) -> ExtractOptions {
        self.alt_text = on;
        self
    }

    /// Whether an element with the `hidden` attribute is left out with
    /// its content, as a browser renders it (default on).
    pub fn hidden(mut self, on: bool) -> ExtractOptions {
        self.hidden = on;
        self
    }

    /// Whether scripting is on, which hides `<noscript>` and `<canvas>`
    /// content (default on, as in a browser and in the tokenizer's
    /// [`Options::scripting`]; but off with
    /// [`ExtractOptions::main_content`]: an indexer runs no scripts, and
    /// pages such as Discourse forums put their whole content in
    /// `<noscript>` for it).
    pub fn scripting(mut self, on: bool) -> ExtractOptions {
        self.scripting = Some(on);
        self
    }

    /// Whether to record, for each piece of output text, the span of the
    /// input it came from ([`TextRun`](super::TextRun); default off).
    pub fn offsets(mut self, on: bool) -> ExtractOptions {
        self.offsets = on;
        self
    }

    /// Whether the text is the page's main content only: its article,
    /// post, product description or documentation, without navigation,
    /// headers and footers, banners, share bars, "related" lists, comments
    /// and sidebars (default off: all the visible text). The text keeps
    /// the lines of the whole text (each kept line is a line of it, and
    /// with [`ExtractOptions::offsets`] each run is a run of it at the same
    /// source offsets); [`Extracted::main_content`](super::Extracted::main_content) says whether main
    /// content was found or the page fell back to all of its text, and
    /// each [`Link`](super::Link) says whether it lies in the main content.
    /// The text is only known once the page is read
    /// ([`Extractor::finish`](super::Extractor::finish)): an extractor
    /// holds it until then. See [`main_content`](super::main_content) for
    /// how it decides.
    ///
    /// ```
    /// use htmltok::extract::{extract, ExtractOptions, MainContent};
    ///
    /// let html = r#"<nav><a href=/>Home</a> <a href=/news>News</a></nav>
    ///   <article><h1>Rain tomorrow</h1>
    ///   <p>The weather service expects heavy rain across the region tomorrow,
    ///   with up to forty millimetres falling in the hills by the evening.</p>
    ///   <p>Farmers welcomed the news after a dry month, and the reservoirs,
    ///   which stood at half their usual level, should begin to fill again.</p>
    ///   </article>
    ///   <footer>© 2026 Example News · <a href=/privacy>Privacy</a></footer>"#;
    /// let found = extract(html, &ExtractOptions::default().main_content(true));
    /// assert_eq!(found.main_content, MainContent::Found);
    /// assert!(found.text.starts_with("Rain tomorrow\nThe weather service"));
    /// assert!(!found.text.contains("Privacy") && !found.text.contains("News\n"));
    /// ```
    pub fn main_content(mut self, on: bool) -> ExtractOptions {
        self.main_content = on;
        self
    }

    /// How the text is written: plain lines (the default) or Markdown.
    /// With Markdown, the text keeps the page's structure (headings,
    /// lists, tables, code, emphasis and links); it is the same visible
    /// text, so that rendered and read as plain text it has the same
    /// words in the same order. [`ExtractOptions::main_content`] keeps the
    /// main content's blocks of it; [`ExtractOptions::text_limit`] caps it;
    /// with [`ExtractOptions::alt_text`] images are written as
    /// `![alt](src)`. Offsets ([`ExtractOptions::offsets`]) are not
    /// recorded for Markdown, whose text is rewritten where a table or a
    /// code block ends. See [`markdown`](super::markdown) for what each
    /// element becomes.
    ///
    /// ```
    /// use htmltok::extract::{extract, ExtractOptions, TextFormat};
    ///
    /// let html = r#"<h2>Install</h2><p>Run <code>cargo add htmltok</code>, then
    ///   read <a href="/docs">the <em>docs</em></a>.</p>
    ///   <ul><li>fast<li>exact</ul>"#;
    /// let options = ExtractOptions::default().format(TextFormat::Markdown);
    /// assert_eq!(
    ///     extract(html, &options).text,
    ///     "## Install\n\nRun `cargo add htmltok`, then read [the *docs*](/docs).\n\n- fast\n- exact"
    /// );
    /// ```
    pub fn format(mut self, format: TextFormat) -> ExtractOptions {
        self.format = format;
        self
    }

    /// How the text is written ([`ExtractOptions::format`]).
    pub fn text_format(&self) -> TextFormat {
        self.format
    }

    /// With Markdown, whether links are written as `[text](url)` (the
    /// default) or as their text alone.
    pub fn link_targets(mut self, on: bool) -> ExtractOptions {
        self.link_targets = on;
        self
    }

    /// The most bytes of text to write (cut at a character boundary;
    /// default: no cap). [`Extracted::text_truncated`](super::Extracted::text_truncated) says when it cut.
    pub fn text_limit(mut self, bytes: usize) -> ExtractOptions {
        self.text_limit = bytes;
        self
    }

    /// The most bytes of metadata values to hold (default 4 MiB); past it
    /// values are left out and [`Metadata::truncated`](super::Metadata::truncated) is set.
    pub fn metadata_limit(mut self, bytes: usize) -> ExtractOptions {
        self.metadata_limit = bytes;
        self
    }

    /// The most bytes the extraction may hold (default `None`: no limit),
    /// as [`Options::memory_limit`] bounds the tokenizer: the same limit
    /// for the extractor and for the tokenizer that [`extract`](super::extract)
    /// feeds it from (and that [`ExtractOptions::tokenizer_options`]
    /// gives).
    ///
    /// What the extractor holds is what it has not handed out: the text
    /// and its runs, the links, main content's blocks, the Markdown and
    /// an open table's cells. With [`ExtractOptions::main_content`] or
    /// Markdown that is the whole page's text until its end (the blocks to
    /// keep, a table's layout, are only known then), and so it is for
    /// [`extract`](super::extract), which hands the text out at the end;
    /// a caller that streams the plain text and takes it as it goes holds
    /// little. The metadata keeps its own cap
    /// ([`ExtractOptions::metadata_limit`]). What is held is measured as it
    /// grows, every 64 KiB or so of text and markup taken in, or an eighth
    /// of the limit if that is less (and before any longer text is taken),
    /// as the tokenizer measures its arena every 4 KiB of input: buffers
    /// grow by doubling, so what is held may pass
    /// the limit by a doubling before the extractor stops (the text's
    /// buffer grows only into what the limit leaves it, where it can).
    ///
    /// Past the limit the extractor takes nothing more of the page (no
    /// text, links, blocks or metadata), as if the page ended there:
    /// [`Extractor::finish`](super::Extractor::finish) gives what was
    /// taken before (main content decided over it) and says where it
    /// stopped in [`Extracted::memory_limit`](super::Extracted::memory_limit):
    /// a [`MemoryLimitError`](crate::MemoryLimitError) of kind
    /// [`MemoryLimitKind::Extract`](crate::MemoryLimitKind::Extract), or
    /// [`Tokenizer`](crate::MemoryLimitKind::Tokenizer) when the tokenizer
    /// stopped first. The page is reported, not dropped silently, and
    /// nothing extracted of it is lost. (At the end, main content's text
    /// is copied out of the page's: at most as much again.)
    ///
    /// ```
    /// use htmltok::extract::{extract, ExtractOptions};
    /// use htmltok::MemoryLimitKind;
    ///
    /// let page = "<p>The survey of the deep ocean floor found the trench deeper \
    ///     than the old charts had it.".repeat(20_000);
    /// let options = ExtractOptions::default().main_content(true);
    /// let found = extract(&page, &options.clone().memory_limit(Some(256 << 10)));
    /// let stopped = found.memory_limit.expect("past the limit");
    /// assert_eq!(stopped.kind, MemoryLimitKind::Extract);
    /// assert_eq!(stopped.limit, 256 << 10);
    /// // What came before where it stopped is extracted, as a page that
    /// // ended there is.
    /// let at = stopped.offset.expect("where it stopped");
    /// assert!(at > 64 << 10 && at < page.len());
    /// assert_eq!(found.text, extract(&page[..at], &options).text);
    /// // Without a limit the whole page is read.
    /// assert!(extract(&page, &options).memory_limit.is_none());
    /// ```
    pub fn memory_limit(mut self, limit: Option<usize>) -> ExtractOptions {
        self.memory_limit = limit;
        self
    }

    /// The tokenizer options these extraction options go with: the
    /// defaults, with [`Options::scripting`] and
    /// [`Options::memory_limit`] as set here. Tokenize with them when
    /// feeding an [`Extractor`](super::Extractor) yourself.
    pub fn tokenizer_options(&self) -> Options {
        Options::default()
            .scripting(self.scripting_on())
            .memory_limit(self.memory_limit)
    }

    /// Whether scripting is on: as set, or by default on unless main
    /// content is asked for.
    pub(super) fn scripting_on(&self) -> bool {
        self.scripting.unwrap_or(!self.main_content)
    }

    /// The address the page was fetched from, which its relative URLs
    /// (and its `<base href>`) are resolved against (default none:
    /// relative URLs stay as written).
    pub fn url(mut self, url: Option<Url>) -> ExtractOptions {
        self.url = url;
        self
    }
}
