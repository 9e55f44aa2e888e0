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
//!   content;
//! - it follows whether a `<frameset>` would replace the body (§13.2.6.4.7
//!   "in body", and "after head"): in the "in frameset", "after frameset"
//!   and "after after frameset" insertion modes a tree builder ignores
//!   every start tag but `html`, `frameset`, `frame` and `noframes`, so
//!   only `noframes` switches (to RAWTEXT) from there on. See
//!   [`FramesetMode`].
//!
//! Outside `<svg>`/`<math>` the stack stays empty and costs nothing. It is an
//! approximation of the tree builder (it does not know about tables, the
//! form element pointer or the adoption agency, which decide what some
//! start and end tags at foreign content's integration points do), exact
//! for the documents real pages are: `tests/tree_oracle.rs` checks it
//! against html5ever's tree builder.
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
//! O(1) amortized: an end tag looks up the topmost open element of its
//! name (a hash, and a link from each element to the next one below with
//! its name), and either closes it with what is above it or does nothing:
//! it never walks the stack. The names live in one buffer, stacked like the
//! elements, so pushing allocates nothing per element and the whole stack
//! moves from one buffer of a stream to the next without a copy.

use core::fmt;
use std::collections::HashMap;
use std::collections::hash_map::Entry as Entry_;

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

/// Whether an HTML start tag leaves no element open "in body"
/// (§13.2.6.4.7): the void elements and the others inserted and popped at
/// once (`image` is inserted as `img`), and the start tags ignored there
/// (table parts outside a table, `frame`, `head`, and `html`, `body` and
/// `frameset`, which never open a second time). Inside foreign content's
/// integration points these must not be stacked, or the foreign element
/// below them would not be the current node any more. (In a table's cell a
/// `td` or `tr` would close the cell instead: auto-switching does not
/// follow tables.)
fn opens_nothing_in_body(element: Element) -> bool {
    use Element::*;
    element.is_void()
        || matches!(
            element,
            Image
                | Keygen
                | Basefont
                | Bgsound
                | Param
                | Caption
                | Colgroup
                | Frame
                | Head
                | Tbody
                | Td
                | Tfoot
                | Th
                | Thead
                | Tr
                | Html
                | Body
                | Frameset
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

/// Where the tree builder stands with respect to `<frameset>`: the part of
/// its insertion mode and "frameset-ok" flag that decides whether a
/// `frameset` start tag takes over the document (§13.2.6.4.4–7, 13.2.6.4.19–22).
///
/// A tree builder never leaves the frameset insertion modes once in them,
/// and "frameset-ok" never becomes "ok" again, so watching stops for good
/// at [`FramesetMode::Off`] or [`FramesetMode::In`]; on nearly every page the first
/// text or the first image, list item or table ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FramesetMode {
    /// Before the body ("initial" to "after head"): a `frameset` start tag
    /// is inserted whatever the flag says.
    BeforeBody,
    /// In the body with "frameset-ok" still "ok": a `frameset` start tag
    /// replaces the body.
    BodyOk,
    /// "frameset-ok" is "not ok" (or auto-switching is off): `frameset`
    /// is ignored.
    Off,
    /// "In frameset", "after frameset", "after after frameset": every
    /// start tag but `noframes` leaves the tokenizer in the data state.
    In,
}

/// Whether a character token with these characters sets "frameset-ok" to
/// "not ok": any but whitespace and NUL (which "in body" ignores and
/// foreign content inserts as U+FFFD without touching the flag).
fn sets_frameset_not_ok(text: &str) -> bool {
    text.bytes()
        .any(|b| !matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | 0))
}

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
    /// The topmost open element with a name of each key; each entry links
    /// to the next one below with its key. Two long names with one key
    /// only cost a step along that chain: the names themselves are
    /// compared before anything is closed.
    nearest: HashMap<NameKey, u32, KeyHasher>,
    keys: NameKeys,
    /// The key of [`ANNOTATION_XML_HTML`].
    annotation_xml_html: NameKey,
    /// Where the tree builder stands with respect to `<frameset>`.
    frameset: FramesetMode,
    /// `frameset` is [`FramesetMode::BeforeBody`] or [`FramesetMode::BodyOk`]:
    /// every token is looked at.
    watching: bool,
    /// The stack is empty and the frameset watch over: only the dozen
    /// switching start tags matter. (One flag for the test every tag
    /// makes.)
    quiet: bool,
    /// While watching: the last start tag switched to a raw text content
    /// model, so the text before the next end tag is that element's text,
    /// not character tokens of the body.
    raw_text: bool,
    /// While before the body: how many `template` elements are open in the
    /// head. Their contents are the template's, not the body's.
    head_templates: u32,
}

