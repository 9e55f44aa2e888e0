//! Records out of the inflated stream: framing, size limits, and finding
//! the way again after damage.
//!
//! A record is found by its version line (`WARC/1.0`, `WARC/1.1`) at the
//! start of a line, its header block ends at the first blank line, and its
//! content is exactly `Content-Length` bytes, followed by two CRLFs. That
//! length is the only thing that says where a record ends, so it is
//! trusted only as far as it can be checked:
//!
//! - Content that runs past the end of the archive is an error, and the
//!   bytes it would have swallowed are searched for the next record (a
//!   length off by a few digits would otherwise eat every record after
//!   it).
//! - Content not followed by the record end (CRLF CRLF, or at least line
//!   ends and the next `WARC/`, or the end of the archive, which writers
//!   get wrong in harmless ways) means the length is wrong: an error, and
//!   the next record is looked for from the start of the content, which
//!   finds it whether the length was too short or too long.
//! - A record larger than [`ReaderOptions::max_record_size`] is skipped,
//!   read and thrown away in pieces, and reported: memory stays bounded by
//!   the limit plus the read buffers, however large a record says it is.
//!
//! Bytes where a record should start that are not one are skipped to the
//! next `WARC/1.` at the start of a line and reported once, with their
//! count; what is skipped while looking for a record after an error is
//! part of that error and not reported again. Every loop either consumes
//! bytes or ends, so no input can make the reader spin; and no input can
//! make it quadratic: a content block is checked where it lies in the read
//! buffer before it is taken (a wrong length costs no copy, and the search
//! for the next record starts inside it), and bytes searched for the blank
//! line that ends a header are not searched again for the next `WARC/1.`.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use memchr::memmem;

use super::error::{WarcError, WarcErrorKind};
use super::input::{Input, InputError};
use super::record::{Header, Position, Record, RecordKind, blank_line};

/// What a record starts with.
const RECORD_START: &[u8] = b"WARC/1.";

/// How much is read from the inflated stream at a time.
const READ_CHUNK: usize = 64 << 10;

/// The largest read buffer kept between records.
const KEPT_BUFFER: usize = 16 << 20;

/// Limits for a [`Reader`].
///
/// ```
/// use htmltok::warc::ReaderOptions;
/// let options = ReaderOptions::default().max_record_size(16 << 20);
/// assert_eq!(options.max_record_size, 16 << 20);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ReaderOptions {
    /// The largest content block a record may have, in bytes (64 MiB by
    /// default). A larger record is skipped and reported as
    /// [`WarcErrorKind::TooLarge`]; the HTTP payload decoded from a record
    /// (chunked, gzip, brotli) is held to the same limit.
    pub max_record_size: u64,
    /// The largest WARC header block, in bytes (1 MiB by default): one
    /// without its blank line by then is reported and skipped.
    pub max_header_size: usize,
}

/// What the bytes a reader skips to find the next record are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SkippedBytes {
    /// Garbage between records, reported as an error of its own when it
    /// is more than whitespace.
    Garbage,
    /// The rest of a record just reported as damaged: part of that error.
    OfTheLastError,
}
impl Default for ReaderOptions {
    fn default() -> ReaderOptions {
        ReaderOptions {
            max_record_size: 64 << 20,
            max_header_size: 1 << 20,
        }
    }
}

impl ReaderOptions {
    /// Sets [`ReaderOptions::max_record_size`].
    pub fn max_record_size(mut self, bytes: u64) -> ReaderOptions {
        self.max_record_size = bytes;
        self
    }

    /// Sets [`ReaderOptions::max_header_size`].
    pub fn max_header_size(mut self, bytes: usize) -> ReaderOptions {
        self.max_header_size = bytes;
        self
    }
}

