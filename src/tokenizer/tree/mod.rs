//! Exact switching: the tree-construction stage ([tree construction](https://html.spec.whatwg.org/multipage/parsing.html#tree-construction)) followed without
//! building a tree.
//!
//! Auto-switching (`switch.rs`) approximates the tree builder at O(1) a
//! tag: it follows the elements open inside `<svg>`/`<math>` and a few
//! pointers, which is exact for real pages. What it leaves out — the
//! elements open outside foreign content, the table insertion modes, the
//! list of active formatting elements and the adoption agency — still
//! decides, on contrived pages, whether the adjusted current node is
//! foreign (so whether `<![CDATA[` opens a CDATA section) and whether a
//! start tag is inserted at all (so whether it switches the content
//! model). [`Options::exact_switching`](crate::Options::exact_switching)
//! turns this follower on instead: every insertion mode, the stack of
//! open elements, the list of active formatting elements with its markers
//! and the Noah's Ark clause, the adoption agency, the head and form
//! element pointers, "frameset-ok", the template insertion modes and
//! quirks mode from the DOCTYPE. It keeps of each element what the rules
//! read back (its namespace, name and, for formatting elements, the
//! attributes a clone carries), and nothing of the tree itself: no rule
//! that changes the stack depends on where a node was inserted (foster
//! parenting and the adoption agency's moves only change the tree).
//!
//! The follower is fed the tokens the tokenizer hands out: start and end
//! tags, the text before each (its characters sorted into NUL, whitespace
//! and the rest, which is all the rules tell apart, but for a line feed
//! right after `<pre>` or `<listing>`, which "in body" ignores), comments
//! and DOCTYPEs (given to it where they are built, out of the tokenizer's
//! hot emit path: a comment ends "in table text" and that line feed
//! rule). After a start tag the follower answers the content model to
//! switch to (the generic RCDATA and raw text parsing algorithms, script
//! data, PLAINTEXT), and at `<![CDATA[` whether the adjusted current node
//! is foreign (the text before it given first).
//!
//! `tests/tree_oracle.rs` and the `tree_oracle` fuzz target hold it to
//! html5ever's tree builder, but for html5ever's known deviations from the
//! standard (its element sets and three rules, listed in
//! `tests/support/tree_oracle.rs`; [`Options::__html5ever_deviations`]
//! reproduces them, so that the tests can tell those deviations from any
//! other difference).
//!
//! [`Options::__html5ever_deviations`]: crate::Options::__html5ever_deviations
//!
//! The files follow the standard's sections: `modes.rs` the insertion
//! modes ([the rules for parsing tokens in HTML content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhtml)) and foreign content ([the rules for parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)), `stack.rs` the
//! parse state they work on ([parse state](https://html.spec.whatwg.org/multipage/parsing.html#parse-state): the stack of open elements and its
//! scopes, the list of active formatting elements, the adoption agency,
//! resetting the insertion mode), `quirks.rs` the DOCTYPE's quirks mode.
//!
//! # Cost
//!
//! This is a tree builder's work, at a tree builder's cost: the rules walk
//! the stack of open elements (scopes, "any other end tag", the adoption
//! agency's furthest block) and the list of active formatting elements,
//! so a tag costs up to their depth, as in a browser. To keep that
//! bounded for any input, the follower stops once either holds more than
//! [`MAX_DEPTH`] elements: from there on it changes nothing, so no start
//! tag switches the content model and `<![CDATA[` is read as the adjusted
//! current node was then. No real page comes near: the seven pages of
//! the corpus open at most 33 elements at once (Wikipedia's).

mod foreign;
mod in_body;
mod modes;
mod quirks;
mod stack;
mod tables;

use core::hash::{BuildHasherDefault, Hasher};
use std::collections::HashSet;

use super::State;
use crate::element::Element;
use crate::element::categories::Namespace;
use crate::scan::is_ascii_whitespace;
use crate::token::{Attribute, Doctype, Tag};

/// The most elements open at once that the follower follows; see the
/// module docs.
pub(crate) const MAX_DEPTH: usize = 4096;

