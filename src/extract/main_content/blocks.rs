//! The page as a sequence of blocks: the pieces of text between two block
//! boundaries (what the text output puts on lines of their own; a `<br>`
//! or a newline in `<pre>` breaks a line inside a block), each with what
//! was known where it began.

use crate::element::{ALL, Element};

use super::context::Open;
use super::signals::Signals;

/// What kind of element a block is the text of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum BlockKind {
    /// A paragraph (`<p>`).
    Paragraph,
    /// A heading (`<h1>` to `<h6>`): its level.
    Heading(u8),
    /// A list item (`<li>`, `<dt>`, `<dd>`).
    ListItem,
    /// A table row, or the text of a cell (`<td>`, `<th>`, `<caption>`).
    TableRow,
    /// Preformatted text (`<pre>`, `<listing>`, `<xmp>`).
    Preformatted,
    /// A block quote.
    Quote,
    /// A figure's caption.
    Caption,
    /// Text in any other block (`<div>`, `<section>`, the body, ...).
    Other,
}

impl BlockKind {
    /// The kind of a block whose innermost block element is `element`
    /// (one load, where a `match` was a jump through a table and back).
    #[inline(always)]
    pub(crate) fn of(element: Element) -> BlockKind {
        BLOCK_KINDS[element as u8 as usize]
    }

    /// [`BlockKind::of`], worked out.
    const fn of_element(element: Element) -> BlockKind {
        use Element as E;
        match element {
            E::P => BlockKind::Paragraph,
            E::H1 => BlockKind::Heading(1),
            E::H2 => BlockKind::Heading(2),
            E::H3 => BlockKind::Heading(3),
            E::H4 => BlockKind::Heading(4),
            E::H5 => BlockKind::Heading(5),
            E::H6 => BlockKind::Heading(6),
            E::Li | E::Dt | E::Dd => BlockKind::ListItem,
            E::Td | E::Th | E::Caption => BlockKind::TableRow,
            E::Pre | E::Listing | E::Xmp => BlockKind::Preformatted,
            E::Blockquote => BlockKind::Quote,
            E::Figcaption => BlockKind::Caption,
            _ => BlockKind::Other,
        }
    }

    /// Whether it is a heading.
    pub fn is_heading(self) -> bool {
        matches!(self, BlockKind::Heading(_))
    }
}

/// The kind of a block of each element, by its id ([`BlockKind::of`]).
static BLOCK_KINDS: [BlockKind; 256] = {
    let mut table = [BlockKind::Other; 256];
    let mut i = 0;
    while i < ALL.len() {
        table[ALL[i] as u8 as usize] = BlockKind::of_element(ALL[i]);
        i += 1;
    }
    table
};

/// A block, as gathered while the page is read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    /// Where its text starts in the whole text.
    pub(crate) start: usize,
    /// Where its text ends.
    pub(crate) end: usize,
    /// The first of its text runs (with offsets).
    pub(crate) first_run: usize,
    /// How many bytes of text tokens it was written from (before
    /// collapsing), and how many of them were inside links.
    pub(crate) raw_bytes: u32,
    pub(crate) link_bytes: u32,
    /// How many text pieces it was written from.
    pub(crate) pieces: u32,
    /// The signals of the elements open where it began.
    pub(crate) signals: Signals,
    /// The page-named signals of the innermost element that has any.
    pub(crate) nearest: Signals,
    /// How many elements were open where it began.
    pub(crate) depth: u32,
    /// The hash of the `class` of the innermost element above it that has
    /// one (0 when none has).
    pub(crate) class: u32,
    pub(crate) kind: BlockKind,
}

// Blocks are held for the whole page: a fixed amount each.
const _: () = assert!(core::mem::size_of::<Block>() <= 64);

