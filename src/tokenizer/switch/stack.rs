//! The approximation's stack of open elements: pushing and popping in
//! O(1), the nearest element of a name, and the boundaries of the
//! categories for the current node (see the module docs of `switch`,
//! "Bounded cost").

use core::fmt;
use std::collections::HashMap;
use std::collections::hash_map::Entry as MapEntry;

use super::Listen;
use crate::element::categories::{Category, Namespace, categories, is_integration_point_element};
use crate::element::{self, Element};
use crate::tokenizer::name_key::{self, KeyHasher, NameKey, NameKeys};

/// The name a MathML `annotation-xml` that is an HTML integration point
/// (its `encoding` is `text/html` or `application/xhtml+xml`) is held
/// under, so the stack can tell it from one that is not. It holds a space,
/// which no tag name does, so no tag is taken for it.
pub(super) const ANNOTATION_XML_HTML: &str = "annotation-xml html";

/// The approximation's stack of open elements (the part of the tree
/// builder's "stack of open elements" that changes tokenization): empty
/// outside `<svg>`/`<math>`; inside, each open element's namespace and
/// name (see the module docs for how they are held), and the few pointers
/// and flags the rules it follows read.
#[derive(Clone)]
pub(super) struct Approximation {
    /// The open elements, bottom first.
    pub(super) stack: Vec<Entry>,
    /// The names of eight bytes or more of the open elements, one after
    /// the other (a shorter name is its own key).
    pub(super) long_names: String,
    /// The topmost open element with a name of each key; each entry links
    /// to the next one below with its key. Two long names with one key
    /// only cost a step along that chain: the names themselves are
    /// compared before anything is closed.
    /// HTML elements have their keys with [`HTML_KEY`] flipped, so they
    /// are apart from the foreign ones, which the tree builder looks for
    /// apart.
    pub(super) nearest: HashMap<NameKey, u32, KeyHasher>,
    pub(super) keys: NameKeys,
    /// The key of [`ANNOTATION_XML_HTML`].
    pub(super) annotation_xml_html: NameKey,
    /// Where the tree builder stands with respect to `<frameset>`.
    pub(super) frameset: FramesetMode,
    /// `frameset` is [`FramesetMode::BeforeBody`] or [`FramesetMode::BodyOk`]:
    /// every token is looked at.
    pub(super) watching: bool,
    /// What the tokenizer's test for every tag lets through (mirrored in
    /// [`OpenElements`](super::OpenElements), which makes that test).
    pub(super) listen: Listen,
    /// While watching: the last start tag switched to a raw text content
    /// model, so the text before the next end tag is that element's text,
    /// not character tokens of the body.
    pub(super) raw_text: bool,
    /// While before the body: how many `template` elements are open in the
    /// head. Their contents are the template's, not the body's.
    pub(super) head_templates: u32,
    /// The open HTML `template` elements, innermost last, each with its
    /// "current template insertion mode" as far as it matters here.
    pub(super) templates: Vec<TemplateMode>,
    /// Where on `stack` the open HTML templates are that are on it (the
    /// others are below foreign content), bottom first.
    pub(super) stack_templates: Vec<u32>,
    /// For each open HTML element in a category of [`categories`] (the
    /// special elements, among them the scope boundaries, and `p`),
    /// bottom first: the nearest open HTML element at or below it in each
    /// category ([`NONE`]: none). The last one holds for the current node
    /// (the HTML elements above it are in none), so, with
    /// [`Entry::point`] for the integration points of foreign content,
    /// what the tree builder's walks down the stack stop at is found in
    /// O(1) ([`Approximation::near`]), and the elements that are in none (nearly
    /// all foreign elements) cost nothing here.
    pub(super) bounds: Vec<[u32; Category::COUNT]>,
    /// The form element pointer is set ([the element pointers](https://html.spec.whatwg.org/multipage/parsing.html#the-element-pointers)).
    pub(super) form: bool,
    /// Where on `stack` the element the form element pointer points to is,
    /// while it is open there ([`NONE`]: elsewhere, closed or no pointer).
    pub(super) form_at: u32,
}

