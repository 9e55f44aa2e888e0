//! The round-trip promise of `htmltok::serialize`, as a check: used by the
//! `roundtrip` fuzz target, `tests/roundtrip.rs` and `tests/regressions.rs`.
//!
//! For input `s` and a configuration (initial state, last start tag,
//! scripting; auto-switching on): tokens `T` of `s`, HTML `h` written for
//! `T` by a `Serializer` set up alike, tokens `T'` of `h` with the same
//! options. `T'` must equal `T` but for spans, once CR and CRLF in `T`'s
//! text and attribute values are turned into LF (the two exceptions the
//! module documents). And serializing `T'` must give `h` again.

use htmltok::bumpalo::Bump;
use htmltok::serialize::Serializer;
use htmltok::{Options, State, Token, Tokenizer};

use crate::input;
pub use crate::input::first_end_tag_name;

/// One round-trip configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundtripConfig {
    pub initial_state: State,
    pub last_start_tag: Option<String>,
    pub scripting: bool,
}

impl Default for RoundtripConfig {
    fn default() -> RoundtripConfig {
        RoundtripConfig {
            initial_state: State::Data,
            last_start_tag: None,
            scripting: true,
        }
    }
}

/// A token with what the round trip keeps (no spans), text coalesced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plain {
    Doctype(Option<String>, Option<String>, Option<String>, bool),
    /// end, name, attributes (name, value, duplicate), self-closing
    Tag(bool, String, Vec<(String, String, bool)>, bool),
    Comment(String),
    Text(String),
}

/// Input-stream newline normalization
/// ([preprocessing the input stream](https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream)): CRLF and CR become LF.
pub fn normalize_newlines(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// `tokens` as [`Plain`]s; with `newlines`, CRs in text and attribute
/// values normalized.
pub fn plain(tokens: &[Token<'_>], newlines: bool) -> Vec<Plain> {
    let nl = |s: &str| {
        if newlines {
            normalize_newlines(s)
        } else {
            s.to_owned()
        }
    };
    let mut out: Vec<Plain> = Vec::new();
    for t in tokens {
        let p = match t {
            Token::Doctype(d) => Plain::Doctype(
                d.name.map(str::to_owned),
                d.public_id.map(str::to_owned),
                d.system_id.map(str::to_owned),
                d.force_quirks,
            ),
            Token::StartTag(tag) | Token::EndTag(tag) => Plain::Tag(
                matches!(t, Token::EndTag(_)),
                tag.name.to_owned(),
                tag.attributes
                    .iter()
                    .map(|a| (a.name.to_owned(), nl(a.value), a.duplicate))
                    .collect(),
                tag.self_closing,
            ),
            Token::Comment(c) => Plain::Comment(c.data.to_owned()),
            Token::Text(text) => {
                let data = nl(text.data);
                if let Some(Plain::Text(prev)) = out.last_mut() {
                    prev.push_str(&data);
                    continue;
                }
                Plain::Text(data)
            }
        };
        out.push(p);
    }
    // CRLF split across two text tokens would not have been joined above;
    // coalesced text is normalized once more.
    if newlines {
        for p in &mut out {
            if let Plain::Text(t) = p {
                *t = normalize_newlines(t);
            }
        }
    }
    out
}

fn tokenize<'a>(input: &'a str, arena: &'a Bump, config: &RoundtripConfig) -> Vec<Token<'a>> {
    let opts = Options::default()
        .scripting(config.scripting)
        .initial_state(config.initial_state);
    let mut tok = Tokenizer::with_options(input, arena, opts);
    tok.set_last_start_tag(config.last_start_tag.as_deref());
    tok.collect()
}

fn serialize(tokens: &[Token<'_>], config: &RoundtripConfig) -> String {
    let mut ser = Serializer::new()
        .scripting(config.scripting)
        .initial_state(config.initial_state);
    let mut out = String::new();
    for t in tokens {
        ser.write(t, &mut out);
    }
    out
}

/// Checks the round trip of `input` under `config`.
pub fn check(input: &str, config: &RoundtripConfig) -> Result<(), String> {
    let arena = Bump::new();
    let tokens = tokenize(input, &arena, config);
    let html = serialize(&tokens, config);
    let again = tokenize(&html, &arena, config);
    let expected = plain(&tokens, true);
    let actual = plain(&again, false);
    if expected != actual {
        let i = input::first_mismatch(&expected, &actual);
        return Err(format!(
            "serialized as {html:?}, token {i} comes back as {:?}, expected {:?}",
            actual.get(i),
            expected.get(i)
        ));
    }
    // Serializing is a fixpoint: the tokens read back write the same HTML
    // (but for the CRs that were turned into LFs).
    let html2 = serialize(&again, config);
    if html2 != normalize_newlines(&html) {
        return Err(format!("serializing again gives {html2:?}, not {html:?}"));
    }
    Ok(())
}

/// The configurations the `roundtrip` fuzz target checks for `input`: every
/// initial state with scripting on, the data state with scripting off, and
/// the appropriate-end-tag states with the name of the input's first end
/// tag as the last start tag.
pub fn configs(input: &str) -> Vec<RoundtripConfig> {
    let first_end_tag = first_end_tag_name(input);
    let mut out = vec![RoundtripConfig {
        scripting: false,
        ..RoundtripConfig::default()
    }];
    for state in input::STATES {
        out.push(RoundtripConfig {
            initial_state: state,
            ..RoundtripConfig::default()
        });
        if matches!(state, State::Rcdata | State::Rawtext | State::ScriptData)
            && first_end_tag.is_some()
        {
            out.push(RoundtripConfig {
                initial_state: state,
                last_start_tag: first_end_tag.clone(),
                scripting: true,
            });
        }
    }
    out
}

/// Checks every configuration of [`configs`]; panics on the first failure.
pub fn check_all(input: &str) {
    for config in configs(input) {
        if let Err(e) = check(input, &config) {
            panic!("round trip broken for {input:?} with {config:?}: {e}");
        }
    }
}
