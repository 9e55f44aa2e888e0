//! The text as Markdown: [CommonMark](https://spec.commonmark.org/0.31.2/)
//! with GitHub's pipe tables, written in the same pass over the tokens as
//! the plain text, from the same visible text (what
//! [`ExtractOptions::hidden`](super::ExtractOptions::hidden) and scripting
//! leave out is left out here too).
//!
//! | HTML | Markdown |
//! |---|---|
//! | `h1`–`h6` | `#` to `######` (ATX headings, on one line) |
//! | `p`, `div` and the other blocks | paragraphs, a blank line between |
//! | `ul`, `ol` (its `start`, an item's `value`) | `-` and `1.` items, nested by indentation |
//! | `blockquote` | `> ` |
//! | `pre` (`listing`, `xmp`, `plaintext`) | a fenced code block, the language from a `language-*`/`lang-*` class |
//! | `code`, `kbd`, `samp`, `tt` | a code span |
//! | `strong`, `b` / `em`, `i` | `**strong**` / `*emphasis*` |
//! | `a href` | `[text](url)`, the URL resolved against the page and its `<base>` |
//! | `img` (with [`alt_text`](super::ExtractOptions::alt_text)) | `![alt](src)` |
//! | `table` | a pipe table, the first row its header |
//! | `hr` / `br` | `---` / a hard line break (`\` at the end of the line) |
//! | `math` with a TeX `annotation` | `$...$`, or `$$...$$` when `display="block"` |
//!
//! Text is escaped only where CommonMark would read it as markup (see
//! `escape.rs`). What cannot be said in CommonMark is said as near as it
//! can be: block content in a table cell or a heading is flattened to one
//! line; emphasis whose delimiters would not be read as such (`**Note:**x`)
//! is left out and its text kept; a `<li>` outside a list is a paragraph.
//!
//! With main content ([`ExtractOptions::main_content`](super::ExtractOptions::main_content)),
//! the Markdown is written for the whole page while main content cuts the
//! plain text into blocks; at each block's end the Markdown's length is
//! noted (`Markdown::mark`), and the kept blocks' Markdown is what is
//! kept. A table or a code block, written at its end, goes with the last
//! block in it.

mod blocks;
mod escape;
mod inline;
mod table;

use crate::element::Element;
use crate::scan::MarkdownMasks;
use crate::token::Tag;

use super::visible::{self, Boundary, ElementSet};

use blocks::{Blocks, Container, Due, Items, ListKind};
use inline::{Inline, Style};
use table::Table;

/// The elements whose tags the Markdown writer takes in
/// ([`Markdown::start_tag`], [`Markdown::end_tag`]): those it writes as
/// markup, and, for MathML's `annotation`, the elements the library does
/// not name. The rest are at most a block boundary
/// ([`Markdown::boundary`]).
pub(in crate::extract) const ELEMENTS: ElementSet = ElementSet::of(&[
    Element::H1,
    Element::H2,
    Element::H3,
    Element::H4,
    Element::H5,
    Element::H6,
    Element::Ul,
    Element::Ol,
    Element::Menu,
    Element::Dir,
    Element::Li,
    Element::Blockquote,
    Element::Pre,
    Element::Listing,
    Element::Xmp,
    Element::Plaintext,
    Element::Code,
    Element::Kbd,
    Element::Samp,
    Element::Tt,
    Element::Strong,
    Element::B,
    Element::Em,
    Element::I,
    Element::A,
    Element::Table,
    Element::Thead,
    Element::Tbody,
    Element::Tfoot,
    Element::Tr,
    Element::Td,
    Element::Th,
    Element::Hr,
    Element::Br,
    Element::Math,
    Element::Other,
]);

