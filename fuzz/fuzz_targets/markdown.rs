//! Arbitrary bytes (as lossy UTF-8) through Markdown
//! (`ExtractOptions::format(TextFormat::Markdown)`): no panic, no hang, and
//! the Markdown, rendered to HTML by a CommonMark implementation
//! (pulldown-cmark, GitHub's tables) and read back as plain text, has the
//! words of the page's plain text in the same order
//! (`tests/support/markdown.rs`); with main content too, no panic and no
//! leading blank line; and Markdown's cap holds.
#![no_main]

use htmltok::extract::{ExtractOptions, TextFormat, extract};
use htmltok_test_support::markdown::markdown_keeps_the_words;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let html = String::from_utf8_lossy(rest);
    let options = ExtractOptions::default()
        .alt_text(first & 1 == 0)
        .hidden(first & 2 == 0);
    if let Err(e) = markdown_keeps_the_words(&html, &options, &options) {
        panic!("{e}");
    }
    let markdown = options.clone().format(TextFormat::Markdown);
    let main = extract(&html, &markdown.clone().main_content(true));
    assert!(main.text.is_empty() || !main.text.starts_with('\n'));
    let capped = extract(&html, &markdown.text_limit(64));
    assert!(capped.text.len() <= 64);
});
