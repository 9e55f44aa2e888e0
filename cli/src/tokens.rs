//! `htmltok tokens`: the tokens (and parse errors) of each input, as JSON
//! Lines for people or in the html5lib-tests form.

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{Attribute, Options, ParseError, Span, Token};
use serde_json::{Value, json};

use crate::args::{TokensArgs, TokensFormat};
use crate::job::Job;
use crate::json::{write_str, write_str_contents};
use crate::label::Label;
use crate::page::{Context, Decoding, ErrorPositions, Event, Page, Reading, RunPiece, Tokenizing};
use crate::spill::Spill;
use crate::{exit, stdio};

/// Runs `htmltok tokens`.
pub fn run(args: &TokensArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let mut out = stdio::stdout();
    let result = crate::run::run(
        &TokensJob::new(args),
        &inputs,
        &args.input.settings(),
        &mut out,
        |_, ()| {},
    );
    exit::status(result)
}

/// `htmltok tokens` as a [`Job`].
struct TokensJob<'a> {
    args: &'a TokensArgs,
    reading: Reading,
}

impl<'a> TokensJob<'a> {
    /// The html5lib format reads the bytes as UTF-8 as they are; the JSON
    /// format sniffs, as the other commands do.
    fn new(args: &'a TokensArgs) -> TokensJob<'a> {
        let decoding = match args.format {
            TokensFormat::Html5lib => Decoding::Utf8,
            TokensFormat::Json => args.read.decoding(),
        };
        TokensJob {
            args,
            reading: args.input.reading(decoding),
        }
    }
}

impl Job for TokensJob<'_> {
    type Summary = ();

    fn reading(&self) -> &Reading {
        &self.reading
    }

    fn process<W: Write>(&self, page: &mut Page<'_>, out: &mut W) -> io::Result<()> {
        let args = self.args;
        let tokenizing = Tokenizing {
            options: options(args),
            last_start_tag: args.last_start_tag.as_deref(),
            error_positions: if args.errors {
                ErrorPositions::LinesAndColumns
            } else {
                ErrorPositions::Offsets
            },
        };
        // Parse errors come after the tokens (in the html5lib form, after
        // the list of tokens): they wait in a spill.
        let mut errors = Spill::default();
        let label = page.label();
        match args.format {
            TokensFormat::Json => {
                page.tokenize(
                    &tokenizing,
                    &mut |event: Event<'_, '_>, _: &Context| match event {
                        Event::Token(token) => write_token(out, label, token),
                        Event::Text { text, piece } => {
                            write_text_piece(out, label, text.data, piece)
                        }
                        Event::TextEnd { start, end } => write_text_end(out, start, end),
                        Event::Error(error, at) => label
                            .write_line(&mut errors, &error_json(error, at.unwrap_or_default())),
                    },
                )?;
                errors.drain_to(out)
            }
            TokensFormat::Html5lib => {
                let mut list = Html5libList::default();
                // A record's line carries the record's fields first.
                out.write_all(b"{")?;
                if label.record.is_some() {
                    label.write_json(out)?;
                    out.write_all(b",")?;
                }
                out.write_all(b"\"output\":[")?;
                page.tokenize(
                    &tokenizing,
                    &mut |event: Event<'_, '_>, _: &Context| match event {
                        Event::Token(token) => list.token(out, token),
                        Event::Text { text, piece } => list.characters(out, text.data, piece),
                        Event::TextEnd { .. } => out.write_all(b"\"]"),
                        Event::Error(error, at) => {
                            if !errors.is_empty() {
                                errors.write_all(b",")?;
                            }
                            let (line, col) = at.unwrap_or_default();
                            let error =
                                json!({"code": error.code.as_str(), "line": line, "col": col});
                            serde_json::to_writer(&mut errors, &error).map_err(io::Error::from)
                        }
                    },
                )?;
                out.write_all(b"]")?;
                if args.errors {
                    out.write_all(b",\"errors\":[")?;
                    errors.drain_to(out)?;
                    out.write_all(b"]")?;
                }
                out.write_all(b"}\n")
            }
        }
    }
}

/// Writes a piece of a text token's JSON line (the line begins with the
/// run's first piece): the line is written as the text comes, and the
/// span, which needs the end of the run, comes last ([`write_text_end`]).
fn write_text_piece(
    out: &mut impl Write,
    label: Label<'_>,
    data: &str,
    piece: RunPiece,
) -> io::Result<()> {
    if piece == RunPiece::Starts {
        out.write_all(b"{")?;
        label.write_json(out)?;
        out.write_all(b",\"kind\":\"text\",\"data\":\"")?;
    }
    write_str_contents(out, data)
}

/// Ends a text token's JSON line with its span.
fn write_text_end(out: &mut impl Write, start: usize, end: usize) -> io::Result<()> {
    writeln!(out, "\",\"span\":[{start},{end}]}}")
}

/// The `output` list of the html5lib form, written item by item; adjacent
/// character data is one `Character` item, as html5lib-tests wants.
#[derive(Default)]
struct Html5libList {
    items: usize,
}

impl Html5libList {
    fn comma(&mut self, out: &mut impl Write) -> io::Result<()> {
        self.items += 1;
        if self.items > 1 {
            out.write_all(b",")?;
        }
        Ok(())
    }