/// The hash of an element's id: Fibonacci hashing, one multiply. The ids
/// are the follower's own, handed out in order, which a multiplicative
/// hash spreads over the table whatever subset of them a page keeps open.
#[derive(Default)]
pub(super) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u32(&mut self, id: u32) {
        self.0 = u64::from(id).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The insertion mode ([the insertion mode](https://html.spec.whatwg.org/multipage/parsing.html#the-insertion-mode)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    InHeadNoscript,
    AfterHead,
    InBody,
    Text,
    InTable,
    InTableText,
    InCaption,
    InColumnGroup,
    InTableBody,
    InRow,
    InCell,
    InTemplate,
    AfterBody,
    InFrameset,
    AfterFrameset,
    AfterAfterBody,
    AfterAfterFrameset,
}

/// What a character is to the rules: they tell NUL and ASCII whitespace
/// from the rest, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Chars {
    Null,
    Space,
    Other,
}

/// Whether an element is an integration point of foreign content
/// ([the rules for parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Point {
    None,
    /// An HTML integration point: SVG `foreignObject`, `desc`, `title`,
    /// MathML `annotation-xml` with an HTML `encoding`.
    Html,
    /// A MathML text integration point: `mi`, `mo`, `mn`, `ms`, `mtext`.
    MathText,
}

/// An element, as much of it as the rules read back.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// Which element this is: clones get a new one.
    pub(super) id: u32,
    pub(super) ns: Namespace,
    pub(super) element: Element,
    /// The tag name of an [`Element::Other`] (empty otherwise).
    pub(super) name: Box<str>,
    pub(super) point: Point,
    /// For the formatting elements of the list of active formatting
    /// elements: the attributes, which the Noah's Ark clause compares and
    /// a clone carries, as one string (each name and value followed by a
    /// NUL, which neither holds, sorted by name: equal strings are equal
    /// sets). Empty otherwise.
    pub(super) attrs: Box<str>,
}

impl Node {
    /// Whether this is the HTML element `element`.
    #[inline]
    pub(super) fn is(&self, element: Element) -> bool {
        self.ns == Namespace::Html && self.element == element
    }

    /// Whether this is an HTML element with the tag's name.
    pub(super) fn is_html_named(&self, tag: &RuleTag<'_>) -> bool {
        self.ns == Namespace::Html && self.same_name(tag)
    }

    /// Whether this element has the tag's name (in any namespace).
    pub(super) fn same_name(&self, tag: &RuleTag<'_>) -> bool {
        self.element == tag.element && (tag.element != Element::Other || *self.name == *tag.name)
    }
}

/// A tag as the rules read it.
#[derive(Clone, Copy, Debug)]
pub(super) struct RuleTag<'t> {
    pub(super) element: Element,
    pub(super) name: &'t str,
    pub(super) attrs: &'t [Attribute<'t>],
    pub(super) self_closing: bool,
}

impl<'t> RuleTag<'t> {
    fn of(tag: &'t Tag<'t>) -> RuleTag<'t> {
        RuleTag {
            element: tag.element,
            name: tag.name,
            attrs: tag.attributes,
            self_closing: tag.self_closing,
        }
    }

    /// A tag the rules make up (`image` read as `img`, `</br>` as `<br>`):
    /// no attributes.
    pub(super) fn named(element: Element) -> RuleTag<'static> {
        RuleTag {
            element,
            name: element.name().unwrap_or(""),
            attrs: &[],
            self_closing: false,
        }
    }

    /// The value of the first attribute named `name` (duplicates dropped).
    pub(super) fn attr(&self, name: &str) -> Option<&'t str> {
        self.attrs
            .iter()
            .find(|a| !a.duplicate && a.name == name)
            .map(|a| a.value)
    }

    /// The names of the tag's attributes, duplicates left out.
    pub(super) fn attribute_names(&self) -> impl Iterator<Item = &'t str> {
        self.attrs.iter().filter(|a| !a.duplicate).map(|a| a.name)
    }

    /// Whether this is the tag `element`.
    #[inline]
    pub(super) fn is(&self, element: Element) -> bool {
        self.element == element
    }
}

/// A token as the rules read it.
#[derive(Clone, Copy, Debug)]
pub(super) enum RuleToken<'t> {
    Start(RuleTag<'t>),
    End(RuleTag<'t>),
    Chars(Chars),
    Doctype { quirky: bool },
}

/// What a rule does with its token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flow {
    Done,
    /// Reprocess the token (through the dispatcher, [tree construction](https://html.spec.whatwg.org/multipage/parsing.html#tree-construction)).
    Again,
    /// Reprocess the token by the rules of the current insertion mode, not
    /// through the dispatcher (foreign content's breakout, [the rules for parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)).
    AgainInHtml,
}