/// Reads the records of a WARC archive from any [`Read`]: an iterator of
/// `Result<Record, WarcError>`, one item per record or per problem, in
/// archive order.
///
/// Plain and gzip archives (one member per record, or one for the whole
/// file) are told apart by their first bytes. Errors do not end the
/// iteration (but for an I/O error from the reader itself): the reader
/// finds the next record and goes on, so every record before and after a
/// damaged one is still yielded. [`Reader::html_records`] goes on to the
/// HTML pages among the records.
///
/// ```
/// use htmltok::warc::{Reader, RecordKind};
///
/// let archive = b"WARC/1.1\r\n\
///     WARC-Type: resource\r\n\
///     WARC-Record-ID: <urn:uuid:0b0f0a61-2d4c-4c9a-9a3e-6d1a4e1f5c01>\r\n\
///     WARC-Target-URI: https://example.com/\r\n\
///     Content-Type: text/html\r\n\
///     Content-Length: 13\r\n\
///     \r\n\
///     <p>Hello</p>\n\r\n\r\n";
/// let records: Vec<_> = Reader::new(&archive[..]).collect::<Result<_, _>>()?;
/// assert_eq!(records.len(), 1);
/// assert_eq!(records[0].kind(), &RecordKind::Resource);
/// assert_eq!(records[0].target_uri(), Some("https://example.com/"));
/// assert_eq!(records[0].block(), b"<p>Hello</p>\n");
/// assert_eq!(records[0].position().offset(), Some(0));
/// # Ok::<(), htmltok::warc::WarcError>(())
/// ```
pub struct Reader<R> {
    input: Option<Input<R>>,
    options: ReaderOptions,
    /// Inflated bytes read ahead: `buf[pos..end]` is not yet parsed.
    /// `buf[end..]` is room for the next read, zero-filled once when the
    /// buffer grew and reused since, so that reads do not zero it again.
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// The offset in the stream of `buf[pos]`.
    stream_pos: u64,
    /// Whether `buf[pos]` starts a line.
    at_line_start: bool,
    eof: bool,
    /// An error the input gave while the buffer was being filled, not yet
    /// reported.
    input_error: Option<InputError>,
    next_number: u64,
    /// An error to yield before anything else.
    pending: Option<WarcError>,
    /// What the bytes skipped before the next record are: after an error
    /// whose resynchronisation skips them, part of that error.
    skipped: SkippedBytes,
    /// The offset in the stream up to which there is no blank line after
    /// the last record start (so a long run of record starts without one
    /// is searched once, not once per start).
    blank_free_until: u64,
}

impl Reader<File> {
    /// Opens the archive at `path`.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Reader<File>> {
        Ok(Reader::new(File::open(path)?))
    }
}

impl<R: Read> Reader<R> {
    /// A reader with the default [`ReaderOptions`].
    pub fn new(read: R) -> Reader<R> {
        Reader::with_options(read, ReaderOptions::default())
    }

    /// A reader with `options`.
    pub fn with_options(read: R, options: ReaderOptions) -> Reader<R> {
        let (input, pending) = match Input::new(read) {
            Ok(input) => (Some(input), None),
            Err(e) => {
                let position = Position {
                    number: 1,
                    offset: Some(0),
                    stream_offset: 0,
                };
                (None, Some(input_error(e, position)))
            }
        };
        Reader {
            input,
            options,
            buf: Vec::new(),
            pos: 0,
            end: 0,
            stream_pos: 0,
            at_line_start: true,
            eof: false,
            input_error: None,
            next_number: 1,
            pending,
            skipped: SkippedBytes::Garbage,
            blank_free_until: 0,
        }
    }

    /// The options in force.
    pub fn options(&self) -> &ReaderOptions {
        &self.options
    }

    /// Whether the archive is gzip data (per record or as a whole).
    pub fn is_compressed(&self) -> bool {
        self.input.as_ref().is_some_and(Input::is_compressed)
    }

    /// Reads more of the stream into the buffer: false at the end, or when
    /// the input failed (then `input_error` holds why).
    fn fill(&mut self) -> bool {
        self.fill_toward(0)
    }

    /// [`Reader::fill`], toward `n` bytes buffered: it asks the input for
    /// what they lack in one read, so that a record's content is inflated
    /// in a few large calls rather than a chunk at a time, each call also
    /// copying the last 32 KiB it wrote into the inflater's window (over the
    /// corpus as an archive, 60 M instructions of the 1,134 M that reading
    /// it took).
    fn fill_toward(&mut self, n: usize) -> bool {
        if self.eof || self.input_error.is_some() {
            return false;
        }
        let Some(input) = self.input.as_mut() else {
            self.eof = true;
            return false;
        };
        if self.pos > 0 && self.pos >= self.end / 2 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
            // A very large record grew the buffer: give the memory back.
            // A buffer of a few megabytes is kept: it costs no more than
            // the record that grew it did, and the next page of that size
            // then finds it ready instead of zero-filling it again.
            if self.buf.len() > KEPT_BUFFER && self.end < 4 * READ_CHUNK {
                self.buf.truncate(8 * READ_CHUNK);
                self.buf.shrink_to_fit();
            }
        }
        // No more ahead than is buffered already, though: a record that
        // says it is large and is not costs a buffer twice the size of
        // what did come, not of what it says (zero-filled when grown).
        let buffered = self.end - self.pos;
        let ahead = n.saturating_sub(buffered).min(buffered).max(READ_CHUNK);
        let room = self.end + ahead;
        if self.buf.len() < room {
            self.buf.resize(room, 0);
        }
        match input.read(&mut self.buf[self.end..room]) {
            Ok(n) => {
                self.end += n;
                self.eof = n == 0;
                n > 0
            }
            Err(e) => {
                self.input_error = Some(e);
                false
            }
        }
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    fn consume(&mut self, n: usize) {
        if n > 0 {
            self.at_line_start = self.buf[self.pos + n - 1] == b'\n';
            self.pos += n;
            self.stream_pos += n as u64;
        }
    }

