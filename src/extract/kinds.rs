//! What each element's tags ask of an [`Extractor`](super::Extractor),
//! one byte per element id, worked out once per extractor.
//!
//! Every tag of a page goes through the extractor's dispatch, and most ask
//! nothing of it but a boundary, or not even that. Telling which needed a
//! look into four [`ElementSet`]s per start tag (what the options want of
//! it, whether it hides text, whether it is a block or a cell) and two per
//! end tag. The options are fixed for a page, so those answers are too:
//! this table holds them as bits of one byte per element, and a tag costs
//! one load. (An array of 256 bytes indexed by the `u8` id needs no bounds
//! check.)

use super::visible::{self, Boundary, ElementSet};
use crate::element::{ALL, Element};

/// The start tag needs more than its boundary: the options want something
/// of the element, or it may change what is visible.
pub(super) const START_MORE: u8 = 1;
/// The element's tags make a line break in the visible text (when that is
/// followed at all).
pub(super) const BLOCK: u8 = 1 << 1;
/// The element's tags make a space (a table cell).
pub(super) const CELL: u8 = 1 << 2;
/// The end tag is worth a call while text is shown and no link's anchor
/// text is open ([`END_CALL_OPEN`] while one is).
pub(super) const END_CALL_CLOSED: u8 = 1 << 3;
/// The end tag is worth a call while text is shown and an anchor is open.
pub(super) const END_CALL_OPEN: u8 = 1 << 4;
/// The end tag makes a line break that the token dispatch writes itself
/// (the text alone is wanted, and the element is a block).
pub(super) const END_LINE: u8 = 1 << 5;
/// The element is inline markup that Markdown writes (`b`, `i`, `code`...)
/// and nothing else wants its tags: while it is plainly shown, its tags go
/// to the Markdown writer straight away. With [`BLOCK`] or [`CELL`], a
/// block or cell that nothing else wants: its start tag goes to the writer
/// and its boundary straight away.
pub(super) const MARKDOWN_INLINE: u8 = 1 << 6;
/// Main content follows the element (every element, with main content):
/// the start tags' fast path tells it of the tag.
pub(super) const MAIN: u8 = 1 << 7;

/// The bits of every element, by id.
#[derive(Clone, Debug)]
pub(super) struct TagKinds([u8; 256]);

/// What the token dispatch follows of a page, from what the options want.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Follow {
    /// Only the text is wanted: what is visible is followed, and most end
    /// tags are a line break or nothing.
    TextAlone,
    /// What is visible is followed, for the text or for the anchor text of
    /// links, and links or metadata are wanted.
    Visible,
    /// Nothing visible is wanted (metadata alone, or nothing).
    Invisible,
}

impl Follow {
    /// Whether what is visible is followed.
    #[inline(always)]
    pub(super) fn visible(self) -> bool {
        self != Follow::Invisible
    }
}

/// What an extractor's options decide of the table.
pub(super) struct KindsOf {
    /// The elements whose start tags something wanted reads.
    pub(super) start_tags: ElementSet,
    /// What the dispatch follows.
    pub(super) follow: Follow,
    /// Whether every tag is worth a call (main content follows the
    /// elements open around the text).
    pub(super) every_tag: bool,
    /// The elements of [`MARKDOWN_INLINE`].
    pub(super) markdown_inline: ElementSet,
    /// The end tags worth a call with no anchor open, and with one.
    pub(super) end_calls_closed: ElementSet,
    /// See `end_calls_closed`.
    pub(super) end_calls_open: ElementSet,
}

impl TagKinds {
    /// The table for an extractor with these options.
    pub(super) fn new(of: &KindsOf) -> TagKinds {
        let mut bits = [0u8; 256];
        for &element in ALL.iter() {
            let kind = &mut bits[element as u8 as usize];
            let has = |set: &ElementSet, bit: u8| if set.contains(element) { bit } else { 0 };
            let boundary = match visible::boundary(element) {
                Some(Boundary::Block) => BLOCK,
                Some(Boundary::Cell) => CELL,
                None => 0,
            };
            *kind = has(&of.start_tags, START_MORE)
                | has(&of.end_calls_closed, END_CALL_CLOSED)
                | has(&of.end_calls_open, END_CALL_OPEN)
                | has(&of.markdown_inline, MARKDOWN_INLINE);
            if of.every_tag {
                *kind |= MAIN | END_CALL_CLOSED | END_CALL_OPEN;
            }
            if of.follow.visible() {
                *kind |= boundary | has(&visible::SPECIAL, START_MORE);
                if of.follow == Follow::TextAlone && boundary == BLOCK {
                    *kind |= END_LINE;
                }
            }
        }
        TagKinds(bits)
    }

    /// The table with `bits` cleared for every element (the tests' way to
    /// take a fast path away).
    #[cfg(test)]
    pub(super) fn without(&self, bits: u8) -> TagKinds {
        TagKinds(self.0.map(|kind| kind & !bits))
    }

    /// The bits of `element`.
    #[inline(always)]
    pub(super) fn of(&self, element: Element) -> u8 {
        self.0[element as u8 as usize]
    }
}

/// The boundary the bits say the element's tags make (the dispatch tests
/// the bits itself; this is what the tests check them against).
#[cfg(test)]
fn boundary(kind: u8) -> Option<Boundary> {
    if kind & BLOCK != 0 {
        Some(Boundary::Block)
    } else if kind & CELL != 0 {
        Some(Boundary::Cell)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every element, for each combination of options: the bits say what
    /// the sets they stand for say.
    #[test]
    fn bits_follow_the_sets() {
        let start_tags = ElementSet::of(&[Element::A, Element::Img, Element::Meta]);
        let closed = ElementSet::of(&[Element::Td, Element::Title]);
        let open = closed.union(ElementSet::of(&[Element::A, Element::P]));
        for follow in [Follow::TextAlone, Follow::Visible, Follow::Invisible] {
            let track_visible = follow.visible();
            let kinds = TagKinds::new(&KindsOf {
                start_tags,
                follow,
                every_tag: false,
                markdown_inline: ElementSet::of(&[Element::B]),
                end_calls_closed: closed,
                end_calls_open: open,
            });
            for &e in ALL.iter() {
                let k = kinds.of(e);
                let more =
                    start_tags.contains(e) || (track_visible && visible::SPECIAL.contains(e));
                assert_eq!(k & START_MORE != 0, more, "{e:?}");
                let want = if track_visible {
                    visible::boundary(e)
                } else {
                    None
                };
                assert_eq!(boundary(k), want, "{e:?}");
                assert_eq!(k & END_CALL_CLOSED != 0, closed.contains(e), "{e:?}");
                assert_eq!(k & END_CALL_OPEN != 0, open.contains(e), "{e:?}");
                let line = follow == Follow::TextAlone && visible::BLOCK.contains(e);
                assert_eq!(k & END_LINE != 0, line, "{e:?}");
                assert_eq!(k & MARKDOWN_INLINE != 0, e == Element::B, "{e:?}");
            }
            assert_eq!(kinds.0[ALL.len()..], [0; 256][ALL.len()..]);
        }
    }
}
