//! One input as a command sees it ([`Doc`]): read a chunk at a time,
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
//! How bytes become text is the command's [`Decoding`]:
//!
//! - [`Decoding::Sniff`] (every command but `tokens --format html5lib` and
//!   `encoding`): the HTML Standard's encoding sniffing: a byte order mark,
//!   else `--encoding`, else a `<meta>` in the first 1024 bytes, else UTF-8
//!   when the whole input is valid UTF-8, else windows-1252. UTF-8
//!   detection looks at the whole input: for an input longer than a chunk
//!   whose encoding nothing else decides, the input is read once more to
//!   check (from the file; standard input is kept in a temporary file).
//! - [`Decoding::Utf8`] (`tokens --format html5lib`): the bytes are the
//!   input stream as they are, UTF-8 with invalid bytes replaced by U+FFFD;
//!   a BOM stays a character.
//! - [`Decoding::Browser`] (`encoding`): what a browser ends up with, a
//!   `<meta>` met while parsing included ([`Doc::browser_encoding`]).

use std::io::{self, Read};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use htmltok::bumpalo::Bump;
use htmltok::encoding_rs::{Encoding, UTF_8};
use htmltok::stream::{Feed, Source};
use htmltok::{
    Confidence, DecodeOptions, EncodingSource, EncodingWatcher, Options, ParseError,
    SniffingStream, Span, StreamError, StreamOptions, StreamTokenizer, Text, Token,
};

use crate::archive::RecordInfo;
use crate::input::{self, Failure, Reader};
use crate::lines::Lines;
use crate::spill::Spill;

/// The default `--chunk-size`: inputs up to this size are tokenized whole.
pub const CHUNK_SIZE: usize = 1 << 20;

/// The default `--memory-limit`.
pub const MEMORY_LIMIT: usize = 64 << 20;

/// How a command reads each input.
#[derive(Clone, Debug)]
pub struct Reading {
    /// How bytes become text.
    pub decoding: Decoding,
    /// How many bytes are read and tokenized at a time.
    pub chunk_size: usize,
    /// The most the tokenizer may hold for one input (a construct a chunk
    /// boundary cut, the strings of one chunk's tokens).
    pub memory_limit: usize,
    /// The most a gzip input may inflate to.
    pub gunzip_limit: u64,
    /// Skip inputs whose first bytes are binary (`--skip-binary`).
    pub skip_binary: bool,
}

impl Reading {
    /// Inputs decoded as `decoding`, with the default sizes and limits.
    pub fn new(decoding: Decoding) -> Reading {
        Reading {
            decoding,
            chunk_size: CHUNK_SIZE,
            memory_limit: MEMORY_LIMIT,
            gunzip_limit: input::GUNZIP_LIMIT,
            skip_binary: false,
        }
    }
}

/// How an input's bytes become the text the tokenizer reads.
#[derive(Clone, Debug)]
pub enum Decoding {
    /// UTF-8 as it is: invalid bytes become U+FFFD, a BOM is a character.
    Utf8,
    /// Sniffed and decoded (see [`Decoding::sniff`]).
    Sniff(DecodeOptions),
    /// Sniffed, and changed by a `<meta>` met while tokenizing, as a
    /// browser does: only for [`Doc::browser_encoding`].
    Browser(DecodeOptions),
}

impl Decoding {
    /// Sniffing with UTF-8 detection (a valid UTF-8 page with no BOM and
    /// no `<meta>` is UTF-8, not windows-1252), and `encoding` (`--encoding`)
    /// as the user's override when given.
    pub fn sniff(encoding: Option<&'static Encoding>) -> Decoding {
        let mut opts = DecodeOptions::default().detect_utf8(true);
        if let Some(encoding) = encoding {
            opts = opts.override_encoding(encoding);
        }
        Decoding::Sniff(opts)
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
    pub fn write_json(&self, out: &mut (impl io::Write + ?Sized)) -> io::Result<()> {
        out.write_all(b"\"file\":")?;
        crate::json::write_str(out, self.file)?;
        if let Some(record) = self.record {
            for (name, value) in record.fields() {
                write!(out, ",\"{name}\":")?;
                serde_json::to_writer(&mut *out, &value)?;
            }
        }
        Ok(())
    }
}

/// The label in plain-text outputs: the input's name, and for a record,
/// its target URI after a space (`crawl.warc.gz https://example.com/`).
impl std::fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.file)?;
        if let Some(record) = self.record {
            write!(f, " {}", record.uri)?;
        }
        Ok(())
    }
}