impl Default for OpenElements {
    fn default() -> OpenElements {
        let keys = NameKeys::default();
        OpenElements {
            stack: Vec::new(),
            long_names: String::new(),
            nearest: HashMap::default(),
            annotation_xml_html: keys.key(ANNOTATION_XML_HTML),
            keys,
            frameset: FramesetMode::BeforeBody,
            watching: true,
            quiet: false,
            raw_text: false,
            head_templates: 0,
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
    /// The next open element below with the same key ([`NONE`]: none).
    below_same: u32,
    /// Where the run of open elements it is in starts: HTML elements
    /// stacked above an integration point, or foreign elements above an
    /// HTML one (or the bottom).
    run_start: u32,
}

/// No entry.
const NONE: u32 = u32::MAX;

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

    /// Whether the frameset watch wants to see the text before each token
    /// ([`Self::text`]).
    #[inline(always)]
    pub(crate) fn watching_frameset(&self) -> bool {
        self.watching
    }

    fn set_frameset(&mut self, frameset: FramesetMode) {
        self.frameset = frameset;
        self.watching = matches!(frameset, FramesetMode::BeforeBody | FramesetMode::BodyOk);
        self.quiet = self.stack.is_empty() && !self.watching;
    }

    /// Text handed out (or about to be) before the next token: character
    /// tokens for the tree builder unless they are a raw text element's.
    /// Called, while [`Self::watching_frameset`], before every start tag,
    /// end tag, comment and DOCTYPE with the text pending before it, and
    /// for a piece of text handed out alone.
    #[cold]
    pub(crate) fn text(&mut self, text: &str) {
        if self.watching && !self.raw_text && self.head_templates == 0 && sets_frameset_not_ok(text)
        {
            self.set_frameset(FramesetMode::Off);
        }
    }

    /// What an HTML start tag does to the frameset watch (the tag is not
    /// inserted as a foreign element).
    #[cold]
    fn watch_start_tag(&mut self, tag: &Tag<'_>) {
        use Element::*;
        let element = tag.element;
        if self.frameset == FramesetMode::BeforeBody {
            if self.head_templates > 0 {
                // Inside a template in the head: its contents.
                if element == Template {
                    self.head_templates += 1;
                }
                return;
            }
            match element {
                // "in head" and "after head" keep these in the head.
                Html | Head | Base | Basefont | Bgsound | Link | Meta | Noframes | Script
                | Style | Title | Noscript => return,
                Template => {
                    self.head_templates = 1;
                    return;
                }
                // "after head": inserted, "in frameset".
                Frameset => return self.enter_frameset(),
                // "after head": the body, "frameset-ok" "not ok".
                Body => return self.set_frameset(FramesetMode::Off),
                // "anything else": the body, then this tag "in body".
                _ => self.set_frameset(FramesetMode::BodyOk),
            }
        }
        match element {
            Frameset => self.enter_frameset(),
            // "in body": the start tags that set "frameset-ok" to "not
            // ok" (`image` is `img`, `template` through "in head").
            Body | Pre | Listing | Li | Dd | Dt | Button | Applet | Marquee | Object | Table
            | Area | Br | Embed | Img | Image | Keygen | Wbr | Hr | Textarea | Xmp | Iframe
            | Select | Template => self.set_frameset(FramesetMode::Off),
            Input
                if !tag
                    .attr_value("type")
                    .is_some_and(|t| t.eq_ignore_ascii_case("hidden")) =>
            {
                self.set_frameset(FramesetMode::Off)
            }
            _ => {}
        }
    }

    /// A `frameset` start tag taken: it replaces the body (and everything
    /// open in it, foreign content included).
    fn enter_frameset(&mut self) {
        while !self.stack.is_empty() {
            self.pop();
        }
        self.set_frameset(FramesetMode::In);
    }

    /// What an end tag does to the frameset watch.
    #[cold]
    fn watch_end_tag(&mut self, tag: &Tag<'_>) {
        use Element::*;
        self.raw_text = false;
        if self.head_templates > 0 {
            if tag.element == Template {
                self.head_templates -= 1;
            }
            return;
        }
        match (self.frameset, tag.element) {
            // `</br>` is a `<br>` "in body", which sets the flag.
            (_, Br) => self.set_frameset(FramesetMode::Off),
            // "anything else" before the body: the body, flag unchanged.
            (FramesetMode::BeforeBody, Body | Html) => self.set_frameset(FramesetMode::BodyOk),
            _ => {}
        }
    }

    /// Bytes this stack holds on the heap (for a stream's memory cap).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.long_names.len()
            + self.stack.len() * core::mem::size_of::<Entry>()
            + self.nearest.len() * 16
    }

