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

mod blocks; // what is open: containers, list items, what is due before text
mod code; // `pre` as fenced code blocks
mod escape; // escaping text where CommonMark would read markup
mod inline; // emphasis, strong, code spans and links, opened and closed
mod math; // MathML as TeX, or its text
mod output; // the Markdown given out: whole, or main content's blocks
mod table; // tables as pipe tables
mod text; // text and images, with what is due before them

use crate::element::Element;
use crate::token::Tag;

use super::visible::{Boundary, ElementSet};

use blocks::{Blocks, Container, Due, Items, ListKind};
use code::CodeBlock;
use inline::{Inline, Style};
use math::Math;
use table::{Table, TablePart};

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

/// The inline markup of [`ELEMENTS`]: emphasis, strong and code spans
/// (see [`Markdown::inline_start`]).
pub(in crate::extract) const INLINE: ElementSet = ElementSet::of(&[
    Element::Strong,
    Element::B,
    Element::Em,
    Element::I,
    Element::Code,
    Element::Kbd,
    Element::Samp,
    Element::Tt,
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

    /// How many bytes it holds: the output, the main-content marks, an
    /// open table's cells, an open `<math>`'s text.
    pub(in crate::extract) fn heap_bytes(&self) -> usize {
        self.out.capacity()
            + self
                .marks
                .as_ref()
                .map_or(0, |m| m.capacity() * size_of::<usize>())
            + self.table.as_ref().map_or(0, |t| t.heap_bytes())
            + self.math.as_ref().map_or(0, |m| m.heap_bytes())
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

    /// Whether [`Markdown::start_tag`] and [`Markdown::end_tag`] want a
    /// tag of `element`: those of [`ELEMENTS`], and any in math or code.
    /// What they did with the others (a block's break asked as a space
    /// where text is flat) their boundary does too ([`Markdown::boundary`]),
    /// so the others (most of a page's blocks: `div`, `p`, `section`...)
    /// are not worth a call.
    #[inline(always)]
    pub(in crate::extract) fn takes_tag(&self, element: Element) -> bool {
        ELEMENTS.contains(element) || self.math.is_some() || self.code.is_some()
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
        if self.math.is_some() {
            return self.math_start_tag(tag);
        }
        if self.code.is_some() {
            return self.code_start_tag(tag);
        }
        if let Some(style) = style_of(element) {
            self.inline.start(style);
            return;
        }
        match element {
            Element::A => self.start_anchor(tag, url),
            Element::Math => {
                self.math = Some(Box::new(Math::new(tag)));
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

    /// An `<a>` starts: a link to its `href` resolved by `url` (unless
    /// link targets are left out), which ends the link open.
    fn start_anchor(&mut self, tag: &Tag<'_>, url: &dyn Fn(&str, &mut String)) {
        if self.inline.in_link() {
            self.inline.end(Style::Link, &mut self.out);
        }
        if let Some(href) = tag.attr_value("href").filter(|_| self.link_targets) {
            self.inline.start_link(|target| url(href, target));
        }
    }

    /// Takes in a start tag of [`INLINE`] markup or of `<a>`: what
    /// [`Markdown::start_tag`] does, without its tests of the other
    /// elements.
    #[inline]
    pub(in crate::extract) fn inline_start(
        &mut self,
        tag: &Tag<'_>,
        url: &dyn Fn(&str, &mut String),
    ) {
        if self.math.is_none() && self.code.is_none() {
            if let Some(style) = style_of(tag.element) {
                return self.inline.start(style);
            }
            if tag.element == Element::A {
                return self.start_anchor(tag, url);
            }
        }
        self.start_tag(tag, url)
    }

    /// Takes in an end tag of [`INLINE`] markup or of `<a>`, as
    /// [`Markdown::inline_start`] does a start tag.
    #[inline]
    pub(in crate::extract) fn inline_end(&mut self, tag: &Tag<'_>) {
        if self.math.is_none() && self.code.is_none() {
            if let Some(style) = style_of(tag.element) {
                return self.inline.end(style, &mut self.out);
            }
            if tag.element == Element::A {
                return self.inline.end(Style::Link, &mut self.out);
            }
        }
        self.end_tag(tag)
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
        if self.math.is_some() {
            return self.math_end_tag(tag);
        }
        if self.code.is_some() {
            return self.code_end_tag(tag);
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tokenizer;
    use crate::element::ALL;
    use crate::extract::visible::boundary;
    use crate::token::Token;

    /// Feeds `tokens` to `markdown` as the extractor does (a tag to the
    /// writer if it takes it, then its boundary); with `every_tag`, every
    /// tag to the writer, as before [`Markdown::takes_tag`].
    fn feed(markdown: &mut Markdown, tokens: &[Token<'_>], every_tag: bool) {
        for token in tokens {
            match token {
                Token::Text(text) => markdown.text(text.data),
                Token::StartTag(tag) => {
                    if every_tag || markdown.takes_tag(tag.element) {
                        markdown.start_tag(tag, &|raw, out| out.push_str(raw));
                    }
                    markdown.boundary(boundary(tag.element), tag.element);
                }
                Token::EndTag(tag) => {
                    if every_tag || markdown.takes_tag(tag.element) {
                        markdown.end_tag(tag);
                    }
                    markdown.boundary(boundary(tag.element), tag.element);
                }
                _ => {}
            }
        }
    }

    /// The path of inline markup and `<a>` ([`Markdown::inline_start`],
    /// [`Markdown::inline_end`]) leaves the writer as
    /// [`Markdown::start_tag`] and [`Markdown::end_tag`] leave it, after
    /// each token of a page that nests and misnests them, in code, math,
    /// a table and a heading, with link targets and without.
    #[test]
    fn inline_path_is_the_tags_path() {
        let arena = crate::bumpalo::Bump::new();
        let page = "<p>a <b>b <i>i <a href=u1>l <code>c</code></a> <a href='javascript:x'>j</a>\
                    </i></b> <a href=u2><b>x</a>y</b> <a href=u3>n <a href=u4>m</a> <a>none</a> \
                    <a href=''>e</a><pre>p <a href=u5>q</a> <b>r</b></pre><math><mi>x</mi>\
                    <a href=u6>m</a><em>e</em></math><table><tr><td><a href=u7>t <em>e</em></a>\
                    <td><code>k</table><h2><a href=u8>h</a> <i>i</i></h2><code>x <a href=u9>y</a>\
                    </code> <a href=u10>open <b>bold";
        let options = crate::Options::default().auto_switch(false);
        let tokens: Vec<Token<'_>> = Tokenizer::with_options(page, &arena, options).collect();
        let url = |raw: &str, out: &mut String| out.push_str(raw);
        for link_targets in [true, false] {
            let run = |inline_path: bool| {
                let mut markdown = Markdown::new(link_targets, usize::MAX, usize::MAX, false);
                let mut states = Vec::new();
                for token in &tokens {
                    match token {
                        Token::Text(text) => markdown.text(text.data),
                        Token::StartTag(tag) => {
                            let inline = INLINE.contains(tag.element) || tag.element == Element::A;
                            if inline_path && inline {
                                markdown.inline_start(tag, &url);
                            } else if markdown.takes_tag(tag.element) {
                                markdown.start_tag(tag, &url);
                            }
                            markdown.boundary(boundary(tag.element), tag.element);
                        }
                        Token::EndTag(tag) => {
                            let inline = INLINE.contains(tag.element) || tag.element == Element::A;
                            if inline_path && inline {
                                markdown.inline_end(tag);
                            } else if markdown.takes_tag(tag.element) {
                                markdown.end_tag(tag);
                            }
                            markdown.boundary(boundary(tag.element), tag.element);
                        }
                        _ => {}
                    }
                    states.push(format!("{markdown:?}"));
                }
                markdown.finish();
                (states, markdown.take().0)
            };
            let (states, out) = run(true);
            assert!(out.contains("](u1)") || !link_targets, "{out}");
            assert_eq!((states, out), run(false), "{link_targets}");
        }
    }

    /// The tags [`Markdown::takes_tag`] turns away change nothing that
    /// their boundary does not: at every point of a page that opens what
    /// the writer keeps state for (a table, a heading, lists, a quote,
    /// emphasis, a link, code, math), a start or end tag of each element
    /// not of [`ELEMENTS`] leaves the writer as it leaves it when taken,
    /// and the text after it is written the same.
    #[test]
    fn tags_turned_away_change_nothing_but_their_boundary() {
        let arena = crate::bumpalo::Bump::new();
        let page = "<table><tr><td>c <h2>h <ul><li>i <blockquote>q <b>b <a href=u>l \
                    <em>e</em> <code>k</code></a></b></blockquote></li></ul></h2></td></tr></table>\
                    <h3>t</h3><ol><li>o</ol><pre>p</pre><math><mi>x</mi></math><p>end";
        let options = crate::Options::default().auto_switch(false);
        let tokens: Vec<Token<'_>> =
            Tokenizer::with_options(page, &arena, options.clone()).collect();
        let names: String = ALL
            .iter()
            .filter(|&&e| !ELEMENTS.contains(e))
            .filter_map(|e| e.name())
            .map(|name| format!("<{name}></{name}>"))
            .collect();
        let others: Vec<Token<'_>> = Tokenizer::with_options(&names, &arena, options)
            .filter(|t| matches!(t, Token::StartTag(_) | Token::EndTag(_)))
            .collect();
        assert!(others.len() > 100);
        for at in 0..=tokens.len() {
            for other in &others {
                let state = |every_tag: bool| {
                    let mut markdown = Markdown::new(true, usize::MAX, usize::MAX, false);
                    feed(&mut markdown, &tokens[..at], true);
                    feed(&mut markdown, core::slice::from_ref(other), every_tag);
                    let before = format!("{markdown:?}");
                    markdown.text("w");
                    markdown.finish();
                    (before, markdown.take().0)
                };
                assert_eq!(state(false), state(true), "{at} {other:?}");
            }
        }
    }
}
