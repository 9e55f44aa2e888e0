//! What the benchmarks share: finding the corpus, and one function per
//! implementation that tokenizes a whole page and consumes every token,
//! plus three reference floors: a naive splitter that hands out htmltok's
//! tokens with none of the standard's rules ([`token_floor`]), and two scans
//! that build no tokens.
//!
//! Every implementation folds what it saw into [`Counts`] (number of tokens
//! of each kind and the byte lengths of names, values and text), so the
//! optimizer cannot drop any work and the results can be compared across
//! implementations as a sanity check of the setup (same content-model
//! switches, same tokens).
//!
//! Content-model switching: htmltok does it itself (auto-switch, the
//! default). The html5ever sink and the minimal html5gum emitter switch after
//! the same HTML start tags a tree builder would (`title`/`textarea` →
//! RCDATA; `style`, `xmp`, `iframe`, `noembed`, `noframes`, `noscript` →
//! RAWTEXT; `script` → script data; `plaintext` → PLAINTEXT); html5gum's
//! default emitter uses its own `naively_switch_states(true)`; lol_html
//! switches through its own tree-builder simulator.

#![allow(dead_code)] // each bench binary uses a different subset

use std::cell::{Cell, RefCell};
use std::convert::Infallible;
use std::path::PathBuf;

use htmltok::bumpalo::Bump;
use htmltok::{Options, Token};

pub mod token_floor;

/// What one run over a page saw. Comparable across implementations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Start tags.
    pub start_tags: u64,
    /// End tags.
    pub end_tags: u64,
    /// Attributes (on start and end tags).
    pub attrs: u64,
    /// Bytes of tag names, attribute names and attribute values.
    pub markup_bytes: u64,
    /// Text tokens (maximal runs; chunks for implementations that only
    /// give chunks).
    pub texts: u64,
    /// Bytes of text.
    pub text_bytes: u64,
    /// Comments, doctypes and other tokens.
    pub others: u64,
    /// Bytes of comment data and doctype names.
    pub other_bytes: u64,
    /// What a scanning reference floor tallies instead of tokens (those
    /// floors leave every other field 0, the tokenizers and
    /// [`run_token_floor`] leave this one 0): see [`run_lol_html_scan`] and
    /// [`run_memchr_floor`].
    pub floor: u64,
}

impl Counts {
    /// One number folding everything in.
    pub fn checksum(&self) -> u64 {
        [
            self.start_tags,
            self.end_tags,
            self.attrs,
            self.markup_bytes,
            self.texts,
            self.text_bytes,
            self.others,
            self.other_bytes,
            self.floor,
        ]
        .iter()
        .fold(0u64, |h, &x| h.rotate_left(7) ^ x)
    }
}

// ---------------------------------------------------------------------------
// Inputs

/// The corpus directory: `$HTMLTOK_CORPUS_DIR`, else `../shared/corpus`
/// relative to the workspace root (this crate is `benches/`).
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("HTMLTOK_CORPUS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
    }
}

/// Every `*.html` page of the corpus as `(stem, contents)`, sorted by name;
/// `None` (after printing a note) when the directory does not exist.
pub fn corpus_pages() -> Option<Vec<(String, String)>> {
    let dir = corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "note: corpus directory {} not found (set HTMLTOK_CORPUS_DIR); skipping the corpus pages",
            dir.display()
        );
        return None;
    };
    let mut pages: Vec<(String, String)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (stem, String::from_utf8_lossy(&bytes).into_owned())
        })
        .collect();
    pages.sort();
    Some(pages)
}

// ---------------------------------------------------------------------------
// Content-model switching for the peers that need to be told

/// The state a tree builder puts the tokenizer in after an HTML start tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switch {
    Rcdata,
    Rawtext,
    ScriptData,
    Plaintext,
}

