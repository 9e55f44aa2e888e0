//! `htmltok tokens`: the tokens (and parse errors) of each input, as JSON
//! Lines for people or in the html5lib-tests form.

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{Attribute, LineIndex, Options, ParseError, Span, Tag, Token};
use serde_json::{Map, Value, json};

use crate::page::{Decoding, Page, Reading};
use crate::run::Job;
use crate::{Format, TokensArgs};

/// Runs `htmltok tokens`.
pub fn run(args: &TokensArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let mut out = crate::stdout();
    let result = crate::run::run(
        &Tokens::new(args),
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
    reading: Reading,
}

impl<'a> Tokens<'a> {
    /// The tokenizer's contract: any input is tokenized as it is (empty
    /// inputs, fragments, NULs), none is refused as "not a page". The
    /// html5lib format reads the bytes as UTF-8 as they are; the JSON
    /// format sniffs, as the other commands do.
    fn new(args: &'a TokensArgs) -> Tokens<'a> {
        let mut reading = args.read.reading();
        reading.check = false;
        if args.format == Format::Html5lib {
            reading.decoding = Decoding::Utf8;
        }
        Tokens { args, reading }
    }
}

impl Job for Tokens<'_> {
    type Summary = ();

    fn reading(&self) -> &Reading {
        &self.reading
    }

    fn process<W: Write>(&self, page: &Page<'_>, out: &mut W) -> io::Result<()> {
        let args = self.args;
        let last = args.last_start_tag.as_deref();
        match args.format {
            Format::Json => {
                let errors = page.tokenize(options(args), last, &mut |token| {
                    write_line(out, &token_json(page.name, &token))
                })?;
                write_errors(out, page, &errors)
            }
            Format::Html5lib => {
                let mut tokens = Html5libTokens::default();
                let errors = page.tokenize(options(args), last, &mut |token| {
                    tokens.push(&token);
                    Ok(())
                })?;
                write_html5lib(out, page, tokens.finish(), args.errors.then_some(&errors))
            }
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

/// One line per parse error (`--format json`), after the tokens.
fn write_errors(out: &mut impl Write, page: &Page<'_>, errors: &[ParseError]) -> io::Result<()> {
    if errors.is_empty() {
        return Ok(());
    }
    let index = LineIndex::new(page.text);
    for error in errors {
        write_line(out, &error_json(page.name, error, &index))?;
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
fn write_html5lib(
    out: &mut impl Write,
    page: &Page<'_>,
    tokens: Vec<Value>,
    errors: Option<&Vec<ParseError>>,
) -> io::Result<()> {
    let mut object = Map::new();
    object.insert("output".into(), tokens.into());
    if let Some(errors) = errors {
        let index = LineIndex::new(page.text);
        let list: Vec<Value> = errors.iter().map(|e| html5lib_error(e, &index)).collect();
        object.insert("errors".into(), list.into());
    }
    write_line(out, &Value::Object(object))
}

/// The tokens in html5lib-tests form, adjacent character data coalesced.
#[derive(Default)]
struct Html5libTokens {
    list: Vec<Value>,
    chars: Option<String>,
}

impl Html5libTokens {
    fn push(&mut self, token: &Token<'_>) {
        if let Token::Text(t) = token {
            self.chars.get_or_insert_with(String::new).push_str(t.data);
            return;
        }
        self.flush_chars();
        self.list.push(html5lib_token(token));
    }

    fn flush_chars(&mut self) {
        if let Some(data) = self.chars.take() {
            self.list.push(json!(["Character", data]));
        }
    }

    fn finish(mut self) -> Vec<Value> {
        self.flush_chars();
        self.list
    }
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
        let mut tokens = Html5libTokens::default();
        for token in htmltok::Tokenizer::new(html, &arena) {
            tokens.push(&token);
        }
        Value::from(tokens.finish())
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
