//! `htmltok tokens`: the tokens (and parse errors) of each input, as JSON
//! Lines for people or in the html5lib-tests form.

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{Attribute, LineIndex, Options, ParseError, Span, Tag, Token, Tokenizer};
use serde_json::{Map, Value, json};

use crate::input::LoadOptions;
use crate::run::{Job, Page};
use crate::{Format, TokensArgs};

/// Runs `htmltok tokens`.
pub fn run(args: &TokensArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let mut out = crate::stdout();
    let result = crate::run::run(
        &Tokens { args },
        &inputs,
        &args.input.settings(),
        &mut out,
        |_, ()| {},
    );
    crate::exit_status(result)
}

/// `htmltok tokens` as a [`Job`].
struct Tokens<'a> {
    args: &'a TokensArgs,
}

impl Job for Tokens<'_> {
    type Summary = ();

    /// The tokenizer's contract: any input is tokenized as it is (empty
    /// inputs, fragments, NULs), none is refused as "not a page".
    fn load_options(&self) -> LoadOptions {
        LoadOptions { check: false }
    }

    fn process<W: Write>(&self, page: &Page<'_>, out: &mut W) -> io::Result<()> {
        let args = self.args;
        let mut tok = Tokenizer::with_options(page.text, page.arena, options(args));
        if let Some(name) = &args.last_start_tag {
            tok.set_last_start_tag(Some(name));
        }
        match args.format {
            Format::Json => write_json(out, page.name, &mut tok, args.errors),
            Format::Html5lib => write_html5lib(out, &mut tok, args.errors),
        }
    }
}

/// The tokenizer options the arguments ask for.
fn options(args: &TokensArgs) -> Options {
    Options::default()
        .auto_switch(!args.no_auto_switch)
        .errors(args.errors)
        .initial_state(args.state.into())
}

