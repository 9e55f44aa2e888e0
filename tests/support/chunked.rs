//! Streaming against the whole input, as a check: used by the `chunked`
//! fuzz target, `tests/chunked.rs` and `tests/regressions.rs`.
//!
//! The document's bytes are cut into chunks and fed through
//! [`StreamTokenizer::feed`] (or [`StreamTokenizer::feed_str`] for a chunk
//! that is valid UTF-8, when [`ChunkConfig::feed_str`] is set), then
//! [`StreamTokenizer::finish`], the arena reset after every chunk as the
//! module docs advise. The tokens must be those of [`Tokenizer::with_options`]
//! over `String::from_utf8_lossy(bytes)` with the same options, compared
//! through their `Debug` form (every field, spans included), and the parse
//! errors the same list:
//!
//! - with `coalesce_text(true)` (the default), token for token;
//! - with `coalesce_text(false)`, once adjacent text tokens are merged (data
//!   concatenated, spans joined); each piece must be non-empty and start
//!   where the previous one ended. Everything else token for token, but
//!   for one thing pieces cannot do ([`trailing_dropped`]): the whole
//!   input's text span swallows a `</>` or an empty CDATA section that
//!   follows the text, and when a piece has already been handed out at a
//!   chunk boundary right before one (or inside an empty CDATA section,
//!   right after its `<![CDATA[`), with no more text after it, nothing
//!   can cover it. There the merged span may end early, before exactly
//!   such a stretch.
//!
//! And once finished, `feed`, `feed_str` and `finish` all answer
//! [`StreamError::Finished`].
//!
//! [`check`] is exact. The fuzz target runs [`check_with`] and
//! [`KNOWN_BUGS`], which relaxes the comparison for each open bug that the
//! fuzzer would otherwise hit again at once (each one kept as a failing
//! test in `tests/regressions.rs`), so that a run can find others; see
//! [`Relax`].
//!
//! Fuzz inputs ([`from_fuzz`]) are a header then the document:
//!
//! - byte 0, flags: bit 0 auto-switching, 1 errors, 2 scripting, 3 foreign
//!   (given with `set_foreign` when auto-switching is off), 4 the last start
//!   tag is the document's first end tag name, 5 `feed_str` for valid
//!   chunks, 6 cycle through the chunk lengths to the end (otherwise the
//!   rest after them is one chunk);
//! - byte 1: bits 0–3 the number `n` of chunk lengths, bits 4–7 the initial
//!   state (modulo 6: data, RCDATA, RAWTEXT, script data, PLAINTEXT, CDATA
//!   section);
//! - `n` bytes, each a chunk length (0 feeds an empty chunk);
//! - the rest: the document, any bytes (invalid UTF-8 included).

use std::ops::ControlFlow;

use htmltok::bumpalo::Bump;
use htmltok::{
    Feed, Options, ParseError, Span, State, StreamError, StreamOptions, StreamTokenizer, Text,
    Token, Tokenizer,
};

use crate::input;
pub use crate::input::{STATES, first_end_tag_name};

/// How one document is tokenized and cut.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChunkConfig {
    pub auto_switch: bool,
    pub errors: bool,
    pub scripting: bool,
    /// With auto-switching off: the value given to `set_foreign`.
    pub foreign: bool,
    pub initial_state: State,
    /// Give both sides the document's first end tag name as the last start
    /// tag.
    pub last_start_tag: bool,
    /// Feed chunks that are valid UTF-8 with `feed_str`.
    pub feed_str: bool,
    /// Chunk lengths, in order.
    pub lengths: Vec<usize>,
    /// Repeat `lengths` until the document is used up; otherwise what is
    /// left after them is one last chunk.
    pub cycle: bool,
}

impl ChunkConfig {
    /// Data state, auto-switching and scripting on, errors on, the given
    /// chunk lengths (not cycled).
    pub fn new(lengths: &[usize]) -> ChunkConfig {
        ChunkConfig {
            auto_switch: true,
            errors: true,
            scripting: true,
            lengths: lengths.to_vec(),
            ..ChunkConfig::default()
        }
    }

