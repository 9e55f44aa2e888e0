//! What the scoring knows of a block: a fixed list of numbers, worked out
//! after the last token from the block, the page, and the blocks around
//! it. The model (`model.rs`) is trained on exactly these
//! (`tools/main_content_train.py` reads them from `examples/blocks.rs`), so
//! the list and its order are the contract between the two: [`names`]
//! names every entry, and the generated model checks it was trained on the
//! same names.
//!
//! The features are written once, by [`visit`], which hands them to a sink
//! a batch of blocks at a time: the feature dump collects them into
//! vectors, the scorer multiplies each by its weight as it comes. The
//! numbers go as columns of the batch, so that their arithmetic is vector
//! code; most features are bits (the signals) and most bits are clear, so
//! those go block by block, the few that are set.

use std::collections::HashMap;

use super::blocks::{Block, BlockKind};
use super::signals::{self, Signals};
use crate::scan;

/// How many blocks on each side the window features look at.
const WINDOW: usize = 3;

/// What is counted in a block's text, in one pass over it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TextCounts {
    /// Characters (bytes that do not continue a UTF-8 sequence).
    pub(crate) chars: u32,
    /// Words: runs of characters between spaces and line breaks.
    pub(crate) words: u32,
    /// Line breaks inside the block.
    pub(crate) breaks: u32,
    /// ASCII digits.
    pub(crate) digits: u32,
    /// Sentence ends: `.`, `!`, `?` and their CJK forms.
    pub(crate) stops: u32,
    /// Commas and semicolons, and their CJK forms.
    pub(crate) commas: u32,
    /// Words that begin with an uppercase ASCII letter.
    pub(crate) capitalized: u32,
    /// Separators of navigation and breadcrumbs: `|`, `/`, `>`, `»`, `›`,
    /// `·`, `•`.
    pub(crate) separators: u32,
    /// Whether it has a `©`.
    pub(crate) copyright: bool,
    /// Whether it ends with a sentence end (or `:`, a quote, a bracket).
    pub(crate) ends_sentence: bool,
}

impl TextCounts {
    /// Counts the text of each block of `blocks` in `text` (the whole
    /// text, each block's collapsed: words separated by one space or one
    /// line break, none at either end, so that a word starts at the start
    /// and after each separator). The ASCII classes in one vector pass
    /// over the whole text (`scan::count_classes_at`), a block's counts
    /// those at its end less those at its start; the few characters past
    /// ASCII after, found by their lead bytes.
    pub(crate) fn of_blocks(blocks: &[Block], text: &str) -> Vec<TextCounts> {
        let bytes = text.as_bytes();
        // The counts before each block's start, and before the last one's
        // end: a block's are those at the next block's start less those
        // of the separators before it.
        let mut marks: Vec<usize> = blocks.iter().map(|b| b.start).collect();
        marks.extend(blocks.last().map(|b| b.end));
        let mut at = Vec::with_capacity(marks.len());
        scan::count_classes_at(bytes, &marks, &mut at);
        // The runs of blocks that have characters past ASCII (fewer
        // characters than bytes).
        let mut runs: Vec<core::ops::Range<usize>> = Vec::new();
        let mut counts: Vec<TextCounts> = blocks
            .iter()
            .enumerate()
            .map(|(i, block)| {
                let (start, end) = (block.start, block.end);
                let next = marks[i + 1];
                let mut c = [0u32; 8];
                for (k, c) in c.iter_mut().enumerate() {
                    *c = at[i + 1][k] - at[i][k];
                }
                // The separators between this block and the next (one, as
                // a rule).
                let separators = &bytes[end..next];
                debug_assert!(
                    separators.iter().all(|&b| matches!(b, b' ' | b'\n')),
                    "only separators between blocks"
                );
                c[0] -= separators.len() as u32;
                c[1] -= match separators {
                    [b] => u32::from(*b == b'\n'),
                    _ => separators.iter().filter(|&&b| b == b'\n').count() as u32,
                };
                let [sep, brk, dig, stop, comma, bar, continuations, mut up] = c;
                // A block's first word begins it: a capital there counts
                // whatever the byte before it in the whole text.
                if start > 0
                    && start < end
                    && !matches!(bytes[start - 1], b' ' | b'\n')
                    && bytes[start].is_ascii_uppercase()
                {
                    up += 1;
                }
                let len = u32::try_from(end - start).unwrap_or(u32::MAX);
                let chars = len - continuations;
                if (chars as usize) < end - start {
                    match runs.last_mut() {
                        Some(run) if run.end == i => run.end = i + 1,
                        _ => runs.push(i..i + 1),
                    }
                }
                TextCounts {
                    chars,
                    words: if start < end { 1 + sep } else { 0 },
                    breaks: brk,
                    digits: dig,
                    stops: stop,
                    commas: comma,
                    capitalized: up,
                    separators: bar,
                    copyright: false,
                    ends_sentence: ends_sentence(&bytes[start..end]),
                }
            })
            .collect();
        // The few characters past ASCII that are counted, found by their
        // lead bytes (a vector search), each in the block it is in, if
        // any: searched only over each run of blocks that have characters
        // past ASCII, most pages' text being nearly all ASCII.
        for run in runs {
            let from = blocks[run.start].start;
            let text = &bytes[from..blocks[run.end - 1].end];
            let mut count = |positions: &mut dyn Iterator<Item = usize>| {
                let mut block = run.start;
                for i in positions.map(|i| from + i) {
                    while blocks[block].end <= i {
                        block += 1;
                    }
                    let b = &blocks[block];
                    if b.start <= i {
                        counts[block].count_character(bytes[i], &bytes[i + 1..(i + 3).min(b.end)]);
                    }
                }
            };
            count(&mut memchr::memchr3_iter(0xC2, 0xE2, 0xE3, text));
            count(&mut memchr::memchr_iter(0xEF, text));
        }
        counts
    }

