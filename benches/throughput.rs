//! Wall-clock throughput of htmltok against the tokenizers a user would
//! otherwise pick, all measured in the same process run.
//!
//! One criterion group per input, with `Throughput::Bytes(len)`: every page
//! of the corpus (`../shared/corpus/*.html`, or `$HTMLTOK_CORPUS_DIR`) and
//! five deterministic synthetic shapes (`synth-*`). In each group:
//!
//! | id | what |
//! |---|---|
//! | `htmltok` | default options (auto-switch on, errors off), one reused `Bump` |
//! | `htmltok_push` | default options through the push interface (`for_each_token`) |
//! | `htmltok_errors` | `Options::default().errors(true)` |
//! | `htmltok_bytes` | `Document::from_bytes` (sniff, copy-free UTF-8 decode) then the tokens |
//! | `htmltok_stream64k` | `StreamTokenizer` fed 64 KB chunks, arena reset per chunk |
//! | `html5ever` | html5ever's tokenizer, a sink that switches content model like a tree builder |
//! | `html5gum` | html5gum's token iterator, default emitter, `naively_switch_states(true)` |
//! | `html5gum_minimal` | html5gum with a minimal hand-written `Emitter` (reused buffers) |
//! | `lol_html` | lol_html with element, text, comment and doctype handlers on everything |
//! | `token_floor` | reference floor: a naive splitter handing out htmltok's `Token`s with none of the standard's rules |
//! | `lol_html_scan` | reference floor: lol_html with no handlers (scans, builds no tokens) |
//! | `memchr_floor` | reference floor: `memchr_iter(b'<')`, reading the byte after each match |
//!
//! The last three are not peers. `token_floor` shows what handing out these
//! tokens costs before any rule of the standard is applied; the last two
//! build no tokens, so they show what a scan alone costs in the same run.
//!
//! ```sh
//! cargo bench --bench throughput               # everything (~8 minutes)
//! cargo bench --bench throughput -- es6        # one group
//! cargo bench --bench throughput -- /htmltok$  # one implementation
//! HTMLTOK_BENCH_CHECK=1 cargo bench --bench throughput -- --list  # print what each saw
//! ```
//!
//! `tools/bench_chart.py` turns `target/criterion` into the tables and the
//! chart of `BENCHMARKS.md`.

mod common;

use std::hint::black_box;
use std::time::Duration;

use common::{Counts, GumBuffers, StrTendril};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use htmltok::Options;
use htmltok::bumpalo::Bump;

/// The implementations, in the order they run in each group.
const IMPLS: &[&str] = &[
    "htmltok",
    "htmltok_push",
    "htmltok_errors",
    "htmltok_bytes",
    "htmltok_stream64k",
    "html5ever",
    "html5gum",
    "html5gum_minimal",
    "lol_html",
    // Reference floors (not peers); keep them last.
    "token_floor",
    "lol_html_scan",
    "memchr_floor",
];