/// The follower: the parse state of [parse state](https://html.spec.whatwg.org/multipage/parsing.html#parse-state) as far as it decides
/// tokenization.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub(super) mode: Mode,
    pub(super) original: Mode,
    /// The stack of template insertion modes.
    pub(super) templates: Vec<Mode>,
    /// The stack of open elements, bottom first.
    pub(super) stack: Vec<Node>,
    /// The ids of the elements on `stack`.
    pub(super) open: HashSet<u32, BuildHasherDefault<IdHasher>>,
    /// How many HTML `template` elements are on `stack`.
    pub(super) open_templates: usize,
    /// The list of active formatting elements; `None` is a marker.
    pub(super) formatting: Vec<Option<Node>>,
    /// The head element pointer.
    pub(super) head: Option<Node>,
    /// The form element pointer (the element's id).
    pub(super) form: Option<u32>,
    pub(super) frameset_ok: bool,
    pub(super) quirks: bool,
    /// Whether scripting is enabled (`noscript` is then raw text).
    pub(super) scripting: bool,
    /// "In table text": whether the pending table character tokens hold
    /// any but whitespace (which decides how they are inserted).
    pub(super) pending_other: bool,
    /// The content model the last start tag switches to.
    pub(super) switch: Option<State>,
    pub(super) next_id: u32,
    /// The stack grew past [`MAX_DEPTH`]: the follower has stopped.
    pub(super) stopped: bool,
    /// Follow html5ever 0.40 where it deviates from the standard, for the
    /// project's tests against html5ever's tree builder only
    /// (`Options::__html5ever_deviations`): its element sets (MathML
    /// `annotation-xml` bounds no scope, no SVG or MathML element is
    /// special, `isindex` is special and `search` is not), "in table body"
    /// closing a section when a `table`, `tbody` or `tfoot` (not `thead`)
    /// is in table scope, foreign content's breakout passing an HTML
    /// integration point `annotation-xml`, and "in table" taking
    /// characters to "in table text" under a `template` no more.
    pub(super) html5ever: bool,
    /// The last token was a `pre` or `listing` start tag: a line feed that
    /// comes next is ignored (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)).
    pub(super) ignore_lf: bool,
}

impl Tree {
    /// The state before the first token of a document.
    pub(crate) fn new(scripting: bool, html5ever: bool) -> Tree {
        Tree {
            mode: Mode::Initial,
            original: Mode::Initial,
            templates: Vec::new(),
            stack: Vec::new(),
            open: HashSet::default(),
            open_templates: 0,
            formatting: Vec::new(),
            head: None,
            form: None,
            frameset_ok: true,
            quirks: false,
            scripting,
            pending_other: false,
            switch: None,
            next_id: 0,
            stopped: false,
            html5ever,
            ignore_lf: false,
        }
    }

    /// A start tag: what it does to the parse state, and the content model
    /// it switches the tokenizer to, if any.
    pub(crate) fn start_tag(&mut self, tag: &Tag<'_>) -> Option<State> {
        self.switch = None;
        self.ignore_lf = false;
        self.dispatch(RuleToken::Start(RuleTag::of(tag)));
        self.switch.take()
    }

    /// An end tag.
    pub(crate) fn end_tag(&mut self, tag: &Tag<'_>) {
        self.ignore_lf = false;
        self.dispatch(RuleToken::End(RuleTag::of(tag)));
    }

    /// Text handed out before the next token (or alone): its character
    /// tokens, in order, a run of one kind at a time (the rules do the
    /// same for each character of a run). A kind that came since the
    /// insertion mode, the stack and the formatting list last changed is
    /// passed over: a character that changes none of them changes nothing
    /// the next of its kind would not (at most "frameset-ok", to the same
    /// value, and the pending characters of "in table text", to the same
    /// flags).
    pub(crate) fn text(&mut self, text: &str) {
        let mut bytes = text.as_bytes();
        if core::mem::take(&mut self.ignore_lf) {
            bytes = bytes.strip_prefix(b"\n").unwrap_or(bytes);
        }
        let mut seen = [false; 3];
        let mut state = (self.mode, self.stack.len(), self.formatting.len());
        let mut i = 0;
        while i < bytes.len() {
            let kind = match bytes[i] {
                0 => Chars::Null,
                b if is_ascii_whitespace(b) => Chars::Space,
                _ => Chars::Other,
            };
            i += 1;
            if seen[kind as usize] {
                continue;
            }
            self.dispatch(RuleToken::Chars(kind));
            let now = (self.mode, self.stack.len(), self.formatting.len());
            if now != state {
                state = now;
                seen = [false; 3];
            }
            seen[kind as usize] = true;
            if seen[Chars::Space as usize] && seen[Chars::Other as usize] {
                // Only a NUL can change anything now.
                match memchr::memchr(0, &bytes[i..]) {
                    Some(at) => i += at,
                    None => return,
                }
            }
        }
    }

