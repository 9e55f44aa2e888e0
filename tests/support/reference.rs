//! html5ever as a reference tokenizer: the two sides of the differential
//! test (`tests/differential.rs`) and of the `differential` fuzz target
//! (`fuzz/fuzz_targets/differential.rs`).
//!
//! Both tokenizers get the same input, initial state, last start tag and
//! "adjusted current node is foreign" flag, and the same content-model
//! switching after start tags (the part of a tree builder that changes
//! tokenization; see [`switch_after`]). Their tokens are converted to
//! [`RefToken`]s — text coalesced, duplicate attributes left out (html5ever
//! drops them, htmltok keeps them flagged) — and compared whole.
//!
//! Where html5ever deviates from the current standard, [`normalize`]
//! rewrites that one construct (see its documentation); everything else
//! must be equal.

use std::cell::RefCell;
use std::fmt;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::{self as h5states, RawKind};
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token as H5Token, TokenSink, TokenSinkResult, Tokenizer as H5Tokenizer,
    TokenizerOpts,
};
use htmltok::bumpalo::Bump;
use htmltok::{Options, State, Token, Tokenizer};

pub use crate::input::first_end_tag_name;

/// A token as both sides can express it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefToken {
    /// A DOCTYPE.
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
        force_quirks: bool,
    },
    /// A start or end tag: its name, its attributes in source order without
    /// duplicates, and its self-closing flag.
    Tag {
        end: bool,
        name: String,
        attrs: Vec<(String, String)>,
        self_closing: bool,
    },
    /// A comment.
    Comment(String),
    /// Character tokens, adjacent ones coalesced.
    Text(String),
}

impl fmt::Display for RefToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefToken::Doctype {
                name,
                public_id,
                system_id,
                force_quirks,
            } => write!(
                f,
                "DOCTYPE name={name:?} public={public_id:?} system={system_id:?} force_quirks={force_quirks}"
            ),
            RefToken::Tag {
                end,
                name,
                attrs,
                self_closing,
            } => {
                write!(f, "{}{name:?}", if *end { "EndTag " } else { "StartTag " })?;
                for (n, v) in attrs {
                    write!(f, " {n:?}={v:?}")?;
                }
                if *self_closing {
                    write!(f, " /")?;
                }
                Ok(())
            }
            RefToken::Comment(c) => write!(f, "Comment {c:?}"),
            RefToken::Text(t) => write!(f, "Text {t:?}"),
        }
    }
}

/// How both tokenizers are set up for one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The state to start in.
    pub initial_state: State,
    /// The tag name of the last start tag emitted, before the input starts.
    pub last_start_tag: Option<String>,
    /// Whether the adjusted current node is in a foreign namespace, for the
    /// whole run (it decides whether `<![CDATA[` opens a CDATA section).
    pub foreign: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            initial_state: State::Data,
            last_start_tag: None,
            foreign: false,
        }
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?}, last start tag {:?}, foreign {}",
            self.initial_state, self.last_start_tag, self.foreign
        )
    }
}

/// The content model a tree builder switches to after an HTML start tag
/// with this (lowercase) name (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody) and friends; scripting
/// off, so `<noscript>` stays data). Both sides apply it after every start
/// tag, self-closing or not.
pub fn switch_after(name: &str) -> Option<State> {
    Some(match name {
        "script" => State::ScriptData,
        "style" | "xmp" | "iframe" | "noembed" | "noframes" => State::Rawtext,
        "title" | "textarea" => State::Rcdata,
        "plaintext" => State::Plaintext,
        _ => return None,
    })
}

/// The configurations that make sense for `input` in a differential run:
/// the data state (HTML and foreign content), and each other initial state
/// with the last start tag taken from the first end tag of the input, so
/// that appropriate end tags can occur.
pub fn configs_for(input: &str) -> Vec<Config> {
    let last = first_end_tag_name(input);
    vec![
        Config::default(),
        Config {
            foreign: true,
            ..Config::default()
        },
        Config {
            initial_state: State::Rcdata,
            last_start_tag: last.clone(),
            foreign: false,
        },
        Config {
            initial_state: State::Rawtext,
            last_start_tag: last.clone(),
            foreign: false,
        },
        Config {
            initial_state: State::ScriptData,
            last_start_tag: last,
            foreign: false,
        },
        Config {
            initial_state: State::Plaintext,
            ..Config::default()
        },
        Config {
            initial_state: State::CdataSection,
            foreign: true,
            ..Config::default()
        },
    ]
}

