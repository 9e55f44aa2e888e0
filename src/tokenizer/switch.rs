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
//!
//! The serializer (`serialize.rs`) must know the content model of every
//! text token exactly as the tokenizer will read it back, or text it writes
//! raw would be re-read as markup. So the rules live here once, in
//! [`OpenElements`], generic over how it holds element names: the tokenizer
//! borrows them from its input (`&'a str`, no allocation), while the
//! serializer and a streaming tokenizer's carry-over between buffers own
//! them (`String`), since they outlive any one input.

use core::fmt;

use super::{S, State, Tokenizer};
use crate::token::Tag;

/// HTML start tags that end foreign content ("in foreign content", §13.2.6.5).
const BREAKOUT: &[&str] = &[
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
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// The namespace of an element on the [`OpenElements`] stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ns {
    Html,
    Svg,
    MathMl,
}

/// The open elements as far as auto-switching tracks them (the part of the
/// tree builder's "stack of open elements" that changes tokenization):
/// empty outside `<svg>`/`<math>`; inside, each open element's namespace
/// and name, the name type `N` chosen by the owner (see the module docs).
///
/// A MathML `annotation-xml` whose `encoding` is `text/html` or
/// `application/xhtml+xml` (an HTML integration point) is held under the
/// name `annotation-xml+html`.
#[derive(Clone)]
pub(crate) struct OpenElements<N> {
    stack: Vec<(Ns, N)>,
}

impl<N: fmt::Debug> fmt::Debug for OpenElements<N> {
    /// As the list of elements, bottom first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.stack.fmt(f)
    }
}

impl<N> OpenElements<N> {
    /// No open elements: outside foreign content.
    pub(crate) const fn new() -> Self {
        OpenElements { stack: Vec::new() }
    }

    /// The same elements with their names converted by `f` (to carry the
    /// stack from one buffer of a stream to the next).
    pub(crate) fn map<M>(&self, mut f: impl FnMut(&N) -> M) -> OpenElements<M> {
        OpenElements {
            stack: self.stack.iter().map(|(ns, name)| (*ns, f(name))).collect(),
        }
    }

    /// The names of the open elements, bottom first.
    pub(crate) fn names(&self) -> impl Iterator<Item = &N> {
        self.stack.iter().map(|(_, name)| name)
    }

    /// Whether the adjusted current node is an element in foreign content
    /// (SVG or MathML), which, among other things, makes `<![CDATA[` open a
    /// CDATA section.
    #[inline]
    pub(crate) fn adjusted_current_node_is_foreign(&self) -> bool {
        matches!(self.stack.last(), Some((Ns::Svg | Ns::MathMl, _)))
    }

    /// Closes the foreign elements on top of the stack, down to the HTML
    /// integration point (or the bottom) that foreign content started in.
    fn pop_foreign(&mut self) {
        while self.adjusted_current_node_is_foreign() {
            self.stack.pop();
        }
    }
}

impl<N: AsRef<str>> OpenElements<N> {
    /// Whether a start tag in foreign content ends it (a "breakout" tag,
    /// "in foreign content", §13.2.6.5).
    fn is_breakout(tag: &Tag<'_>) -> bool {
        BREAKOUT.contains(&tag.name)
            || (tag.name == "font"
                && tag
                    .attrs()
                    .any(|a| matches!(a.name, "color" | "face" | "size")))
    }

    /// Whether the adjusted current node makes a start tag `name` an HTML
    /// one: an HTML integration point, or a MathML text integration point
    /// for anything but `mglyph` and `malignmark`.
    fn top_is_integration_point(&self, name: &str) -> bool {
        match self.stack.last() {
            Some((ns, top)) => match (ns, top.as_ref()) {
                (Ns::Svg, "foreignobject" | "desc" | "title") => true,
                (Ns::MathMl, "mi" | "mo" | "mn" | "ms" | "mtext") => {
                    !matches!(name, "mglyph" | "malignmark")
                }
                (Ns::MathMl, "annotation-xml+html") => true,
                _ => false,
            },
            None => false,
        }
    }

    /// What a start tag does to the stack, and the content model it
    /// switches the tokenizer to, if any: RCDATA, RAWTEXT, script data or
    /// PLAINTEXT for the HTML elements that take them (`noscript` only
    /// when `scripting`).
    ///
    /// The tokenizer calls this for every start tag: the test that rules
    /// out most tags outside foreign content comes first, and nothing on
    /// the common paths computes a value only to test it again.
    #[inline]
    pub(crate) fn start_tag<'t>(&mut self, tag: &Tag<'t>, scripting: bool) -> Option<State>
    where
        N: From<&'t str>,
    {
        let name = tag.name;
        // Outside foreign content only a dozen names matter; their first
        // letters rule out most tags before any string comparison.
        if self.stack.is_empty()
            && !matches!(
                name.as_bytes().first(),
                Some(b'i' | b'm' | b'n' | b'p' | b's' | b't' | b'x')
            )
        {
            return None;
        }
        if let Some(&(ns, _)) = self.stack.last()
            && ns != Ns::Html
            && !self.top_is_integration_point(name)
        {
            if Self::is_breakout(tag) {
                self.pop_foreign();
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
                    self.stack.push((ns, N::from(entry)));
                }
                return None;
            }
        }
        let switch = match name {
            "svg" | "math" => {
                if !tag.self_closing {
                    let ns = if name == "svg" { Ns::Svg } else { Ns::MathMl };
                    self.stack.push((ns, N::from(name)));
                }
                return None;
            }
            "title" | "textarea" => State::Rcdata,
            "style" | "xmp" | "iframe" | "noembed" | "noframes" => State::Rawtext,
            "noscript" if scripting => State::Rawtext,
            "script" => State::ScriptData,
            "plaintext" => State::Plaintext,
            _ => {
                // Inside foreign content's integration points, remember
                // HTML elements so their end tags return to the foreign
                // element.
                if !self.stack.is_empty() && !VOID.contains(&name) {
                    self.stack.push((Ns::Html, N::from(name)));
                }
                return None;
            }
        };
        Some(switch)
    }

    /// What an end tag does to the stack.
    #[inline]
    pub(crate) fn end_tag(&mut self, name: &str) {
        if self.stack.is_empty() {
            return;
        }
        if self.adjusted_current_node_is_foreign() && matches!(name, "br" | "p") {
            self.pop_foreign();
            return;
        }
        let matches_name = |entry: &str| {
            entry == name || (entry == "annotation-xml+html" && name == "annotation-xml")
        };
        // Look at most MAX_SEARCH elements down, as browsers bound their
        // tree depth: a flood of unmatched end tags in a deep tree stays
        // linear.
        let depth = self.stack.len();
        let floor = depth.saturating_sub(MAX_SEARCH);
        if let Some(i) = self.stack[floor..]
            .iter()
            .rposition(|(_, n)| matches_name(n.as_ref()))
        {
            self.stack.truncate(floor + i);
        }
    }
}

impl<'a> Tokenizer<'a> {
    /// What a start tag does to the content model and the element stack.
    #[inline]
    pub(super) fn auto_start_tag(&mut self, tag: &Tag<'a>) {
        if let Some(state) = self.ns_stack.start_tag(tag, self.opts.scripting) {
            self.state = S::from(state);
        }
    }

    /// What an end tag does to the element stack.
    #[inline]
    pub(super) fn auto_end_tag(&mut self, name: &str) {
        self.ns_stack.end_tag(name);
    }
}
