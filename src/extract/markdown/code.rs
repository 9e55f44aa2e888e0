//! `pre` (and `listing`, `xmp`, `plaintext`) as fenced code blocks: the
//! text written as it comes, the fence put in at the end, as long as the
//! longest run of backticks inside needs.

use crate::element::Element;
use crate::token::Tag;

use super::blocks::Due;
use super::inline;
use super::{Markdown, is_block, is_pre};

/// A `<pre>` being written as a fenced code block.
#[derive(Debug)]
pub(super) struct CodeBlock {
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

impl Markdown {
    /// A start tag inside a code block: a line break where a block
    /// begins, a space between cells, the language from an inner
    /// `<code>`'s class if the `<pre>` named none.
    pub(super) fn code_start_tag(&mut self, tag: &Tag<'_>) {
        let Some(code) = &mut self.code else { return };
        let element = tag.element;
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
    }

    /// An end tag inside a code block: the outermost `pre`-like element's
    /// ends it.
    pub(super) fn code_end_tag(&mut self, tag: &Tag<'_>) {
        let Some(code) = &mut self.code else { return };
        let element = tag.element;
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
    }

    /// A `<pre>` begins: the separator and prefix are written now, and
    /// its text raw after them.
    pub(super) fn start_code(&mut self, tag: &Tag<'_>) {
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
    /// given the containers' prefix. The breaks found by `memchr`, where
    /// `str::split` searched for the character's last byte and then
    /// compared it whole (most code tokens are a line or less).
    pub(super) fn code_text(&mut self, text: &str) {
        let mut rest = text;
        while let Some(at) = memchr::memchr(b'\n', rest.as_bytes()) {
            self.out.push_str(&rest[..at]);
            self.blocks.next_line(&mut self.out);
            rest = &rest[at + 1..];
        }
        self.out.push_str(rest);
    }

    /// A line break in code (a block or `<br>` in a `<pre>`).
    pub(super) fn code_line(&mut self) {
        if !self.out.ends_with('\n') {
            self.blocks.next_line(&mut self.out);
        }
    }

    /// The `<pre>` ends: its fence goes around its text, one backtick
    /// longer than the longest run of them in it.
    pub(super) fn end_code(&mut self) {
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
}
