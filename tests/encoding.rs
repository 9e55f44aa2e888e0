//! Bytes in (`harness = false`, needs the `encoding` feature): the
//! html5lib-tests encoding suite, round trips through legacy encodings,
//! invalid UTF-8, zero-copy and the memory cap. Each case of the suite is
//! a trial (libtest-mimic: `cargo test --test encoding NAME` runs those
//! whose name holds NAME), and so is each group of the other checks. Ends
//! with a line `N passed, N failed, N skipped` (checks) and exits 1 on any
//! failure.
//!
//! **The encoding suite.** Every case of `encoding/*.dat` and
//! `encoding/scripted/*.dat` gives bytes (`#data`) and the encoding a browser
//! ends up with (`#encoding`). Each is run through
//! [`Document::from_bytes_resolved`] with default options: BOM, `<meta>`
//! prescan of the first 1024 bytes, default windows-1252, then the
//! tokenizer's `<meta>` ([changing the encoding while parsing](https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing)) for declarations
//! the prescan did not see, such as those after a 2 KiB comment. Labels are
//! compared in lowercase (the suite writes both `Windows-1252` and
//! `windows-1252`) and as encodings. As in html5lib's own runner, the
//! newline that ends each section is not part of it.
//!
//! The one case of `scripted/tests1.dat` is skipped: its `<meta>` is built
//! by `document.write('<meta charset="ISO-8859-' + '2">')`, so only a
//! parser that runs scripts can find it (the prescan sees the label
//! `iso-8859-' + '2`, which names nothing). It is still run, and what it
//! gives is printed.
//!
//! Environment: `HTML5LIB_TESTS_DIR` (the html5lib-tests checkout, holding
//! `encoding/`; by default `tests/html5lib-tests`, then
//! `../shared/html5lib-tests`), `HTMLTOK_CORPUS_DIR` (pages for round trips;
//! by default `../shared/corpus`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use htmltok::bumpalo::Bump;
use htmltok::encoding_rs::{self, Encoding};
use htmltok::{
    Confidence, DecodeError, DecodeOptions, Document, EncodingSource, Token, Tokenizer,
    canonical_label,
};
use htmltok_test_support::harness::{self, Checks, Trial};
use htmltok_test_support::html5lib;

/// The checks here, named in their messages.
trait Report {
    fn check_named(&mut self, name: &str, result: Result<(), String>);
    fn skip_named(&mut self, name: &str, why: &str);
}

impl Report for Checks {
    fn check_named(&mut self, name: &str, result: Result<(), String>) {
        self.check(result.map_err(|why| format!("{name}: {why}")));
    }

    fn skip_named(&mut self, name: &str, why: &str) {
        self.note(format!("skip {name}: {why}"));
        self.skip(format!("{name}: {why}"));
    }
}

/// What decided each case's encoding, for the suite's summary.
static SOURCES: Mutex<Vec<EncodingSource>> = Mutex::new(Vec::new());
/// The suite's cases run (not skipped).
static CASES_RUN: AtomicUsize = AtomicUsize::new(0);

fn main() {
    let (mut trials, files) = encoding_suite();
    trials.extend([
        harness::case("round trips", round_trips),
        harness::case("invalid UTF-8", invalid_utf8),
        harness::case("zero-copy UTF-8", zero_copy),
        harness::case("memory cap", memory_cap),
    ]);
    harness::run_then(trials, || {
        let sources = SOURCES.lock().unwrap_or_else(|e| e.into_inner());
        let cases = CASES_RUN.load(Ordering::Relaxed);
        if cases == 0 {
            return;
        }
        let mut by_source = String::new();
        for source in ["bom", "prescan", "meta", "default"] {
            let n = sources.iter().filter(|s| s.as_str() == source).count();
            let _ = write!(by_source, " {source} {n},");
        }
        println!(
            "encoding suite: {files} files, {} cases run; decided by{}",
            cases,
            by_source.trim_end_matches(',')
        );
    })
}

// ---------------------------------------------------------------------------
// The html5lib-tests encoding suite
// ---------------------------------------------------------------------------

/// The `encoding/` folder of html5lib-tests, or why there is none.
fn find_encoding_dir() -> Result<PathBuf, String> {
    let dir = html5lib::find_html5lib_tests_dir()?.join("encoding");
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!("no encoding/ folder at {}", dir.display()))
    }
}

