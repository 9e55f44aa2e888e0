//! What every result is labelled with ([`Label`]): the input's name, and
//! for the page of a WARC record, the record's target URI, id, date and
//! HTTP status ([`RecordInfo`]), as JSON fields or as plain text.

use std::fmt;
use std::io::{self, Write};

use htmltok::warc::HtmlRecord;
use serde_json::Value;

use crate::json;

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
    /// What the results of `record`'s page carry.
    pub fn of(record: &HtmlRecord) -> RecordInfo {
        RecordInfo {
            uri: record.target_uri().to_owned(),
            record_id: record.record_id().map(str::to_owned),
            date: record.date().map(str::to_owned),
            status: record.status(),
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

/// What a result is labelled with: the input's name (`"file"`), and for
/// the page of a WARC record, the record's target URI, id, date and HTTP
/// status.
#[derive(Clone, Copy, Debug)]
pub struct Label<'r> {
    /// The input's name: the path, `-`, or the archive's path.
    pub file: &'r str,
    /// The record, for the page of one.
    pub record: Option<&'r RecordInfo>,
}

impl Label<'_> {
    /// The label's JSON fields (see [`Label::write_json`]), for a command
    /// that starts many lines with them.
    pub fn json(&self) -> Vec<u8> {
        let mut json = Vec::new();
        self.write_json(&mut json)
            .expect("writing to a Vec does not fail");
        json
    }

    /// Writes the label's JSON fields, `"file":...` then, for a record,
    /// `"uri"`, `"record_id"`, `"date"` and `"status"` (no braces).
    pub fn write_json(&self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        out.write_all(b"\"file\":")?;
        json::write_str(out, self.file)?;
        if let Some(record) = self.record {
            for (name, value) in record.fields() {
                write!(out, ",\"{name}\":")?;
                serde_json::to_writer(&mut *out, &value)?;
            }
        }
        Ok(())
    }

    /// Writes one JSON object and a newline: the label's fields, then
    /// those of `rest`, an object.
    pub fn write_line(&self, out: &mut impl Write, rest: &Value) -> io::Result<()> {
        out.write_all(b"{")?;
        self.write_json(out)?;
        let rest = serde_json::to_vec(rest)?;
        match rest.strip_prefix(b"{") {
            Some(fields) if fields != b"}" => {
                out.write_all(b",")?;
                out.write_all(fields)?;
            }
            _ => out.write_all(b"}")?,
        }
        out.write_all(b"\n")
    }
}

/// The label in plain-text outputs: the input's name, and for a record,
/// its target URI after a space (`crawl.warc.gz https://example.com/`).
impl fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.file)?;
        if let Some(record) = self.record {
            write!(f, " {}", record.uri)?;
        }
        Ok(())
    }
}
