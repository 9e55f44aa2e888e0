//! Wall-clock cost of the `extract` module against tokenizing alone, in
//! the same run, over the corpus (`../shared/corpus`, or
//! `$HTMLTOK_CORPUS_DIR`).
//!
//! One criterion group, `extract`, whose every benchmark goes over all the
//! corpus pages once (`Throughput::Bytes` of their total size):
//!
//! | id | what |
//! |---|---|
//! | `tokenize` | the tokens only (default options), as `benches/throughput.rs`'s `htmltok` |
//! | `text` | tokens into an [`Extractor`] asking for text only |
//! | `links` | links only (against a page URL, so every link is resolved) |
//! | `metadata` | metadata only |
//! | `all` | text, links and metadata in one pass |
//!
//! ```sh
//! cargo bench --bench extract        # ~1 minute
//! ```
//!
//! The targets (issue 14) are ratios to `tokenize` in the same run;
//! BENCHMARKS.md ("Extraction") quotes the medians and their ratios.

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use htmltok::Options;
use htmltok::bumpalo::Bump;

fn benches(c: &mut Criterion) {
    let Some(pages) = common::corpus_pages() else {
        return;
    };
    let total: usize = pages.iter().map(|(_, p)| p.len()).sum();
    let mut group = c.benchmark_group("extract");
    group.throughput(Throughput::Bytes(total as u64));
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));
    let mut arena = Bump::new();
    group.bench_function("tokenize", |b| {
        b.iter(|| {
            for (_, page) in &pages {
                black_box(common::run_htmltok(page, &mut arena, &Options::default()).checksum());
            }
        })
    });
    for (id, options) in common::extract_modes() {
        group.bench_function(id, |b| {
            b.iter(|| {
                for (_, page) in &pages {
                    black_box(common::run_extract(page, &mut arena, &options));
                }
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = extract;
    config = Criterion::default();
    targets = benches
}
criterion_main!(extract);
