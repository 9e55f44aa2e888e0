//! `htmltok encoding`: the character encoding of each page, as a browser
//! decides it (`FILE<TAB>LABEL<TAB>certain|tentative`).

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{DecodeOptions, canonical_label};

use crate::args::EncodingArgs;
use crate::job::Job;
use crate::page::{Decoding, Page, Reading};
use crate::{exit, stdio};

/// Runs `htmltok encoding`.
pub fn run(args: &EncodingArgs) -> ExitCode {
    let mut options = DecodeOptions::default();
    if let Some(label) = &args.transport_charset {
        if htmltok::encoding_for_label(label).is_none() {
            stdio::report(format_args!(
                "warning: unknown --transport-charset {label:?}, ignored (as the HTML \
                 Standard says for an unknown charset)"
            ));
        }
        options = options.transport_charset(label.as_str());
    }
    let job = EncodingJob {
        reading: args.input.reading(Decoding::Browser(options)),
    };
    let inputs = args.input.inputs();
    let mut out = stdio::stdout();
    let result = crate::run::run(&job, &inputs, &args.input.settings(), &mut out, |_, ()| {});
    exit::status(result)
}

/// `htmltok encoding` as a [`Job`].
struct EncodingJob {
    reading: Reading,
}

impl Job for EncodingJob {
    type Summary = ();

    fn reading(&self) -> &Reading {
        &self.reading
    }

    /// A record's line goes on with its URI, id, date and status, a
    /// column each (`-` for none).
    fn process<W: Write>(&self, page: &mut Page<'_>, out: &mut W) -> io::Result<()> {
        let (encoding, confidence) = page.browser_encoding();
        let label = canonical_label(encoding);
        write!(out, "{}\t{label}\t{confidence}", page.name)?;
        if let Some(record) = page.record {
            let or_dash = |field: Option<&str>| field.unwrap_or("-").to_owned();
            let status = record.status.map_or("-".to_owned(), |s| s.to_string());
            let (id, date) = (
                or_dash(record.record_id.as_deref()),
                or_dash(record.date.as_deref()),
            );
            write!(out, "\t{}\t{id}\t{date}\t{status}", record.uri)?;
        }
        writeln!(out)
    }
}
