//! The invariants every token stream must satisfy, whatever the input and
//! options: used by the `tokenize` fuzz target and by `tests/regressions.rs`.
//!
//! For each configuration of [`configs`] (every initial state, auto-switching
//! on with scripting on and off, off with the foreign flag off and on, and
//! for the states that look for an appropriate end tag, no last start tag
//! and the name of the input's first end tag), [`check`] tokenizes the input
//! with errors off and on and checks:
//!
//! - the two runs give identical tokens (spans included), and at most
//!   `2 * len + 16` of them; the push interface (`for_each_token`), alone
//!   and after the iterator took half the tokens, gives the same tokens
//!   and errors as the iterator;
//! - every span is non-empty, in bounds, on character boundaries, and after
//!   the previous token's;
//! - the spans cover the whole input except for gaps made only of what the
//!   standard drops ([`allowed_gap`]);
//! - a tag's span starts with `<` (`</` for an end tag) and ends with `>`,
//!   its name span follows right after and its attributes' name and value
//!   spans lie inside it, in order, after the name; names are the
//!   lowercased source with NUL as U+FFFD, a tag's element is the one its
//!   name names (`Element::from_name`), and a value whose raw source has
//!   no `&`, CR or NUL is that source;
//! - comments and DOCTYPEs start with `<` and end with `>` unless cut by
//!   the end of the input;
//! - text is never empty;
//! - every string that points into the input lies inside its source: a
//!   borrowed tag or attribute name or attribute value *is* its span, any
//!   other borrowed string lies inside its token's span;
//! - parse error offsets are within the input.

use htmltok::bumpalo::Bump;
use htmltok::{Element, Options, Span, State, Tag, Token, Tokenizer};

use crate::input;
pub use crate::input::{STATES, first_end_tag_name};

/// One way to run the tokenizer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    pub initial_state: State,
    pub auto_switch: bool,
    /// With auto-switching on: whether scripting is on.
    pub scripting: bool,
    /// With auto-switching off: the value given to `set_foreign`.
    pub foreign: bool,
    pub last_start_tag: Option<String>,
}

/// Every configuration [`check_all`] runs for `input`.
pub fn configs(input: &str) -> Vec<RunConfig> {
    let end_tag = first_end_tag_name(input);
    let mut out = Vec::new();
    for state in STATES {
        let mut last_tags = vec![None];
        if matches!(state, State::Rcdata | State::Rawtext | State::ScriptData) && end_tag.is_some()
        {
            last_tags.push(end_tag.clone());
        }
        for last_start_tag in last_tags {
            for (auto_switch, flag) in [(true, true), (true, false), (false, false), (false, true)]
            {
                out.push(RunConfig {
                    initial_state: state,
                    auto_switch,
                    scripting: !auto_switch || flag,
                    foreign: !auto_switch && flag,
                    last_start_tag: last_start_tag.clone(),
                });
            }
        }
    }
    out
}

/// Checks `input` under every configuration; panics with the input, the
/// configuration and the broken invariant.
pub fn check_all(input: &str) {
    for config in configs(input) {
        if let Err(e) = check(input, &config) {
            panic!("invariant broken for {input:?} with {config:?}: {e}");
        }
    }
}

/// A tokenizer over `input` set up as `config` says.
fn tokenizer<'a>(
    input: &'a str,
    arena: &'a Bump,
    config: &RunConfig,
    errors: bool,
) -> Tokenizer<'a> {
    let opts = Options::default()
        .auto_switch(config.auto_switch)
        .scripting(config.scripting)
        .errors(errors)
        .initial_state(config.initial_state);
    let mut tok = Tokenizer::with_options(input, arena, opts);
    tok.set_last_start_tag(config.last_start_tag.as_deref());
    if !config.auto_switch {
        tok.set_foreign(config.foreign);
    }
    tok
}

/// The most tokens an input can make (a runaway tokenizer makes more).
fn token_cap(input: &str) -> usize {
    2 * input.len() + 16
}

fn run<'a>(
    input: &'a str,
    arena: &'a Bump,
    config: &RunConfig,
    errors: bool,
) -> Result<(Vec<Token<'a>>, Vec<htmltok::ParseError>), String> {
    let mut tok = tokenizer(input, arena, config, errors);
    let cap = token_cap(input);
    let tokens: Vec<Token<'a>> = tok.by_ref().take(cap + 1).collect();
    if tokens.len() > cap {
        return Err(format!("runaway: more than {cap} tokens"));
    }
    Ok((tokens, tok.take_errors()))
}

/// [`run`] with errors on through the push interface, after taking the
/// first `first` tokens through the iterator (so the two interfaces are
/// checked apart and mixed).
fn run_push<'a>(
    input: &'a str,
    arena: &'a Bump,
    config: &RunConfig,
    first: usize,
) -> Result<(Vec<Token<'a>>, Vec<htmltok::ParseError>), String> {
    let mut tok = tokenizer(input, arena, config, true);
    let cap = token_cap(input);
    let mut tokens: Vec<Token<'a>> = tok.by_ref().take(first).collect();
    tok.for_each_token(|t| {
        if tokens.len() <= cap {
            tokens.push(t);
        }
    });
    if tokens.len() > cap {
        return Err(format!(
            "runaway through the push interface: more than {cap} tokens"
        ));
    }
    Ok((tokens, tok.take_errors()))
}