/// Where the tree builder stands with respect to `<frameset>`: the part of
/// its insertion mode and "frameset-ok" flag that decides whether a
/// `frameset` start tag takes over the document (from ["in head"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead) to
/// ["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody), and from ["after body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-afterbody)
/// to ["after after body"](https://html.spec.whatwg.org/multipage/parsing.html#the-after-after-body-insertion-mode)).
///
/// A tree builder never leaves the frameset insertion modes once in them,
/// and "frameset-ok" never becomes "ok" again, so watching stops for good
/// at [`FramesetMode::Off`] or [`FramesetMode::In`]; on nearly every page the first
/// text or the first image, list item or table ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FramesetMode {
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

/// What the tree builder does with the start tags in a template, while the
/// template is the current node: the part of its "current template
/// insertion mode" (["in template"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intemplate)) that changes tokenization.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TemplateMode {
    /// "In template": the next start tag (not one for "in head") decides.
    Fresh,
    /// "In column group" (the first was `col`): every start tag but
    /// `template` (and `col`, which opens nothing) is ignored.
    ColumnGroup,
    /// Any other: tags are handled as elsewhere in the body.
    Other,
}

impl Default for Approximation {
    fn default() -> Approximation {
        let keys = NameKeys::default();
        Approximation {
            stack: Vec::new(),
            long_names: String::new(),
            nearest: HashMap::default(),
            annotation_xml_html: keys.key(ANNOTATION_XML_HTML),
            keys,
            frameset: FramesetMode::BeforeBody,
            watching: true,
            listen: Listen::Every,
            raw_text: false,
            head_templates: 0,
            templates: Vec::new(),
            stack_templates: Vec::new(),
            bounds: Vec::new(),
            form: false,
            form_at: NONE,
        }
    }
}

/// One open element.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) ns: Namespace,
    /// Its element, which the integration point rules test.
    pub(super) element: Element,
    /// The key of its name ([`NameKeys`]): the name itself when short.
    pub(super) key: NameKey,
    /// Where its name ends in `long_names` (where the names of the
    /// elements below it end, for a short name).
    pub(super) long_end: usize,
    /// The next open element below with the same key ([`NONE`]: none).
    pub(super) below_same: u32,
    /// Where the run of open elements it is in starts: HTML elements
    /// stacked above an integration point, or foreign elements above an
    /// HTML one (or the bottom).
    pub(super) run_start: u32,
    /// Its [`FLAGS`] (and [`FORM`]): what pushing and closing it do
    /// besides its name; 0 for most elements.
    pub(super) flags: u16,
    /// The nearest open [`POINT`] element at or below this one ([`NONE`]:
    /// none). Those are special and the boundary of every scope, so they
    /// are in every category but [`Category::Paragraph`] without a record on
    /// [`Approximation::bounds`].
    pub(super) point: u32,
}
/// The bits of the categories in [`Entry::flags`].
const CATEGORY_BITS: u16 = (1 << Category::COUNT) - 1;
/// [`Entry::flags`]: an HTML `template` (on [`OpenElements::stack_templates`]).
const TEMPLATE: u16 = 1 << 6;
/// [`Entry::flags`]: the element the form element pointer pointed to when
/// it was opened.
const FORM: u16 = 1 << 7;
/// [`Entry::flags`]: an SVG `foreignObject`, `desc` or `title`, or a
/// MathML `mi`, `mo`, `mn`, `ms`, `mtext` or `annotation-xml` (whatever
/// its encoding): the foreign elements that are special and bound every
/// scope ([the stack of open elements](https://html.spec.whatwg.org/multipage/parsing.html#the-stack-of-open-elements)), the integration points among them.
const POINT: u16 = 1 << 8;

/// For each set of categories (bits of [`Entry::flags`]), the bits to
/// replace in an entry of [`Approximation::bounds`]: all ones in those
/// categories (a branchless update of the six).
static CATEGORY_MASKS: [[u32; Category::COUNT]; 1 << Category::COUNT] = {
    let mut table = [[0; Category::COUNT]; 1 << Category::COUNT];
    let mut bits = 0;
    while bits < 1 << Category::COUNT {
        let mut c = 0;
        while c < Category::COUNT {
            if bits & 1 << c != 0 {
                table[bits][c] = u32::MAX;
            }
            c += 1;
        }
        bits += 1;
    }
    table
};

