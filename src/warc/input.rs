//! The archive's bytes as a WARC stream: gzip undone, whatever the layout.
//!
//! WARC files come in three shapes: plain (`.warc`); one gzip member per
//! record (`.warc.gz` as Common Crawl, Heritrix and warcio write them, so
//! that a record can be fetched on its own from an offset in an index); and
//! the whole file gzipped as one member (`gzip file.warc`). A gzip file is
//! a sequence of members, so the last two are the same thing to a reader
//! that goes on after each member's end, which is what this does: it
//! inflates one member at a time (flate2's `bufread::GzDecoder`, which
//! reads exactly the member and leaves the rest), and notes where each
//! member starts in the file and in the inflated stream. A record that
//! starts where a member starts thereby gets its offset *in the file* (the
//! offset a CDX index gives); any other record only its offset in the
//! inflated stream.
//!
//! A damaged member (corrupt deflate data, a bad checksum, a file cut in
//! the middle) is reported once, and reading resumes at the next gzip
//! header in the file (`1f 8b 08`), so that one bad record of a
//! Common-Crawl-style file costs that record only. Bytes between members
//! that are not gzip are skipped the same way, reported with their count.
//! The compression is chosen by the first bytes, never by the file name.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

/// The gzip magic number and the one compression method there is (deflate).
const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// How much [`Source`] reads from the file at a time: a Common Crawl
/// record's gzip member (tens of kilobytes) several times over, so that
/// one inflate call mostly sees a whole member.
const SOURCE_CHUNK: usize = 256 << 10;

/// How much of a gzip member [`Source`] keeps to go back to when the
/// member turns out damaged (a Common Crawl record is some kilobytes; a
/// file gzipped whole is not kept).
const MARK_LIMIT: usize = 8 << 20;

/// The caller's reader, buffered, counting the bytes consumed (the offset
/// in the file), and able to look a few bytes ahead across reads (which
/// `std::io::BufReader` cannot: its `fill_buf` returns what it holds).
pub(crate) struct Source<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// The file offset of `buf[start]`.
    offset: u64,
    eof: bool,
    /// Where the current gzip member starts in `buf`, while it is kept.
    mark: Option<usize>,
}

impl<R: Read> Source<R> {
    fn new(inner: R) -> Source<R> {
        Source {
            inner,
            buf: vec![0; SOURCE_CHUNK],
            start: 0,
            end: 0,
            offset: 0,
            eof: false,
            mark: None,
        }
    }

    /// Keeps the bytes from here on, up to [`MARK_LIMIT`], to come back to.
    fn set_mark(&mut self) {
        self.mark = Some(self.start);
    }

    /// Goes back to the byte after the mark, if it was kept: the first
    /// place a damaged member's successor can start.
    fn back_past_mark(&mut self) {
        if let Some(mark) = self.mark.take() {
            if mark < self.start {
                self.offset -= (self.start - mark - 1) as u64;
                self.start = mark + 1;
            }
        }
    }

    /// The buffered bytes, at least `n` unless the file ends first.
    fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        while self.end - self.start < n && !self.eof {
            if self.mark.is_some_and(|mark| self.end - mark > MARK_LIMIT) {
                self.mark = None;
            }
            let keep = self.mark.unwrap_or(self.start);
            if keep > 0 && self.buf.len() - self.end < SOURCE_CHUNK / 2 {
                self.buf.copy_within(keep..self.end, 0);
                self.end -= keep;
                self.start -= keep;
                self.mark = self.mark.map(|_| 0);
            }
            if self.buf.len() - self.end < SOURCE_CHUNK / 2 {
                self.buf.resize(self.end + SOURCE_CHUNK, 0);
            }
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(read) => self.end += read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(&self.buf[self.start..self.end])
    }

    /// Skips to the next gzip header, or to the end of the file; returns
    /// how many bytes were skipped.
    fn skip_to_gzip_header(&mut self) -> io::Result<u64> {
        let mut skipped = 0u64;
        loop {
            let window = self.peek(GZIP_MAGIC.len())?;
            if window.len() < GZIP_MAGIC.len() {
                let rest = window.len();
                self.consume(rest);
                return Ok(skipped + rest as u64);
            }
            if window.starts_with(&GZIP_MAGIC) {
                return Ok(skipped);
            }
            // Skip to the next 0x1f after the first byte, or to the end
            // of what is buffered.
            let step = memchr::memchr(GZIP_MAGIC[0], &window[1..]).map_or(window.len(), |i| i + 1);
            self.consume(step);
            skipped += step as u64;
        }
    }
}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Source<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end {
            self.peek(1)
        } else {
            Ok(&self.buf[self.start..self.end])
        }
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.end - self.start);
        self.start += n;
        self.offset += n as u64;
    }
}

/// Something wrong with the archive's bytes below the WARC format: a read
/// error, or gzip data that does not inflate.
#[derive(Debug)]
pub(crate) struct InputError {
    pub(crate) message: String,
    /// Whether reading has stopped for good (a read error).
    pub(crate) fatal: bool,
    /// Whether what failed is a gzip member (which held a record, or the
    /// start of one), rather than bytes between members.
    pub(crate) member: bool,
}

enum State<R> {
    Plain(Source<R>),
    /// Between two gzip members (or before the first).
    Gzip(Source<R>),
    Member(Box<GzDecoder<Source<R>>>),
    Done,
}

