//! Steady state makes no heap allocation per token: with an arena reset and
//! reused across documents, tokenizing a page allocates a small constant
//! number of times, whatever its size or token count.
//!
//! Measured with a counting global allocator, so this file is its own test
//! binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use htmltok::bumpalo::Bump;
use htmltok::{Options, Token, Tokenizer};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only
// counts allocations.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations made while tokenizing `input` once, and its token count.
fn allocations(input: &str, arena: &mut Bump, opts: &Options) -> (usize, usize) {
    arena.reset();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut tokens = 0;
    let mut tok = Tokenizer::with_options(input, arena, opts.clone());
    for t in tok.by_ref() {
        tokens += 1;
        std::hint::black_box(matches!(t, Token::Text(_)));
    }
    drop(tok);
    (ALLOCATIONS.load(Ordering::Relaxed) - before, tokens)
}

#[test]
fn a_page_allocates_a_constant_number_of_times() {
    let dir = std::env::var_os("HTMLTOK_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "corpus not found at {}",
            dir.display()
        );
        eprintln!("corpus not found at {}: skipped", dir.display());
        return;
    };
    let mut pages: Vec<(String, String)> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect();
    pages.sort();
    let mut arena = Bump::new();
    // Let the arena grow to the largest page once; from then on it is reused.
    for (_, page) in &pages {
        allocations(page, &mut arena, &Options::default());
    }
    for opts in [Options::default(), Options::default().errors(true)] {
        for (name, page) in &pages {
            let (n, tokens) = allocations(page, &mut arena, &opts);
            println!(
                "{name}: {tokens} tokens, {n} allocations (errors {})",
                opts.errors
            );
            // A few scratch buffers and the error list growing: O(1), not
            // O(tokens). (The error list grows by doubling, so it adds
            // O(log errors).)
            assert!(n <= 40, "{name}: {n} allocations for {tokens} tokens");
        }
    }
}