    /// Writes a token other than text: a start tag attribute by attribute
    /// (its attributes as an object in source order, without the
    /// duplicates, whose names the first occurrence has).
    fn token(&mut self, out: &mut impl Write, token: &Token<'_>) -> io::Result<()> {
        self.comma(out)?;
        let value = match token {
            Token::Doctype(d) => {
                json!(["DOCTYPE", d.name, d.public_id, d.system_id, !d.force_quirks])
            }
            Token::StartTag(t) => {
                out.write_all(b"[\"StartTag\",")?;
                write_str(out, t.name)?;
                out.write_all(b",{")?;
                for (i, a) in t.attrs().enumerate() {
                    if i > 0 {
                        out.write_all(b",")?;
                    }
                    write_str(out, a.name)?;
                    out.write_all(b":")?;
                    write_str(out, a.value)?;
                }
                return write!(out, "}},{}]", t.self_closing);
            }
            Token::EndTag(t) => json!(["EndTag", t.name]),
            Token::Comment(c) => json!(["Comment", c.data]),
            Token::Text(t) => json!(["Character", t.data]),
        };
        serde_json::to_writer(out, &value).map_err(io::Error::from)
    }

    fn characters(&mut self, out: &mut impl Write, data: &str, piece: RunPiece) -> io::Result<()> {
        if piece == RunPiece::Starts {
            self.comma(out)?;
            out.write_all(b"[\"Character\",\"")?;
        }
        write_str_contents(out, data)
    }
}

/// The tokenizer options the arguments ask for.
fn options(args: &TokensArgs) -> Options {
    Options::default()
        .auto_switch(!args.no_auto_switch)
        .exact_switching(args.exact_switching)
        .errors(args.errors)
        .initial_state(args.state.into())
}

// ---------------------------------------------------------------------------
// --format json
// ---------------------------------------------------------------------------

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

/// Writes a token's JSON line: a tag attribute by attribute (a tag can
/// have very many).
fn write_token(out: &mut impl Write, label: Label<'_>, token: &Token<'_>) -> io::Result<()> {
    let kind = kind(token);
    let line = match token {
        Token::Doctype(d) => json!({
            "kind": kind,
            "name": d.name,
            "public_id": d.public_id,
            "system_id": d.system_id,
            "force_quirks": d.force_quirks,
            "span": span_json(d.span),
        }),
        Token::StartTag(tag) | Token::EndTag(tag) => {
            out.write_all(b"{")?;
            label.write_json(out)?;
            write!(out, ",\"kind\":\"{kind}\",\"name\":")?;
            write_str(out, tag.name)?;
            let Span { start, end } = tag.name_span;
            write!(out, ",\"name_span\":[{start},{end}],\"attributes\":[")?;
            for (i, attr) in tag.attributes.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                serde_json::to_writer(&mut *out, &attribute_json(attr))?;
            }
            let Span { start, end } = tag.span;
            return writeln!(
                out,
                "],\"self_closing\":{},\"span\":[{start},{end}]}}",
                tag.self_closing
            );
        }
        Token::Comment(c) => json!({
            "kind": kind,
            "data": c.data,
            "span": span_json(c.span),
        }),
        Token::Text(t) => json!({
            "kind": kind,
            "data": t.data,
            "span": span_json(t.span),
        }),
    };
    label.write_line(out, &line)
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

/// A parse error's JSON object (`tokens --errors`, `errors --format
/// json`), to write after the input's label.
pub fn error_json(error: &ParseError, (line, col): (usize, usize)) -> Value {
    json!({
        "error": error.code.as_str(),
        "offset": error.offset,
        "line": line,
        "col": col,
    })
}

// ---------------------------------------------------------------------------
// --format html5lib
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    /// The html5lib form of `html` (chunks of `size` bytes), as written.
    fn html5lib(html: &str, size: usize) -> String {
        let reading = Reading {
            chunk_size: size,
            ..Reading::new(Decoding::Utf8)
        };
        let reader = Box::new(io::Cursor::new(html.as_bytes().to_vec()));
        let mut page = Page::open("-", reader, None, &reading).unwrap();
        let args = <crate::args::Cli as clap::Parser>::parse_from([
            "htmltok", "tokens", "--format", "html5lib",
        ]);
        let Some(crate::args::Command::Tokens(args)) = args.command else {
            unreachable!()
        };
        let job = TokensJob::new(&args);
        let mut out = Vec::new();
        job.process(&mut page, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn html5lib_form() {
        let html = "<!DOCTYPE html><a b=1 c B=2>x&amp;y</a><br/><!--c-->";
        let want = json!({"output": [
            ["DOCTYPE", "html", null, null, true],
            ["StartTag", "a", {"b": "1", "c": ""}, false],
            ["Character", "x&y"],
            ["EndTag", "a"],
            ["StartTag", "br", {}, true],
            ["Comment", "c"],
        ]});
        for size in [1, 3, 1000] {
            let got = html5lib(html, size);
            assert_eq!(
                serde_json::from_str::<Value>(&got).unwrap(),
                want,
                "chunks of {size}"
            );
        }
        assert_eq!(html5lib("", 10), "{\"output\":[]}\n");
        assert_eq!(
            html5lib("a\"\n\u{e9}", 1),
            "{\"output\":[[\"Character\",\"a\\\"\\n\u{e9}\"]]}\n"
        );
    }

    #[test]
    fn attributes_keep_source_order() {
        let got = html5lib("<p z=1 a=2 m=3>", 4096);
        assert_eq!(
            got,
            "{\"output\":[[\"StartTag\",\"p\",{\"z\":\"1\",\"a\":\"2\",\"m\":\"3\"},false]]}\n"
        );
    }
}