/// What is known of the text since the last block boundary, before it is
/// written out (the text may be gathered and collapsed later).
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    /// Whether any text came: then the rest is known.
    started: bool,
    /// Counted in 64 bits, which no page fills, so that each text token
    /// adds without a test; a block's own counts stop at `u32::MAX`
    /// ([`narrow`]), as if these had.
    raw_bytes: u64,
    link_bytes: u64,
    pieces: u64,
    signals: Signals,
    nearest: Signals,
    depth: u32,
    class: u32,
    block: Option<Element>,
}

impl Block {
    /// The block of the text noted in `p`, which went to `text` of the
    /// whole text, its first run `first_run`.
    #[inline]
    fn of(p: &Pending, text: core::ops::Range<usize>, first_run: usize) -> Block {
        Block {
            start: text.start,
            end: text.end,
            first_run,
            raw_bytes: narrow(p.raw_bytes),
            link_bytes: narrow(p.link_bytes),
            pieces: narrow(p.pieces),
            signals: p.signals,
            nearest: p.nearest,
            depth: p.depth,
            class: p.class,
            kind: BlockKind::of(p.block.unwrap_or(Element::Body)),
        }
    }

    /// Counts the text noted in `p` as the block's.
    #[inline]
    fn add(&mut self, p: &Pending) {
        self.raw_bytes = self.raw_bytes.saturating_add(narrow(p.raw_bytes));
        self.link_bytes = self.link_bytes.saturating_add(narrow(p.link_bytes));
        self.pieces = self.pieces.saturating_add(narrow(p.pieces));
    }
}

/// A count of [`Pending`] as a block's, `u32::MAX` at most.
#[inline(always)]
fn narrow(count: u64) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// The blocks of a page so far.
#[derive(Debug, Default)]
pub(crate) struct Blocks {
    pub(crate) blocks: Vec<Block>,
    pending: Pending,
    /// Whether the text placed next begins a block.
    boundary_due: bool,
    /// With gathered text (collapsed later, 16 KiB at a time), the blocks
    /// from `placed` on wait to learn where their text went
    /// ([`Blocks::place`]); their text may turn out to have no word, and
    /// then they are no blocks. How many of those texts were placed so
    /// far, and where the last ended in the whole text.
    placed: usize,
    texts_placed: usize,
    last_place: usize,
}

impl Blocks {
    /// A block boundary (not a `<br>`), once the text before it is placed:
    /// the next text begins a block.
    #[inline]
    pub(crate) fn boundary(&mut self) {
        // Text noted and not placed (with offsets, whitespace after the
        // block's last word, which collapses to nothing) still counts for
        // the block it came in, as it does when the block's text is
        // placed at once: the blocks are the same with offsets or without.
        if self.pending.started && !self.boundary_due {
            if let Some(block) = self.blocks.last_mut() {
                block.add(&self.pending);
            }
        }
        // The rest is written anew with the next text.
        self.pending.started = false;
        self.boundary_due = true;
    }

    /// A text token of `bytes` bytes is shown inside `open`, where `depth`
    /// elements are open.
    #[inline]
    pub(crate) fn note_text(&mut self, bytes: usize, open: &Open, depth: usize) {
        let p = &mut self.pending;
        if !p.started {
            *p = Pending {
                started: true,
                signals: open.signals,
                nearest: open.nearest,
                depth: u32::try_from(depth).unwrap_or(u32::MAX),
                class: open.class,
                block: Some(open.block),
                ..Pending::default()
            };
        }
        let bytes = bytes as u64;
        p.raw_bytes += bytes;
        if open.signals.any(Signals::IN_LINK) {
            p.link_bytes += bytes;
        }
        p.pieces += 1;
    }