    /// The header [`from_fuzz`] reads back as this configuration (lengths
    /// above 255 or past the 15th are not representable and are cut).
    pub fn header(&self) -> Vec<u8> {
        let flags = u8::from(self.auto_switch)
            | u8::from(self.errors) << 1
            | u8::from(self.scripting) << 2
            | u8::from(self.foreign) << 3
            | u8::from(self.last_start_tag) << 4
            | u8::from(self.feed_str) << 5
            | u8::from(self.cycle) << 6;
        let state = STATES
            .iter()
            .position(|s| *s == self.initial_state)
            .unwrap() as u8;
        let n = self.lengths.len().min(15);
        let mut out = vec![flags, state << 4 | n as u8];
        out.extend(self.lengths[..n].iter().map(|&l| l.min(255) as u8));
        out
    }

    fn options(&self) -> Options {
        Options::default()
            .auto_switch(self.auto_switch)
            .errors(self.errors)
            .scripting(self.scripting)
            .initial_state(self.initial_state)
    }

    /// The byte ranges the document of `len` bytes is fed in.
    pub fn chunks(&self, len: usize) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        let push = |out: &mut Vec<(usize, usize)>, n: usize| {
            let at = out.last().map_or(0, |c| c.1);
            out.push((at, (at + n).min(len)));
        };
        let at = |out: &Vec<(usize, usize)>| out.last().map_or(0, |c| c.1);
        for &l in &self.lengths {
            push(&mut out, l);
        }
        if self.cycle && self.lengths.iter().any(|&l| l > 0) {
            'cycle: while at(&out) < len {
                for &l in &self.lengths {
                    if at(&out) == len {
                        break 'cycle;
                    }
                    push(&mut out, l);
                }
            }
        }
        if at(&out) < len || out.is_empty() {
            push(&mut out, len);
        }
        out
    }
}

/// Reads a fuzz input: the configuration from the header, and the document.
pub fn from_fuzz(data: &[u8]) -> (ChunkConfig, &[u8]) {
    let flags = data.first().copied().unwrap_or(0);
    let b1 = data.get(1).copied().unwrap_or(0);
    let n = usize::from(b1 & 0x0F);
    let rest = data.get(2..).unwrap_or(&[]);
    let n = n.min(rest.len());
    let (lengths, doc) = rest.split_at(n);
    let bit = |i: u32| flags & (1 << i) != 0;
    let config = ChunkConfig {
        auto_switch: bit(0),
        errors: bit(1),
        scripting: bit(2),
        foreign: bit(3),
        last_start_tag: bit(4),
        feed_str: bit(5),
        cycle: bit(6),
        initial_state: STATES[usize::from(b1 >> 4) % STATES.len()],
        lengths: lengths.iter().map(|&b| usize::from(b)).collect(),
    };
    (config, doc)
}

/// What [`check_with`] lets differ: one flag per open tokenizer bug, all
/// off in [`check`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Relax {
    /// Parse errors at the same offset, next to each other, may come in
    /// either order. Was a bug (fixed, so off in [`KNOWN_BUGS`]): a numeric
    /// character reference that ends
    /// with `;` exactly at a chunk boundary reports its error (null-,
    /// control-, noncharacter-, surrogate-character-reference,
    /// character-reference-outside-unicode-range) at the offset after the
    /// `;`; when the next character is an input-stream error (a control
    /// character or a noncharacter), the whole input reports that one first
    /// and the stream reports it second. `b"&#1;\x01"` cut after 4 bytes:
    /// whole `[ControlCharacterInInputStream@4, ControlCharacterReference@4]`,
    /// streamed the other way round (test
    /// `regressions::char_ref_error_and_input_stream_error_at_a_chunk_boundary`).
    pub errors_at_same_offset_in_any_order: bool,
}

/// The relaxations the fuzz target runs with: one for each open bug.
pub const KNOWN_BUGS: Relax = Relax {
    // Fixed: the reference now waits for the next buffer.
    errors_at_same_offset_in_any_order: false,
};

