//! `htmltok stats`: sizes, token counts, parse errors and tokenizer speed,
//! per input and in total.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use htmltok::Options;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

use crate::args::{StatsArgs, StatsFormat};
use crate::job::Job;
use crate::page::{Context, Event, Page, Reading, RunPiece, Tokenizing};
use crate::run::Settings;
use crate::{exit, stdio};

/// The token kinds, in the order the output lists them.
pub const KINDS: [&str; 5] = ["doctype", "start_tag", "end_tag", "comment", "text"];

/// Where text runs are counted in [`KINDS`].
const TEXT: usize = 4;

/// What `stats` measures of one input, or adds up over several.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Size of the decoded text in bytes.
    pub bytes: usize,
    /// Tokens of each kind, in the order of [`KINDS`].
    pub kinds: [usize; KINDS.len()],
    /// Parse errors.
    pub errors: usize,
    /// Time taken: to tokenize one input, or the whole run for a total.
    pub time: Duration,
}

impl Stats {
    /// Tokenizes a page as a browser would (content model switching on,
    /// parse errors on) and measures it.
    pub fn measure(page: &mut Page<'_>) -> io::Result<Stats> {
        let mut kinds = [0; KINDS.len()];
        let mut errors = 0;
        let tokenizing = Tokenizing {
            options: Options::default().errors(true),
            ..Tokenizing::default()
        };
        let outcome = page.tokenize(&tokenizing, &mut |event: Event<'_, '_>, _: &Context| {
            match event {
                Event::Token(token) => kinds[kind_index(token)] += 1,
                Event::Text {
                    piece: RunPiece::Starts,
                    ..
                } => kinds[TEXT] += 1,
                Event::Error(..) => errors += 1,
                Event::Text { .. } | Event::TextEnd { .. } => {}
            }
            Ok(())
        })?;
        Ok(Stats {
            bytes: outcome.bytes,
            kinds,
            errors,
            time: outcome.time,
        })
    }

    /// All tokens.
    pub fn tokens(&self) -> usize {
        self.kinds.iter().sum()
    }