/// The [`categories`], [`TEMPLATE`] and [`POINT`] of every element of each
/// namespace, by namespace and discriminant: one load per push.
static FLAGS: [[u16; 256]; 3] = {
    let mut table = [[0; 256]; 3];
    let mut i = 0;
    while i < element::ALL.len() {
        let e = element::ALL[i];
        table[Namespace::Html as usize][i] = categories(e) as u16;
        if matches!(e, Element::Template) {
            table[Namespace::Html as usize][i] |= TEMPLATE;
        }
        if is_integration_point_element(Namespace::Svg, e) {
            table[Namespace::Svg as usize][i] = POINT;
        }
        if is_integration_point_element(Namespace::MathMl, e) {
            table[Namespace::MathMl as usize][i] = POINT;
        }
        i += 1;
    }
    table
};

/// No entry.
pub(super) const NONE: u32 = u32::MAX;

/// The key ([`NameKeys`]) of the name of every element whose name is
/// shorter than eight bytes, by discriminant (0 for the others and
/// [`Element::Other`]): a push of one does not read the name.
static SHORT_KEYS: [NameKey; 256] = {
    let mut table = [0; 256];
    let mut i = 1;
    while i < element::ALL.len() {
        let name = element::NAMES[i].as_bytes();
        if name.len() < 8 {
            table[i] = name_key::packed(name);
        }
        i += 1;
    }
    table
};

/// The bit flipped in the key of an HTML element's name ([`ns_key`]): a
/// bit of the top byte, which is a short name's length (below 8) or all
/// ones for a long name, so flipping it keeps the two kinds apart
/// ([`name_key::is_long`] tests the top bit).
const HTML_KEY: NameKey = 1 << 62;

/// The key on the stack of an element named with `key`, in the HTML
/// namespace if `html`.
#[inline(always)]
fn ns_key(key: NameKey, html: bool) -> NameKey {
    key ^ (html as NameKey * HTML_KEY)
}

impl fmt::Debug for Approximation {
    /// As the list of elements, bottom first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries((0..self.stack.len()).map(|i| (self.stack[i].ns, self.name(i))))
            .finish()
    }
}