/// The Markdown written so far, and the state of what is open.
#[derive(Debug)]
pub(in crate::extract) struct Markdown {
    out: String,
    blocks: Blocks,
    inline: Inline,
    /// The outermost table open.
    table: Option<Box<Table>>,
    /// The code block open.
    code: Option<CodeBlock>,
    /// The `<math>` element open.
    math: Option<Box<Math>>,
    /// Tables open in a heading, flattened into its line.
    flat_tables: u32,
    /// Whether links are written with their targets.
    link_targets: bool,
    /// The most bytes to write.
    written_limit: usize,
    /// The most bytes to give out.
    limit: usize,
    /// With main content: the output's length at the end of each block.
    marks: Option<Vec<usize>>,
}

/// What a table tag is to the table ([`Markdown::table_part`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TablePart {
    /// `tr`, `thead`, `tbody`, `tfoot`, start or end.
    Row,
    CellStart,
    CellEnd,
}

/// A `<pre>` being written as a fenced code block.
#[derive(Debug)]
struct CodeBlock {
    /// Where its text begins in the output (the fence goes in there when
    /// it ends, as long as its text needs).
    start: usize,
    /// The language, from a `language-*` or `lang-*` class.
    language: String,
    /// `pre`-like elements open (nested ones included).
    depth: u32,
    /// The main-content marks taken before it began.
    marks: usize,
}

/// A `<math>` element: its text, and its TeX annotation if it has one.
#[derive(Debug, Default)]
struct Math {
    display_block: bool,
    text: String,
    tex: String,
    /// Whether the text now is a TeX annotation's.
    in_tex: bool,
    /// Math elements open inside it.
    depth: u32,
}

/// The heading level of `element`, if it is one.
fn heading_level(element: Element) -> Option<u8> {
    Some(match element {
        Element::H1 => 1,
        Element::H2 => 2,
        Element::H3 => 3,
        Element::H4 => 4,
        Element::H5 => 5,
        Element::H6 => 6,
        _ => return None,
    })
}

/// The inline markup of `element`, if it has one.
fn style_of(element: Element) -> Option<Style> {
    Some(match element {
        Element::Strong | Element::B => Style::Strong,
        Element::Em | Element::I => Style::Emphasis,
        Element::Code | Element::Kbd | Element::Samp | Element::Tt => Style::Code,
        _ => return None,
    })
}

/// The language a class attribute names (`language-rust`, `lang-js`),
/// kept to what a fence's info string can hold.
fn language_of(tag: &Tag<'_>) -> Option<String> {
    let class = tag.attr_value("class")?;
    class
        .split(crate::scan::is_ascii_whitespace_char)
        .find_map(|c| {
            let name = c
                .strip_prefix("language-")
                .or_else(|| c.strip_prefix("lang-"))?;
            let name: String = name
                .chars()
                .filter(|&c| c != '`' && c != '~' && !c.is_control())
                .take(32)
                .collect();
            (!name.is_empty()).then_some(name)
        })
}

/// Whether `element` is `pre`-like: its text is code.
fn is_pre(element: Element) -> bool {
    matches!(
        element,
        Element::Pre | Element::Listing | Element::Xmp | Element::Plaintext
    )
}

/// Whether `element`'s tags end a block (but for those handled on their
/// own).
fn is_block(element: Element) -> bool {
    super::visible::BLOCK.contains(element)
}

impl Markdown {
    /// No Markdown yet: at most `written_limit` bytes of it written, and
    /// `limit` given out.
    pub(in crate::extract) fn new(
        link_targets: bool,
        written_limit: usize,
        limit: usize,
        main_content: bool,
    ) -> Markdown {
        Markdown {
            out: String::new(),
            blocks: Blocks::new(),
            inline: Inline::default(),
            table: None,
            code: None,
            math: None,
            flat_tables: 0,
            link_targets,
            written_limit,
            limit,
            marks: main_content.then(|| vec![0]),
        }
    }

    /// Whether the cap on the output is reached.
    #[inline]
    pub(in crate::extract) fn is_full(&self) -> bool {
        self.out.len() >= self.written_limit
    }

    /// Makes room for `bytes` more of output (at most the cap), as
    /// [`Extractor::reserve_text`](super::Extractor::reserve_text) does for
    /// the text.
    pub(in crate::extract) fn reserve(&mut self, bytes: usize) {
        self.out.reserve(bytes.min(self.written_limit));
    }

