//! The push interface (`Tokenizer::for_each_token`, and the iterator's
//! `for_each` and `fold`, which go through it) against the iterator: the
//! same tokens, errors and memory-limit stop for generated documents under
//! every option that changes the path a token takes, for every corpus page,
//! and when a caller switches from one interface to the other halfway.
//! (The html5lib suite runs through both interfaces in `tests/html5lib.rs`;
//! the `tokenize` fuzz target checks both on arbitrary input.)

use std::ops::ControlFlow;

use generate::Rng;
use htmltok::bumpalo::Bump;
use htmltok::{MemoryLimitError, Options, ParseError, Span, Token, Tokenizer};
use htmltok_test_support::{corpus, generate, input};

/// What one run produced.
#[derive(Debug, PartialEq)]
struct Run<'a> {
    tokens: Vec<Token<'a>>,
    errors: Vec<ParseError>,
    limit: Option<MemoryLimitError>,
}

/// How the tokens are taken.
#[derive(Clone, Copy, Debug)]
enum Take {
    /// `next` to the end.
    Iterator,
    /// `for_each_token` from the start.
    Push,
    /// `next` for the first `n` tokens, then `for_each_token`.
    Mixed(usize),
    /// The iterator's own `for_each` (by value, so errors are not kept).
    ForEach,
}

fn run<'a>(input: &'a str, arena: &'a Bump, opts: &Options, take: Take) -> Run<'a> {
    let mut tok = Tokenizer::with_options(input, arena, opts.clone());
    let mut tokens = Vec::new();
    match take {
        Take::Iterator => tokens.extend(tok.by_ref()),
        Take::Push => tok.for_each_token(|t| tokens.push(t)),
        Take::Mixed(n) => {
            tokens.extend(tok.by_ref().take(n));
            tok.for_each_token(|t| tokens.push(t));
        }
        Take::ForEach => {
            tok.for_each(|t| tokens.push(t));
            return Run {
                tokens,
                errors: Vec::new(),
                limit: None,
            };
        }
    }
    Run {
        tokens,
        errors: tok.take_errors(),
        limit: tok.limit_error().copied(),
    }
}

/// Every way of taking the tokens gives what the iterator gives. Returns
/// whether the memory limit stopped the run.
fn check(input: &str, opts: &Options) -> Result<bool, String> {
    let arena = Bump::new();
    let expected = run(input, &arena, opts, Take::Iterator);
    let n = expected.tokens.len();
    for take in [
        Take::Push,
        Take::Mixed(1),
        Take::Mixed(n / 2),
        Take::Mixed(n.saturating_sub(1)),
    ] {
        let got = run(input, &arena, opts, take);
        if got != expected {
            let i = common_prefix(&expected.tokens, &got.tokens);
            return Err(format!(
                "{take:?} differs for {input:?} with {opts:?}: token {i}: iterator {:?} / \
                 {:?}; errors {:?} / {:?}; limit {:?} / {:?}",
                expected.tokens.get(i),
                got.tokens.get(i),
                expected.errors,
                got.errors,
                expected.limit,
                got.limit
            ));
        }
    }
    let got = run(input, &arena, opts, Take::ForEach);
    if got.tokens != expected.tokens {
        return Err(format!(
            "Iterator::for_each differs for {input:?} with {opts:?}"
        ));
    }
    let count = Tokenizer::with_options(input, &arena, opts.clone()).count();
    if count != n {
        return Err(format!("count() {count} / {n} tokens for {input:?}"));
    }
    Ok(expected.limit.is_some())
}

fn common_prefix<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The options whose paths differ: auto-switching (and scripting) on and
/// off, errors on and off, the initial states, and memory limits small
/// enough to stop a run partway.
fn option_sets(rng: &mut Rng) -> Vec<Options> {
    let state = input::STATES[rng.below(input::STATES.len())];
    vec![
        Options::default(),
        Options::default().errors(true),
        Options::default().scripting(false).errors(true),
        Options::default().auto_switch(false).errors(true),
        Options::default().initial_state(state).errors(true),
        Options::default()
            .errors(rng.below(2) == 0)
            .memory_limit(Some(rng.below(4096))),
    ]
}