/// Checks a fuzz input (with [`KNOWN_BUGS`] relaxed); panics with the
/// document, configuration and difference.
pub fn check_fuzz_input(data: &[u8]) {
    let (config, doc) = from_fuzz(data);
    if let Err(e) = check_with(doc, &config, KNOWN_BUGS) {
        fail(doc, &config, &e);
    }
}

fn fail(doc: &[u8], config: &ChunkConfig, e: &str) -> ! {
    panic!(
        "streamed tokens differ for {:?} with {config:?}, chunks {:?}: {e}",
        ByteStr(doc),
        config.chunks(doc.len())
    );
}

/// [`check`], panicking on a difference.
pub fn check_or_panic(doc: &[u8], config: &ChunkConfig) {
    if let Err(e) = check(doc, config) {
        fail(doc, config, &e);
    }
}

/// Every two-piece split and byte-at-a-time, in the data state with
/// auto-switching (scripting on, errors on) and in each other state with
/// auto-switching off (errors on, the first end tag as last start tag).
pub fn check_splits(doc: &[u8]) {
    let mut configs = vec![ChunkConfig::new(&[])];
    for state in &STATES[1..] {
        configs.push(ChunkConfig {
            auto_switch: false,
            initial_state: *state,
            last_start_tag: true,
            ..ChunkConfig::new(&[])
        });
    }
    for base in configs {
        for at in 0..=doc.len() {
            check_or_panic(
                doc,
                &ChunkConfig {
                    lengths: vec![at],
                    ..base.clone()
                },
            );
        }
        check_or_panic(
            doc,
            &ChunkConfig {
                lengths: vec![1],
                cycle: true,
                ..base.clone()
            },
        );
    }
}

/// Bytes shown as a Rust byte-string literal's contents.
pub struct ByteStr<'a>(pub &'a [u8]);

impl core::fmt::Debug for ByteStr<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("b\"")?;
        for &b in self.0 {
            write!(f, "{}", core::ascii::escape_default(b))?;
        }
        f.write_str("\"")
    }
}

/// A token kept past the arena's reset: text as its parts (to merge
/// pieces), anything else as its `Debug` form.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Owned {
    Text(String, Span),
    Other(String),
}

impl Owned {
    fn of(token: &Token<'_>) -> Owned {
        match token {
            Token::Text(t) => Owned::Text(t.data.to_owned(), t.span),
            other => Owned::Other(format!("{other:?}")),
        }
    }

    /// The `Debug` form of the token this stands for.
    fn show(&self) -> String {
        match self {
            Owned::Text(data, span) => format!("{:?}", Token::Text(Text { data, span: *span })),
            Owned::Other(s) => s.clone(),
        }
    }
}

/// At most this many tokens: past it, a tokenizer is looping.
fn cap(len: usize, chunks: usize) -> usize {
    4 * (len + chunks) + 16
}

fn whole(
    input: &str,
    config: &ChunkConfig,
    last: Option<&str>,
) -> Result<(Vec<Owned>, Vec<ParseError>), String> {
    let arena = Bump::new();
    let mut tok = Tokenizer::with_options(input, &arena, config.options());
    tok.set_last_start_tag(last);
    if !config.auto_switch {
        tok.set_foreign(config.foreign);
    }
    let cap = cap(input.len(), 0);
    let tokens: Vec<Owned> = tok.by_ref().take(cap + 1).map(|t| Owned::of(&t)).collect();
    if tokens.len() > cap {
        return Err(format!("whole input: runaway, more than {cap} tokens"));
    }
    Ok((tokens, tok.errors().to_vec()))
}

