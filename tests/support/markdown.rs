//! What the Markdown must keep of a page, checked by `tests/markdown.rs`
//! and the `markdown` fuzz target: rendered to HTML by a CommonMark
//! implementation (pulldown-cmark, with GitHub's tables) and read back as
//! plain text, it has the same words in the same order as the page's plain
//! text.

use htmltok::bumpalo::Bump;
use htmltok::extract::{ExtractOptions, TextFormat, extract};
use htmltok::{Element, Token, Tokenizer};
use pulldown_cmark::{Options, Parser, html};

/// `markdown` rendered to HTML as CommonMark with GitHub's tables.
pub fn render(markdown: &str) -> String {
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(markdown, Options::ENABLE_TABLES));
    out
}

/// The words of a text, split at whitespace.
pub fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// The Markdown of `html` (with `options`, Markdown asked for), and its
/// rendering to HTML; an error when the rendering, read as plain text,
/// has other words than the page's plain text (with `options`).
pub fn markdown_keeps_the_words(
    html: &str,
    options: &ExtractOptions,
    rendered_options: &ExtractOptions,
) -> Result<(String, String), String> {
    let markdown = extract(html, &options.clone().format(TextFormat::Markdown)).text;
    let plain = extract(html, &options.clone().format(TextFormat::Plain)).text;
    let rendered = render(&markdown);
    let back = extract(&rendered, rendered_options).text;
    let (want, got) = (words(&plain), words(&back));
    if want != got {
        let at = want.iter().zip(&got).take_while(|(a, b)| a == b).count();
        let around = |w: &[&str]| w[at.saturating_sub(3)..(at + 4).min(w.len())].join(" ");
        return Err(format!(
            "word {at} of {}/{}: the page says {:?}, the Markdown {:?}",
            want.len(),
            got.len(),
            around(&want),
            around(&got),
        ));
    }
    Ok((markdown, rendered))
}

/// How many of each element an HTML text holds that the Markdown keeps:
/// headings, list items, table cells with text, code blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Elements {
    pub headings: usize,
    pub items: usize,
    pub cells: usize,
    pub code_blocks: usize,
}

/// Counts the [`Elements`] of `html` (tags, as written: for pages without
/// hidden parts).
pub fn elements(html: &str) -> Elements {
    let arena = Bump::new();
    let mut counts = Elements::default();
    let mut cell_open = false;
    for token in Tokenizer::new(html, &arena) {
        match token {
            Token::StartTag(tag) => match tag.element {
                Element::H1
                | Element::H2
                | Element::H3
                | Element::H4
                | Element::H5
                | Element::H6 => counts.headings += 1,
                Element::Li => counts.items += 1,
                Element::Pre => counts.code_blocks += 1,
                Element::Td | Element::Th => cell_open = true,
                _ => {}
            },
            Token::EndTag(tag) if matches!(tag.element, Element::Td | Element::Th) => {
                cell_open = false
            }
            Token::Text(text) if cell_open && !text.data.trim().is_empty() => {
                counts.cells += 1;
                cell_open = false;
            }
            _ => {}
        }
    }
    counts
}
