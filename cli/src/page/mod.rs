//! One input as a command sees it ([`Page`]): read a chunk at a time,
//! decoded, tokenized, and handed to the command as [`Event`]s, in memory
//! bounded whatever the input's size.
//!
//! Every input goes through the library's streaming tokenizer, fed
//! `--chunk-size` bytes at a time (1 MiB by default). An input no longer
//! than one chunk is therefore tokenized whole, in one buffer, as
//! `Tokenizer` would; a longer one in chunks, with the arena reset after
//! each, so that what is held is the chunk, the tokens of one chunk and the
//! construct a chunk boundary cut (under `--memory-limit`). The output does
//! not depend on the chunk size: the stream gives the whole input's tokens
//! for any split, and [`Event`] puts back together the one thing it splits,
//! a text run (handed out in pieces, so that a page that is one long text
//! holds no more than a chunk of it).
//!
//! The files, by job:
//! - `reading.rs`: how a command reads inputs ([`Reading`]), and how bytes
//!   become text ([`Decoding`]);
//! - `chunks.rs`: the input's bytes a chunk at a time, its head first;
//! - `stream.rs`: the library's stream they are fed to, and its share of
//!   the memory limit;
//! - `sink.rs`: what the command is handed ([`Event`], [`Context`]) and
//!   how ([`Sink`]);
//! - `utf8_check.rs`: UTF-8 detection over an input longer than a chunk;
//! - this file: the driver, [`Page::tokenize`], which puts them together.

mod chunks;
mod reading;
mod sink;
mod stream;
mod utf8_check;

use std::io;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use htmltok::encoding_rs::{Encoding, UTF_8};
use htmltok::{
    Confidence, DecodeOptions, EncodingSource, EncodingWatcher, MemoryLimitError, Options,
    SniffingStream, StreamError, StreamOptions, StreamTokenizer,
};

use crate::input::{self, Failure, Reader};
use crate::label::{Label, RecordInfo};
use crate::lines::Lines;

use self::chunks::{Chunks, read_some};
pub use self::reading::{BinaryInputs, Decoding, Reading};
use self::sink::Runs;
pub use self::sink::{Context, EachToken, Event, RunPiece, Sink, TextDelivery};
use self::stream::{ARENA, HELD_COPIES, Stream, limit_failure, stream_failure};
use self::utf8_check::Utf8Check;

/// What a command asks of one tokenizing run.
#[derive(Clone, Debug, Default)]
pub struct Tokenizing<'s> {
    /// The tokenizer options (parse errors, auto-switching, state).
    pub options: Options,
    /// The tag name an appropriate end tag needs at the start.
    pub last_start_tag: Option<&'s str>,
    /// Where each parse error is said to be.
    pub error_positions: ErrorPositions,
}

/// Where a parse error is said to be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ErrorPositions {
    /// Its offset in the input only.
    #[default]
    Offsets,
    /// Its offset, line and column (the page's lines are followed).
    LinesAndColumns,
}

/// What a tokenizing run measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcome {
    /// Bytes of decoded text.
    pub bytes: usize,
    /// Time spent decoding and tokenizing (and in the sink), reading not
    /// included.
    pub time: Duration,
    /// The encoding the text was decoded from, and how sure that is (none
    /// for UTF-8 read as it is).
    pub encoding: Option<(&'static Encoding, Confidence)>,
}

/// Opens an input again from its start.
pub type Reopen = Box<dyn Fn() -> Result<Reader, Failure> + Send + Sync>;

/// One input, opened, as a command processes it (see the module docs).
pub struct Page<'r> {
    /// Its name as shown: the path, or `-` for stdin (for a record, the
    /// archive's).
    pub name: &'r str,
    /// The WARC record it is the page of, when it comes from an archive.
    pub record: Option<&'r RecordInfo>,
    reading: &'r Reading,
    chunks: Chunks<'r>,
    /// How to read it again from the start, if it can be (not stdin).
    reopen: Option<Reopen>,
    /// Why it could not be processed to its end, if it could not.
    failure: Option<String>,
}

