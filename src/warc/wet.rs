//! WET files: the text of an archive's HTML pages as WARC `conversion`
//! records, laid out as Common Crawl writes them, so that every tool that
//! reads Common Crawl's WET files reads these.
//!
//! Common Crawl's layout (its `ia-web-commons` library,
//! `WETExtractorOutput` and `WARCRecordWriter`, checked against the
//! headers of its published files), which [`WetWriter`] follows:
//!
//! - WARC/1.0, a gzip member per record;
//! - first a `warcinfo` record: `WARC-Type`, `WARC-Date` (the time of the
//!   extraction), `WARC-Filename` (the WET file's name), `WARC-Record-ID`,
//!   `Content-Type: application/warc-fields`, `Content-Length`; its block
//!   is fields in HTTP's form, ended by a blank line: `Software-Info` (the
//!   software), `Extracted-Date` (the same time, in HTTP's date format),
//!   then those of `robots`, `isPartOf`, `operator`, `description` and
//!   `publisher` that the input archive's warcinfo has, copied;
//! - then a `conversion` record for each HTML page whose text is not
//!   empty, its fields in this order: `WARC-Type`, `WARC-Target-URI`,
//!   `WARC-Date` (the page's capture date, to the second), a new
//!   `WARC-Record-ID`, `WARC-Refers-To` (the page's record id),
//!   `WARC-Block-Digest` (`sha1:` and the base32 SHA-1 of the text),
//!   `WARC-Identified-Content-Language` when the page's record has one,
//!   `Content-Type: text/plain` (`text/markdown` when the text is
//!   Markdown, [`TextFormat::Markdown`]), `Content-Length`; the block is
//!   the text in UTF-8, its lines joined by line feeds.
//!
//! The text is [`HtmlRecord::extract`]'s, with the [`ExtractOptions`]
//! given ([`WetOptions::extract`]) and the page decoded with the
//! [`DecodeOptions`] given ([`WetOptions::decode`]): the options of the text (alt text,
//! hidden elements, a cap) and any added to them (main content, another
//! text format) flow through unchanged. Pages of `resource` records are
//! converted as those of `response` records are.

use std::io::{Read, Write};

use bumpalo::Bump;

use crate::encoding::{DecodeOptions, Document};
use crate::extract::{ExtractOptions, TextFormat, extract_in};
use crate::url::Url;

use super::date::WarcDate;
use super::digest::sha1_digest;
use super::error::{WarcError, WarcErrorKind};
use super::html::{Counts, HtmlRecord};
use super::reader::Reader;
use super::record::{Record, RecordKind, parse_fields};
use super::record_id::RecordIds;
use super::write_error::WriteError;
use super::writer::{Compression, Version, Writer, WriterOptions, check_name, check_value};

/// The fields of an input archive's warcinfo that a WET warcinfo carries
/// over, in Common Crawl's order.
const CARRIED_OVER: [&str; 5] = ["robots", "isPartOf", "operator", "description", "publisher"];

/// The arena kept between pages is given back once it grows past this
/// (a huge page should not hold its memory for the rest of the archive).
const ARENA_KEPT: usize = 64 << 20;

/// How a [`WetWriter`] writes: the text's options, what the warcinfo
/// says, and the file's form.
///
/// ```
/// use htmltok::extract::ExtractOptions;
/// use htmltok::warc::WetOptions;
///
/// let options = WetOptions::default()
///     .filename("CC-MAIN-20240101000000-00000.warc.wet.gz")
///     .extract(ExtractOptions::default().links(false).metadata(false).alt_text(true))
///     .info_field("htmltok-options", "alt text");
/// assert_eq!(options.version, htmltok::warc::Version::V1_0);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct WetOptions {
    /// The options of the text extraction. The default: text only (a
    /// WET file holds no links or metadata; asking for them costs time
    /// and changes nothing written).
    pub extract: ExtractOptions,
    /// How pages are decoded: [`DecodeOptions::default`] (a browser's
    /// rules, as [`HtmlRecord::document`] decodes) by default, with the
    /// page's HTTP `charset` as the transport-layer encoding unless these
    /// name one. `detect_utf8(true)` reads undeclared UTF-8 pages as UTF-8
    /// (as the `htmltok` command line does).
    pub decode: DecodeOptions,
    /// `WARC-Filename` of the warcinfo record: the WET file's name (none
    /// by default, and then no such field).
    pub filename: Option<String>,
    /// The time of the extraction (the warcinfo's `WARC-Date` and
    /// `Extracted-Date`, and the date of a page without one); `None`, the
    /// default, for the time the writer is made.
    pub date: Option<WarcDate>,
    /// `Software-Info` of the warcinfo: `htmltok/VERSION` by default.
    pub software: String,
    /// More fields for the warcinfo's block, after those carried over
    /// (none by default).
    pub info_fields: Vec<(String, String)>,
    /// The version line: WARC/1.0 by default, as Common Crawl writes WET.
    pub version: Version,
    /// A gzip member per record by default, as Common Crawl's `.warc.wet.gz`.
    pub compression: Compression,
    /// Record ids from this seed ([`RecordIds::seeded`]) instead of the
    /// system's random source: for tests and reproducible output.
    pub seed: Option<u64>,
}