fn streamed(
    doc: &[u8],
    config: &ChunkConfig,
    last: Option<&str>,
    coalesce: bool,
) -> Result<(Vec<Owned>, Vec<ParseError>), String> {
    let opts = StreamOptions::default()
        .tokenizer(config.options())
        .coalesce_text(coalesce);
    let mut stream = StreamTokenizer::new(opts);
    stream.set_last_start_tag(last);
    if !config.auto_switch {
        stream.set_foreign(config.foreign);
    }
    let chunks = config.chunks(doc.len());
    let cap = cap(doc.len(), chunks.len());
    let mut tokens = Vec::new();
    let mut arena = Bump::new();
    for (i, &(start, end)) in chunks.iter().enumerate() {
        let chunk = &doc[start..end];
        let what = format!("feeding {start}..{end}");
        // Every other chunk goes through the push interface.
        let push = i % 2 == 1;
        match core::str::from_utf8(chunk) {
            Ok(s) if config.feed_str => {
                take(stream.feed_str(s, &arena), &what, &mut tokens, cap, push)?
            }
            _ => take(stream.feed(chunk, &arena), &what, &mut tokens, cap, push)?,
        }
        arena.reset();
    }
    take(
        stream.finish(&arena),
        "finishing",
        &mut tokens,
        cap,
        chunks.len() % 2 == 1,
    )?;
    for (what, result) in [
        ("feed", stream.feed(b"x", &arena).map(|_| ())),
        ("feed_str", stream.feed_str("x", &arena).map(|_| ())),
        ("finish", stream.finish(&arena).map(|_| ())),
    ] {
        if result != Err(StreamError::Finished) {
            return Err(format!(
                "{what} after finish gives {result:?}, not Err(Finished)"
            ));
        }
    }
    Ok((tokens, stream.take_errors()))
}

/// Collects what one `feed` or `finish` yields.
fn take<'a>(
    feed: Result<Feed<'_, 'a>, StreamError>,
    what: &str,
    tokens: &mut Vec<Owned>,
    cap: usize,
    push: bool,
) -> Result<(), String> {
    let mut feed = feed.map_err(|e| format!("{what}: {e:?}"))?;
    let mut add = |t: Token<'a>| {
        if tokens.len() >= cap {
            return ControlFlow::Break(format!("{what}: runaway, more than {cap} tokens"));
        }
        tokens.push(Owned::of(&t));
        ControlFlow::Continue(())
    };
    let flow = if push {
        feed.try_for_each_token(add)
    } else {
        feed.try_for_each(&mut add)
    };
    match flow {
        ControlFlow::Break(e) => Err(e),
        ControlFlow::Continue(()) => Ok(()),
    }
}

/// Merges adjacent text tokens; the pieces must be non-empty and
/// contiguous.
fn merge_text(tokens: Vec<Owned>) -> Result<Vec<Owned>, String> {
    let mut out: Vec<Owned> = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.into_iter().enumerate() {
        if let Owned::Text(data, span) = &t {
            if data.is_empty() || span.is_empty() {
                return Err(format!("token {i}: empty text piece {}", t.show()));
            }
            if let Some(Owned::Text(prev, prev_span)) = out.last_mut() {
                if prev_span.end != span.start {
                    return Err(format!(
                        "token {i}: text piece {} does not start where the previous \
                         one ({prev_span:?}) ends",
                        t.show()
                    ));
                }
                prev.push_str(data);
                prev_span.end = span.end;
                continue;
            }
        }
        out.push(t);
    }
    Ok(out)
}

/// Whether `gap` is one or more of the constructs text swallows without a
/// character: `</>` (missing-end-tag-name) and `<![CDATA[]]>` (an empty
/// CDATA section).
pub fn only_dropped(gap: &str) -> bool {
    let mut g = gap;
    while !g.is_empty() {
        if let Some(rest) = g.strip_prefix("</>") {
            g = rest;
        } else if let Some(rest) = g.strip_prefix("<![CDATA[]]>") {
            g = rest;
        } else if g == "<![CDATA[" {
            // An empty CDATA section cut by the end of the input: no
            // characters either (a stray `]` before the end would be one).
            g = "";
        } else {
            return false;
        }
    }
    !gap.is_empty()
}

