//! `htmltok errors`: parse errors as a compiler prints them, then a
//! summary by code.

use std::collections::HashMap;
use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{ErrorCode, Options};
use serde_json::{Map, Value, json};

use crate::args::{ErrorsArgs, ErrorsFormat};
use crate::job::Job;
use crate::page::{Context, ErrorPositions, Event, Page, Reading, Tokenizing};
use crate::{exit, stdio};

/// Runs `htmltok errors`.
pub fn run(args: &ErrorsArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let job = ErrorsJob {
        format: args.format,
        reading: args.input.reading(args.read.decoding()),
    };
    let mut out = stdio::stdout();
    let mut summary = Summary::default();
    let result = crate::run::run(
        &job,
        &inputs,
        &args.input.settings(),
        &mut out,
        |_, codes| summary.add(codes),
    )
    .and_then(|run| {
        if !args.no_summary {
            summary.write(&mut out, args.format)?;
            out.flush()?;
        }
        Ok(run)
    });
    exit::status(result)
}

/// `htmltok errors` as a [`Job`].
struct ErrorsJob {
    format: ErrorsFormat,
    reading: Reading,
}

impl Job for ErrorsJob {
    /// How many errors of each code the page has.
    type Summary = HashMap<ErrorCode, usize>;

    fn reading(&self) -> &Reading {
        &self.reading
    }

    fn process<W: Write>(
        &self,
        page: &mut Page<'_>,
        out: &mut W,
    ) -> io::Result<HashMap<ErrorCode, usize>> {
        let tokenizing = Tokenizing {
            options: Options::default().errors(true),
            error_positions: ErrorPositions::LinesAndColumns,
            ..Tokenizing::default()
        };
        let label = page.label();
        let mut codes = HashMap::new();
        page.tokenize(&tokenizing, &mut |event: Event<'_, '_>, _: &Context| {
            let Event::Error(error, Some((line, col))) = event else {
                return Ok(());
            };
            *codes.entry(error.code).or_default() += 1;
            match self.format {
                ErrorsFormat::Text => writeln!(out, "{label}:{line}:{col}: {}", error.code),
                ErrorsFormat::Json => {
                    label.write_line(out, &crate::tokens::error_json(error, (line, col)))
                }
            }
        })?;
        Ok(codes)
    }
}

/// Error counts over all inputs.
#[derive(Debug, Default)]
struct Summary {
    files: usize,
    codes: HashMap<ErrorCode, usize>,
}

impl Summary {
    fn add(&mut self, codes: HashMap<ErrorCode, usize>) {
        self.files += 1;
        for (code, n) in codes {
            *self.codes.entry(code).or_default() += n;
        }
    }

    /// The codes, most frequent first (then by name).
    fn sorted(&self) -> Vec<(&'static str, usize)> {
        let mut codes: Vec<_> = self.codes.iter().map(|(c, n)| (c.as_str(), *n)).collect();
        codes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        codes
    }

    fn write(&self, out: &mut impl Write, format: ErrorsFormat) -> io::Result<()> {
        let total: usize = self.codes.values().sum();
        let codes = self.sorted();
        match format {
            ErrorsFormat::Text => {
                let counted =
                    |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
                writeln!(
                    out,
                    "{} in {}",
                    counted(total, "parse error"),
                    counted(self.files, "file")
                )?;
                let width = codes.first().map_or(1, |(_, n)| n.to_string().len());
                for (code, n) in codes {
                    writeln!(out, "  {n:>width$} {code}")?;
                }
                Ok(())
            }
            ErrorsFormat::Json => {
                let codes: Map<String, Value> = codes
                    .into_iter()
                    .map(|(c, n)| (c.to_owned(), n.into()))
                    .collect();
                let summary =
                    json!({"summary": {"errors": total, "files": self.files, "codes": codes}});
                crate::json::write_line(out, &summary)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_orders_by_count_then_name() {
        let mut s = Summary::default();
        s.add(HashMap::from([
            (ErrorCode::DuplicateAttribute, 1),
            (ErrorCode::EofInTag, 1),
        ]));
        s.add(HashMap::from([(ErrorCode::EofInTag, 1)]));
        s.add(HashMap::new());
        let mut out = Vec::new();
        s.write(&mut out, ErrorsFormat::Text).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "3 parse errors in 3 files\n  2 eof-in-tag\n  1 duplicate-attribute\n"
        );
        let mut out = Vec::new();
        s.write(&mut out, ErrorsFormat::Json).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"summary\":{\"errors\":3,\"files\":3,\"codes\":{\"eof-in-tag\":2,\"duplicate-attribute\":1}}}\n"
        );
    }
}
