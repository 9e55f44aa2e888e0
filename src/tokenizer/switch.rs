//! Content-model switching without a tree builder.
//!
//! In a browser the tree builder, not the tokenizer, decides that the text
//! after `<script>` is script data or that `<![CDATA[` inside `<svg>` opens a
//! CDATA section. A tokenizer used on its own would get those wrong, so in
//! auto-switch mode (the default) it does the part of the tree builder's
//! work that changes tokenization:
//!
//! - after an HTML start tag for `title`/`textarea` it switches to RCDATA;
//!   `style`, `xmp`, `iframe`, `noembed`, `noframes` (and `noscript` with
//!   scripting on) to RAWTEXT; `script` to script data; `plaintext` to
//!   PLAINTEXT;
//! - it keeps a stack of the elements open inside `<svg>` and `<math>`, with
//!   the standard's HTML and MathML text integration points and the
//!   "breakout" start tags that end foreign content, so that those switches
//!   apply only to HTML elements and CDATA sections open only in foreign
//!   content.
//!
//! Outside `<svg>`/`<math>` the stack stays empty and costs nothing. It is an
//! approximation of the tree builder (it does not know about misnested
//! tables or the adoption agency), exact for the documents real pages are.

use super::{Ns, S, Tokenizer};
use crate::token::Tag;

/// HTML start tags that end foreign content ("in foreign content", §13.2.6.5).
pub(crate) const BREAKOUT: &[&str] = &[
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strong",
    "strike",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
];

/// How far down the element stack an end tag looks for its element
/// (Blink stops nesting the tree at 512 levels).
const MAX_SEARCH: usize = 512;

/// HTML void elements, which never stay open.
pub(crate) const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

impl<'a> Tokenizer<'a> {
    /// Whether a start tag in foreign content ends it.
    fn is_breakout(tag: &Tag<'_>) -> bool {
        BREAKOUT.contains(&tag.name)
            || (tag.name == "font"
                && tag
                    .attrs()
                    .any(|a| matches!(a.name, "color" | "face" | "size")))
    }

    /// Whether the element on top of the stack makes a start tag `name` an
    /// HTML one: an HTML integration point, or a MathML text integration
    /// point for anything but `mglyph` and `malignmark`.
    fn top_is_integration_point(&self, name: &str) -> bool {
        match self.ns_stack.last() {
            Some((Ns::Svg, "foreignobject" | "desc" | "title")) => true,
            Some((Ns::MathMl, "mi" | "mo" | "mn" | "ms" | "mtext")) => {
                !matches!(name, "mglyph" | "malignmark")
            }
            Some((Ns::MathMl, "annotation-xml+html")) => true,
            _ => false,
        }
    }

    /// What a start tag does to the content model and the element stack.
    pub(super) fn auto_start_tag(&mut self, tag: &Tag<'a>) {
        let name = tag.name;
        // Outside foreign content only a dozen names matter; their first
        // letters rule out most tags before any string comparison.
        if self.ns_stack.is_empty()
            && !matches!(
                name.as_bytes().first(),
                Some(b'i' | b'm' | b'n' | b'p' | b's' | b't' | b'x')
            )
        {
            return;
        }
        if let Some(&(ns, _)) = self.ns_stack.last()
            && ns != Ns::Html
            && !self.top_is_integration_point(name)
        {
            if Self::is_breakout(tag) {
                while matches!(self.ns_stack.last(), Some((ns, _)) if *ns != Ns::Html) {
                    self.ns_stack.pop();
                }
            } else {
                if !tag.self_closing {
                    let entry = if ns == Ns::MathMl
                        && name == "annotation-xml"
                        && tag.attr_value("encoding").is_some_and(|e| {
                            e.eq_ignore_ascii_case("text/html")
                                || e.eq_ignore_ascii_case("application/xhtml+xml")
                        }) {
                        "annotation-xml+html"
                    } else {
                        name
                    };
                    self.ns_stack.push((ns, entry));
                }
                return;
            }
        }
        match name {
            "svg" | "math" => {
                if !tag.self_closing {
                    let ns = if name == "svg" { Ns::Svg } else { Ns::MathMl };
                    self.ns_stack.push((ns, name));
                }
                return;
            }
            "title" | "textarea" => self.state = S::Rcdata,
            "style" | "xmp" | "iframe" | "noembed" | "noframes" => self.state = S::Rawtext,
            "noscript" if self.opts.scripting => self.state = S::Rawtext,
            "script" => self.state = S::ScriptData,
            "plaintext" => self.state = S::Plaintext,
            _ => {}
        }
        // Inside foreign content's integration points, remember HTML
        // elements so their end tags return to the foreign element.
        if !self.ns_stack.is_empty() && !VOID.contains(&name) && self.state == S::Data {
            self.ns_stack.push((Ns::Html, name));
        }
    }

    /// What an end tag does to the element stack.
    pub(super) fn auto_end_tag(&mut self, name: &str) {
        if self.ns_stack.is_empty() {
            return;
        }
        let foreign_top = matches!(self.ns_stack.last(), Some((ns, _)) if *ns != Ns::Html);
        if foreign_top && matches!(name, "br" | "p") {
            while matches!(self.ns_stack.last(), Some((ns, _)) if *ns != Ns::Html) {
                self.ns_stack.pop();
            }
            return;
        }
        let matches_name = |entry: &str| {
            entry == name || (entry == "annotation-xml+html" && name == "annotation-xml")
        };
        // Look at most MAX_SEARCH elements down, as browsers bound their
        // tree depth: a flood of unmatched end tags in a deep tree stays
        // linear.
        let depth = self.ns_stack.len();
        let floor = depth.saturating_sub(MAX_SEARCH);
        if let Some(i) = self.ns_stack[floor..]
            .iter()
            .rposition(|(_, n)| matches_name(n))
        {
            self.ns_stack.truncate(floor + i);
        }
    }
}