    /// Counts `text`, collapsed (as [`TextCounts::of_blocks`] counts a
    /// block).
    #[cfg(test)]
    pub(crate) fn of(text: &str) -> TextCounts {
        let block = super::blocks::tests::block(0..text.len());
        TextCounts::of_blocks(&[block], text)[0]
    }

    /// Counts the character that starts with `lead`, given the (up to) two
    /// bytes after it.
    fn count_character(&mut self, lead: u8, next: &[u8]) {
        match (lead, next) {
            (0xC2, [0xBB | 0xB7, ..]) => self.separators += 1, // » ·
            (0xC2, [0xA9, ..]) => self.copyright = true,       // ©
            (0xE2, [0x80, 0xBA | 0xA2]) => self.separators += 1, // › •
            (0xE3, [0x80, 0x82]) => self.stops += 1,           // 。
            (0xE3, [0x80, 0x81]) => self.commas += 1,          // 、
            (0xEF, [0xBC, 0x81 | 0x9F]) => self.stops += 1,    // ！ ？
            (0xEF, [0xBC, 0x8C]) => self.commas += 1,          // ，
            _ => {}
        }
    }
}

/// Whether `text` (UTF-8) ends with a sentence end (`.`, `!`, `?` and
/// their CJK forms), a `:`, a quote or a bracket: its last byte, or the
/// three of a CJK form.
#[inline]
fn ends_sentence(text: &[u8]) -> bool {
    match text.last() {
        Some(b'.' | b'!' | b'?' | b':' | b'"' | b')') => true,
        // Most text ends in ASCII: the three bytes looked at only where
        // the last is past it.
        Some(0x80..) => matches!(
            text,
            // 。 ！ ？ ”
            [.., 0xE3, 0x80, 0x82] | [.., 0xEF, 0xBC, 0x81 | 0x9F] | [.., 0xE2, 0x80, 0x9D]
        ),
        _ => false,
    }
}

/// What is known of the whole page, and running totals over its blocks,
/// for the features of each block.
#[derive(Debug)]
pub(crate) struct Page {
    counts: Vec<TextCounts>,
    /// Totals of blocks `0..i` at `i + WINDOW`: words, raw bytes, link
    /// bytes and sentence ends (for the window features); the first total
    /// repeated `WINDOW` times before, the last `WINDOW` times after, so
    /// that block `i`'s window is `before[i + 2 * WINDOW + 1]` less
    /// `before[i]`, without clamping at the page's ends.
    before: Vec<[u64; 4]>,
    /// The first `<h1>` block, if any.
    first_h1: Option<usize>,
    /// Whether any block is inside `<article>`, `<main>`, or named as the
    /// body of the text.
    has_article: bool,
    has_main: bool,
    has_named_body: bool,
    /// Words in list items.
    list_words: u64,
    /// Words inside `<noscript>`, and under elements named as comments and
    /// as cards (a listing's items).
    noscript_words: u64,
    comment_words: u64,
    card_words: u64,
    /// Each block's `class` (an index into `class_features`; none past
    /// its end).
    class_of: Vec<u32>,
    /// The features of each `class`: its share of the page's words, and
    /// how many other blocks it has (log).
    class_features: Vec<[f32; 2]>,
    /// Where the text ends, and the last block's index (as the position
    /// features divide by them).
    text_end: f32,
    last_index: f32,
    /// The features that are the same for every block of the page: its
    /// words (and their log), its link density, the share of its words in
    /// list items.
    page_words: f32,
    page_words_log: f32,
    page_link_density: f32,
    page_list_fraction: f32,
}

