//! One WARC record: its header fields and its content block.
//!
//! A record is a version line (`WARC/1.0`, `WARC/1.1`), named fields in
//! the form of HTTP headers, a blank line, then `Content-Length` bytes of
//! content (the *block*) and two CRLFs (WARC 1.1's
//! [file and record model](https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#file-and-record-model),
//! [named fields](https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#named-fields) and
//! [record types](https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#warc-record-types)). The fields are
//! kept as they are written, in order, with names compared without regard
//! to case as the format says; values are text (WARC 1.1 allows UTF-8,
//! anything else is read lossily). The block is kept whole, within the
//! reader's size limit, so that whoever takes a record owns it and can
//! send it to another thread.

use std::fmt;

/// The type of a record, from its `WARC-Type` field (WARC 1.1's
/// [record types](https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#warc-record-types)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RecordKind {
    /// `warcinfo`: about the archive itself.
    Warcinfo,
    /// `response`: a complete response from a server (for HTTP, the status
    /// line, headers and payload as sent).
    Response,
    /// `resource`: a resource without the protocol's envelope (its own
    /// `Content-Type` says what it is).
    Resource,
    /// `request`: what the crawler sent.
    Request,
    /// `metadata`: about another record.
    Metadata,
    /// `revisit`: the same content as an earlier record (by digest or by
    /// a server's "not modified"), usually without its payload.
    Revisit,
    /// `conversion`: another record's content converted to another format.
    Conversion,
    /// `continuation`: the rest of a segmented record.
    Continuation,
    /// Any other `WARC-Type`, as written (empty when the field is missing).
    Other(String),
}

impl RecordKind {
    /// The kind for a `WARC-Type` value (case-insensitive).
    pub fn from_type(value: &str) -> RecordKind {
        let value = value.trim();
        const KINDS: [(&str, RecordKind); 8] = [
            ("warcinfo", RecordKind::Warcinfo),
            ("response", RecordKind::Response),
            ("resource", RecordKind::Resource),
            ("request", RecordKind::Request),
            ("metadata", RecordKind::Metadata),
            ("revisit", RecordKind::Revisit),
            ("conversion", RecordKind::Conversion),
            ("continuation", RecordKind::Continuation),
        ];
        KINDS
            .into_iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(value))
            .map_or_else(|| RecordKind::Other(value.to_string()), |(_, kind)| kind)
    }

    /// The `WARC-Type` value: `"response"`, `"revisit"`, ...
    pub fn as_str(&self) -> &str {
        match self {
            RecordKind::Warcinfo => "warcinfo",
            RecordKind::Response => "response",
            RecordKind::Resource => "resource",
            RecordKind::Request => "request",
            RecordKind::Metadata => "metadata",
            RecordKind::Revisit => "revisit",
            RecordKind::Conversion => "conversion",
            RecordKind::Continuation => "continuation",
            RecordKind::Other(value) => value,
        }
    }
}

impl fmt::Display for RecordKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a record is in an archive: its number and its offsets. Records
/// ([`Record::position`]), pages ([`HtmlRecord::position`]) and errors
/// ([`WarcError::position`]) carry one; it prints as errors begin:
/// `record 7 (offset 52311)`.
///
/// [`HtmlRecord::position`]: super::HtmlRecord::position
/// [`WarcError::position`]: super::WarcError::position
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) number: u64,
    pub(crate) offset: Option<u64>,
    pub(crate) stream_offset: u64,
}

impl Position {
    /// The record's number, 1-based, in archive order (every `WARC/1.`
    /// header found counts, whether the record could be read or not, and
    /// so does a damaged gzip member where a record would start).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The record's offset in the archive file, when known: always for an
    /// uncompressed archive, and for a gzip archive when the record starts
    /// a gzip member (one member per record, as Common Crawl writes them:
    /// the offset an index gives for the record).
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// The record's offset in the archive's inflated WARC stream (the
    /// file offset for an uncompressed archive).
    pub fn stream_offset(&self) -> u64 {
        self.stream_offset
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(offset) => write!(f, "record {} (offset {offset})", self.number),
            None => write!(
                f,
                "record {} (offset {} in the inflated stream)",
                self.number, self.stream_offset
            ),
        }
    }
}

/// A WARC record, as [`Reader`](super::Reader) yields it: where it is, its
/// header fields, and its content block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub(crate) position: Position,
    pub(crate) version: String,
    pub(crate) kind: RecordKind,
    pub(crate) fields: Vec<(String, String)>,
    pub(crate) block: Vec<u8>,
}