    /// How long the output is.
    pub(in crate::extract) fn len(&self) -> usize {
        self.out.len()
    }

    /// Whether text now is flat: on one line (in a table cell, or in a
    /// heading once its `#`s are written).
    fn flat(&self) -> bool {
        self.table.is_some() || self.blocks.in_heading_text()
    }

    /// Asks for a block break: inline markup closes (but in a flat
    /// place, where the break is a space).
    fn block_break(&mut self, due: Due) {
        if self.flat() {
            self.blocks.ask(Due::Space);
            return;
        }
        self.inline.break_all(&mut self.out);
        self.blocks.ask(due);
    }

    /// A block or cell boundary that a tag of `element` makes, for an
    /// element not of [`ELEMENTS`] (those are taken in whole).
    #[inline]
    pub(in crate::extract) fn boundary(&mut self, boundary: Option<Boundary>, element: Element) {
        if ELEMENTS.contains(element) || self.math.is_some() {
            return;
        }
        if self.code.is_some() {
            match boundary {
                Some(Boundary::Block) => self.code_line(),
                Some(Boundary::Cell) => self.out.push(' '),
                None => {}
            }
            return;
        }
        match boundary {
            Some(Boundary::Block) => self.block_break(Due::Blank),
            Some(Boundary::Cell) => self.blocks.ask(Due::Space),
            None => {}
        }
    }

    /// Takes in a start tag of what is shown; `url` resolves a link's URL
    /// against the page, appending it to a string.
    pub(in crate::extract) fn start_tag(&mut self, tag: &Tag<'_>, url: &dyn Fn(&str, &mut String)) {
        let element = tag.element;
        self.end_math_at_a_block(element);
        if let Some(math) = &mut self.math {
            math.depth += u32::from(element == Element::Math);
            if tag.name == "annotation"
                && tag
                    .attr_value("encoding")
                    .is_some_and(|e| e.eq_ignore_ascii_case("application/x-tex"))
            {
                math.in_tex = true;
            }
            return;
        }
        if let Some(code) = &mut self.code {
            if is_pre(element) {
                code.depth += 1;
                self.code_line();
            } else if element == Element::Code && code.language.is_empty() {
                if let Some(language) = language_of(tag) {
                    code.language = language;
                }
            } else if element == Element::Br || is_block(element) {
                self.code_line();
            } else if matches!(element, Element::Td | Element::Th) {
                self.out.push(' ');
            }
            return;
        }
        if let Some(style) = style_of(element) {
            self.inline.start(style);
            return;
        }
        match element {
            Element::A => {
                if self.inline.in_link() {
                    self.inline.end(Style::Link, &mut self.out);
                }
                if let Some(href) = tag.attr_value("href").filter(|_| self.link_targets) {
                    self.inline.start_link(|target| url(href, target));
                }
            }
            Element::Math => {
                self.math = Some(Box::new(Math {
                    display_block: tag
                        .attr_value("display")
                        .is_some_and(|d| d.eq_ignore_ascii_case("block")),
                    ..Math::default()
                }));
            }
            Element::Table => self.start_table(),
            Element::Tr | Element::Thead | Element::Tbody | Element::Tfoot => {
                self.table_part(TablePart::Row)
            }
            Element::Td | Element::Th => self.table_part(TablePart::CellStart),
            _ if self.flat() => self.flat_break(element),
            _ if is_pre(element) && !self.blocks.in_heading() => self.start_code(tag),
            Element::H1 | Element::H2 | Element::H3 | Element::H4 | Element::H5 | Element::H6 => {
                self.block_break(Due::Blank);
                if !self.blocks.in_heading() {
                    self.blocks
                        .start_heading(heading_level(element).unwrap_or(1));
                }
            }
            Element::Ul | Element::Ol | Element::Menu | Element::Dir => {
                // In an item, a list goes on the next line (a blank line
                // would make the outer list loose).
                let due = if self.blocks.in_item() {
                    Due::Line
                } else {
                    Due::Blank
                };
                self.block_break(due);
                let kind = if element == Element::Ol {
                    ListKind::Ordered(
                        tag.attr_value("start")
                            .and_then(|s| s.trim().parse::<u32>().ok())
                            .unwrap_or(1),
                    )
                } else {
                    ListKind::Bullet
                };
                self.blocks.push(Container::List(kind, Items::None));
            }
            Element::Li => {
                self.block_break(Due::Line);
                if self.blocks.in_list() {
                    let value = tag
                        .attr_value("value")
                        .and_then(|v| v.trim().parse::<u32>().ok());
                    self.blocks.start_item(value);
                } else {
                    self.blocks.ask(Due::Blank);
                }
            }
            Element::Blockquote => {
                self.block_break(Due::Blank);
                self.blocks.push(Container::Quote);
            }
            // A heading's line holds no rule.
            Element::Hr if self.blocks.in_heading() => self.blocks.ask(Due::Space),
            Element::Hr => {
                self.block_break(Due::Blank);
                let marker = self.blocks.begin(&mut self.out, false);
                // `- ---` would be a thematic break, not an item holding one.
                self.out.push_str(if marker { "***" } else { "---" });
                self.blocks.line_start = false;
                self.blocks.ask(Due::Blank);
            }
            Element::Br => self.blocks.ask(Due::HardBreak),
            _ => {}
        }
    }

