//! MathML's `<math>` as `$...$` or `$$...$$` when it has a TeX
//! annotation (Wikipedia's formulas), otherwise as its text.

use crate::element::Element;
use crate::extract::visible;
use crate::token::Tag;

use super::Markdown;
use super::blocks::Due;

/// A `<math>` element: its text, and its TeX annotation if it has one.
#[derive(Debug, Default)]
pub(super) struct Math {
    display_block: bool,
    text: String,
    tex: String,
    /// Whether the text now is a TeX annotation's.
    in_tex: bool,
    /// Math elements open inside it.
    depth: u32,
}

impl Math {
    /// How many bytes its text holds.
    pub(super) fn heap_bytes(&self) -> usize {
        self.text.capacity() + self.tex.capacity()
    }

    /// A `<math>` element begins: inline, or a block by its `display`.
    pub(super) fn new(tag: &Tag<'_>) -> Math {
        Math {
            display_block: tag
                .attr_value("display")
                .is_some_and(|d| d.eq_ignore_ascii_case("block")),
            ..Math::default()
        }
    }

    /// Text inside it: the TeX annotation's, or the rest.
    pub(super) fn push_str(&mut self, text: &str) {
        if self.in_tex {
            self.tex.push_str(text);
        } else {
            self.text.push_str(text);
        }
    }
}

impl Markdown {
    /// A start tag inside `<math>`: a nested `<math>` counted, a TeX
    /// annotation's text taken apart from the rest.
    pub(super) fn math_start_tag(&mut self, tag: &Tag<'_>) {
        let Some(math) = &mut self.math else { return };
        math.depth += u32::from(tag.element == Element::Math);
        if tag.name == "annotation"
            && tag
                .attr_value("encoding")
                .is_some_and(|e| e.eq_ignore_ascii_case("application/x-tex"))
        {
            math.in_tex = true;
        }
    }

    /// An end tag inside `<math>`: the outermost `</math>` writes it.
    pub(super) fn math_end_tag(&mut self, tag: &Tag<'_>) {
        let Some(math) = &mut self.math else { return };
        if tag.name == "annotation" {
            math.in_tex = false;
        } else if tag.element == Element::Math {
            if math.depth == 0 {
                self.end_math();
            } else {
                math.depth -= 1;
            }
        }
    }

    /// Ends the `<math>` open, if any, at a tag of `element` that makes a
    /// block or cell boundary: such a tag inside math is the tree
    /// builder's breakout from foreign content (`<p>`, `<div>`, `<table>`
    /// close the math), or HTML inside a text integration point (`<mi>`,
    /// `annotation-xml`); either way the plain text breaks there, so the
    /// math written so far ends and the boundary is made as anywhere else
    /// (the math's later end tag then closes nothing).
    #[inline]
    pub(super) fn end_math_at_a_block(&mut self, element: Element) {
        if self.math.is_some() && visible::boundary(element).is_some() {
            self.end_math();
        }
    }

    /// The `<math>` ends: its TeX annotation in dollars, or its text.
    pub(super) fn end_math(&mut self) {
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
}