impl<'r> Page<'r> {
    /// An input read from `reader` (reading its first chunk now); `reopen`
    /// reads it again from its start, when that can be done.
    pub fn open(
        name: &'r str,
        reader: Reader,
        reopen: Option<Reopen>,
        reading: &'r Reading,
    ) -> Result<Page<'r>, String> {
        let chunks =
            Chunks::new(reader, reading.chunk_size.max(1)).map_err(|e| input::io_message(&e))?;
        Ok(Page::with(name, chunks, reopen, reading))
    }

    /// An input that is `bytes`, already in memory (a record's page): it is
    /// tokenized from where it lies, not copied into chunks.
    pub fn in_memory(name: &'r str, bytes: &'r [u8], reading: &'r Reading) -> Page<'r> {
        let chunks = Chunks::in_memory(bytes, reading.chunk_size.max(1));
        Page::with(name, chunks, None, reading)
    }

    fn with(
        name: &'r str,
        chunks: Chunks<'r>,
        reopen: Option<Reopen>,
        reading: &'r Reading,
    ) -> Page<'r> {
        Page {
            name,
            record: None,
            reading,
            chunks,
            reopen,
            failure: None,
        }
    }

    /// What its results are labelled with: its name, and its record.
    pub fn label(&self) -> Label<'r> {
        Label {
            file: self.name,
            record: self.record,
        }
    }

    /// The input's first bytes (at least the 1445 of the MIME Sniffing
    /// Standard's resource header, or a chunk if that is more), as read.
    pub fn head(&self) -> &[u8] {
        self.chunks.head()
    }

    /// About how many bytes the input has, before it is tokenized: all of
    /// it when it is held (it fits a chunk, or is in memory), else the size
    /// of the file it names, if it names one (gzipped: before gunzipping).
    /// A hint for reserving room, not a bound.
    pub fn size_hint(&self) -> Option<usize> {
        match self.chunks.all() {
            Some(all) => Some(all.len()),
            None if self.reopen.is_some() => std::fs::metadata(self.name)
                .ok()
                .and_then(|m| usize::try_from(m.len()).ok()),
            None => None,
        }
    }

    /// Why the input could not be processed to its end (a read error, a
    /// memory limit), once a run has ended.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    fn fail(&mut self, what: String) {
        self.failure.get_or_insert(what);
    }

    /// Says that the input was processed only up to where `error`
    /// stopped the command's extractor ([`Reading::held_limit`]): its
    /// output is kept, and the failure reported after it, as a stream's
    /// memory limit is.
    pub fn fail_at_limit(&mut self, error: &MemoryLimitError) {
        self.fail(limit_failure(error, self.reading.memory_limit));
    }

    /// Tokenizes the input, handing every token, text piece and parse error
    /// to `sink` in order. Returns what was measured, or the first error
    /// `sink` returned. An input that cannot be read or tokenized to its end
    /// ends early (as if it ended there) and says why in
    /// [`failure`](Self::failure). Call it once.
    pub fn tokenize<S: Sink + ?Sized>(
        &mut self,
        tokenizing: &Tokenizing<'_>,
        sink: &mut S,
    ) -> io::Result<Outcome> {
        let limit = self.reading.memory_limit / HELD_COPIES;
        let stream_options = StreamOptions::default()
            .tokenizer(tokenizing.options.clone().memory_limit(Some(limit)))
            .coalesce_text(false)
            .memory_limit(Some(limit));
        let mut stream = match &self.reading.decoding {
            Decoding::Utf8 => Stream::Raw(StreamTokenizer::new(stream_options)),
            Decoding::Sniff(options) | Decoding::Browser(options) => {
                match self.stream_decode_options(options) {
                    Ok(options) => Stream::Sniffing(SniffingStream::new(stream_options, options)),
                    Err(what) => {
                        // Nothing is tokenized: what the input is decoded
                        // from could not be decided.
                        self.fail(what);
                        return Ok(Outcome::default());
                    }
                }
            }
        };
        stream
            .tokenizer_mut()
            .set_last_start_tag(tokenizing.last_start_tag);
        let mut lines =
            (tokenizing.error_positions == ErrorPositions::LinesAndColumns).then(Lines::default);
        let mut runs = Runs::default();
        let mut outcome = Outcome::default();
        ARENA.with_borrow_mut(|arena| -> io::Result<()> {
            loop {
                let (chunk, last) = self.chunks.take();
                let started = Instant::now();
                let result = (|| -> io::Result<Option<StreamError>> {
                    let mut feed = match stream.feed(chunk, arena, last) {
                        Ok(feed) => feed,
                        Err(e) => return Ok(Some(e)),
                    };
                    if let Some(lines) = &mut lines {
                        lines.push(feed.decoded());
                    }
                    outcome.bytes += feed.decoded().len();
                    // Pushed: each token goes to the sink from inside the
                    // tokenizer's loop, with the source of its buffer.
                    loop {
                        // `Break(None)`: the sink paused the loop.
                        let pushed = feed.try_for_each_token_in(|token, source| {
                            let context = Context::of(source);
                            if S::TEXT == TextDelivery::Runs {
                                match runs.token(&token, &context, sink) {
                                    Ok(()) => ControlFlow::Continue(()),
                                    Err(e) => ControlFlow::Break(Some(e)),
                                }
                            } else {
                                match sink.token(&token, &context) {
                                    ControlFlow::Continue(()) => ControlFlow::Continue(()),
                                    ControlFlow::Break(()) => ControlFlow::Break(None),
                                }
                            }
                        });
                        match pushed {
                            ControlFlow::Break(Some(e)) => return Err(e),
                            ControlFlow::Break(None) => sink.resume()?,
                            ControlFlow::Continue(()) => break,
                        }
                    }
                    sink.chunk_done()?;
                    Ok(None)
                })();
                arena.reset();
                let stopped = result?.or_else(|| stream.tokenizer().error().cloned());
                for error in stream.tokenizer_mut().take_errors() {
                    let at = lines.as_mut().map(|l| l.line_col(error.offset));
                    sink.event(Event::Error(&error, at), &Context::none())?;
                }
                if let Some(lines) = &mut lines {
                    lines.forget_before(stream.tokenizer().resume_offset());
                }
                outcome.time += started.elapsed();
                if let Some(e) = stopped {
                    self.fail(stream_failure(&e, self.reading.memory_limit));
                    break;
                }
                if last {
                    break;
                }
            }
            Ok(())
        })?;
        runs.end(stream.tokenizer().text_end_at_eof(), sink)?;
        if let Some(e) = self.chunks.take_error() {
            self.fail(input::io_message(&e));
        }
        outcome.encoding = stream.encoding();
        Ok(outcome)
    }

    /// The encoding a browser would decode the input with
    /// ([`Decoding::Browser`]): sniffed from its start, then confirmed or
    /// changed by the first `<meta>` that declares one while it is
    /// tokenized (reading only as far as that `<meta>`).
    pub fn browser_encoding(&mut self) -> (&'static Encoding, Confidence) {
        let Decoding::Browser(options) = &self.reading.decoding else {
            unreachable!("browser_encoding is for Decoding::Browser");
        };
        let sniffed = htmltok::encoding::sniff(self.head(), options);
        if sniffed.confidence == Confidence::Certain {
            return (sniffed.encoding, sniffed.confidence);
        }
        let mut watcher = EncodingWatcher::new(sniffed.encoding, sniffed.confidence);
        let mut sink = |event: Event<'_, '_>, _: &Context<'_, '_>| {
            if let Event::Token(token) = event {
                watcher.observe(token);
                if watcher.confidence() == Confidence::Certain {
                    return Err(io::Error::other(Decided));
                }
            }
            Ok(())
        };
        match self.tokenize(&Tokenizing::default(), &mut sink) {
            Err(e) if !e.get_ref().is_some_and(|e| e.is::<Decided>()) => {
                unreachable!("the watcher writes nothing: {e}")
            }
            _ => {}
        }
        (watcher.encoding(), watcher.confidence())
    }

    /// The sniffing options a stream over this input needs to decide what
    /// decoding the whole input at once would. Every step of sniffing looks
    /// at the first 1024 bytes at most, which the stream holds back to
    /// sniff, except UTF-8 detection, which needs every byte. For an input
    /// longer than a chunk whose encoding the other steps leave open, the
    /// whole input is checked here and the answer given to the stream as
    /// its default encoding. The error says why the input cannot be read
    /// for that.
    fn stream_decode_options(&mut self, options: &DecodeOptions) -> Result<DecodeOptions, String> {
        if !options.detect_utf8 || self.chunks.whole() {
            return Ok(options.clone());
        }
        let plain = options.clone().detect_utf8(false);
        let sniffed = htmltok::encoding::sniff(self.head(), &plain);
        if sniffed.source != EncodingSource::Default {
            return Ok(plain);
        }
        Ok(if self.whole_input_is_utf8()? {
            plain.default_encoding(UTF_8)
        } else {
            plain
        })
    }

    /// Whether the whole input is valid UTF-8 with some non-ASCII byte (what
    /// UTF-8 detection takes for UTF-8), reading it through once: again
    /// from its start when it can be reopened, else (standard input) into a
    /// temporary file the rest of the run then reads from. A read error ends
    /// the input there, for this check as for the tokenizing after it.
    fn whole_input_is_utf8(&mut self) -> Result<bool, String> {
        let mut check = Utf8Check::default();
        if let Some(all) = self.chunks.all() {
            check.push(all);
            return Ok(check.finish());
        }
        match &self.reopen {
            Some(reopen) => {
                let mut reader = reopen().map_err(|f| {
                    format!(
                        "cannot read the input again to check its encoding: {}",
                        f.what
                    )
                })?;
                let mut buf = vec![0; 64 * 1024];
                while let Ok(n @ 1..) = read_some(&mut reader, &mut buf) {
                    if !check.push(&buf[..n]) {
                        break;
                    }
                }
            }
            None => {
                self.chunks
                    .read_rest(|bytes| {
                        check.push(bytes);
                    })
                    .map_err(|e| {
                        format!(
                            "cannot keep standard input in a temporary file to check its \
                             encoding: {}",
                            input::io_message(&e)
                        )
                    })?;
            }
        }
        Ok(check.finish())
    }
}

/// Stops the browser-encoding run once the encoding is certain.
#[derive(Debug)]
struct Decided;

impl std::fmt::Display for Decided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("encoding decided")
    }
}

impl std::error::Error for Decided {}

#[cfg(test)]
mod tests;
