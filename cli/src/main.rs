//! `htmltok`: the command line of the htmltok tokenizer.
//!
//! The files, by job, each importing only those listed after it (no
//! circle):
//! - this file: the dispatch from a command to its module;
//! - `args.rs` (with `help.rs`, the prose of `--help`): the arguments;
//! - the commands, a file each: `tokens.rs`, `text.rs`, `links.rs`,
//!   `meta.rs`, `errors.rs`, `stats.rs`, `encoding.rs`, and `sample.rs`
//!   (no command: `stats` of a sample page); `extracting.rs`, the
//!   library's extractor as the extracting commands drive it;
//! - `exit.rs`: the exit status of a run;
//! - `run.rs`: the driver every command shares, which has a [`job::Job`]
//!   process each input, in parallel, writing the outputs in input order;
//! - `archive.rs`: WARC archives as inputs, a page a record;
//! - `job.rs`: what a command does with each input;
//! - `page/`: one input as a command sees it, read in chunks, decoded,
//!   tokenized and handed over as events;
//! - `label.rs`: what results are labelled with (the input, the record);
//! - the leaves: `input.rs` (the inputs named, opened), `json.rs` (JSON
//!   written piece by piece), `lines.rs` (lines and columns of a text read
//!   in chunks), `spill.rs` (bytes held back, in memory then in a file),
//!   `stdio.rs` (stdout, and messages on stderr).

mod archive;
mod args;
mod encoding;
mod errors;
mod exit;
mod extracting;
mod help;
mod input;
mod job;
mod json;
mod label;
mod lines;
mod links;
mod meta;
mod page;
mod run;
mod sample;
mod spill;
mod stats;
mod stdio;
mod text;
mod tokens;
mod wet;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

fn main() -> ExitCode {
    // A panic is a bug in htmltok, never the input's fault: say so in one
    // line, without a backtrace. (The driver also turns a panic while
    // processing an input into a failure of that input.)
    std::panic::set_hook(Box::new(|info| {
        stdio::report(format_args!("internal error: {info}"));
    }));
    let cli = Cli::parse();
    cli.check_usage();
    match cli.command {
        None => sample::run(),
        Some(Command::Tokens(args)) => tokens::run(&args),
        Some(Command::Text(args)) => text::run(&args),
        Some(Command::Links(args)) => links::run(&args),
        Some(Command::Meta(args)) => meta::run(&args),
        Some(Command::Errors(args)) => errors::run(&args),
        Some(Command::Stats(args)) => stats::run(&args),
        Some(Command::Encoding(args)) => encoding::run(&args),
        Some(Command::Wet(args)) => wet::run(&args),
    }
}