impl Page {
    /// The page of these blocks of `text`.
    pub(crate) fn of(blocks: &[Block], text: &str) -> Page {
        let n = blocks.len();
        let mut page = Page {
            counts: Vec::new(),
            before: Vec::with_capacity(n + 1 + 2 * WINDOW),
            first_h1: None,
            has_article: false,
            has_main: false,
            has_named_body: false,
            list_words: 0,
            noscript_words: 0,
            comment_words: 0,
            card_words: 0,
            class_of: Vec::with_capacity(n),
            class_features: Vec::new(),
            text_end: float(blocks.last().map_or(0, |b| b.end) as u64),
            last_index: n as f32 - 1.0,
            page_words: 0.0,
            page_words_log: 0.0,
            page_link_density: 0.0,
            page_list_fraction: 0.0,
        };
        // Each class's words and blocks, and its index by its hash.
        let mut classes: Vec<(u64, u32)> = Vec::new();
        let mut class_index: HashMap<u32, u32, foldhash::fast::FixedState> =
            HashMap::with_hasher(foldhash::fast::FixedState::default());
        let mut last_class = (0u32, 0u32);
        let (mut words, mut raw, mut links, mut stops) = (0u64, 0u64, 0u64, 0u64);
        // The signals of any block.
        let mut signals = Signals::default();
        page.counts = TextCounts::of_blocks(blocks, text);
        page.before.extend([[0; 4]; WINDOW]);
        for (i, (block, c)) in blocks.iter().zip(&page.counts).enumerate() {
            page.before.push([words, raw, links, stops]);
            words += u64::from(c.words);
            raw += u64::from(block.raw_bytes);
            links += u64::from(block.link_bytes);
            stops += u64::from(c.stops);
            if page.first_h1.is_none() && block.kind == BlockKind::Heading(1) {
                page.first_h1 = Some(i);
            }
            signals.0 |= block.signals.0;
            let words = u64::from(c.words);
            if block.kind == BlockKind::ListItem {
                page.list_words += words;
            }
            let with = |signal| if block.signals.any(signal) { words } else { 0 };
            page.noscript_words += with(Signals::IN_NOSCRIPT);
            page.comment_words += with(Signals::COMMENT);
            page.card_words += with(Signals::CARD);
            if block.class != 0 {
                // Blocks side by side often share their class (a list's
                // items, a listing's code lines): the last one's index.
                let index = if block.class == last_class.0 {
                    last_class.1
                } else {
                    let index = *class_index.entry(block.class).or_insert_with(|| {
                        classes.push((0, 0));
                        classes.len() as u32 - 1
                    });
                    last_class = (block.class, index);
                    index
                };
                let class = &mut classes[index as usize];
                class.0 += words;
                class.1 += 1;
                page.class_of.push(index);
            } else {
                page.class_of.push(u32::MAX);
            }
        }
        page.before.extend([[words, raw, links, stops]; WINDOW + 1]);
        page.has_article = signals.any(Signals::IN_ARTICLE);
        page.has_main = signals.any(Signals::IN_MAIN);
        page.has_named_body = signals.any(Signals::BODY);
        let [page_words, page_raw, page_links, _] = page.totals(0..n);
        page.page_words = page_words;
        page.page_words_log = log(page_words);
        page.page_link_density = ratio(page_links, page_raw);
        page.page_list_fraction = ratio(page.list_words as f32, page_words);
        page.class_features = classes
            .iter()
            .map(|&(words, blocks)| [ratio(words as f32, page_words), log(blocks as f32 - 1.0)])
            .collect();
        page
    }

    /// The words of block `i`.
    pub(crate) fn words(&self, i: usize) -> u32 {
        self.counts[i].words
    }

    /// Totals over the blocks of `range` (words, raw bytes, link bytes,
    /// sentence ends).
    fn totals(&self, range: core::ops::Range<usize>) -> [f32; 4] {
        let (a, b) = (range.start, range.end);
        let (from, to) = (&self.before[a + WINDOW], &self.before[b + WINDOW]);
        core::array::from_fn(|k| float(to[k] - from[k]))
    }
}

/// The names of the text features, in order.
const TEXT_NAMES: &[&str] = &[
    "words_log",
    "chars_log",
    "link_density",
    "stops_per_word",
    "commas_per_word",
    "digit_fraction",
    "mean_word_chars",
    "ends_sentence",
    "copyright",
    "lines_log",
    "pieces_per_word",
    "capitalized_fraction",
    "separators_per_word",
];

/// The names of the kind features, in order.
const KIND_NAMES: &[&str] = &[
    "kind_paragraph",
    "kind_heading",
    "kind_h1",
    "kind_list_item",
    "kind_table",
    "kind_pre",
    "kind_quote",
    "kind_caption",
    "kind_other",
];

/// The names of the position, page and neighbour features, in order.
const REST_NAMES: &[&str] = &[
    "position",
    "text_position",
    "before_first_h1",
    "depth_log",
    "page_words_log",
    "page_link_density",
    "page_has_article",
    "page_has_main",
    "page_has_named_body",
    "page_list_fraction",
    "share_of_page_words",
    "previous_words_log",
    "previous_link_density",
    "previous_heading",
    "next_words_log",
    "next_link_density",
    "next_heading",
    "window_words_log",
    "window_link_density",
    "window_stops_per_word",
    "same_nearest_as_previous",
    "same_nearest_as_next",
    "same_class_share",
    "same_class_blocks_log",
    "noscript_share",
    "comment_share",
    "card_share",
];

/// How many signals there are features for: the page-named ones (bits 0
/// up), and the elements' (bits 24 up).
const NAMED_SIGNALS: usize = 20;
const ELEMENT_SIGNALS: usize = 23;

/// Where each group of features starts.
const KIND_AT: usize = TEXT_NAMES.len();
const SIGNAL_AT: usize = KIND_AT + KIND_NAMES.len();
const NEAREST_AT: usize = SIGNAL_AT + NAMED_SIGNALS;
const ELEMENT_AT: usize = NEAREST_AT + NAMED_SIGNALS;
const REST_AT: usize = ELEMENT_AT + ELEMENT_SIGNALS;

/// How many features a block has.
pub(crate) const COUNT: usize = REST_AT + REST_NAMES.len();

/// The name of every feature, in order (the signals' as `signal_NAME` for
/// the elements above the block, `nearest_NAME` for the innermost element
/// the page named).
pub(crate) fn names() -> Vec<String> {
    let bit_name = |bit: usize| {
        signals::NAMES
            .iter()
            .find(|(_, s)| s.0 == 1 << bit)
            .map_or_else(|| format!("bit{bit}"), |(n, _)| n.to_ascii_lowercase())
    };
    let mut names: Vec<String> = TEXT_NAMES.iter().map(|s| s.to_string()).collect();
    names.extend(KIND_NAMES.iter().map(|s| s.to_string()));
    names.extend((0..NAMED_SIGNALS).map(|b| format!("signal_{}", bit_name(b))));
    names.extend((0..NAMED_SIGNALS).map(|b| format!("nearest_{}", bit_name(b))));
    names.extend((24..24 + ELEMENT_SIGNALS).map(|b| format!("signal_{}", bit_name(b))));
    names.extend(REST_NAMES.iter().map(|s| s.to_string()));
    names
}

