//! What can be wrong with an archive, and where.
//!
//! Every error names the record it is about by its number (1-based, in
//! archive order: the same numbers records carry, [`Position`]) and its offset, so that a report from a run over thousands of
//! archives leads back to the bytes: `record 7 (offset 52311): Content-Length
//! 90000 runs past the end of the archive (41223 bytes follow the header)`.
//! The offset is the record's in the archive file when it is known (a plain
//! archive, or a gzip member per record); in a file gzipped as one member
//! it is the offset in the inflated stream, and the message says so.
//!
//! Errors are plain data (messages, numbers; no `io::Error` inside) so that
//! they can be cloned, compared, and sent across threads or processes.

use std::fmt;

use super::record::Position;

/// An error reading an archive, about one record (or the bytes before
/// one): see [`WarcErrorKind`] for what, [`WarcError::position`] for
/// where.
///
/// ```
/// use htmltok::warc::Reader;
///
/// let archive = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 100\r\n\r\nshort";
/// let error = Reader::new(&archive[..]).next().unwrap().unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "record 1 (offset 0): Content-Length 100 runs past the end of the archive \
///      (5 bytes follow the header)",
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarcError {
    pub(crate) position: Position,
    pub(crate) kind: WarcErrorKind,
}

/// What went wrong ([`WarcError::kind`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarcErrorKind {
    /// The reader failed (an I/O error): reading stops.
    Io(String),
    /// Gzip data that does not inflate: a corrupt or truncated member, or
    /// bytes between members that are not gzip. Reading resumes at the
    /// next gzip member.
    Gzip(String),
    /// Bytes where a record should start that are not one (`WARC/1.`),
    /// skipped up to the next record.
    Garbage {
        /// How many bytes were skipped.
        bytes: u64,
    },
    /// A WARC header block that cannot be read: no blank line to end it,
    /// no valid `Content-Length`. The record is skipped.
    Header(String),
    /// The record's `Content-Length` runs past the end of the archive.
    Truncated {
        /// The `Content-Length`.
        content_length: u64,
        /// How many bytes there were after the header.
        available: u64,
    },
    /// The record's content does not end where its `Content-Length` says
    /// (no blank line and next record there): the length is wrong, and the
    /// reader looked for the next record from the start of the content.
    Length {
        /// The `Content-Length`.
        content_length: u64,
    },
    /// The record is larger than [`ReaderOptions::max_record_size`]
    /// (`limit`): it was skipped.
    ///
    /// [`ReaderOptions::max_record_size`]: super::ReaderOptions::max_record_size
    TooLarge {
        /// The `Content-Length`.
        content_length: u64,
        /// The limit.
        limit: u64,
    },
    /// A `response` or `resource` record without `WARC-Target-URI`.
    MissingTargetUri,
    /// A `response` record whose content should be HTTP (its
    /// `Content-Type` is `application/http`, or missing) but does not
    /// start with an HTTP status line.
    NotHttp,
    /// An HTTP response whose status line or header block cannot be read
    /// (a header block without its blank line, say).
    HttpHeader(String),
    /// An HTTP payload that cannot be decoded: a broken chunked transfer
    /// coding, corrupt gzip, deflate or brotli data, an unsupported
    /// `Content-Encoding`, or a decoded size past the record limit.
    HttpBody(String),
    /// An HTML page that could not be decoded to text (a memory limit,
    /// memory refused): reported by whoever decodes it
    /// ([`WetWriter::convert`](super::WetWriter::convert)), not by the
    /// reader.
    Decode(String),
}

impl WarcError {
    /// An error about the record at `position`, for a program that reports
    /// what it finds wrong with a record as the reader reports damage (a
    /// page that cannot be decoded: [`WarcErrorKind::Decode`]).
    pub fn new(position: Position, kind: WarcErrorKind) -> WarcError {
        WarcError { position, kind }
    }

    /// The record the error is about; for [`WarcErrorKind::Garbage`] and
    /// errors between records, the record that comes next (with the offset
    /// of the bytes in question).
    pub fn position(&self) -> Position {
        self.position
    }

    /// What went wrong.
    pub fn kind(&self) -> &WarcErrorKind {
        &self.kind
    }

    /// Whether reading cannot go on after this error (an I/O error).
    pub fn is_fatal(&self) -> bool {
        matches!(self.kind, WarcErrorKind::Io(_))
    }
}

impl fmt::Display for WarcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position, self.kind)
    }
}

impl fmt::Display for WarcErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarcErrorKind::Io(message)
            | WarcErrorKind::Gzip(message)
            | WarcErrorKind::Header(message) => f.write_str(message),
            WarcErrorKind::Garbage { bytes } => write!(
                f,
                "{bytes} bytes that are not a WARC record (no `WARC/1.` header), skipped"
            ),
            WarcErrorKind::Truncated {
                content_length,
                available,
            } => write!(
                f,
                "Content-Length {content_length} runs past the end of the archive \
                 ({available} bytes follow the header)"
            ),
            WarcErrorKind::Length { content_length } => write!(
                f,
                "the content does not end where Content-Length {content_length} says \
                 (no record end there); looked for the next record inside it"
            ),
            WarcErrorKind::TooLarge {
                content_length,
                limit,
            } => write!(
                f,
                "record of {content_length} bytes exceeds the record size limit of \
                 {limit} bytes, skipped"
            ),
            WarcErrorKind::MissingTargetUri => {
                f.write_str("no WARC-Target-URI in a response or resource record")
            }
            WarcErrorKind::NotHttp => f.write_str(
                "the response record's content is not an HTTP response (no status line)",
            ),
            WarcErrorKind::HttpHeader(message) => write!(f, "HTTP header: {message}"),
            WarcErrorKind::HttpBody(message) => write!(f, "HTTP payload: {message}"),
            WarcErrorKind::Decode(message) => write!(f, "decoding the page: {message}"),
        }
    }
}

impl std::error::Error for WarcError {}