/// Checks every invariant for one configuration.
pub fn check(input: &str, config: &RunConfig) -> Result<(), String> {
    let arena = Bump::new();
    let (tokens, no_errors) = run(input, &arena, config, false)?;
    let (with_errors, errors) = run(input, &arena, config, true)?;
    // The push interface, alone and after the iterator took half the
    // tokens, gives the same tokens and errors.
    for first in [0, tokens.len() / 2] {
        let (pushed, push_errors) = run_push(input, &arena, config, first)?;
        if pushed != with_errors || push_errors != errors {
            let i = input::first_mismatch(&with_errors, &pushed);
            return Err(format!(
                "the push interface (after {first} tokens from the iterator) differs at \
                 token {i}: iterator {:?} / push {:?}; errors {} / {}",
                with_errors.get(i),
                pushed.get(i),
                errors.len(),
                push_errors.len()
            ));
        }
    }
    if !no_errors.is_empty() {
        return Err(format!("errors reported with errors off: {no_errors:?}"));
    }
    if tokens != with_errors {
        let i = input::first_mismatch(&tokens, &with_errors);
        return Err(format!(
            "tokens differ with errors on, at token {i}: off {:?} / on {:?}",
            tokens.get(i),
            with_errors.get(i)
        ));
    }
    for e in &errors {
        if e.offset > input.len() {
            return Err(format!("error {e:?} beyond the input"));
        }
    }
    let mut covered = 0;
    for (i, token) in tokens.iter().enumerate() {
        let span = token.span();
        check_span(input, span).map_err(|e| format!("token {i} {token:?}: {e}"))?;
        if span.start < covered {
            return Err(format!(
                "token {i} {token:?} starts before the previous token ends ({covered})"
            ));
        }
        let gap = &input[covered..span.start];
        if !allowed_gap(gap, covered == 0, false, config.initial_state) {
            return Err(format!(
                "gap {covered}..{} {gap:?} before token {i} {token:?} is not something the standard drops",
                span.start
            ));
        }
        check_token(input, token).map_err(|e| format!("token {i} {token:?}: {e}"))?;
        covered = span.end;
    }
    let gap = &input[covered..];
    if !allowed_gap(gap, covered == 0, true, config.initial_state) {
        return Err(format!(
            "gap {covered}..{} {gap:?} at the end is not something the standard drops",
            input.len()
        ));
    }
    Ok(())
}

fn check_span(input: &str, span: Span) -> Result<(), String> {
    if span.start >= span.end {
        return Err(format!("empty or reversed span {span:?}"));
    }
    if span.end > input.len() {
        return Err(format!("span {span:?} beyond the input ({})", input.len()));
    }
    if !input.is_char_boundary(span.start) || !input.is_char_boundary(span.end) {
        return Err(format!("span {span:?} not on character boundaries"));
    }
    Ok(())
}

/// Whether `gap`, a stretch of the input covered by no token, is made only
/// of what the standard drops without a token:
///
/// - `</>` (missing-end-tag-name: no token at all);
/// - an empty CDATA section `<![CDATA[]]>` (no characters, so no token);
/// - at the start, in the CDATA section state, the `]]>` that ends an empty
///   section;
/// - at the end, a tag cut by the end of the input (eof-in-tag drops it:
///   `<` or `</` then an ASCII letter, then anything), or a CDATA section
///   opened and cut at once (`<![CDATA[` then nothing).
///
/// Anywhere else, characters always make a token: text swallows everything
/// between two tokens, dropped constructs included, so a gap can only
/// occur where no character token was pending.
pub fn allowed_gap(gap: &str, at_start: bool, at_end: bool, initial: State) -> bool {
    let mut g = gap;
    if at_start && initial == State::CdataSection {
        g = g.strip_prefix("]]>").unwrap_or(g);
    }
    loop {
        if let Some(rest) = g.strip_prefix("</>") {
            g = rest;
        } else if let Some(rest) = g.strip_prefix("<![CDATA[]]>") {
            g = rest;
        } else {
            break;
        }
    }
    if g.is_empty() {
        return true;
    }
    if !at_end {
        return false;
    }
    let b = g.as_bytes();
    let tag_start = match b {
        [b'<', b'/', c, ..] | [b'<', c, ..] => c.is_ascii_alphabetic(),
        _ => false,
    };
    tag_start || g == "<![CDATA["
}

/// Where `s` starts in `input`, if it is a slice of it.
fn borrowed_at(input: &str, s: &str) -> Option<usize> {
    let base = input.as_ptr() as usize;
    let p = s.as_ptr() as usize;
    (p >= base && p + s.len() <= base + input.len() && !s.is_empty()).then(|| p - base)
}

