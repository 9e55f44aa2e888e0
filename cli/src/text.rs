//! `htmltok text`: the visible text of pages, as an indexer wants it.
//!
//! [`Visible`] decides, token by token, what a reader sees: it leaves out
//! the content of elements that are not rendered as text (script, style,
//! template, title, ...) and turns block-level tags into line breaks.
//! [`Collapse`] collapses whitespace the way a browser lays out text.

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{Options, Tag, Text, Token};
use serde_json::json;

use crate::TextArgs;
use crate::page::{Page, Reading};
use crate::run::Job;

/// Runs `htmltok text`.
pub fn run(args: &TextArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let job = TextJob {
        offsets: args.offsets,
        headers: inputs.len() > 1,
        reading: args.read.reading(),
    };
    let mut out = crate::stdout();
    let result = crate::run::run(&job, &inputs, &args.input.settings(), &mut out, |_, ()| {});
    crate::exit_status(result)
}

/// `htmltok text` as a [`Job`].
struct TextJob {
    /// JSON Lines of runs with offsets, not plain text.
    offsets: bool,
    /// Whether each input's text gets a `==> FILE <==` header.
    headers: bool,
    reading: Reading,
}

impl Job for TextJob {
    type Summary = ();

    fn reading(&self) -> &Reading {
        &self.reading
    }

    /// A blank line between the texts of two inputs (as `tail` does).
    fn separator(&self) -> &[u8] {
        if self.headers && !self.offsets {
            b"\n"
        } else {
            b""
        }
    }

    fn process<W: Write>(&self, page: &Page<'_>, out: &mut W) -> io::Result<()> {
        if self.offsets {
            let mut runs = Runs::default();
            page.tokenize(Options::default(), None, &mut |token| {
                runs.write(out, page.name, &token)
            })?;
            return Ok(());
        }
        if self.headers {
            writeln!(out, "==> {} <==", page.name)?;
        }
        let mut text = VisibleText::default();
        page.tokenize(Options::default(), None, &mut |token| {
            text.push(&token);
            Ok(())
        })?;
        out.write_all(text.finish().as_bytes())
    }
}

/// The visible text of a page, built token by token: lines of collapsed
/// text, each ending in a newline.
#[derive(Default)]
pub struct VisibleText<'a> {
    visible: Visible<'a>,
    text: Collapse,
}

impl<'a> VisibleText<'a> {
    /// Takes in the next token.
    pub fn push(&mut self, token: &Token<'a>) {
        match self.visible.classify(token) {
            Some(Event::Text(t)) => self.text.push(t.data, self.visible.in_pre()),
            Some(Event::Block) => self.text.line_break(),
            Some(Event::Cell) => self.text.space(),
            None => {}
        }
    }

    /// The text.
    pub fn finish(self) -> String {
        self.text.finish()
    }
}

/// The visible text runs of a page, token by token, as JSON Lines:
/// `{file, text, start, end}`.
#[derive(Default)]
struct Runs<'a> {
    visible: Visible<'a>,
}

impl<'a> Runs<'a> {
    /// Writes the line of `token` if it is a visible text run.
    fn write(&mut self, out: &mut impl Write, file: &str, token: &Token<'a>) -> io::Result<()> {
        let Some(Event::Text(t)) = self.visible.classify(token) else {
            return Ok(());
        };
        let mut run = Collapse::default();
        run.push(t.data, self.visible.in_pre());
        let text = run.finish();
        let text = text.trim_end_matches('\n');
        if text.is_empty() {
            return Ok(());
        }
        let line = json!({"file": file, "text": text, "start": t.span.start, "end": t.span.end});
        crate::tokens::write_line(out, &line)
    }
}

/// Elements whose content is not shown as text.
const HIDDEN: &[&str] = &[
    "script", "style", "template", "noscript", "title", "textarea", "iframe", "noembed",
    "noframes", "datalist", "desc",
];

/// Elements that start and end lines.
const BLOCK: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "br",
    "caption",
    "center",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "legend",
    "li",
    "listing",
    "main",
    "menu",
    "nav",
    "ol",
    "optgroup",
    "option",
    "p",
    "plaintext",
    "pre",
    "search",
    "section",
    "select",
    "summary",
    "table",
    "tbody",
    "tfoot",
    "thead",
    "tr",
    "ul",
    "xmp",
];

/// Elements inside which line breaks are kept.
const PRE: &[&str] = &["pre", "listing", "plaintext", "xmp"];

/// What a token means for the visible text.
enum Event<'t, 'a> {
    /// Visible characters.
    Text(&'t Text<'a>),
    /// A block boundary: a line break.
    Block,
    /// A table cell boundary: a space.
    Cell,
}

/// Tracks which tokens are visible.
#[derive(Default)]
struct Visible<'a> {
    /// The hidden element being skipped and how many of its kind are open.
    hidden: Option<(&'a str, usize)>,
    /// How many `<pre>`-like elements are open.
    pre: usize,
    /// How many `<svg>`/`<math>` elements are open (roughly: where `/>`
    /// closes an element).
    foreign: usize,
}

impl<'a> Visible<'a> {
    fn in_pre(&self) -> bool {
        self.pre > 0
    }

