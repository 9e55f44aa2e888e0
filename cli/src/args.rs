//! The command line's arguments, as clap reads them: one struct a command,
//! the options every command shares ([`InputArgs`], [`ReadArgs`]), how
//! their values are parsed, and the one check clap cannot make. What each
//! command does with them is in the command's own file; the prose of
//! `--help` after the options is in `help.rs`.

use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use htmltok::encoding_rs::Encoding;
use htmltok::extract::{ExtractOptions, TextFormat};

use crate::help::{
    ENCODING_AFTER_HELP, ERRORS_AFTER_HELP, LINKS_AFTER_HELP, MAIN_AFTER_HELP, META_AFTER_HELP,
    STATS_AFTER_HELP, TEXT_AFTER_HELP, TOKENS_AFTER_HELP, WET_AFTER_HELP,
};
use crate::input;
use crate::page::{BinaryInputs, Decoding, Reading};
use crate::run;

/// The heading of the options every command shares.
const INPUT_HELP: &str = "Input";

/// A WHATWG-exact, zero-copy HTML tokenizer.
#[derive(Debug, Parser)]
#[command(name = "htmltok", version, after_help = MAIN_AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the tokens (and optionally the parse errors) of HTML files.
    Tokens(TokensArgs),
    /// Print the visible text of pages.
    Text(TextArgs),
    /// Print the URLs pages link to, resolved.
    Links(LinksArgs),
    /// Print the title, language, charset, canonical URL, robots and <meta>s
    /// of pages.
    Meta(MetaArgs),
    /// Print the parse errors of pages, like a compiler, and a summary.
    Errors(ErrorsArgs),
    /// Print sizes, token counts, parse errors and tokenizer speed.
    Stats(StatsArgs),
    /// Print the character encoding of pages, as a browser decides it.
    Encoding(EncodingArgs),
    /// Write the text of WARC archives' pages as WET files (Common Crawl's
    /// format).
    Wet(WetArgs),
}

impl Cli {
    /// Checks what clap cannot: combinations that depend on a value; exits
    /// with a usage error (status 2) on one that does not go.
    pub fn check_usage(&self) {
        if let Some(Command::Tokens(args)) = &self.command
            && args.format == TokensFormat::Html5lib
            && args.read.encoding.is_some()
        {
            usage_error(
                "tokens",
                ErrorKind::ArgumentConflict,
                "the argument '--encoding <LABEL>' cannot be used with '--format html5lib' \
                 (html5lib input is UTF-8 as it is)",
            );
        }
        if let Some(Command::Text(args)) = &self.command {
            if args.offsets && args.text.format == TextFormat::Markdown {
                usage_error(
                    "text",
                    ErrorKind::ArgumentConflict,
                    "the argument '--offsets' cannot be used with '--format markdown' \
                     (Markdown is written anew where a table or a code block ends)",
                );
            }
            if args.text.no_link_targets && args.text.format != TextFormat::Markdown {
                usage_error(
                    "text",
                    ErrorKind::ArgumentConflict,
                    "the argument '--no-link-targets' needs '--format markdown'",
                );
            }
        }
    }
}

/// Exits with a usage error (status 2) about `command`'s arguments, as
/// clap reports its own.
pub fn usage_error(command: &str, kind: ErrorKind, message: &str) -> ! {
    let mut cli = Cli::command();
    cli.build();
    let command = cli
        .find_subcommand_mut(command)
        .expect("a subcommand of htmltok");
    command.error(kind, message).exit()
}

