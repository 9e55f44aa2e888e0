//! What can go wrong writing a record: the output fails, or the record
//! would not be a valid one.

use std::fmt;
use std::io;

/// An error from [`Writer`](super::Writer): the output failed, or the
/// record given was refused before anything of it was written (a field
/// that would break the header, a field the writer sets itself, a
/// mandatory field missing).
///
/// ```
/// use htmltok::warc::{RecordKind, WriteError, Writer, WriterOptions};
///
/// let mut writer = Writer::new(Vec::new(), WriterOptions::default());
/// let error = writer
///     .write_record(
///         &RecordKind::Resource,
///         &[("WARC-Target-URI", "https://example.com/\r\nWARC-Type: evil")],
///         b"",
///     )
///     .unwrap_err();
/// assert!(matches!(error, WriteError::LineBreak { .. }));
/// assert_eq!(
///     error.to_string(),
///     "WARC header field WARC-Target-URI: its value holds a line break (CR or LF), \
///      which would end the field",
/// );
/// assert!(writer.into_inner().is_empty()); // nothing was written
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteError {
    /// Writing to the output failed. What was written of the record
    /// before the failure stays written.
    Io(io::Error),
    /// A field name that is empty or not an HTTP token (letters, digits
    /// and ``!#$%&'*+-.^_`|~``): it would not read back as the same field.
    InvalidName(String),
    /// A field value, or a `RecordKind::Other` type, holding a carriage
    /// return or a line feed, which would end the field and start another.
    LineBreak {
        /// The field's name.
        name: String,
    },
    /// A field the writer writes itself (`WARC-Type`, from the record's
    /// kind; `Content-Length`, from its block).
    Reserved(String),
    /// A field every record must have (WARC 1.1's mandatory
    /// [`WARC-Record-ID`](https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#warc-record-id-mandatory),
    /// [`WARC-Date`](https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#warc-date-mandatory)) missing from the fields given.
    Missing(&'static str),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Io(error) => write!(f, "writing the archive: {error}"),
            WriteError::InvalidName(name) => write!(
                f,
                "WARC header field name {name:?} is not a token (letters, digits and \
                 !#$%&'*+-.^_`|~, at least one)"
            ),
            WriteError::LineBreak { name } => write!(
                f,
                "WARC header field {name}: its value holds a line break (CR or LF), \
                 which would end the field"
            ),
            WriteError::Reserved(name) => write!(
                f,
                "WARC header field {name} is written by the writer itself \
                 (WARC-Type from the record's kind, Content-Length from its block)"
            ),
            WriteError::Missing(name) => {
                write!(f, "a WARC record needs a {name} field, and none was given")
            }
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io(error) => Some(error),
            _ => None,
        }
    }
}

impl From<io::Error> for WriteError {
    fn from(error: io::Error) -> WriteError {
        WriteError::Io(error)
    }
}

impl From<WriteError> for io::Error {
    /// An I/O error as it was; a refused record as
    /// [`io::ErrorKind::InvalidInput`].
    fn from(error: WriteError) -> io::Error {
        match error {
            WriteError::Io(error) => error,
            other => io::Error::new(io::ErrorKind::InvalidInput, other),
        }
    }
}
