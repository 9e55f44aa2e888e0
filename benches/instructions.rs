//! Instruction counts (callgrind, through iai-callgrind) per corpus page for
//! htmltok and the same peers and reference floors as
//! `benches/throughput.rs`. Each page is read in the benchmark's setup,
//! which is not counted; each benchmark runs the tokenizer once over the
//! whole page and consumes every token (of the three reference floors,
//! `token_floor` hands out htmltok's tokens with none of the standard's
//! rules; `lol_html_scan` and `memchr_floor` scan and build no tokens).
//!
//! Needs valgrind and the runner binary of the same version as the
//! `iai-callgrind` dev-dependency:
//!
//! ```sh
//! cargo install iai-callgrind-runner --version 0.16.1
//! cargo bench --bench instructions -- --save-summary=json   # ~1.5 minutes
//! ```
//!
//! iai-callgrind 0.16 filters only by bench file name, so this always runs
//! all 84 benchmarks (7 pages × 12 implementations and options).
//!
//! The pages come from `../shared/corpus` (or `$HTMLTOK_CORPUS_DIR`, passed
//! through to the benchmark). A missing page is benchmarked as empty input,
//! with a note. `tools/bench_chart.py --iai` reads the counts back from
//! `target/iai` for `BENCHMARKS.md`.

mod common;

use std::hint::black_box;

use ::htmltok::Options;
use ::htmltok::bumpalo::Bump;
use common::{GumBuffers, StrTendril};
use iai_callgrind::{LibraryBenchmarkConfig, library_benchmark, library_benchmark_group, main};

/// Reads one corpus page (setup: not counted).
fn page(file: &str) -> String {
    let path = common::corpus_dir().join(file);
    match std::fs::read(&path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!(
                "note: {}: {e} (set HTMLTOK_CORPUS_DIR); benchmarking empty input",
                path.display()
            );
            String::new()
        }
    }
}

/// Reads one corpus page into a tendril, html5ever's input type (setup).
fn page_tendril(file: &str) -> StrTendril {
    StrTendril::from_slice(&page(file))
}

/// One `#[library_benchmark]` per implementation, with one `#[bench]` per
/// corpus page (the ids are the page stems).
macro_rules! per_page {
    ($name:ident, $setup:ident, |$input:ident : $ty:ty| $body:expr) => {
        #[library_benchmark]
        #[bench::amazon(args = ("amazon.html"), setup = $setup)]
        #[bench::eloquentjavascript(args = ("eloquentjavascript.html"), setup = $setup)]
        #[bench::es6(args = ("es6.html"), setup = $setup)]
        #[bench::google(args = ("google.html"), setup = $setup)]
        #[bench::msn(args = ("msn.html"), setup = $setup)]
        #[bench::stackoverflow(args = ("stackoverflow.html"), setup = $setup)]
        #[bench::wikipedia(args = ("wikipedia.html"), setup = $setup)]
        fn $name($input: $ty) -> u64 {
            black_box($body.checksum())
        }
    };
}

per_page!(htmltok, page, |input: String| {
    let mut arena = Bump::new();
    common::run_htmltok(&input, &mut arena, &Options::default())
});

per_page!(htmltok_push, page, |input: String| {
    let mut arena = Bump::new();
    common::run_htmltok_push(&input, &mut arena, &Options::default())
});

per_page!(htmltok_errors, page, |input: String| {
    let mut arena = Bump::new();
    common::run_htmltok(&input, &mut arena, &Options::default().errors(true))
});

per_page!(htmltok_exact, page, |input: String| {
    let mut arena = Bump::new();
    common::run_htmltok(
        &input,
        &mut arena,
        &Options::default().exact_switching(true),
    )
});

per_page!(htmltok_bytes, page, |input: String| {
    let mut arena = Bump::new();
    common::run_htmltok_bytes(input.as_bytes(), &mut arena)
});

per_page!(htmltok_stream64k, page, |input: String| {
    let mut arena = Bump::new();
    common::run_htmltok_stream(input.as_bytes(), 64 << 10, &mut arena)
});

per_page!(html5ever, page_tendril, |input: StrTendril| {
    common::run_html5ever(&input)
});

per_page!(html5gum, page, |input: String| common::run_html5gum(&input));

per_page!(html5gum_minimal, page, |input: String| {
    common::run_html5gum_minimal(&input, &mut GumBuffers::default())
});

per_page!(lol_html, page, |input: String| common::run_lol_html(&input));

per_page!(token_floor, page, |input: String| {
    let mut arena = Bump::new();
    common::run_token_floor(&input, &mut arena)
});

per_page!(lol_html_scan, page, |input: String| {
    common::run_lol_html_scan(&input)
});

per_page!(memchr_floor, page, |input: String| {
    common::run_memchr_floor(&input)
});

library_benchmark_group!(
    name = corpus;
    benchmarks = htmltok, htmltok_push, htmltok_errors, htmltok_exact, htmltok_bytes, htmltok_stream64k, html5ever, html5gum,
        html5gum_minimal, lol_html, token_floor, lol_html_scan, memchr_floor
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_env("HTMLTOK_CORPUS_DIR");
    library_benchmark_groups = corpus
);
