//! What the scoring knows of a block: a fixed vector of numbers, worked
//! out after the last token from the block, the page, and the blocks
//! around it. The model (`model.rs`) is trained on exactly these
//! (`tools/main_content.py` reads them from `examples/blocks.rs`), so the
//! list and its order are the contract between the two: [`NAMES`] names
//! every entry, and the generated model checks it was trained on the same
//! names.

use super::blocks::{Block, BlockKind};
use super::signals::{self, Signals};

/// How many blocks on each side the window features look at.
const WINDOW: usize = 3;

/// What is counted in a block's text, in one pass over it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TextCounts {
    /// Bytes of text.
    pub(crate) bytes: u32,
    /// Characters (bytes that do not continue a UTF-8 sequence).
    pub(crate) chars: u32,
    /// Words: runs of characters between spaces and line breaks.
    pub(crate) words: u32,
    /// Lines (line breaks inside the block, plus one).
    pub(crate) lines: u32,
    /// ASCII digits.
    pub(crate) digits: u32,
    /// Sentence ends: `.`, `!`, `?` and their CJK forms.
    pub(crate) stops: u32,
    /// Commas and their CJK forms.
    pub(crate) commas: u32,
    /// Words that begin with an uppercase ASCII letter.
    pub(crate) capitalized: u32,
    /// Separators of navigation and breadcrumbs: `|`, `/`, `»`, `›`, `·`,
    /// `•`, `>`.
    pub(crate) separators: u32,
    /// Whether it has a `©`.
    pub(crate) copyright: bool,
    /// Whether it ends with a sentence end.
    pub(crate) ends_sentence: bool,
}

impl TextCounts {
    /// Counts `text`.
    pub(crate) fn of(text: &str) -> TextCounts {
        let bytes = text.as_bytes();
        let mut c = TextCounts {
            bytes: u32::try_from(bytes.len()).unwrap_or(u32::MAX),
            lines: 1,
            ..TextCounts::default()
        };
        let mut in_word = false;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b & 0xC0 != 0x80 {
                c.chars += 1;
            }
            match b {
                b' ' | b'\n' => {
                    c.lines += u32::from(b == b'\n');
                    in_word = false;
                    i += 1;
                    continue;
                }
                b'0'..=b'9' => c.digits += 1,
                b'.' | b'!' | b'?' => c.stops += 1,
                b',' | b';' => c.commas += 1,
                b'|' | b'/' | b'>' => c.separators += 1,
                0xC2 => match bytes.get(i + 1) {
                    Some(0xBB) | Some(0xB7) => c.separators += 1, // » ·
                    Some(0xA9) => c.copyright = true,             // ©
                    _ => {}
                },
                0xE2 if bytes.get(i + 1) == Some(&0x80) => {
                    if matches!(bytes.get(i + 2), Some(0xBA) | Some(0xA2)) {
                        c.separators += 1; // › •
                    }
                }
                0xE3 if bytes.get(i + 1) == Some(&0x80) => match bytes.get(i + 2) {
                    Some(0x82) => c.stops += 1,  // 。
                    Some(0x81) => c.commas += 1, // 、
                    _ => {}
                },
                0xEF if bytes.get(i + 1) == Some(&0xBC) => match bytes.get(i + 2) {
                    Some(0x81) | Some(0x9F) => c.stops += 1, // ！ ？
                    Some(0x8C) => c.commas += 1,             // ，
                    _ => {}
                },
                _ => {}
            }
            if !in_word {
                in_word = true;
                c.words += 1;
                c.capitalized += u32::from(b.is_ascii_uppercase());
            }
            i += 1;
        }
        let last = text.trim_end().chars().next_back();
        c.ends_sentence = matches!(
            last,
            Some('.' | '!' | '?' | '。' | '！' | '？' | ':' | '"' | '”' | ')')
        );
        c
    }
}