impl Default for WetOptions {
    fn default() -> WetOptions {
        WetOptions {
            extract: ExtractOptions::default().links(false).metadata(false),
            decode: DecodeOptions::default(),
            filename: None,
            date: None,
            software: concat!("htmltok/", env!("CARGO_PKG_VERSION")).to_string(),
            info_fields: Vec::new(),
            version: Version::V1_0,
            compression: Compression::gzip(),
            seed: None,
        }
    }
}

impl WetOptions {
    /// Sets [`WetOptions::extract`].
    pub fn extract(mut self, options: ExtractOptions) -> WetOptions {
        self.extract = options;
        self
    }

    /// Sets [`WetOptions::decode`].
    pub fn decode(mut self, options: DecodeOptions) -> WetOptions {
        self.decode = options;
        self
    }

    /// Sets [`WetOptions::filename`].
    pub fn filename(mut self, name: impl Into<String>) -> WetOptions {
        self.filename = Some(name.into());
        self
    }

    /// Sets [`WetOptions::date`].
    pub fn date(mut self, date: WarcDate) -> WetOptions {
        self.date = Some(date);
        self
    }

    /// Sets [`WetOptions::software`].
    pub fn software(mut self, software: impl Into<String>) -> WetOptions {
        self.software = software.into();
        self
    }

    /// Adds a field to [`WetOptions::info_fields`].
    pub fn info_field(mut self, name: impl Into<String>, value: impl Into<String>) -> WetOptions {
        self.info_fields.push((name.into(), value.into()));
        self
    }

    /// Sets [`WetOptions::version`].
    pub fn version(mut self, version: Version) -> WetOptions {
        self.version = version;
        self
    }

    /// Sets [`WetOptions::compression`].
    pub fn compression(mut self, compression: Compression) -> WetOptions {
        self.compression = compression;
        self
    }

    /// Sets [`WetOptions::seed`].
    pub fn seed(mut self, seed: u64) -> WetOptions {
        self.seed = Some(seed);
        self
    }
}

/// What a [`WetWriter`] has done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WetCounts {
    /// The records of the input archives, by sort, as their
    /// [`HtmlRecords`](super::HtmlRecords) counted them ([`WetWriter::convert`]
    /// only): `html` pages, what was not HTML, `errors`.
    pub input: Counts,
    /// `conversion` records written.
    pub conversions: u64,
    /// HTML pages whose text is empty: no record.
    pub empty: u64,
    /// HTML pages that could not be decoded: reported, no record.
    pub undecodable: u64,
}

/// What became of a page given to [`WetWriter::write_page`].
#[derive(Debug)]
#[non_exhaustive]
pub enum PageOutcome {
    /// A `conversion` record was written, at this offset of the output.
    Written(u64),
    /// The page's text is empty: nothing was written.
    Empty,
    /// The page could not be decoded: nothing was written.
    Undecodable(crate::DecodeError),
}