    /// Throughput in MB/s (10^6 bytes a second).
    pub fn mb_per_s(&self) -> f64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            self.bytes as f64 / 1e6 / secs
        } else {
            0.0
        }
    }

    fn add(&mut self, other: &Stats) {
        self.bytes += other.bytes;
        for (a, b) in self.kinds.iter_mut().zip(other.kinds) {
            *a += b;
        }
        self.errors += other.errors;
        self.time += other.time;
    }

    /// The JSON fields (without "file").
    fn json_fields(&self) -> serde_json::Map<String, Value> {
        let mut tokens = serde_json::Map::new();
        tokens.insert("total".into(), self.tokens().into());
        for (kind, n) in KINDS.iter().zip(self.kinds) {
            tokens.insert((*kind).into(), n.into());
        }
        let mut fields = serde_json::Map::new();
        fields.insert("bytes".into(), self.bytes.into());
        fields.insert("tokens".into(), tokens.into());
        fields.insert("errors".into(), self.errors.into());
        fields.insert("seconds".into(), json!(round(self.time.as_secs_f64(), 6)));
        fields.insert("mb_per_s".into(), json!(round(self.mb_per_s(), 1)));
        fields
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

fn kind_index(token: &htmltok::Token<'_>) -> usize {
    use htmltok::Token;
    match token {
        Token::Doctype(_) => 0,
        Token::StartTag(_) => 1,
        Token::EndTag(_) => 2,
        Token::Comment(_) => 3,
        Token::Text(_) => TEXT,
    }
}

/// The header line of the table.
pub fn table_header() -> String {
    format!(
        "{:>11} {:>9} {:>7} {:>9} {:>9} {:>8} {:>9} {:>7} {:>9} {:>7}  file",
        "bytes",
        "tokens",
        "doctype",
        "start_tag",
        "end_tag",
        "comment",
        "text",
        "errors",
        "time ms",
        "MB/s"
    )
}

/// One line of the table.
pub fn table_row(stats: &Stats, label: &str) -> String {
    let kinds = stats.kinds;
    format!(
        "{:>11} {:>9} {:>7} {:>9} {:>9} {:>8} {:>9} {:>7} {:>9.2} {:>7.1}  {label}",
        stats.bytes,
        stats.tokens(),
        kinds[0],
        kinds[1],
        kinds[2],
        kinds[3],
        kinds[4],
        stats.errors,
        stats.time.as_secs_f64() * 1e3,
        stats.mb_per_s(),
    )
}

/// Runs `htmltok stats`.
pub fn run(args: &StatsArgs) -> ExitCode {
    let started = Instant::now();
    let inputs = args.input.inputs();
    let progress = (inputs.walked && io::stderr().is_terminal()).then(|| {
        let bytes = inputs.entries.iter().flatten().filter_map(|s| s.size).sum();
        progress_bar(bytes)
    });
    let settings = Settings {
        jobs: args.input.jobs(),
        progress,
    };
    let job = StatsJob {
        format: args.format,
        listing: if args.total {
            Listing::TotalOnly
        } else {
            Listing::PerInput
        },
        reading: args.input.reading(args.read.decoding()),
    };
    let mut out = stdio::stdout();
    let mut total = Stats::default();
    let result = (|| {
        if args.format == StatsFormat::Table {
            writeln!(out, "{}", table_header())?;
        }
        let report = crate::run::run(&job, &inputs, &settings, &mut out, |_, stats| {
            total.add(&stats);
        })?;
        total.time = started.elapsed();
        // The files counted: those processed, to their end or part way.
        let files = report.processed + report.partial;
        let mut label = format!("total ({files} files");
        if report.failed > 0 {
            label += &format!(", {} failed", report.failed);
            if report.partial > 0 {
                label += &format!(" ({} part way)", report.partial);
            }
        }
        if report.skipped > 0 {
            label += &format!(", {} skipped", report.skipped);
        }
        // Archives: their pages (the rows), and what was not a page.
        let records = &report.records;
        if report.archives > 0 {
            label += &format!(
                "; {} pages from {} archives, {} revisits, {} skipped by type",
                records.html, report.archives, records.revisits, records.skipped_by_type
            );
        }
        label.push(')');
        match args.format {
            StatsFormat::Table if inputs.len() > 1 || args.total || report.archives > 0 => {
                writeln!(out, "{}", table_row(&total, &label))?;
            }
            StatsFormat::Table => {}
            StatsFormat::Json => {
                let mut fields = total.json_fields();
                fields.insert("files".into(), files.into());
                fields.insert("failed".into(), report.failed.into());
                fields.insert("partial".into(), report.partial.into());
                fields.insert("skipped".into(), report.skipped.into());
                if report.archives > 0 {
                    fields.insert("archives".into(), report.archives.into());
                    fields.insert("records".into(), records.html.into());
                    fields.insert("revisits".into(), records.revisits.into());
                    fields.insert("skipped_by_type".into(), records.skipped_by_type.into());
                    fields.insert("archive_errors".into(), records.errors.into());
                }
                fields.insert("jobs".into(), settings.jobs.into());
                crate::json::write_line(&mut out, &json!({ "total": fields }))?;
            }
        }
        out.flush()?;
        Ok(report)
    })();
    exit::status(result)
}

/// The progress bar of a run over `bytes` bytes of files.
fn progress_bar(bytes: u64) -> ProgressBar {
    let bar = ProgressBar::new(bytes);
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] [{wide_bar}] {msg}, {decimal_bytes}/{decimal_total_bytes}, \
         {decimal_bytes_per_sec}, ETA {eta}",
    )
    .expect("a valid template")
    .progress_chars("=> ");
    bar.set_style(style);
    bar.set_message("0 files");
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// What `htmltok stats` prints beside the total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Listing {
    /// A line per input (the default).
    PerInput,
    /// The total alone (`--total`).
    TotalOnly,
}

/// `htmltok stats` as a [`Job`].
struct StatsJob {
    format: StatsFormat,
    /// What is printed beside the total.
    listing: Listing,
    reading: Reading,
}

impl Job for StatsJob {
    type Summary = Stats;

    fn reading(&self) -> &Reading {
        &self.reading
    }

    fn process<W: Write>(&self, page: &mut Page<'_>, out: &mut W) -> io::Result<Stats> {
        let stats = Stats::measure(page)?;
        if self.listing == Listing::PerInput {
            match self.format {
                StatsFormat::Table => {
                    writeln!(out, "{}", table_row(&stats, &page.label().to_string()))?;
                }
                StatsFormat::Json => {
                    let fields = Value::Object(stats.json_fields());
                    page.label().write_line(out, &fields)?;
                }
            }
        }
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_tokens_and_errors() {
        let html = "<!DOCTYPE html><p a=1 a=2>x<!--c--></p>";
        let reading = Reading::new(crate::page::Decoding::sniff(None));
        for chunk_size in [1, 5, 1 << 20] {
            let reading = Reading {
                chunk_size,
                ..reading.clone()
            };
            let reader = Box::new(std::io::Cursor::new(html.as_bytes()));
            let mut page = Page::open("p", reader, None, &reading).unwrap();
            let s = Stats::measure(&mut page).unwrap();
            assert_eq!(s.kinds, [1, 1, 1, 1, 1], "chunks of {chunk_size}");
            assert_eq!((s.bytes, s.tokens(), s.errors), (39, 5, 1));
        }
    }

    #[test]
    fn rows_line_up_with_the_header() {
        let s = Stats {
            bytes: 3_765_813,
            kinds: [1, 2, 3, 4, 5],
            errors: 6,
            time: Duration::from_millis(12),
        };
        let header = table_header();
        let row = table_row(&s, "es6.html");
        assert_eq!(header.find("  file"), row.find("  es6.html"));
        assert!(row.contains(" 313.8 "), "{row}");
    }
}