/// What is known of the whole page, for the features of each block.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Page {
    /// Words of all the blocks.
    pub(crate) words: u32,
    /// Bytes of all the blocks, and of those inside links.
    pub(crate) bytes: u64,
    pub(crate) link_bytes: u64,
    /// The first `<h1>` block, if any.
    pub(crate) first_h1: Option<usize>,
    /// Whether any block is inside `<article>`, `<main>`, or named as the
    /// page's content or body.
    pub(crate) has_article: bool,
    pub(crate) has_main: bool,
    pub(crate) has_named_body: bool,
    /// Words in list items.
    pub(crate) list_words: u32,
}

impl Page {
    /// The page of these blocks.
    pub(crate) fn of(blocks: &[Block], counts: &[TextCounts]) -> Page {
        let mut page = Page::default();
        for (i, (block, c)) in blocks.iter().zip(counts).enumerate() {
            page.words += c.words;
            page.bytes += u64::from(c.bytes);
            page.link_bytes += u64::from(block.link_bytes);
            if page.first_h1.is_none() && block.kind == BlockKind::Heading(1) {
                page.first_h1 = Some(i);
            }
            page.has_article |= block.signals.any(Signals::IN_ARTICLE);
            page.has_main |= block.signals.any(Signals::IN_MAIN);
            page.has_named_body |= block.signals.any(Signals::BODY);
            if block.kind == BlockKind::ListItem {
                page.list_words += c.words;
            }
        }
        page
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
];

/// How many signals there are features for: the page-named ones, and the
/// elements'.
const NAMED_SIGNALS: usize = 20;
const ELEMENT_SIGNALS: usize = 22;

/// How many features a block has.
pub(crate) const COUNT: usize =
    TEXT_NAMES.len() + KIND_NAMES.len() + 2 * NAMED_SIGNALS + ELEMENT_SIGNALS + REST_NAMES.len();

/// The name of every feature, in order (the signals' as `signal_NAME` for
/// the elements above the block, `nearest_NAME` for the innermost element
/// the page named).
pub(crate) fn names() -> Vec<String> {
    let named: Vec<&str> = signals::NAMES
        .iter()
        .filter(|(_, s)| s.any(Signals::NAMED))
        .map(|(n, _)| *n)
        .collect();
    let elements: Vec<&str> = signals::NAMES
        .iter()
        .filter(|(_, s)| !s.any(Signals::NAMED))
        .map(|(n, _)| *n)
        .collect();
    debug_assert_eq!(
        (named.len(), elements.len()),
        (NAMED_SIGNALS, ELEMENT_SIGNALS)
    );
    let mut names: Vec<String> = TEXT_NAMES.iter().map(|s| s.to_string()).collect();
    names.extend(KIND_NAMES.iter().map(|s| s.to_string()));
    names.extend(
        named
            .iter()
            .map(|n| format!("signal_{}", n.to_ascii_lowercase())),
    );
    names.extend(
        named
            .iter()
            .map(|n| format!("nearest_{}", n.to_ascii_lowercase())),
    );
    names.extend(
        elements
            .iter()
            .map(|n| format!("signal_{}", n.to_ascii_lowercase())),
    );
    names.extend(REST_NAMES.iter().map(|s| s.to_string()));
    names
}

/// `ln(1 + x)`.
#[inline]
fn log(x: f32) -> f32 {
    x.ln_1p()
}

/// `a / b`, 0 when `b` is 0.
#[inline]
fn ratio(a: f32, b: f32) -> f32 {
    if b > 0.0 { a / b } else { 0.0 }
}

/// The features of block `i`, written to `out`.
pub(crate) fn of_block(
    blocks: &[Block],
    counts: &[TextCounts],
    page: &Page,
    i: usize,
    out: &mut [f32; COUNT],
) {
    let block = &blocks[i];
    let c = &counts[i];
    let words = c.words as f32;
    let bytes = c.bytes as f32;
    let link_density = |b: &Block, c: &TextCounts| ratio(b.link_bytes as f32, c.bytes as f32);
    let mut at = 0;
    let mut put = |value: f32| {
        out[at] = value;
        at += 1;
    };
    // Text.
    put(log(words));
    put(log(c.chars as f32));
    put(link_density(block, c));
    put(ratio(c.stops as f32, words));
    put(ratio(c.commas as f32, words));
    put(ratio(c.digits as f32, c.chars as f32));
    put((ratio(c.chars as f32, words) / 10.0).min(3.0));
    put(f32::from(u8::from(c.ends_sentence)));
    put(f32::from(u8::from(c.copyright)));
    put(log(c.lines as f32 - 1.0));
    put(ratio(block.pieces as f32, words).min(4.0));
    put(ratio(c.capitalized as f32, words));
    put(ratio(c.separators as f32, words).min(4.0));
    // Kind.
    let kinds = [
        block.kind == BlockKind::Paragraph,
        block.kind.is_heading(),
        block.kind == BlockKind::Heading(1),
        block.kind == BlockKind::ListItem,
        block.kind == BlockKind::TableRow,
        block.kind == BlockKind::Preformatted,
        block.kind == BlockKind::Quote,
        block.kind == BlockKind::Caption,
        block.kind == BlockKind::Other,
    ];
    for k in kinds {
        put(f32::from(u8::from(k)));
    }
    // Signals: named above, named nearest, elements above.
    for bit in 0..NAMED_SIGNALS {
        put(f32::from(u8::from(block.signals.0 >> bit & 1 == 1)));
    }
    for bit in 0..NAMED_SIGNALS {
        put(f32::from(u8::from(block.nearest.0 >> bit & 1 == 1)));
    }
    for bit in 24..24 + ELEMENT_SIGNALS {
        put(f32::from(u8::from(block.signals.0 >> bit & 1 == 1)));
    }
    // Position and page.
    let n = blocks.len() as f32;
    put(ratio(i as f32, n - 1.0));
    put(ratio(
        block.start as f32,
        blocks[blocks.len() - 1].end as f32,
    ));
    put(f32::from(u8::from(page.first_h1.is_some_and(|h| i < h))));
    put(log(block.depth as f32));
    put(log(page.words as f32));
    put(ratio(page.link_bytes as f32, page.bytes as f32));
    put(f32::from(u8::from(page.has_article)));
    put(f32::from(u8::from(page.has_main)));
    put(f32::from(u8::from(page.has_named_body)));
    put(ratio(page.list_words as f32, page.words as f32));
    put(ratio(words, page.words as f32));
    // Neighbours.
    let previous = i.checked_sub(1);
    let next = (i + 1 < blocks.len()).then_some(i + 1);
    for side in [previous, next] {
        match side {
            Some(j) => {
                put(log(counts[j].words as f32));
                put(link_density(&blocks[j], &counts[j]));
                put(f32::from(u8::from(blocks[j].kind.is_heading())));
            }
            None => {
                put(0.0);
                put(0.0);
                put(0.0);
            }
        }
    }
    let window = i.saturating_sub(WINDOW)..(i + WINDOW + 1).min(blocks.len());
    let (mut w_words, mut w_bytes, mut w_links, mut w_stops) = (0f32, 0f32, 0f32, 0f32);
    for j in window {
        w_words += counts[j].words as f32;
        w_bytes += counts[j].bytes as f32;
        w_links += blocks[j].link_bytes as f32;
        w_stops += counts[j].stops as f32;
    }
    put(log(w_words));
    put(ratio(w_links, w_bytes));
    put(ratio(w_stops, w_words));
    put(f32::from(u8::from(
        previous.is_some_and(|j| blocks[j].nearest == block.nearest),
    )));
    put(f32::from(u8::from(
        next.is_some_and(|j| blocks[j].nearest == block.nearest),
    )));
    debug_assert_eq!(at, COUNT);
    let _ = bytes;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_vector() {
        assert_eq!(names().len(), COUNT);
        let mut sorted = names();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), COUNT, "feature names are unique");
    }

    #[test]
    fn text_is_counted() {
        let c = TextCounts::of("Hello, world. 42 is » the\nanswer ©");
        assert_eq!(
            (c.words, c.lines, c.digits, c.stops, c.commas),
            (8, 2, 2, 1, 1)
        );
        assert_eq!((c.separators, c.capitalized, c.copyright), (1, 1, true));
        assert!(!c.ends_sentence);
        assert!(TextCounts::of("今日は。").ends_sentence);
        assert_eq!(TextCounts::of("今日は。").stops, 1);
    }
}
