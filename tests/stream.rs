//! Streaming: any split of the input gives exactly the tokens (and errors)
//! of the whole input.
//!
//! `harness = false`, on libtest-mimic: each case, corpus page and
//! html5lib test is a trial (`cargo test --test stream NAME` runs those
//! whose name holds NAME), each comparison a check, counted in the closing
//! line `N passed, N failed, N skipped`.

use std::path::PathBuf;

use htmltok::bumpalo::Bump;
use htmltok::{
    MemoryLimitError, Options, ParseError, StreamError, StreamOptions, StreamTokenizer, Token,
    Tokenizer,
};
use htmltok_test_support::harness::{self, Checks, Trial};
use htmltok_test_support::{corpus, html5lib};

/// Tokens of the whole input, as owned debug strings (with spans), plus errors.
fn whole(input: &str, opts: &Options, last: Option<&str>) -> (Vec<String>, Vec<ParseError>) {
    let arena = Bump::new();
    let mut tok = Tokenizer::with_options(input, &arena, opts.clone());
    tok.set_last_start_tag(last);
    let tokens = tok.by_ref().map(|t| format!("{t:?}")).collect();
    (tokens, tok.errors().to_vec())
}

/// Tokens of the input fed in the given pieces.
fn streamed<'c>(
    pieces: impl IntoIterator<Item = &'c [u8]>,
    opts: &Options,
    last: Option<&str>,
) -> (Vec<String>, Vec<ParseError>) {
    let mut stream = StreamTokenizer::new(StreamOptions::default().tokenizer(opts.clone()));
    stream.set_last_start_tag(last);
    let mut arena = Bump::new();
    let mut tokens = Vec::new();
    for piece in pieces {
        tokens.extend(
            stream
                .feed(piece, &arena)
                .unwrap()
                .map(|t| format!("{t:?}")),
        );
        arena.reset();
    }
    tokens.extend(stream.finish(&arena).unwrap().map(|t| format!("{t:?}")));
    (tokens, stream.errors().to_vec())
}

/// Tokens (as debug strings) and errors of one tokenization.
type Output = (Vec<String>, Vec<ParseError>);

/// The comparison every check here makes: what the stream gave against
/// the whole input's (or an expected value written the same way).
trait Same {
    fn same(&mut self, what: &str, want: &Output, got: &Output);
}

impl Same for Checks {
    fn same(&mut self, what: &str, want: &Output, got: &Output) {
        if want == got {
            self.pass();
        } else {
            self.fail(format!(
                "{what}\n  whole:    {:?}\n  streamed: {:?}",
                want, got
            ));
        }
    }
}

fn html5lib_runs() -> Vec<Trial> {
    let dir = match html5lib::find_html5lib_tests_dir() {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("tokenizer"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "test"))
        .filter(|p| !p.ends_with("xmlViolation.test"))
        .collect();
    files.sort();
    let mut trials = Vec::new();
    for file in files {
        for test in html5lib::load_tokenizer_file(&file).unwrap() {
            let name = format!("{} #{} {}", test.file, test.index, test.description);
            trials.push(harness::case(name, move |counts| {
                html5lib_run(counts, &test)
            }));
        }
    }
    trials
}

/// One html5lib test in each of its initial states: every two-piece
/// split, and byte by byte.
fn html5lib_run(counts: &mut Checks, test: &html5lib::TokenizerTest) {
    let Ok(input) = &test.input else {
        counts.skip(format!("{} #{}: not a string", test.file, test.index));
        return;
    };
    for state_name in &test.initial_states {
        let state = html5lib::state_from_html5lib_name(state_name).unwrap();
        let opts = Options::default()
            .auto_switch(false)
            .errors(true)
            .initial_state(state);
        let last = test.last_start_tag.as_deref();
        let want = whole(input, &opts, last);
        let bytes = input.as_bytes();
        let what = |how: &str| {
            format!(
                "{} #{} {state_name} {how}: {input:?}",
                test.file, test.index
            )
        };
        // Every two-piece split.
        for at in 0..=bytes.len() {
            let got = streamed([&bytes[..at], &bytes[at..]], &opts, last);
            counts.same(&what(&format!("split at {at}")), &want, &got);
        }
        // One byte at a time.
        let got = streamed(bytes.chunks(1), &opts, last);
        counts.same(&what("byte by byte"), &want, &got);
    }
}