    fn classify<'t>(&mut self, token: &'t Token<'a>) -> Option<Event<'t, 'a>> {
        match token {
            Token::Text(t) if self.hidden.is_none() => Some(Event::Text(t)),
            Token::StartTag(tag) => self.start_tag(tag),
            Token::EndTag(tag) => self.end_tag(tag),
            _ => None,
        }
    }

    fn start_tag<'t>(&mut self, tag: &Tag<'a>) -> Option<Event<'t, 'a>> {
        let name = tag.name;
        // `/>` closes an element only in foreign content.
        let opens = !(tag.self_closing && self.foreign > 0);
        if let Some((hidden, depth)) = &mut self.hidden {
            if *hidden == name && opens {
                *depth += 1;
            }
            return None;
        }
        if HIDDEN.contains(&name) {
            if opens {
                self.hidden = Some((name, 1));
            }
            return None;
        }
        if matches!(name, "svg" | "math") && !tag.self_closing {
            self.foreign += 1;
        }
        if PRE.contains(&name) {
            self.pre += 1;
        }
        boundary(name)
    }

    fn end_tag<'t>(&mut self, tag: &Tag<'a>) -> Option<Event<'t, 'a>> {
        let name = tag.name;
        if let Some((hidden, depth)) = &mut self.hidden {
            if *hidden == name {
                *depth -= 1;
                if *depth == 0 {
                    self.hidden = None;
                }
            }
            return None;
        }
        if matches!(name, "svg" | "math") {
            self.foreign = self.foreign.saturating_sub(1);
        }
        if PRE.contains(&name) {
            self.pre = self.pre.saturating_sub(1);
        }
        boundary(name)
    }
}

/// The boundary a tag named `name` makes, if any.
fn boundary<'t, 'a>(name: &str) -> Option<Event<'t, 'a>> {
    if BLOCK.contains(&name) {
        Some(Event::Block)
    } else if matches!(name, "td" | "th") {
        Some(Event::Cell)
    } else {
        None
    }
}

/// The length of the whitespace character at `bytes[i]`, 0 if it is not
/// one: ASCII whitespace as HTML defines it, and U+00A0 NO-BREAK SPACE
/// (an indexer wants `a&nbsp;b` as `a b`).
fn space_len(bytes: &[u8], i: usize) -> usize {
    match bytes[i] {
        b' ' | b'\t' | b'\n' | b'\x0C' | b'\r' => 1,
        0xC2 if bytes.get(i + 1) == Some(&0xA0) => 2,
        _ => 0,
    }
}

/// What separates the next characters from the last ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Pending {
    #[default]
    Nothing,
    Space,
    LineBreak,
}

/// Builds collapsed text: runs of whitespace and boundaries between
/// characters become one space or one line break (a line break wins);
/// nothing at the start, one newline at the end.
#[derive(Debug, Default)]
pub struct Collapse {
    out: String,
    pending: Pending,
}

impl Collapse {
    /// Adds text; inside `<pre>`, a newline in it is a line break.
    pub fn push(&mut self, text: &str, pre: bool) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let start = i;
            if space_len(bytes, i) > 0 {
                while i < bytes.len() {
                    let n = space_len(bytes, i);
                    if n == 0 {
                        break;
                    }
                    if pre && bytes[i] == b'\n' {
                        self.line_break();
                    }
                    i += n;
                }
                self.space();
            } else {
                while i < bytes.len() && space_len(bytes, i) == 0 {
                    i += 1;
                }
                self.word(&text[start..i]);
            }
        }
    }

    /// A space before the next characters (unless a line break is due).
    pub fn space(&mut self) {
        if self.pending == Pending::Nothing {
            self.pending = Pending::Space;
        }
    }

    /// A line break before the next characters.
    pub fn line_break(&mut self) {
        self.pending = Pending::LineBreak;
    }

    fn word(&mut self, word: &str) {
        if !self.out.is_empty() {
            match self.pending {
                Pending::LineBreak => self.out.push('\n'),
                Pending::Space => self.out.push(' '),
                Pending::Nothing => {}
            }
        }
        self.pending = Pending::Nothing;
        self.out.push_str(word);
    }

    /// The text, ending in a newline unless empty.
    pub fn finish(mut self) -> String {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use htmltok::bumpalo::Bump;

    fn text(html: &str) -> String {
        let arena = Bump::new();
        let mut text = VisibleText::default();
        for token in htmltok::Tokenizer::new(html, &arena) {
            text.push(&token);
        }
        text.finish()
    }

    #[test]
    fn collapses_whitespace_and_breaks_blocks() {
        assert_eq!(
            text(
                "<p>  Fish &amp;\n\t chips </p><p>Peas</p>a<br>b<span>c</span> d&nbsp;&nbsp;e<p>&nbsp;"
            ),
            "Fish & chips\nPeas\na\nbc d e\n"
        );
        assert_eq!(text("<ul>\n <li>one</li>\n <li>two\n</ul>"), "one\ntwo\n");
        assert_eq!(
            text("<table><tr><td>a</td><td>b</td></tr><tr><th>c</table>"),
            "a b\nc\n"
        );
        assert_eq!(text(""), "");
        assert_eq!(text("   \n "), "");
    }

    #[test]
    fn leaves_out_what_is_not_shown() {
        let html = "<html><head><title>T</title><style>p{}</style>\
            <script>var a = '<p>x</p>';</script></head>\
            <body><noscript>enable JS</noscript><template><p>t<template>u</template>v</template>\
            <p>shown<!-- not --></p><textarea>typed</textarea>\
            <svg><title>tip</title><text>drawn</text></svg></body></html>";
        assert_eq!(text(html), "shown\ndrawn\n");
    }

    #[test]
    fn self_closing_hidden_tags() {
        // In HTML `/>` does not close <script>; in SVG it does.
        assert_eq!(text("a<script/>x</script>b"), "ab\n");
        assert_eq!(text("<svg><title/><text>a</text></svg>b"), "ab\n");
    }

    #[test]
    fn pre_keeps_line_breaks() {
        assert_eq!(
            text("<p>a\nb</p><pre>\nfn main() {\n    x\n}</pre>c\nd"),
            "a b\nfn main() {\nx\n}\nc d\n"
        );
    }
}