/// `ln(1 + x)`, approximately (within 0.01 for the non-negative counts it
/// is given): the exponent of `1 + x` as a float, and a parabola through
/// its mantissa. A handful of instructions where `f32::ln_1p` is a call;
/// the model is trained on exactly what this gives.
#[inline]
pub(crate) fn log(x: f32) -> f32 {
    let y = 1.0 + x.max(0.0);
    let bits = y.to_bits();
    let exponent = ((bits >> 23) & 0xFF) as f32 - 127.0;
    let m = f32::from_bits((bits & 0x007F_FFFF) | 0x3F80_0000) - 1.0; // in [0, 1)
    let log2 = exponent + m * (1.3466 - 0.3466 * m);
    log2 * core::f32::consts::LN_2
}

/// `x` as a float: as `x as f32`, by the signed conversion, one
/// instruction where the unsigned one of 64 bits takes several (the
/// counts are far below 2^63).
#[inline(always)]
fn float(x: u64) -> f32 {
    x as i64 as f32
}

/// `a / b`, 0 when `b` is 0 (divided either way, then chosen: no branch,
/// so that a column of them is vector code).
#[inline]
fn ratio(a: f32, b: f32) -> f32 {
    let quotient = a / b;
    if b > 0.0 { quotient } else { 0.0 }
}

/// How many blocks [`visit`] works out at once.
pub(crate) const BATCH: usize = 16;

/// Where [`visit`] hands the features of a batch of blocks.
pub(crate) trait Sink {
    /// Feature `at` of each block of the batch (the lanes past its end are
    /// none's, to be left out).
    fn column(&mut self, at: usize, values: &[f32; BATCH]);
    /// Feature `at` of block `j` of the batch is 1 (the others' are 0).
    fn one(&mut self, j: usize, at: usize);
    /// Features `at + b` of block `j` are 1 for each bit `b` set in
    /// `mask`, the lowest first: [`Sink::one`] of each.
    #[inline(always)]
    fn ones(&mut self, j: usize, mask: u64, at: usize) {
        let mut m = mask;
        while m != 0 {
            self.one(j, at + m.trailing_zeros() as usize);
            m &= m - 1;
        }
    }
}

/// What [`visit`] reads of each block of a batch, a column of each
/// (gathered in one loop over the blocks, so that the arithmetic on the
/// columns after is vector code).
#[derive(Default)]
pub(crate) struct Lanes {
    words: [f32; BATCH],
    chars: [f32; BATCH],
    link_bytes: [f32; BATCH],
    raw_bytes: [f32; BATCH],
    stops: [f32; BATCH],
    commas: [f32; BATCH],
    digits: [f32; BATCH],
    ends_sentence: [f32; BATCH],
    copyright: [f32; BATCH],
    breaks: [f32; BATCH],
    pieces: [f32; BATCH],
    capitalized: [f32; BATCH],
    separators: [f32; BATCH],
    position: [f32; BATCH],
    start: [f32; BATCH],
    before_first_h1: [f32; BATCH],
    depth: [f32; BATCH],
    heading: [f32; BATCH],
    /// The blocks before and after (0 where there is none).
    previous: Neighbour,
    next: Neighbour,
    window: [[f32; BATCH]; 4],
    same_nearest: [[f32; BATCH]; 2],
    class: [[f32; BATCH]; 2],
    shares: [[f32; BATCH]; 3],
}

/// What [`visit`] reads of a block's neighbour.
#[derive(Default)]
struct Neighbour {
    words: [f32; BATCH],
    link_bytes: [f32; BATCH],
    raw_bytes: [f32; BATCH],
    heading: [f32; BATCH],
}

impl Neighbour {
    /// The lanes `from` of the batch's own blocks, to lanes `to..`.
    #[inline(always)]
    fn shifted_from(&mut self, lanes: &Lanes, from: core::ops::Range<usize>, to: usize) {
        let len = from.len();
        self.words[to..to + len].copy_from_slice(&lanes.words[from.clone()]);
        self.link_bytes[to..to + len].copy_from_slice(&lanes.link_bytes[from.clone()]);
        self.raw_bytes[to..to + len].copy_from_slice(&lanes.raw_bytes[from.clone()]);
        self.heading[to..to + len].copy_from_slice(&lanes.heading[from]);
    }

    /// Block `j` of the batch has none beside it.
    #[inline(always)]
    fn clear(&mut self, j: usize) {
        self.words[j] = 0.0;
        self.link_bytes[j] = 0.0;
        self.raw_bytes[j] = 0.0;
        self.heading[j] = 0.0;
    }

    /// Block `j` of the batch has `block` beside it, with `words`.
    #[inline(always)]
    fn set(&mut self, j: usize, block: &Block, words: u32) {
        self.words[j] = words as f32;
        self.link_bytes[j] = block.link_bytes as f32;
        self.raw_bytes[j] = block.raw_bytes as f32;
        self.heading[j] = f32::from(u8::from(block.kind.is_heading()));
    }
}

impl Lanes {
    /// Columns to fill, for a page's batches one after the other.
    pub(crate) fn new() -> Box<Lanes> {
        Box::default()
    }

