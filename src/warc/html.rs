//! The HTML pages of an archive: which records hold one, and the page's
//! bytes and transport-layer charset.
//!
//! An indexer wants pages, not records. A page is in a `response` record
//! (HTTP: status, headers, body) or a `resource` record (the bytes alone,
//! typed by the record's own `Content-Type`). It is HTML when its type says
//! `text/html` or `application/xhtml+xml`, or when it has no type and its
//! first bytes sniff as HTML (the MIME Sniffing Standard's rules for an
//! unknown type, [`crate::mime`]). Everything else is counted, by why it was
//! passed over ([`Counts`]), and not reported as an error: an archive is
//! mostly requests, metadata, images and scripts. `revisit` records are
//! counted apart: their payload is elsewhere (or nowhere), so there is
//! nothing to tokenize; [`Reader`] yields them for whoever wants to follow
//! them. A `response` record typed as something other than HTTP
//! (Heritrix's `text/dns` records) is passed over by type; one that should
//! be HTTP and is not is an error.

use std::io::Read;

use crate::encoding::{DecodeError, DecodeOptions, Document};

use super::error::{WarcError, WarcErrorKind};
use super::http::{HttpResponse, charset, essence};
use super::reader::Reader;
use super::record::{Position, Record, RecordKind};

/// An HTML page from an archive: where it is, what the archive says about
/// it, and its bytes, ready to decode ([`HtmlRecord::document`]).
///
/// ```
/// use htmltok::warc::Reader;
///
/// let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1251\r\n\r\n<p>\xcf\xf0\xe8\xe2\xe5\xf2";
/// let mut archive = format!(
///     "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.ru/\r\n\
///      WARC-Date: 2024-05-01T12:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n\
///      Content-Length: {}\r\n\r\n",
///     block.len()
/// )
/// .into_bytes();
/// archive.extend_from_slice(block);
/// archive.extend_from_slice(b"\r\n\r\n");
///
/// let mut pages = Reader::new(&archive[..]).html_records();
/// let page = pages.next().unwrap()?;
/// assert_eq!((page.target_uri(), page.status()), ("https://example.ru/", Some(200)));
/// assert_eq!(page.charset(), Some("windows-1251"));
/// let doc = page.document().unwrap();
/// assert_eq!(doc.text(), "<p>Привет"); // decoded with the HTTP charset
/// assert!(pages.next().is_none());
/// assert_eq!(pages.counts().html, 1);
/// # Ok::<(), htmltok::warc::WarcError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtmlRecord {
    position: Position,
    kind: RecordKind,
    target_uri: String,
    record_id: Option<String>,
    date: Option<String>,
    truncated: Option<String>,
    language: Option<String>,
    status: Option<u16>,
    content_type: Option<String>,
    charset: Option<String>,
    data: Vec<u8>,
    start: usize,
}

impl HtmlRecord {
    /// Where the record is in the archive: its number and offsets.
    pub fn position(&self) -> Position {
        self.position
    }

    /// [`RecordKind::Response`] or [`RecordKind::Resource`].
    pub fn kind(&self) -> &RecordKind {
        &self.kind
    }

    /// `WARC-Target-URI`: the page's address, which its links resolve
    /// against.
    pub fn target_uri(&self) -> &str {
        &self.target_uri
    }

    /// `WARC-Record-ID`, as written (`<urn:uuid:...>`).
    pub fn record_id(&self) -> Option<&str> {
        self.record_id.as_deref()
    }

    /// `WARC-Date`, as written.
    pub fn date(&self) -> Option<&str> {
        self.date.as_deref()
    }

    /// `WARC-Truncated` (`length`, `time`, ...), when the record holds only
    /// the start of the payload.
    pub fn truncated(&self) -> Option<&str> {
        self.truncated.as_deref()
    }

    /// `WARC-Identified-Content-Language`: the languages a crawler
    /// identified in the page (Common Crawl writes ISO 639-3 codes, most
    /// likely first: `eng`, `deu,eng`), as written.
    pub fn identified_language(&self) -> Option<&str> {
        self.language.as_deref()
    }

    /// The HTTP status code (`None` for a `resource` record).
    pub fn status(&self) -> Option<u16> {
        self.status
    }

