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
//! [`OpenElements`], which both use.
//!
//! # Bounded cost
//!
//! A hostile page can open millions of elements inside `<svg>` and then
//! close elements that are not open. So every operation on the stack is
//! O(1) amortized: an end tag first asks a count of the open elements by
//! name (a hash), and only searches the stack when one is open, popping
//! what it passes. The names live in one buffer, stacked like the
//! elements, so pushing allocates nothing per element and the whole stack
//! moves from one buffer of a stream to the next without a copy.

use core::fmt;
use std::collections::HashMap;

use super::name_key::{self, KeyHasher, NameKey, NameKeys};
use super::{S, State, Tokenizer};
use crate::element::{self, Element};
use crate::token::Tag;

/// Whether a start tag in foreign content ends it: the HTML "breakout"
/// tags of "in foreign content" (§13.2.6.5), `font` aside.
fn is_breakout_element(element: Element) -> bool {
    use Element::*;
    matches!(
        element,
        B | Big
            | Blockquote
            | Body
            | Br
            | Center
            | Code
            | Dd
            | Div
            | Dl
            | Dt
            | Em
            | Embed
            | H1
            | H2
            | H3
            | H4
            | H5
            | H6
            | Head
            | Hr
            | I
            | Img
            | Li
            | Listing
            | Menu
            | Meta
            | Nobr
            | Ol
            | P
            | Pre
            | Ruby
            | S
            | Small
            | Span
            | Strong
            | Strike
            | Sub
            | Sup
            | Table
            | Tt
            | U
            | Ul
            | Var
    )
}

/// Whether an HTML start tag switches the content model or opens foreign
/// content: the only start tags auto-switching acts on outside `<svg>` and
/// `<math>`.
const fn is_switching_element(element: Element) -> bool {
    use Element::*;
    matches!(
        element,
        Svg | Math
            | Title
            | Textarea
            | Style
            | Xmp
            | Iframe
            | Noembed
            | Noframes
            | Noscript
            | Script
            | Plaintext
    )
}

/// [`is_switching_element`] of every element, by discriminant: the test
/// the tokenizer makes for every start tag, as one load (a `match` on the
/// element compiles to a jump table here).
static SWITCHING: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < element::ALL.len() {
        table[i] = is_switching_element(element::ALL[i]);
        i += 1;
    }
    table
};

/// The name a MathML `annotation-xml` that is an HTML integration point
/// (its `encoding` is `text/html` or `application/xhtml+xml`) is held
/// under, so the stack can tell it from one that is not. It holds a space,
/// which no tag name does, so no tag is taken for it.
const ANNOTATION_XML_HTML: &str = "annotation-xml html";

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
/// and name (see the module docs for how they are held).
#[derive(Clone)]
pub(crate) struct OpenElements {
    /// The open elements, bottom first.
    stack: Vec<Entry>,
    /// The names of eight bytes or more of the open elements, one after
    /// the other (a shorter name is its own key).
    long_names: String,
    /// How many open elements have a name of each key. Two long names with
    /// one key only cost a search that finds nothing: the names themselves
    /// are compared before anything is closed.
    counts: HashMap<NameKey, u32, KeyHasher>,
    keys: NameKeys,
    /// The key of [`ANNOTATION_XML_HTML`].
    annotation_xml_html: NameKey,
}

impl Default for OpenElements {
    fn default() -> OpenElements {
        let keys = NameKeys::default();
        OpenElements {
            stack: Vec::new(),
            long_names: String::new(),
            counts: HashMap::default(),
            annotation_xml_html: keys.key(ANNOTATION_XML_HTML),
            keys,
        }
    }
}

/// One open element.
#[derive(Clone, Copy, Debug)]
struct Entry {
    ns: Ns,
    /// Its element, which the integration point rules test.
    element: Element,
    /// The key of its name ([`NameKeys`]): the name itself when short.
    key: NameKey,
    /// Where its name ends in `long_names` (where the names of the
    /// elements below it end, for a short name).
    long_end: usize,
}

impl fmt::Debug for OpenElements {
    /// As the list of elements, bottom first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries((0..self.stack.len()).map(|i| (self.stack[i].ns, self.name(i))))
            .finish()
    }
}

impl OpenElements {
    /// No open elements: outside foreign content.
    pub(crate) fn new() -> Self {
        OpenElements::default()
    }

