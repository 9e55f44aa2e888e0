//! WARC archives as inputs: each HTML record of an archive is a page, in
//! archive order, processed by the command as a file would be.
//!
//! An archive ([`crate::input::Opened::Archive`]) is read with the
//! library's [`htmltok::warc::Reader::html_records`], a record at a time
//! (memory bounded by the largest record): [`Records`] gives each as a
//! [`RecordPage`], decoded with its HTTP `charset` as the transport-layer
//! encoding unless the user chose one (`--encoding`, or `encoding
//! --transport-charset`), whose results carry the record's target URI, id,
//! date and status ([`RecordInfo`]). [`process`] has a command's [`Job`]
//! process each. What is not HTML (requests, images, `revisit` records,
//! ...) is counted ([`Counts`]), not reported. Damage is: each error of
//! the reader once, as `ARCHIVE: record N (offset O): what went wrong`,
//! after the output of the records before it, and the records after it
//! are still processed.

use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};

use htmltok::warc::{Counts, HtmlRecord, HtmlRecords, Position};

use crate::input::{Failure, Reader, Source};
use crate::job::Job;
use crate::label::RecordInfo;
use crate::page::{Decoding, Page, Reading};

/// When an archive's failures are reported on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reporting {
    /// As they come, after the output of the records before them: the
    /// output goes to stdout as it is written.
    AsTheyCome,
    /// After the archive's output: the output waits in a spill (with
    /// `--jobs`), and the failures wait with it.
    AfterTheOutput,
}

/// How reading one archive went.
pub struct Archive<S> {
    /// The summaries of the pages processed, in archive order.
    pub summaries: Vec<S>,
    /// The archive's errors, and pages that could not be processed to
    /// their end, in archive order.
    pub failures: Vec<Failure>,
    /// When the failures are reported.
    pub reporting: Reporting,
    /// The records read, by sort.
    pub counts: Counts,
}

/// The HTML records of one archive, each a page ready to be read (see the
/// module docs): what [`process`] has a job process, and what a command
/// that reads an archive its own way goes through.
pub struct Records<'s> {
    records: HtmlRecords<Reader>,
    source: &'s Source,
    reading: &'s Reading,
}

impl<'s> Records<'s> {
    /// The HTML records of the archive `source`, read from `read`, its
    /// pages read as `reading` says (with each record's charset).
    pub fn new(source: &'s Source, read: Reader, reading: &'s Reading) -> Records<'s> {
        Records {
            records: htmltok::warc::Reader::new(read).html_records(),
            source,
            reading,
        }
    }

    /// The records read so far, by sort.
    pub fn counts(&self) -> &Counts {
        self.records.counts()
    }
}

impl Iterator for Records<'_> {
    /// A record's page, or the archive's error (reported as the archive's
    /// failure, `ARCHIVE: record N (offset O): ...`).
    type Item = Result<RecordPage, Failure>;

    fn next(&mut self) -> Option<Result<RecordPage, Failure>> {
        Some(match self.records.next()? {
            Ok(record) => Ok(RecordPage {
                info: RecordInfo::of(&record),
                reading: record_reading(self.reading, record.charset()),
                record,
            }),
            Err(error) => Err(self.source.fail(error.to_string())),
        })
    }
}

/// An archive's HTML record, ready to be read as a page.
pub struct RecordPage {
    record: HtmlRecord,
    /// What the page's results carry.
    pub info: RecordInfo,
    /// How the page is read: with the record's charset.
    reading: Reading,
}

impl RecordPage {
    /// The page, named `name` (the archive's), tokenized from the record's
    /// payload where it lies.
    pub fn page<'p>(&'p self, name: &'p str) -> Page<'p> {
        let mut page = Page::in_memory(name, self.record.payload(), &self.reading);
        page.record = Some(&self.info);
        page
    }

    /// Where the record is in the archive (`record N (offset O)`).
    pub fn position(&self) -> Position {
        self.record.position()
    }
}

/// Processes every HTML record of the archive `source` (read from
/// `read`) with `job`, writing their outputs in archive order to `out`,
/// and reporting failures as `reporting` says. An error writing `out`
/// stops it.
pub fn process<J: Job, W: Write>(
    job: &J,
    source: &Source,
    read: Reader,
    out: &mut W,
    reporting: Reporting,
) -> io::Result<Archive<J::Summary>> {
    let name = source.name();
    let mut archive = Archive {
        summaries: Vec::new(),
        failures: Vec::new(),
        reporting,
        counts: Counts::default(),
    };
    let mut records = Records::new(source, read, job.reading());
    for record in &mut records {
        let record = match record {
            Ok(record) => record,
            Err(failure) => {
                archive.fail(failure, out)?;
                continue;
            }
        };
        let at = record.position();
        let mut page = record.page(&name);
        match panic::catch_unwind(AssertUnwindSafe(|| job.process(&mut page, out))) {
            Ok(summary) => archive.summaries.push(summary?),
            Err(_) => {
                let what = format!("{at}: internal error, skipped (please report this record)");
                archive.fail(source.fail(what), out)?;
                continue;
            }
        }
        if let Some(what) = page.failure() {
            archive.fail(source.fail(format!("{at}: {what}")), out)?;
        }
    }
    archive.counts = *records.counts();
    Ok(archive)
}

impl<S> Archive<S> {
    /// Keeps a failure, and reports it now if failures are reported as
    /// they come.
    fn fail(&mut self, failure: Failure, out: &mut impl Write) -> io::Result<()> {
        if self.reporting == Reporting::AsTheyCome {
            out.flush()?;
            crate::stdio::report(format_args!("{failure}"));
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
