//! Extraction through a stream against the whole input: used by
//! `tests/extract.rs` and the `extract` fuzz target.
//!
//! The page is fed to a [`StreamTokenizer`] a few bytes at a time, text
//! pieces unjoined, and the [`Extractor`] is drained as a streaming caller
//! drains it (text and links taken after every chunk, links resolved at
//! the end); the result must equal [`extract`] over the whole page.

use htmltok::bumpalo::Bump;
use htmltok::extract::{ExtractOptions, Extracted, Extractor, extract};
use htmltok::{StreamOptions, StreamTokenizer};

/// Extracts `html` whole, and checks a stream at several chunk sizes
/// gives the same.
pub fn extracted(html: &str, options: &ExtractOptions) -> Extracted {
    let whole = extract(html, options);
    for size in [1, 2, 7, 64] {
        assert_eq!(
            streamed(html, options, size),
            whole,
            "chunks of {size}: {html:?}"
        );
    }
    whole
}

/// Extracts `html` fed to a stream `size` bytes at a time, unjoined text
/// pieces and all, taking text and links out as it goes.
pub fn streamed(html: &str, options: &ExtractOptions, size: usize) -> Extracted {
    let mut stream = StreamTokenizer::new(
        StreamOptions::default()
            .coalesce_text(false)
            .tokenizer(options.tokenizer_options()),
    );
    let mut extractor = Extractor::new(options);
    let mut text = String::new();
    let mut links = Vec::new();
    let bytes = html.as_bytes();
    let mut take = |extractor: &mut Extractor| {
        text.push_str(&extractor.take_text());
        links.extend(extractor.take_links_unresolved());
    };
    for chunk in bytes.chunks(size) {
        let arena = Bump::new();
        for token in stream.feed(chunk, &arena).unwrap() {
            extractor.token(&token);
        }
        take(&mut extractor);
    }
    let arena = Bump::new();
    for token in stream.finish(&arena).unwrap() {
        extractor.token(&token);
    }
    take(&mut extractor);
    for link in &mut links {
        extractor.resolve(link);
    }
    let mut found = extractor.finish();
    text.push_str(&found.text);
    found.text = text;
    links.append(&mut found.links);
    // A stream gives a srcset candidate the whole value's span.
    let mut whole_spans = extract(html, options).links.into_iter();
    for link in &mut links {
        if let Some(w) = whole_spans.next()
            && link.span.start <= w.span.start
            && w.span.end <= link.span.end
        {
            link.span = w.span;
        }
    }
    found.links = links;
    found
}