fn corpus_pages() -> Vec<Trial> {
    let Some(pages) = corpus::corpus_page_paths() else {
        return vec![harness::case("corpus", |counts| {
            counts.skip("corpus not found");
        })];
    };
    let trial = |page: PathBuf| {
        let name = page.file_name().unwrap().to_string_lossy().into_owned();
        harness::case(format!("corpus {name}"), move |counts| {
            corpus_page(counts, &name, &page);
        })
    };
    pages.into_iter().map(trial).collect()
}

fn corpus_page(counts: &mut Checks, name: &str, page: &std::path::Path) {
    let bytes = std::fs::read(page).unwrap();
    let input = String::from_utf8_lossy(&bytes);
    for errors in [false, true] {
        let opts = Options::default().errors(errors);
        let want = whole(&input, &opts, None);
        for size in [1, 7, 64, 4096] {
            let got = streamed(bytes.chunks(size), &opts, None);
            counts.same(
                &format!("{name} errors={errors} chunks of {size}"),
                &want,
                &got,
            );
        }
    }
}

fn special_inputs(counts: &mut Checks) {
    // Byte-level cases: CRLF, UTF-8 cut anywhere, invalid UTF-8.
    let cases: &[&[u8]] = &[
        b"a\r\nb\r\r\nc\rd<p title='x\r\ny'>\r",
        "<p>caf\u{e9} \u{1F600} \u{20AC}</p>".as_bytes(),
        b"a\xffb\xe2\x82c\xed\xa0\x80d\xc0\x80e\xf0\x9f\x98f\x80",
        b"<svg><![CDATA[x]]y]]]>z</svg>&amp&notin;&#x41&#65;&#",
        b"<script><!--<script>x</script>y--></script><!--a--!>-->",
        b"<!DOCTYPE html PUBLIC \"-//W3C//DTD\" 'sys'><title>a&lt;b</title>",
    ];
    for (i, case) in cases.iter().enumerate() {
        let input = String::from_utf8_lossy(case);
        for opts in [Options::default(), Options::default().errors(true)] {
            let want = whole(&input, &opts, None);
            for at in 0..=case.len() {
                for at2 in at..=case.len() {
                    let got = streamed([&case[..at], &case[at..at2], &case[at2..]], &opts, None);
                    counts.same(&format!("case {i} split {at}/{at2}"), &want, &got);
                }
            }
        }
    }
}

fn pieces_mode(counts: &mut Checks) {
    // Without coalescing, text may come in pieces; joined, it is the same.
    let input = "one two three &amp; four <b>five six</b> seven";
    let arena = Bump::new();
    let mut stream = StreamTokenizer::new(StreamOptions::default().coalesce_text(false));
    let mut text = String::new();
    let mut pieces = 0;
    for chunk in input.as_bytes().chunks(5) {
        for t in stream.feed(chunk, &arena).unwrap() {
            if let Token::Text(t) = t {
                text.push_str(t.data);
                pieces += 1;
                assert_eq!(
                    &input[t.span.range()].replace("&amp;", "&"),
                    t.data,
                    "a piece's span is its source"
                );
            }
        }
    }
    for t in stream.finish(&arena).unwrap() {
        if let Token::Text(t) = t {
            text.push_str(t.data);
            pieces += 1;
        }
    }
    let ok = text == "one two three & four five six seven" && pieces > 3;
    counts.same(
        "pieces mode",
        &(vec![], vec![]),
        &(if ok { vec![] } else { vec![text] }, vec![]),
    );
}