    /// A tag where text is flat: a block's or a `<br>`'s break is a space.
    fn flat_break(&mut self, element: Element) {
        if is_block(element) {
            self.blocks.ask(Due::Space);
        }
    }

    /// Takes in an end tag of what is shown.
    pub(in crate::extract) fn end_tag(&mut self, tag: &Tag<'_>) {
        let element = tag.element;
        self.end_math_at_a_block(element);
        if let Some(math) = &mut self.math {
            if tag.name == "annotation" {
                math.in_tex = false;
            } else if element == Element::Math {
                if math.depth == 0 {
                    self.end_math();
                } else {
                    math.depth -= 1;
                }
            }
            return;
        }
        if let Some(code) = &mut self.code {
            if is_pre(element) {
                code.depth -= 1;
                if code.depth == 0 {
                    self.end_code();
                } else {
                    // An inner `<pre>` ends: a line break, as in the text.
                    self.code_line();
                }
            } else if is_block(element) {
                self.code_line();
            } else if matches!(element, Element::Td | Element::Th) {
                self.out.push(' ');
            }
            return;
        }
        if let Some(style) = style_of(element) {
            self.inline.end(style, &mut self.out);
            return;
        }
        match element {
            Element::A => self.inline.end(Style::Link, &mut self.out),
            Element::Table if self.table.is_none() && self.flat_tables == 0 => {
                self.block_break(Due::Blank)
            }
            Element::Table => self.end_table(),
            // Stray end tags of blocks: a boundary, as in the plain text.
            _ if is_pre(element) => self.block_break(Due::Blank),
            Element::Br | Element::Hr => self.block_break(Due::Blank),
            Element::Tr | Element::Thead | Element::Tbody | Element::Tfoot => {
                self.table_part(TablePart::Row)
            }
            Element::Td | Element::Th => self.table_part(TablePart::CellEnd),
            _ if self.flat() && !self.blocks.in_heading_text() => self.flat_break(element),
            Element::H1 | Element::H2 | Element::H3 | Element::H4 | Element::H5 | Element::H6 => {
                if self.blocks.in_heading() {
                    self.inline.break_all(&mut self.out);
                    self.blocks.end_heading(&mut self.out);
                } else {
                    self.block_break(Due::Blank);
                }
            }
            _ if self.blocks.in_heading_text() => self.flat_break(element),
            Element::Ul | Element::Ol | Element::Menu | Element::Dir => {
                self.inline.break_all(&mut self.out);
                self.blocks.pop_to(|c| matches!(c, Container::List(..)));
                let due = if self.blocks.in_item() {
                    Due::Line
                } else {
                    Due::Blank
                };
                self.blocks.ask(due);
            }
            Element::Li => {
                self.inline.break_all(&mut self.out);
                self.blocks.pop_to(|c| matches!(c, Container::Item { .. }));
                self.blocks.ask(Due::Line);
            }
            Element::Blockquote => {
                self.inline.break_all(&mut self.out);
                self.blocks.pop_to(|c| *c == Container::Quote);
                self.blocks.ask(Due::Blank);
            }
            _ => {}
        }
    }

