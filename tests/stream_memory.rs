//! A 200 MB document streamed in 64 KB chunks under a 1 MB memory cap:
//! it succeeds, and the heap never holds more than a few megabytes.
//!
//! Measured with a counting global allocator, so this file is its own test
//! binary.

use htmltok::bumpalo::Bump;
use htmltok::{StreamOptions, StreamTokenizer, Token};
use htmltok_test_support::counting::{self, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Deterministic page content: tags, attributes, entities, scripts,
/// comments, and now and then a long comment (100 KB) that a chunk
/// boundary must carry.
fn block(i: usize, out: &mut Vec<u8>) {
    out.extend_from_slice(
        format!(
            "<div class=\"row r{i}\" data-i={i}><a href=\"/p?i={i}&amp;x=1\">Item {i} &lt; more</a>\
             <script>if (a<b) {{ x = '</scrip' + {i}; }}</script><!-- c{i} --></div>\r\n"
        )
        .as_bytes(),
    );
    if i % 5000 == 0 {
        out.extend_from_slice(b"<!--");
        out.extend(std::iter::repeat_n(b'-', 100_000));
        out.extend_from_slice(b"-->");
    }
}

#[test]
fn two_hundred_megabytes_in_bounded_memory() {
    const TOTAL: usize = 200 << 20;
    const CHUNK: usize = 64 << 10;
    let mut stream = StreamTokenizer::new(StreamOptions::default().memory_limit(Some(1 << 20)));
    let mut arena = Bump::new();
    let mut buf = Vec::with_capacity(CHUNK * 2);
    let (mut fed, mut i, mut tags, mut max_held) = (0usize, 0usize, 0usize, 0usize);
    let baseline = counting::measure_from_now();
    while fed < TOTAL {
        while buf.len() < CHUNK {
            block(i, &mut buf);
            i += 1;
        }
        let chunk: Vec<u8> = buf.drain(..CHUNK).collect();
        for token in stream.feed(&chunk, &arena).expect("under the memory cap") {
            tags += usize::from(matches!(token, Token::StartTag(_)));
        }
        max_held = max_held.max(stream.held_bytes());
        arena.reset();
        fed += chunk.len();
    }
    for token in stream.finish(&arena).unwrap() {
        tags += usize::from(matches!(token, Token::StartTag(_)));
    }
    let peak = counting::peak_since(baseline);
    println!("fed {fed} bytes, {tags} start tags, peak heap {peak} bytes, max held {max_held}");
    // Every block has four start tags (div, a, script and the text ones).
    assert!(tags >= 3 * (i - 1), "{tags} start tags for {i} blocks");
    assert!(max_held <= 1 << 20);
    // The chunk, the buffers being drained, the arena and the carry: a few
    // megabytes, against 200 MB of input.
    assert!(peak < 8 << 20, "peak heap {peak} bytes");
}
