//! Wall-clock ratios taken in rounds, so that a host whose speed drifts
//! does not move them: the `extract` modes against tokenizing alone (issue
//! 14), and htmltok's other ways in and html5gum's counting emitter
//! against the iterator (issue 18).
//!
//! Criterion (`benches/extract.rs`, `benches/throughput.rs`) times one
//! benchmark for seconds, then the next: on a virtual machine whose speed
//! moves by up to 1.5× over minutes (this project's), the ratio of two of
//! its medians carries that drift. Here each round times every member of a
//! group once over all the corpus pages, one right after the other, in an
//! order that turns with each round (so that no member always follows
//! another), and a member's ratio is the median over the rounds of its
//! time over the same round's time of the group's first member. The work
//! is the criterion benches', through the same functions of
//! `benches/common`.
//!
//! | group | first member | the others |
//! |---|---|---|
//! | `extract` | `tokenize` (the iterator, default options) | `push` (the push loop extraction runs on), `nothing` (an `Extractor` fed every token, nothing wanted: what hooking one on costs), `text`, `links`, `metadata`, `all` (`common::extract_modes`) |
//! | `tokenize` | `iterator` (default options) | `push`, `errors` (errors on), `bytes` (`Document::from_bytes`), `stream64k` (`StreamTokenizer`, 64 KiB pieces), `bytes_push` and `stream64k_push` (the same two through the push interface), `html5gum_minimal` (its counting emitter) |
//!
//! ```sh
//! cargo bench --bench paired                       # 300 rounds a group, ~2 minutes
//! HTMLTOK_ROUNDS=1000 cargo bench --bench paired -- extract
//! ```
//!
//! An argument (after `--`) picks the groups whose name contains it. For
//! each member it prints the median time of a round, the median ratio to
//! the first member with its quartiles, and MB/s. Run it on a quiet
//! machine: another process on the other core does not slow every member
//! alike, so it moves the ratios themselves, not only their quartiles (a
//! fuzzer running beside it took links from 1.31× to 1.15× for minutes).

mod common;

use std::hint::black_box;
use std::time::Instant;

use htmltok::Options;
use htmltok::bumpalo::Bump;

/// The `q`-quantile (0 to 1) of `values`, which it sorts.
fn quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let at = ((values.len() - 1) as f64 * q).round() as usize;
    values[at]
}

/// A member of a group: its name, and one pass over every page.
type Member<'p> = (&'static str, Box<dyn FnMut() + 'p>);

/// A member's pass: `run` over every page, its checksum kept from the
/// optimizer.
fn over_pages<'p>(
    pages: &'p [(String, String)],
    mut run: impl FnMut(&str) -> u64 + 'p,
) -> Box<dyn FnMut() + 'p> {
    Box::new(move || {
        for (_, page) in pages {
            black_box(run(page));
        }
    })
}

/// Times `members` in `rounds` rounds and prints the table.
fn run_group(group: &str, bytes: usize, rounds: usize, members: &mut [Member<'_>]) {
    let count = members.len();
    let time = |m: usize, members: &mut [Member<'_>]| {
        let start = Instant::now();
        (members[m].1)();
        start.elapsed().as_secs_f64()
    };
    // Warm-up: every member a few times.
    for _ in 0..5 {
        for m in 0..count {
            time(m, members);
        }
    }
    let mut times = vec![Vec::with_capacity(rounds); count];
    for round in 0..rounds {
        for k in 0..count {
            let m = (round + k) % count;
            times[m].push(time(m, members));
        }
    }
    println!("{group}: {bytes} bytes, {rounds} rounds");
    println!(
        "  {:<17} {:>10} {:>9} {:>15} {:>8}",
        "member", "median ms", "ratio", "quartiles", "MB/s"
    );
    for m in 0..count {
        let mut ratios: Vec<f64> = (0..rounds).map(|r| times[m][r] / times[0][r]).collect();
        let median = quantile(&mut times[m].clone(), 0.5);
        let q1 = quantile(&mut ratios, 0.25);
        let q2 = quantile(&mut ratios, 0.5);
        let q3 = quantile(&mut ratios, 0.75);
        println!(
            "  {:<17} {:>10.3} {q2:>8.3}× {:>15} {:>8.1}",
            members[m].0,
            median * 1e3,
            format!("{q1:.3}–{q3:.3}"),
            bytes as f64 / median / 1e6
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; other arguments filter the groups.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let wanted = |group: &str| filters.is_empty() || filters.iter().any(|f| group.contains(f));
    let Some(pages) = common::corpus_pages() else {
        return;
    };
    let rounds: usize = std::env::var("HTMLTOK_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(300);
    let bytes: usize = pages.iter().map(|(_, p)| p.len()).sum();
    let arena = std::cell::RefCell::new(Bump::new());
    let defaults = Options::default();
    let errors = Options::default().errors(true);
    let pages = &pages;
    let iterator = || {
        over_pages(pages, |page| {
            common::run_htmltok(page, &mut arena.borrow_mut(), &defaults).checksum()
        })
    };
    let push = || {
        over_pages(pages, |page| {
            common::run_htmltok_push(page, &mut arena.borrow_mut(), &defaults).checksum()
        })
    };
    let extract = |options: htmltok::extract::ExtractOptions| {
        let arena = &arena;
        over_pages(pages, move |page| {
            common::run_extract(page, &mut arena.borrow_mut(), &options)
        })
    };

    if wanted("extract") {
        let mut members: Vec<Member<'_>> = vec![("tokenize", iterator()), ("push", push())];
        members.push(("nothing", extract(common::extract_nothing())));
        for (id, options) in common::extract_modes() {
            members.push((id, extract(options)));
        }
        run_group("extract", bytes, rounds, &mut members);
    }

    if wanted("tokenize") {
        let mut gum = common::GumBuffers::default();
        let members: &mut [Member<'_>] = &mut [
            ("iterator", iterator()),
            ("push", push()),
            (
                "errors",
                over_pages(pages, |page| {
                    common::run_htmltok(page, &mut arena.borrow_mut(), &errors).checksum()
                }),
            ),
            (
                "bytes",
                over_pages(pages, |page| {
                    common::run_htmltok_bytes(page.as_bytes(), &mut arena.borrow_mut()).checksum()
                }),
            ),
            (
                "stream64k",
                over_pages(pages, |page| {
                    common::run_htmltok_stream(page.as_bytes(), 64 << 10, &mut arena.borrow_mut())
                        .checksum()
                }),
            ),
            (
                "bytes_push",
                over_pages(pages, |page| {
                    common::run_htmltok_bytes_push(page.as_bytes(), &mut arena.borrow_mut())
                        .checksum()
                }),
            ),
            (
                "stream64k_push",
                over_pages(pages, |page| {
                    common::run_htmltok_stream_push(
                        page.as_bytes(),
                        64 << 10,
                        &mut arena.borrow_mut(),
                    )
                    .checksum()
                }),
            ),
            (
                "html5gum_minimal",
                over_pages(pages, move |page| {
                    common::run_html5gum_minimal(page, &mut gum).checksum()
                }),
            ),
        ];
        run_group("tokenize", bytes, rounds, members);
    }
}