    /// Fills the columns of the blocks from `first` on, at most [`BATCH`]
    /// (the lanes past them keep what they held: no feature of theirs is
    /// used).
    fn fill(&mut self, blocks: &[Block], page: &Page, first: usize) {
        let n = blocks.len();
        let l = self;
        let share = |words: u64| ratio(words as f32, page.page_words);
        let shares = [
            (Signals::IN_NOSCRIPT, share(page.noscript_words)),
            (Signals::COMMENT, share(page.comment_words)),
            (Signals::CARD, share(page.card_words)),
        ];
        let k = (n - first).min(BATCH);
        // The batch's blocks and what the page knows of them, cut to the
        // batch's length once (no bounds checks in the loop).
        let own = &blocks[first..first + k];
        let counts = &page.counts[first..first + k];
        let class_of = &page.class_of[first..first + k];
        let before = &page.before[first..first + k + 2 * WINDOW + 1];
        let first_h1 = page.first_h1.unwrap_or(0);
        for j in 0..k {
            let (block, c) = (&own[j], &counts[j]);
            let i = first + j;
            l.words[j] = c.words as f32;
            l.chars[j] = c.chars as f32;
            l.link_bytes[j] = block.link_bytes as f32;
            l.raw_bytes[j] = block.raw_bytes as f32;
            l.stops[j] = c.stops as f32;
            l.commas[j] = c.commas as f32;
            l.digits[j] = c.digits as f32;
            l.ends_sentence[j] = f32::from(u8::from(c.ends_sentence));
            l.copyright[j] = f32::from(u8::from(c.copyright));
            l.breaks[j] = c.breaks as f32;
            l.pieces[j] = block.pieces as f32;
            l.capitalized[j] = c.capitalized as f32;
            l.separators[j] = c.separators as f32;
            l.position[j] = float(i as u64);
            l.start[j] = float(block.start as u64);
            l.before_first_h1[j] = f32::from(u8::from(i < first_h1));
            l.depth[j] = block.depth as f32;
            l.heading[j] = f32::from(u8::from(block.kind.is_heading()));
            // Whether the next block has this one's nearest signals (the
            // previous block's, for the next lane, is the same test).
            let same_as_next = blocks
                .get(i + 1)
                .is_some_and(|next| next.nearest == block.nearest);
            l.same_nearest[1][j] = f32::from(u8::from(same_as_next));
            let (from, to) = (&before[j], &before[j + 2 * WINDOW + 1]);
            for (column, (to, from)) in l.window.iter_mut().zip(to.iter().zip(from)) {
                column[j] = float(to - from);
            }
            let class = page
                .class_features
                .get(class_of[j] as usize)
                .copied()
                .unwrap_or([0.0; 2]);
            l.class[0][j] = class[0];
            l.class[1][j] = class[1];
            for (column, &(signal, share)) in l.shares.iter_mut().zip(&shares) {
                column[j] = if block.signals.any(signal) {
                    share
                } else {
                    0.0
                };
            }
        }
        let same_as_next = l.same_nearest[1];
        l.same_nearest[0][1..k].copy_from_slice(&same_as_next[..k - 1]);
        l.same_nearest[0][0] = match first.checked_sub(1) {
            Some(p) => f32::from(u8::from(blocks[p].nearest == blocks[first].nearest)),
            None => 0.0,
        };
        // The neighbours inside the batch are its own blocks, one lane
        // over; the batch's first and last read theirs.
        let mut previous = Neighbour::default();
        previous.shifted_from(l, 0..k - 1, 1);
        match first.checked_sub(1) {
            Some(p) => previous.set(0, &blocks[p], page.counts[p].words),
            None => previous.clear(0),
        }
        let mut next = Neighbour::default();
        next.shifted_from(l, 1..k, 0);
        if first + k < n {
            next.set(k - 1, &blocks[first + k], page.counts[first + k].words);
        } else {
            next.clear(k - 1);
        }
        (l.previous, l.next) = (previous, next);
    }
}

