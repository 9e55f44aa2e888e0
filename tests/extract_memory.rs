//! `ExtractOptions::memory_limit` on a page of 16 MB of text: with main
//! content, Markdown or the plain text, all of which hold the page's text
//! until its end, the extraction stops at the limit, says so, and the heap
//! holds about the limit, not the page's text; without a limit it holds
//! the text.
//!
//! Measured with a counting global allocator, so this file is its own test
//! binary.

use htmltok::MemoryLimitKind;
use htmltok::extract::{ExtractOptions, TextFormat, extract};
use htmltok_test_support::counting::{self, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const LIMIT: usize = 2 << 20;

/// An article of 16 MB: a heading, then paragraphs of prose.
fn huge_article() -> String {
    let paragraph = "<p>The survey of the deep ocean floor, published this spring, found that \
                     the trench is far deeper than the old charts had it, and the authors \
                     argue that the region's currents were misread for decades.</p>\n";
    let mut page = String::from("<html><body><article><h1>The deep ocean floor</h1>\n");
    while page.len() < 16 << 20 {
        page.push_str(paragraph);
    }
    page
}

#[test]
fn a_huge_page_is_extracted_under_the_memory_limit_and_reported() {
    let page = huge_article();
    let text_only = ExtractOptions::default().links(false).metadata(false);
    for (name, options) in [
        ("main content", text_only.clone().main_content(true)),
        (
            "main content, offsets",
            text_only.clone().main_content(true).offsets(true),
        ),
        (
            "main content, Markdown",
            text_only
                .clone()
                .main_content(true)
                .format(TextFormat::Markdown),
        ),
        ("Markdown", text_only.clone().format(TextFormat::Markdown)),
        ("plain text", text_only.clone()),
    ] {
        let baseline = counting::measure_from_now();
        let found = extract(&page, &options.clone().memory_limit(Some(LIMIT)));
        let peak = counting::peak_since(baseline);
        let stopped = found.memory_limit.expect("past the limit");
        assert_eq!(stopped.kind, MemoryLimitKind::Extract, "{name}");
        assert_eq!(stopped.limit, LIMIT, "{name}");
        assert!(stopped.needed > LIMIT, "{name}: {stopped}");
        let offset = stopped.offset.expect("where it stopped");
        // What was read before the limit (a good part of the limit's worth
        // of text) is extracted, as a page that ended there is.
        assert!(offset > LIMIT / 4, "{name}: {stopped}");
        assert!(!found.text.is_empty(), "{name}");
        let prefix = extract(&page[..offset], &options);
        assert_eq!(found.text, prefix.text, "{name}");
        assert_eq!(found.runs, prefix.runs, "{name}");
        assert_eq!(found.main_content, prefix.main_content, "{name}");
        // The heap held the limit's worth (the text, its blocks, the
        // tokenizer's arena under the same limit, the text copied out at
        // the end), not the page's 16 MB of text.
        println!("{name}: stopped at byte {offset}, peak heap {peak} bytes");
        assert!(peak < 4 * LIMIT, "{name}: peak heap {peak} bytes");
    }
    // Without a limit, the whole text is held: what the limit saved.
    let baseline = counting::measure_from_now();
    let found = extract(&page, &text_only.main_content(true));
    let peak = counting::peak_since(baseline);
    println!("main content without a limit: peak heap {peak} bytes");
    assert!(found.memory_limit.is_none() && found.text.len() > 14 << 20);
    assert!(peak > 14 << 20, "peak heap {peak} bytes");
}