    /// Takes in text that is shown.
    pub(in crate::extract) fn text(&mut self, text: &str) {
        if self.is_full() {
            return;
        }
        if let Some(math) = &mut self.math {
            if math.in_tex {
                math.tex.push_str(text);
            } else {
                math.text.push_str(text);
            }
            return;
        }
        // Most text tokens: short, and with neither.
        if text.len() <= MarkdownMasks::MAX && self.code.is_none() {
            let masks = MarkdownMasks::of(text.as_bytes());
            if masks.other == 0 {
                return self.text_short(text, masks);
            }
        }
        // As in the plain text: a no-break space is a space, a NUL is
        // nothing.
        if has_nul_or_c2(text.as_bytes()) {
            let text: String = text
                .chars()
                .filter(|&c| c != '\0')
                .map(|c| if c == '\u{a0}' { ' ' } else { c })
                .collect();
            return self.text_plain(&text);
        }
        self.text_plain(text)
    }

    /// [`Markdown::text`] of text with no NUL or no-break space.
    fn text_plain(&mut self, text: &str) {
        if self.code.is_some() {
            return self.code_text(text);
        }
        let start = text
            .bytes()
            .take_while(|&b| crate::scan::is_ascii_whitespace(b))
            .count();
        self.write_words(text, start, None);
    }

    /// [`Markdown::text_plain`] of a text outside code, of at most
    /// [`MarkdownMasks::MAX`] bytes whose classes `masks` holds.
    fn text_short(&mut self, text: &str, masks: MarkdownMasks) {
        let start = (!masks.whitespace).trailing_zeros() as usize;
        self.write_words(text, start, Some(masks));
    }

    /// Writes the text outside code whose whitespace ends at `start`
    /// (its classes `masks`, if it is short): what is due before it, then
    /// the text collapsed and escaped.
    #[inline(always)]
    fn write_words(&mut self, text: &str, start: usize, masks: Option<MarkdownMasks>) {
        if start > 0 {
            self.blocks.ask(Due::Space);
        }
        let Some(first) = text.get(start..).and_then(|t| t.chars().next()) else {
            return;
        };
        self.begin(first);
        let place = escape::Place {
            line_start: self.blocks.line_start && self.table.is_none(),
            cell: self.table.as_ref().is_some_and(|t| t.in_cell()),
            code: self.inline.in_code(),
        };
        // `4` at a line's start and then `)` from another token would be
        // an ordered list's marker, which neither token shows alone.
        if matches!(first, '.' | ')')
            && !place.line_start
            && !place.code
            && self.table.is_none()
            && escape::digits_begin_the_line(&self.out)
        {
            self.out.push('\\');
        }
        let words = &text[start..];
        let ends_with_space = match masks {
            Some(masks) => escape::write_short(&mut self.out, words, masks.from(start), place),
            None => escape::write_text(&mut self.out, words, place),
        };
        if ends_with_space {
            self.blocks.ask(Due::Space);
        }
        self.blocks.line_start = false;
    }