    /// The page's `Content-Type` (HTTP's, or a `resource` record's own),
    /// as written; `None` when there is none (the page sniffed as HTML).
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// The `charset` of [`HtmlRecord::content_type`]: the transport-layer
    /// encoding that [`HtmlRecord::document`] passes to encoding sniffing.
    pub fn charset(&self) -> Option<&str> {
        self.charset.as_deref()
    }

    /// The page's bytes: the HTTP body with its transfer and content
    /// codings undone.
    pub fn payload(&self) -> &[u8] {
        &self.data[self.start..]
    }

    /// The page's bytes, taken out of the record.
    pub fn into_payload(mut self) -> Vec<u8> {
        self.data.drain(..self.start);
        self.data
    }

    /// The options [`HtmlRecord::document`] decodes with: the default ones
    /// and the transport charset. Change them and call
    /// [`Document::from_bytes`] on [`HtmlRecord::payload`] for more
    /// control (a memory limit, UTF-8 detection).
    pub fn decode_options(&self) -> DecodeOptions {
        match &self.charset {
            Some(label) => DecodeOptions::default().transport_charset(label.clone()),
            None => DecodeOptions::default(),
        }
    }

    /// The page decoded as a browser would
    /// ([encoding sniffing](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm) with the
    /// transport charset), ready to tokenize.
    pub fn document(&self) -> Result<Document<'_>, DecodeError> {
        Document::from_bytes(self.payload(), &self.decode_options())
    }

    /// Text, links and metadata of the page ([`crate::extract`]), links
    /// resolved against the target URI (which replaces any URL in
    /// `options`; one that does not parse leaves relative links as
    /// written).
    #[cfg(feature = "extract")]
    pub fn extract(
        &self,
        options: &crate::extract::ExtractOptions,
    ) -> Result<crate::extract::Extracted, DecodeError> {
        let document = self.document()?;
        let url = crate::url::Url::parse(&self.target_uri).ok();
        Ok(crate::extract::extract(
            document.text(),
            &options.clone().url(url),
        ))
    }
}

/// How many records of each sort an [`HtmlRecords`] has seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counts {
    /// Records read whole (errors not included).
    pub records: u64,
    /// HTML pages yielded.
    pub html: u64,
    /// `response` and `resource` records that are not HTML (by type or by
    /// sniffing).
    pub skipped_by_type: u64,
    /// `revisit` records.
    pub revisits: u64,
    /// `request` records.
    pub requests: u64,
    /// `warcinfo` records.
    pub warcinfo: u64,
    /// `metadata` records.
    pub metadata: u64,
    /// Records of any other type (`conversion`, `continuation`, unknown).
    pub other: u64,
    /// Errors yielded.
    pub errors: u64,
}

impl std::ops::AddAssign for Counts {
    /// Adds the counts of another archive.
    fn add_assign(&mut self, other: Counts) {
        self.records += other.records;
        self.html += other.html;
        self.skipped_by_type += other.skipped_by_type;
        self.revisits += other.revisits;
        self.requests += other.requests;
        self.warcinfo += other.warcinfo;
        self.metadata += other.metadata;
        self.other += other.other;
        self.errors += other.errors;
    }
}

/// The HTML pages of an archive, from [`Reader::html_records`]: an
/// iterator of `Result<HtmlRecord, WarcError>` that yields every HTML page
/// and every error, in archive order, and counts what it passes over
/// ([`HtmlRecords::counts`]).
pub struct HtmlRecords<R> {
    reader: Reader<R>,
    counts: Counts,
    warcinfo: Option<Record>,
}

impl<R: Read> Reader<R> {
    /// The HTML pages among the records (see [`HtmlRecords`]).
    pub fn html_records(self) -> HtmlRecords<R> {
        HtmlRecords {
            reader: self,
            counts: Counts::default(),
            warcinfo: None,
        }
    }
}

impl<R> HtmlRecords<R> {
    /// What has been seen so far; after the iterator ends, in the whole
    /// archive.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    /// The underlying reader.
    pub fn reader(&self) -> &Reader<R> {
        &self.reader
    }

    /// The archive's first `warcinfo` record, once the iterator has read
    /// it (it is usually the first record: by the first page, it is
    /// here). What it says about the archive (`isPartOf`, `operator`,
    /// ...) is what a derived file carries over ([`super::WetWriter`]).
    pub fn warcinfo(&self) -> Option<&Record> {
        self.warcinfo.as_ref()
    }
}

