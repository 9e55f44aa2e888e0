//! `htmltok`: the command line of the htmltok tokenizer.
//!
//! This file holds the command-line definitions and the dispatch; each
//! subcommand lives in its own module, input handling in `input.rs`,
//! decoding and the one place tokens come from in `page.rs`, and the
//! ordered parallel driver they all share in `run.rs`.

mod archive;
mod encoding;
mod errors;
mod input;
mod json;
mod lines;
mod links;
mod meta;
mod page;
mod run;
mod sample;
mod spill;
mod stats;
mod text;
mod tokens;

use std::io::{self, BufWriter, StdoutLock, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use htmltok::encoding_rs::Encoding;

use crate::page::{Decoding, Reading};
use crate::run::Report;

const MAIN_AFTER_HELP: &str = "\
Every command reads HTML files, WARC archives, directories (searched
recursively for *.htm, *.html, *.xhtml and *.warc files, gzipped or not;
see --glob) or standard input (no FILE, or `-`). Gzip data (page.html.gz)
is decompressed on the fly. With several inputs, files are processed in
parallel (--jobs) and the output comes in input order.

A WARC archive (crawl.warc, CC-MAIN-....warc.gz: known by its name, or by
`WARC/1.` at its start, gunzipped or not) is read a record at a time. Each
HTML record (a response or resource typed text/html or
application/xhtml+xml, or untyped and sniffed as HTML) is a page, in
archive order, decoded with its HTTP charset as the transport-layer
encoding (--encoding still wins). Every result of a record's page carries,
after \"file\" (the archive's path), the record's \"uri\" (WARC-Target-URI),
\"record_id\", \"date\" (WARC-Date) and HTTP \"status\" (null for a resource);
`text` writes a record's text as a JSON line {file, uri, record_id, date,
status, text}; plain-text outputs name the archive and the URI. Links
resolve against the URI (it replaces --base-url). Requests, revisits,
metadata and pages of other types are counted (see `stats`), not errors.
An archive's damage is reported once per place, as `htmltok: ARCHIVE:
record N (offset O): what went wrong` (after the output of the records
before it; with several inputs on --jobs threads, after the archive's
output), and the records before and after it are still processed; the
archive then counts as failed.

Inputs are decoded by the HTML Standard's encoding sniffing: a
byte order mark, else --encoding LABEL, else a <meta charset> (or
<meta http-equiv=content-type>) in the first 1024 bytes, else UTF-8 when
the whole input is valid UTF-8 (a detection the standard allows; browsers
skip it), else windows-1252. Byte offsets in the output (spans, start and
end, error offsets) are offsets into the decoded UTF-8 text, after the
byte order mark: the file's own offsets when it is UTF-8 without one. Only
`tokens --format html5lib` reads the bytes as UTF-8 exactly as they are.
`htmltok encoding` prints the encoding a browser would use.

Every input is HTML as far as the HTML Standard is concerned: a page with
no tags, NUL bytes, control characters or invalid UTF-8 is tokenized as the
standard says, and an empty file is an empty page. Only --skip-binary
skips anything: inputs whose first bytes are binary data by the MIME
Sniffing Standard (a PNG named .html, say), each reported on stderr.

Inputs are read and tokenized --chunk-size bytes at a time (1 MiB): an
input no longer than that is tokenized whole, a longer one in chunks, in
memory bounded by the chunk and --memory-limit however large the input;
the output is the same for any chunk size.

An input that cannot be processed (missing, unreadable, corrupt gzip) is
reported on stderr as `htmltok: PATH: what went wrong` and the others are
still processed; one that fails part way (a read error, a construct larger
than --memory-limit) keeps the output it produced. With several inputs, a
last line on stderr counts the inputs that failed or were skipped.

Exit status: 0 when every input was processed (or skipped on request), 1
when some input failed, 2 for bad usage.

With no command, htmltok runs `stats` on a small sample page built into the
binary.

Examples:
  htmltok
  htmltok text page.html
  htmltok links --base-url https://example.com/ site/
  htmltok meta --jobs 4 crawl/ > meta.jsonl
  htmltok errors page.html.gz
  htmltok text CC-MAIN-20240101000000-00000.warc.gz > text.jsonl
  htmltok stats --glob '*.php' www/
  htmltok text --encoding shift_jis old-page.html
  htmltok encoding crawl/
  curl -s https://example.com/ | htmltok tokens --errors";

const INPUT_HELP: &str = "Input";

const TOKENS_AFTER_HELP: &str = "\
Output formats:
  json      one JSON object per line for each token, with \"file\", \"kind\"
            (doctype, start_tag, end_tag, comment, text), its fields and byte
            spans ([start, end]); with --errors, one object per parse error
            after the tokens of its input: {\"file\", \"error\", \"offset\",
            \"line\", \"col\"}
  html5lib  one line per input: {\"output\": [...], \"errors\": [...]} with
            the tokens as the html5lib-tests suite writes them (\"errors\" only
            with --errors)

With --format json, each FILE is decoded as the other commands decode it
(a byte order mark, --encoding, a <meta> in the first 1024 bytes, UTF-8
when valid, else windows-1252; see `htmltok --help`), and spans are byte
offsets into the decoded UTF-8 text, after the byte order mark. With
--format html5lib, each FILE's bytes are the input stream exactly as they
are, as html5lib-tests wants: UTF-8, invalid bytes become U+FFFD, a byte
order mark stays a character (U+FEFF); --encoding is then a usage error.

With --chunk-size N, each FILE is read and tokenized N bytes at a time:
the output is the same as without, byte for byte.

Examples:
  htmltok tokens page.html
  htmltok tokens --errors a.html b.html
  htmltok tokens --encoding euc-kr --chunk-size 512 page.html
  echo '<p class=x>Hi &amp; bye' | htmltok tokens --format html5lib
  htmltok tokens --format html5lib --errors --no-auto-switch \\
      --state rcdata --last-start-tag title fragment.html";

const TEXT_AFTER_HELP: &str = "\
The visible text is what a reader of the page sees, as an indexer wants it:
- text inside <script>, <style>, <template>, <noscript>, <title> (that is
  metadata: see `htmltok meta`), <textarea>, <iframe>, <noembed>,
  <noframes>, <datalist>, <canvas>, SVG <title>/<desc>, and the fallback
  content of <audio> and <video> is left out, and so are comments and the
  doctype;
- character references are decoded; U+0000 is dropped (as a browser's
  tree builder drops it);
- runs of whitespace (space, tab, LF, FF, CR, and no-break space U+00A0)
  become one space, except that line breaks inside <pre>, <listing>, <xmp>
  and <plaintext> are kept;
- block-level elements (p, div, br, li, h1-h6, tr, table, section, article,
  header, footer, nav, ul, ol, blockquote, pre, hr, dd, dt, ...) begin and
  end lines; table cells are separated by a space. No blank lines, no
  leading or trailing spaces on a line.
- an element with the `hidden` attribute is left out with its content
  (not with --show-hidden; `hidden=until-found` is shown);
- with --alt-text, the alt text of images is a word of the text.
CSS is not applied: text hidden by a style sheet is still printed. These
are the rules of the library's `htmltok::extract` module, whose docs have
them in full.

Output: the text of each input. With several inputs, each input's text
follows a header line `==> FILE <==`, with a blank line between inputs (as
`tail` does). The text of a WARC record's page is one JSON line:
{\"file\", \"uri\", \"record_id\", \"date\", \"status\", \"text\"}, with the
text as it would be printed (lines joined by \\n, no final newline).

With --offsets: JSON Lines, one object per text run (one text token that
shows any text): {\"file\", \"text\", \"start\", \"end\"}, where \"text\" is the
run's text, collapsed and trimmed as above, and start..end the byte span of
its source (character references and all) in the decoded text of the input.

Examples:
  htmltok text page.html
  htmltok text --offsets page.html | head
  htmltok text --jobs 8 crawl/ > corpus.txt";

const LINKS_AFTER_HELP: &str = "\
One JSON object per line for each URL in an attribute that holds one:
  {\"file\", \"tag\", \"attr\", \"url\", \"start\", \"end\"}
with \"error\" added when the URL cannot be resolved. The attributes, by tag:
  a                         href, ping (each URL), xlink:href
  area                      href, ping
  link                      href, imagesrcset (each candidate)
  base                      href
  img                       src, srcset (each candidate), longdesc
  source                    src, srcset
  script, embed, audio, track  src
  iframe, frame             src, longdesc
  video                     src, poster
  input                     src, formaction
  button                    formaction
  form                      action
  blockquote, q, del, ins   cite
  object                    data
  body, table, td, th       background
  html                      manifest
  image, use (SVG)          href, xlink:href
  meta http-equiv=refresh   content (its url= part)
Empty values are skipped.

Each URL is resolved against the page's base URL: the first <base href>
(itself resolved against --base-url), else --base-url. Without either, an
absolute URL is printed normalized and a relative one as written. A URL that
does not parse (a bad host or port, say) is printed as written, with
\"error\": the reason.

\"start\" and \"end\" are the byte span of the attribute's value in the decoded
text of the input.
For a srcset or ping candidate it is the candidate's own span within the
value when the value is written without character references, and the
whole value's span otherwise.

Examples:
  htmltok links page.html
  htmltok links --base-url https://example.com/docs/ site/
  htmltok links crawl/ | jq -r .url | sort -u";

const META_AFTER_HELP: &str = "\
One JSON object per input:
  file       the input
  title      the text of the first <title> (outside SVG), whitespace
             collapsed and trimmed, or null
  lang       the lang attribute of <html>, or null
  charset    the first of <meta charset> and the charset= of
             <meta http-equiv=content-type content>, as written, or null
  base       the first <base href>, resolved (see links), or null
  canonical  the href of the first <link rel=canonical>, resolved, or null
  robots     the directives of every <meta name=robots content>, split at
             commas, trimmed and lowercased
  meta       every <meta> with a content attribute and a name, property,
             http-equiv or itemprop attribute, in order, as
             {\"name\": ..., \"content\": ...} (or \"property\", ...); name and
             http-equiv values are lowercased

URLs are resolved as `htmltok links` does (--base-url).

Examples:
  htmltok meta page.html
  htmltok meta --jobs 8 crawl/ | jq -c '{file, title, canonical}'";

const ERRORS_AFTER_HELP: &str = "\
Output formats:
  text  one line per parse error, as a compiler writes them:
          FILE:LINE:COL: CODE
        (for a WARC record's page, FILE is `ARCHIVE URI`)
        then a summary: `N parse errors in M files`, and for each code
        `  COUNT CODE`, most frequent first (not with --no-summary)
  json  one JSON object per line for each error, as `tokens --errors`
        writes them: {\"file\", \"error\", \"offset\", \"line\", \"col\"}; then
        one summary object: {\"summary\": {\"errors\", \"files\", \"codes\":
        {CODE: COUNT, ...}}}

Lines and columns are 1-based; columns count UTF-16 code units, as the
html5lib tests do; offsets are byte offsets into the decoded text. Codes are the WHATWG names (§13.2.2). The page is
tokenized as a browser's tokenizer would (content model switching on).
Parse errors are findings, not failures: the exit status is 0 unless an
input could not be processed.

Examples:
  htmltok errors page.html
  htmltok errors --format json site/ | jq -r .error | sort | uniq -c
  htmltok errors --no-summary page.html | grep duplicate-attribute";

const STATS_AFTER_HELP: &str = "\
For each input: its size (of the decoded UTF-8 text: the file's size when
it is UTF-8 without a byte order mark), its tokens by kind, its parse
errors, and the time decoding and tokenizing took (one thread, with parse
errors on; reading and gunzipping not included) and its speed; with
several inputs, a total line whose time is the wall-clock time of the
whole run (reading, gunzipping, decoding and tokenizing, on --jobs
threads). MB are 10^6 bytes. The counts do not depend on --chunk-size;
the times do. An input that failed part way has a line with what was
counted before the failure.

Output formats:
  table  aligned columns, the file name last (like `wc`; `ARCHIVE URI`
         for a WARC record's page)
  json   one object per input: {\"file\", \"bytes\", \"tokens\": {\"total\",
         \"doctype\", \"start_tag\", \"end_tag\", \"comment\", \"text\"},
         \"errors\", \"seconds\", \"mb_per_s\"}; then {\"total\": {...}} with
         the same fields and \"files\" (counted, to their end or part
         way), \"failed\" (of which \"partial\" failed part way),
         \"skipped\", \"jobs\"; when WARC archives were read, also
         \"archives\", \"records\" (their HTML pages, a row each),
         \"revisits\", \"skipped_by_type\" (records of other types) and
         \"archive_errors\" (the table's total line says the same)

When a directory is given and stderr is a terminal, a progress bar (files,
bytes, MB/s, ETA) is shown on stderr.

Examples:
  htmltok stats page.html
  htmltok stats --total ~/crawl
  htmltok stats --jobs 1 --format json corpus/";

const ENCODING_AFTER_HELP: &str = "\
One line per input:
  FILE<TAB>ENCODING<TAB>CONFIDENCE
and for a WARC record's page, FILE the archive, then
  <TAB>URI<TAB>RECORD_ID<TAB>DATE<TAB>STATUS   (`-` for none)
ENCODING is the encoding's name in the WHATWG Encoding Standard, in
lowercase (windows-1252, utf-8, shift_jis, euc-kr, gbk, utf-16le, ...);
CONFIDENCE is `certain` or `tentative`. It is the encoding a browser would decode the
page with, by the HTML Standard's encoding sniffing algorithm:
  1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE): certain;
  2. --transport-charset, the charset of the HTTP Content-Type: certain
     (an unknown label is ignored, as the standard says, with a warning);
  3. a <meta charset> or <meta http-equiv=content-type> in the first
     1024 bytes: tentative;
  4. else windows-1252, the default for most locales: tentative.
Then, as the page is parsed, a <meta> that confirms a tentative encoding
makes it certain, and one that names another encoding replaces it (the
page is decoded again): certain.

As in browsers there is no UTF-8 detection here: a page in UTF-8 or plain
ASCII with no byte order mark and no <meta> is `windows-1252 tentative`.
The other commands do detect UTF-8 (an input that is valid UTF-8 is
decoded as UTF-8), and do not decode again for a <meta> past the first
1024 bytes.

Examples:
  htmltok encoding page.html
  htmltok encoding --transport-charset iso-8859-1 page.html
  htmltok encoding crawl/ | cut -f2 | sort | uniq -c";

/// A WHATWG-exact, zero-copy HTML tokenizer.
#[derive(Debug, Parser)]
#[command(name = "htmltok", version, after_help = MAIN_AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
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
    /// not yet reported, and the strings of one chunk's tokens. An input
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
            skip_binary: self.skip_binary,
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
    #[arg(long, value_enum, default_value_t = Format::Json, value_name = "FORMAT")]
    pub format: Format,

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
pub enum Format {
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

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub input: InputArgs,
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
    #[arg(long, value_enum, default_value_t = ReportFormat::Text, value_name = "FORMAT")]
    pub format: ReportFormat,

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
pub enum ReportFormat {
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
    #[arg(long, value_enum, default_value_t = TableFormat::Table, value_name = "FORMAT")]
    pub format: TableFormat,

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
pub enum TableFormat {
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

/// Exits with a usage error (status 2) about `command`'s arguments, as
/// clap reports its own.
fn usage_error(command: &str, kind: ErrorKind, message: &str) -> ! {
    let mut cli = Cli::command();
    cli.build();
    let command = cli
        .find_subcommand_mut(command)
        .expect("a subcommand of htmltok");
    command.error(kind, message).exit()
}

/// Checks what clap cannot: combinations that depend on a value.
fn check_usage(cli: &Cli) {
    if let Some(Command::Tokens(args)) = &cli.command
        && args.format == Format::Html5lib
        && args.read.encoding.is_some()
    {
        usage_error(
            "tokens",
            ErrorKind::ArgumentConflict,
            "the argument '--encoding <LABEL>' cannot be used with '--format html5lib' \
             (html5lib input is UTF-8 as it is)",
        );
    }
}

fn main() -> ExitCode {
    // A panic is a bug in htmltok, never the input's fault: say so in one
    // line, without a backtrace. (The driver also turns a panic while
    // processing an input into a failure of that input.)
    std::panic::set_hook(Box::new(|info| {
        report(format_args!("internal error: {info}"));
    }));
    let cli = Cli::parse();
    check_usage(&cli);
    match cli.command {
        None => sample::run(),
        Some(Command::Tokens(args)) => tokens::run(&args),
        Some(Command::Text(args)) => text::run(&args),
        Some(Command::Links(args)) => links::run(&args),
        Some(Command::Meta(args)) => meta::run(&args),
        Some(Command::Errors(args)) => errors::run(&args),
        Some(Command::Stats(args)) => stats::run(&args),
        Some(Command::Encoding(args)) => encoding::run(&args),
    }
}

/// Standard output, buffered.
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(64 * 1024, io::stdout().lock())
}

/// Prints `htmltok: MESSAGE` on stderr, never panicking (even if stderr is
/// closed).
pub fn report(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "htmltok: {message}");
}

/// The exit status of a command whose run ended with `result`: whether
/// some input failed, or the error that stopped the output. With several
/// inputs, a last line on stderr counts those that failed or were skipped.
/// A closed pipe (`| head`) is not an error: the reader has all it wanted.
pub fn exit_status(result: io::Result<Report>) -> ExitCode {
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            report(format_args!(
                "cannot write output: {}",
                input::io_message(&e)
            ));
            ExitCode::FAILURE
        }
        Ok(run) => {
            if run.inputs > 1
                && let Some(line) = unprocessed(&run)
            {
                report(format_args!("{line}"));
            }
            if run.failed > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

/// `F of N inputs failed, S skipped as binary (--skip-binary)`, or `None`
/// when every input was processed.
pub fn unprocessed(run: &Report) -> Option<String> {
    const SKIPPED: &str = "skipped as binary (--skip-binary)";
    let n = run.inputs;
    let inputs = if n == 1 { "input" } else { "inputs" };
    match (run.failed, run.skipped) {
        (0, 0) => None,
        (0, s) => Some(format!("{s} of {n} {inputs} {SKIPPED}")),
        (f, 0) => Some(format!("{f} of {n} {inputs} failed")),
        (f, s) => Some(format!("{f} of {n} {inputs} failed, {s} {SKIPPED}")),
    }
}