    /// Makes sure at least `n` bytes are buffered, unless the stream ends
    /// (or fails) first; returns how many are.
    fn want(&mut self, n: usize) -> usize {
        while self.available().len() < n && self.fill_toward(n) {}
        self.available().len()
    }

    fn file_offset(&mut self, stream_offset: u64) -> Option<u64> {
        self.input
            .as_mut()
            .and_then(|i| i.file_offset(stream_offset))
    }

    /// The position of record `number` at `stream_offset`.
    fn position(&mut self, number: u64, stream_offset: u64) -> Position {
        Position {
            number,
            offset: self.file_offset(stream_offset),
            stream_offset,
        }
    }

    /// Turns the input's pending error into a [`WarcError`] at
    /// `position`, and drops what is buffered: the stream goes on elsewhere
    /// (at the next gzip member), at the start of a line.
    fn take_input_error(&mut self, position: Position) -> Option<WarcError> {
        let error = self.input_error.take()?;
        if error.fatal {
            self.eof = true;
        }
        self.pos = 0;
        self.end = 0;
        self.stream_pos = self.input.as_ref().map_or(self.stream_pos, Input::produced);
        self.at_line_start = true;
        Some(input_error(error, position))
    }

    /// Skips to the start of the next record. `Ok(true)` when one is at
    /// `buf[pos]`, `Ok(false)` at the end of the stream.
    fn seek_record(&mut self) -> Result<bool, WarcError> {
        let start = self.stream_pos;
        let mut garbage = false;
        let found = loop {
            let available = self.available();
            let mut found = None;
            for p in memmem::find_iter(available, RECORD_START) {
                if (p == 0 && self.at_line_start) || (p > 0 && available[p - 1] == b'\n') {
                    found = Some(p);
                    break;
                }
            }
            // Keep a tail that may be the start of a `WARC/1.` cut by the
            // end of the buffer.
            let skip = found.unwrap_or(available.len().saturating_sub(RECORD_START.len() - 1));
            garbage |= available[..skip].iter().any(|b| !b.is_ascii_whitespace());
            self.consume(skip);
            if found.is_some() {
                break true;
            }
            if !self.fill() {
                let rest = self.available().len();
                garbage |= self.available().iter().any(|b| !b.is_ascii_whitespace());
                self.consume(rest);
                break false;
            }
        };
        let number = self.next_number;
        let skipped = std::mem::replace(&mut self.skipped, SkippedBytes::Garbage);
        // (Positions are asked for in stream order.)
        let garbage = (garbage && skipped == SkippedBytes::Garbage)
            .then(|| (self.position(number, start), self.stream_pos - start));
        // A failing input is reported here when no record was found before
        // it; otherwise by the record it cuts short. A damaged gzip member
        // here held a record (one member per record): it takes a number.
        let input = if found {
            None
        } else {
            let position = self.position(number, self.stream_pos);
            if self.input_error.as_ref().is_some_and(|e| e.member) {
                self.next_number += 1;
            }
            self.take_input_error(position)
        };
        if let Some((position, bytes)) = garbage {
            self.pending = input;
            let kind = WarcErrorKind::Garbage { bytes };
            return Err(WarcError { position, kind });
        }
        match input {
            Some(error) => Err(error),
            None => Ok(found),
        }
    }