/// Writes a WET file (see the module docs): a warcinfo record, then a
/// conversion record for each page.
///
/// ```
/// use htmltok::warc::{Reader, RecordKind, WetOptions, WetWriter};
///
/// let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>T</title><p>Hello, <b>world</b>";
/// let mut archive = format!(
///     "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/\r\n\
///      WARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Record-ID: <urn:uuid:1>\r\n\
///      Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
///     block.len()
/// )
/// .into_bytes();
/// archive.extend_from_slice(block);
/// archive.extend_from_slice(b"\r\n\r\n");
///
/// let mut wet = WetWriter::new(Vec::new(), WetOptions::default().filename("a.warc.wet.gz"));
/// wet.convert(Reader::new(&archive[..]), |error| eprintln!("{error}"))?;
/// assert_eq!(wet.counts().conversions, 1);
/// let file = wet.finish()?;
///
/// let records: Vec<_> = Reader::new(&file[..]).collect::<Result<_, _>>()?;
/// assert_eq!(records[0].kind(), &RecordKind::Warcinfo);
/// assert_eq!(records[0].header("WARC-Filename"), Some("a.warc.wet.gz"));
/// assert_eq!(records[1].kind(), &RecordKind::Conversion);
/// assert_eq!(records[1].header("WARC-Refers-To"), Some("<urn:uuid:1>"));
/// assert_eq!(records[1].date(), Some("2024-05-01T12:00:00Z"));
/// assert_eq!(records[1].block(), b"Hello, world");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct WetWriter<W: Write> {
    writer: Writer<W>,
    options: WetOptions,
    date: WarcDate,
    arena: Bump,
    started: bool,
    counts: WetCounts,
}

impl<W: Write> WetWriter<W> {
    /// A WET file written to `out` (nothing is written before the first
    /// record). Give it a buffered writer for plain output.
    pub fn new(out: W, options: WetOptions) -> WetWriter<W> {
        let writer_options = WriterOptions::default()
            .version(options.version)
            .compression(options.compression);
        let ids = match options.seed {
            Some(seed) => RecordIds::seeded(seed),
            None => RecordIds::random(),
        };
        WetWriter {
            writer: Writer::new(out, writer_options).with_record_ids(ids),
            date: options.date.unwrap_or_else(WarcDate::now),
            options,
            arena: Bump::new(),
            started: false,
            counts: WetCounts::default(),
        }
    }

    /// What has been written so far.
    pub fn counts(&self) -> &WetCounts {
        &self.counts
    }

    /// The options in force.
    pub fn options(&self) -> &WetOptions {
        &self.options
    }