    /// The name of the element at `i` (0 is the bottom).
    fn name(&self, i: usize) -> String {
        let key = self.stack[i].key;
        if name_key::is_long(key) {
            let start = if i == 0 {
                0
            } else {
                self.stack[i - 1].long_end
            };
            self.long_names[start..self.stack[i].long_end].to_owned()
        } else {
            let len = (key >> 56) as usize;
            let bytes: Vec<u8> = (0..len).map(|j| (key >> (8 * j)) as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }

    /// Whether the element at `i` is named `name`, whose key is `key`.
    #[inline]
    fn is_named(&self, i: usize, name: &str, key: NameKey) -> bool {
        let entry = self.stack[i];
        entry.key == key
            && (!name_key::is_long(key) || {
                let start = if i == 0 {
                    0
                } else {
                    self.stack[i - 1].long_end
                };
                &self.long_names[start..entry.long_end] == name
            })
    }

    /// Bytes this stack holds on the heap (for a stream's memory cap).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.long_names.len()
            + self.stack.len() * core::mem::size_of::<Entry>()
            + self.counts.len() * 16
    }

    /// Opens an element, named `name` on the stack.
    fn push(&mut self, ns: Ns, element: Element, name: &str) {
        let key = self.keys.key(name);
        *self.counts.entry(key).or_insert(0) += 1;
        if name_key::is_long(key) {
            self.long_names.push_str(name);
        }
        self.stack.push(Entry {
            ns,
            element,
            key,
            long_end: self.long_names.len(),
        });
    }

    /// Closes the current node.
    fn pop(&mut self) {
        let Some(entry) = self.stack.pop() else {
            return;
        };
        if let Some(n) = self.counts.get_mut(&entry.key) {
            *n -= 1;
            if *n == 0 {
                self.counts.remove(&entry.key);
            }
        }
        if name_key::is_long(entry.key) {
            let start = self.stack.last().map_or(0, |e| e.long_end);
            self.long_names.truncate(start);
        }
    }

    /// Whether the adjusted current node is an element in foreign content
    /// (SVG or MathML), which, among other things, makes `<![CDATA[` open a
    /// CDATA section.
    #[inline]
    pub(crate) fn adjusted_current_node_is_foreign(&self) -> bool {
        matches!(self.stack.last(), Some(e) if e.ns != Ns::Html)
    }

    /// Closes the foreign elements on top of the stack, down to the HTML
    /// integration point (or the bottom) that foreign content started in.
    fn pop_foreign(&mut self) {
        while self.adjusted_current_node_is_foreign() {
            self.pop();
        }
    }

    /// Whether a start tag in foreign content ends it (a "breakout" tag,
    /// "in foreign content", §13.2.6.5).
    fn is_breakout(tag: &Tag<'_>) -> bool {
        is_breakout_element(tag.element)
            || (tag.element == Element::Font
                && tag
                    .attrs()
                    .any(|a| matches!(a.name, "color" | "face" | "size")))
    }

    /// Whether the adjusted current node makes a start tag for `element`
    /// an HTML one: an HTML integration point, or a MathML text integration
    /// point for anything but `mglyph` and `malignmark`.
    fn top_is_integration_point(&self, element: Element) -> bool {
        use Element::*;
        let Some(top) = self.stack.last() else {
            return false;
        };
        match (top.ns, top.element) {
            (Ns::Svg, ForeignObject | Desc | Title) => true,
            (Ns::MathMl, Mi | Mo | Mn | Ms | Mtext) => !matches!(element, Mglyph | Malignmark),
            (Ns::MathMl, AnnotationXml) => {
                let i = self.stack.len() - 1;
                self.is_named(i, ANNOTATION_XML_HTML, self.annotation_xml_html)
            }
            _ => false,
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
    #[inline(always)]
    pub(crate) fn start_tag(&mut self, tag: &Tag<'_>, scripting: bool) -> Option<State> {
        // Outside foreign content only a dozen elements matter.
        if self.stack.is_empty() && !SWITCHING[tag.element as usize] {
            return None;
        }
        self.start_tag_switching(tag, scripting)
    }

    /// [`Self::start_tag`] for a tag that may switch (out of line: most
    /// tags do not get here).
    #[inline(never)]
    fn start_tag_switching(&mut self, tag: &Tag<'_>, scripting: bool) -> Option<State> {
        let (name, element) = (tag.name, tag.element);
        if let Some(&Entry { ns, .. }) = self.stack.last()
            && ns != Ns::Html
            && !self.top_is_integration_point(element)
        {
            if Self::is_breakout(tag) {
                self.pop_foreign();
            } else {
                if !tag.self_closing {
                    let entry = if ns == Ns::MathMl
                        && element == Element::AnnotationXml
                        && tag.attr_value("encoding").is_some_and(|e| {
                            e.eq_ignore_ascii_case("text/html")
                                || e.eq_ignore_ascii_case("application/xhtml+xml")
                        }) {
                        ANNOTATION_XML_HTML
                    } else {
                        name
                    };
                    self.push(ns, element, entry);
                }
                return None;
            }
        }
        let switch = match element {
            Element::Svg | Element::Math => {
                if !tag.self_closing {
                    let ns = if element == Element::Svg {
                        Ns::Svg
                    } else {
                        Ns::MathMl
                    };
                    self.push(ns, element, name);
                }
                return None;
            }
            Element::Title | Element::Textarea => State::Rcdata,
            Element::Style
            | Element::Xmp
            | Element::Iframe
            | Element::Noembed
            | Element::Noframes => State::Rawtext,
            Element::Noscript if scripting => State::Rawtext,
            Element::Script => State::ScriptData,
            Element::Plaintext => State::Plaintext,
            _ => {
                // Inside foreign content's integration points, remember
                // HTML elements so their end tags return to the foreign
                // element.
                if !self.stack.is_empty() && !element.is_void() {
                    self.push(Ns::Html, element, name);
                }
                return None;
            }
        };
        Some(switch)
    }

    /// What an end tag does to the stack: closes the nearest open element
    /// of that name and everything above it.
    #[inline(always)]
    pub(crate) fn end_tag(&mut self, tag: &Tag<'_>) {
        if !self.stack.is_empty() {
            self.end_tag_open(tag);
        }
    }

    /// [`Self::end_tag`] inside foreign content (out of line: most end
    /// tags are outside).
    #[inline(never)]
    fn end_tag_open(&mut self, tag: &Tag<'_>) {
        let (name, element) = (tag.name, tag.element);
        if self.adjusted_current_node_is_foreign() && matches!(element, Element::Br | Element::P) {
            self.pop_foreign();
            return;
        }
        let key = self.keys.key(name);
        let annotation = element == Element::AnnotationXml;
        let html_key = annotation.then_some(self.annotation_xml_html);
        let open = |key| self.counts.contains_key(&key);
        if !open(key) && !html_key.is_some_and(open) {
            return;
        }
        let found = (0..self.stack.len()).rev().find(|&i| {
            self.is_named(i, name, key)
                || html_key.is_some_and(|k| self.is_named(i, ANNOTATION_XML_HTML, k))
        });
        if let Some(i) = found {
            while self.stack.len() > i {
                self.pop();
            }
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
    pub(super) fn auto_end_tag(&mut self, tag: &Tag<'a>) {
        self.ns_stack.end_tag(tag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An end tag named `name`.
    fn end_tag(name: &str) -> Tag<'_> {
        Tag {
            name,
            element: Element::from_name(name),
            name_span: Default::default(),
            attributes: &[],
            self_closing: false,
            span: Default::default(),
        }
    }

    /// The stack as a list of (namespace, name), bottom first.
    fn list(stack: &OpenElements) -> Vec<(Ns, String)> {
        (0..stack.stack.len())
            .map(|i| (stack.stack[i].ns, stack.name(i)))
            .collect()
    }

    /// Random pushes, end tags and breakouts over short and long names
    /// give the stack a plain list gives: an end tag closes the nearest
    /// element of its name and everything above it, at any depth, and
    /// nothing when none is open.
    #[test]
    fn end_tags_close_the_nearest_open_element_like_a_plain_list() {
        let names = [
            "g",
            "path",
            "clippath",
            "foreignobject",
            "lineargradient",
            "x",
            "mi",
            "desc",
        ];
        let mut next = crate::testing::below(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200 {
            let mut stack = OpenElements::new();
            let mut model: Vec<(Ns, String)> = Vec::new();
            for _ in 0..400 {
                let name = names[next(names.len())];
                match next(4) {
                    0 | 1 => {
                        let ns = [Ns::Svg, Ns::MathMl, Ns::Html][next(3)];
                        stack.push(ns, Element::from_name(name), name);
                        model.push((ns, name.to_owned()));
                    }
                    2 => {
                        stack.end_tag(&end_tag(name));
                        if let Some(i) = model.iter().rposition(|(_, n)| n == name) {
                            model.truncate(i);
                        }
                    }
                    _ => {
                        stack.pop_foreign();
                        while model.last().is_some_and(|(ns, _)| *ns != Ns::Html) {
                            model.pop();
                        }
                    }
                }
                assert_eq!(list(&stack), model);
                let open: usize = stack.counts.values().map(|&n| n as usize).sum();
                assert_eq!(open, model.len(), "counts");
            }
        }
    }

    #[test]
    fn a_deep_stack_still_closes_its_bottom() {
        let mut stack = OpenElements::new();
        stack.push(Ns::Svg, Element::Svg, "svg");
        for _ in 0..100_000 {
            stack.push(Ns::Svg, Element::Other, "g");
        }
        let x = end_tag("x");
        for _ in 0..100_000 {
            stack.end_tag(&x); // not open: O(1) each
        }
        assert_eq!(stack.stack.len(), 100_001);
        stack.end_tag(&end_tag("svg"));
        assert!(stack.stack.is_empty() && stack.counts.is_empty());
        assert!(stack.long_names.is_empty());
    }
}