/// A borrowed string must be exactly `input[span]`.
fn check_exact(input: &str, what: &str, s: &str, span: Span) -> Result<(), String> {
    if let Some(at) = borrowed_at(input, s)
        && (at != span.start || s.len() != span.len())
    {
        return Err(format!(
            "{what} {s:?} is borrowed from {at}..{} but its span is {span:?}",
            at + s.len()
        ));
    }
    Ok(())
}

/// A borrowed string must lie inside `span`.
fn check_inside(input: &str, what: &str, s: &str, span: Span) -> Result<(), String> {
    if let Some(at) = borrowed_at(input, s)
        && (at < span.start || at + s.len() > span.end)
    {
        return Err(format!(
            "{what} {s:?} is borrowed from {at}..{}, outside its span {span:?}",
            at + s.len()
        ));
    }
    Ok(())
}

/// The source of a name as the tokenizer must turn it into a name.
fn expected_name(raw: &str) -> String {
    raw.to_ascii_lowercase().replace('\0', "\u{FFFD}")
}

fn inside(inner: Span, outer: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

fn check_token(input: &str, token: &Token<'_>) -> Result<(), String> {
    let span = token.span();
    let src = &input[span.range()];
    let cut_by_eof = span.end == input.len();
    match token {
        Token::StartTag(tag) => check_tag(input, tag, false),
        Token::EndTag(tag) => check_tag(input, tag, true),
        Token::Comment(c) => {
            if !src.starts_with('<') || !(src.ends_with('>') || cut_by_eof) {
                return Err("a comment must start with `<` and end with `>`".into());
            }
            check_inside(input, "comment data", c.data, span)
        }
        Token::Doctype(d) => {
            if !src
                .get(..9)
                .is_some_and(|s| s.eq_ignore_ascii_case("<!doctype"))
                || !(src.ends_with('>') || cut_by_eof)
            {
                return Err("a DOCTYPE must start with `<!DOCTYPE` and end with `>`".into());
            }
            for (what, s) in [
                ("name", d.name),
                ("public id", d.public_id),
                ("system id", d.system_id),
            ] {
                if let Some(s) = s {
                    check_inside(input, what, s, span)?;
                }
            }
            Ok(())
        }
        Token::Text(t) => {
            if t.data.is_empty() {
                return Err("empty text".into());
            }
            check_inside(input, "text", t.data, span)
        }
    }
}

fn check_tag(input: &str, tag: &Tag<'_>, end: bool) -> Result<(), String> {
    let span = tag.span;
    let src = &input[span.range()];
    let open = if end { "</" } else { "<" };
    if !src.starts_with(open) || !src.ends_with('>') {
        return Err(format!("a tag must start with `{open}` and end with `>`"));
    }
    if tag.name_span.start != span.start + open.len() || !inside(tag.name_span, span) {
        return Err(format!(
            "name span {:?} does not follow `{open}`",
            tag.name_span
        ));
    }
    let raw_name = &input[tag.name_span.range()];
    if tag.name != expected_name(raw_name) {
        return Err(format!(
            "name {:?} is not {raw_name:?} lowercased",
            tag.name
        ));
    }
    check_exact(input, "tag name", tag.name, tag.name_span)?;
    if tag.element != Element::from_name(tag.name) {
        return Err(format!(
            "element {:?} is not that of {:?}",
            tag.element, tag.name
        ));
    }
    let mut after = tag.name_span.end;
    for (i, a) in tag.attributes.iter().enumerate() {
        let what = format!("attribute {i} ({:?})", a.name);
        if a.name_span.start < after || !inside(a.name_span, span) || a.name_span.is_empty() {
            return Err(format!(
                "{what}: name span {:?} not inside the tag after {after}",
                a.name_span
            ));
        }
        let raw_name = &input[a.name_span.range()];
        if a.name != expected_name(raw_name) {
            return Err(format!("{what}: name is not {raw_name:?} lowercased"));
        }
        check_exact(input, "attribute name", a.name, a.name_span)?;
        after = a.name_span.end;
        match a.value_span {
            None => {
                if !a.value.is_empty() {
                    return Err(format!(
                        "{what}: a value {:?} without a value span",
                        a.value
                    ));
                }
            }
            Some(v) => {
                if v.start < after || !inside(v, span) {
                    return Err(format!(
                        "{what}: value span {v:?} not inside the tag after its name"
                    ));
                }
                let raw = &input[v.range()];
                if !raw.contains(['&', '\r', '\0']) && a.value != raw {
                    return Err(format!(
                        "{what}: value {:?} differs from its plain source {raw:?}",
                        a.value
                    ));
                }
                check_exact(input, "attribute value", a.value, v)?;
                after = v.end;
            }
        }
        let first = tag.attributes[..i].iter().any(|b| b.name == a.name);
        if a.duplicate != first {
            return Err(format!("{what}: duplicate flag is {}", a.duplicate));
        }
    }
    Ok(())
}