impl Approximation {
    /// The name of the element at `i` (0 is the bottom).
    pub(super) fn name(&self, i: usize) -> String {
        let key = self.stack[i].key;
        if name_key::is_long(key) {
            let start = if i == 0 {
                0
            } else {
                self.stack[i - 1].long_end
            };
            self.long_names[start..self.stack[i].long_end].to_owned()
        } else {
            let len = (key >> 56) as usize & 7;
            let bytes: Vec<u8> = (0..len).map(|j| (key >> (8 * j)) as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }

    /// Whether the element at `i` is named `name`, whose key is `key`.
    #[inline]
    pub(super) fn is_named(&self, i: usize, name: &str, key: NameKey) -> bool {
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
    pub(super) fn heap_bytes(&self) -> usize {
        self.long_names.len()
            + self.stack.len() * core::mem::size_of::<Entry>()
            + self.nearest.len() * 16
            + self.templates.len()
            + self.stack_templates.len() * 4
            + self.bounds.len() * core::mem::size_of::<[u32; Category::COUNT]>()
    }

    /// Opens an element, named `name` on the stack.
    #[inline]
    pub(super) fn push(&mut self, ns: Namespace, element: Element, name: &str) {
        let key = match SHORT_KEYS[element as usize] {
            0 => self.keys.key(name),
            key => {
                debug_assert_eq!(key, self.keys.key(name), "{name} is not {element:?}");
                key
            }
        };
        let key = ns_key(key, ns == Namespace::Html);
        self.push_keyed(ns, element, name, key);
    }

    /// [`Self::push`] with the key on the stack known ([`ns_key`]; `name`
    /// is read only if it is long).
    pub(super) fn push_keyed(&mut self, ns: Namespace, element: Element, name: &str, key: NameKey) {
        let index = self.stack.len() as u32;
        // One hash per push and per pop (the entry API).
        let below_same = match self.nearest.entry(key) {
            MapEntry::Occupied(mut e) => e.insert(index),
            MapEntry::Vacant(e) => {
                e.insert(index);
                NONE
            }
        };
        if name_key::is_long(key) {
            self.long_names.push_str(name);
        }
        let flags = FLAGS[ns as usize][element as usize];
        let (run_start, below_point) = match self.stack.last() {
            Some(below) if (below.ns == Namespace::Html) == (ns == Namespace::Html) => {
                (below.run_start, below.point)
            }
            Some(below) => (index, below.point),
            None => (index, NONE),
        };
        self.stack.push(Entry {
            ns,
            element,
            key,
            long_end: self.long_names.len(),
            below_same,
            run_start,
            flags,
            point: if flags & POINT != 0 {
                index
            } else {
                below_point
            },
        });
        if flags != 0 {
            if flags & CATEGORY_BITS != 0 {
                let below = self
                    .bounds
                    .last()
                    .copied()
                    .unwrap_or([NONE; Category::COUNT]);
                let mask = &CATEGORY_MASKS[(flags & CATEGORY_BITS) as usize];
                let near = core::array::from_fn(|c| below[c] & !mask[c] | index & mask[c]);
                self.bounds.push(near);
            }
            if flags & TEMPLATE != 0 {
                self.stack_templates.push(index);
            }
        }
        self.listen = Listen::Every;
    }

    /// Closes the current node.
    #[inline(always)]
    pub(super) fn pop(&mut self) {
        let Some(entry) = self.stack.pop() else {
            return;
        };
        if let MapEntry::Occupied(mut e) = self.nearest.entry(entry.key) {
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
        if entry.flags & CATEGORY_BITS != 0 {
            self.bounds.pop();
        }
        if entry.flags & (TEMPLATE | FORM) != 0 {
            self.pop_marked(entry.flags);
        }
        if self.stack.is_empty() {
            self.update_listen();
        }
    }

    /// What [`Self::pop`] undoes for a template or a form the pointer
    /// pointed to (just taken off the stack).
    #[cold]
    #[inline(never)]
    pub(super) fn pop_marked(&mut self, flags: u16) {
        if flags & TEMPLATE != 0 {
            // An HTML template closes only with its end tag (or an outer
            // one's): its mode goes with it.
            self.stack_templates.pop();
            self.templates.pop();
        }
        if flags & FORM != 0 && self.stack.len() as u32 == self.form_at {
            self.form_at = NONE;
        }
    }

    /// The nearest open element at or below the current node in the
    /// category `c` ([`NONE`]: none).
    #[inline]
    pub(super) fn near(&self, c: Category) -> u32 {
        let html = self.bounds.last().map_or(NONE, |near| near[c as usize]);
        if c == Category::Paragraph {
            return html;
        }
        let point = self.stack.last().map_or(NONE, |top| top.point);
        // The later of the two (NONE, all ones, is the earliest).
        html.wrapping_add(1)
            .max(point.wrapping_add(1))
            .wrapping_sub(1)
    }

    /// Closes the element at `i` and everything above it.
    pub(super) fn pop_to(&mut self, i: usize) {
        while self.stack.len() > i {
            self.pop();
        }
    }

    /// Takes the element at `i` off the stack, leaving those above it open
    /// (what `</form>` does to the form the pointer points to). Those above
    /// are taken off and put back: O(1) amortized, as a form taken out is
    /// below only what was opened after it, and the next one can only be
    /// opened above everything open then.
    pub(super) fn remove(&mut self, i: usize) {
        let above = self.stack[i + 1..].to_vec();
        // The long names of those above, after the one at `i` (whose own is
        // before `from`).
        let from = self.stack[i].long_end;
        let names = self.long_names[from..].to_owned();
        self.pop_to(i);
        let mut start = 0;
        for e in above {
            debug_assert!(e.flags & TEMPLATE == 0, "a template above the form");
            let name = if name_key::is_long(e.key) {
                &names[start..e.long_end - from]
            } else {
                ""
            };
            start = e.long_end - from;
            // (Not the form the pointer points to, which is the one taken
            // out: no FORM flag to restore.)
            self.push_keyed(e.ns, e.element, name, e.key);
        }
    }

    /// Points the form element pointer to the current node (a `form`).
    pub(super) fn point_form_here(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.flags |= FORM;
            self.form_at = self.stack.len() as u32 - 1;
        }
    }

    /// Sets [`Self::listen`] from what it depends on.
    pub(super) fn update_listen(&mut self) {
        self.listen = if !self.stack.is_empty()
            || self.watching
            || self.templates.last() == Some(&TemplateMode::Fresh)
        {
            Listen::Every
        } else if self.form || !self.templates.is_empty() {
            Listen::Switching
        } else {
            Listen::SwitchingStarts
        };
    }

    /// Whether the adjusted current node is an element in foreign content
    /// (SVG or MathML), which, among other things, makes `<![CDATA[` open a
    /// CDATA section.
    #[inline]
    pub(super) fn adjusted_current_node_is_foreign(&self) -> bool {
        matches!(self.stack.last(), Some(e) if e.ns != Namespace::Html)
    }

    /// Closes the foreign elements on top of the stack until the current
    /// node is an HTML element, an HTML integration point or a MathML text
    /// integration point (or the stack is empty): what a breakout start tag
    /// and `</br>`, `</p>` do in foreign content ([the rules for parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)) before "in
    /// body" handles them.
    pub(super) fn pop_to_html_content(&mut self) {
        use Element::*;
        while let Some(&top) = self.stack.last() {
            let html_content = match (top.ns, top.element) {
                (Namespace::Html, _)
                | (Namespace::Svg, ForeignObject | Desc | Title)
                | (Namespace::MathMl, Mi | Mo | Mn | Ms | Mtext) => true,
                (Namespace::MathMl, AnnotationXml) => self.is_named(
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

    /// The topmost open element named `name` (whose key is `key`), of the
    /// HTML namespace if `html`, else of SVG or MathML.
    #[inline]
    pub(super) fn nearest_named(&self, html: bool, name: &str, key: NameKey) -> Option<usize> {
        let key = ns_key(key, html);
        let mut i = *self.nearest.get(&key)?;
        while !self.is_named(i as usize, name, key) {
            i = self.stack[i as usize].below_same;
            if i == NONE {
                return None;
            }
        }
        Some(i as usize)
    }

    /// Whether the adjusted current node makes a start tag for `element`
    /// an HTML one: an HTML integration point, or a MathML text integration
    /// point for anything but `mglyph` and `malignmark`.
    pub(super) fn top_is_integration_point(&self, element: Element) -> bool {
        use Element::*;
        let Some(top) = self.stack.last() else {
            return false;
        };
        match (top.ns, top.element) {
            (Namespace::Svg, ForeignObject | Desc | Title) => true,
            (Namespace::MathMl, Mi | Mo | Mn | Ms | Mtext) => {
                !matches!(element, Mglyph | Malignmark)
            }
            // Any `annotation-xml` sends `<svg>` to the insertion mode
            // ([tree construction](https://html.spec.whatwg.org/multipage/parsing.html#tree-construction), tree construction dispatcher), which opens an SVG
            // `svg`, not a MathML one.
            (Namespace::MathMl, AnnotationXml) => {
                let i = self.stack.len() - 1;
                element == Svg || self.is_named(i, ANNOTATION_XML_HTML, self.annotation_xml_html)
            }
            _ => false,
        }
    }

    /// Whether the element at `i` is in the scope whose boundaries are the
    /// category `scope` ([the stack of open elements](https://html.spec.whatwg.org/multipage/parsing.html#the-stack-of-open-elements)): no boundary above it.
    pub(super) fn in_scope(&self, i: usize, scope: Category) -> bool {
        let near = self.near(scope);
        !self.stack.is_empty() && (near == NONE || near as usize <= i)
    }

    /// The topmost open HTML element named `name`.
    #[inline]
    pub(super) fn nearest_html(&self, name: &str) -> Option<usize> {
        self.nearest_named(true, name, self.keys.key(name))
    }

    /// Whether an HTML element is open on the stack: the current node, or
    /// the one below the run of foreign elements on top.
    #[inline]
    pub(super) fn html_open(&self) -> bool {
        self.stack
            .last()
            .is_some_and(|top| top.ns == Namespace::Html || top.run_start > 0)
    }

    /// The topmost open HTML element of any of these names.
    pub(super) fn nearest_html_of(&self, names: &[&str]) -> Option<usize> {
        names.iter().filter_map(|n| self.nearest_html(n)).max()
    }
}
