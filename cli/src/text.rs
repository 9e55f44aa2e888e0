//! `htmltok text`: the visible text of pages, as an indexer wants it.
//!
//! [`Visible`] decides, token by token, what a reader sees: it leaves out
//! the content of elements that are not rendered as text (script, style,
//! template, title, ...) and turns block-level tags into line breaks.
//! [`Collapse`] collapses whitespace the way a browser lays out text.

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{Tag, Token};

use crate::TextArgs;
use crate::page::{Ctx, Doc, Event, Reading, Tokenize};
use crate::run::Job;

/// Runs `htmltok text`.
pub fn run(args: &TextArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let job = TextJob {
        offsets: args.offsets,
        headers: inputs.len() > 1,
        reading: args.input.reading(args.read.decoding()),
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

    fn process<W: Write>(&self, doc: &mut Doc<'_>, out: &mut W) -> io::Result<()> {
        let run = Tokenize::default();
        let name = doc.name;
        if self.offsets {
            let mut runs = Runs::default();
            doc.tokenize(&run, &mut |event: Event<'_, '_>, _: &Ctx| {
                runs.event(out, name, &event)
            })?;
            return Ok(());
        }
        if self.headers {
            writeln!(out, "==> {name} <==")?;
        }
        let mut text = VisibleText::default();
        doc.tokenize(&run, &mut |event: Event<'_, '_>, _: &Ctx| {
            text.event(out, &event)
        })?;
        text.finish(out)
    }
}

/// The visible text of a page, written as it is found: lines of collapsed
/// text, each ending in a newline.
#[derive(Default)]
pub struct VisibleText {
    visible: Visible,
    text: Collapse,
}

impl VisibleText {
    /// Takes in the next event.
    pub fn event(&mut self, out: &mut impl Write, event: &Event<'_, '_>) -> io::Result<()> {
        match event {
            Event::Text { text, .. } if self.visible.shows_text() => {
                self.text.push(out, text.data, self.visible.in_pre())
            }
            Event::Token(Token::StartTag(tag)) => {
                let boundary = self.visible.start_tag(tag);
                self.boundary(boundary);
                Ok(())
            }
            Event::Token(Token::EndTag(tag)) => {
                let boundary = self.visible.end_tag(tag);
                self.boundary(boundary);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn boundary(&mut self, boundary: Option<Boundary>) {
        match boundary {
            Some(Boundary::Block) => self.text.line_break(),
            Some(Boundary::Cell) => self.text.space(),
            None => {}
        }
    }

    /// Ends the text (with a newline, unless it is empty).
    pub fn finish(self, out: &mut impl Write) -> io::Result<()> {
        self.text.finish(out)
    }
}

/// The visible text runs of a page, run by run, as JSON Lines:
/// `{file, text, start, end}`.
#[derive(Default)]
struct Runs {
    visible: Visible,
    /// The run being written: its text so far, collapsed (the line is
    /// begun at its first character).
    run: Option<(Collapse, JsonRun)>,
}

impl Runs {
    fn event(&mut self, out: &mut impl Write, file: &str, event: &Event<'_, '_>) -> io::Result<()> {
        match event {
            Event::Text { text, first } if self.visible.shows_text() => {
                let (collapse, line) = self.run.get_or_insert_with(Default::default);
                if *first {
                    line.start = text.span.start;
                }
                let mut json = JsonStr { out, file, line };
                collapse.push(&mut json, text.data, self.visible.in_pre())
            }
            Event::TextEnd { end, .. } => match self.run.take() {
                Some((_, line)) if line.begun => {
                    writeln!(out, "\",\"start\":{},\"end\":{end}}}", line.start)
                }
                _ => Ok(()),
            },
            Event::Token(Token::StartTag(tag)) => {
                self.visible.start_tag(tag);
                Ok(())
            }
            Event::Token(Token::EndTag(tag)) => {
                self.visible.end_tag(tag);
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// A run's JSON line, begun (`{"file": ..., "text": "`) once it has text.
#[derive(Default)]
struct JsonRun {
    start: usize,
    begun: bool,
}

/// Writes collapsed text into a run's JSON line, escaped.
struct JsonStr<'o, 'f, 'l, W> {
    out: &'o mut W,
    file: &'f str,
    line: &'l mut JsonRun,
}

impl<W: Write> Write for JsonStr<'_, '_, '_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        if !self.line.begun {
            self.line.begun = true;
            self.out.write_all(b"{\"file\":")?;
            serde_json::to_writer(&mut *self.out, self.file)?;
            self.out.write_all(b",\"text\":\"")?;
        }
        crate::json::Escaping(&mut *self.out).write_all(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
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

/// What a tag means for the visible text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Boundary {
    /// A block boundary: a line break.
    Block,
    /// A table cell boundary: a space.
    Cell,
}

/// Tracks which text is visible.
#[derive(Default)]
struct Visible {
    /// The hidden element being skipped (its index in [`HIDDEN`]) and how
    /// many of its kind are open.
    hidden: Option<(usize, usize)>,
    /// How many `<pre>`-like elements are open.
    pre: usize,
    /// How many `<svg>`/`<math>` elements are open (roughly: where `/>`
    /// closes an element).
    foreign: usize,
}

impl Visible {
    fn in_pre(&self) -> bool {
        self.pre > 0
    }

    fn shows_text(&self) -> bool {
        self.hidden.is_none()
    }

    fn start_tag(&mut self, tag: &Tag<'_>) -> Option<Boundary> {
        let name = tag.name;
        // `/>` closes an element only in foreign content.
        let opens = !(tag.self_closing && self.foreign > 0);
        if let Some((hidden, depth)) = &mut self.hidden {
            if HIDDEN[*hidden] == name && opens {
                *depth += 1;
            }
            return None;
        }
        if let Some(i) = HIDDEN.iter().position(|h| *h == name) {
            if opens {
                self.hidden = Some((i, 1));
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

    fn end_tag(&mut self, tag: &Tag<'_>) -> Option<Boundary> {
        let name = tag.name;
        if let Some((hidden, depth)) = &mut self.hidden {
            if HIDDEN[*hidden] == name {
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
fn boundary(name: &str) -> Option<Boundary> {
    if BLOCK.contains(&name) {
        Some(Boundary::Block)
    } else if matches!(name, "td" | "th") {
        Some(Boundary::Cell)
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

/// Collapses text as it is written: runs of whitespace and boundaries
/// between characters become one space or one line break (a line break
/// wins); nothing at the start, and nothing at the end until
/// [`finish`](Self::finish) writes one newline. Only the separator due is
/// held, so text of any length goes through in constant memory.
#[derive(Debug, Default)]
pub struct Collapse {
    /// Whether anything has been written.
    started: bool,
    pending: Pending,
}

impl Collapse {
    /// Writes `text` collapsed; inside `<pre>`, a newline in it is a line
    /// break.
    pub fn push(&mut self, out: &mut impl Write, text: &str, pre: bool) -> io::Result<()> {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let start = i;
            if bytes[i] == 0 {
                // U+0000, which the tokenizer hands on in data: a browser's
                // tree builder drops it in HTML content, and so does this.
                i += 1;
            } else if space_len(bytes, i) > 0 {
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
                while i < bytes.len() && bytes[i] != 0 && space_len(bytes, i) == 0 {
                    i += 1;
                }
                self.word(out, &bytes[start..i])?;
            }
        }
        Ok(())
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

    fn word(&mut self, out: &mut impl Write, word: &[u8]) -> io::Result<()> {
        if self.started {
            match self.pending {
                Pending::LineBreak => out.write_all(b"\n")?,
                Pending::Space => out.write_all(b" ")?,
                Pending::Nothing => {}
            }
        }
        self.pending = Pending::Nothing;
        self.started = true;
        out.write_all(word)
    }

    /// Ends the text: a newline, unless nothing was written.
    pub fn finish(self, out: &mut impl Write) -> io::Result<()> {
        if self.started {
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Decoding;

    /// The visible text of `html` read in chunks of `size`, and its runs
    /// with offsets.
    fn texts(html: &str, size: usize) -> (String, String) {
        let reading = Reading {
            chunk_size: size,
            ..Reading::new(Decoding::sniff(None))
        };
        let open = || {
            let reader = Box::new(io::Cursor::new(html.as_bytes().to_vec()));
            Doc::open("f", reader, None, &reading).unwrap()
        };
        let job = |offsets| TextJob {
            offsets,
            headers: false,
            reading: reading.clone(),
        };
        let mut text = Vec::new();
        job(false).process(&mut open(), &mut text).unwrap();
        let mut runs = Vec::new();
        job(true).process(&mut open(), &mut runs).unwrap();
        (
            String::from_utf8(text).unwrap(),
            String::from_utf8(runs).unwrap(),
        )
    }

    /// The visible text of `html`, the same in chunks of every size.
    fn text(html: &str) -> String {
        let whole = texts(html, 1 << 20);
        for size in [1, 2, 3, 7] {
            assert_eq!(texts(html, size), whole, "chunks of {size}: {html:?}");
        }
        whole.0
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
