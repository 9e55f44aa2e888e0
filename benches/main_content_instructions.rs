//! Instruction counts (callgrind, through iai-callgrind) of main content
//! (`ExtractOptions::main_content`) and of Markdown
//! (`ExtractOptions::format(TextFormat::Markdown)`) against the text alone,
//! per corpus page: `text`, `main_content` and `markdown` as
//! `benches/extract.rs` runs them, each over one whole page. A bench of its own, so that adding it changes no
//! inlining in `extract_instructions`, whose counts are compared across
//! changes. Needs valgrind and the runner (`cargo install
//! iai-callgrind-runner --version 0.16.1`):
//!
//! ```sh
//! cargo bench --bench main_content_instructions   # 21 benchmarks
//! ```
//!
//! BENCHMARKS.md ("Main content", "Markdown") has the counts and their
//! ratios.

mod common;

use std::hint::black_box;

use htmltok::bumpalo::Bump;
use iai_callgrind::{LibraryBenchmarkConfig, library_benchmark, library_benchmark_group, main};

/// One `#[library_benchmark]` per mode, one `#[bench]` per corpus page.
macro_rules! per_page {
    ($name:ident) => {
        #[library_benchmark]
        #[bench::amazon(args = ("amazon.html"), setup = common::corpus_page)]
        #[bench::eloquentjavascript(args = ("eloquentjavascript.html"), setup = common::corpus_page)]
        #[bench::es6(args = ("es6.html"), setup = common::corpus_page)]
        #[bench::google(args = ("google.html"), setup = common::corpus_page)]
        #[bench::msn(args = ("msn.html"), setup = common::corpus_page)]
        #[bench::stackoverflow(args = ("stackoverflow.html"), setup = common::corpus_page)]
        #[bench::wikipedia(args = ("wikipedia.html"), setup = common::corpus_page)]
        fn $name(input: String) -> u64 {
            black_box(common::run_extract(
                &input,
                &mut Bump::new(),
                &common::extract_mode(stringify!($name)),
            ))
        }
    };
}

per_page!(text);
per_page!(main_content);
per_page!(markdown);

library_benchmark_group!(
    name = modes;
    benchmarks = text, main_content, markdown
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_env("HTMLTOK_CORPUS_DIR");
    library_benchmark_groups = modes
);