    /// Reads the record at `buf[pos]`.
    fn read_record(&mut self) -> Result<Record, WarcError> {
        let number = self.next_number;
        self.next_number += 1;
        let start = self.stream_pos;
        let position = self.position(number, start);
        let fail = |kind| WarcError { position, kind };

        // The header block, to its blank line. Bytes already searched for
        // one (for a record start before this one) are not searched again.
        let mut searched = self.blank_free_until.saturating_sub(start) as usize;
        let (header_len, blank) = loop {
            let available = self.available();
            let from = searched.min(available.len()).saturating_sub(2);
            let found = blank_line(&available[from..]).map(|(at, len)| (from + at, len));
            searched = found.map_or(available.len(), |(at, _)| at);
            self.blank_free_until = self.blank_free_until.max(start + searched as u64);
            if searched > self.options.max_header_size {
                self.consume(1);
                self.skipped = SkippedBytes::OfTheLastError;
                return Err(fail(WarcErrorKind::Header(format!(
                    "no blank line ends the WARC header within {} bytes",
                    self.options.max_header_size
                ))));
            }
            if let Some(found) = found {
                break found;
            }
            if !self.fill() {
                if let Some(error) = self.take_input_error(position) {
                    return Err(error);
                }
                let rest = self.available().len();
                self.consume(rest);
                return Err(fail(WarcErrorKind::Header(
                    "the archive ends inside the WARC header (no blank line)".to_string(),
                )));
            }
        };
        let header = Header::parse(&self.available()[..header_len]);
        self.consume(header_len + blank);

        let length = match header.get("Content-Length") {
            None => Err("no Content-Length".to_string()),
            Some(value) => value
                .parse::<u64>()
                .map_err(|_| format!("invalid Content-Length {value:?}")),
        };
        let length = match length {
            Ok(length) => length,
            Err(message) => {
                self.skipped = SkippedBytes::OfTheLastError;
                return Err(fail(WarcErrorKind::Header(message)));
            }
        };

        if length > self.options.max_record_size {
            self.skip(length);
            if let Some(error) = self.take_input_error(position) {
                self.pending = Some(error);
            }
            self.skipped = SkippedBytes::OfTheLastError;
            return Err(fail(WarcErrorKind::TooLarge {
                content_length: length,
                limit: self.options.max_record_size,
            }));
        }

        // The content block, and the end of the record after it, checked
        // in the buffer before anything is taken: when they are wrong, the
        // content is searched for the next record where it lies, so that a
        // run of records with wrong lengths costs no copies.
        let length = length as usize;
        if self.want(length) < length {
            if let Some(error) = self.take_input_error(position) {
                return Err(error);
            }
            self.skipped = SkippedBytes::OfTheLastError;
            return Err(fail(WarcErrorKind::Truncated {
                content_length: length as u64,
                available: self.available().len() as u64,
            }));
        }
        let Some(end) = self.record_end(length) else {
            self.skipped = SkippedBytes::OfTheLastError;
            return Err(fail(WarcErrorKind::Length {
                content_length: length as u64,
            }));
        };
        let block = self.available()[..length].to_vec();
        self.consume(length + end);

        Ok(Record {
            position,
            version: header.version.clone(),
            kind: RecordKind::from_type(header.get("WARC-Type").unwrap_or_default()),
            fields: header.fields,
            block,
        })
    }

    /// The length of the record end at `at` bytes into the buffer: CRLF
    /// CRLF, or any run of line ends before the next `WARC/` or the end of
    /// the stream (which writers get wrong in harmless ways). `None` when
    /// something else is there.
    fn record_end(&mut self, at: usize) -> Option<usize> {
        if self.want(at + 4) >= at + 4 && self.available()[at..].starts_with(b"\r\n\r\n") {
            return Some(4);
        }
        let mut ends = 0;
        loop {
            let available = &self.available()[at..];
            ends += available[ends..]
                .iter()
                .take_while(|&&b| b == b'\r' || b == b'\n')
                .count();
            if ends < available.len() || ends > 64 || !self.fill() {
                break;
            }
        }
        let have = self.want(at + ends + 5) - at;
        // The end of the stream (or a failing input, reported on its own at
        // the next record) after line ends, or the next record.
        let fine = have == ends
            || (have < ends + 5 && self.input_error.is_some())
            || self.available()[at + ends..].starts_with(b"WARC/");
        fine.then_some(ends)
    }

    /// Reads and drops `length` bytes (or up to the end of the stream).
    fn skip(&mut self, length: u64) {
        let mut left = length;
        loop {
            let n = left.min(self.available().len() as u64) as usize;
            self.consume(n);
            left -= n as u64;
            if left == 0 || !self.fill() {
                break;
            }
        }
        if let Some(end) = self.record_end(0) {
            self.consume(end);
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, WarcError>;

    fn next(&mut self) -> Option<Result<Record, WarcError>> {
        if let Some(error) = self.pending.take() {
            return Some(Err(error));
        }
        match self.seek_record() {
            Err(error) => Some(Err(error)),
            Ok(false) => None,
            Ok(true) => Some(self.read_record()),
        }
    }
}

fn input_error(error: InputError, position: Position) -> WarcError {
    let kind = if error.fatal {
        WarcErrorKind::Io(error.message)
    } else {
        WarcErrorKind::Gzip(error.message)
    };
    WarcError { position, kind }
}