/// The inflated WARC stream of an archive, read with [`Input::read`].
pub(crate) struct Input<R> {
    state: State<R>,
    /// Bytes handed out so far: the offset in the stream of the next one.
    produced: u64,
    /// Where recent gzip members start: (offset in the stream, in the
    /// file). Pruned as records are found, so it holds only the members
    /// read ahead of the record parser.
    members: VecDeque<(u64, u64)>,
    compressed: bool,
}

impl<R: Read> Input<R> {
    /// Looks at the first bytes to choose plain or gzip.
    pub(crate) fn new(inner: R) -> Result<Input<R>, InputError> {
        let mut source = Source::new(inner);
        let compressed = match source.peek(2) {
            Ok(head) => head.starts_with(&GZIP_MAGIC[..2]),
            Err(e) => return Err(read_error(&e)),
        };
        let state = if compressed {
            State::Gzip(source)
        } else {
            State::Plain(source)
        };
        Ok(Input {
            state,
            produced: 0,
            members: VecDeque::new(),
            compressed,
        })
    }

    /// Whether the archive is gzip data.
    pub(crate) fn is_compressed(&self) -> bool {
        self.compressed
    }

    /// The offset in the stream of the next byte [`Input::read`] gives.
    pub(crate) fn produced(&self) -> u64 {
        self.produced
    }

    /// The offset in the file of the byte at `stream_offset` when it is
    /// known: always for a plain archive, for gzip when a member starts
    /// there. Calls must come in increasing order of `stream_offset`.
    pub(crate) fn file_offset(&mut self, stream_offset: u64) -> Option<u64> {
        if !self.compressed {
            return Some(stream_offset);
        }
        while self
            .members
            .front()
            .is_some_and(|&(s, _)| s < stream_offset)
        {
            self.members.pop_front();
        }
        match self.members.front() {
            Some(&(s, file)) if s == stream_offset => Some(file),
            _ => None,
        }
    }

    /// Reads inflated bytes into `out`: `Ok(0)` at the end. After an
    /// error that is not fatal, the next call goes on with the next gzip
    /// member: the bytes of the stream are then no longer contiguous.
    pub(crate) fn read(&mut self, out: &mut [u8]) -> Result<usize, InputError> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            match std::mem::replace(&mut self.state, State::Done) {
                State::Done => return Ok(0),
                State::Plain(mut source) => match source.read(out) {
                    Ok(n) => {
                        self.produced += n as u64;
                        if n > 0 {
                            self.state = State::Plain(source);
                        }
                        return Ok(n);
                    }
                    Err(e) => return Err(read_error(&e)),
                },
                State::Gzip(mut source) => {
                    let end = source.offset;
                    let skipped = match source.skip_to_gzip_header() {
                        Ok(skipped) => skipped,
                        Err(e) => return Err(read_error(&e)),
                    };
                    if source.start < source.end {
                        self.note_member(source.offset);
                        source.set_mark();
                        self.state = State::Member(Box::new(GzDecoder::new(source)));
                    }
                    if skipped > 0 {
                        return Err(InputError {
                            message: format!(
                                "{skipped} bytes that are not gzip data after the gzip data \
                                 ending at offset {end}, skipped"
                            ),
                            fatal: false,
                            member: false,
                        });
                    }
                }
                State::Member(mut member) => match member.read(out) {
                    Ok(0) => {
                        let mut source = member.into_inner();
                        source.mark = None;
                        self.state = State::Gzip(source);
                    }
                    Ok(n) => {
                        self.produced += n as u64;
                        self.state = State::Member(member);
                        return Ok(n);
                    }
                    Err(e) => return Err(self.member_failed(member.into_inner(), &e)),
                },
            }
        }
    }

    /// Notes a member starting at `file` in the file, where the stream is
    /// now. An empty member before it started at the same place in the
    /// stream, and is forgotten.
    fn note_member(&mut self, file: u64) {
        if self
            .members
            .back()
            .is_some_and(|&(s, _)| s == self.produced)
        {
            self.members.pop_back();
        }
        self.members.push_back((self.produced, file));
    }

    /// Reports a member that does not inflate, and moves past its start so
    /// that the next read looks for the next member.
    fn member_failed(&mut self, mut source: Source<R>, e: &io::Error) -> InputError {
        let start = self.members.back().map_or(0, |&(_, file)| file);
        source.back_past_mark();
        let message = if e.kind() == io::ErrorKind::UnexpectedEof {
            format!(
                "truncated gzip member (starting at offset {start}): the archive ends inside it"
            )
        } else {
            format!("corrupt gzip member (starting at offset {start}): {e}")
        };
        // The decoder consumed the header at least; make sure of progress.
        if source.offset <= start {
            source.consume(1);
        }
        self.state = State::Gzip(source);
        // What the next member's search skips is part of this error.
        if let State::Gzip(source) = &mut self.state {
            if source.skip_to_gzip_header().is_err() {
                self.state = State::Done;
            }
        }
        InputError {
            message,
            fatal: false,
            member: true,
        }
    }
}

fn read_error(e: &io::Error) -> InputError {
    InputError {
        message: format!("read error: {e}"),
        fatal: true,
        member: false,
    }
}
