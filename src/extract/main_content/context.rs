//! The elements open around the text, as far as main content needs them:
//! what each says of the text inside it ([`Signals`]), gathered from the
//! elements above, and the innermost block element.
//!
//! There is no tree builder here, so the elements are paired the way the
//! tree builder pairs most of them: a start tag opens an element (not a
//! void one), its end tag closes it and everything opened inside it, and
//! the start tags that end an open `p`, `li`, `dt`, `dd`, `option`, `tr`,
//! `td` or `th` end it (the
//! [optional end tags](https://html.spec.whatwg.org/multipage/syntax.html#optional-tags)
//! that real pages leave out). An end tag with no element of its name
//! among the [`SEARCHED`] innermost is ignored, as a stray end tag is.
//!
//! At most [`DEPTH`] elements are held: deeper ones are counted, not held,
//! so memory is fixed, and every tag costs at most [`SEARCHED`] steps.

use crate::element::{ALL, Element};
use crate::extract::visible::ElementSet;
use crate::token::Tag;

use super::signals::{self, ClassCache, Signals};

/// The most elements held open.
pub(super) const DEPTH: usize = 1024;

/// How far from the innermost element an end tag looks for its element.
pub(super) const SEARCHED: usize = 64;

/// An open element.
#[derive(Clone, Copy, Debug)]
pub(super) struct Open {
    pub(super) element: Element,
    /// The innermost block element at and above it (the element whose
    /// kind a block of text inside has): [`Element::Body`] when none is.
    pub(super) block: Element,
    /// For [`Element::Other`], a hash of its name, to pair its end tag.
    name_hash: u32,
    /// Its signals and those of every element above it.
    pub(super) signals: Signals,
    /// The page-named signals of the innermost element above it (itself
    /// included) that has any.
    pub(super) nearest: Signals,
    /// The hash of the `class` of the innermost element above it (itself
    /// included) that has one; 0 when none has.
    pub(super) class: u32,
}

impl Open {
    /// Where text is when no element is open.
    const ROOT: Open = Open {
        element: Element::Body,
        block: Element::Body,
        name_hash: 0,
        signals: Signals::NONE,
        nearest: Signals::NONE,
        class: 0,
    };
}

/// The open elements.
#[derive(Debug)]
pub(super) struct Context {
    open: Vec<Open>,
    /// How many elements are open past [`DEPTH`], not held.
    past_depth: u32,
    /// How many `svg` and `math` elements are open (where `/>` closes an
    /// element).
    foreign: u32,
    /// The signals of the `class` values seen last.
    classes: ClassCache,
}

impl Context {
    /// No element open.
    pub(super) fn new() -> Context {
        Context {
            open: Vec::new(),
            past_depth: 0,
            foreign: 0,
            classes: ClassCache::new(),
        }
    }

    /// The innermost element (the root when none is open).
    #[inline(always)]
    pub(super) fn current(&self) -> &Open {
        self.open.last().unwrap_or(&Open::ROOT)
    }

    /// How many bytes the open elements take (at most [`DEPTH`] of them).
    pub(super) fn heap_bytes(&self) -> usize {
        self.open.capacity() * core::mem::size_of::<Open>()
    }

    /// How many elements are open (held or not).
    pub(super) fn depth(&self) -> usize {
        self.open.len() + self.past_depth as usize
    }

    /// Takes in a start tag. Most tags close nothing but an open `p`, and
    /// are no void or foreign element: those open their element here,
    /// inlined into the caller, and their attributes are read out of line
    /// (about half of a page's tags have none); the rest go to
    /// [`Context::start_tag_rare`].
    #[inline(always)]
    pub(super) fn start_tag(&mut self, tag: &Tag<'_>) {
        let element = tag.element;
        let kind = ElementKind::of(element);
        if kind.has(ElementKind::RARE) || (tag.self_closing && self.foreign > 0) {
            return self.start_tag_rare(tag, kind);
        }
        if kind.has(ElementKind::CLOSES_P) {
            // A `p` is no foreign element: closing it leaves the count.
            if self
                .open
                .last()
                .is_some_and(|top| top.element == Element::P)
            {
                self.open.pop();
            }
        }
        self.open_element(tag, kind);
    }