/// Appends `token`, merging it into the previous one when both are text.
pub fn push_coalesced(out: &mut Vec<RefToken>, token: RefToken) {
    if let (RefToken::Text(t), Some(RefToken::Text(prev))) = (&token, out.last_mut()) {
        prev.push_str(t);
        return;
    }
    out.push(token);
}

/// Converts one htmltok token (duplicate attributes left out).
pub fn from_htmltok(token: &Token<'_>) -> RefToken {
    match token {
        Token::Doctype(d) => RefToken::Doctype {
            name: d.name.map(str::to_owned),
            public_id: d.public_id.map(str::to_owned),
            system_id: d.system_id.map(str::to_owned),
            force_quirks: d.force_quirks,
        },
        Token::StartTag(t) | Token::EndTag(t) => RefToken::Tag {
            end: matches!(token, Token::EndTag(_)),
            name: t.name.to_owned(),
            attrs: t
                .attrs()
                .map(|a| (a.name.to_owned(), a.value.to_owned()))
                .collect(),
            self_closing: t.self_closing,
        },
        Token::Comment(c) => RefToken::Comment(c.data.to_owned()),
        Token::Text(t) => RefToken::Text(t.data.to_owned()),
    }
}

/// Converts htmltok tokens, coalescing text.
pub fn from_htmltok_tokens<'a>(tokens: impl IntoIterator<Item = &'a Token<'a>>) -> Vec<RefToken> {
    let mut out = Vec::new();
    for t in tokens {
        push_coalesced(&mut out, from_htmltok(t));
    }
    out
}

/// htmltok's tokens for `input` under `config`, driven as a tree builder
/// would (auto-switching off, [`switch_after`] applied).
///
/// # Panics
///
/// If the tokenizer yields implausibly many tokens (a runaway loop).
pub fn htmltok_tokens(input: &str, config: &Config) -> Vec<RefToken> {
    let arena = Bump::new();
    let opts = Options::default()
        .auto_switch(false)
        .initial_state(config.initial_state);
    let mut tok = Tokenizer::with_options(input, &arena, opts);
    tok.set_last_start_tag(config.last_start_tag.as_deref());
    tok.set_foreign(config.foreign);
    let cap = 2 * input.len() + 16;
    let mut out = Vec::new();
    let mut count = 0;
    while let Some(token) = tok.next() {
        count += 1;
        assert!(count <= cap, "runaway tokenizer: more than {cap} tokens");
        if let Some(state) = match &token {
            Token::StartTag(tag) => switch_after(tag.name),
            _ => None,
        } {
            tok.set_state(state);
        }
        push_coalesced(&mut out, from_htmltok(&token));
    }
    out
}

/// The html5ever side: collects tokens, and answers as a tree builder would.
struct Sink {
    tokens: RefCell<Vec<RefToken>>,
    foreign: bool,
}

fn tendril(s: &Option<StrTendril>) -> Option<String> {
    s.as_ref().map(|t| t.to_string())
}

/// Appends one of html5ever's tokens to `out` as a [`RefToken`], text
/// coalesced; parse errors and the end of file add nothing. Shared with
/// the tree-builder oracle (`tree_oracle.rs`), which records the tokens
/// html5ever's tokenizer hands its tree builder.
pub fn record_html5ever(out: &mut Vec<RefToken>, token: &H5Token) {
    match token {
        H5Token::DoctypeToken(d) => out.push(RefToken::Doctype {
            name: tendril(&d.name),
            public_id: tendril(&d.public_id),
            system_id: tendril(&d.system_id),
            force_quirks: d.force_quirks,
        }),
        H5Token::TagToken(tag) => out.push(RefToken::Tag {
            end: tag.kind == TagKind::EndTag,
            name: tag.name.to_string(),
            attrs: tag
                .attrs
                .iter()
                .map(|a| (a.name.local.to_string(), a.value.to_string()))
                .collect(),
            self_closing: tag.self_closing,
        }),
        H5Token::CommentToken(c) => out.push(RefToken::Comment(c.to_string())),
        H5Token::CharacterTokens(t) => push_coalesced(out, RefToken::Text(t.to_string())),
        H5Token::NullCharacterToken => push_coalesced(out, RefToken::Text("\0".to_owned())),
        H5Token::EOFToken | H5Token::ParseError(_) => {}
    }
}

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: H5Token, _line: u64) -> TokenSinkResult<()> {
        record_html5ever(&mut self.tokens.borrow_mut(), &token);
        if let H5Token::TagToken(tag) = &token
            && tag.kind == TagKind::StartTag
        {
            return match switch_after(&tag.name) {
                Some(State::ScriptData) => TokenSinkResult::RawData(RawKind::ScriptData),
                Some(State::Rawtext) => TokenSinkResult::RawData(RawKind::Rawtext),
                Some(State::Rcdata) => TokenSinkResult::RawData(RawKind::Rcdata),
                Some(State::Plaintext) => TokenSinkResult::Plaintext,
                _ => TokenSinkResult::Continue,
            };
        }
        TokenSinkResult::Continue
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.foreign
    }
}