fn bench_input(c: &mut Criterion, group_name: &str, input: &str) {
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.sampling_mode(SamplingMode::Flat);

    let mut arena = Bump::new();
    let defaults = Options::default();
    let errors = Options::default().errors(true);
    let tendril = StrTendril::from_slice(input);
    let mut gum = GumBuffers::default();

    if std::env::var_os("HTMLTOK_BENCH_CHECK").is_some() {
        check(group_name, input);
    }

    group.bench_function("htmltok", |b| {
        b.iter(|| black_box(common::run_htmltok(black_box(input), &mut arena, &defaults)))
    });
    group.bench_function("htmltok_push", |b| {
        b.iter(|| {
            black_box(common::run_htmltok_push(
                black_box(input),
                &mut arena,
                &defaults,
            ))
        })
    });
    group.bench_function("htmltok_errors", |b| {
        b.iter(|| black_box(common::run_htmltok(black_box(input), &mut arena, &errors)))
    });
    group.bench_function("htmltok_bytes", |b| {
        b.iter(|| {
            black_box(common::run_htmltok_bytes(
                black_box(input.as_bytes()),
                &mut arena,
            ))
        })
    });
    group.bench_function("htmltok_stream64k", |b| {
        b.iter(|| {
            black_box(common::run_htmltok_stream(
                black_box(input.as_bytes()),
                64 << 10,
                &mut arena,
            ))
        })
    });
    group.bench_function("html5ever", |b| {
        b.iter(|| black_box(common::run_html5ever(black_box(&tendril))))
    });
    group.bench_function("html5gum", |b| {
        b.iter(|| black_box(common::run_html5gum(black_box(input))))
    });
    group.bench_function("html5gum_minimal", |b| {
        b.iter(|| black_box(common::run_html5gum_minimal(black_box(input), &mut gum)))
    });
    group.bench_function("lol_html", |b| {
        b.iter(|| black_box(common::run_lol_html(black_box(input))))
    });
    group.bench_function("token_floor", |b| {
        b.iter(|| black_box(common::run_token_floor(black_box(input), &mut arena)))
    });
    group.bench_function("lol_html_scan", |b| {
        b.iter(|| black_box(common::run_lol_html_scan(black_box(input))))
    });
    group.bench_function("memchr_floor", |b| {
        b.iter(|| black_box(common::run_memchr_floor(black_box(input))))
    });
    group.finish();
}

/// Prints what each implementation saw on `input`, to check that they all
/// do comparable work (same tags, same text after the same switches). The
/// reference floors build no tokens, so they are printed apart, with what
/// they tallied instead.
fn check(name: &str, input: &str) {
    let mut arena = Bump::new();
    let mut gum = GumBuffers::default();
    let runs: [(&str, Counts); 10] = [
        (
            IMPLS[0],
            common::run_htmltok(input, &mut arena, &Options::default()),
        ),
        (
            IMPLS[1],
            common::run_htmltok_push(input, &mut arena, &Options::default()),
        ),
        (
            IMPLS[2],
            common::run_htmltok(input, &mut arena, &Options::default().errors(true)),
        ),
        (
            IMPLS[3],
            common::run_htmltok_bytes(input.as_bytes(), &mut arena),
        ),
        (
            IMPLS[4],
            common::run_htmltok_stream(input.as_bytes(), 64 << 10, &mut arena),
        ),
        (
            IMPLS[5],
            common::run_html5ever(&StrTendril::from_slice(input)),
        ),
        (IMPLS[6], common::run_html5gum(input)),
        (IMPLS[7], common::run_html5gum_minimal(input, &mut gum)),
        (IMPLS[8], common::run_lol_html(input)),
        // A floor, but it builds tokens: its counts show what it split.
        (IMPLS[9], common::run_token_floor(input, &mut arena)),
    ];
    let floors = [
        (IMPLS[10], "bytes out", common::run_lol_html_scan(input)),
        (IMPLS[11], "'<' found", common::run_memchr_floor(input)),
    ];
    eprintln!("check {name} ({} bytes):", input.len());
    for (imp, c) in runs {
        eprintln!(
            "  {imp:<17} start {:>7} end {:>7} attrs {:>7} markup_b {:>9} texts {:>7} text_b {:>9} other {:>5} other_b {:>7}",
            c.start_tags,
            c.end_tags,
            c.attrs,
            c.markup_bytes,
            c.texts,
            c.text_bytes,
            c.others,
            c.other_bytes
        );
    }
    for (imp, what, c) in floors {
        eprintln!(
            "  {imp:<17} reference floor, builds no tokens: {what} {:>9}",
            c.floor
        );
    }
}

// ---------------------------------------------------------------------------
// Synthetic inputs, deterministic (a fixed-seed xorshift).

const SYNTH_LEN: usize = 1 << 20;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'s>(&mut self, items: &[&'s str]) -> &'s str {
        items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "to",
    "in",
    "a",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "this",
    "are",
    "or",
    "his",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "had",
    "they",
    "you",
    "were",
    "their",
    "one",
    "all",
    "we",
    "can",
    "her",
    "has",
    "there",
    "been",
    "if",
    "more",
    "when",
    "will",
    "would",
    "who",
    "so",
    "no",
    "tokenizer",
    "document",
    "character",
    "reference",
    "attribute",
    "element",
    "standard",
    "browser",
    "parsing",
    "state",
    "stream",
    "markup",
    "señor",
    "naïve",
    "café",
    "Zürich",
    "東京",
    "données",
];