/// Whether `gap`, after a text piece that ends with `before`, is the rest
/// of an empty CDATA section the piece ended in (`]]>`), then nothing or
/// only dropped constructs ([`only_dropped`]). A piece handed out at a
/// chunk boundary right after `<![CDATA[` covers the opener (the CDATA
/// section state is a safe point there, where the next piece would start);
/// when the section then ends with no character, nothing covers its `]]>`.
pub fn rest_of_empty_cdata(before: &str, gap: &str) -> bool {
    before.ends_with("<![CDATA[")
        && gap
            .strip_prefix("]]>")
            .is_some_and(|rest| rest.is_empty() || only_dropped(rest))
}

/// Text pieces can't be extended once handed out: where a merged streamed
/// text has the whole input's data and start but ends before it, and only
/// dropped constructs ([`only_dropped`], [`rest_of_empty_cdata`]) lie
/// between the two ends, the streamed span is given the whole input's end.
fn trailing_dropped(input: &str, want: &[Owned], got: &mut [Owned]) {
    for (w, g) in want.iter().zip(got.iter_mut()) {
        if let (Owned::Text(wd, ws), Owned::Text(gd, gs)) = (w, g)
            && wd == gd
            && ws.start == gs.start
            && gs.end < ws.end
            && input.get(gs.end..ws.end).is_some_and(|gap| {
                only_dropped(gap)
                    || input
                        .get(..gs.end)
                        .is_some_and(|before| rest_of_empty_cdata(before, gap))
            })
        {
            gs.end = ws.end;
        }
    }
}

fn first_difference(want: &[Owned], got: &[Owned]) -> Option<String> {
    if want == got {
        return None;
    }
    let i = input::first_mismatch(want, got);
    let show = |t: Option<&Owned>| t.map_or("(end)".to_owned(), Owned::show);
    Some(format!(
        "token {i}: whole {} / streamed {} (whole has {} tokens, streamed {})",
        show(want.get(i)),
        show(got.get(i)),
        want.len(),
        got.len()
    ))
}

/// Sorts each run of errors at one offset by code.
fn sort_same_offset(errors: &mut [ParseError]) {
    for run in errors.chunk_by_mut(|a, b| a.offset == b.offset) {
        run.sort_by_key(|e| e.code);
    }
}

/// Checks `doc` fed as `config` says, with text coalesced and in pieces:
/// exactly.
pub fn check(doc: &[u8], config: &ChunkConfig) -> Result<(), String> {
    check_with(doc, config, Relax::default())
}

/// [`check`], but for what `relax` lets differ.
pub fn check_with(doc: &[u8], config: &ChunkConfig, relax: Relax) -> Result<(), String> {
    let input = String::from_utf8_lossy(doc);
    let last = if config.last_start_tag {
        first_end_tag_name(&input)
    } else {
        None
    };
    let (want, mut want_errors) = whole(&input, config, last.as_deref())?;
    if relax.errors_at_same_offset_in_any_order {
        sort_same_offset(&mut want_errors);
    }
    for coalesce in [true, false] {
        let mode = if coalesce {
            "coalesce_text(true)"
        } else {
            "coalesce_text(false)"
        };
        let (got, mut got_errors) =
            streamed(doc, config, last.as_deref(), coalesce).map_err(|e| format!("{mode}: {e}"))?;
        if relax.errors_at_same_offset_in_any_order {
            sort_same_offset(&mut got_errors);
        }
        let (want, got) = if coalesce {
            (want.clone(), got)
        } else {
            let want = merge_text(want.clone()).map_err(|e| format!("whole input: {e}"))?;
            let mut got = merge_text(got).map_err(|e| format!("{mode}: {e}"))?;
            trailing_dropped(&input, &want, &mut got);
            (want, got)
        };
        if let Some(d) = first_difference(&want, &got) {
            return Err(format!("{mode}: {d}"));
        }
        if want_errors != got_errors {
            let i = input::first_mismatch(&want_errors, &got_errors);
            return Err(format!(
                "{mode}: parse errors differ at {i}: whole {:?} / streamed {:?} \
                 (whole has {}, streamed {})",
                want_errors.get(i),
                got_errors.get(i),
                want_errors.len(),
                got_errors.len()
            ));
        }
    }
    Ok(())
}