    /// Writes what is due before text beginning with `first`.
    #[inline]
    fn begin(&mut self, first: char) {
        if !self.inline.waiting() && self.table.is_none() {
            // Most text: nothing due, or a space between words.
            match self.blocks.due {
                Due::Nothing => return,
                Due::Space if !self.blocks.line_start => {
                    self.out.push(' ');
                    self.blocks.due = Due::Nothing;
                    return;
                }
                _ => {}
            }
        }
        let next = if self.blocks.due == Due::Nothing {
            first
        } else {
            ' '
        };
        self.inline.settle(&mut self.out, next);
        // A code span is on one line: a `<br>` in it is a space.
        let flat = self.flat() || self.inline.in_code();
        if let Some(table) = &mut self.table {
            if table.place_empty(self.out.len()) {
                self.blocks.due = Due::Nothing;
            }
            table.before_text(self.out.len());
        }
        self.blocks.begin(&mut self.out, flat);
        self.inline.open_due(&mut self.out, first);
    }

    /// Writes an image (with alt text asked for): `![alt](src)`, or the
    /// alt text alone in code or without a `src`.
    pub(in crate::extract) fn image(&mut self, alt: &str, src: Option<String>) {
        if self.is_full() {
            return;
        }
        if alt.trim_ascii().is_empty() {
            // No word, but a break between words, as in the plain text
            // (in code, a space written as it is).
            if self.code.is_some() {
                self.out.push(' ');
            } else {
                self.blocks.ask(Due::Space);
            }
            return;
        }
        if self.math.is_some() || self.code.is_some() || self.inline.code_around() {
            // A word between spaces, as in the plain text.
            self.blocks.ask(Due::Space);
            if self.code.is_some() {
                self.out.push(' ');
            }
            self.text(alt);
            if self.code.is_some() {
                self.out.push(' ');
            }
            return self.blocks.ask(Due::Space);
        }
        match src {
            Some(src) => {
                // A word between spaces, as in the plain text.
                self.blocks.ask(Due::Space);
                self.begin('!');
                inline::image(&mut self.out, alt, &src);
                self.blocks.line_start = false;
                self.blocks.ask(Due::Space);
            }
            // A word between spaces, as in the plain text.
            None => {
                self.blocks.ask(Due::Space);
                self.text(alt);
                self.blocks.ask(Due::Space);
            }
        }
    }

    /// A `<pre>` begins: the separator and prefix are written now, and
    /// its text raw after them.
    fn start_code(&mut self, tag: &Tag<'_>) {
        self.block_break(Due::Blank);
        self.blocks.begin(&mut self.out, false);
        self.blocks.line_start = false;
        self.code = Some(CodeBlock {
            start: self.out.len(),
            language: language_of(tag).unwrap_or_default(),
            depth: 1,
            marks: self.marks.as_ref().map_or(0, Vec::len),
        });
    }