fn sentence(r: &mut Rng, out: &mut String) {
    let n = 6 + r.below(14);
    for i in 0..n {
        let w = r.pick(WORDS);
        if i == 0 {
            let mut cs = w.chars();
            let first = cs.next().unwrap();
            out.extend(first.to_uppercase());
            out.push_str(cs.as_str());
        } else {
            out.push(' ');
            out.push_str(w);
        }
        if i + 1 < n && r.below(12) == 0 {
            out.push(',');
        }
    }
    out.push_str(match r.below(8) {
        0 => "? ",
        1 => "! ",
        _ => ". ",
    });
}

/// 1 MiB of prose, no markup and no character references.
fn text_only() -> String {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut s = String::with_capacity(SYNTH_LEN + 256);
    while s.len() < SYNTH_LEN {
        for _ in 0..3 + r.below(6) {
            sentence(&mut r, &mut s);
        }
        s.push_str("\n\n");
    }
    s
}

const TAGS: &[&str] = &[
    "div", "span", "a", "p", "li", "ul", "b", "i", "em", "strong", "td", "tr", "table", "section",
    "article", "nav", "header", "footer", "h2", "label", "button", "small", "code",
];
const VOID: &[&str] = &["br", "img", "hr", "input", "meta", "link", "wbr"];

/// Mostly tags: short nested elements with a word or two of text.
fn tag_dense() -> String {
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    let mut s = String::with_capacity(SYNTH_LEN + 256);
    let mut stack: Vec<&str> = Vec::new();
    while s.len() < SYNTH_LEN {
        match r.below(10) {
            0..=3 if stack.len() < 24 => {
                let t = r.pick(TAGS);
                s.push('<');
                s.push_str(t);
                s.push('>');
                stack.push(t);
            }
            4..=6 if !stack.is_empty() => {
                let t = stack.pop().unwrap();
                s.push_str("</");
                s.push_str(t);
                s.push('>');
            }
            7 => {
                s.push('<');
                s.push_str(r.pick(VOID));
                s.push_str(if r.below(2) == 0 { ">" } else { "/>" });
            }
            _ => {
                s.push_str(r.pick(WORDS));
                if r.below(2) == 0 {
                    s.push(' ');
                }
            }
        }
        if r.below(16) == 0 {
            s.push('\n');
        }
    }
    while let Some(t) = stack.pop() {
        s.push_str("</");
        s.push_str(t);
        s.push('>');
    }
    s
}

const ATTRS: &[&str] = &[
    "class",
    "id",
    "href",
    "src",
    "title",
    "alt",
    "style",
    "data-id",
    "data-track",
    "aria-label",
    "role",
    "type",
    "name",
    "value",
    "rel",
    "target",
    "width",
    "height",
    "loading",
    "tabindex",
];

/// Start tags carrying many attributes in every quoting style.
fn attribute_dense() -> String {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let mut s = String::with_capacity(SYNTH_LEN + 512);
    while s.len() < SYNTH_LEN {
        let t = r.pick(TAGS);
        s.push('<');
        s.push_str(t);
        for _ in 0..3 + r.below(8) {
            s.push(' ');
            s.push_str(r.pick(ATTRS));
            let n = r.below(100_000);
            match r.below(6) {
                0 => {} // no value
                1 => s.push_str(&format!("=v{n}")),
                2 => s.push_str(&format!("='{} {n}'", r.pick(WORDS))),
                3 => s.push_str(&format!(
                    "=\"https://example.com/{}/{n}?q={n}\"",
                    r.pick(WORDS)
                )),
                _ => s.push_str(&format!(
                    "=\"{} {}-{n} {}\"",
                    r.pick(WORDS),
                    r.pick(TAGS),
                    r.pick(WORDS)
                )),
            }
        }
        s.push('>');
        s.push_str(r.pick(WORDS));
        s.push_str("</");
        s.push_str(t);
        s.push_str(">\n");
    }
    s
}

