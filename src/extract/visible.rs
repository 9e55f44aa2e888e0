//! Which text of a page a reader sees, decided token by token.
//!
//! Without a tree there is no `display` to ask, so the rules follow what a
//! browser renders for the elements themselves:
//!
//! - the content of `script`, `style`, `template`, `title`, `textarea`,
//!   `iframe`, `noembed`, `noframes`, `datalist`, SVG's `desc` and
//!   `title`, the fallback content of `audio` and `video` (a browser that
//!   plays them does not render it), and `noscript` and `canvas` content
//!   when scripting is on (a browser with JavaScript does not render it),
//!   is left out; nested elements of the
//!   same name are counted, so `<template><template></template>x</template>`
//!   hides `x` too;
//! - an element with the `hidden` attribute is left out with its content
//!   (`hidden=until-found` is content the page means to be found, and
//!   stays). For the elements whose end tag may be omitted (`p`, `li`,
//!   `dt`, `dd`, `option`, `optgroup`, `tr`, `td`, `th`) the hidden part also
//!   ends where the tree builder would close them: `<li hidden>a<li>b`
//!   shows `b`;
//! - block elements and `<br>` start new lines, table cells are separated
//!   by a space, and inside `pre`, `listing`, `plaintext` and `xmp` line
//!   breaks are kept.
//!
//! Every test is on the tag's [`Element`], so a tag costs a table lookup,
//! not a string comparison per rule.

use crate::element::Element;
use crate::token::Tag;

/// A set of [`Element`]s, as a bitmap indexed by the id.
#[derive(Clone, Copy, Debug)]
pub(super) struct ElementSet([u64; 4]);

impl ElementSet {
    /// The set of `elements`.
    pub(super) const fn of(elements: &[Element]) -> ElementSet {
        let mut bits = [0u64; 4];
        let mut i = 0;
        while i < elements.len() {
            let id = elements[i] as usize;
            bits[id / 64] |= 1 << (id % 64);
            i += 1;
        }
        ElementSet(bits)
    }

    /// The elements of either set.
    pub(super) const fn union(self, other: ElementSet) -> ElementSet {
        let mut bits = self.0;
        let mut i = 0;
        while i < bits.len() {
            bits[i] |= other.0[i];
            i += 1;
        }
        ElementSet(bits)
    }

    /// The elements of this set that are not in `other`.
    pub(super) const fn difference(self, other: ElementSet) -> ElementSet {
        let mut bits = self.0;
        let mut i = 0;
        while i < bits.len() {
            bits[i] &= !other.0[i];
            i += 1;
        }
        ElementSet(bits)
    }

    /// Whether `element` is in the set.
    #[inline]
    pub(super) const fn contains(&self, element: Element) -> bool {
        let id = element as usize;
        self.0[id / 64] & (1 << (id % 64)) != 0
    }
}

use Element as E;

/// Elements whose content is not shown as text (`noscript` aside: it
/// depends on scripting).
const HIDDEN: ElementSet = ElementSet::of(&[
    E::Script,
    E::Style,
    E::Template,
    E::Title,
    E::Textarea,
    E::Iframe,
    E::Noembed,
    E::Noframes,
    E::Datalist,
    E::Desc,
    E::Audio,
    E::Video,
]);

/// Elements that start and end lines.
pub(super) const BLOCK: ElementSet = ElementSet::of(&[
    E::Address,
    E::Article,
    E::Aside,
    E::Blockquote,
    E::Body,
    E::Br,
    E::Caption,
    E::Center,
    E::Dd,
    E::Details,
    E::Dialog,
    E::Dir,
    E::Div,
    E::Dl,
    E::Dt,
    E::Fieldset,
    E::Figcaption,
    E::Figure,
    E::Footer,
    E::Form,
    E::Frameset,
    E::H1,
    E::H2,
    E::H3,
    E::H4,
    E::H5,
    E::H6,
    E::Head,
    E::Header,
    E::Hgroup,
    E::Hr,
    E::Html,
    E::Legend,
    E::Li,
    E::Listing,
    E::Main,
    E::Menu,
    E::Nav,
    E::Ol,
    E::Optgroup,
    E::Option,
    E::P,
    E::Plaintext,
    E::Pre,
    E::Search,
    E::Section,
    E::Select,
    E::Summary,
    E::Table,
    E::Tbody,
    E::Tfoot,
    E::Thead,
    E::Tr,
    E::Ul,
    E::Xmp,
]);

