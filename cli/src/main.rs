//! `htmltok`: the command line of the htmltok tokenizer.
//!
//! This file holds the command-line definitions and the dispatch; each
//! subcommand lives in its own module.

mod input;
mod sample;
mod tokens;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

const MAIN_AFTER_HELP: &str = "\
With no command, htmltok tokenizes a small sample page built into the binary
and prints a summary of what it found.

Examples:
  htmltok
  htmltok tokens page.html
  curl -s https://example.com/ | htmltok tokens --errors
  htmltok tokens --format html5lib --errors --no-auto-switch \\
      --state rcdata --last-start-tag title fragment.html";

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

Each FILE is read as UTF-8 exactly as it is (no BOM sniffing; invalid bytes
become U+FFFD). A FILE that cannot be read is reported on stderr, the others
are still tokenized, and the exit status is 1.

Examples:
  htmltok tokens page.html
  htmltok tokens --errors a.html b.html
  echo '<p class=x>Hi &amp; bye' | htmltok tokens --format html5lib
  htmltok tokens --format html5lib --errors --no-auto-switch \\
      --state rcdata --last-start-tag title fragment.html";

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

    /// The state the tokenizer starts in.
    #[arg(long, value_enum, default_value_t = StateArg::Data, value_name = "STATE")]
    pub state: StateArg,

    /// The tag name of the last start tag emitted, which decides what counts
    /// as an appropriate end tag in RCDATA, RAWTEXT and script data.
    #[arg(long, value_name = "NAME")]
    pub last_start_tag: Option<String>,

    /// HTML files to tokenize; standard input when none, or for `-`.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => sample::run(),
        Some(Command::Tokens(args)) => tokens::run(&args),
    }
}

/// Prints `htmltok: MESSAGE` on stderr, never panicking (even if stderr is
/// closed).
pub fn report(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "htmltok: {message}");
}

/// The exit status of a command that wrote `result` to stdout and had
/// `failed` inputs. A closed pipe (`| head`) is not an error: the reader
/// has all it wanted.
pub fn exit_status(result: io::Result<()>, failed: bool) -> ExitCode {
    match result {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            report(format_args!("cannot write output: {e}"));
            ExitCode::FAILURE
        }
        _ if failed => ExitCode::FAILURE,
        _ => ExitCode::SUCCESS,
    }
}
