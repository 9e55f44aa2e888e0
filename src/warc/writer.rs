//! Records out: a WARC file written a record at a time to any [`Write`],
//! plain or with a gzip member per record.
//!
//! A record is written as WARC 1.1's
//! [file and record model](https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#file-and-record-model) lays it out: the version line, the
//! header fields in the order given (`WARC-Type` first, from the record's
//! kind, and `Content-Length` last, from its block), a blank line, the
//! block, and two CRLFs. Fields are checked before a byte of the record
//! is written ([`WriteError`]): a line break in a value would end the
//! field and let the rest be read as other fields, so it is refused, and
//! so is a record without the fields every record must have. What is
//! written reads back, field for field and byte for byte, with
//! [`Reader`](super::Reader) (the `warc_writer` fuzz target holds it to
//! that).

use std::io::{self, Write};

use super::gzip_member::GzipMembers;
use super::record::RecordKind;
use super::record_id::RecordIds;
use super::write_error::WriteError;

/// The version a [`Writer`] writes: the version line (`WARC/1.0`,
/// `WARC/1.1`) and the form of dates ([`WarcDate::to_warc`]).
///
/// [`WarcDate::to_warc`]: super::WarcDate::to_warc
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Version {
    /// WARC 1.0 (ISO 28500:2009), as Common Crawl writes WET and WAT files.
    V1_0,
    /// WARC 1.1 (ISO 28500:2017).
    #[default]
    V1_1,
}

impl Version {
    /// The version line, without its CRLF: `"WARC/1.0"`, `"WARC/1.1"`.
    pub fn line(self) -> &'static str {
        match self {
            Version::V1_0 => "WARC/1.0",
            Version::V1_1 => "WARC/1.1",
        }
    }
}

/// How a [`Writer`] compresses the archive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Compression {
    /// A plain `.warc`.
    #[default]
    None,
    /// A `.warc.gz` of one gzip member per record, as Common Crawl writes
    /// them (each record can be read alone from its offset), deflated at
    /// `level` (0–9; 6 is zlib's default, which Common Crawl's tools use).
    GzipPerRecord {
        /// The deflate level, 0 (stored) to 9 (smallest).
        level: u32,
    },
}

impl Compression {
    /// A gzip member per record, at zlib's default level (6).
    pub fn gzip() -> Compression {
        Compression::GzipPerRecord { level: 6 }
    }
}

/// What a [`Writer`] writes: the version and the compression.
///
/// ```
/// use htmltok::warc::{Compression, Version, WriterOptions};
///
/// let options = WriterOptions::default()
///     .version(Version::V1_0)
///     .compression(Compression::gzip());
/// assert_eq!(options.version, Version::V1_0);
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct WriterOptions {
    /// The version line of every record (WARC 1.1 by default).
    pub version: Version,
    /// Plain (the default) or a gzip member per record.
    pub compression: Compression,
}

impl WriterOptions {
    /// Sets [`WriterOptions::version`].
    pub fn version(mut self, version: Version) -> WriterOptions {
        self.version = version;
        self
    }

    /// Sets [`WriterOptions::compression`].
    pub fn compression(mut self, compression: Compression) -> WriterOptions {
        self.compression = compression;
        self
    }
}