impl Record {
    /// Where the record is: its number and offsets.
    pub fn position(&self) -> Position {
        self.position
    }

    /// The version line's version: `"1.0"`, `"1.1"`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The record's type (`WARC-Type`).
    pub fn kind(&self) -> &RecordKind {
        &self.kind
    }

    /// The first field named `name` (case-insensitive), trimmed.
    pub fn header(&self, name: &str) -> Option<&str> {
        field(&self.fields, name)
    }

    /// Every header field, in order, as written (values trimmed).
    pub fn headers(&self) -> &[(String, String)] {
        &self.fields
    }

    /// `WARC-Target-URI`, without the `<` `>` that WARC 1.0 examples put
    /// around it (and some writers copied).
    pub fn target_uri(&self) -> Option<&str> {
        self.header("WARC-Target-URI").map(strip_angle_brackets)
    }

    /// `WARC-Record-ID` as written (`<urn:uuid:...>`).
    pub fn record_id(&self) -> Option<&str> {
        self.header("WARC-Record-ID")
    }

    /// `WARC-Date` as written (`2024-05-01T12:00:00Z`).
    pub fn date(&self) -> Option<&str> {
        self.header("WARC-Date")
    }

    /// The record's own `Content-Type` (of the block: `application/http;
    /// msgtype=response` for an HTTP response record).
    pub fn content_type(&self) -> Option<&str> {
        self.header("Content-Type")
    }

    /// The content block: for a `response` record, the HTTP response as
    /// sent; for a `resource` record, the resource.
    pub fn block(&self) -> &[u8] {
        &self.block
    }

    /// The content block, taken out of the record.
    pub fn into_block(self) -> Vec<u8> {
        self.block
    }
}

fn strip_angle_brackets(value: &str) -> &str {
    value
        .strip_prefix('<')
        .and_then(|v| v.strip_suffix('>'))
        .unwrap_or(value)
}

/// A parsed WARC header block: the version and the fields.
pub(crate) struct Header {
    pub(crate) version: String,
    pub(crate) fields: Vec<(String, String)>,
}

impl Header {
    /// Parses a header block (version line to the blank line, excluded).
    pub(crate) fn parse(block: &[u8]) -> Header {
        let line_end = memchr::memchr(b'\n', block).unwrap_or(block.len());
        let version = String::from_utf8_lossy(trim(&block[..line_end]))
            .trim_start_matches("WARC/")
            .to_string();
        let fields = parse_fields(block.get(line_end + 1..).unwrap_or_default());
        Header { version, fields }
    }

    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        field(&self.fields, name)
    }
}

/// Header fields in the form HTTP and WARC share (`Name: value` lines, a
/// line starting with a space or tab continuing the value before it),
/// names and values trimmed. Lines that are not fields are ignored.
pub(crate) fn parse_fields(lines: &[u8]) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = Vec::new();
    for line in lines.split(|&b| b == b'\n') {
        if line.first().is_some_and(|&b| b == b' ' || b == b'\t') {
            if let Some((_, value)) = fields.last_mut() {
                value.push(' ');
                value.push_str(&String::from_utf8_lossy(trim(line)));
            }
            continue;
        }
        let Some(colon) = memchr::memchr(b':', line) else {
            continue;
        };
        let name = trim(&line[..colon]);
        if !name.is_empty() {
            fields.push((
                String::from_utf8_lossy(name).into_owned(),
                String::from_utf8_lossy(trim(&line[colon + 1..])).into_owned(),
            ));
        }
    }
    fields
}

/// The first field named `name` (case-insensitive).
pub(crate) fn field<'f>(fields: &'f [(String, String)], name: &str) -> Option<&'f str> {
    fields
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Where the first blank line (after a line end) is: (its offset, its
/// length: 1 for LF, 2 for CRLF), so that the header before it is
/// `bytes[..offset]`. One pass, stopping at the first.
pub(crate) fn blank_line(bytes: &[u8]) -> Option<(usize, usize)> {
    memchr::memchr_iter(b'\n', bytes).find_map(|i| match bytes.get(i + 1..) {
        Some([b'\n', ..]) => Some((i + 1, 1)),
        Some([b'\r', b'\n', ..]) => Some((i + 1, 2)),
        _ => None,
    })
}

/// `bytes` without ASCII whitespace at either end.
pub(crate) fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else { return &[] };
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .unwrap_or(start);
    &bytes[start..=end]
}