    /// A comment: only "in table text" (which it ends, as any token but
    /// a character does) and the line feed rule after `<pre>` take note;
    /// every insertion mode leaves the parse state as it was for one.
    pub(crate) fn comment(&mut self) {
        self.ignore_lf = false;
        if self.mode == Mode::InTableText && !self.stopped {
            self.end_table_text();
        }
    }

    /// A DOCTYPE.
    pub(crate) fn doctype(&mut self, doctype: &Doctype<'_>) {
        self.ignore_lf = false;
        let quirky = quirks::is_quirky(doctype);
        self.dispatch(RuleToken::Doctype { quirky });
    }

    /// Whether the adjusted current node is an element in foreign content
    /// (so `<![CDATA[` opens a CDATA section).
    pub(crate) fn adjusted_current_node_is_foreign(&self) -> bool {
        matches!(self.stack.last(), Some(n) if n.ns != Namespace::Html)
    }

    /// The bytes held on the heap (about).
    pub(crate) fn heap_bytes(&self) -> usize {
        let node = core::mem::size_of::<Node>();
        let named = |n: &Node| n.name.len() + n.attrs.len();
        self.stack.capacity() * node
            + self.open.capacity() * 8
            + self.formatting.capacity() * core::mem::size_of::<Option<Node>>()
            + self.templates.capacity()
            + self.stack.iter().map(named).sum::<usize>()
            + self.formatting.iter().flatten().map(named).sum::<usize>()
    }

    /// The tree construction dispatcher ([tree construction](https://html.spec.whatwg.org/multipage/parsing.html#tree-construction)): the token goes to the
    /// current insertion mode, or to the rules for foreign content.
    fn dispatch(&mut self, tok: RuleToken<'_>) {
        if self.stopped {
            return;
        }
        let mut flow = Flow::Again;
        // Every reprocessing changes the insertion mode or the stack toward
        // a state that takes the token; the bound is a guard.
        for _ in 0..32 {
            flow = match flow {
                Flow::Done => return,
                Flow::Again if !self.in_html_content(&tok) => self.in_foreign_content(tok),
                Flow::Again | Flow::AgainInHtml => self.in_mode(self.mode, tok),
            };
            if self.stack.len() > MAX_DEPTH || self.formatting.len() > MAX_DEPTH {
                self.stopped = true;
                return;
            }
        }
        debug_assert_eq!(flow, Flow::Done, "{tok:?} reprocessed too often");
    }