#[test]
fn generated_documents_give_the_same_tokens_both_ways() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut failures = Vec::new();
    let mut runs = 0;
    let mut limited = 0;
    for _ in 0..3_000 {
        let bytes = generate::document(&mut rng, 60);
        let input = String::from_utf8_lossy(&bytes);
        for opts in option_sets(&mut rng) {
            runs += 1;
            match check(&input, &opts) {
                Ok(stopped) => limited += usize::from(stopped),
                Err(e) => failures.push(e),
            }
        }
    }
    println!(
        "{} passed, {} failed, 0 skipped",
        runs - failures.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n")
    );
    // The memory-limit stop is exercised, not just allowed for.
    assert!(limited > 100, "only {limited} runs hit the memory limit");
}

#[test]
fn corpus_pages_give_the_same_tokens_both_ways() {
    let Some(paths) = corpus::corpus_page_paths() else {
        return;
    };
    assert!(!paths.is_empty());
    for path in paths {
        let bytes = std::fs::read(&path).expect("corpus page");
        let input = String::from_utf8_lossy(&bytes);
        for opts in [Options::default(), Options::default().errors(true)] {
            if let Err(e) = check(&input, &opts) {
                panic!("{}: {}", path.display(), &e[..e.len().min(2000)]);
            }
        }
    }
}

#[test]
fn fold_threads_the_accumulator_through_every_token() {
    let html = "<p class=a>One<br>two &amp; three<!--c--></p>";
    let arena = Bump::new();
    let bytes = Tokenizer::new(html, &arena).fold(0, |n, t| n + t.span().len());
    assert_eq!(bytes, html.len());
    let names: Vec<&str> = Tokenizer::new(html, &arena)
        .filter_map(|t| match t {
            Token::StartTag(t) => Some(t.name),
            _ => None,
        })
        .fold(Vec::new(), |mut v, name| {
            v.push(name);
            v
        });
    assert_eq!(names, ["p", "br"]);
}

#[test]
fn a_stashed_tag_is_handed_over_first() {
    // After `next` gave the text, the start tag that ended it waits in the
    // tokenizer: the push interface must hand it over before going on.
    let html = "text<b>bold</b>";
    let arena = Bump::new();
    let mut tok = Tokenizer::new(html, &arena);
    assert!(matches!(tok.next(), Some(Token::Text(t)) if t.data == "text"));
    let mut rest = Vec::new();
    tok.for_each_token(|t| rest.push(t));
    assert_eq!(rest.len(), 3, "{rest:?}");
    assert!(
        matches!(&rest[0], Token::StartTag(t) if t.name == "b" && t.span == Span::new(4, 7)),
        "{rest:?}"
    );
    // And a finished tokenizer gives nothing more.
    let mut more = 0;
    tok.for_each_token(|_| more += 1);
    assert_eq!(more, 0);
}

