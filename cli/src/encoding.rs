//! `htmltok encoding`: the character encoding of each page, as a browser
//! decides it (`FILE<TAB>LABEL<TAB>certain|tentative`).

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{DecodeOptions, canonical_label};

use crate::EncodingArgs;
use crate::page::{Decoding, Doc, Reading};
use crate::run::Job;

/// Runs `htmltok encoding`.
pub fn run(args: &EncodingArgs) -> ExitCode {
    let mut opts = DecodeOptions::default();
    if let Some(label) = &args.transport_charset {
        if htmltok::encoding_for_label(label).is_none() {
            crate::report(format_args!(
                "warning: unknown --transport-charset {label:?}, ignored (as the HTML \
                 Standard says for an unknown charset)"
            ));
        }
        opts = opts.transport_charset(label.as_str());
    }
    let job = EncodingJob {
        reading: args.input.reading(Decoding::Browser(opts)),
    };
    let inputs = args.input.inputs();
    let mut out = crate::stdout();
    let result = crate::run::run(&job, &inputs, &args.input.settings(), &mut out, |_, ()| {});
    crate::exit_status(result)
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
    fn process<W: Write>(&self, doc: &mut Doc<'_>, out: &mut W) -> io::Result<()> {
        let (encoding, confidence) = doc.browser_encoding();
        let label = canonical_label(encoding);
        write!(out, "{}\t{label}\t{confidence}", doc.name)?;
        if let Some(record) = doc.record {
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