    /// [`Context::start_tag`] for the tags that may close an item, and
    /// those of void and foreign elements (and `/>` inside one).
    #[inline(never)]
    fn start_tag_rare(&mut self, tag: &Tag<'_>, kind: ElementKind) {
        let element = tag.element;
        if let Some(top) = self.open.last() {
            if kind.has(ElementKind::CLOSES_P) {
                if top.element == Element::P {
                    self.pop(1);
                }
            } else if kind.has(ElementKind::CLOSES_ITEM) {
                self.close_implied(element);
            }
        }
        if kind.has(ElementKind::VOID) || (tag.self_closing && self.foreign > 0) {
            return;
        }
        if kind.has(ElementKind::FOREIGN) {
            self.foreign += 1;
        }
        self.open_element(tag, kind);
    }

    /// Opens the element of a start tag (held if there is room).
    #[inline(always)]
    fn open_element(&mut self, tag: &Tag<'_>, kind: ElementKind) {
        let element = tag.element;
        if self.open.len() == DEPTH {
            self.past_depth += 1;
            return;
        }
        let (named, class) = if tag.attributes.is_empty() {
            (Signals::NONE, 0)
        } else {
            signals::of_attributes(tag, &mut self.classes)
        };
        let parent = self.current();
        let open = Open {
            element,
            block: if kind.has(ElementKind::BLOCK) {
                element
            } else {
                parent.block
            },
            name_hash: if element == Element::Other {
                hash(tag.name)
            } else {
                0
            },
            signals: parent.signals | named | kind.signals,
            nearest: if named.any(Signals::NAMED) {
                Signals(named.0 & Signals::NAMED.0)
            } else {
                parent.nearest
            },
            class: if class != 0 { class } else { parent.class },
        };
        self.open.push(open);
    }

    /// Takes in an end tag: closes its element and those inside it, if it
    /// is open near enough. Most end tags close the innermost element,
    /// which is no custom one: that is done here, inlined into the caller;
    /// the rest in [`Context::end_tag_rare`].
    #[inline(always)]
    pub(super) fn end_tag(&mut self, tag: &Tag<'_>) {
        if self.past_depth == 0 && tag.element != Element::Other {
            if let Some(top) = self.open.last() {
                // Only a custom element has a name hash.
                if top.element == tag.element {
                    return self.pop(1);
                }
            }
        }
        self.end_tag_rare(tag);
    }

    /// [`Context::end_tag`] past its fast path.
    #[inline(never)]
    fn end_tag_rare(&mut self, tag: &Tag<'_>) {
        if self.past_depth > 0 {
            // The innermost elements are not held: this closes one of them.
            self.past_depth -= 1;
            return;
        }
        let name_hash = if tag.element == Element::Other {
            hash(tag.name)
        } else {
            0
        };
        let found = self
            .open
            .iter()
            .rev()
            .take(SEARCHED)
            .position(|o| o.element == tag.element && o.name_hash == name_hash);
        if let Some(from_top) = found {
            self.pop(from_top + 1);
        }
    }

    /// Closes the elements a start tag of `element` (an `li`, `dt`, `dd`,
    /// `option`, `optgroup`, `tr`, `td` or `th`) closes first, but for an
    /// open `p` (see the module docs).
    #[inline(never)]
    fn close_implied(&mut self, element: Element) {
        use Element as E;
        let Some(top) = self.open.last() else {
            return;
        };
        let top = top.element;
        const LI: ElementSet = ElementSet::of(&[E::Li]);
        const DT_DD: ElementSet = ElementSet::of(&[E::Dt, E::Dd]);
        const TR: ElementSet = ElementSet::of(&[E::Tr]);
        const TD_TH: ElementSet = ElementSet::of(&[E::Td, E::Th]);
        match element {
            E::Li => self.close_item(LI, LI.union(ElementSet::of(&[E::Ul, E::Ol, E::Menu]))),
            E::Dt | E::Dd => self.close_item(DT_DD, DT_DD.union(ElementSet::of(&[E::Dl]))),
            E::Option | E::Optgroup if top == E::Option => self.pop(1),
            E::Tr => self.close_item(TR, TR.union(ElementSet::of(&[E::Table]))),
            E::Td | E::Th => {
                self.close_item(TD_TH, TD_TH.union(ElementSet::of(&[E::Tr, E::Table])))
            }
            _ => {}
        }
    }