/// The elements whose `alt` text is text (`input` of type `image`).
pub(super) const IMAGES: ElementSet = ElementSet::of(&[E::Img, E::Input]);

/// Elements inside which line breaks are kept.
const PRE: ElementSet = ElementSet::of(&[E::Pre, E::Listing, E::Plaintext, E::Xmp]);

/// Elements whose tags need more than their [`boundary`]: those that hide
/// their content (always, or with scripting), are `pre`-like, or begin
/// foreign content (where `/>` closes).
pub(super) const SPECIAL: ElementSet = HIDDEN
    .union(ElementSet::of(&[E::Noscript, E::Canvas, E::Svg, E::Math]))
    .union(PRE);

/// Elements whose end tag needs more than a line break or nothing for the
/// text, while text is shown: [`SPECIAL`] and the table cells (a space).
pub(super) const END_NOT_PLAIN: ElementSet = SPECIAL.union(CELLS);

/// The start tags that close an open `p`
/// ([close a `p` element](https://html.spec.whatwg.org/multipage/parsing.html#close-a-p-element)).
const CLOSES_P: ElementSet = ElementSet::of(&[
    E::Address,
    E::Article,
    E::Aside,
    E::Blockquote,
    E::Center,
    E::Details,
    E::Dialog,
    E::Dir,
    E::Div,
    E::Dl,
    E::Fieldset,
    E::Figcaption,
    E::Figure,
    E::Footer,
    E::Form,
    E::H1,
    E::H2,
    E::H3,
    E::H4,
    E::H5,
    E::H6,
    E::Header,
    E::Hgroup,
    E::Hr,
    E::Listing,
    E::Main,
    E::Menu,
    E::Nav,
    E::Ol,
    E::P,
    E::Plaintext,
    E::Pre,
    E::Search,
    E::Section,
    E::Summary,
    E::Table,
    E::Ul,
    E::Xmp,
]);

/// Elements whose end tag may be omitted, for which a `hidden` part ends
/// where the tree builder closes them (see [`ends_optional`]).
const OPTIONAL_END: ElementSet = ElementSet::of(&[
    E::P,
    E::Li,
    E::Dt,
    E::Dd,
    E::Option,
    E::Optgroup,
    E::Tr,
    E::Td,
    E::Th,
]);

/// What a tag means for the visible text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Boundary {
    /// A block boundary: a line break.
    Block,
    /// A table cell boundary: a space.
    Cell,
}

/// The element whose content is being left out.
#[derive(Clone, Debug)]
struct Hidden {
    element: Element,
    /// How many elements of its name are open (itself included), for an
    /// element whose end tag is required.
    depth: u32,
    /// How many elements that nest another of its kind are open inside it
    /// (`ul` for a hidden `li`), for an element whose end tag is optional.
    containers: u32,
}

/// Tracks which text is visible.
#[derive(Clone, Debug)]
pub(super) struct Visible {
    hidden: Option<Hidden>,
    /// The name of the hidden element when it is [`Element::Other`].
    hidden_name: String,
    /// How many `pre`-like elements are open.
    pre: u32,
    /// How many `<svg>`/`<math>` elements are open (roughly: where `/>`
    /// closes an element).
    foreign: u32,
    /// Whether `noscript` and `canvas` content is left out.
    scripting: bool,
    /// Whether the `hidden` attribute is honoured.
    hidden_attribute: bool,
}

impl Visible {
    /// The tracker at the start of a page.
    pub(super) fn new(scripting: bool, hidden_attribute: bool) -> Visible {
        Visible {
            hidden: None,
            hidden_name: String::new(),
            pre: 0,
            foreign: 0,
            scripting,
            hidden_attribute,
        }
    }

    /// Whether the `hidden` attribute is honoured.
    #[inline]
    pub(super) fn honours_hidden(&self) -> bool {
        self.hidden_attribute
    }