fn memory_limit(counts: &mut Checks) {
    // A comment that never ends must be carried whole: over the limit, the
    // stream stops with an error that says where, after yielding what came
    // before.
    let mut input = b"<p>before</p><!--".to_vec();
    input.extend(std::iter::repeat_n(b'x', 10_000));
    let mut stream = StreamTokenizer::new(StreamOptions::default().memory_limit(Some(4096)));
    let arena = Bump::new();
    let mut seen = Vec::new();
    let mut error = None;
    for chunk in input.chunks(1000) {
        match stream.feed(chunk, &arena) {
            Ok(feed) => seen.extend(feed.map(|t| format!("{t:?}"))),
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    let ok = matches!(
        error,
        Some(StreamError::MemoryLimit(MemoryLimitError {
            limit: 4096,
            offset: Some(13),
            ..
        }))
    ) && seen.len() == 3
        && error.as_ref().unwrap().to_string().contains("4096");
    counts.same(
        "memory limit",
        &(vec![], vec![]),
        &(
            if ok {
                vec![]
            } else {
                vec![format!("{error:?} {seen:?}")]
            },
            vec![],
        ),
    );
}

/// Coalesced text waits between chunks until its run ends, so it counts
/// against the memory limit; in pieces mode it is handed out per chunk and
/// nothing is held.
fn memory_limit_on_coalesced_text(counts: &mut Checks) {
    let mut input = b"<p>".to_vec();
    input.extend(std::iter::repeat_n(b'x', 10_000));
    input.extend(b"</p>");
    let run = |coalesce: bool| {
        let opts = StreamOptions::default()
            .memory_limit(Some(4096))
            .coalesce_text(coalesce);
        let mut stream = StreamTokenizer::new(opts);
        let arena = Bump::new();
        let mut texts = 0;
        for chunk in input.chunks(1000) {
            match stream.feed(chunk, &arena) {
                Ok(feed) => texts += feed.filter(|t| matches!(t, Token::Text(_))).count(),
                Err(e) => return (texts, Some(e)),
            }
        }
        match stream.finish(&arena) {
            Ok(feed) => texts += feed.filter(|t| matches!(t, Token::Text(_))).count(),
            Err(e) => return (texts, Some(e)),
        }
        (texts, None)
    };
    let (texts, error) = run(true);
    // The limit is exceeded by the text that starts at offset 3, before any
    // of it is handed out.
    let coalesced_ok = texts == 0
        && matches!(
            error,
            Some(StreamError::MemoryLimit(MemoryLimitError {
                limit: 4096,
                offset: Some(3),
                ..
            }))
        );
    let (pieces, pieces_error) = run(false);
    // One piece per chunk: every chunk holds some of the text.
    let pieces_ok = pieces_error.is_none() && pieces == input.len().div_ceil(1000);
    let problems = [
        (!coalesced_ok).then(|| format!("coalesced: {texts} texts, {error:?}")),
        (!pieces_ok).then(|| format!("pieces: {pieces} texts, {pieces_error:?}")),
    ];
    counts.same(
        "memory limit on coalesced text",
        &(vec![], vec![]),
        &(problems.into_iter().flatten().collect(), vec![]),
    );
}

/// A token longer than a chunk is tokenized again only each time the held
/// part has doubled, not once per chunk: the copies the stream makes (all
/// in the arena, never reset here) stay linear in the token's length, and
/// the tokens are those of the whole input.
fn long_tokens_cost_linear(counts: &mut Checks) {
    const LEN: usize = 2 << 20;
    const CHUNK: usize = 4096;
    let shapes: [(&str, Vec<u8>); 6] = [
        (
            "comment",
            [b"<!--".as_slice(), &vec![b'a'; LEN], b"-->"].concat(),
        ),
        (
            "quoted value full of >",
            [b"<p a=\"".as_slice(), &vec![b'>'; LEN], b"\">"].concat(),
        ),
        (
            "numeric reference digits",
            [b"&#".as_slice(), &vec![b'0'; LEN]].concat(),
        ),
        (
            "tag name",
            [b"<a".as_slice(), &vec![b'b'; LEN], b">"].concat(),
        ),
        (
            "doctype",
            [
                b"<!DOCTYPE a PUBLIC \"".as_slice(),
                &vec![b'p'; LEN],
                b"\">",
            ]
            .concat(),
        ),
        (
            "end tag name in script",
            [b"<script></".as_slice(), &vec![b's'; LEN], b"</script>x"].concat(),
        ),
    ];
    for (name, input) in &shapes {
        let opts = Options::default().errors(true);
        let want = whole(&String::from_utf8_lossy(input), &opts, None);
        let mut stream = StreamTokenizer::new(StreamOptions::default().tokenizer(opts));
        let arena = Bump::new();
        let mut tokens = Vec::new();
        let (mut copied, mut held) = (0, 0);
        for chunk in input.chunks(CHUNK) {
            tokens.extend(
                stream
                    .feed(chunk, &arena)
                    .unwrap()
                    .map(|t| format!("{t:?}")),
            );
            copied = arena.allocated_bytes();
            held = held.max(stream.held_bytes());
            if copied > 8 * input.len() {
                break; // quadratic: no need to go on
            }
        }
        tokens.extend(stream.finish(&arena).unwrap().map(|t| format!("{t:?}")));
        let got = (tokens, stream.errors().to_vec());
        let linear = copied <= 8 * input.len() && held <= 2 * input.len() + 2 * CHUNK;
        let what = format!("long {name}: {copied} bytes copied, {held} held");
        if linear {
            counts.same(&what, &want, &got);
        } else {
            counts.same(&what, &want, &(vec![what.clone()], vec![]));
        }
    }
}

/// A token under the memory limit goes through at every chunk size: the
/// chunks held while a long token waits to be tried again never push what
/// is held past the limit.
fn tokens_under_the_limit_pass_at_every_chunk_size(counts: &mut Checks) {
    let mut input = b"<!--".to_vec();
    input.extend(std::iter::repeat_n(b'c', 700_000));
    input.extend_from_slice(b"-->");
    for i in 0..100_000 {
        input.extend_from_slice(format!("<p id=a{i}>text</p>").as_bytes());
    }
    for chunk in [4096, 65536, 1 << 20] {
        let opts = StreamOptions::default().memory_limit(Some(1_000_000));
        let mut stream = StreamTokenizer::new(opts);
        let mut arena = Bump::new();
        let mut error = None;
        let mut tokens = 0;
        for piece in input.chunks(chunk) {
            match stream.feed(piece, &arena) {
                Ok(feed) => tokens += feed.count(),
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
            arena.reset();
        }
        if error.is_none() {
            tokens += stream.finish(&arena).unwrap().count();
        }
        let what = format!("700 KB comment under a 1 MB limit, chunks of {chunk}");
        let got = format!("{error:?} {tokens}");
        counts.same(
            &what,
            &(vec![format!("None {}", 1 + 300_000)], vec![]),
            &(vec![got], vec![]),
        );
    }
}

/// Bytes in any encoding, sniffed from the first 1024 bytes of the stream:
/// the same tokens as decoding the whole page.
#[cfg(feature = "encoding")]
fn sniffing_streams(counts: &mut Checks) {
    use htmltok::encoding_rs::{Encoding, SHIFT_JIS, UTF_8, UTF_16LE, WINDOWS_1252};
    use htmltok::{DecodeOptions, Document, SniffingStream};

    let body = "<p title='caf\u{e9}'>Caf\u{e9} cr\u{e8}me br\u{fb}l\u{e9}e &amp; more</p>\r\n";
    let japanese = "<p>\u{3053}\u{3093}\u{306b}\u{3061}\u{306f} \u{65e5}\u{672c}\u{8a9e}</p>\n";
    let mut pages: Vec<(&str, Vec<u8>)> = Vec::new();
    let long = |meta: &str, unit: &str| format!("<!DOCTYPE html>{meta}{}", unit.repeat(60));
    let encode = |enc: &'static Encoding, text: &str| enc.encode(text).0.into_owned();
    pages.push((
        "windows-1252 meta",
        encode(WINDOWS_1252, &long("<meta charset=windows-1252>", body)),
    ));
    pages.push((
        "windows-1252 default",
        encode(WINDOWS_1252, &long("", body)),
    ));
    pages.push((
        "shift_jis meta",
        encode(SHIFT_JIS, &long("<meta charset=shift_jis>", japanese)),
    ));
    let mut utf16 = vec![0xFF, 0xFE];
    for u in long("", japanese).encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    pages.push(("utf-16le bom", utf16));
    let mut utf8bom = vec![0xEF, 0xBB, 0xBF];
    utf8bom.extend_from_slice(long("", japanese).as_bytes());
    pages.push(("utf-8 bom", utf8bom));
    pages.push((
        "utf-8 meta",
        long("<meta charset=utf-8>", japanese).into_bytes(),
    ));
    pages.push(("short utf-8", b"<meta charset=utf-8><p>\xc3\xa9".to_vec()));
    let _ = (UTF_8, UTF_16LE);
    let opts = DecodeOptions::default();
    for (name, bytes) in &pages {
        let doc = Document::from_bytes(bytes, &opts).unwrap();
        let arena = Bump::new();
        let want: Vec<String> = doc.tokenizer(&arena).map(|t| format!("{t:?}")).collect();
        for size in [1, 7, 100, 1000, 4096] {
            let mut stream = SniffingStream::new(StreamOptions::default(), opts.clone());
            let arena = Bump::new();
            let mut got = Vec::new();
            let mut fed = 0;
            for chunk in bytes.chunks(size) {
                let before = got.len();
                got.extend(
                    stream
                        .feed(chunk, &arena)
                        .unwrap()
                        .map(|t| format!("{t:?}")),
                );
                fed += chunk.len();
                // Nothing comes out before the prescan window is full.
                if fed < 1024 && got.len() != before {
                    got.push("tokens before 1024 bytes".to_string());
                }
            }
            got.extend(stream.finish(&arena).unwrap().map(|t| format!("{t:?}")));
            let label = stream.encoding().map(|(e, c)| (e.name(), c));
            let same_encoding = label == Some((doc.encoding().name(), doc.confidence()));
            counts.same(
                &format!("sniffing {name} chunks of {size}"),
                &(want.clone(), vec![]),
                &(
                    if same_encoding {
                        got
                    } else {
                        vec![format!("{label:?}")]
                    },
                    vec![],
                ),
            );
        }
    }
}

/// A feed takes the stream's state with it and gives it back when dropped,
/// even half-read; one that is never dropped leaves a stream that answers
/// an error, never one that panics or tokenizes from a wrong place.
fn feeds_dropped_and_forgotten(counts: &mut Checks) {
    let arena = Bump::new();
    let mut stream = StreamTokenizer::new(StreamOptions::default());
    let mut feed = stream.feed(b"<p>one</p><b>two", &arena).unwrap();
    let first = feed.next().map(|t| format!("{t:?}"));
    drop(feed);
    let resumed = stream.resume_offset();
    let after = stream.feed(b"</b>", &arena).map(|f| f.count());
    counts.same(
        "a feed dropped after one token",
        &(vec!["true".to_string(), "0".into(), "Ok(1)".into()], vec![]),
        &(
            vec![
                first.is_some_and(|t| t.contains("StartTag")).to_string(),
                resumed.to_string(),
                format!("{after:?}"),
            ],
            vec![],
        ),
    );
    let mut stream = StreamTokenizer::new(StreamOptions::default());
    std::mem::forget(stream.feed(b"<p>one", &arena).unwrap());
    let answers = [
        format!("{:?}", stream.feed(b"x", &arena).map(|f| f.count())),
        format!("{:?}", stream.finish(&arena).map(|f| f.count())),
        stream.held_bytes().to_string(),
    ];
    counts.same(
        "a forgotten feed",
        &(
            vec![
                "Err(Finished)".to_string(),
                "Err(Finished)".into(),
                "0".into(),
            ],
            vec![],
        ),
        &(answers.to_vec(), vec![]),
    );
}

fn main() {
    let mut trials = vec![harness::case(
        "a feed dropped or forgotten",
        feeds_dropped_and_forgotten,
    )];
    #[cfg(feature = "encoding")]
    trials.push(harness::case("sniffing streams", sniffing_streams));
    trials.extend([
        harness::case("special inputs split everywhere", special_inputs),
        harness::case("pieces mode", pieces_mode),
        harness::case("memory limit", memory_limit),
        harness::case(
            "memory limit on coalesced text",
            memory_limit_on_coalesced_text,
        ),
        harness::case("long tokens cost linear", long_tokens_cost_linear),
        harness::case(
            "tokens under the limit pass at every chunk size",
            tokens_under_the_limit_pass_at_every_chunk_size,
        ),
    ]);
    trials.extend(corpus_pages());
    trials.extend(html5lib_runs());
    harness::run(trials)
}