const ENTITIES: &[&str] = &[
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&nbsp;",
    "&copy;",
    "&eacute;",
    "&mdash;",
    "&hellip;",
    "&rarr;",
    "&notin;",
    "&frac12;",
    "&#169;",
    "&#8212;",
    "&#x1F600;",
    "&#X41;",
    "&amp",
    "&copy",
    "&NotNestedGreaterGreater;",
    "&CounterClockwiseContourIntegral;",
];

/// Text and attribute values thick with named and numeric references.
fn entity_dense() -> String {
    let mut r = Rng(0xBF58_476D_1CE4_E5B9);
    let mut s = String::with_capacity(SYNTH_LEN + 256);
    while s.len() < SYNTH_LEN {
        s.push_str("<p title=\"");
        s.push_str(r.pick(WORDS));
        s.push_str(r.pick(ENTITIES));
        s.push_str(r.pick(WORDS));
        s.push_str("\">");
        for _ in 0..4 + r.below(12) {
            s.push_str(r.pick(WORDS));
            s.push_str(if r.below(3) == 0 { " " } else { "" });
            s.push_str(r.pick(ENTITIES));
            s.push(' ');
        }
        s.push_str("</p>\n");
    }
    s
}

const JS: &[&str] = &[
    "var x = a < b && c > d;",
    "if (i <= n) { i++; }",
    "document.write('<div class=\"x\">' + html + '</div>');",
    "const s = \"</scr\" + \"ipt>\";",
    "/* <!-- not a comment in JS --> */",
    "for (let i = 0; i < items.length; i++) { total += items[i].price * items[i].qty; }",
    "el.innerHTML = '<span>' + text + '</span>';",
    "function f(a, b) { return a.map(function (x) { return x * b; }); }",
    "window.dataLayer = window.dataLayer || []; dataLayer.push({event: 'load'});",
    "if (a<b) console.log(\"a<b\");",
];

const CSS: &[&str] = &[
    ".nav > li a:hover { color: #06c; text-decoration: underline; }",
    "@media (max-width: 600px) { .col { width: 100%; } }",
    "body { font: 14px/1.4 -apple-system, sans-serif; margin: 0; }",
    "a[href^=\"http\"]::after { content: \"\\2197\"; }",
];

/// Mostly inline `<script>` (and some `<style>`) with markup-like content.
fn script_heavy() -> String {
    let mut r = Rng(0x94D0_49BB_1331_11EB);
    let mut s = String::with_capacity(SYNTH_LEN + 4096);
    s.push_str("<!DOCTYPE html><html><head><title>Script &amp; style</title>\n");
    while s.len() < SYNTH_LEN {
        if r.below(5) == 0 {
            s.push_str("<style>\n");
            for _ in 0..5 + r.below(20) {
                s.push_str(r.pick(CSS));
                s.push('\n');
            }
            s.push_str("</style>\n");
        } else {
            s.push_str(if r.below(2) == 0 {
                "<script>\n"
            } else {
                "<script type=\"text/javascript\">\n"
            });
            for _ in 0..10 + r.below(40) {
                s.push_str(r.pick(JS));
                s.push('\n');
            }
            s.push_str("</script>\n");
        }
        s.push_str("<div class=\"w\"><p>");
        sentence(&mut r, &mut s);
        s.push_str("</p></div>\n");
    }
    s.push_str("</head></html>\n");
    s
}

fn benches(c: &mut Criterion) {
    if let Some(pages) = common::corpus_pages() {
        for (name, page) in &pages {
            bench_input(c, name, page);
        }
    }
    type Make = fn() -> String;
    let synthetic: [(&str, Make); 5] = [
        ("synth-text-only", text_only),
        ("synth-tag-dense", tag_dense),
        ("synth-attribute-dense", attribute_dense),
        ("synth-entity-dense", entity_dense),
        ("synth-script-heavy", script_heavy),
    ];
    for (name, make) in synthetic {
        bench_input(c, name, &make());
    }
}

criterion_group! {
    name = throughput;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    targets = benches
}
criterion_main!(throughput);