/// Hands every feature of the blocks from `first` on (at most [`BATCH`])
/// to `sink`, one feature at a time, in the order the scorer adds them
/// up: the numbers as columns of the batch (whose arithmetic is vector
/// code), each block's kind and set signals as the ones they are. The
/// arithmetic of each block is the same, in the same order, whatever its
/// place in a batch.
#[inline]
pub(crate) fn visit(
    blocks: &[Block],
    page: &Page,
    first: usize,
    lanes: &mut Lanes,
    sink: &mut impl Sink,
) {
    lanes.fill(blocks, page, first);
    let l = &*lanes;
    // Text.
    sink.column(0, &map(&l.words, log));
    sink.column(1, &map(&l.chars, log));
    sink.column(2, &map2(&l.link_bytes, &l.raw_bytes, ratio));
    sink.column(3, &map2(&l.stops, &l.words, ratio));
    sink.column(4, &map2(&l.commas, &l.words, ratio));
    sink.column(5, &map2(&l.digits, &l.chars, ratio));
    sink.column(
        6,
        &map2(&l.chars, &l.words, |c, w| (ratio(c, w) / 10.0).min(3.0)),
    );
    sink.column(7, &l.ends_sentence);
    sink.column(8, &l.copyright);
    sink.column(9, &map(&l.breaks, log));
    sink.column(10, &map2(&l.pieces, &l.words, |p, w| ratio(p, w).min(4.0)));
    sink.column(11, &map2(&l.capitalized, &l.words, ratio));
    sink.column(
        12,
        &map2(&l.separators, &l.words, |s, w| ratio(s, w).min(4.0)),
    );
    // Kind, one of them; then the signals: named above, named nearest,
    // elements above; their set bits.
    let named_mask = (1u64 << NAMED_SIGNALS) - 1;
    for (j, block) in blocks[first..].iter().take(BATCH).enumerate() {
        let kind = match block.kind {
            BlockKind::Paragraph => 0,
            BlockKind::Heading(1) => {
                sink.one(j, KIND_AT + 2);
                1
            }
            BlockKind::Heading(_) => 1,
            BlockKind::ListItem => 3,
            BlockKind::TableRow => 4,
            BlockKind::Preformatted => 5,
            BlockKind::Quote => 6,
            BlockKind::Caption => 7,
            BlockKind::Other => 8,
        };
        sink.one(j, KIND_AT + kind);
        sink.ones(j, block.signals.0 & named_mask, SIGNAL_AT);
        sink.ones(j, block.nearest.0 & named_mask, NEAREST_AT);
        sink.ones(
            j,
            (block.signals.0 >> 24) & ((1u64 << ELEMENT_SIGNALS) - 1),
            ELEMENT_AT,
        );
    }
    // Position and page.
    let constant = |value: f32| [value; BATCH];
    sink.column(REST_AT, &map(&l.position, |p| ratio(p, page.last_index)));
    sink.column(REST_AT + 1, &map(&l.start, |s| ratio(s, page.text_end)));
    sink.column(REST_AT + 2, &l.before_first_h1);
    sink.column(REST_AT + 3, &map(&l.depth, log));
    sink.column(REST_AT + 4, &constant(page.page_words_log));
    sink.column(REST_AT + 5, &constant(page.page_link_density));
    sink.column(
        REST_AT + 6,
        &constant(f32::from(u8::from(page.has_article))),
    );
    sink.column(REST_AT + 7, &constant(f32::from(u8::from(page.has_main))));
    sink.column(
        REST_AT + 8,
        &constant(f32::from(u8::from(page.has_named_body))),
    );
    sink.column(REST_AT + 9, &constant(page.page_list_fraction));
    sink.column(REST_AT + 10, &map(&l.words, |w| ratio(w, page.page_words)));
    // Neighbours (none before the first block, none after the last: their
    // features 0).
    for (side, neighbour) in [(0, &l.previous), (3, &l.next)] {
        sink.column(REST_AT + 11 + side, &map(&neighbour.words, log));
        sink.column(
            REST_AT + 12 + side,
            &map2(&neighbour.link_bytes, &neighbour.raw_bytes, ratio),
        );
        sink.column(REST_AT + 13 + side, &neighbour.heading);
    }
    let [w_words, w_raw, w_links, w_stops] = &l.window;
    sink.column(REST_AT + 17, &map(w_words, log));
    sink.column(REST_AT + 18, &map2(w_links, w_raw, ratio));
    sink.column(REST_AT + 19, &map2(w_stops, w_words, ratio));
    sink.column(REST_AT + 20, &l.same_nearest[0]);
    sink.column(REST_AT + 21, &l.same_nearest[1]);
    // What the block shares with the rest of the page: its class (the
    // posts of a thread, the items of a listing), and how much of the page
    // is, like it, in `<noscript>`, comments or cards.
    sink.column(REST_AT + 22, &l.class[0]);
    sink.column(REST_AT + 23, &l.class[1]);
    sink.column(REST_AT + 24, &l.shares[0]);
    sink.column(REST_AT + 25, &l.shares[1]);
    sink.column(REST_AT + 26, &l.shares[2]);
}

/// `f` of each lane.
#[inline(always)]
fn map(a: &[f32; BATCH], f: impl Fn(f32) -> f32) -> [f32; BATCH] {
    core::array::from_fn(|j| f(a[j]))
}

/// `f` of each lane of `a` and `b`.
#[inline(always)]
fn map2(a: &[f32; BATCH], b: &[f32; BATCH], f: impl Fn(f32, f32) -> f32) -> [f32; BATCH] {
    core::array::from_fn(|j| f(a[j], b[j]))
}