/// Writes one JSON value and a newline.
pub fn write_line(out: &mut impl Write, value: &Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

// ---------------------------------------------------------------------------
// --format json
// ---------------------------------------------------------------------------

/// One line per token, then (with `errors`) one per parse error.
fn write_json(
    out: &mut impl Write,
    file: &str,
    tok: &mut Tokenizer<'_>,
    errors: bool,
) -> io::Result<()> {
    for token in tok.by_ref() {
        write_line(out, &token_json(file, &token))?;
    }
    if errors {
        let index = LineIndex::new(tok.input());
        for error in tok.errors() {
            write_line(out, &error_json(file, error, &index))?;
        }
    }
    Ok(())
}

pub fn span_json(span: Span) -> Value {
    json!([span.start, span.end])
}

/// The kind of a token as the JSON format names it.
pub fn kind(token: &Token<'_>) -> &'static str {
    match token {
        Token::Doctype(_) => "doctype",
        Token::StartTag(_) => "start_tag",
        Token::EndTag(_) => "end_tag",
        Token::Comment(_) => "comment",
        Token::Text(_) => "text",
    }
}

fn token_json(file: &str, token: &Token<'_>) -> Value {
    let kind = kind(token);
    match token {
        Token::Doctype(d) => json!({
            "file": file,
            "kind": kind,
            "name": d.name,
            "public_id": d.public_id,
            "system_id": d.system_id,
            "force_quirks": d.force_quirks,
            "span": span_json(d.span),
        }),
        Token::StartTag(t) | Token::EndTag(t) => tag_json(file, kind, t),
        Token::Comment(c) => json!({
            "file": file,
            "kind": kind,
            "data": c.data,
            "span": span_json(c.span),
        }),
        Token::Text(t) => json!({
            "file": file,
            "kind": kind,
            "data": t.data,
            "span": span_json(t.span),
        }),
    }
}

fn tag_json(file: &str, kind: &str, tag: &Tag<'_>) -> Value {
    let attributes: Vec<Value> = tag.attributes.iter().map(attribute_json).collect();
    json!({
        "file": file,
        "kind": kind,
        "name": tag.name,
        "name_span": span_json(tag.name_span),
        "attributes": attributes,
        "self_closing": tag.self_closing,
        "span": span_json(tag.span),
    })
}

fn attribute_json(attr: &Attribute<'_>) -> Value {
    json!({
        "name": attr.name,
        "value": attr.value,
        "name_span": span_json(attr.name_span),
        "value_span": attr.value_span.map(span_json),
        "duplicate": attr.duplicate,
    })
}

pub fn error_json(file: &str, error: &ParseError, index: &LineIndex<'_>) -> Value {
    let (line, col) = index.line_col(error.offset);
    json!({
        "file": file,
        "error": error.code.as_str(),
        "offset": error.offset,
        "line": line,
        "col": col,
    })
}

// ---------------------------------------------------------------------------
// --format html5lib
// ---------------------------------------------------------------------------

/// One line: `{"output": [...], "errors": [...]}` (errors only when asked).
fn write_html5lib(out: &mut impl Write, tok: &mut Tokenizer<'_>, errors: bool) -> io::Result<()> {
    let mut object = Map::new();
    object.insert("output".into(), html5lib_tokens(tok.by_ref()).into());
    if errors {
        let index = LineIndex::new(tok.input());
        let list: Vec<Value> = tok
            .errors()
            .iter()
            .map(|e| html5lib_error(e, &index))
            .collect();
        object.insert("errors".into(), list.into());
    }
    write_line(out, &Value::Object(object))
}

/// The tokens in html5lib-tests form, adjacent character data coalesced.
fn html5lib_tokens<'a>(tokens: impl Iterator<Item = Token<'a>>) -> Vec<Value> {
    let mut list = Vec::new();
    let mut chars: Option<String> = None;
    for token in tokens {
        if let Token::Text(t) = &token {
            chars.get_or_insert_with(String::new).push_str(t.data);
            continue;
        }
        if let Some(data) = chars.take() {
            list.push(json!(["Character", data]));
        }
        list.push(html5lib_token(&token));
    }
    if let Some(data) = chars {
        list.push(json!(["Character", data]));
    }
    list
}

/// One non-text token in html5lib-tests form.
fn html5lib_token(token: &Token<'_>) -> Value {
    match token {
        Token::Doctype(d) => json!(["DOCTYPE", d.name, d.public_id, d.system_id, !d.force_quirks]),
        Token::StartTag(t) => json!(["StartTag", t.name, html5lib_attrs(t), t.self_closing]),
        Token::EndTag(t) => json!(["EndTag", t.name]),
        Token::Comment(c) => json!(["Comment", c.data]),
        Token::Text(t) => json!(["Character", t.data]),
    }
}

/// A tag's attributes as an object in source order; the first occurrence
/// of a name wins.
fn html5lib_attrs(tag: &Tag<'_>) -> Value {
    let mut attrs = Map::new();
    for a in tag.attributes.iter().filter(|a| !a.duplicate) {
        attrs.entry(a.name).or_insert_with(|| Value::from(a.value));
    }
    Value::Object(attrs)
}

fn html5lib_error(error: &ParseError, index: &LineIndex<'_>) -> Value {
    let (line, col) = index.line_col(error.offset);
    json!({"code": error.code.as_str(), "line": line, "col": col})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html5lib(html: &str) -> Value {
        let arena = htmltok::bumpalo::Bump::new();
        Value::from(html5lib_tokens(Tokenizer::new(html, &arena)))
    }

    #[test]
    fn html5lib_form() {
        let got = html5lib("<!DOCTYPE html><a b=1 c B=2>x&amp;y</a><br/><!--c-->");
        let want = json!([
            ["DOCTYPE", "html", null, null, true],
            ["StartTag", "a", {"b": "1", "c": ""}, false],
            ["Character", "x&y"],
            ["EndTag", "a"],
            ["StartTag", "br", {}, true],
            ["Comment", "c"],
        ]);
        assert_eq!(got, want);
    }

    #[test]
    fn attributes_keep_source_order() {
        let got = html5lib("<p z=1 a=2 m=3>");
        assert_eq!(
            got.to_string(),
            r#"[["StartTag","p",{"z":"1","a":"2","m":"3"},false]]"#
        );
    }
}
