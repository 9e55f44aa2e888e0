//! Instruction counts (callgrind, through iai-callgrind) of the `extract`
//! module against tokenizing alone, per corpus page: the same five
//! benchmarks as `benches/extract.rs` (`tokenize`, `text`, `links`,
//! `metadata`, `all`), each over one whole page, and the two floors
//! extraction stands on: `push` (the push loop it runs on) and `nothing`
//! (an `Extractor` fed every token, nothing wanted). Needs valgrind and
//! the runner (`cargo install iai-callgrind-runner --version 0.16.1`):
//!
//! ```sh
//! cargo bench --bench extract_instructions   # 49 benchmarks, ~1 minute
//! ```
//!
//! BENCHMARKS.md ("Extraction") has the counts and their ratios.

mod common;

use std::hint::black_box;

use htmltok::Options;
use htmltok::bumpalo::Bump;
use iai_callgrind::{LibraryBenchmarkConfig, library_benchmark, library_benchmark_group, main};

/// One `#[library_benchmark]` per mode, one `#[bench]` per corpus page.
macro_rules! per_page {
    ($name:ident, |$input:ident| $body:expr) => {
        #[library_benchmark]
        #[bench::amazon(args = ("amazon.html"), setup = common::corpus_page)]
        #[bench::eloquentjavascript(args = ("eloquentjavascript.html"), setup = common::corpus_page)]
        #[bench::es6(args = ("es6.html"), setup = common::corpus_page)]
        #[bench::google(args = ("google.html"), setup = common::corpus_page)]
        #[bench::msn(args = ("msn.html"), setup = common::corpus_page)]
        #[bench::stackoverflow(args = ("stackoverflow.html"), setup = common::corpus_page)]
        #[bench::wikipedia(args = ("wikipedia.html"), setup = common::corpus_page)]
        fn $name($input: String) -> u64 {
            black_box($body)
        }
    };
}

per_page!(tokenize, |input| {
    common::run_htmltok(&input, &mut Bump::new(), &Options::default()).checksum()
});
per_page!(push, |input| {
    common::run_htmltok_push(&input, &mut Bump::new(), &Options::default()).checksum()
});
per_page!(nothing, |input| common::run_extract(
    &input,
    &mut Bump::new(),
    &common::extract_nothing()
));
per_page!(text, |input| common::run_extract(
    &input,
    &mut Bump::new(),
    &common::extract_mode("text")
));
per_page!(links, |input| common::run_extract(
    &input,
    &mut Bump::new(),
    &common::extract_mode("links")
));
per_page!(metadata, |input| {
    common::run_extract(&input, &mut Bump::new(), &common::extract_mode("metadata"))
});
per_page!(all, |input| common::run_extract(
    &input,
    &mut Bump::new(),
    &common::extract_mode("all")
));

library_benchmark_group!(
    name = extract;
    benchmarks = tokenize, push, nothing, text, links, metadata, all
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_env("HTMLTOK_CORPUS_DIR");
    library_benchmark_groups = extract
);