/// The inputs and how to process them: shared by every command.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// HTML files, WARC archives or directories to read; standard input
    /// when none, or for `-`. Files ending in .gz are decompressed.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// In directories, read only files whose name matches GLOB (repeat for
    /// several; default: *.htm, *.html, *.xhtml, *.warc). A .gz suffix is looked
    /// through: *.html also matches page.html.gz. Files named on the command
    /// line are read whatever their name.
    #[arg(long = "glob", value_name = "GLOB", value_parser = parse_glob, help_heading = INPUT_HELP)]
    pub globs: Vec<String>,

    /// Process N files at once [default: the number of cores].
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), help_heading = INPUT_HELP)]
    pub jobs: Option<u16>,

    /// Skip inputs whose first bytes are binary data (a control character
    /// other than whitespace in the first 1445 bytes and no byte order
    /// mark, as the MIME Sniffing Standard decides), reporting each. Off by
    /// default: every input is tokenized. (Not the pages of a WARC archive:
    /// they are HTML by their type, or sniffed as HTML, already.)
    #[arg(long, help_heading = INPUT_HELP)]
    pub skip_binary: bool,

    /// Read and tokenize each input SIZE bytes at a time (K, M, G suffixes;
    /// an input no longer is tokenized whole); the output is the same for
    /// any SIZE.
    #[arg(long, value_name = "SIZE", default_value = "1M", value_parser = parse_chunk_size, help_heading = INPUT_HELP)]
    pub chunk_size: usize,

    /// The most memory the tokenizer may take for one input (besides the
    /// chunk): a construct cut by a chunk boundary (a comment, a tag, a
    /// value: held while it grows and copied to be tokenized again, it may
    /// be a quarter of SIZE), the open elements it tracks, the parse errors
    /// not yet reported, and the strings of one chunk's tokens; and what
    /// `text --main-content` and `--format markdown` hold of a page until
    /// its end (its text, blocks and links: a quarter of SIZE). An input
    /// that needs more is processed up to there and reported.
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = parse_memory_limit, help_heading = INPUT_HELP)]
    pub memory_limit: usize,

    /// The most a gzip input may inflate to (a guard against gzip bombs);
    /// past it, the input is processed up to there and reported. (A WARC
    /// archive is bounded per record instead: a record past 64 MiB is
    /// skipped and reported.)
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = input::parse_size, help_heading = INPUT_HELP)]
    pub gunzip_limit: u64,
}

fn parse_chunk_size(arg: &str) -> Result<usize, String> {
    match input::parse_size(arg)? {
        0 => Err("a chunk is at least 1 byte".to_owned()),
        n => usize::try_from(n).map_err(|_| "too large".to_owned()),
    }
}

fn parse_memory_limit(arg: &str) -> Result<usize, String> {
    match input::parse_size(arg)? {
        n if n < 1 << 16 => Err("the memory limit is at least 64K".to_owned()),
        n => usize::try_from(n).map_err(|_| "too large".to_owned()),
    }
}

fn parse_text_format(arg: &str) -> Result<TextFormat, String> {
    TextFormat::from_name(arg).ok_or_else(|| "expected plain or markdown".to_owned())
}

fn parse_text_limit(arg: &str) -> Result<usize, String> {
    usize::try_from(input::parse_size(arg)?).map_err(|_| "too large".to_owned())
}

fn parse_glob(glob: &str) -> Result<String, String> {
    globset::Glob::new(glob)
        .map(|_| glob.to_owned())
        .map_err(|e| e.kind().to_string())
}

/// How inputs are decoded: shared by every command that sniffs.
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// Decode every input from LABEL (an Encoding Standard label: utf-8,
    /// windows-1252, shift_jis, euc-kr, gbk, iso-8859-2, ...) instead of
    /// sniffing its encoding; a byte order mark still wins, as in browsers.
    #[arg(long, value_name = "LABEL", value_parser = parse_encoding, help_heading = INPUT_HELP)]
    pub encoding: Option<&'static Encoding>,
}

fn parse_encoding(label: &str) -> Result<&'static Encoding, String> {
    htmltok::encoding_for_label(label).ok_or_else(|| {
        "unknown character encoding (expected a label of the WHATWG Encoding Standard, \
         such as utf-8, windows-1252, shift_jis, gbk, euc-kr)"
            .to_owned()
    })
}

impl ReadArgs {
    /// The decoding of a command that sniffs (`--encoding` as the user's
    /// override).
    pub fn decoding(&self) -> Decoding {
        Decoding::sniff(self.encoding)
    }
}

impl InputArgs {
    /// The inputs, directories expanded.
    pub fn inputs(&self) -> input::Inputs {
        // The patterns were checked when the arguments were parsed.
        let globs = input::Globs::new(&self.globs).expect("valid globs");
        input::expand(&self.files, &globs)
    }

    /// How many threads to use.
    pub fn jobs(&self) -> usize {
        self.jobs.map(usize::from).unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        })
    }

    /// How inputs are read, decoded as `decoding`.
    pub fn reading(&self, decoding: Decoding) -> Reading {
        Reading {
            chunk_size: self.chunk_size,
            memory_limit: self.memory_limit,
            gunzip_limit: self.gunzip_limit,
            binary: if self.skip_binary {
                BinaryInputs::Skip
            } else {
                BinaryInputs::Read
            },
            ..Reading::new(decoding)
        }
    }

    /// The driver settings (no progress bar).
    pub fn settings(&self) -> run::Settings {
        run::Settings {
            jobs: self.jobs(),
            progress: None,
        }
    }
}