/// Cases a tokenizer without a script engine cannot pass, by file (relative
/// to `encoding/`) and index.
fn skip_reason(file: &str, _index: usize) -> Option<&'static str> {
    file.starts_with("scripted/")
        .then_some("the <meta> is written by document.write(); finding it needs a script engine")
}

/// A trial per case of the suite, and how many files it has.
fn encoding_suite() -> (Vec<Trial>, usize) {
    let dir = match find_encoding_dir() {
        Ok(dir) => dir,
        Err(why) => {
            let trial = harness::case("encoding suite", move |report| {
                report.check_named("encoding suite", Err(why));
            });
            return (vec![trial], 0);
        }
    };
    let mut files: Vec<String> = Vec::new();
    for sub in ["", "scripted"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".dat") {
                files.push(if sub.is_empty() {
                    name
                } else {
                    format!("{sub}/{name}")
                });
            }
        }
    }
    files.sort();
    let mut trials = Vec::new();
    for file in &files {
        let bytes = match std::fs::read(dir.join(file)) {
            Ok(bytes) => bytes,
            Err(e) => {
                let file = file.clone();
                trials.push(harness::case(file.clone(), move |report| {
                    report.check_named(&file, Err(e.to_string()));
                }));
                continue;
            }
        };
        for (index, case) in html5lib::parse_encoding_dat(&bytes).into_iter().enumerate() {
            let name = format!("encoding/{file} #{index}");
            let skip = skip_reason(file, index);
            trials.push(harness::case(name.clone(), move |report| {
                let result = run_case(&case);
                if let Some(why) = skip {
                    let got = match &result {
                        Ok((label, _)) => label.to_string(),
                        Err(e) => e.clone(),
                    };
                    report.skip_named(
                        &name,
                        &format!("{why} (expected {}, got {got})", case.encoding),
                    );
                    return;
                }
                CASES_RUN.fetch_add(1, Ordering::Relaxed);
                report.check_named(
                    &name,
                    result.and_then(|(label, source)| {
                        SOURCES
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(source);
                        check_label(label, &case.encoding, &case.data)
                    }),
                );
            }));
        }
    }
    (trials, files.len())
}

fn run_case(case: &html5lib::EncodingCase) -> Result<(&'static str, EncodingSource), String> {
    let doc = Document::from_bytes_resolved(&case.data, &DecodeOptions::default())
        .map_err(|e| e.to_string())?;
    Ok((doc.encoding_label(), doc.source()))
}

fn check_label(got: &str, expected: &str, data: &[u8]) -> Result<(), String> {
    let same_encoding =
        Encoding::for_label(expected.as_bytes()).is_some_and(|e| canonical_label(e) == got);
    if got == expected.to_ascii_lowercase() && same_encoding {
        Ok(())
    } else {
        let shown = String::from_utf8_lossy(&data[..data.len().min(200)]).into_owned();
        Err(format!("expected {expected}, got {got}; data {shown:?}"))
    }
}

// ---------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------

/// A token without its spans, to compare tokenizations of different bytes.
fn describe(token: &Token<'_>) -> String {
    match token {
        Token::Doctype(d) => format!(
            "doctype {:?} {:?} {:?} {}",
            d.name, d.public_id, d.system_id, d.force_quirks
        ),
        Token::StartTag(t) | Token::EndTag(t) => {
            let kind = if matches!(token, Token::StartTag(_)) {
                "start"
            } else {
                "end"
            };
            let attrs: Vec<String> = t
                .attributes
                .iter()
                .map(|a| {
                    format!(
                        "{}={:?}{}",
                        a.name,
                        a.value,
                        if a.duplicate { "(dup)" } else { "" }
                    )
                })
                .collect();
            format!("{kind} {} [{}] {}", t.name, attrs.join(" "), t.self_closing)
        }
        Token::Comment(c) => format!("comment {:?}", c.data),
        Token::Text(t) => format!("text {:?}", t.data),
    }
}

fn tokens_of(text: &str) -> Vec<String> {
    let arena = Bump::new();
    Tokenizer::new(text, &arena).map(|t| describe(&t)).collect()
}

/// A page with `text` in the title, a script string, an attribute, body
/// text, a comment and a textarea, declaring `label` in a `<meta>`.
fn page(label: &str, lang: &str, text: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang={lang}><head><meta charset=\"{label}\"><title>{text}</title>\n\
         <script>var s = \"{text}\"; if (a < b) {{}}</script></head>\n\
         <body><p class=intro title='{text}'>{text} &amp; &eacute; &#x263A;</p><!-- {text} -->\n\
         <img alt=\"{text}\" src=x.png><textarea>{text} &lt;b&gt;</textarea><br/></body></html>\n"
    )
}