    /// Whether the dispatcher sends the token to the insertion mode rather
    /// than to the rules for foreign content.
    fn in_html_content(&self, tok: &RuleToken<'_>) -> bool {
        let Some(node) = self.stack.last() else {
            return true;
        };
        if node.ns == Namespace::Html {
            return true;
        }
        match (node.point, tok) {
            (Point::MathText, RuleToken::Start(t)) => {
                !matches!(t.element, Element::Mglyph | Element::Malignmark)
            }
            (Point::MathText | Point::Html, RuleToken::Chars(_)) => true,
            (Point::Html, RuleToken::Start(_)) => true,
            (_, RuleToken::Start(t)) => {
                node.ns == Namespace::MathMl
                    && node.element == Element::AnnotationXml
                    && t.is(Element::Svg)
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, Token, Tokenizer};
    use bumpalo::Bump;

    /// The follower after the tokens of `input` (read without switching:
    /// no raw text elements in these inputs).
    fn follow(input: &str) -> Tree {
        let arena = Bump::new();
        let mut tree = Tree::new(true, false);
        for token in Tokenizer::with_options(input, &arena, Options::default().auto_switch(false)) {
            match token {
                Token::StartTag(tag) => _ = tree.start_tag(&tag),
                Token::EndTag(tag) => tree.end_tag(&tag),
                Token::Text(text) => tree.text(text.data),
                Token::Doctype(doctype) => tree.doctype(&doctype),
                Token::Comment(_) => {}
            }
        }
        tree
    }

    /// The names of the open elements, bottom first.
    fn stack(tree: &Tree) -> String {
        let names: Vec<&str> = tree
            .stack
            .iter()
            .map(|n| n.element.name().unwrap_or(&n.name))
            .collect();
        names.join(" ")
    }

    /// The names on the list of active formatting elements (`|` a marker).
    fn formatting(tree: &Tree) -> String {
        let names: Vec<&str> = tree
            .formatting
            .iter()
            .map(|e| e.as_ref().map_or("|", |n| n.element.name().unwrap_or("?")))
            .collect();
        names.join(" ")
    }

    #[test]
    fn implied_elements_and_modes() {
        let tree = follow("<!DOCTYPE html><table><tr><td>x");
        assert_eq!(stack(&tree), "html body table tbody tr td");
        assert_eq!(tree.mode, Mode::InCell);
        assert_eq!(formatting(&tree), "|");
        assert!(!tree.quirks);
        let tree = follow("x<p><table>");
        assert!(tree.quirks, "no DOCTYPE");
        assert_eq!(
            stack(&tree),
            "html body p table",
            "quirks: the table goes inside the p"
        );
        assert_eq!(
            stack(&follow("<!DOCTYPE html><p><table>")),
            "html body table"
        );
    }

    #[test]
    fn noahs_ark_keeps_three_of_a_kind() {
        let tree = follow("<!DOCTYPE html><b><b><b><b>");
        assert_eq!(formatting(&tree), "b b b");
        assert_eq!(stack(&tree), "html body b b b b");
        let tree = follow("<!DOCTYPE html><b x=1><b x=2><b x=1><b x=1><b x=1>");
        assert_eq!(
            tree.formatting.len(),
            4,
            "the first x=1 went, the x=2 stays"
        );
        assert!(
            tree.formatting[0]
                .as_ref()
                .is_some_and(|n| &*n.attrs == "x\x002\0")
        );
        // Attributes compare as sets: order does not matter.
        let tree = follow("<!DOCTYPE html><b x=1 y=2><b y=2 x=1><b x=1 y=2><b y=2 x=1>");
        assert_eq!(tree.formatting.len(), 3);
    }

    #[test]
    fn the_adoption_agency_moves_and_clones() {
        // The furthest block `p` takes a clone of `b`, which the outer
        // loop's next round closes (no furthest block above it).
        let tree = follow("<!DOCTYPE html><b><p>x</b>");
        assert_eq!(stack(&tree), "html body p");
        assert_eq!(formatting(&tree), "");
        // Formatting elements between the formatting element and the
        // furthest block are cloned in place; past the third, the inner
        // loop drops them from the list, and from the stack.
        let tree = follow("<!DOCTYPE html><a><b><i><s><u><div></a>");
        assert_eq!(stack(&tree), "html body i s u div");
        assert_eq!(formatting(&tree), "i s u");
        assert!(tree.stack[2..5].iter().all(|n| n.id > 7), "the clones");
        // The text after `</p>` reopens the formatting elements closed.
        let tree = follow("<!DOCTYPE html><p><b><i></p>x");
        assert_eq!(stack(&tree), "html body b i");
        // Misnested without a furthest block: popped with all above.
        assert_eq!(stack(&follow("<!DOCTYPE html><b><i></b>")), "html body");
    }

    #[test]
    fn foreign_content_and_breakout() {
        let tree = follow("<!DOCTYPE html><svg><foreignObject><div>");
        assert_eq!(stack(&tree), "html body svg foreignobject div");
        assert!(!tree.adjusted_current_node_is_foreign());
        let tree = follow("<!DOCTYPE html><svg><g><p>");
        assert_eq!(stack(&tree), "html body p", "p breaks out of svg");
        let tree = follow("<!DOCTYPE html><math><mi><mglyph>");
        assert!(tree.adjusted_current_node_is_foreign());
    }

    #[test]
    fn the_follower_stops_past_its_depth() {
        let tree = follow(&"<div>".repeat(MAX_DEPTH + 10));
        assert!(tree.stopped);
        assert_eq!(tree.stack.len(), MAX_DEPTH + 1);
        // Each `<b>` reopens all those `</p>` closed before it, so the
        // stack reaches the bound as the list grows toward it.
        let mut page = String::from("<!DOCTYPE html>");
        for i in 0..MAX_DEPTH + 10 {
            page.push_str(&format!("<p><b id={i}></p>"));
        }
        let tree = follow(&page);
        assert!(tree.stopped);
        assert_eq!(tree.stack.len(), MAX_DEPTH + 1);
        assert!(
            tree.formatting.len() > MAX_DEPTH - 4,
            "{}",
            tree.formatting.len()
        );
    }
}
