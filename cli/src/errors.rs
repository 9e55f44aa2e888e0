//! `htmltok errors`: parse errors as a compiler prints them, then a
//! summary by code.

use std::collections::HashMap;
use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{ErrorCode, Options};
use serde_json::{Map, Value, json};

use crate::page::{Ctx, Doc, Event, Reading, Tokenize};
use crate::run::Job;
use crate::{ErrorsArgs, ReportFormat};

/// Runs `htmltok errors`.
pub fn run(args: &ErrorsArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let job = ErrorsJob {
        format: args.format,
        reading: args.input.reading(args.read.decoding()),
    };
    let mut out = crate::stdout();
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
    crate::exit_status(result)
}

/// `htmltok errors` as a [`Job`].
struct ErrorsJob {
    format: ReportFormat,
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
        doc: &mut Doc<'_>,
        out: &mut W,
    ) -> io::Result<HashMap<ErrorCode, usize>> {
        let run = Tokenize {
            options: Options::default().errors(true),
            positions: true,
            ..Tokenize::default()
        };
        let name = doc.label();
        let mut codes = HashMap::new();
        doc.tokenize(&run, &mut |event: Event<'_, '_>, _: &Ctx| {
            let Event::Error(error, Some((line, col))) = event else {
                return Ok(());
            };
            *codes.entry(error.code).or_default() += 1;
            match self.format {
                ReportFormat::Text => writeln!(out, "{name}:{line}:{col}: {}", error.code),
                ReportFormat::Json => crate::json::write_labelled(
                    out,
                    name,
                    &crate::tokens::error_json(error, (line, col)),
                ),
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

    fn write(&self, out: &mut impl Write, format: ReportFormat) -> io::Result<()> {
        let total: usize = self.codes.values().sum();
        let codes = self.sorted();
        match format {
            ReportFormat::Text => {
                let s =
                    |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
                writeln!(
                    out,
                    "{} in {}",
                    s(total, "parse error"),
                    s(self.files, "file")
                )?;
                let width = codes.first().map_or(1, |(_, n)| n.to_string().len());
                for (code, n) in codes {
                    writeln!(out, "  {n:>width$} {code}")?;
                }
                Ok(())
            }
            ReportFormat::Json => {
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
        s.write(&mut out, ReportFormat::Text).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "3 parse errors in 3 files\n  2 eof-in-tag\n  1 duplicate-attribute\n"
        );
        let mut out = Vec::new();
        s.write(&mut out, ReportFormat::Json).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"summary\":{\"errors\":3,\"files\":3,\"codes\":{\"eof-in-tag\":2,\"duplicate-attribute\":1}}}\n"
        );
    }
}
