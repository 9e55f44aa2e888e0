//! A 200 MB document streamed in 64 KB chunks under a 1 MB memory cap:
//! it succeeds, and the heap never holds more than a few megabytes.
//!
//! Measured with a counting global allocator, so this file is its own test
//! binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use htmltok::bumpalo::Bump;
use htmltok::{StreamOptions, StreamTokenizer, Token};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only
// counts the bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

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
    let baseline = CURRENT.load(Ordering::Relaxed);
    PEAK.store(baseline, Ordering::Relaxed);
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
    let peak = PEAK.load(Ordering::Relaxed) - baseline;
    println!("fed {fed} bytes, {tags} start tags, peak heap {peak} bytes, max held {max_held}");
    // Every block has four start tags (div, a, script and the text ones).
    assert!(tags >= 3 * (i - 1), "{tags} start tags for {i} blocks");
    assert!(max_held <= 1 << 20);
    // The chunk, the buffers being drained, the arena and the carry: a few
    // megabytes, against 200 MB of input.
    assert!(peak < 8 << 20, "peak heap {peak} bytes");
}