impl<R: Read> Iterator for HtmlRecords<R> {
    type Item = Result<HtmlRecord, WarcError>;

    fn next(&mut self) -> Option<Result<HtmlRecord, WarcError>> {
        loop {
            let record = match self.reader.next()? {
                Ok(record) => record,
                Err(error) => {
                    self.counts.errors += 1;
                    return Some(Err(error));
                }
            };
            self.counts.records += 1;
            let counter = match record.kind() {
                RecordKind::Response | RecordKind::Resource => {
                    let limit = self.reader.options().max_record_size;
                    match html_record(record, limit) {
                        Ok(Some(page)) => {
                            self.counts.html += 1;
                            return Some(Ok(page));
                        }
                        Ok(None) => &mut self.counts.skipped_by_type,
                        Err(error) => {
                            self.counts.errors += 1;
                            return Some(Err(error));
                        }
                    }
                }
                RecordKind::Revisit => &mut self.counts.revisits,
                RecordKind::Request => &mut self.counts.requests,
                RecordKind::Warcinfo => {
                    if self.warcinfo.is_none() {
                        self.warcinfo = Some(record);
                    }
                    &mut self.counts.warcinfo
                }
                RecordKind::Metadata => &mut self.counts.metadata,
                _ => &mut self.counts.other,
            };
            *counter += 1;
        }
    }
}

impl Record {
    /// The HTTP response in a `response` record's block: status line and
    /// headers ([`HttpResponse::decoded_body`] gives the body).
    pub fn http(&self) -> Result<HttpResponse, WarcError> {
        HttpResponse::parse(&self.block).map_err(|kind| self.error(kind))
    }

    fn error(&self, kind: WarcErrorKind) -> WarcError {
        WarcError {
            position: self.position,
            kind,
        }
    }
}

/// The page in a `response` or `resource` record, `None` when it is not
/// HTML.
fn html_record(record: Record, limit: u64) -> Result<Option<HtmlRecord>, WarcError> {
    let Some(target_uri) = record.target_uri().map(str::to_string) else {
        return Err(record.error(WarcErrorKind::MissingTargetUri));
    };
    let (status, content_type, data, start) = if record.kind == RecordKind::Response {
        let declared = record.content_type().map(essence);
        if declared.as_deref().is_some_and(|t| t != "application/http") {
            return Ok(None); // dns:, or another protocol
        }
        let http = record.http()?;
        let content_type = http.content_type().map(str::to_string);
        if !may_be_html(content_type.as_deref()) {
            return Ok(None);
        }
        let body = http
            .decoded_body(&record.block, limit)
            .map_err(|kind| record.error(kind))?;
        let (data, start) = match body {
            std::borrow::Cow::Borrowed(_) => (None, http.body_offset()),
            std::borrow::Cow::Owned(decoded) => (Some(decoded), 0),
        };
        (Some(http.status()), content_type, data, start)
    } else {
        let content_type = record.content_type().map(str::to_string);
        if !may_be_html(content_type.as_deref()) {
            return Ok(None);
        }
        (None, content_type, None, 0)
    };
    let record_id = record.record_id().map(str::to_string);
    let date = record.date().map(str::to_string);
    let truncated = record.header("WARC-Truncated").map(str::to_string);
    let language = record
        .header("WARC-Identified-Content-Language")
        .map(str::to_string);
    let kind = record.kind.clone();
    let data = data.unwrap_or(record.block);
    let start = start.min(data.len());
    let payload = &data[start..];
    let html = match content_type.as_deref() {
        Some(value) if !essence(value).is_empty() => true,
        _ => crate::mime::identify_unknown(payload, true) == "text/html",
    };
    if !html {
        return Ok(None);
    }
    Ok(Some(HtmlRecord {
        position: record.position,
        kind,
        target_uri,
        record_id,
        date,
        truncated,
        language,
        status,
        charset: content_type
            .as_deref()
            .and_then(charset)
            .map(str::to_string),
        content_type,
        data,
        start,
    }))
}

/// Whether a page with this `Content-Type` may be HTML: it says HTML, or
/// it says nothing (then the bytes decide).
fn may_be_html(content_type: Option<&str>) -> bool {
    match content_type.map(essence) {
        None => true,
        Some(t) => t.is_empty() || t == "text/html" || t == "application/xhtml+xml",
    }
}
