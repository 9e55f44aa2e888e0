//! Arbitrary bytes (as lossy UTF-8) through the `extract` module with every
//! option on: no panic, no hang, every text run inside the text and its
//! source span inside the input, and a stream (at a chunk size taken from
//! the first byte) gives what the whole input gives
//! (`tests/support/extract_stream.rs`); without offsets (the text gathered
//! and collapsed in bulk), the same again; and the text, the links and the
//! metadata each alone are those of everything at once.
#![no_main]

use htmltok::extract::{ExtractOptions, extract};
use htmltok::url::Url;
use htmltok_test_support::extract_stream;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let html = String::from_utf8_lossy(rest);
    let options = ExtractOptions::default()
        .offsets(true)
        .alt_text(first & 1 == 0)
        .hidden(first & 2 == 0)
        .text_limit(if first & 4 == 0 { usize::MAX } else { 64 })
        .url(Url::parse("https://example.com/a/b.html").ok());
    let whole = extract(&html, &options);
    for run in &whole.runs {
        assert!(whole.text.get(run.text.clone()).is_some());
        assert!(run.source.end <= html.len());
    }
    let size = 1 + usize::from(first >> 3);
    let mut streamed = extract_stream::streamed(&html, &options, size);
    // A stream splits text runs at chunk ends only in the runs list.
    streamed.runs = whole.runs.clone();
    assert_eq!(streamed, whole);
    // Without offsets the text is gathered and collapsed in bulk: the same
    // text, cut and all, whole and streamed.
    let gathered_options = options.clone().offsets(false);
    let mut gathered = extract(&html, &gathered_options);
    assert!(gathered.runs.is_empty());
    gathered.runs = whole.runs.clone();
    assert_eq!(gathered, whole);
    let mut gathered_streamed = extract_stream::streamed(&html, &gathered_options, size);
    gathered_streamed.runs = whole.runs.clone();
    assert_eq!(gathered_streamed, whole);
    // Each part alone takes its own way through the token dispatch (the
    // text alone most of all): the same part as everything at once.
    let text_alone = extract(&html, &gathered_options.clone().links(false).metadata(false));
    assert_eq!(text_alone.text, whole.text);
    let links_alone = extract(&html, &options.clone().text(false).metadata(false));
    assert_eq!(links_alone.links, whole.links);
    let metadata_alone = extract(&html, &options.clone().text(false).links(false));
    assert_eq!(metadata_alone.metadata, whole.metadata);
});
