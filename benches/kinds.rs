//! Instructions per token, by kind of token (issue 18's per-kind figures).
//!
//! The corpus benchmarks (`benches/instructions.rs`) say what a real page
//! costs; they cannot say what one start tag costs, because every page
//! mixes kinds. Here each input is one shape repeated [`COPIES`] times, so
//! the count divided by the copies is the cost of one copy of the shape,
//! with the tokenizer's set-up (a few hundred instructions) spread thin:
//!
//! | shape | tokens per copy |
//! |---|---|
//! | `<b>` | a start tag |
//! | `<div class="abc" id="q">` | a start tag with two attributes |
//! | `</b>` | an end tag |
//! | `x<b>` | a text token and a start tag: the text's cost is this less `<b>` |
//! | `<!--c-->` | a comment |
//!
//! Each shape runs through htmltok's iterator, its push interface and the
//! token floor (`benches/common/token_floor.rs`, the same tokens with none
//! of the standard's rules), default options.
//!
//! ```sh
//! cargo bench --bench kinds     # ~20 seconds; valgrind and iai-callgrind-runner as for `instructions`
//! ```

mod common;

use std::hint::black_box;

use ::htmltok::Options;
use ::htmltok::bumpalo::Bump;
use iai_callgrind::{LibraryBenchmarkConfig, library_benchmark, library_benchmark_group, main};

/// How many times each shape is repeated.
const COPIES: usize = 20_000;

/// The input: `shape` repeated (setup: not counted), after a first letter
/// of text, as on a real page: until the first text or element of the
/// body, a `<frameset>` could still replace it, which auto-switching
/// watches for at every start tag.
fn repeat(shape: &str) -> String {
    format!("x{}", shape.repeat(COPIES))
}

/// One `#[library_benchmark]` per implementation, with one `#[bench]` per
/// shape.
macro_rules! per_shape {
    ($name:ident, |$input:ident| $body:expr) => {
        #[library_benchmark]
        #[bench::start_tag(args = ("<b>"), setup = repeat)]
        #[bench::start_tag_attributes(args = ("<div class=\"abc\" id=\"q\">"), setup = repeat)]
        #[bench::end_tag(args = ("</b>"), setup = repeat)]
        #[bench::text_start_tag(args = ("x<b>"), setup = repeat)]
        #[bench::comment(args = ("<!--c-->"), setup = repeat)]
        fn $name($input: String) -> u64 {
            black_box($body.checksum())
        }
    };
}

per_shape!(htmltok, |input| {
    let mut arena = Bump::new();
    common::run_htmltok(&input, &mut arena, &Options::default())
});

per_shape!(htmltok_push, |input| {
    let mut arena = Bump::new();
    common::run_htmltok_push(&input, &mut arena, &Options::default())
});

per_shape!(token_floor, |input| {
    let mut arena = Bump::new();
    common::run_token_floor(&input, &mut arena)
});

library_benchmark_group!(
    name = kinds;
    benchmarks = htmltok, htmltok_push, token_floor
);

main!(
    config = LibraryBenchmarkConfig::default();
    library_benchmark_groups = kinds
);