/// Writes WARC records to any [`Write`] (see the module docs).
///
/// The fields of a record are given in the order they are to be written,
/// all but `WARC-Type` (the record's kind, written first) and
/// `Content-Length` (the block's, written last); `WARC-Record-ID` and
/// `WARC-Date` must be among them ([`Writer::new_record_id`] and
/// [`WarcDate`](super::WarcDate) make them). Each write returns the
/// record's offset in the output, what an index (CDX) gives for it.
/// Output is written a record at a time, in one `write_all` per record
/// for gzip; give a plain writer a [`BufWriter`](std::io::BufWriter).
///
/// ```
/// use htmltok::warc::{
///     Compression, Reader, RecordKind, WarcDate, Writer, WriterOptions, sha1_digest,
/// };
///
/// let options = WriterOptions::default().compression(Compression::gzip());
/// let mut writer = Writer::new(Vec::new(), options);
/// let page = b"<p>Hello</p>";
/// let id = writer.new_record_id();
/// let date = WarcDate::parse("2024-05-01T12:00:00Z").unwrap().to_string();
/// let offset = writer.write_record(
///     &RecordKind::Resource,
///     &[
///         ("WARC-Target-URI", "https://example.com/"),
///         ("WARC-Date", &date),
///         ("WARC-Record-ID", &id),
///         ("WARC-Block-Digest", &sha1_digest(page)),
///         ("Content-Type", "text/html"),
///     ],
///     page,
/// )?;
/// assert_eq!(offset, 0);
/// let archive = writer.finish()?;
///
/// let record = Reader::new(&archive[..]).next().unwrap()?;
/// assert_eq!(record.record_id(), Some(id.as_str()));
/// assert_eq!(record.block(), page);
/// assert_eq!(record.position().offset(), Some(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Writer<W: Write> {
    out: W,
    version: Version,
    gzip: Option<GzipMembers>,
    ids: RecordIds,
    /// The header being written.
    header: Vec<u8>,
    /// Bytes written to `out`.
    offset: u64,
}

impl<W: Write> Writer<W> {
    /// A writer to `out`, with record ids from the system's random source.
    pub fn new(out: W, options: WriterOptions) -> Writer<W> {
        let gzip = match options.compression {
            Compression::None => None,
            Compression::GzipPerRecord { level } => Some(GzipMembers::new(level)),
        };
        Writer {
            out,
            version: options.version,
            gzip,
            ids: RecordIds::random(),
            header: Vec::with_capacity(512),
            offset: 0,
        }
    }

    /// The writer with its record ids from `ids` (say,
    /// [`RecordIds::seeded`] for reproducible output).
    pub fn with_record_ids(mut self, ids: RecordIds) -> Writer<W> {
        self.ids = ids;
        self
    }

    /// The version the records are written in.
    pub fn version(&self) -> Version {
        self.version
    }

    /// A new `WARC-Record-ID` value (`<urn:uuid:...>`).
    pub fn new_record_id(&mut self) -> String {
        self.ids.next_id()
    }

    /// How many bytes have been written to the output: the offset the
    /// next record will have.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Writes one record: its kind, its `fields` in order, its `block`
    /// (see [`Writer`]). Returns the record's offset in the output. A
    /// record refused ([`WriteError`] but `Io`) writes nothing.
    pub fn write_record(
        &mut self,
        kind: &RecordKind,
        fields: &[(&str, &str)],
        block: &[u8],
    ) -> Result<u64, WriteError> {
        if kind.as_str().trim_ascii().is_empty() {
            return Err(WriteError::Missing("WARC-Type"));
        }
        check_value("WARC-Type", kind.as_str())?;
        for (name, value) in fields {
            check_name(name)?;
            if ["WARC-Type", "Content-Length"]
                .iter()
                .any(|reserved| name.eq_ignore_ascii_case(reserved))
            {
                return Err(WriteError::Reserved((*name).to_string()));
            }
            check_value(name, value)?;
        }
        for mandatory in ["WARC-Record-ID", "WARC-Date"] {
            if !fields
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(mandatory))
            {
                return Err(WriteError::Missing(mandatory));
            }
        }

        let header = &mut self.header;
        header.clear();
        header.extend_from_slice(self.version.line().as_bytes());
        header.extend_from_slice(b"\r\n");
        push_field(header, "WARC-Type", kind.as_str());
        for (name, value) in fields {
            push_field(header, name, value);
        }
        push_field(header, "Content-Length", &block.len().to_string());
        header.extend_from_slice(b"\r\n");

        let at = self.offset;
        let parts: [&[u8]; 3] = [&self.header, block, b"\r\n\r\n"];
        self.offset += match &mut self.gzip {
            Some(gzip) => gzip.write(&parts, &mut self.out)?,
            None => {
                for part in parts {
                    self.out.write_all(part)?;
                }
                parts.iter().map(|p| p.len() as u64).sum()
            }
        };
        Ok(at)
    }

    /// The output.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The output, mutably (writing to it directly puts bytes between
    /// records that [`Writer::offset`] does not count).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Flushes the output and gives it back.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }

    /// The output, as it is (not flushed).
    pub fn into_inner(self) -> W {
        self.out
    }
}

