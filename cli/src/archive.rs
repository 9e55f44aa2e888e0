//! WARC archives as inputs: each HTML record of an archive is a page, in
//! archive order, processed by the command as a file would be.
//!
//! An archive ([`crate::input::Opened::Archive`]) is read with the
//! library's [`htmltok::warc::Reader::html_records`], a record at a time
//! (memory bounded by the largest record). Each page is decoded with its
//! HTTP `charset` as the transport-layer encoding, unless the user chose
//! one (`--encoding`, or `encoding --transport-charset`), and its results
//! carry the record's target URI, id, date and status ([`RecordInfo`]).
//! What is not HTML (requests, images, `revisit` records, ...) is counted
//! ([`Counts`]), not reported. Damage is: each error of the reader once,
//! as `ARCHIVE: record N (offset O): what went wrong`, after the output of
//! the records before it, and the records after it are still processed.

use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};

use htmltok::warc::{Counts, HtmlRecord};
use serde_json::Value;

use crate::input::{Failure, Reader, Source};
use crate::page::{Decoding, Doc, Reading};
use crate::run::Job;

/// What the results of a record's page carry besides the archive's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordInfo {
    /// `WARC-Target-URI`: the page's address.
    pub uri: String,
    /// `WARC-Record-ID` (`<urn:uuid:...>`).
    pub record_id: Option<String>,
    /// `WARC-Date`.
    pub date: Option<String>,
    /// The HTTP status (none for a `resource` record).
    pub status: Option<u16>,
}

impl RecordInfo {
    fn of(page: &HtmlRecord) -> RecordInfo {
        RecordInfo {
            uri: page.target_uri().to_owned(),
            record_id: page.record_id().map(str::to_owned),
            date: page.date().map(str::to_owned),
            status: page.status(),
        }
    }

    /// The JSON fields, in output order: `uri`, `record_id`, `date`,
    /// `status` (null when the record has none).
    pub fn fields(&self) -> [(&'static str, Value); 4] {
        [
            ("uri", self.uri.as_str().into()),
            ("record_id", self.record_id.as_deref().into()),
            ("date", self.date.as_deref().into()),
            ("status", self.status.into()),
        ]
    }

    /// The page's address as a base URL for its links (none when it does
    /// not parse: relative links then stay as written).
    pub fn url(&self) -> Option<url::Url> {
        url::Url::parse(&self.uri).ok()
    }
}

/// A record's page as an input: its payload, where it lies in the record.
struct Payload(HtmlRecord);

impl AsRef<[u8]> for Payload {
    fn as_ref(&self) -> &[u8] {
        self.0.payload()
    }
}

/// How reading one archive went.
pub struct Archive<S> {
    /// The summaries of the pages processed, in archive order.
    pub summaries: Vec<S>,
    /// The archive's errors, and pages that could not be processed to
    /// their end, in archive order.
    pub failures: Vec<Failure>,
    /// Whether the failures were reported already, as they came.
    pub reported: bool,
    /// The records read, by sort.
    pub counts: Counts,
}

/// Processes every HTML record of the archive `source` (read from
/// `read`) with `job`, writing their outputs in archive order to `out`.
/// With `inline` (`out` is the output, not a spill), each failure is
/// reported as it comes, after the output before it. An error writing
/// `out` stops it.
pub fn process<J: Job, W: Write>(
    job: &J,
    source: &Source,
    read: Reader,
    out: &mut W,
    inline: bool,
) -> io::Result<Archive<J::Summary>> {
    let name = source.name();
    let mut archive = Archive {
        summaries: Vec::new(),
        failures: Vec::new(),
        reported: inline,
        counts: Counts::default(),
    };
    let mut pages = htmltok::warc::Reader::new(read).html_records();
    for page in &mut pages {
        let page = match page {
            Ok(page) => page,
            Err(error) => {
                archive.fail(source.fail(error.to_string()), out)?;
                continue;
            }
        };
        let record = RecordInfo::of(&page);
        let at = page.position();
        let reading = record_reading(job.reading(), page.charset());
        let mut doc = Doc::in_memory(&name, Box::new(Payload(page)), &reading);
        doc.record = Some(&record);
        match panic::catch_unwind(AssertUnwindSafe(|| job.process(&mut doc, out))) {
            Ok(summary) => archive.summaries.push(summary?),
            Err(_) => {
                let what = format!("{at}: internal error, skipped (please report this record)");
                archive.fail(source.fail(what), out)?;
                continue;
            }
        }
        if let Some(what) = doc.failure() {
            archive.fail(source.fail(format!("{at}: {what}")), out)?;
        }
    }
    archive.counts = *pages.counts();
    Ok(archive)
}

impl<S> Archive<S> {
    /// Keeps a failure, and reports it now if failures are reported as
    /// they come.
    fn fail(&mut self, failure: Failure, out: &mut impl Write) -> io::Result<()> {
        if self.reported {
            out.flush()?;
            crate::report(format_args!("{failure}"));
        }
        self.failures.push(failure);
        Ok(())
    }
}

/// How a record's page is read: as `reading` says, with the record's HTTP
/// charset as the transport-layer encoding when the user gave none.
fn record_reading(reading: &Reading, charset: Option<&str>) -> Reading {
    let mut reading = reading.clone();
    if let (Decoding::Sniff(options) | Decoding::Browser(options), Some(charset)) =
        (&mut reading.decoding, charset)
        && options.transport_charset.is_none()
    {
        options.transport_charset = Some(charset.to_owned());
    }
    reading
}

/// Adds the counts of one archive to a run's.
pub fn add_counts(total: &mut Counts, counts: &Counts) {
    total.records += counts.records;
    total.html += counts.html;
    total.skipped_by_type += counts.skipped_by_type;
    total.revisits += counts.revisits;
    total.requests += counts.requests;
    total.warcinfo += counts.warcinfo;
    total.metadata += counts.metadata;
    total.other += counts.other;
    total.errors += counts.errors;
}