/// The same list htmltok's auto-switch uses (scripting on).
#[inline]
pub fn switch_for(name: &[u8]) -> Option<Switch> {
    match name {
        b"title" | b"textarea" => Some(Switch::Rcdata),
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" | b"noscript" => {
            Some(Switch::Rawtext)
        }
        b"script" => Some(Switch::ScriptData),
        b"plaintext" => Some(Switch::Plaintext),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// htmltok

/// htmltok over `input` with `opts`, reusing `arena` (reset first).
#[inline(never)]
pub fn run_htmltok(input: &str, arena: &mut Bump, opts: &Options) -> Counts {
    arena.reset();
    let mut c = Counts::default();
    let mut tok = htmltok::Tokenizer::with_options(input, arena, opts.clone());
    for token in tok.by_ref() {
        c.add(&token);
    }
    // Parse errors (only collected with `errors(true)`) are not tokens.
    std::hint::black_box(tok.errors().len());
    c
}

/// [`run_htmltok`] through the push interface (`for_each_token`).
#[inline(never)]
pub fn run_htmltok_push(input: &str, arena: &mut Bump, opts: &Options) -> Counts {
    arena.reset();
    let mut c = Counts::default();
    let mut tok = htmltok::Tokenizer::with_options(input, arena, opts.clone());
    tok.for_each_token(|token| c.add(&token));
    std::hint::black_box(tok.errors().len());
    c
}

/// The extraction modes of the `extract` benches: `(id, options)`.
pub fn extract_modes() -> Vec<(&'static str, htmltok::extract::ExtractOptions)> {
    use htmltok::extract::ExtractOptions;
    let url = htmltok::url::Url::parse("https://example.com/dir/page.html").ok();
    let all = ExtractOptions::default().url(url);
    vec![
        ("text", all.clone().links(false).metadata(false)),
        (
            "main_content",
            all.clone().links(false).metadata(false).main_content(true),
        ),
        (
            "markdown",
            all.clone()
                .links(false)
                .metadata(false)
                .format(htmltok::extract::TextFormat::Markdown),
        ),
        ("links", all.clone().text(false).metadata(false)),
        ("metadata", all.clone().text(false).links(false)),
        ("all", all),
    ]
}

/// The options of the mode of [`extract_modes`] named `id`.
pub fn extract_mode(id: &str) -> htmltok::extract::ExtractOptions {
    extract_modes()
        .into_iter()
        .find(|(m, _)| *m == id)
        .expect("a mode")
        .1
}

/// Reads one corpus page, lossily as UTF-8 (an iai-callgrind setup: not
/// counted); empty, with a note, when it cannot be read.
pub fn corpus_page(file: &str) -> String {
    let path = corpus_dir().join(file);
    std::fs::read(&path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_else(|e| {
            eprintln!("note: {}: {e}; benchmarking empty input", path.display());
            String::new()
        })
}

/// An extractor that wants nothing: fed every token, it measures what
/// hooking one onto the push loop costs before it does any work.
pub fn extract_nothing() -> htmltok::extract::ExtractOptions {
    htmltok::extract::ExtractOptions::default()
        .text(false)
        .links(false)
        .metadata(false)
}

/// Extracts what `options` asks from `input` through an `Extractor` fed
/// by the push interface, as `extract::extract` does, reusing `arena`
/// (reset first); returns a checksum of the result.
#[inline(never)]
pub fn run_extract(
    input: &str,
    arena: &mut Bump,
    options: &htmltok::extract::ExtractOptions,
) -> u64 {
    arena.reset();
    let mut extractor = htmltok::extract::Extractor::new(options);
    // As `extract` does, and a caller that knows the page's length may.
    extractor.reserve_page(input.len());
    htmltok::Tokenizer::with_options(input, arena, options.tokenizer_options())
        .for_each_token(|token| extractor.token_in(&token, input));
    let found = extractor.finish();
    (found.text.len() + found.links.len() + found.metadata.meta.len()) as u64
}

/// The token-API reference floor ([`token_floor`]) over `input`, reusing
/// `arena` (reset first), its tokens consumed as [`run_htmltok`] consumes
/// htmltok's. Not a peer: its counts differ wherever the standard's rules
/// matter (scripts, references, doctypes).
#[inline(never)]
pub fn run_token_floor(input: &str, arena: &mut Bump) -> Counts {
    arena.reset();
    let mut c = Counts::default();
    for token in token_floor::TokenFloor::new(input, arena) {
        c.add(&token);
    }
    c
}

/// htmltok's byte entry point: encoding sniffing and (for valid UTF-8, a
/// copy-free) decode, then the tokens, as a crawler would call it.
#[inline(never)]
pub fn run_htmltok_bytes(bytes: &[u8], arena: &mut Bump) -> Counts {
    arena.reset();
    let mut c = Counts::default();
    for token in decoded(bytes).tokenizer(arena) {
        c.add(&token);
    }
    c
}

/// [`run_htmltok_bytes`] through the push interface
/// ([`htmltok::Tokenizer::for_each_token`]).
#[inline(never)]
pub fn run_htmltok_bytes_push(bytes: &[u8], arena: &mut Bump) -> Counts {
    arena.reset();
    let mut c = Counts::default();
    decoded(bytes)
        .tokenizer(arena)
        .for_each_token(|token| c.add(&token));
    c
}

/// `bytes` decoded as the byte entry point does, UTF-8 by default.
fn decoded(bytes: &[u8]) -> htmltok::Document<'_> {
    let opts = htmltok::DecodeOptions::default().default_encoding(htmltok::encoding_rs::UTF_8);
    htmltok::Document::from_bytes(bytes, &opts).expect("decodes")
}

/// htmltok's streaming API, fed `chunk`-byte pieces, the arena reset after
/// each chunk's tokens are consumed.
#[inline(never)]
pub fn run_htmltok_stream(bytes: &[u8], chunk: usize, arena: &mut Bump) -> Counts {
    let mut stream = htmltok::StreamTokenizer::new(htmltok::StreamOptions::default());
    let mut c = Counts::default();
    for piece in bytes.chunks(chunk) {
        arena.reset();
        for token in stream.feed(piece, arena).expect("no limit set") {
            c.add(&token);
        }
    }
    arena.reset();
    for token in stream.finish(arena).expect("not finished yet") {
        c.add(&token);
    }
    c
}

/// [`run_htmltok_stream`] through the push interface
/// ([`htmltok::Feed::for_each_token`]). Written out rather than sharing a
/// loop with it through a closure: that cost the iterator's version 8 M
/// instructions over the corpus (the stream's own figure moved 107.4 →
/// 115.8 M).
#[inline(never)]
pub fn run_htmltok_stream_push(bytes: &[u8], chunk: usize, arena: &mut Bump) -> Counts {
    let mut stream = htmltok::StreamTokenizer::new(htmltok::StreamOptions::default());
    let mut c = Counts::default();
    for piece in bytes.chunks(chunk) {
        arena.reset();
        stream
            .feed(piece, arena)
            .expect("no limit set")
            .for_each_token(|token| c.add(&token));
    }
    arena.reset();
    stream
        .finish(arena)
        .expect("not finished yet")
        .for_each_token(|token| c.add(&token));
    c
}

impl Counts {
    /// Counts one htmltok token.
    #[inline]
    fn add(&mut self, token: &Token<'_>) {
        let c = self;
        match token {
            Token::StartTag(t) | Token::EndTag(t) => {
                if matches!(token, Token::StartTag(_)) {
                    c.start_tags += 1;
                } else {
                    c.end_tags += 1;
                }
                c.markup_bytes += t.name.len() as u64;
                for a in t.attributes.iter() {
                    c.attrs += 1;
                    c.markup_bytes += (a.name.len() + a.value.len()) as u64;
                }
            }
            Token::Text(t) => {
                c.texts += 1;
                c.text_bytes += t.data.len() as u64;
            }
            Token::Comment(t) => {
                c.others += 1;
                c.other_bytes += t.data.len() as u64;
            }
            Token::Doctype(d) => {
                c.others += 1;
                c.other_bytes += d.name.map_or(0, str::len) as u64;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// html5ever (its tokenizer alone, with a sink that switches content model)

pub use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token as H5eToken, TokenSink, TokenSinkResult, Tokenizer as H5eTokenizer,
    TokenizerOpts,
};

/// A sink that consumes every token and, like a tree builder, switches the
/// tokenizer's content model after `<script>`, `<style>`, `<title>`, ….
#[derive(Default)]
pub struct H5eSink {
    counts: Cell<Counts>,
    /// Whether the last text token was characters, to count maximal runs
    /// like the other implementations (html5ever emits text in pieces).
    in_text: Cell<bool>,
}

impl TokenSink for H5eSink {
    type Handle = ();

    fn process_token(&self, token: H5eToken, _line: u64) -> TokenSinkResult<()> {
        let mut c = self.counts.get();
        let mut result = TokenSinkResult::Continue;
        let mut text = false;
        let mut parse_error = false;
        match token {
            H5eToken::TagToken(tag) => {
                if tag.kind == TagKind::StartTag {
                    c.start_tags += 1;
                    result = match switch_for(tag.name.as_bytes()) {
                        Some(Switch::Rcdata) => TokenSinkResult::RawData(RawKind::Rcdata),
                        Some(Switch::Rawtext) => TokenSinkResult::RawData(RawKind::Rawtext),
                        Some(Switch::ScriptData) => TokenSinkResult::RawData(RawKind::ScriptData),
                        Some(Switch::Plaintext) => TokenSinkResult::Plaintext,
                        None => TokenSinkResult::Continue,
                    };
                } else {
                    c.end_tags += 1;
                }
                c.markup_bytes += tag.name.len() as u64;
                for a in &tag.attrs {
                    c.attrs += 1;
                    c.markup_bytes += (a.name.local.len() + a.value.len()) as u64;
                }
            }
            H5eToken::CharacterTokens(s) => {
                text = true;
                c.text_bytes += s.len() as u64;
            }
            H5eToken::NullCharacterToken => {
                text = true;
                c.text_bytes += 1;
            }
            H5eToken::CommentToken(s) => {
                c.others += 1;
                c.other_bytes += s.len() as u64;
            }
            H5eToken::DoctypeToken(d) => {
                c.others += 1;
                c.other_bytes += d.name.as_ref().map_or(0, |n| n.len()) as u64;
            }
            H5eToken::ParseError(_) => parse_error = true,
            H5eToken::EOFToken => {}
        }
        if text && !self.in_text.get() {
            c.texts += 1;
        }
        // Parse errors arrive between characters; they don't end a text run.
        if !parse_error {
            self.in_text.set(text);
        }
        self.counts.set(c);
        result
    }
}

/// html5ever's tokenizer over `input` (a tendril made once; cloning it per
/// run is a reference count).
#[inline(never)]
pub fn run_html5ever(input: &StrTendril) -> Counts {
    let queue = BufferQueue::default();
    queue.push_back(input.clone());
    let tok = H5eTokenizer::new(H5eSink::default(), TokenizerOpts::default());
    let _ = tok.feed(&queue);
    tok.end();
    tok.sink.counts.get()
}

// ---------------------------------------------------------------------------
// html5gum with its default emitter (the token iterator)

/// html5gum's `Tokenizer` iterator with the default emitter, switching states
/// with its `naively_switch_states(true)`.
#[inline(never)]
pub fn run_html5gum(input: &str) -> Counts {
    let mut emitter = html5gum::DefaultEmitter::default();
    emitter.naively_switch_states(true);
    let mut c = Counts::default();
    for token in html5gum::Tokenizer::new_with_emitter(input, emitter) {
        let Ok(token) = token;
        match token {
            html5gum::Token::StartTag(t) => {
                c.start_tags += 1;
                c.markup_bytes += t.name.len() as u64;
                for (name, value) in &t.attributes {
                    c.attrs += 1;
                    c.markup_bytes += (name.len() + value.len()) as u64;
                }
            }
            html5gum::Token::EndTag(t) => {
                c.end_tags += 1;
                c.markup_bytes += t.name.len() as u64;
            }
            html5gum::Token::String(s) => {
                c.texts += 1;
                c.text_bytes += s.len() as u64;
            }
            html5gum::Token::Comment(s) => {
                c.others += 1;
                c.other_bytes += s.len() as u64;
            }
            html5gum::Token::Doctype(d) => {
                c.others += 1;
                c.other_bytes += d.name.len() as u64;
            }
            html5gum::Token::Error(_) => {}
        }
    }
    c
}

// ---------------------------------------------------------------------------
// html5gum with a minimal hand-written emitter

/// Reused buffers of the minimal html5gum emitter.
#[derive(Default)]
pub struct GumBuffers {
    counts: Counts,
    text: Vec<u8>,
    tag_name: Vec<u8>,
    is_end_tag: bool,
    last_start_tag: Vec<u8>,
    attr_name: Vec<u8>,
    attr_value: Vec<u8>,
    in_attr: bool,
    comment: Vec<u8>,
    doctype_name: Vec<u8>,
}

/// An html5gum [`Emitter`](html5gum::Emitter) that collects just tag names,
/// attribute names/values, text and comments into reused buffers, counts
/// them, reports no errors and switches state after the same start tags as
/// a tree builder would.
pub struct GumMinimal<'b>(pub &'b mut GumBuffers);

impl GumMinimal<'_> {
    #[inline]
    fn flush_text(&mut self) {
        let b = &mut *self.0;
        if !b.text.is_empty() {
            b.counts.texts += 1;
            b.counts.text_bytes += b.text.len() as u64;
            b.text.clear();
        }
    }

    #[inline]
    fn flush_attr(&mut self) {
        let b = &mut *self.0;
        if b.in_attr {
            b.counts.attrs += 1;
            b.counts.markup_bytes += (b.attr_name.len() + b.attr_value.len()) as u64;
            b.in_attr = false;
        }
    }

    #[inline]
    fn init_tag(&mut self, end: bool) {
        let b = &mut *self.0;
        b.tag_name.clear();
        b.is_end_tag = end;
        b.in_attr = false;
    }
}

impl html5gum::Emitter for GumMinimal<'_> {
    type Token = Infallible;

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.0.last_start_tag.clear();
        self.0
            .last_start_tag
            .extend_from_slice(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {
        self.flush_text();
    }

    fn emit_error(&mut self, _error: html5gum::Error) {}

    #[inline]
    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<Infallible> {
        None
    }

    fn emit_string(&mut self, c: &[u8]) {
        self.0.text.extend_from_slice(c);
    }

    fn init_start_tag(&mut self) {
        self.init_tag(false);
    }

    fn init_end_tag(&mut self) {
        self.init_tag(true);
    }

    fn init_comment(&mut self) {
        self.0.comment.clear();
    }

    fn emit_current_tag(&mut self) -> Option<html5gum::State> {
        self.flush_text();
        self.flush_attr();
        let b = &mut *self.0;
        b.counts.markup_bytes += b.tag_name.len() as u64;
        if b.is_end_tag {
            b.counts.end_tags += 1;
            b.last_start_tag.clear();
            None
        } else {
            b.counts.start_tags += 1;
            b.last_start_tag.clear();
            b.last_start_tag.extend_from_slice(&b.tag_name);
            switch_for(&b.tag_name).map(|s| match s {
                Switch::Rcdata => html5gum::State::RcData,
                Switch::Rawtext => html5gum::State::RawText,
                Switch::ScriptData => html5gum::State::ScriptData,
                Switch::Plaintext => html5gum::State::PlainText,
            })
        }
    }

    fn emit_current_comment(&mut self) {
        self.flush_text();
        let b = &mut *self.0;
        b.counts.others += 1;
        b.counts.other_bytes += b.comment.len() as u64;
    }

    fn emit_current_doctype(&mut self) {
        self.flush_text();
        let b = &mut *self.0;
        b.counts.others += 1;
        b.counts.other_bytes += b.doctype_name.len() as u64;
    }

    fn set_self_closing(&mut self) {}

    fn set_force_quirks(&mut self) {}

    fn push_tag_name(&mut self, s: &[u8]) {
        self.0.tag_name.extend_from_slice(s);
    }

    fn push_comment(&mut self, s: &[u8]) {
        self.0.comment.extend_from_slice(s);
    }

    fn push_doctype_name(&mut self, s: &[u8]) {
        self.0.doctype_name.extend_from_slice(s);
    }

    fn init_doctype(&mut self) {
        self.0.doctype_name.clear();
    }

    fn init_attribute(&mut self) {
        self.flush_attr();
        let b = &mut *self.0;
        b.attr_name.clear();
        b.attr_value.clear();
        b.in_attr = true;
    }

    fn push_attribute_name(&mut self, s: &[u8]) {
        self.0.attr_name.extend_from_slice(s);
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        self.0.attr_value.extend_from_slice(s);
    }

    fn set_doctype_public_identifier(&mut self, _value: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _value: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _s: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _s: &[u8]) {}

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        let b = &*self.0;
        b.is_end_tag && !b.last_start_tag.is_empty() && b.tag_name == b.last_start_tag
    }
}

/// html5gum with [`GumMinimal`], reusing `buffers`.
#[inline(never)]
pub fn run_html5gum_minimal(input: &str, buffers: &mut GumBuffers) -> Counts {
    buffers.counts = Counts::default();
    buffers.text.clear();
    buffers.last_start_tag.clear();
    let tok = html5gum::Tokenizer::new_with_emitter(input, GumMinimal(buffers));
    let Ok(()) = tok.finish();
    buffers.counts
}

// ---------------------------------------------------------------------------
// lol_html

/// lol_html with handlers on every element (tag name and every attribute
/// name and value), every text chunk, every comment and the doctype; the
/// rewritten output goes to a sink that only counts bytes.
#[inline(never)]
pub fn run_lol_html(input: &str) -> Counts {
    use lol_html::html_content::{Comment, Doctype, Element, TextChunk};
    use lol_html::{Settings, doc_comments, doc_text, doctype, element};

    let c = RefCell::new(Counts::default());
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler(element!("*", |el: &mut Element| {
            let mut c = c.borrow_mut();
            c.start_tags += 1;
            c.markup_bytes += el.tag_name().len() as u64;
            for a in el.attributes() {
                c.attrs += 1;
                c.markup_bytes += (a.name().len() + a.value().len()) as u64;
            }
            Ok(())
        }))
        .append_document_content_handler(doc_text!(|t: &mut TextChunk| {
            let mut c = c.borrow_mut();
            let s = t.as_str();
            if !s.is_empty() {
                c.texts += 1;
                c.text_bytes += s.len() as u64;
            }
            Ok(())
        }))
        .append_document_content_handler(doc_comments!(|k: &mut Comment| {
            let mut c = c.borrow_mut();
            c.others += 1;
            c.other_bytes += k.text().len() as u64;
            Ok(())
        }))
        .append_document_content_handler(doctype!(|d: &mut Doctype| {
            let mut c = c.borrow_mut();
            c.others += 1;
            c.other_bytes += d.name().map_or(0, |n| n.len()) as u64;
            Ok(())
        }));
    std::hint::black_box(rewrite_counting(settings, input));
    c.into_inner()
}

/// Runs a lol_html rewriter with `settings` over `input` into a sink that
/// only counts the bytes written out, and returns that count.
fn rewrite_counting(settings: lol_html::Settings<'_, '_>, input: &str) -> u64 {
    let out = Cell::new(0u64);
    let mut rewriter = lol_html::HtmlRewriter::new(settings, |chunk: &[u8]| {
        out.set(out.get() + chunk.len() as u64);
    });
    rewriter.write(input.as_bytes()).expect("lol_html write");
    rewriter.end().expect("lol_html end");
    out.get()
}

/// lol_html with no handlers at all (default `Settings` but
/// `with_strict(false)`, as in [`run_lol_html`]): it still scans the page
/// (and runs its tree-builder simulator) but builds no tokens, and passes
/// the input through to a sink that only counts bytes. A reference floor,
/// not a peer: [`Counts::floor`] is the output byte count (the input's
/// length, since nothing is rewritten), every other field is 0.
#[inline(never)]
pub fn run_lol_html_scan(input: &str) -> Counts {
    let settings = lol_html::Settings::new().with_strict(false);
    Counts {
        floor: rewrite_counting(settings, input),
        ..Counts::default()
    }
}

// ---------------------------------------------------------------------------
// memchr

/// `memchr::memchr_iter(b'<', …)` over the page, reading the byte after
/// each `<` (what a tokenizer looks at first). No tokenizer that finds its
/// tags can do less. A reference floor, not a peer: [`Counts::floor`] is
/// the number of `<`, every other field is 0; the bytes read are folded
/// into a `black_box`ed value so the reads stay.
#[inline(never)]
pub fn run_memchr_floor(input: &str) -> Counts {
    let bytes = input.as_bytes();
    let mut found = 0u64;
    let mut after = 0u8;
    for i in memchr::memchr_iter(b'<', bytes) {
        found += 1;
        after ^= bytes.get(i + 1).copied().unwrap_or(0);
    }
    std::hint::black_box(after);
    Counts {
        floor: found,
        ..Counts::default()
    }
}
