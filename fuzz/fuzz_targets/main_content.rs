//! Arbitrary bytes (as lossy UTF-8) through main content
//! (`ExtractOptions::main_content`): no panic, no hang, and every run of
//! the main content is a run of the whole text at the same source offsets
//! with the same text, every line a line of it, and the same text with
//! offsets off (`tests/support/main_content.rs`); the same links as all
//! the text gives, marked as in the main content only when it was asked
//! for; and the result says the text is empty exactly when it is.
#![no_main]

use htmltok::extract::{ExtractOptions, MainContent, extract};
use htmltok_test_support::main_content::main_content_is_whole_text_runs;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let html = String::from_utf8_lossy(rest);
    let options = ExtractOptions::default()
        .alt_text(first & 1 == 0)
        .hidden(first & 2 == 0)
        .text_limit(if first & 4 == 0 { usize::MAX } else { 64 });
    if let Err(e) = main_content_is_whole_text_runs(&html, &options) {
        panic!("{e}");
    }
    let found = extract(&html, &options.clone().main_content(true));
    assert_ne!(found.main_content, MainContent::NotAsked);
    assert_eq!(found.main_content == MainContent::Empty, found.text.is_empty());
    // The same links as all text gives (read, as main content reads
    // `noscript`, with scripting off), only marked.
    let all = extract(&html, &options.scripting(false));
    assert!(all.links.iter().all(|l| !l.in_main_content));
    assert_eq!(all.links.len(), found.links.len());
});