    /// The text noted since the last placing went to `at..end` of the
    /// whole text (`run` is the run it begins in, with offsets).
    #[inline]
    pub(crate) fn placed(&mut self, at: usize, end: usize, run: usize) {
        let p = core::mem::take(&mut self.pending);
        // Keep what began the block: its context.
        self.pending = Pending {
            started: p.started,
            signals: p.signals,
            nearest: p.nearest,
            depth: p.depth,
            class: p.class,
            block: p.block,
            ..Pending::default()
        };
        if self.boundary_due || self.blocks.is_empty() {
            self.boundary_due = false;
            self.blocks.push(Block {
                raw_bytes: 0,
                link_bytes: 0,
                pieces: 0,
                ..Block::of(&p, at..end, run)
            });
        }
        let block = self.blocks.last_mut().expect("a block");
        block.end = end;
        block.add(&p);
    }

    /// A block boundary with the text gathered (not yet collapsed): the
    /// text noted since the last one, if any, waits for its place, a block
    /// of unknown text.
    #[inline]
    pub(crate) fn await_place(&mut self) {
        if self.pending.started {
            self.blocks.push(Block::of(&self.pending, 0..0, 0));
            self.pending.started = false;
        }
    }

    /// How many texts awaited their place so far (placed or not): the
    /// number of the text being noted.
    #[inline]
    pub(crate) fn awaited(&self) -> usize {
        self.texts_placed + (self.blocks.len() - self.placed)
    }

    /// The texts awaiting their place went to the whole text `text` (from
    /// byte `drained` of it on), each up to the next of `places` (the end
    /// of its last word, or one past): a text with a word is a block,
    /// from its first word to its last; one with none is not (its
    /// separators are the boundary). `room(n)` says whether a block `n`
    /// may be held; `placed(text, n)` is told of each text placed, its
    /// number and the number of blocks before it.
    pub(crate) fn place(
        &mut self,
        places: &[usize],
        text: &[u8],
        drained: usize,
        room: &mut impl FnMut(usize) -> bool,
        placed: &mut impl FnMut(usize, usize),
    ) {
        let is_separator =
            |at: usize| matches!(text.get(at.wrapping_sub(drained)), Some(b' ' | b'\n'));
        let (from, to) = (self.placed, self.placed + places.len());
        let mut kept = from;
        for (read, &end) in (from..to).zip(places) {
            let start = core::mem::replace(&mut self.last_place, end);
            placed(self.texts_placed, kept);
            self.texts_placed += 1;
            if end <= start {
                continue;
            }
            let start = start + usize::from(is_separator(start));
            let end = end - usize::from(is_separator(end - 1));
            if start >= end || !room(kept) {
                continue;
            }
            let block = &mut self.blocks[read];
            (block.start, block.end) = (start, end);
            self.blocks[kept] = self.blocks[read];
            kept += 1;
        }
        self.blocks.drain(kept..to);
        self.placed = kept;
    }

    /// A block boundary after text of whitespace alone, gathered: it has
    /// no word, so it would be found to be no block once placed; it is
    /// forgotten instead (between the words of the blocks around it it is
    /// part of the one separator that either trims).
    #[inline]
    pub(crate) fn forget_pending(&mut self) {
        self.pending.started = false;
    }

    /// Whether text was noted since the last boundary.
    #[inline]
    pub(crate) fn has_pending(&self) -> bool {
        self.pending.started
    }

    /// The index of the block the next text goes to.
    pub(crate) fn next_index(&self) -> usize {
        if self.boundary_due || self.blocks.is_empty() {
            self.blocks.len()
        } else {
            self.blocks.len() - 1
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The table gives each element the kind worked out for it.
    #[test]
    fn block_kinds_by_table() {
        for element in ALL {
            assert_eq!(BlockKind::of(element), BlockKind::of_element(element));
        }
        assert_eq!(BlockKind::of(Element::H3), BlockKind::Heading(3));
        assert_eq!(BlockKind::of(Element::Other), BlockKind::Other);
    }

    /// A block of the text `text`, with nothing else known of it.
    pub(crate) fn block(text: core::ops::Range<usize>) -> Block {
        Block::of(&Pending::default(), text, 0)
    }
}