/// Legacy encodings with text each can represent.
const LEGACY: &[(&Encoding, &str, &str)] = &[
    (
        encoding_rs::WINDOWS_1252,
        "fr",
        "Ça été très « joli » — naïve façade, 5 € ‘ok’… Straße, Ünïcödé, mañana",
    ),
    (
        encoding_rs::SHIFT_JIS,
        "ja",
        "日本語のテキスト、カタカナ、ひらがな。東京都 ｶﾀｶﾅ",
    ),
    (encoding_rs::EUC_JP, "ja", "日本語のテキストです。大阪"),
    (encoding_rs::GBK, "zh", "中文文本，简体字。北京欢迎你！"),
    (encoding_rs::GB18030, "zh", "中文文本，简体字。北京欢迎你！"),
    (encoding_rs::BIG5, "zh-TW", "繁體中文，臺北歡迎你。"),
    (
        encoding_rs::EUC_KR,
        "ko",
        "한국어 텍스트입니다. 서울에 오신 것을 환영합니다",
    ),
    (encoding_rs::WINDOWS_1251, "ru", "Привет, мир! Ёлка и щи."),
    (encoding_rs::KOI8_R, "ru", "Привет, мир! Ёлка и щи."),
    (encoding_rs::ISO_8859_2, "pl", "Zażółć gęślą jaźń"),
    (encoding_rs::WINDOWS_1253, "el", "Καλημέρα κόσμε"),
    (encoding_rs::WINDOWS_1256, "ar", "مرحبا بالعالم"),
];

/// Every script of [`LEGACY`] together, and some only Unicode has.
fn all_scripts() -> String {
    let mut text: Vec<&str> = LEGACY.iter().map(|(_, _, t)| *t).collect();
    text.push("emoji 😀🎉, math 𝔸, Devanagari नमस्ते, Thai สวัสดี");
    text.join(" / ")
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut bytes = if big_endian {
        vec![0xFE, 0xFF]
    } else {
        vec![0xFF, 0xFE]
    };
    for unit in text.encode_utf16() {
        let pair = if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        };
        bytes.extend_from_slice(&pair);
    }
    bytes
}

/// Decodes `bytes` with `opts` and checks the encoding and that the tokens
/// (and the text) are those of `original`.
fn round_trip(
    bytes: &[u8],
    opts: &DecodeOptions,
    expected: &'static Encoding,
    confidence: Confidence,
    original: &str,
) -> Result<(), String> {
    let doc = Document::from_bytes(bytes, opts).map_err(|e| e.to_string())?;
    if doc.encoding() != expected || doc.confidence() != confidence {
        return Err(format!(
            "sniffed {} {}, expected {} {}",
            doc.encoding_label(),
            doc.confidence(),
            canonical_label(expected),
            confidence
        ));
    }
    if doc.had_errors() {
        return Err("decoding replaced malformed sequences".into());
    }
    let (got, want) = (tokens_of(doc.text()), tokens_of(original));
    if got != want {
        let at = got
            .iter()
            .zip(&want)
            .position(|(a, b)| a != b)
            .unwrap_or(got.len().min(want.len()));
        return Err(format!(
            "tokens differ at #{at}: got {:?}, expected {:?} ({} vs {} tokens)",
            got.get(at),
            want.get(at),
            got.len(),
            want.len()
        ));
    }
    if doc.text() != original {
        return Err("same tokens but different text".into());
    }
    Ok(())
}