    /// Closes the innermost element of `items` and those inside it, unless
    /// an element of `stops` that is no item is nearer (a list inside the
    /// item); `stops` holds the items too.
    #[inline(always)]
    fn close_item(&mut self, items: ElementSet, stops: ElementSet) {
        // Most often the innermost element is a stop (the list of an item
        // closed by its end tag, or the item): tested first, on its own,
        // where the search built the sets in memory to look them up.
        if let Some(top) = self.open.last() {
            if stops.contains(top.element) {
                if items.contains(top.element) {
                    self.pop(1);
                }
                return;
            }
        }
        let found = self
            .open
            .iter()
            .rev()
            .take(SEARCHED)
            .position(|o| stops.contains(o.element));
        if let Some(from_top) = found {
            let at = self.open.len() - 1 - from_top;
            if items.contains(self.open[at].element) {
                self.pop(from_top + 1);
            }
        }
    }

    /// Closes the `n` innermost elements.
    #[inline]
    fn pop(&mut self, n: usize) {
        let at = self.open.len() - n;
        for open in &self.open[at..] {
            if matches!(open.element, Element::Svg | Element::Math) {
                self.foreign = self.foreign.saturating_sub(1);
            }
        }
        self.open.truncate(at);
    }
}

/// What main content knows of an element by its name: what it says of
/// the text inside it, and how it pairs with the others. One load a tag
/// ([`ElementKind::of`]), where each was a `match` of its own.
#[derive(Clone, Copy, Debug)]
struct ElementKind {
    /// [`signals::of_element`].
    signals: Signals,
    /// Bits: [`ElementKind::BLOCK`], ...
    bits: u8,
}

impl ElementKind {
    /// A block element: its kind is the kind of the text inside
    /// ([`is_block`]).
    const BLOCK: u8 = 1;
    /// Its start tag closes an open `p` ([`closes_p`]).
    const CLOSES_P: u8 = 1 << 1;
    /// Its start tag may close an open item first (`li`, `dt`, `dd`,
    /// `option`, `optgroup`, `tr`, `td`, `th`: [`Context::close_implied`]).
    const CLOSES_ITEM: u8 = 1 << 2;
    /// A void element: never open.
    const VOID: u8 = 1 << 3;
    /// `svg` or `math`: where `/>` closes an element.
    const FOREIGN: u8 = 1 << 4;
    /// What [`Context::start_tag_rare`] takes.
    const RARE: u8 = ElementKind::CLOSES_ITEM | ElementKind::VOID | ElementKind::FOREIGN;

    /// The kind of every element, by its id.
    const TABLE: [ElementKind; 256] = {
        use Element as E;
        let mut table = [ElementKind {
            signals: Signals::NONE,
            bits: 0,
        }; 256];
        let mut i = 0;
        while i < ALL.len() {
            let element = ALL[i];
            let mut bits = 0;
            if is_block(element) {
                bits |= ElementKind::BLOCK;
            }
            if closes_p(element) {
                bits |= ElementKind::CLOSES_P;
            }
            if matches!(
                element,
                E::Li | E::Dt | E::Dd | E::Option | E::Optgroup | E::Tr | E::Td | E::Th
            ) {
                bits |= ElementKind::CLOSES_ITEM;
            }
            if element.is_void() {
                bits |= ElementKind::VOID;
            }
            if matches!(element, E::Svg | E::Math) {
                bits |= ElementKind::FOREIGN;
            }
            table[element as u8 as usize] = ElementKind {
                signals: signals::of_element(element),
                bits,
            };
            i += 1;
        }
        table
    };

    /// The kind of `element`.
    #[inline(always)]
    fn of(element: Element) -> ElementKind {
        ElementKind::TABLE[element as u8 as usize]
    }

    /// Whether it has `bit`.
    #[inline(always)]
    fn has(self, bit: u8) -> bool {
        self.bits & bit != 0
    }
}

/// Whether a start tag of `element` closes an open `p`.
const fn closes_p(element: Element) -> bool {
    use Element as E;
    matches!(
        element,
        E::Address
            | E::Article
            | E::Aside
            | E::Blockquote
            | E::Center
            | E::Details
            | E::Dialog
            | E::Dir
            | E::Div
            | E::Dl
            | E::Fieldset
            | E::Figcaption
            | E::Figure
            | E::Footer
            | E::Form
            | E::H1
            | E::H2
            | E::H3
            | E::H4
            | E::H5
            | E::H6
            | E::Header
            | E::Hgroup
            | E::Hr
            | E::Listing
            | E::Main
            | E::Menu
            | E::Nav
            | E::Ol
            | E::P
            | E::Pre
            | E::Search
            | E::Section
            | E::Summary
            | E::Table
            | E::Ul
            | E::Xmp
    )
}