/// The arguments of `htmltok tokens`.
#[derive(Debug, Args)]
#[command(after_help = TOKENS_AFTER_HELP)]
pub struct TokensArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = TokensFormat::Json, value_name = "FORMAT")]
    pub format: TokensFormat,

    /// Also report parse errors (code and position).
    #[arg(long)]
    pub errors: bool,

    /// Don't switch content model after <script>, <style>, <title>, <svg>
    /// and the like, as a tree builder would (html5lib-tests mode).
    #[arg(long)]
    pub no_auto_switch: bool,

    /// Decide those switches by following the HTML Standard's tree
    /// construction exactly (insertion modes, open elements, formatting
    /// elements, tables) instead of the default approximation, which
    /// differs only on contrived markup and costs less.
    #[arg(long, conflicts_with = "no_auto_switch")]
    pub exact_switching: bool,

    /// The state the tokenizer starts in.
    #[arg(long, value_enum, default_value_t = StateArg::Data, value_name = "STATE")]
    pub state: StateArg,

    /// The tag name of the last start tag emitted, which decides what counts
    /// as an appropriate end tag in RCDATA, RAWTEXT and script data.
    #[arg(long, value_name = "NAME")]
    pub last_start_tag: Option<String>,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

/// The output formats of `htmltok tokens`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TokensFormat {
    /// JSON Lines for people: one object per token, with spans.
    Json,
    /// One html5lib-tests style object per input.
    Html5lib,
}

/// The tokenizer states a run can start in (`htmltok::State`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StateArg {
    /// The data state: ordinary content.
    Data,
    /// RCDATA: the content of <title> and <textarea>.
    Rcdata,
    /// RAWTEXT: the content of <style>, <xmp>, <iframe>, ...
    Rawtext,
    /// Script data: the content of <script>.
    ScriptData,
    /// PLAINTEXT: everything after <plaintext>.
    Plaintext,
    /// A CDATA section (in SVG or MathML).
    CdataSection,
}

impl From<StateArg> for htmltok::State {
    fn from(state: StateArg) -> htmltok::State {
        match state {
            StateArg::Data => htmltok::State::Data,
            StateArg::Rcdata => htmltok::State::Rcdata,
            StateArg::Rawtext => htmltok::State::Rawtext,
            StateArg::ScriptData => htmltok::State::ScriptData,
            StateArg::Plaintext => htmltok::State::Plaintext,
            StateArg::CdataSection => htmltok::State::CdataSection,
        }
    }
}

/// The arguments of `htmltok text`.
#[derive(Debug, Args)]
#[command(after_help = TEXT_AFTER_HELP)]
pub struct TextArgs {
    /// Print JSON Lines of text runs with their byte offsets instead.
    #[arg(long)]
    pub offsets: bool,

    #[command(flatten)]
    pub text: TextOptions,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

/// What text is extracted from a page, whatever it is written as: the
/// options of `htmltok text` that become the library's
/// [`ExtractOptions`], in one place ([`TextOptions::extract_options`]), for
/// every command that writes a page's text.
#[derive(Debug, Args)]
pub struct TextOptions {
    /// Put the alt text of images (<img alt>, <input type=image alt>) in
    /// the text, as a word between spaces.
    #[arg(long)]
    pub alt_text: bool,

    /// Print the text of elements with the `hidden` attribute too.
    #[arg(long)]
    pub show_hidden: bool,

    /// Print at most SIZE bytes of each input's text (cut at a character
    /// boundary), e.g. 100K.
    #[arg(long, value_name = "SIZE", value_parser = parse_text_limit)]
    pub limit: Option<usize>,

    /// Print only the page's main content: its article, post, product or
    /// documentation, without navigation, headers, footers, banners,
    /// comments and sidebars (see below).
    #[arg(long)]
    pub main_content: bool,

    /// With --main-content: read the page with scripting on, as a browser
    /// with JavaScript shows it (<noscript> content left out).
    #[arg(long, requires = "main_content")]
    pub scripting: bool,

    /// Write the text as FORMAT: plain lines, or Markdown (CommonMark with
    /// GitHub's tables: headings, lists, quotes, code, emphasis, links,
    /// tables; see below).
    #[arg(long, value_name = "FORMAT", default_value = "plain", value_parser = parse_text_format)]
    pub format: TextFormat,