    /// Opens an element, named `name` on the stack.
    fn push(&mut self, ns: Ns, element: Element, name: &str) {
        let key = self.keys.key(name);
        let index = self.stack.len() as u32;
        // One hash per push and per pop (the entry API).
        let below_same = match self.nearest.entry(key) {
            Entry_::Occupied(mut e) => e.insert(index),
            Entry_::Vacant(e) => {
                e.insert(index);
                NONE
            }
        };
        if name_key::is_long(key) {
            self.long_names.push_str(name);
        }
        let run_start = match self.stack.last() {
            Some(below) if (below.ns == Ns::Html) == (ns == Ns::Html) => below.run_start,
            _ => index,
        };
        self.stack.push(Entry {
            ns,
            element,
            key,
            long_end: self.long_names.len(),
            below_same,
            run_start,
        });
        self.quiet = false;
    }

    /// Closes the current node.
    fn pop(&mut self) {
        let Some(entry) = self.stack.pop() else {
            return;
        };
        if let Entry_::Occupied(mut e) = self.nearest.entry(entry.key) {
            if entry.below_same == NONE {
                e.remove();
            } else {
                e.insert(entry.below_same);
            }
        }
        if name_key::is_long(entry.key) {
            let start = self.stack.last().map_or(0, |e| e.long_end);
            self.long_names.truncate(start);
        }
        if self.stack.is_empty() {
            self.quiet = !self.watching;
        }
    }

    /// Whether the adjusted current node is an element in foreign content
    /// (SVG or MathML), which, among other things, makes `<![CDATA[` open a
    /// CDATA section.
    #[inline]
    pub(crate) fn adjusted_current_node_is_foreign(&self) -> bool {
        matches!(self.stack.last(), Some(e) if e.ns != Ns::Html)
    }

    /// Closes the foreign elements on top of the stack until the current
    /// node is an HTML element, an HTML integration point or a MathML text
    /// integration point (or the stack is empty): what a breakout start tag
    /// and `</br>`, `</p>` do in foreign content (§13.2.6.5) before "in
    /// body" handles them.
    fn pop_to_html_content(&mut self) {
        use Element::*;
        while let Some(&top) = self.stack.last() {
            let html_content = match (top.ns, top.element) {
                (Ns::Html, _)
                | (Ns::Svg, ForeignObject | Desc | Title)
                | (Ns::MathMl, Mi | Mo | Mn | Ms | Mtext) => true,
                (Ns::MathMl, AnnotationXml) => self.is_named(
                    self.stack.len() - 1,
                    ANNOTATION_XML_HTML,
                    self.annotation_xml_html,
                ),
                _ => false,
            };
            if html_content {
                return;
            }
            self.pop();
        }
    }