fn push_field(header: &mut Vec<u8>, name: &str, value: &str) {
    header.extend_from_slice(name.as_bytes());
    header.extend_from_slice(b": ");
    header.extend_from_slice(value.as_bytes());
    header.extend_from_slice(b"\r\n");
}

/// A field name must be an HTTP token (RFC 9110's `tchar`s).
pub(crate) fn check_name(name: &str) -> Result<(), WriteError> {
    let tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if name.is_empty() || !name.bytes().all(tchar) {
        return Err(WriteError::InvalidName(name.to_string()));
    }
    Ok(())
}

pub(crate) fn check_value(name: &str, value: &str) -> Result<(), WriteError> {
    if value.bytes().any(|b| b == b'\r' || b == b'\n') {
        return Err(WriteError::LineBreak {
            name: name.to_string(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warc::{Reader, sha1_digest};

    const ID: &str = "<urn:uuid:00000000-0000-4000-8000-000000000001>";
    const DATE: &str = "2024-05-01T12:00:00Z";

    fn resource(writer: &mut Writer<Vec<u8>>, block: &[u8]) -> Result<u64, WriteError> {
        writer.write_record(
            &RecordKind::Resource,
            &[
                ("WARC-Target-URI", "https://example.com/"),
                ("WARC-Date", DATE),
                ("WARC-Record-ID", ID),
                ("Content-Type", "text/html"),
            ],
            block,
        )
    }

    #[test]
    fn a_record_byte_for_byte() {
        let mut writer = Writer::new(Vec::new(), WriterOptions::default());
        assert_eq!(resource(&mut writer, b"<p>Hi").unwrap(), 0);
        let want = "WARC/1.1\r\n\
                    WARC-Type: resource\r\n\
                    WARC-Target-URI: https://example.com/\r\n\
                    WARC-Date: 2024-05-01T12:00:00Z\r\n\
                    WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n\
                    Content-Type: text/html\r\n\
                    Content-Length: 5\r\n\
                    \r\n\
                    <p>Hi\r\n\r\n";
        assert_eq!(writer.offset(), want.len() as u64);
        assert_eq!(String::from_utf8(writer.finish().unwrap()).unwrap(), want);

        let mut writer = Writer::new(Vec::new(), WriterOptions::default().version(Version::V1_0));
        resource(&mut writer, b"").unwrap();
        let written = writer.into_inner();
        assert!(written.starts_with(b"WARC/1.0\r\nWARC-Type: resource\r\n"));
        assert!(written.ends_with(b"Content-Length: 0\r\n\r\n\r\n\r\n"));
    }

    #[test]
    fn records_read_back_with_their_offsets_plain_and_gzipped() {
        for compression in [Compression::None, Compression::gzip()] {
            let options = WriterOptions::default().compression(compression);
            let mut writer = Writer::new(Vec::new(), options).with_record_ids(RecordIds::seeded(1));
            let blocks: [&[u8]; 4] = [b"", b"WARC/1.1\r\n\r\n", &[0u8, 0x1f, 0x8b, b'\n'], b"x"];
            let mut offsets = Vec::new();
            let mut ids = Vec::new();
            for (i, block) in blocks.iter().enumerate() {
                let id = writer.new_record_id();
                let digest = sha1_digest(block);
                let uri = format!("https://example.com/{i}");
                let fields = [
                    ("WARC-Target-URI", uri.as_str()),
                    ("WARC-Date", DATE),
                    ("WARC-Record-ID", id.as_str()),
                    ("WARC-Block-Digest", digest.as_str()),
                    ("X-Note", "välue"),
                ];
                offsets.push(
                    writer
                        .write_record(&RecordKind::Metadata, &fields, block)
                        .unwrap(),
                );
                ids.push(id);
            }
            let archive = writer.finish().unwrap();
            let records: Vec<_> = Reader::new(&archive[..]).collect::<Result<_, _>>().unwrap();
            assert_eq!(records.len(), blocks.len());
            for (i, record) in records.iter().enumerate() {
                assert_eq!(record.kind(), &RecordKind::Metadata);
                assert_eq!(record.block(), blocks[i]);
                assert_eq!(record.record_id(), Some(ids[i].as_str()));
                assert_eq!(
                    record.header("WARC-Block-Digest"),
                    Some(&sha1_digest(blocks[i])[..])
                );
                assert_eq!(record.header("X-Note"), Some("välue"));
                assert_eq!(
                    record.position().offset(),
                    Some(offsets[i]),
                    "{compression:?}"
                );
                let names: Vec<&str> = record.headers().iter().map(|(n, _)| n.as_str()).collect();
                assert_eq!(
                    names,
                    [
                        "WARC-Type",
                        "WARC-Target-URI",
                        "WARC-Date",
                        "WARC-Record-ID",
                        "WARC-Block-Digest",
                        "X-Note",
                        "Content-Length"
                    ]
                );
            }
        }
    }

    #[test]
    fn refused_records_write_nothing() {
        let mut writer = Writer::new(Vec::new(), WriterOptions::default());
        type Case<'a> = (&'a RecordKind, &'a [(&'a str, &'a str)], &'a str);
        let cases: [Case<'_>; 8] = [
            (
                &RecordKind::Resource,
                &[("WARC-Date", DATE), ("WARC-Record-ID", "<a\nb>")],
                "LineBreak",
            ),
            (
                &RecordKind::Resource,
                &[("WARC-Date", "x\ry"), ("WARC-Record-ID", ID)],
                "LineBreak",
            ),
            (
                &RecordKind::Resource,
                &[
                    ("WARC-Date", DATE),
                    ("WARC-Record-ID", ID),
                    ("Bad Name", "v"),
                ],
                "InvalidName",
            ),
            (
                &RecordKind::Resource,
                &[("WARC-Date", DATE), ("WARC-Record-ID", ID), ("", "v")],
                "InvalidName",
            ),
            (
                &RecordKind::Resource,
                &[
                    ("WARC-Date", DATE),
                    ("WARC-Record-ID", ID),
                    ("content-length", "9"),
                ],
                "Reserved",
            ),
            (
                &RecordKind::Resource,
                &[
                    ("WARC-Date", DATE),
                    ("WARC-Record-ID", ID),
                    ("WARC-TYPE", "x"),
                ],
                "Reserved",
            ),
            (&RecordKind::Resource, &[("WARC-Record-ID", ID)], "Missing"),
            (
                &RecordKind::Other("a\r\nb".into()),
                &[("WARC-Date", DATE), ("WARC-Record-ID", ID)],
                "LineBreak",
            ),
        ];
        for (kind, fields, want) in cases {
            let error = writer.write_record(kind, fields, b"x").unwrap_err();
            assert!(
                format!("{error:?}").starts_with(want),
                "{fields:?}: {error:?}"
            );
        }
        let error = writer
            .write_record(&RecordKind::Other(String::new()), &[], b"")
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "a WARC record needs a WARC-Type field, and none was given"
        );
        assert_eq!(writer.offset(), 0);
        assert!(writer.into_inner().is_empty());
    }

    #[test]
    fn a_failing_output_is_an_io_error() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        for compression in [Compression::None, Compression::gzip()] {
            let options = WriterOptions::default().compression(compression);
            let mut writer = Writer::new(Full, options);
            let fields = [("WARC-Date", DATE), ("WARC-Record-ID", ID)];
            let error = writer
                .write_record(&RecordKind::Resource, &fields, b"x")
                .unwrap_err();
            assert!(matches!(&error, WriteError::Io(e) if e.kind() == io::ErrorKind::StorageFull));
            assert_eq!(error.to_string(), "writing the archive: disk full");
            assert_eq!(io::Error::from(error).kind(), io::ErrorKind::StorageFull);
        }
    }
}