    /// Writes code text: line breaks kept, each line after the first
    /// given the containers' prefix.
    fn code_text(&mut self, text: &str) {
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.blocks.next_line(&mut self.out);
            }
            self.out.push_str(line);
        }
    }

    /// A line break in code (a block or `<br>` in a `<pre>`).
    fn code_line(&mut self) {
        if !self.out.ends_with('\n') {
            self.blocks.next_line(&mut self.out);
        }
    }

    /// The `<pre>` ends: its fence goes around its text, one backtick
    /// longer than the longest run of them in it.
    fn end_code(&mut self) {
        let Some(code) = self.code.take() else {
            return;
        };
        let mut text = self.out.split_off(code.start);
        let mut prefix = String::new();
        self.blocks.next_line(&mut prefix);
        // As a tree builder drops a newline right after `<pre>`.
        if text.starts_with(&prefix) {
            text.replace_range(..prefix.len(), "");
        }
        if text.ends_with(&prefix) {
            text.truncate(text.len() - prefix.len());
        }
        let fence = "`".repeat((inline::longest_run(text.as_bytes(), b'`') + 1).max(3));
        self.out.push_str(&fence);
        self.out.push_str(&code.language);
        self.out.push_str(&prefix);
        if !text.is_empty() {
            self.out.push_str(&text);
            self.out.push_str(&prefix);
        }
        self.out.push_str(&fence);
        self.blocks.ask(Due::Blank);
        self.settle_marks(code.marks, code.start);
    }

    /// Ends the `<math>` open, if any, at a tag of `element` that makes a
    /// block or cell boundary: such a tag inside math is the tree
    /// builder's breakout from foreign content (`<p>`, `<div>`, `<table>`
    /// close the math), or HTML inside a text integration point (`<mi>`,
    /// `annotation-xml`); either way the plain text breaks there, so the
    /// math written so far ends and the boundary is made as anywhere else
    /// (the math's later end tag then closes nothing).
    #[inline]
    fn end_math_at_a_block(&mut self, element: Element) {
        if self.math.is_some() && visible::boundary(element).is_some() {
            self.end_math();
        }
    }

    /// The `<math>` ends: its TeX annotation in dollars, or its text.
    fn end_math(&mut self) {
        let Some(math) = self.math.take() else {
            return;
        };
        let tex: Vec<&str> = math
            .tex
            .split(crate::scan::is_ascii_whitespace_char)
            .filter(|w| !w.is_empty())
            .collect();
        if tex.is_empty() {
            return self.text(&math.text);
        }
        let dollars = if math.display_block { "$$" } else { "$" };
        if math.display_block {
            self.block_break(Due::Blank);
        }
        self.begin('$');
        self.out.push_str(dollars);
        self.out.push_str(&tex.join(" "));
        self.out.push_str(dollars);
        self.blocks.line_start = false;
        if math.display_block {
            self.block_break(Due::Blank);
        }
    }

    /// A row or cell tag: in the outermost table, the text before it ends
    /// (its markup closed; a cell's place noted, the containers opened in
    /// it closed with it); anywhere else, a space.
    fn table_part(&mut self, part: TablePart) {
        let Some(table) = self.table.as_mut().filter(|t| t.nested == 0) else {
            return self.blocks.ask(Due::Space);
        };
        // A cell's end tag with no cell open: a break between words, as
        // in the plain text.
        if part == TablePart::CellEnd && !table.in_cell() {
            return self.blocks.ask(Due::Space);
        }
        self.inline.end_all(&mut self.out);
        let at = self.out.len();
        match part {
            TablePart::Row => return table.row(at),
            TablePart::CellStart => table.start_cell(at),
            TablePart::CellEnd => table.end_cell(at),
        }
        self.blocks.truncate(table.depth());
        if part == TablePart::CellStart {
            // A cell's text starts its place: nothing is due before it.
            self.blocks.due = Due::Nothing;
            self.blocks.line_start = true;
        }
    }

    fn start_table(&mut self) {
        if let Some(table) = &mut self.table {
            table.nested += 1;
            self.blocks.ask(Due::Space);
            return;
        }
        if self.blocks.in_heading() || self.flat_tables > 0 {
            self.flat_tables += 1;
            self.blocks.ask(Due::Space);
            return;
        }
        self.inline.end_all(&mut self.out);
        let due = self.blocks.due.max(Due::Blank);
        self.blocks.due = Due::Nothing;
        self.table = Some(Box::new(Table::new(
            self.out.len(),
            due,
            self.blocks.depth(),
            self.marks.as_ref().map_or(0, Vec::len),
        )));
    }

    fn end_table(&mut self) {
        if self.flat_tables > 0 {
            self.flat_tables -= 1;
            self.blocks.ask(Due::Space);
            return;
        }
        let Some(table) = &mut self.table else {
            return;
        };
        if table.nested > 0 {
            table.nested -= 1;
            self.blocks.ask(Due::Space);
            return;
        }
        self.inline.end_all(&mut self.out);
        let Some(table) = self.table.take() else {
            return;
        };
        let (start, marks) = (table.start(), table.marks);
        self.blocks.truncate(table.depth());
        table.write(&mut self.out, &mut self.blocks);
        self.settle_marks(marks, start);
    }

    /// With main content: the block whose end main content just noted
    /// ends here (`blocks` blocks have ended).
    pub(in crate::extract) fn mark(&mut self, blocks: usize) {
        if let Some(marks) = &mut self.marks {
            while marks.len() <= blocks {
                marks.push(self.out.len());
            }
        }
    }

    /// A table or code block that began at `start` of the output, with
    /// `from` marks taken, was written anew: the marks taken inside it
    /// no longer point into it, and it goes with the last block in it.
    fn settle_marks(&mut self, from: usize, start: usize) {
        if let Some(marks) = &mut self.marks {
            let end = self.out.len();
            let from = from.min(marks.len());
            if let Some((last, inside)) = marks[from..].split_last_mut() {
                inside.iter_mut().for_each(|m| *m = start);
                *last = end;
            }
        }
    }

    /// Ends the page: what is open closes.
    pub(in crate::extract) fn finish(&mut self) {
        if self.math.is_some() {
            self.end_math();
        }
        if self.code.is_some() {
            self.end_code();
        }
        while self.table.is_some() {
            if let Some(table) = &mut self.table {
                table.nested = 0;
            }
            self.end_table();
        }
        self.inline.end_all(&mut self.out);
        if self.blocks.in_heading() {
            self.blocks.end_heading(&mut self.out);
        }
    }

    /// The Markdown, cut at the cap (at a character boundary), and
    /// whether it was cut.
    pub(in crate::extract) fn take(self) -> (String, bool) {
        cut(self.out, self.limit)
    }

    /// The Markdown of the kept blocks (their numbers, in order): each run
    /// of consecutive blocks as written, a blank line between runs.
    pub(in crate::extract) fn take_blocks(self, kept: &[usize]) -> (String, bool) {
        let marks = self.marks.unwrap_or_default();
        // A mark is where the output ended at a block's end; markup taken
        // out after it (emphasis that no delimiter could close) may have
        // moved the text under it, so each is held to the output and to a
        // character boundary.
        let at = |mark: Option<usize>| {
            let mut at = mark.unwrap_or(self.out.len()).min(self.out.len());
            while !self.out.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let span = |b: usize| {
            let (start, end) = (at(marks.get(b).copied()), at(marks.get(b + 1).copied()));
            start.min(end)..end
        };
        let mut out = String::new();
        let mut previous: Option<usize> = None;
        for &b in kept {
            let text = &self.out[span(b)];
            // The blocks after a kept one go on as written, separators
            // and all, but at the start, where there is nothing to
            // separate.
            if previous.is_some_and(|p| p + 1 == b) && !out.is_empty() {
                out.push_str(text);
            } else {
                let text = text.trim_start_matches('\n');
                if !out.is_empty() && !text.is_empty() {
                    out.push_str("\n\n");
                }
                out.push_str(text);
            }
            previous = Some(b);
        }
        cut(out, self.limit)
    }
}