fn round_trips(report: &mut Checks) {
    let default = DecodeOptions::default();
    for &(encoding, lang, text) in LEGACY {
        let name = format!("round trip {}", canonical_label(encoding));
        let original = page(canonical_label(encoding), lang, text);
        let (bytes, used, unmappable) = encoding.encode(&original);
        let result = if used != encoding || unmappable {
            Err(format!(
                "test page not representable in {}",
                encoding.name()
            ))
        } else {
            // Sniffed by the prescan from the page's own <meta>.
            round_trip(&bytes, &default, encoding, Confidence::Tentative, &original)
        };
        report.check_named(&name, result);
    }

    let original = page("utf-8", "mul", &all_scripts());
    for (big_endian, expected) in [
        (false, encoding_rs::UTF_16LE),
        (true, encoding_rs::UTF_16BE),
    ] {
        let name = format!("round trip {} with BOM", canonical_label(expected));
        let bytes = utf16(&original, big_endian);
        report.check_named(
            &name,
            round_trip(&bytes, &default, expected, Confidence::Certain, &original),
        );
    }

    // A real page: the first 20 KB of the Wikipedia page of the corpus, in
    // UTF-16 (by its BOM, over the page's own <meta charset=UTF-8>) and in
    // GB18030 (by the user's override), both of which encode all of Unicode.
    let Some(wiki) = corpus_page("wikipedia.html", 20_000) else {
        report.skip_named(
            "round trip wikipedia.html",
            "corpus not found (HTMLTOK_CORPUS_DIR)",
        );
        return;
    };
    for (big_endian, expected) in [
        (false, encoding_rs::UTF_16LE),
        (true, encoding_rs::UTF_16BE),
    ] {
        let name = format!("round trip wikipedia.html {}", canonical_label(expected));
        let bytes = utf16(&wiki, big_endian);
        report.check_named(
            &name,
            round_trip(&bytes, &default, expected, Confidence::Certain, &wiki),
        );
    }
    let (bytes, _, unmappable) = encoding_rs::GB18030.encode(&wiki);
    let opts = DecodeOptions::default().override_encoding(encoding_rs::GB18030);
    report.check_named(
        "round trip wikipedia.html gb18030 (override)",
        if unmappable {
            Err("unmappable".into())
        } else {
            round_trip(
                &bytes,
                &opts,
                encoding_rs::GB18030,
                Confidence::Certain,
                &wiki,
            )
        },
    );
}

/// The first `max` bytes (cut back to a character boundary) of a corpus page.
fn corpus_page(name: &str, max: usize) -> Option<String> {
    let dir = match std::env::var_os("HTMLTOK_CORPUS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("shared")
            .join("corpus"),
    };
    let text = std::fs::read_to_string(dir.join(name)).ok()?;
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Some(text[..end].to_string())
}

// ---------------------------------------------------------------------------
// Invalid UTF-8
// ---------------------------------------------------------------------------

/// Ill-formed UTF-8 and the U+FFFDs the Encoding Standard's decoder gives
/// (one per maximal subpart), worked out by hand.
const INVALID_UTF8: &[(&str, &[u8], &str)] = &[
    ("overlong NUL, 2 bytes", b"\xC0\x80", "\u{FFFD}\u{FFFD}"),
    (
        "overlong NUL, 3 bytes",
        b"\xE0\x80\x80",
        "\u{FFFD}\u{FFFD}\u{FFFD}",
    ),
    (
        "overlong '/', 4 bytes",
        b"\xF0\x80\x80\xAF",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
    ),
    (
        "surrogate U+D800",
        b"\xED\xA0\x80",
        "\u{FFFD}\u{FFFD}\u{FFFD}",
    ),
    (
        "surrogate U+DFFF",
        b"\xED\xBF\xBF",
        "\u{FFFD}\u{FFFD}\u{FFFD}",
    ),
    (
        "surrogate pair",
        b"\xED\xA0\xBD\xED\xB8\x80",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
    ),
    (
        "above U+10FFFF",
        b"\xF4\x90\x80\x80",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
    ),
    ("truncated 3-byte at end", b"\xE2\x82", "\u{FFFD}"),
    ("truncated 3-byte then ASCII", b"\xE2\x82A", "\u{FFFD}A"),
    ("truncated 4-byte then ASCII", b"\xF0\x9F\x98A", "\u{FFFD}A"),
    ("truncated 4-byte at end", b"\xF0\x9F\x98", "\u{FFFD}"),
    (
        "truncated then valid",
        b"\xF0\x9F\xE2\x82\xAC",
        "\u{FFFD}\u{20AC}",
    ),
    ("lone continuation 0x80", b"\x80", "\u{FFFD}"),
    (
        "lone continuation 0xBF twice",
        b"\xBF\xBF",
        "\u{FFFD}\u{FFFD}",
    ),
    ("byte 0xFE", b"\xFE", "\u{FFFD}"),
    ("byte 0xFF", b"\xFF", "\u{FFFD}"),
    (
        "5-byte form",
        b"\xF8\x88\x80\x80\x80",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
    ),
    ("in the middle", b"a\xC3b\xC3\xA9", "a\u{FFFD}b\u{E9}"),
];