/// Whether `element` is a block a piece of text is of: its kind is the
/// block's kind (see `blocks::Kind`).
const fn is_block(element: Element) -> bool {
    use Element as E;
    matches!(
        element,
        E::P | E::Li
            | E::Dt
            | E::Dd
            | E::H1
            | E::H2
            | E::H3
            | E::H4
            | E::H5
            | E::H6
            | E::Pre
            | E::Listing
            | E::Xmp
            | E::Blockquote
            | E::Figcaption
            | E::Caption
            | E::Td
            | E::Th
            | E::Div
            | E::Section
            | E::Article
            | E::Main
            | E::Nav
            | E::Aside
            | E::Header
            | E::Footer
            | E::Form
            | E::Address
            | E::Summary
            | E::Legend
            | E::Option
    )
}

/// A hash of a name (FNV-1a), to tell custom elements apart.
fn hash(name: &str) -> u32 {
    name.bytes().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Token, Tokenizer, bumpalo::Bump};

    /// The elements open after each text of `html`, innermost last.
    fn open_at_texts(html: &str) -> Vec<Vec<Element>> {
        let arena = Bump::new();
        let mut context = Context::new();
        let mut at = Vec::new();
        for token in Tokenizer::new(html, &arena) {
            match token {
                Token::StartTag(tag) => context.start_tag(&tag),
                Token::EndTag(tag) => context.end_tag(&tag),
                Token::Text(_) => at.push(context.open.iter().map(|o| o.element).collect()),
                _ => {}
            }
        }
        at
    }

    #[test]
    fn elements_pair_as_the_tree_builder_pairs_them() {
        use Element as E;
        assert_eq!(
            open_at_texts("<div><p>a<p>b</div>c"),
            [vec![E::Div, E::P], vec![E::Div, E::P], vec![]]
        );
        assert_eq!(
            open_at_texts("<ul><li>a<li>b<ul><li>c</ul>d</ul>"),
            [
                vec![E::Ul, E::Li],
                vec![E::Ul, E::Li],
                vec![E::Ul, E::Li, E::Ul, E::Li],
                vec![E::Ul, E::Li],
            ]
        );
        // An item whose end tag closed it: the next one opens in the list.
        assert_eq!(
            open_at_texts("<ul><li>a</li><li>b</ul><dl><dt>c<dd>d</dd><dt>e</dl>"),
            [
                vec![E::Ul, E::Li],
                vec![E::Ul, E::Li],
                vec![E::Dl, E::Dt],
                vec![E::Dl, E::Dd],
                vec![E::Dl, E::Dt],
            ]
        );
        assert_eq!(
            open_at_texts("<table><tr><td>a<td>b<tr><td>c</table>"),
            [
                vec![E::Table, E::Tr, E::Td],
                vec![E::Table, E::Tr, E::Td],
                vec![E::Table, E::Tr, E::Td],
            ]
        );
        // A stray end tag is ignored; a custom element pairs by its name.
        assert_eq!(
            open_at_texts("<x-a><x-b>a</x-c></x-b>b</span></x-a>c"),
            [vec![E::Other, E::Other], vec![E::Other], vec![]]
        );
        assert_eq!(
            open_at_texts("<svg><path/>a</svg>b<br>c"),
            [vec![E::Svg], vec![], vec![]]
        );
    }

    #[test]
    fn signals_gather_from_above() {
        let arena = Bump::new();
        let mut context = Context::new();
        let html = r#"<div class="site-nav"><ul><li><a href=/>Home"#;
        for token in Tokenizer::new(html, &arena) {
            if let Token::StartTag(tag) = token {
                context.start_tag(&tag);
            }
        }
        let current = context.current();
        assert!(current.signals.any(Signals::NAV));
        assert!(current.signals.any(Signals::IN_LINK));
        assert!(current.signals.any(Signals::IN_LI));
        assert_eq!(current.nearest, Signals::NAV);
        assert_eq!(current.block, Element::Li);
    }

    #[test]
    fn depth_is_capped() {
        let html = "<div>".repeat(DEPTH + 10) + "a" + &"</div>".repeat(DEPTH + 10) + "b";
        let texts = open_at_texts(&html);
        assert_eq!(texts[0].len(), DEPTH);
        assert!(texts[1].is_empty());
    }
}