    /// With --format markdown: write links as their text alone, without
    /// their targets.
    #[arg(long)]
    pub no_link_targets: bool,
}

impl TextOptions {
    /// The extraction these options ask for: the text alone (no links, no
    /// metadata).
    pub fn extract_options(&self) -> ExtractOptions {
        let options = ExtractOptions::default()
            .links(false)
            .metadata(false)
            .alt_text(self.alt_text)
            .hidden(!self.show_hidden)
            .text_limit(self.limit.unwrap_or(usize::MAX))
            .main_content(self.main_content)
            .format(self.format)
            .link_targets(!self.no_link_targets);
        // Main content reads `<noscript>` (scripting off) unless asked.
        if self.scripting {
            options.scripting(true)
        } else {
            options
        }
    }
}

/// The arguments of `htmltok links`.
#[derive(Debug, Args)]
#[command(after_help = LINKS_AFTER_HELP)]
pub struct LinksArgs {
    /// Resolve relative URLs against URL (the address the pages came from);
    /// a page's own <base href> still comes first.
    #[arg(long, value_name = "URL", value_parser = parse_base_url)]
    pub base_url: Option<url::Url>,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

/// The arguments of `htmltok meta`.
#[derive(Debug, Args)]
#[command(after_help = META_AFTER_HELP)]
pub struct MetaArgs {
    /// Resolve relative URLs (canonical, base) against URL.
    #[arg(long, value_name = "URL", value_parser = parse_base_url)]
    pub base_url: Option<url::Url>,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

fn parse_base_url(arg: &str) -> Result<url::Url, String> {
    url::Url::parse(arg)
        .map_err(|e| format!("{e} (an absolute URL such as https://example.com/ is needed)"))
}

/// The arguments of `htmltok errors`.
#[derive(Debug, Args)]
#[command(after_help = ERRORS_AFTER_HELP)]
pub struct ErrorsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ErrorsFormat::Text, value_name = "FORMAT")]
    pub format: ErrorsFormat,

    /// Don't print the summary after the errors.
    #[arg(long)]
    pub no_summary: bool,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

/// The output formats of `htmltok errors`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ErrorsFormat {
    /// FILE:LINE:COL: CODE lines and a summary.
    Text,
    /// JSON Lines and a summary object.
    Json,
}

/// The arguments of `htmltok stats`.
#[derive(Debug, Args)]
#[command(after_help = STATS_AFTER_HELP)]
pub struct StatsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = StatsFormat::Table, value_name = "FORMAT")]
    pub format: StatsFormat,

    /// Print only the total, not a line per input.
    #[arg(long)]
    pub total: bool,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

/// The output formats of `htmltok stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// An aligned table for people.
    Table,
    /// JSON Lines.
    Json,
}

/// The arguments of `htmltok encoding`.
#[derive(Debug, Args)]
#[command(after_help = ENCODING_AFTER_HELP)]
pub struct EncodingArgs {
    /// The charset the transport layer gave (the charset parameter of an
    /// HTTP Content-Type), as a label: it decides, with certainty, unless
    /// a byte order mark does.
    #[arg(long, value_name = "LABEL")]
    pub transport_charset: Option<String>,

    #[command(flatten)]
    pub input: InputArgs,
}

/// The arguments of `htmltok wet`.
#[derive(Debug, Args)]
#[command(after_help = WET_AFTER_HELP)]
pub struct WetArgs {
    /// WARC archives (.warc, .warc.gz) to convert.
    #[arg(value_name = "ARCHIVE", required = true)]
    pub archives: Vec<PathBuf>,

    /// Where the WET files go: a directory (made if missing), or with one
    /// ARCHIVE the file itself [default: beside each archive].
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// Put the alt text of images in the text, as `htmltok text --alt-text`.
    #[arg(long)]
    pub alt_text: bool,

    /// Keep the text of elements with the `hidden` attribute.
    #[arg(long)]
    pub show_hidden: bool,

    /// Each record holds the page's main content, as `htmltok text
    /// --main-content` prints it.
    #[arg(long)]
    pub main_content: bool,

    /// Each record holds the text as FORMAT (plain or markdown), as
    /// `htmltok text --format` prints it; Markdown records say
    /// `Content-Type: text/markdown`.
    #[arg(long, value_name = "FORMAT", default_value = "plain", value_parser = parse_text_format)]
    pub format: TextFormat,

    /// Decode every page from LABEL instead of sniffing (a byte order mark
    /// still wins), as `htmltok text --encoding`.
    #[arg(long, value_name = "LABEL", value_parser = parse_encoding)]
    pub encoding: Option<&'static Encoding>,

    /// Convert N archives at once [default: the number of cores].
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}