    /// The topmost open element named `name` (whose key is `key`).
    fn nearest_named(&self, name: &str, key: NameKey) -> Option<usize> {
        let mut i = *self.nearest.get(&key)?;
        while !self.is_named(i as usize, name, key) {
            i = self.stack[i as usize].below_same;
            if i == NONE {
                return None;
            }
        }
        Some(i as usize)
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
    /// While the frameset watch is on, the text before the tag must have
    /// been given to [`Self::text`] first.
    #[inline(always)]
    pub(crate) fn start_tag(&mut self, tag: &Tag<'_>, scripting: bool) -> Option<State> {
        if self.ignores_start_tag(tag) {
            return None;
        }
        self.start_tag_switching(tag, scripting)
    }

    /// Whether a start tag changes nothing here: the test the tokenizer
    /// makes for every start tag, before it does anything else for one.
    /// Outside foreign content only a dozen elements matter (once the
    /// frameset watch has stopped, as it does early on nearly every page).
    #[inline(always)]
    pub(crate) fn ignores_start_tag(&self, tag: &Tag<'_>) -> bool {
        self.quiet && !SWITCHING[tag.element as usize]
    }

    /// Whether end tags change nothing here (the test the tokenizer makes
    /// for every end tag).
    #[inline(always)]
    pub(crate) fn ignores_end_tags(&self) -> bool {
        self.quiet
    }

    /// [`Self::start_tag`] for a tag that may switch (out of line: most
    /// tags do not get here).
    #[inline(never)]
    pub(crate) fn start_tag_switching(&mut self, tag: &Tag<'_>, scripting: bool) -> Option<State> {
        let (name, element) = (tag.name, tag.element);
        if self.frameset == FramesetMode::In {
            // "in frameset" and after: `noframes` goes to "in head"; every
            // other start tag that switches is ignored.
            return (element == Element::Noframes).then_some(State::Rawtext);
        }
        if let Some(&Entry { ns, .. }) = self.stack.last()
            && ns != Ns::Html
            && !self.top_is_integration_point(element)
        {
            if Self::is_breakout(tag) {
                self.pop_to_html_content();
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
        if self.watching {
            self.watch_start_tag(tag);
            if self.frameset == FramesetMode::In {
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
                if !self.stack.is_empty() && !opens_nothing_in_body(element) {
                    self.push(Ns::Html, element, name);
                }
                return None;
            }
        };
        if self.watching {
            self.raw_text = true;
        }
        // Inside foreign content's integration points the raw text element
        // is open too: its end tag (the one that ends its text) closes it,
        // and nothing below it.
        if !self.stack.is_empty() {
            self.push(Ns::Html, element, name);
        }
        Some(switch)
    }

    /// What an end tag does to the stack: closes the nearest open element
    /// of that name and everything above it. While the frameset watch is
    /// on, the text before the tag must have been given to [`Self::text`]
    /// first.
    #[inline(always)]
    pub(crate) fn end_tag(&mut self, tag: &Tag<'_>) {
        if !self.quiet {
            self.end_tag_loud(tag);
        }
    }

    /// [`Self::end_tag`] inside foreign content or while the frameset
    /// watch is on (out of line).
    #[inline(never)]
    pub(crate) fn end_tag_loud(&mut self, tag: &Tag<'_>) {
        if self.watching {
            self.watch_end_tag(tag);
        }
        if !self.stack.is_empty() {
            self.end_tag_open(tag);
        }
    }

    /// [`Self::end_tag`] inside foreign content: closes the topmost open
    /// element of that name and everything above it, when the tree builder
    /// would.
    fn end_tag_open(&mut self, tag: &Tag<'_>) {
        let (name, element) = (tag.name, tag.element);
        let Some(&top) = self.stack.last() else {
            return;
        };
        if top.ns != Ns::Html && matches!(element, Element::Br | Element::P) {
            self.pop_to_html_content();
            return;
        }
        let mut found = self.nearest_named(name, self.keys.key(name));
        if element == Element::AnnotationXml {
            let html = self.nearest_named(ANNOTATION_XML_HTML, self.annotation_xml_html);
            found = found.max(html);
        }
        let Some(i) = found else {
            return;
        };
        // With an HTML current node, "in body" walks down from it (§13.2.6.4.7,
        // "any other end tag" and the scoped ones): the integration point
        // below the HTML elements is special and a scope boundary, so only
        // an HTML element above it can be closed.
        if top.ns == Ns::Html && (self.stack[i].ns != Ns::Html || i < top.run_start as usize) {
            return;
        }
        while self.stack.len() > i {
            self.pop();
        }
    }
}

impl<'a> Tokenizer<'a> {
    /// What a start tag does to the content model and the element stack.
    #[inline]
    pub(super) fn auto_start_tag(&mut self, tag: &Tag<'a>) {
        if !self.ns_stack.ignores_start_tag(tag) {
            self.auto_start_tag_switching(tag);
        }
    }

    /// [`Self::auto_start_tag`] for a tag that may switch (out of line).
    #[inline(never)]
    fn auto_start_tag_switching(&mut self, tag: &Tag<'a>) {
        self.watch_text();
        if let Some(state) = self.ns_stack.start_tag_switching(tag, self.opts.scripting) {
            self.state = S::from(state);
        }
    }

    /// What an end tag does to the element stack.
    #[inline]
    pub(super) fn auto_end_tag(&mut self, tag: &Tag<'a>) {
        if !self.ns_stack.ignores_end_tags() {
            self.watch_text();
            self.ns_stack.end_tag_loud(tag);
        }
    }

    /// Tells the frameset watch the text pending before the next token, or
    /// handed out alone, while it watches (auto-switching only).
    #[inline(always)]
    pub(super) fn watch_text(&mut self) {
        if self.ns_stack.watching_frameset() && !self.text.is_empty() {
            self.ns_stack.text(self.text.as_str(self.input));
        }
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
                        // Below an HTML current node, only the HTML
                        // elements above the nearest foreign one close.
                        let html_top = model.last().is_some_and(|(ns, _)| *ns == Ns::Html);
                        let run_start = model
                            .iter()
                            .rposition(|(ns, _)| *ns != Ns::Html)
                            .map_or(0, |j| j + 1);
                        if let Some(i) = model.iter().rposition(|(_, n)| n == name)
                            && (!html_top || (model[i].0 == Ns::Html && i >= run_start))
                        {
                            model.truncate(i);
                        }
                    }
                    _ => {
                        stack.pop_to_html_content();
                        while model.last().is_some_and(|(ns, name)| {
                            *ns != Ns::Html
                                && !(*ns == Ns::Svg
                                    && matches!(name.as_str(), "foreignobject" | "desc"))
                                && !(*ns == Ns::MathMl && name == "mi")
                        }) {
                            model.pop();
                        }
                    }
                }
                assert_eq!(list(&stack), model);
                let mut open = 0;
                for &top in stack.nearest.values() {
                    let mut i = top;
                    while i != NONE {
                        open += 1;
                        i = stack.stack[i as usize].below_same;
                    }
                }
                assert_eq!(open, model.len(), "nearest");
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
        assert!(stack.stack.is_empty() && stack.nearest.is_empty());
        assert!(stack.long_names.is_empty());
    }
}
