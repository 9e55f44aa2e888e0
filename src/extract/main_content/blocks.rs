//! The page as a sequence of blocks: the pieces of text between two block
//! boundaries (what the text output puts on lines of their own; a `<br>`
//! or a newline in `<pre>` breaks a line inside a block), each with what
//! was known where it began.

use crate::element::Element;

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
    /// The kind of a block whose innermost block element is `element`.
    pub(crate) fn of(element: Element) -> BlockKind {
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

/// A block, as gathered while the page is read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    /// Where its text starts in the whole text.
    pub(crate) start: usize,
    /// Where its text ends.
    pub(crate) end: usize,
    /// The first of its text runs (with offsets).
    pub(crate) first_run: usize,
    /// How many bytes of its text are inside links.
    pub(crate) link_bytes: u32,
    /// How many text pieces it was written from.
    pub(crate) pieces: u32,
    /// The signals of the elements open where it began.
    pub(crate) signals: Signals,
    /// The page-named signals of the innermost element that has any.
    pub(crate) nearest: Signals,
    /// How many elements were open where it began.
    pub(crate) depth: u32,
    pub(crate) kind: BlockKind,
}

// Blocks are held for the whole page: a fixed amount each.
const _: () = assert!(core::mem::size_of::<Block>() <= 64);

/// The blocks of a page so far.
#[derive(Debug, Default)]
pub(crate) struct Blocks {
    pub(crate) blocks: Vec<Block>,
    /// Whether a block boundary came since the last text.
    boundary_due: bool,
}

impl Blocks {
    /// A block boundary (not a `<br>`): the next text begins a block.
    #[inline(always)]
    pub(crate) fn boundary(&mut self) {
        self.boundary_due = true;
    }

    /// Text was written at `at..end` of the whole text, inside `open`, as
    /// part of the run `run`; `depth` elements are open.
    #[inline]
    pub(crate) fn text(&mut self, at: usize, end: usize, run: usize, open: &Open, depth: usize) {
        if self.boundary_due || self.blocks.is_empty() {
            self.boundary_due = false;
            self.blocks.push(Block {
                start: at,
                end,
                first_run: run,
                link_bytes: 0,
                pieces: 0,
                signals: open.signals,
                nearest: open.nearest,
                depth: u32::try_from(depth).unwrap_or(u32::MAX),
                kind: BlockKind::of(open.block),
            });
        }
        let block = self.blocks.last_mut().expect("a block");
        block.end = end;
        block.pieces = block.pieces.saturating_add(1);
        if open.signals.any(Signals::IN_LINK) {
            let bytes = u32::try_from(end - at).unwrap_or(u32::MAX);
            block.link_bytes = block.link_bytes.saturating_add(bytes);
        }
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