/// What a command asks of one tokenizing run.
#[derive(Clone, Debug, Default)]
pub struct Tokenize<'s> {
    /// The tokenizer options (parse errors, auto-switching, state).
    pub options: Options,
    /// The tag name an appropriate end tag needs at the start.
    pub last_start_tag: Option<&'s str>,
    /// Give each parse error its line and column.
    pub positions: bool,
}

/// What the sink of [`Doc::tokenize`] is handed, in input order.
#[derive(Debug)]
pub enum Event<'t, 'a> {
    /// A token other than text.
    Token(&'t Token<'a>),
    /// A piece of a text run: the run is the pieces from one with `first`
    /// to the next [`Event::TextEnd`]; joined, they are the text token the
    /// whole input gives. A run that fits in a chunk is one piece.
    Text {
        /// The piece.
        text: &'t Text<'a>,
        /// Whether it starts a run.
        first: bool,
    },
    /// The end of a text run: its span is `start..end` (the whole input's
    /// text token's span).
    TextEnd {
        /// Where the run's first piece starts.
        start: usize,
        /// Where the run ends.
        end: usize,
    },
    /// A parse error (with `Options::errors`), after the tokens of the chunk
    /// it was found in, with its line and column when asked for.
    Error(&'t ParseError, Option<(usize, usize)>),
}

/// What the sink may ask about the tokens it is handed.
pub struct Ctx<'t, 'a> {
    /// Where the chunk's tokens come from, for a token or text event.
    source: Option<&'t Source<'a>>,
}

impl<'a> Ctx<'_, 'a> {
    /// The raw source of a span of the last token (`None` for a text run's
    /// span, which may begin in an earlier chunk, and for other events).
    pub fn source(&self, span: Span) -> Option<&'a str> {
        self.source?.source(span)
    }

    /// The decoded text of the chunk the last token came from (empty for
    /// other events).
    pub fn decoded(&self) -> &'a str {
        self.source.map_or("", |s| s.decoded())
    }
}

/// What [`Doc::tokenize`] hands events to, compiled into the loop over the
/// tokens (each command's own copy of the loop): a closure (see
/// [`SinkFn`]), or a type of a command's own whose [`Sink::event`] is
/// `#[inline(always)]` where the compiler would not inline a closure that
/// large into the three places the loop calls it from.
pub trait Sink {
    /// Whether the sink wants text handed over as runs
    /// ([`Event::Text`] pieces and [`Event::TextEnd`]); when not, each
    /// piece comes as an [`Event::Token`] and no run is followed (a sink
    /// that does not look at runs spares the loop the bookkeeping).
    const RUNS: bool = true;

    /// Takes the next event: with [`Sink::RUNS`] on, every one; with it
    /// off, the parse errors (the tokens come to [`Sink::token`]).
    fn event<'t, 'a>(&mut self, event: Event<'t, 'a>, ctx: &Ctx<'t, 'a>) -> io::Result<()>;

    /// With [`Sink::RUNS`] off, takes the next token (text pieces
    /// included), and breaks to have the loop pause: the loop then calls
    /// [`Sink::resume`] and goes on. So the writing of output, and its
    /// `io::Result`, stay out of the tokenizer's loop, into which this is
    /// compiled (with them in, the compiler kept the sink a call per
    /// token: 9 M instructions of `htmltok text` over the corpus). A sink
    /// that turns [`Sink::RUNS`] off implements it; the loop never calls
    /// it on the others.
    #[inline(always)]
    fn token<'t, 'a>(&mut self, token: &'t Token<'a>, ctx: &Ctx<'t, 'a>) -> ControlFlow<()> {
        let _ = (token, ctx);
        unreachable!("a sink with runs takes its tokens as events")
    }