fn h5_state(state: State) -> h5states::State {
    match state {
        State::Data => h5states::Data,
        State::Rcdata => h5states::RawData(RawKind::Rcdata),
        State::Rawtext => h5states::RawData(RawKind::Rawtext),
        State::ScriptData => h5states::RawData(RawKind::ScriptData),
        State::Plaintext => h5states::Plaintext,
        State::CdataSection => h5states::CdataSection,
    }
}

/// html5ever's tokens for `input` under `config` (BOM kept: the tokenizer
/// of the standard does not strip it, decoding does).
pub fn html5ever_tokens(input: &str, config: &Config) -> Vec<RefToken> {
    let sink = Sink {
        tokens: RefCell::new(Vec::new()),
        foreign: config.foreign,
    };
    let opts = TokenizerOpts {
        discard_bom: false,
        initial_state: Some(h5_state(config.initial_state)),
        last_start_tag_name: config.last_start_tag.clone(),
        ..TokenizerOpts::default()
    };
    let tok = H5Tokenizer::new(sink, opts);
    let queue = BufferQueue::default();
    if !input.is_empty() {
        queue.push_back(StrTendril::from_slice(input));
    }
    while let html5ever::TokenizerResult::Script(()) = tok.feed(&queue) {}
    tok.end();
    tok.sink.tokens.take()
}

/// Rewrites, in html5ever's tokens, the constructs where html5ever
/// deviates from the current standard, so that what remains must equal
/// htmltok's tokens exactly. Each is shown on a minimal input by a check in
/// `tests/differential.rs`, which fails once html5ever stops deviating.
///
/// 1. **Empty CDATA sections** (the [CDATA section state](https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-state)
///    and the two after it). html5ever gathers a section's characters in its
///    temporary buffer and emits the buffer at `]]>` and at EOF even when
///    it is empty: a `CharacterTokens("")` holding no character. The
///    standard emits one character token per character, so an empty section
///    produces no token at all. Normalized: html5ever's text tokens with no
///    characters are dropped (an empty text can only come from there; text
///    with characters is never touched).
pub fn normalize(_input: &str, _config: &Config, tokens: Vec<RefToken>) -> Vec<RefToken> {
    let mut out: Vec<RefToken> = Vec::with_capacity(tokens.len());
    for token in tokens {
        if matches!(&token, RefToken::Text(t) if t.is_empty()) {
            continue;
        }
        push_coalesced(&mut out, token);
    }
    out
}

/// Where the two token streams first differ.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// Index of the first differing token.
    pub index: usize,
    /// htmltok's token there (`None`: its stream ended).
    pub htmltok: Option<RefToken>,
    /// html5ever's token there, after [`normalize`].
    pub html5ever: Option<RefToken>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show =
            |t: &Option<RefToken>| t.as_ref().map_or("(end)".to_owned(), ToString::to_string);
        write!(
            f,
            "token {}: htmltok {} / html5ever {}",
            self.index,
            show(&self.htmltok),
            show(&self.html5ever)
        )
    }
}

/// The first difference between two token lists.
pub fn first_difference(ours: &[RefToken], theirs: &[RefToken]) -> Option<Mismatch> {
    let n = ours.len().max(theirs.len());
    (0..n)
        .find(|&i| ours.get(i) != theirs.get(i))
        .map(|index| Mismatch {
            index,
            htmltok: ours.get(index).cloned(),
            html5ever: theirs.get(index).cloned(),
        })
}

/// Runs both tokenizers on `input` under `config` and compares them.
pub fn compare(input: &str, config: &Config) -> Result<(), Box<Mismatch>> {
    let ours = htmltok_tokens(input, config);
    let theirs = normalize(input, config, html5ever_tokens(input, config));
    match first_difference(&ours, &theirs) {
        None => Ok(()),
        Some(m) => Err(Box::new(m)),
    }
}
