//! What an extraction gives: [`Extracted`], and where its text came from
//! ([`TextRun`]).

use core::ops::Range;

use crate::MemoryLimitError;
use crate::token::Span;

use super::{Link, Metadata};

/// One piece of the output text and where in the input it came from: the
/// collapsed text of one text token (or of the pieces of one, in a
/// stream).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextRun {
    /// Where the piece is in the whole output text, in bytes.
    pub text: Range<usize>,
    /// The span of the input it came from.
    pub source: Span,
}

/// Everything extracted from a page.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Extracted {
    /// The visible text: lines of collapsed text, no newline at the end.
    pub text: String,
    /// Where each piece of the text came from (with
    /// [`ExtractOptions::offsets`](super::ExtractOptions::offsets)).
    pub runs: Vec<TextRun>,
    /// Whether [`ExtractOptions::text_limit`](super::ExtractOptions::text_limit) cut the text.
    pub text_truncated: bool,
    /// The links, in page order.
    pub links: Vec<Link>,
    /// The metadata.
    pub metadata: Metadata,
    /// What the text is, when main content was asked for
    /// ([`ExtractOptions::main_content`](super::ExtractOptions::main_content)):
    /// the main content, or all the text and why.
    pub main_content: MainContent,
    /// Why the extraction ended before the page did, if a memory limit
    /// stopped it ([`ExtractOptions::memory_limit`](super::ExtractOptions::memory_limit)):
    /// the extractor's, or in [`extract`](super::extract) the tokenizer's.
    /// Everything above was extracted from the page up to
    /// [`MemoryLimitError::offset`], as if it ended there (main content
    /// decided over that part of it).
    pub memory_limit: Option<MemoryLimitError>,
}

/// What the text of an extraction is, when main content was asked for
/// ([`ExtractOptions::main_content`](super::ExtractOptions::main_content)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum MainContent {
    /// Main content was not asked for: the text is all the visible text.
    #[default]
    NotAsked,
    /// The text is the page's main content.
    Found,
    /// No block of the page looks like main content (a home page, a list
    /// of links, a page of navigation): the text is all the visible text,
    /// so that nothing the page says is lost.
    AllText,
    /// The page has no visible text.
    Empty,
    /// The page has more than
    /// [`MAX_BLOCKS`](super::main_content::MAX_BLOCKS) blocks: the text
    /// is all the visible text.
    OverLimit,
}