#[test]
fn stopping_at_any_token_leaves_the_rest_to_either_interface() {
    // Stop at the k-th token for every k, then take the rest through
    // the iterator or through another push: the whole is the iterator's.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for _ in 0..300 {
        let bytes = generate::document(&mut rng, 30);
        let input = String::from_utf8_lossy(&bytes);
        let arena = Bump::new();
        for opts in [Options::default(), Options::default().errors(true)] {
            let expected = run(&input, &arena, &opts, Take::Iterator);
            for k in 0..=expected.tokens.len() {
                for rest_by_push in [false, true] {
                    let mut tok = Tokenizer::with_options(&input, &arena, opts.clone());
                    let mut tokens = Vec::new();
                    // The token the closure stops at is its own, as with
                    // `Iterator::try_for_each`.
                    let flow = tok.try_for_each_token(|t| {
                        tokens.push(t);
                        if tokens.len() == k {
                            return ControlFlow::Break(k);
                        }
                        ControlFlow::Continue(())
                    });
                    // It stops after the k-th token if there is one.
                    let stopped = k > 0 && k <= expected.tokens.len();
                    assert_eq!(flow.is_break(), stopped, "k {k} of {input:?}");
                    if rest_by_push {
                        tok.for_each_token(|t| tokens.push(t));
                    } else {
                        tokens.extend(tok.by_ref());
                    }
                    let got = Run {
                        tokens,
                        errors: tok.take_errors(),
                        limit: tok.limit_error().copied(),
                    };
                    assert_eq!(got, expected, "stopped at {k} of {input:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
}

/// A stream's tokens with the source of every span, taken through the
/// iterator (`Feed::source`, `Feed::decoded`) or pushed
/// (`Feed::try_for_each_token_in` and its `Source`): one line per token.
fn stream_with_sources(bytes: &[u8], chunk: usize, push: bool) -> Vec<String> {
    use htmltok::{StreamOptions, StreamTokenizer};
    let mut stream = StreamTokenizer::new(StreamOptions::default().coalesce_text(false));
    let mut lines = Vec::new();
    let mut line = |token: &Token<'_>, source: &dyn Fn(Span) -> Option<String>, decoded: &str| {
        let mut spans = vec![token.span()];
        if let Token::StartTag(tag) | Token::EndTag(tag) = token {
            spans.push(tag.name_span);
            for a in tag.attributes.iter() {
                spans.push(a.name_span);
                spans.extend(a.value_span);
            }
        }
        let sources: Vec<_> = spans.into_iter().map(source).collect();
        lines.push(format!("{token:?} {sources:?} {}", decoded.len()));
    };
    let mut arena = Bump::new();
    for piece in bytes.chunks(chunk) {
        arena.reset();
        let mut feed = stream.feed(piece, &arena).expect("no limit");
        if push {
            let flow = feed.try_for_each_token_in(|token, source| {
                line(
                    &token,
                    &|span| source.source(span).map(str::to_owned),
                    source.decoded(),
                );
                ControlFlow::<()>::Continue(())
            });
            assert_eq!(flow, ControlFlow::Continue(()));
        } else {
            while let Some(token) = feed.next() {
                line(
                    &token,
                    &|span| feed.source(span).map(str::to_owned),
                    feed.decoded(),
                );
            }
        }
    }
    arena.reset();
    let mut finish = stream.finish(&arena).expect("not finished");
    while let Some(token) = finish.next() {
        line(
            &token,
            &|span| finish.source(span).map(str::to_owned),
            finish.decoded(),
        );
    }
    lines
}

#[test]
fn a_pushed_stream_gives_each_token_with_the_source_the_iterator_gives() {
    let Some(paths) = corpus::corpus_page_paths() else {
        return;
    };
    let mut checked = 0;
    for path in paths {
        let bytes = std::fs::read(&path).expect("corpus page");
        // Small pieces on a part of the page (every boundary case), the
        // whole page in pieces a real reader uses.
        for (bytes, chunk) in [(&bytes[..bytes.len().min(20_000)], 7), (&bytes[..], 4096)] {
            let iterated = stream_with_sources(bytes, chunk, false);
            let pushed = stream_with_sources(bytes, chunk, true);
            let same = common_prefix(&iterated, &pushed);
            assert!(
                iterated.len() == pushed.len() && same == iterated.len(),
                "{} in {chunk}-byte chunks: token {same} differs:\n{:?}\n{:?}",
                path.display(),
                iterated.get(same),
                pushed.get(same)
            );
            // Most spans of a token lie in the buffer it came from.
            assert!(iterated.iter().filter(|l| l.contains("Some(")).count() > iterated.len() / 2);
            checked += iterated.len();
        }
    }
    println!("{checked} tokens with their sources checked");
}
