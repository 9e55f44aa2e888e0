//! Instruction counts (callgrind, through iai-callgrind) of main content
//! (`ExtractOptions::main_content`) against the text alone, per corpus
//! page: `text` and `main_content` as `benches/extract.rs` runs them, each
//! over one whole page. A bench of its own, so that adding it changes no
//! inlining in `extract_instructions`, whose counts are compared across
//! changes. Needs valgrind and the runner (`cargo install
//! iai-callgrind-runner --version 0.16.1`):
//!
//! ```sh
//! cargo bench --bench main_content_instructions   # 14 benchmarks
//! ```
//!
//! BENCHMARKS.md ("Main content") has the counts and their ratios.

mod common;

use std::hint::black_box;

use htmltok::bumpalo::Bump;
use iai_callgrind::{LibraryBenchmarkConfig, library_benchmark, library_benchmark_group, main};

/// Reads one corpus page (setup: not counted).
fn page(file: &str) -> String {
    let path = common::corpus_dir().join(file);
    std::fs::read(&path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_else(|e| {
            eprintln!("note: {}: {e}; benchmarking empty input", path.display());
            String::new()
        })
}

/// The options of the mode named `id`.
fn mode(id: &str) -> htmltok::extract::ExtractOptions {
    common::extract_modes()
        .into_iter()
        .find(|(m, _)| *m == id)
        .expect("a mode")
        .1
}

/// One `#[library_benchmark]` per mode, one `#[bench]` per corpus page.
macro_rules! per_page {
    ($name:ident) => {
        #[library_benchmark]
        #[bench::amazon(args = ("amazon.html"), setup = page)]
        #[bench::eloquentjavascript(args = ("eloquentjavascript.html"), setup = page)]
        #[bench::es6(args = ("es6.html"), setup = page)]
        #[bench::google(args = ("google.html"), setup = page)]
        #[bench::msn(args = ("msn.html"), setup = page)]
        #[bench::stackoverflow(args = ("stackoverflow.html"), setup = page)]
        #[bench::wikipedia(args = ("wikipedia.html"), setup = page)]
        fn $name(input: String) -> u64 {
            black_box(common::run_extract(
                &input,
                &mut Bump::new(),
                &mode(stringify!($name)),
            ))
        }
    };
}

per_page!(text);
per_page!(main_content);

library_benchmark_group!(
    name = modes;
    benchmarks = text, main_content
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_env("HTMLTOK_CORPUS_DIR");
    library_benchmark_groups = modes
);