/// Whether `bytes` holds a NUL or a byte 0xC2 (which may begin a no-break
/// space), eight bytes a step: most text tokens are short, where a call
/// to a vector search costs more than it saves.
fn has_nul_or_c2(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS != 0;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        if has_zero(x) || has_zero(x ^ (0xC2 * ONES)) {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| b == 0 || b == 0xC2)
}

/// `text` cut to at most `limit` bytes at a character boundary, and
/// whether it was cut.
fn cut(mut text: String, limit: usize) -> (String, bool) {
    if text.len() <= limit {
        return (text, false);
    }
    let mut at = limit;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text.truncate(at);
    (text, true)
}

#[cfg(test)]
mod tests {
    use super::has_nul_or_c2;

    #[test]
    fn nul_or_c2_anywhere() {
        assert!(!has_nul_or_c2(b""));
        assert!(!has_nul_or_c2("plain text é ü and more".as_bytes()));
        for at in 0..20 {
            let mut text = vec![b'a'; 20];
            text[at] = 0;
            assert!(has_nul_or_c2(&text), "{at}");
            text[at] = 0xC2;
            assert!(has_nul_or_c2(&text), "{at}");
            text[at] = 0xC3;
            assert!(!has_nul_or_c2(&text), "{at}");
        }
    }
}