    /// Writes the warcinfo record, with the fields of `input` (the input
    /// archive's warcinfo record, if there is one) carried over. The first
    /// page writes it if this was not called; a second call writes
    /// nothing. Returns whether it wrote it.
    pub fn write_warcinfo(&mut self, input: Option<&Record>) -> Result<bool, WriteError> {
        if self.started {
            return Ok(false);
        }
        let software = ("Software-Info", self.options.software.as_str());
        let added = self.options.info_fields.iter();
        for (name, value) in [software]
            .into_iter()
            .chain(added.map(|(n, v)| (&n[..], &v[..])))
        {
            check_name(name)?;
            check_value(name, value)?;
        }
        let mut block = Vec::with_capacity(512);
        let mut field = |name: &str, value: &str| {
            block.extend_from_slice(name.as_bytes());
            block.extend_from_slice(b": ");
            block.extend_from_slice(value.as_bytes());
            block.extend_from_slice(b"\r\n");
        };
        field(software.0, software.1);
        field("Extracted-Date", &self.date.to_http());
        if let Some(input) = input.filter(|r| r.kind() == &RecordKind::Warcinfo) {
            let fields = parse_fields(input.block());
            for name in CARRIED_OVER {
                if let Some((_, value)) = fields.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))
                {
                    field(name, value);
                }
            }
        }
        for (name, value) in &self.options.info_fields {
            field(name, value);
        }
        block.extend_from_slice(b"\r\n");

        let date = self.date.to_warc(self.options.version);
        let id = self.writer.new_record_id();
        let mut fields: Vec<(&str, &str)> = vec![("WARC-Date", &date)];
        if let Some(name) = &self.options.filename {
            fields.push(("WARC-Filename", name));
        }
        fields.push(("WARC-Record-ID", &id));
        fields.push(("Content-Type", "application/warc-fields"));
        self.writer
            .write_record(&RecordKind::Warcinfo, &fields, &block)?;
        self.started = true;
        Ok(true)
    }

    /// Extracts the text of `page` ([`WetOptions::extract`]) and writes
    /// its conversion record, unless the text is empty or the page cannot
    /// be decoded ([`PageOutcome`]).
    pub fn write_page(&mut self, page: &HtmlRecord) -> Result<PageOutcome, WriteError> {
        let mut decode = self.options.decode.clone();
        if decode.transport_charset.is_none() {
            decode.transport_charset = page.charset().map(str::to_string);
        }
        let document = match Document::from_bytes(page.payload(), &decode) {
            Ok(document) => document,
            Err(error) => {
                self.counts.undecodable += 1;
                return Ok(PageOutcome::Undecodable(error));
            }
        };
        let url = Url::parse(page.target_uri()).ok();
        let options = self.options.extract.clone().url(url);
        let extracted = extract_in(document.text(), &options, &mut self.arena);
        if self.arena.allocated_bytes() > ARENA_KEPT {
            self.arena = Bump::new();
        }
        Ok(match self.write_text(page, &extracted.text)? {
            Some(offset) => PageOutcome::Written(offset),
            None => PageOutcome::Empty,
        })
    }

    /// Writes the conversion record of `page` with `text` as its block
    /// (text the caller extracted), or nothing when `text` is empty.
    /// Returns the record's offset in the output, if it wrote one.
    pub fn write_text(&mut self, page: &HtmlRecord, text: &str) -> Result<Option<u64>, WriteError> {
        if text.is_empty() {
            self.counts.empty += 1;
            return Ok(None);
        }
        self.write_warcinfo(None)?;
        // The capture date, written as the version writes dates (Common
        // Crawl's WET dates are to the second); one that does not read as
        // a WARC date is copied as it is.
        let date = match page.date() {
            Some(written) => match WarcDate::parse(written) {
                Some(date) => date.to_warc(self.options.version),
                None => written.to_string(),
            },
            None => self.date.to_warc(self.options.version),
        };
        let id = self.writer.new_record_id();
        let digest = sha1_digest(text.as_bytes());
        let mut fields: Vec<(&str, &str)> = Vec::with_capacity(8);
        fields.push(("WARC-Target-URI", page.target_uri()));
        fields.push(("WARC-Date", &date));
        fields.push(("WARC-Record-ID", &id));
        if let Some(refers_to) = page.record_id() {
            fields.push(("WARC-Refers-To", refers_to));
        }
        fields.push(("WARC-Block-Digest", &digest));
        if let Some(language) = page.identified_language() {
            fields.push(("WARC-Identified-Content-Language", language));
        }
        // Markdown is said to be Markdown (RFC 7763); the rest is plain.
        let content_type = match self.options.extract.text_format() {
            TextFormat::Markdown => "text/markdown",
            _ => "text/plain",
        };
        fields.push(("Content-Type", content_type));
        let offset = self
            .writer
            .write_record(&RecordKind::Conversion, &fields, text.as_bytes())?;
        self.counts.conversions += 1;
        Ok(Some(offset))
    }

    /// Converts every HTML page of the archive `reader` reads: the
    /// warcinfo record first (with what the archive's own warcinfo says),
    /// then the pages' conversion records, in archive order. Damaged
    /// records and pages that cannot be decoded are given to `report` (as
    /// [`WarcError`]s: `record N (offset O): ...`) and skipped; what is
    /// not HTML is counted ([`WetCounts::input`]). Only a failure to write
    /// ends it early.
    pub fn convert<R: Read>(
        &mut self,
        reader: Reader<R>,
        mut report: impl FnMut(&WarcError),
    ) -> Result<(), WriteError> {
        let mut pages = reader.html_records();
        while let Some(item) = pages.next() {
            let page = match item {
                Ok(page) => page,
                Err(error) => {
                    report(&error);
                    continue;
                }
            };
            self.write_warcinfo(pages.warcinfo())?;
            if let PageOutcome::Undecodable(error) = self.write_page(&page)? {
                report(&WarcError {
                    position: page.position(),
                    kind: WarcErrorKind::Decode(error.to_string()),
                });
            }
        }
        self.write_warcinfo(pages.warcinfo())?;
        self.counts.input += *pages.counts();
        Ok(())
    }

    /// Writes the warcinfo record if no record was written (an archive
    /// without pages still gives a WET file that says what it is),
    /// flushes the output and gives it back.
    pub fn finish(mut self) -> Result<W, WriteError> {
        self.write_warcinfo(None)?;
        Ok(self.writer.finish()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record as a crawler writes it.
    fn record(kind: &str, fields: &[(&str, &str)], block: &[u8]) -> Vec<u8> {
        let mut out = format!("WARC/1.1\r\nWARC-Type: {kind}\r\n");
        for (name, value) in fields {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
        out.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
        let mut out = out.into_bytes();
        out.extend_from_slice(block);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    fn response(n: u32, language: Option<&str>, body: &str) -> Vec<u8> {
        let uri = format!("https://example.com/{n}");
        let id = format!("<urn:uuid:{n}>");
        let mut fields = vec![
            ("WARC-Target-URI", uri.as_str()),
            ("WARC-Date", "2024-05-01T12:00:00.123456Z"),
            ("WARC-Record-ID", id.as_str()),
            ("Content-Type", "application/http; msgtype=response"),
        ];
        if let Some(language) = language {
            fields.push(("WARC-Identified-Content-Language", language));
        }
        let block = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{body}");
        record("response", &fields, block.as_bytes())
    }

    fn archive() -> Vec<u8> {
        let info = b"software: crawler/1.0\r\nisPartOf: CC-MAIN-2024-18\r\n\
                     operator: Common Crawl Admin (info@commoncrawl.org)\r\n\
                     description: Wide crawl of the web for April 2024\r\n\
                     publisher: Common Crawl\r\nformat: WARC File Format 1.1\r\n";
        let mut archive = record(
            "warcinfo",
            &[
                ("WARC-Date", "2024-04-12T00:00:00Z"),
                ("WARC-Record-ID", "<urn:uuid:0>"),
                ("Content-Type", "application/warc-fields"),
            ],
            info,
        );
        archive.extend(response(
            1,
            Some("eng"),
            "<title>x</title><p>Hello, <b>world</b><p>Two",
        ));
        archive.extend(record(
            "response",
            &[
                ("WARC-Target-URI", "https://example.com/img"),
                ("WARC-Date", "2024-05-01T12:00:00Z"),
                ("WARC-Record-ID", "<urn:uuid:img>"),
            ],
            b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG",
        ));
        archive.extend(response(2, None, "<script>only()</script>"));
        archive.extend(b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 5\r\n\r\nab\r\n\r\n");
        archive.extend(response(3, Some("deu,eng"), "Grüße"));
        archive
    }

    fn options() -> WetOptions {
        WetOptions::default()
            .filename("test.warc.wet.gz")
            .date(WarcDate::parse("2024-06-01T08:30:00Z").unwrap())
            .decode(DecodeOptions::default().detect_utf8(true))
            .seed(7)
    }

    #[test]
    fn common_crawl_layout_byte_for_byte() {
        let mut wet = WetWriter::new(Vec::new(), options().compression(Compression::None));
        let mut errors = Vec::new();
        wet.convert(Reader::new(&archive()[..]), |e| errors.push(e.to_string()))
            .unwrap();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("record 5 (offset "), "{errors:?}");
        let counts = *wet.counts();
        let file = String::from_utf8(wet.finish().unwrap()).unwrap();

        let mut ids = RecordIds::seeded(7);
        let (info_id, id1, id3) = (ids.next_id(), ids.next_id(), ids.next_id());
        let info = "Software-Info: htmltok/VERSION\r\n\
                    Extracted-Date: Sat, 01 Jun 2024 08:30:00 GMT\r\n\
                    isPartOf: CC-MAIN-2024-18\r\n\
                    operator: Common Crawl Admin (info@commoncrawl.org)\r\n\
                    description: Wide crawl of the web for April 2024\r\n\
                    publisher: Common Crawl\r\n\
                    \r\n"
            .replace("VERSION", env!("CARGO_PKG_VERSION"));
        let want = format!(
            "WARC/1.0\r\n\
             WARC-Type: warcinfo\r\n\
             WARC-Date: 2024-06-01T08:30:00Z\r\n\
             WARC-Filename: test.warc.wet.gz\r\n\
             WARC-Record-ID: {info_id}\r\n\
             Content-Type: application/warc-fields\r\n\
             Content-Length: {}\r\n\r\n{info}\r\n\r\n\
             WARC/1.0\r\n\
             WARC-Type: conversion\r\n\
             WARC-Target-URI: https://example.com/1\r\n\
             WARC-Date: 2024-05-01T12:00:00Z\r\n\
             WARC-Record-ID: {id1}\r\n\
             WARC-Refers-To: <urn:uuid:1>\r\n\
             WARC-Block-Digest: {}\r\n\
             WARC-Identified-Content-Language: eng\r\n\
             Content-Type: text/plain\r\n\
             Content-Length: 16\r\n\r\n\
             Hello, world\nTwo\r\n\r\n\
             WARC/1.0\r\n\
             WARC-Type: conversion\r\n\
             WARC-Target-URI: https://example.com/3\r\n\
             WARC-Date: 2024-05-01T12:00:00Z\r\n\
             WARC-Record-ID: {id3}\r\n\
             WARC-Refers-To: <urn:uuid:3>\r\n\
             WARC-Block-Digest: {}\r\n\
             WARC-Identified-Content-Language: deu,eng\r\n\
             Content-Type: text/plain\r\n\
             Content-Length: 7\r\n\r\n\
             Grüße\r\n\r\n",
            info.len(),
            sha1_digest(b"Hello, world\nTwo"),
            sha1_digest("Grüße".as_bytes()),
        );
        assert_eq!(file, want);
        assert_eq!(counts.conversions, 2);
        assert_eq!(counts.empty, 1);
        assert_eq!(counts.undecodable, 0);
        assert_eq!(counts.input.html, 3);
        assert_eq!(counts.input.skipped_by_type, 1);
        assert_eq!(counts.input.warcinfo, 1);
        assert_eq!(counts.input.errors, 1);
    }

    #[test]
    fn gzip_members_read_back_alone_from_their_offsets() {
        let mut wet = WetWriter::new(Vec::new(), options());
        wet.convert(Reader::new(&archive()[..]), |_| {}).unwrap();
        let file = wet.finish().unwrap();
        let records: Vec<Record> = Reader::new(&file[..]).collect::<Result<_, _>>().unwrap();
        assert_eq!(records.len(), 3);
        for record in &records {
            assert_eq!(record.version(), "1.0");
            let offset = record.position().offset().unwrap() as usize;
            let alone = Reader::new(&file[offset..]).next().unwrap().unwrap();
            assert_eq!(alone.headers(), record.headers());
            assert_eq!(alone.block(), record.block());
            if let Some(digest) = record.header("WARC-Block-Digest") {
                assert_eq!(digest, sha1_digest(record.block()));
            }
        }
    }

    #[test]
    fn an_archive_without_pages_or_warcinfo_still_gets_its_warcinfo() {
        let wet = WetWriter::new(Vec::new(), options().compression(Compression::None));
        let file = wet.finish().unwrap();
        let records: Vec<Record> = Reader::new(&file[..]).collect::<Result<_, _>>().unwrap();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].kind(), &RecordKind::Warcinfo);
        let fields = parse_fields(records[0].block());
        let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Software-Info", "Extracted-Date"]);
    }

    #[test]
    fn extra_info_fields_and_their_checks() {
        let options = options().info_field("htmltok-text", "main content");
        let mut wet = WetWriter::new(Vec::new(), options.compression(Compression::None));
        assert!(wet.write_warcinfo(None).unwrap());
        assert!(!wet.write_warcinfo(None).unwrap());
        let file = wet.finish().unwrap();
        let text = String::from_utf8(file).unwrap();
        assert!(
            text.contains("GMT\r\nhtmltok-text: main content\r\n\r\n"),
            "{text}"
        );

        let bad = WetOptions::default().info_field("x", "a\nb");
        let mut wet = WetWriter::new(Vec::new(), bad);
        let error = wet.write_warcinfo(None).unwrap_err();
        assert!(matches!(error, WriteError::LineBreak { .. }));
        let bad = WetOptions::default().software("a\rb");
        assert!(WetWriter::new(Vec::new(), bad).finish().is_err());
    }

    #[test]
    fn text_given_by_the_caller() {
        let archive = response(9, None, "<p>ignored");
        let page = Reader::new(&archive[..])
            .html_records()
            .next()
            .unwrap()
            .unwrap();
        let mut wet = WetWriter::new(Vec::new(), options().compression(Compression::None));
        assert_eq!(wet.write_text(&page, "").unwrap(), None);
        let offset = wet.write_text(&page, "my text").unwrap().unwrap();
        let file = wet.finish().unwrap();
        let record = Reader::new(&file[offset as usize..])
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(record.block(), b"my text");
        assert_eq!(record.target_uri(), Some("https://example.com/9"));
    }
}