    /// Does what [`Sink::token`] paused the loop for.
    fn resume(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// Called after each chunk of the input is tokenized (before its
    /// parse errors): where a sink that gathers output writes it out,
    /// checked once a chunk rather than on every token in the loop.
    /// What it holds is then bounded by one chunk's worth.
    fn chunk_done(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A closure as a [`Sink`] that takes text pieces as tokens
/// ([`Sink::RUNS`] off): for a command that does not look at runs. The
/// closure's error pauses the loop, and [`Sink::resume`] gives it back.
pub struct Tokens<F> {
    f: F,
    error: Option<io::Error>,
}

impl<F> Tokens<F> {
    /// The sink of `f`.
    pub fn new(f: F) -> Tokens<F> {
        Tokens { f, error: None }
    }
}

impl<F: SinkFn> Sink for Tokens<F> {
    const RUNS: bool = false;

    #[inline(always)]
    fn event<'t, 'a>(&mut self, event: Event<'t, 'a>, ctx: &Ctx<'t, 'a>) -> io::Result<()> {
        (self.f)(event, ctx)
    }

    #[inline(always)]
    fn token<'t, 'a>(&mut self, token: &'t Token<'a>, ctx: &Ctx<'t, 'a>) -> ControlFlow<()> {
        match (self.f)(Event::Token(token), ctx) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.error = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    fn resume(&mut self) -> io::Result<()> {
        self.error.take().map_or(Ok(()), Err)
    }
}

/// A closure as a [`Sink`].
pub trait SinkFn: for<'t, 'a> FnMut(Event<'t, 'a>, &Ctx<'t, 'a>) -> io::Result<()> {}

impl<S: ?Sized> SinkFn for S where
    S: for<'t, 'a> FnMut(Event<'t, 'a>, &Ctx<'t, 'a>) -> io::Result<()>
{
}

impl<S: SinkFn + ?Sized> Sink for S {
    #[inline(always)]
    fn event<'t, 'a>(&mut self, event: Event<'t, 'a>, ctx: &Ctx<'t, 'a>) -> io::Result<()> {
        self(event, ctx)
    }
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
pub struct Doc<'r> {
    /// Its name as shown: the path, or `-` for stdin (for a record, the
    /// archive's).
    pub name: &'r str,
    /// The WARC record it is the page of, when it comes from an archive.
    pub record: Option<&'r RecordInfo>,
    reading: &'r Reading,
    chunks: Chunks,
    /// How to read it again from the start, if it can be (not stdin).
    reopen: Option<Reopen>,
    /// Why it could not be processed to its end, if it could not.
    failure: Option<String>,
}

impl<'r> Doc<'r> {
    /// An input read from `reader` (reading its first chunk now); `reopen`
    /// reads it again from its start, when that can be done.
    pub fn open(
        name: &'r str,
        reader: Reader,
        reopen: Option<Reopen>,
        reading: &'r Reading,
    ) -> Result<Doc<'r>, String> {
        let chunks =
            Chunks::new(reader, reading.chunk_size.max(1)).map_err(|e| input::io_message(&e))?;
        Ok(Doc::with(name, chunks, reopen, reading))
    }

    /// An input that is `bytes`, already in memory (a record's page): it is
    /// tokenized from where it lies, not copied into chunks.
    pub fn in_memory(
        name: &'r str,
        bytes: Box<dyn AsRef<[u8]> + Send>,
        reading: &'r Reading,
    ) -> Doc<'r> {
        let chunks = Chunks::in_memory(bytes, reading.chunk_size.max(1));
        Doc::with(name, chunks, None, reading)
    }

    fn with(
        name: &'r str,
        chunks: Chunks,
        reopen: Option<Reopen>,
        reading: &'r Reading,
    ) -> Doc<'r> {
        Doc {
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

    /// Why the input could not be processed to its end (a read error, a
    /// memory limit), once a run has ended.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    fn fail(&mut self, what: String) {
        self.failure.get_or_insert(what);
    }

    /// Tokenizes the input, handing every token, text piece and parse error
    /// to `sink` in order. Returns what was measured, or the first error
    /// `sink` returned. An input that cannot be read or tokenized to its end
    /// ends early (as if it ended there) and says why in
    /// [`failure`](Self::failure). Call it once.
    pub fn tokenize<S: Sink + ?Sized>(
        &mut self,
        run: &Tokenize<'_>,
        sink: &mut S,
    ) -> io::Result<Outcome> {
        let limit = self.reading.memory_limit / HELD_COPIES;
        let stream_options = StreamOptions::default()
            .tokenizer(run.options.clone().memory_limit(Some(limit)))
            .coalesce_text(false)
            .memory_limit(Some(limit));
        let mut stream = match &self.reading.decoding {
            Decoding::Utf8 => Stream::Raw(StreamTokenizer::new(stream_options)),
            Decoding::Sniff(opts) | Decoding::Browser(opts) => {
                match self.stream_decode_options(opts) {
                    Ok(opts) => Stream::Sniffing(SniffingStream::new(stream_options, opts)),
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
            .set_last_start_tag(run.last_start_tag);
        let mut lines = run.positions.then(Lines::default);
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
                            let ctx = Ctx {
                                source: Some(source),
                            };
                            if S::RUNS {
                                match runs.token(&token, &ctx, sink) {
                                    Ok(()) => ControlFlow::Continue(()),
                                    Err(e) => ControlFlow::Break(Some(e)),
                                }
                            } else {
                                match sink.token(&token, &ctx) {
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
                    sink.event(Event::Error(&error, at), &Ctx { source: None })?;
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
        if let Some(e) = self.chunks.error.take() {
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
        let Decoding::Browser(opts) = &self.reading.decoding else {
            unreachable!("browser_encoding is for Decoding::Browser");
        };
        let sniffed = htmltok::encoding::sniff(self.head(), opts);
        if sniffed.confidence == Confidence::Certain {
            return (sniffed.encoding, sniffed.confidence);
        }
        let mut watcher = EncodingWatcher::new(sniffed.encoding, sniffed.confidence);
        let run = Tokenize::default();
        let mut sink = |event: Event<'_, '_>, _: &Ctx<'_, '_>| {
            if let Event::Token(token) = event {
                watcher.observe(token);
                if watcher.confidence() == Confidence::Certain {
                    return Err(io::Error::other(Decided));
                }
            }
            Ok(())
        };
        match self.tokenize(&run, &mut sink) {
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
    fn stream_decode_options(&mut self, opts: &DecodeOptions) -> Result<DecodeOptions, String> {
        if !opts.detect_utf8 || self.chunks.whole() {
            return Ok(opts.clone());
        }
        let plain = opts.clone().detect_utf8(false);
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
        let mut buf = vec![0; 64 * 1024];
        match &self.reopen {
            Some(reopen) => {
                let mut reader = reopen().map_err(|f| {
                    format!(
                        "cannot read the input again to check its encoding: {}",
                        f.what
                    )
                })?;
                while let Ok(n @ 1..) = read_some(&mut reader, &mut buf) {
                    if !check.push(&buf[..n]) {
                        break;
                    }
                }
            }
            None => {
                // Nothing is handed out yet: what is held, then the chunk
                // read ahead of it, then the rest of the input.
                check.push(self.chunks.held());
                check.push(&self.chunks.next);
                let keep = |e: io::Error| {
                    format!(
                        "cannot keep standard input in a temporary file to check its encoding: {}",
                        input::io_message(&e)
                    )
                };
                let mut spool = Spill::default();
                let ended = loop {
                    match read_some(&mut self.chunks.reader, &mut buf) {
                        Ok(0) => break None,
                        Ok(n) => {
                            check.push(&buf[..n]);
                            io::Write::write_all(&mut spool, &buf[..n]).map_err(keep)?;
                        }
                        Err(e) => break Some(e),
                    }
                };
                // What was read, then the error that ended it, if one did.
                let rest = spool.into_reader().map_err(keep)?;
                self.chunks.reader = Box::new(rest.chain(Failing(ended)));
            }
        }
        Ok(check.finish())
    }
}

/// Reads into `buf`, again when interrupted.
fn read_some(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => return other,
        }
    }
}

/// A reader that fails once with the error it holds, then is empty.
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
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

/// How many times over the memory a construct takes while the stream holds
/// it: a construct cut by a chunk boundary is held as bytes (in a string
/// that grows by doubling, so up to twice their size) and tokenized again
/// from a copy in the arena (which, for a copy that large, grows a chunk of
/// its own). Measured: a 100 MB comment peaks at 2.7 times its size in
/// resident memory. So that `--memory-limit` bounds memory, what the
/// stream and the tokenizer may hold is a quarter of it.
const HELD_COPIES: usize = 4;

/// Why a stream stopped, for people; `limit` is `--memory-limit`.
fn stream_failure(e: &StreamError, limit: usize) -> String {
    match e {
        StreamError::MemoryLimit { offset, .. } => format!(
            "going on at byte {offset} needs more than the memory limit of {} (--memory-limit): \
             a comment, tag or value of a quarter of that, as many open elements, or as many \
             parse errors at once; the rest of the input was not processed",
            input::size_for_people(limit as u64)
        ),
        other => other.to_string(),
    }
}

thread_local! {
    /// Each thread's tokenizer arena, reset after every chunk.
    static ARENA: std::cell::RefCell<Bump> = std::cell::RefCell::new(Bump::new());
}

/// The two kinds of stream an input is fed to.
enum Stream {
    Raw(StreamTokenizer),
    Sniffing(SniffingStream),
}

impl Stream {
    fn feed<'s, 'a>(
        &'s mut self,
        chunk: &'a [u8],
        arena: &'a Bump,
        last: bool,
    ) -> Result<Feed<'s, 'a>, StreamError> {
        match (self, last) {
            (Stream::Raw(s), false) => s.feed(chunk, arena),
            (Stream::Raw(s), true) => s.finish_bytes(chunk, arena),
            (Stream::Sniffing(s), false) => s.feed(chunk, arena),
            (Stream::Sniffing(s), true) => s.finish_bytes(chunk, arena),
        }
    }

    fn tokenizer(&self) -> &StreamTokenizer {
        match self {
            Stream::Raw(s) => s,
            Stream::Sniffing(s) => s.tokenizer(),
        }
    }

    fn tokenizer_mut(&mut self) -> &mut StreamTokenizer {
        match self {
            Stream::Raw(s) => s,
            Stream::Sniffing(s) => s.tokenizer_mut(),
        }
    }

    fn encoding(&self) -> Option<(&'static Encoding, Confidence)> {
        match self {
            Stream::Raw(_) => None,
            Stream::Sniffing(s) => s.encoding(),
        }
    }
}

/// Tells text runs apart from their pieces (see [`Event::Text`]).
#[derive(Default)]
struct Runs {
    /// The open run: where it started and where its last piece ended.
    open: Option<(usize, usize)>,
}

impl Runs {
    #[inline(always)]
    fn token<'t, 'a, S: Sink + ?Sized>(
        &mut self,
        token: &'t Token<'a>,
        ctx: &Ctx<'t, 'a>,
        sink: &mut S,
    ) -> io::Result<()> {
        if let Token::Text(text) = token {
            let first = self.open.is_none();
            let start = self.open.map_or(text.span.start, |(start, _)| start);
            self.open = Some((start, text.span.end));
            return sink.event(Event::Text { text, first }, ctx);
        }
        // A run ends where the token after it starts: the whole input's
        // text span, even when a construct the standard drops (`</>`)
        // follows the run's last piece.
        if let Some((start, _)) = self.open.take() {
            let end = token.span().start;
            sink.event(Event::TextEnd { start, end }, ctx)?;
        }
        sink.event(Event::Token(token), ctx)
    }

    /// Ends the run the input ended in, if any: where the stream says text
    /// running to the end ends (after what the standard drops, which the
    /// last piece may not cover), or where its last piece ends if the input
    /// did not get to its end.
    fn end<S: Sink + ?Sized>(
        &mut self,
        eof_text_end: Option<usize>,
        sink: &mut S,
    ) -> io::Result<()> {
        match self.open.take() {
            Some((start, end)) => {
                let end = eof_text_end.map_or(end, |e| e.max(end));
                sink.event(Event::TextEnd { start, end }, &Ctx { source: None })
            }
            None => Ok(()),
        }
    }
}

/// How many bytes of an input are read before anything is tokenized, at
/// least: the MIME Sniffing Standard's resource header (`--skip-binary`),
/// which holds the 1024 bytes encoding sniffing looks at.
const HEAD_LEN: usize = htmltok::mime::RESOURCE_HEADER_LEN;

/// An input handed out a chunk at a time, read a chunk ahead so that the
/// last chunk is known as such when it is handed out. Its head (at least
/// [`HEAD_LEN`] bytes, or a chunk if that is more) is read first, so that
/// what sniffing needs is there whatever the chunk size. An input already
/// in memory (a record's page) is all "held" from the start, and handed
/// out in slices of it: the same chunks, with no copy.
struct Chunks {
    reader: Reader,
    size: usize,
    /// The bytes held from the start: the head as read, or the whole input
    /// when it was in memory. `held[..taken]` has been handed out.
    held: Box<dyn AsRef<[u8]> + Send>,
    taken: usize,
    /// The chunk to hand out after what is held.
    next: Vec<u8>,
    /// The chunk handed out last, when it came from `next`.
    current: Vec<u8>,
    /// Whether `reader` has ended.
    eof: bool,
    /// The read error that ended it early, if one did.
    error: Option<io::Error>,
    /// Whether a chunk has been handed out.
    started: bool,
}

impl Chunks {
    fn new(reader: Reader, size: usize) -> io::Result<Chunks> {
        let mut chunks = Chunks::holding(reader, size, Box::new(Vec::new()), false);
        let mut head = Vec::new();
        chunks.fill(&mut head, size.max(HEAD_LEN));
        chunks.held = Box::new(head);
        if let Some(e) = chunks.error.take() {
            if chunks.held().is_empty() {
                return Err(e);
            }
            chunks.error = Some(e);
        }
        // Read a chunk ahead, so that an input that fills the head exactly
        // is known to end there.
        chunks.refill();
        Ok(chunks)
    }

    /// An input that is `bytes`, all in memory.
    fn in_memory(bytes: Box<dyn AsRef<[u8]> + Send>, size: usize) -> Chunks {
        Chunks::holding(Box::new(io::empty()), size, bytes, true)
    }

    /// Chunks holding `held`, then what `reader` gives unless `eof`.
    fn holding(
        reader: Reader,
        size: usize,
        held: Box<dyn AsRef<[u8]> + Send>,
        eof: bool,
    ) -> Chunks {
        Chunks {
            reader,
            size,
            held,
            taken: 0,
            next: Vec::new(),
            current: Vec::new(),
            eof,
            error: None,
            started: false,
        }
    }

    /// The bytes held from the start (handed out or not).
    fn held(&self) -> &[u8] {
        (*self.held).as_ref()
    }

    /// Where the head ends in what is held.
    fn head_end(&self) -> usize {
        self.held().len().min(self.size.max(HEAD_LEN))
    }

    /// The input's first bytes, before anything is handed out.
    fn head(&self) -> &[u8] {
        let end = self.head_end();
        &self.held()[self.taken.min(end)..end]
    }

    /// The whole input, when it is all held and nothing has been handed
    /// out.
    fn all(&self) -> Option<&[u8]> {
        let all = !self.started && self.next.is_empty() && self.eof && self.error.is_none();
        all.then(|| self.held())
    }

    /// Whether the whole input is one chunk.
    fn whole(&self) -> bool {
        self.all().is_some_and(|all| all.len() <= self.size)
    }

    /// Reads into `buf` up to `size` bytes, or to the end.
    fn fill(&mut self, buf: &mut Vec<u8>, size: usize) {
        buf.clear();
        if self.eof {
            return;
        }
        buf.reserve_exact(size);
        // `read_to_end` reads into the spare capacity: a file's bytes
        // land there without the buffer being zero-filled first.
        match (&mut self.reader).take(size as u64).read_to_end(buf) {
            Ok(_) => self.eof = buf.len() < size,
            Err(e) => {
                self.error = Some(e);
                self.eof = true;
            }
        }
    }

    /// Reads the chunk after the one handed out last.
    fn refill(&mut self) {
        let mut next = core::mem::take(&mut self.next);
        self.fill(&mut next, self.size);
        self.next = next;
    }

    /// The next chunk, and whether it is the last.
    fn take(&mut self) -> (&[u8], bool) {
        self.started = true;
        let held = self.held().len();
        if self.taken < held {
            // Pieces of the head end where it ends, as read.
            let end = if self.taken < self.head_end() {
                self.head_end()
            } else {
                held
            };
            let start = self.taken;
            self.taken = end.min(start + self.size);
            let last = self.taken == held && self.next.is_empty();
            return (&self.held()[start..self.taken], last);
        }
        core::mem::swap(&mut self.current, &mut self.next);
        self.refill();
        (&self.current, self.next.is_empty())
    }
}

/// Checks bytes given in pieces for UTF-8 validity (a character may be cut
/// between pieces) and for a non-ASCII byte.
#[derive(Default)]
struct Utf8Check {
    /// The start of a character cut by the end of the last piece.
    tail: Vec<u8>,
    invalid: bool,
    non_ascii: bool,
}

impl Utf8Check {
    /// Takes in the next piece; false once the bytes are known invalid.
    fn push(&mut self, mut bytes: &[u8]) -> bool {
        if self.invalid {
            return false;
        }
        if let Some(&lead) = self.tail.first() {
            // Complete the cut character (its lead byte says how long it
            // is; a prefix `from_utf8` left over starts a valid one).
            let need = match lead {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            let take = (need - self.tail.len()).min(bytes.len());
            self.tail.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.tail.len() < need {
                return true;
            }
            self.invalid = core::str::from_utf8(&self.tail).is_err();
            self.tail.clear();
            if self.invalid {
                return false;
            }
        }
        self.non_ascii |= !bytes.is_ascii();
        match core::str::from_utf8(bytes) {
            Ok(_) => true,
            Err(e) if e.error_len().is_none() => {
                self.tail.extend_from_slice(&bytes[e.valid_up_to()..]);
                true
            }
            Err(_) => {
                self.invalid = true;
                false
            }
        }
    }

    /// Whether all the bytes were valid UTF-8, with some non-ASCII byte.
    fn finish(&self) -> bool {
        !self.invalid && self.tail.is_empty() && self.non_ascii
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_check_across_pieces() {
        let check = |pieces: &[&[u8]]| {
            let mut c = Utf8Check::default();
            for p in pieces {
                c.push(p);
            }
            c.finish()
        };
        let text = "caf\u{e9} \u{20ac} \u{1F600}".as_bytes();
        assert!(check(&[text]));
        for cut in 0..=text.len() {
            assert!(check(&[&text[..cut], &text[cut..]]), "cut at {cut}");
            let mut bad = text.to_vec();
            bad.insert(cut, 0xFF);
            assert!(!check(&[&bad[..cut], &bad[cut..]]), "0xFF at {cut}");
        }
        let bytes: Vec<&[u8]> = text.chunks(1).collect();
        assert!(check(&bytes));
        assert!(!check(&[b"plain ascii"]), "no non-ASCII byte");
        assert!(!check(&[b"cut \xE2\x82"]), "a cut character at the end");
        assert!(!check(&[b"\xE2", b"\x82A"]), "an invalid continuation");
    }
    /// An input in memory is handed out in the chunks a reader over the
    /// same bytes gives, the head's end included, each known as the last
    /// or not alike.
    #[test]
    fn chunks_from_memory_are_the_chunks_read() {
        let chunks = |mut chunks: Chunks| {
            let mut out = Vec::new();
            loop {
                let (chunk, last) = chunks.take();
                out.push((chunk.to_vec(), last));
                if last {
                    return out;
                }
            }
        };
        for len in [
            0,
            1,
            999,
            1000,
            1001,
            HEAD_LEN - 1,
            HEAD_LEN,
            HEAD_LEN + 1,
            5000,
        ] {
            let input: Vec<u8> = (0..len).map(|i| i as u8).collect();
            for size in [1, 7, 1000, HEAD_LEN, 2048, 1 << 20] {
                let read = Chunks::new(Box::new(io::Cursor::new(input.clone())), size).unwrap();
                let memory = Chunks::in_memory(Box::new(input.clone()), size);
                assert_eq!(read.head(), memory.head(), "{len} in {size}");
                assert_eq!(read.whole(), memory.whole(), "{len} in {size}");
                assert_eq!(chunks(read), chunks(memory), "{len} in {size}");
            }
        }
    }
}

#[cfg(test)]
mod streaming {
    use super::*;

    /// What a command sees of `input` read in chunks of `size` (from a
    /// reader, or from memory when `in_memory`): every event, text runs
    /// joined, errors with their positions.
    fn events(input: &[u8], size: usize, decoding: &Decoding, in_memory: bool) -> Vec<String> {
        let reading = Reading {
            chunk_size: size,
            ..Reading::new(decoding.clone())
        };
        let mut doc = if in_memory {
            Doc::in_memory("-", Box::new(input.to_vec()), &reading)
        } else {
            let reader = Box::new(io::Cursor::new(input.to_vec()));
            Doc::open("-", reader, None, &reading).unwrap()
        };
        let run = Tokenize {
            options: Options::default().errors(true),
            positions: true,
            ..Tokenize::default()
        };
        let mut out = Vec::new();
        let mut text = String::new();
        doc.tokenize(&run, &mut |event: Event<'_, '_>, _: &Ctx| {
            match event {
                Event::Token(token) => out.push(format!("{token:?}")),
                Event::Text { text: piece, first } => {
                    assert!(first == text.is_empty() && !piece.data.is_empty());
                    text.push_str(piece.data);
                }
                Event::TextEnd { start, end } => {
                    out.push(format!(
                        "text {:?} {start}..{end}",
                        core::mem::take(&mut text)
                    ));
                }
                Event::Error(error, at) => out.push(format!("{error:?} at {at:?}")),
            }
            Ok(())
        })
        .unwrap();
        assert!(doc.failure().is_none());
        out
    }

    /// A sink without runs ([`Tokens`]) gets every token, text pieces as
    /// tokens, at every chunk size; an error of its closure stops the run
    /// at that token and is the run's error.
    #[test]
    fn tokens_sinks_pause_on_their_errors() {
        let html = b"<p>one <b>two</b> three</p><!--c--><p>four";
        for size in [1, 3, 7, 1 << 20] {
            let reading = Reading {
                chunk_size: size,
                ..Reading::new(Decoding::Utf8)
            };
            let run = Tokenize::default();
            let mut doc = Doc::in_memory("-", Box::new(html.to_vec()), &reading);
            let mut text = String::new();
            let mut tags = 0;
            doc.tokenize(
                &run,
                &mut Tokens::new(|event: Event<'_, '_>, _: &Ctx| {
                    match event {
                        Event::Token(Token::Text(piece)) => text.push_str(piece.data),
                        Event::Token(_) => tags += 1,
                        other => panic!("{other:?}"),
                    }
                    Ok(())
                }),
            )
            .unwrap();
            assert_eq!(
                (text.as_str(), tags),
                ("one two threefour", 6),
                "size {size}"
            );
            let mut doc = Doc::in_memory("-", Box::new(html.to_vec()), &reading);
            let mut seen = 0;
            let result = doc.tokenize(
                &run,
                &mut Tokens::new(|_: Event<'_, '_>, _: &Ctx| {
                    seen += 1;
                    if seen == 3 {
                        return Err(io::Error::other("stop"));
                    }
                    Ok(())
                }),
            );
            assert_eq!(result.unwrap_err().to_string(), "stop", "size {size}");
            assert_eq!(seen, 3, "size {size}");
        }
    }

    /// Random pages from pieces that make every kind of construct and cut
    /// each at every place: the same events whatever the chunk size
    /// (errors in a chunk come after its tokens, so they are compared
    /// apart).
    #[test]
    fn every_chunk_size_gives_the_same_events() {
        let pieces: &[&str] = &[
            "<p>",
            "</p>",
            "<a href='x&amp;y'>",
            "text ",
            "\r\n",
            "\r",
            "\0",
            "&amp;",
            "&notin",
            "&#x41",
            "</>",
            "<!---->",
            "<!--c-->",
            "<!DOCTYPE html>",
            "<script>",
            "</script>",
            "<svg>",
            "<![CDATA[",
            "]]>",
            "<![CDATA[]]>",
            "caf\u{e9}",
            "\u{1F600}",
            "<title>",
            "</title>",
            "<",
            "&",
            "\u{7f}",
            "<b a=1 a=2>",
            "<?x>",
        ];
        let mut seed = 0x853C_49E6_748F_EA9Bu64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let sort_errors = |mut events: Vec<String>| {
            let errors: Vec<String> = events
                .iter()
                .filter(|e| e.starts_with("ParseError"))
                .cloned()
                .collect();
            events.retain(|e| !e.starts_with("ParseError"));
            events.extend(errors);
            events
        };
        for _ in 0..600 {
            let mut page = String::new();
            for _ in 0..next(12) + 1 {
                page.push_str(pieces[next(pieces.len())]);
            }
            for decoding in [Decoding::Utf8, Decoding::sniff(None)] {
                let whole = sort_errors(events(page.as_bytes(), 1 << 20, &decoding, false));
                for size in [1, 2, 3, 5, 8] {
                    for in_memory in [false, true] {
                        let got = sort_errors(events(page.as_bytes(), size, &decoding, in_memory));
                        assert_eq!(got, whole, "{page:?} in chunks of {size}, {in_memory}");
                    }
                }
            }
        }
    }
}