fn invalid_utf8(report: &mut Checks) {
    for &(what, bytes, expected) in INVALID_UTF8 {
        // As a text token after a <meta charset=utf-8> the prescan finds.
        let mut input = b"<meta charset=utf-8><p>".to_vec();
        input.extend_from_slice(bytes);
        let result = (|| {
            let doc = Document::from_bytes(&input, &DecodeOptions::default())
                .map_err(|e| e.to_string())?;
            if doc.encoding() != encoding_rs::UTF_8 || !doc.had_errors() || doc.is_borrowed() {
                return Err(format!(
                    "{} errors={} borrowed={}",
                    doc.encoding_label(),
                    doc.had_errors(),
                    doc.is_borrowed()
                ));
            }
            let arena = Bump::new();
            let text: Vec<String> = doc
                .tokenizer(&arena)
                .filter_map(|t| match t {
                    Token::Text(t) => Some(t.data.to_string()),
                    _ => None,
                })
                .collect();
            if text != [expected] {
                return Err(format!("got {text:?}, expected {expected:?}"));
            }
            Ok(())
        })();
        report.check_named(&format!("invalid UTF-8: {what}"), result);
    }
}

// ---------------------------------------------------------------------------
// Zero-copy and the memory cap
// ---------------------------------------------------------------------------

fn zero_copy(report: &mut Checks) {
    let original = corpus_page("wikipedia.html", usize::MAX)
        .unwrap_or_else(|| page("utf-8", "mul", &all_scripts()));
    let bytes = original.as_bytes();
    let result = (|| {
        // By the page's own <meta charset=UTF-8> (or the test page's).
        let doc =
            Document::from_bytes(bytes, &DecodeOptions::default()).map_err(|e| e.to_string())?;
        if !doc.is_borrowed() || doc.text().as_ptr() != bytes.as_ptr() {
            return Err(format!("{} page was copied", doc.encoding_label()));
        }
        let arena = Bump::new();
        let (mut inside, mut total) = (0usize, 0usize);
        let mut text_inside = true;
        for token in doc.tokenizer(&arena) {
            let strings: Vec<&str> = match &token {
                Token::StartTag(t) | Token::EndTag(t) => {
                    let mut v = vec![t.name];
                    v.extend(t.attributes.iter().flat_map(|a| [a.name, a.value]));
                    v
                }
                Token::Text(t) => vec![t.data],
                Token::Comment(c) => vec![c.data],
                Token::Doctype(d) => d.name.into_iter().collect(),
            };
            for s in strings.into_iter().filter(|s| !s.is_empty()) {
                total += 1;
                let borrowed = bytes.as_ptr_range().contains(&s.as_ptr());
                inside += usize::from(borrowed);
                // A text token with no reference, CR or NUL is its source.
                if let Token::Text(t) = &token {
                    if &original[t.span.range()] == t.data && !borrowed {
                        text_inside = false;
                    }
                }
            }
        }
        if !text_inside || inside * 10 < total * 9 {
            return Err(format!("only {inside} of {total} strings borrow the input"));
        }
        Ok(format!(
            "zero-copy: {inside} of {total} token strings point into the caller's bytes"
        ))
    })();
    let result = result.map(|said| report.note(said));
    report.check_named("zero-copy UTF-8", result);
}

fn memory_cap(report: &mut Checks) {
    let original = page("shift_jis", "ja", LEGACY[1].2);
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(&original);
    let needed = original.len();
    let result = (|| {
        let opts = DecodeOptions::default().memory_limit(Some(needed - 1));
        match Document::from_bytes(&bytes, &opts) {
            Err(err @ DecodeError::MemoryLimit(e))
                if e.limit == needed - 1 && e.needed == needed =>
            {
                let message = err.to_string();
                let says = format!(
                    "memory limit of {} bytes exceeded: {needed} bytes needed",
                    needed - 1
                );
                if !message.contains("shift_jis") || !message.contains(&says) {
                    return Err(format!("message {message:?}"));
                }
            }
            other => return Err(format!("expected MemoryLimit, got {other:?}")),
        }
        let doc =
            Document::from_bytes(&bytes, &DecodeOptions::default().memory_limit(Some(needed)))
                .map_err(|e| e.to_string())?;
        if doc.text() != original {
            return Err("decoded text differs".into());
        }
        Ok(())
    })();
    report.check_named("memory cap", result);
}