    /// Whether whitespace is kept (inside `<pre>` and its kin).
    #[inline]
    pub(super) fn in_pre(&self) -> bool {
        self.pre > 0
    }

    /// Whether text here is shown.
    #[inline]
    pub(super) fn shows_text(&self) -> bool {
        self.hidden.is_none()
    }

    /// Hides the rest of the page, for an extractor that stopped (its
    /// dispatch no longer follows what is visible, so nothing shows it
    /// again).
    pub(super) fn hide_the_rest(&mut self) {
        self.hidden = Some(Hidden {
            element: E::Html,
            depth: u32::MAX,
            containers: 0,
        });
    }

    /// Whether the tag is the hidden element's kind.
    fn is_hidden_kind(&self, hidden: &Hidden, tag: &Tag<'_>) -> bool {
        tag.element == hidden.element
            && (hidden.element != E::Other || tag.name == self.hidden_name)
    }

    /// Whether the start tag of an element that is not [`SPECIAL`] (the
    /// caller rules that out) changes nothing of what is shown, by a test
    /// short enough to inline: nothing is hidden, and no attribute's name
    /// is as long as `hidden` (or the `hidden` attribute is not honoured).
    /// Then [`Visible::start_tag`] gives its [`boundary`] alone; `false`
    /// says nothing.
    #[inline(always)]
    pub(super) fn is_plainly_shown_start(&self, tag: &Tag<'_>) -> bool {
        debug_assert!(!SPECIAL.contains(tag.element));
        self.hidden.is_none()
            && !(self.hidden_attribute
                && tag
                    .attributes
                    .iter()
                    .any(|a| a.name.len() == "hidden".len()))
    }

    /// Takes in a start tag: the boundary it makes in the visible text.
    #[inline]
    pub(super) fn start_tag(&mut self, tag: &Tag<'_>) -> Option<Boundary> {
        let element = tag.element;
        // Most tags: shown, and neither hiding, foreign nor `pre`-like.
        if self.hidden.is_none()
            && !SPECIAL.contains(element)
            && !(self.hidden_attribute && !tag.attributes.is_empty() && has_hidden_attribute(tag))
        {
            return boundary(element);
        }
        self.start_tag_slow(tag)
    }

    /// [`Visible::start_tag`] for the tags that change what is shown.
    fn start_tag_slow(&mut self, tag: &Tag<'_>) -> Option<Boundary> {
        let element = tag.element;
        // `/>` closes an element only in foreign content.
        let opens = !(tag.self_closing && self.foreign > 0);
        if let Some(hidden) = &mut self.hidden {
            if OPTIONAL_END.contains(hidden.element) {
                if !(hidden.containers == 0 && ends_optional(hidden.element, element, true)) {
                    if is_container(hidden.element, element) && opens {
                        hidden.containers += 1;
                    }
                    return None;
                }
                // Closed by this tag, which is itself seen below.
                self.hidden = None;
            } else {
                let hidden = hidden.clone();
                if opens && self.is_hidden_kind(&hidden, tag) {
                    if let Some(h) = &mut self.hidden {
                        h.depth += 1;
                    }
                }
                return None;
            }
        }
        if opens
            && (HIDDEN.contains(element)
                || (matches!(element, E::Noscript | E::Canvas) && self.scripting)
                || (self.hidden_attribute && !element.is_void() && has_hidden_attribute(tag)))
        {
            if element == E::Other {
                self.hidden_name.clear();
                self.hidden_name.push_str(tag.name);
            }
            self.hidden = Some(Hidden {
                element,
                depth: 1,
                containers: 0,
            });
            return None;
        }
        match element {
            E::Svg | E::Math if !tag.self_closing => self.foreign += 1,
            _ if PRE.contains(element) => self.pre += 1,
            _ => {}
        }
        boundary(element)
    }

    /// Takes in an end tag: the boundary it makes in the visible text.
    #[inline]
    pub(super) fn end_tag(&mut self, tag: &Tag<'_>) -> Option<Boundary> {
        let element = tag.element;
        if self.hidden.is_none() && !SPECIAL.contains(element) {
            return boundary(element);
        }
        self.end_tag_slow(tag)
    }