/// Every feature of every block, as vectors (for the feature dump).
pub(crate) fn vectors(blocks: &[Block], page: &Page) -> Vec<Vec<f32>> {
    /// The vectors of a batch.
    struct Dump<'a>(&'a mut [Vec<f32>]);
    impl Sink for Dump<'_> {
        fn column(&mut self, at: usize, values: &[f32; BATCH]) {
            for (vector, &value) in self.0.iter_mut().zip(values) {
                vector[at] = value;
            }
        }
        fn one(&mut self, j: usize, at: usize) {
            self.0[j][at] = 1.0;
        }
    }
    let mut out = vec![vec![0.0; COUNT]; blocks.len()];
    let mut lanes = Lanes::new();
    for (batch, vectors) in out.chunks_mut(BATCH).enumerate() {
        visit(blocks, page, batch * BATCH, &mut lanes, &mut Dump(vectors));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The features of block `i` one at a time, in the order the scorer
    /// adds them up, as the scorer worked them out before the batches:
    /// the definition [`visit`] is checked against.
    fn visit_one(blocks: &[Block], page: &Page, i: usize, sink: &mut impl FnMut(usize, f32)) {
        let block = &blocks[i];
        let c = &page.counts[i];
        let words = c.words as f32;
        let mut put = |at: usize, value: f32| sink(at, value);
        let link_density = |b: &Block| ratio(b.link_bytes as f32, b.raw_bytes as f32);
        // Text.
        put(0, log(words));
        put(1, log(c.chars as f32));
        put(2, link_density(block));
        put(3, ratio(c.stops as f32, words));
        put(4, ratio(c.commas as f32, words));
        put(5, ratio(c.digits as f32, c.chars as f32));
        put(6, (ratio(c.chars as f32, words) / 10.0).min(3.0));
        put(7, f32::from(u8::from(c.ends_sentence)));
        put(8, f32::from(u8::from(c.copyright)));
        put(9, log(c.breaks as f32));
        put(10, ratio(block.pieces as f32, words).min(4.0));
        put(11, ratio(c.capitalized as f32, words));
        put(12, ratio(c.separators as f32, words).min(4.0));
        // Kind: one of them.
        let kind = match block.kind {
            BlockKind::Paragraph => 0,
            BlockKind::Heading(1) => {
                put(KIND_AT + 2, 1.0);
                1
            }
            BlockKind::Heading(_) => 1,
            BlockKind::ListItem => 3,
            BlockKind::TableRow => 4,
            BlockKind::Preformatted => 5,
            BlockKind::Quote => 6,
            BlockKind::Caption => 7,
            BlockKind::Other => 8,
        };
        put(KIND_AT + kind, 1.0);
        // Signals: named above, named nearest, elements above; their set bits.
        let mut bits = |mask: u64, at: usize| {
            let mut m = mask;
            while m != 0 {
                put(at + m.trailing_zeros() as usize, 1.0);
                m &= m - 1;
            }
        };
        let named_mask = (1u64 << NAMED_SIGNALS) - 1;
        bits(block.signals.0 & named_mask, SIGNAL_AT);
        bits(block.nearest.0 & named_mask, NEAREST_AT);
        bits(
            (block.signals.0 >> 24) & ((1u64 << ELEMENT_SIGNALS) - 1),
            ELEMENT_AT,
        );
        // Position and page.
        let n = blocks.len();
        let page_words = page.page_words;
        put(REST_AT, ratio(float(i as u64), page.last_index));
        put(REST_AT + 1, ratio(float(block.start as u64), page.text_end));
        put(
            REST_AT + 2,
            f32::from(u8::from(page.first_h1.is_some_and(|h| i < h))),
        );
        put(REST_AT + 3, log(block.depth as f32));
        put(REST_AT + 4, page.page_words_log);
        put(REST_AT + 5, page.page_link_density);
        put(REST_AT + 6, f32::from(u8::from(page.has_article)));
        put(REST_AT + 7, f32::from(u8::from(page.has_main)));
        put(REST_AT + 8, f32::from(u8::from(page.has_named_body)));
        put(REST_AT + 9, page.page_list_fraction);
        put(REST_AT + 10, ratio(words, page_words));
        // Neighbours.
        for (side, j) in [(0, i.checked_sub(1)), (3, (i + 1 < n).then_some(i + 1))] {
            if let Some(j) = j {
                put(REST_AT + 11 + side, log(page.counts[j].words as f32));
                put(REST_AT + 12 + side, link_density(&blocks[j]));
                put(
                    REST_AT + 13 + side,
                    f32::from(u8::from(blocks[j].kind.is_heading())),
                );
            }
        }
        let [w_words, w_raw, w_links, w_stops] =
            page.totals(i.saturating_sub(WINDOW)..(i + WINDOW + 1).min(n));
        put(REST_AT + 17, log(w_words));
        put(REST_AT + 18, ratio(w_links, w_raw));
        put(REST_AT + 19, ratio(w_stops, w_words));
        let same = |j: Option<usize>| j.is_some_and(|j| blocks[j].nearest == block.nearest);
        put(REST_AT + 20, f32::from(u8::from(same(i.checked_sub(1)))));
        put(
            REST_AT + 21,
            f32::from(u8::from(same((i + 1 < n).then_some(i + 1)))),
        );
        // What the block shares with the rest of the page: its class (the
        // posts of a thread, the items of a listing), and how much of the page
        // is, like it, in `<noscript>`, comments or cards.
        if let Some(&[share, others]) = page.class_features.get(page.class_of[i] as usize) {
            put(REST_AT + 22, share);
            put(REST_AT + 23, others);
        }
        let share = |signal, words: u64| {
            if block.signals.any(signal) {
                ratio(words as f32, page_words)
            } else {
                0.0
            }
        };
        put(
            REST_AT + 24,
            share(Signals::IN_NOSCRIPT, page.noscript_words),
        );
        put(REST_AT + 25, share(Signals::COMMENT, page.comment_words));
        put(REST_AT + 26, share(Signals::CARD, page.card_words));
    }

    /// Blocks of random text, kinds and signals, and their page.
    fn random_page(seed: u64, n: usize) -> (Vec<Block>, String) {
        let mut next = crate::testing::below(seed);
        let pieces = [
            "Word",
            "word",
            "a.",
            "b,",
            "1984",
            "|",
            "»",
            "©",
            "日本。",
            "x!",
        ];
        let kinds = [
            BlockKind::Paragraph,
            BlockKind::Heading(1),
            BlockKind::Heading(3),
            BlockKind::ListItem,
            BlockKind::TableRow,
            BlockKind::Preformatted,
            BlockKind::Quote,
            BlockKind::Caption,
            BlockKind::Other,
        ];
        let mut text = String::new();
        let mut blocks = Vec::new();
        for i in 0..n {
            if i > 0 {
                text.push('\n');
            }
            let start = text.len();
            for w in 0..1 + next(12) {
                if w > 0 {
                    text.push(if next(9) == 0 { '\n' } else { ' ' });
                }
                text.push_str(pieces[next(pieces.len())]);
            }
            let mut block = super::super::blocks::tests::block(start..text.len());
            block.raw_bytes = (text.len() - start + next(20)) as u32;
            block.link_bytes = next(block.raw_bytes as usize + 1) as u32;
            block.pieces = 1 + next(6) as u32;
            block.signals = Signals(
                ((next(1 << 20) as u64) & (next(1 << 20) as u64)) | ((next(1 << 23) as u64) << 24),
            );
            block.nearest = Signals((next(4) as u64) << next(20));
            block.depth = next(40) as u32;
            block.class = next(5) as u32;
            block.kind = kinds[next(kinds.len())];
            blocks.push(block);
        }
        (blocks, text)
    }

    /// The batches hand the scorer each block's features in the order the
    /// one-block definition does, the same values (zeros aside, which add
    /// nothing): the same scores, bit for bit.
    #[test]
    fn batches_give_the_features_of_one_block_at_a_time() {
        /// Each block's features in the order they came, zeros left out.
        struct Record(Vec<Vec<(usize, u32)>>, usize);
        impl Sink for Record {
            fn column(&mut self, at: usize, values: &[f32; BATCH]) {
                for (j, &value) in values.iter().enumerate() {
                    if let Some(features) = self.0.get_mut(self.1 + j) {
                        if value != 0.0 {
                            features.push((at, value.to_bits()));
                        }
                    }
                }
            }
            fn one(&mut self, j: usize, at: usize) {
                self.0[self.1 + j].push((at, 1.0f32.to_bits()));
            }
        }
        for (seed, n) in [(1, 1), (2, 2), (3, 15), (4, 16), (5, 17), (6, 40), (7, 100)] {
            let (blocks, text) = random_page(seed, n);
            let page = Page::of(&blocks, &text);
            let mut record = Record(vec![Vec::new(); n], 0);
            let mut lanes = Lanes::new();
            for first in (0..n).step_by(BATCH) {
                record.1 = first;
                visit(&blocks, &page, first, &mut lanes, &mut record);
            }
            for i in 0..n {
                let mut want = Vec::new();
                visit_one(&blocks, &page, i, &mut |at, value| {
                    if value != 0.0 {
                        want.push((at, value.to_bits()));
                    }
                });
                assert_eq!(record.0[i], want, "block {i} of {n}");
            }
        }
    }

    #[test]
    fn names_match_the_vector() {
        let names = names();
        assert_eq!(names.len(), COUNT);
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), COUNT, "feature names are unique");
        assert!(
            !names.iter().any(|n| n.contains("bit")),
            "every signal named"
        );
        assert_eq!(names[REST_AT], "position");
        assert_eq!(names[ELEMENT_AT], "signal_in_article");
    }

    /// A block's counts leave out the separators after it, one or more
    /// (one is the rule, and has its own path), and the blocks with
    /// characters past ASCII get theirs wherever they are.
    #[test]
    fn blocks_are_counted_apart_from_their_separators() {
        use super::super::blocks::tests::block;
        let text = "One two.\nThree ©\n \nFour, » five\nsix\n";
        let blocks = [block(0..8), block(9..17), block(20..33), block(34..37)];
        let counts = TextCounts::of_blocks(&blocks, text);
        for (b, c) in blocks.iter().zip(&counts) {
            let alone = TextCounts::of(&text[b.start..b.end]);
            assert_eq!(
                (c.chars, c.words, c.breaks, c.stops, c.commas, c.separators),
                (
                    alone.chars,
                    alone.words,
                    alone.breaks,
                    alone.stops,
                    alone.commas,
                    alone.separators
                ),
                "{:?}",
                &text[b.start..b.end]
            );
            assert_eq!(
                (c.copyright, c.ends_sentence, c.capitalized),
                (alone.copyright, alone.ends_sentence, alone.capitalized)
            );
        }
        assert_eq!((counts[1].words, counts[1].copyright), (2, true));
        assert_eq!((counts[2].words, counts[2].separators), (3, 1));
    }

    #[test]
    fn text_is_counted() {
        let c = TextCounts::of("Hello, world. 42 is » the\nanswer ©");
        assert_eq!(
            (c.words, c.breaks, c.digits, c.stops, c.commas),
            (8, 1, 2, 1, 1)
        );
        assert_eq!((c.separators, c.capitalized, c.copyright), (1, 1, true));
        assert_eq!(c.chars, 34);
        assert!(!c.ends_sentence);
        let c = TextCounts::of("今日は、晴れ。");
        assert_eq!((c.stops, c.commas, c.chars, c.words), (1, 1, 7, 1));
        assert!(c.ends_sentence);
        for end in [
            '.', '!', '?', '。', '！', '？', ':', '"', '”', ')', 'a', '»', '、',
        ] {
            let text = format!("a b{end}");
            let want = matches!(
                end,
                '.' | '!' | '?' | '。' | '！' | '？' | ':' | '"' | '”' | ')'
            );
            assert_eq!(ends_sentence(text.as_bytes()), want, "{text}");
        }
    }

    #[test]
    fn log_is_close_to_ln_1p() {
        for x in [0.0f32, 0.5, 1.0, 2.0, 7.0, 100.0, 12345.0, 1e9] {
            assert!(
                (log(x) - x.ln_1p()).abs() < 0.01,
                "{x}: {} {}",
                log(x),
                x.ln_1p()
            );
        }
        assert_eq!(log(0.0), 0.0);
    }
}