    /// [`Visible::end_tag`] while content is hidden, or for the tags that
    /// count nesting.
    fn end_tag_slow(&mut self, tag: &Tag<'_>) -> Option<Boundary> {
        let element = tag.element;
        if let Some(hidden) = &mut self.hidden {
            if OPTIONAL_END.contains(hidden.element) {
                if hidden.containers > 0 {
                    if is_container(hidden.element, element) {
                        hidden.containers -= 1;
                    }
                    return None;
                }
                if !ends_optional(hidden.element, element, false) {
                    return None;
                }
                let own = element == hidden.element;
                self.hidden = None;
                // `</div>` closing a hidden `p` still ends the div's line.
                return if own { None } else { self.end_tag(tag) };
            }
            let hidden = hidden.clone();
            if self.is_hidden_kind(&hidden, tag) {
                let h = self.hidden.as_mut().expect("hidden");
                h.depth -= 1;
                if h.depth == 0 {
                    self.hidden = None;
                }
            }
            return None;
        }
        match element {
            E::Svg | E::Math => self.foreign = self.foreign.saturating_sub(1),
            _ if PRE.contains(element) => self.pre = self.pre.saturating_sub(1),
            _ => {}
        }
        boundary(element)
    }
}

/// Whether the tag has a `hidden` attribute that hides it (any value but
/// `until-found`).
pub(super) fn has_hidden_attribute(tag: &Tag<'_>) -> bool {
    tag.attributes
        .iter()
        .any(|a| a.name == "hidden" && !a.duplicate && !a.value.eq_ignore_ascii_case("until-found"))
}

/// Whether a tag of `element` (a start tag when `start`) closes an open
/// `hidden` element whose end tag may be omitted, with no element of
/// [`is_container`] open inside it.
fn ends_optional(hidden: Element, element: Element, start: bool) -> bool {
    match (hidden, start) {
        (E::P, true) => CLOSES_P.contains(element),
        (E::P, false) => BLOCK.contains(element),
        (E::Li, true) => element == E::Li,
        (E::Li, false) => matches!(element, E::Li | E::Ul | E::Ol | E::Menu),
        (E::Dt | E::Dd, true) => matches!(element, E::Dt | E::Dd),
        (E::Dt | E::Dd, false) => element == hidden || element == E::Dl,
        (E::Option, true) => matches!(element, E::Option | E::Optgroup),
        (E::Option, false) => matches!(element, E::Option | E::Optgroup | E::Select | E::Datalist),
        (E::Optgroup, true) => element == E::Optgroup,
        (E::Optgroup, false) => matches!(element, E::Optgroup | E::Select),
        (E::Tr, _) => {
            matches!(element, E::Tr | E::Tbody | E::Thead | E::Tfoot)
                || (!start && element == E::Table)
        }
        (E::Td | E::Th, _) => {
            matches!(
                element,
                E::Td | E::Th | E::Tr | E::Tbody | E::Thead | E::Tfoot
            ) || (!start && element == E::Table)
        }
        _ => false,
    }
}

/// Whether `element` nests another element of the hidden one's kind, so
/// that inside it the tags of [`ends_optional`] do not close the hidden
/// one (`<li hidden><ul><li>` is a list inside the hidden item).
fn is_container(hidden: Element, element: Element) -> bool {
    match hidden {
        E::Li => matches!(element, E::Ul | E::Ol | E::Menu),
        E::Dt | E::Dd => element == E::Dl,
        E::Tr | E::Td | E::Th => element == E::Table,
        _ => false,
    }
}

/// Table cells, whose tags make a space ([`Boundary::Cell`]).
const CELLS: ElementSet = ElementSet::of(&[E::Td, E::Th]);

/// The elements whose tags make a boundary ([`boundary`]).
pub(super) const BOUNDARY: ElementSet = BLOCK.union(CELLS);

/// The boundary a tag of `element` makes, if any.
#[inline]
pub(super) fn boundary(element: Element) -> Option<Boundary> {
    if BLOCK.contains(element) {
        Some(Boundary::Block)
    } else if CELLS.contains(element) {
        Some(Boundary::Cell)
    } else {
        None
    }
}
