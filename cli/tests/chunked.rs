//! End-to-end tests of `--chunk-size N`: every command fed N bytes at a
//! time through the streaming API prints exactly what it prints for the
//! whole input, on the real pages of the corpus (`../shared/corpus`, or
//! `$HTMLTOK_CORPUS_DIR`) and on pages in other encodings, and `tokens
//! --last-start-tag` with an appropriate end tag cut at every place.

mod helpers;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::thread;

use helpers::*;
use htmltok::encoding_rs::{SHIFT_JIS, WINDOWS_1252};
use serde_json::{Value, json};

/// The chunk sizes every comparison runs: a byte at a time (every boundary
/// everywhere), small odd pieces, and buffer-sized ones.
const SIZES: [&str; 4] = ["1", "7", "64", "4096"];

/// Runs `args` whole and with each `--chunk-size` of [`SIZES`] (in
/// parallel), asserting the runs are clean and print the same bytes.
/// Returns the whole run's output.
#[track_caller]
fn assert_chunks_change_nothing(args: &[&str]) -> Vec<u8> {
    let run = |extra: &[&str]| -> Output {
        Command::new(BIN)
            .args(args)
            .args(extra)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let (whole, chunked) = thread::scope(|scope| {
        let chunked: Vec<_> = SIZES
            .iter()
            .map(|n| scope.spawn(move || run(&["--chunk-size", n])))
            .collect();
        let whole = run(&[]);
        let chunked: Vec<Output> = chunked.into_iter().map(|h| h.join().unwrap()).collect();
        (whole, chunked)
    });
    ok(&whole);
    assert!(!whole.stdout.is_empty(), "{args:?}");
    for (n, out) in SIZES.iter().zip(&chunked) {
        ok(out);
        assert!(
            out.stdout == whole.stdout,
            "{args:?} --chunk-size {n} differs from the whole run at {}",
            first_difference(&out.stdout, &whole.stdout)
        );
    }
    whole.stdout
}

fn page(dir: &Path, name: &str) -> String {
    s(&dir.join(name)).to_owned()
}

#[test]
fn tokens_json_of_every_corpus_page() {
    let Some(dir) = corpus() else { return };
    for page in corpus_pages(&dir) {
        assert_chunks_change_nothing(&["tokens", "--errors", s(&page)]);
    }
}

#[test]
fn tokens_html5lib_of_every_corpus_page() {
    let Some(dir) = corpus() else { return };
    for page in corpus_pages(&dir) {
        assert_chunks_change_nothing(&["tokens", "--format", "html5lib", "--errors", s(&page)]);
    }
    // In the other states too, with a last start tag: through the UTF-8
    // stream (html5lib) in each, and through the sniffing stream (json) in
    // the three that look for an appropriate end tag.
    let google = page(&dir, "google.html");
    for state in [
        "rcdata",
        "rawtext",
        "script-data",
        "plaintext",
        "cdata-section",
    ] {
        let mut formats = vec!["html5lib"];
        if matches!(state, "rcdata" | "rawtext" | "script-data") {
            formats.push("json");
        }
        for format in formats {
            assert_chunks_change_nothing(&[
                "tokens",
                "--format",
                format,
                "--errors",
                "--no-auto-switch",
                "--state",
                state,
                "--last-start-tag",
                "script",
                &google,
            ]);
        }
    }
}

#[test]
fn other_commands_on_corpus_pages() {
    let Some(dir) = corpus() else { return };
    // Amazon has its one parse error; Wikipedia base, canonical, srcset
    // and a long text; Stack Overflow is UTF-8 with its first non-ASCII
    // byte far past the first 1024 (sniffed by UTF-8 detection).
    let pages = ["amazon.html", "stackoverflow.html", "wikipedia.html"].map(|p| page(&dir, p));
    let [amazon, stackoverflow, _] = &pages;
    for page in &pages {
        assert_chunks_change_nothing(&["text", page]);
        assert_chunks_change_nothing(&["text", "--offsets", page]);
        assert_chunks_change_nothing(&["links", "--base-url", "https://example.com/", page]);
        assert_chunks_change_nothing(&["meta", page]);
        assert_chunks_change_nothing(&["errors", "--format", "json", page]);
    }
    let errors = assert_chunks_change_nothing(&["errors", amazon]);
    assert!(String::from_utf8(errors).unwrap().contains(":1189:297: "));
    let text = assert_chunks_change_nothing(&["text", stackoverflow]);
    assert!(!String::from_utf8(text).unwrap().contains('\u{e2}'));
}

#[test]
fn stats_counts_are_the_same_in_chunks() {
    let Some(dir) = corpus() else { return };
    let counts = |out: &Output| -> Vec<Value> {
        ok(out);
        json_lines(out)
            .into_iter()
            .map(|mut line| {
                // The times are the streaming tokenizer's: not compared.
                let fields = match line.get_mut("total") {
                    Some(total) => total,
                    None => &mut line,
                };
                let fields = fields.as_object_mut().unwrap();
                fields.remove("seconds");
                fields.remove("mb_per_s");
                line
            })
            .collect()
    };
    let args = ["stats", "--format", "json", s(&dir)];
    let whole = counts(&htmltok(&args));
    assert_eq!(whole.len(), 8);
    for n in ["1", "4096"] {
        let chunked = counts(&htmltok(&[&args[..], &["--chunk-size", n]].concat()));
        assert_eq!(chunked, whole, "--chunk-size {n}");
    }
}

#[test]
fn pages_in_other_encodings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let japanese = "<meta charset=shift_jis><title>\u{65e5}\u{672c}</title>\
        <p title='\u{6771}\u{4eac}'>\u{3053}\u{3093}\u{306b}\u{3061}\u{306f} &amp; <a href=/\u{5927}>\u{5927}\u{962a}</a>\n";
    // Long enough to be fed in many chunks after the 1024 bytes the
    // sniffing stream holds back.
    let sjis = SHIFT_JIS.encode(&japanese.repeat(40)).0.into_owned();
    let sjis = page_file(d, "sjis.html", &sjis);
    let latin = WINDOWS_1252
        .encode(
            &"<p class=caf\u{e9}>cr\u{e8}me br\u{fb}l\u{e9}e <a href=caf\u{e9}.html a=1 a=2>\n"
                .repeat(60),
        )
        .0
        .into_owned();
    let latin = page_file(d, "latin.html", &latin);
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in japanese.repeat(30).encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    let utf16 = page_file(d, "utf16.html", &utf16);
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(japanese.repeat(30).as_bytes());
    let bom = page_file(d, "bom.html", &bom);
    for page in [&sjis, &latin, &utf16, &bom] {
        assert_chunks_change_nothing(&["tokens", "--errors", page]);
        assert_chunks_change_nothing(&["tokens", "--format", "html5lib", "--errors", page]);
        assert_chunks_change_nothing(&["text", page]);
        assert_chunks_change_nothing(&["links", page]);
        assert_chunks_change_nothing(&["meta", page]);
        assert_chunks_change_nothing(&["errors", page]);
    }
    let text = assert_chunks_change_nothing(&["text", "--encoding", "shift_jis", &sjis]);
    assert!(
        String::from_utf8(text)
            .unwrap()
            .starts_with("\u{3053}\u{3093}")
    );
    let text = assert_chunks_change_nothing(&["text", "--encoding", "latin1", &latin]);
    assert!(String::from_utf8(text).unwrap().starts_with("cr\u{e8}me"));
    // Several inputs, in parallel, still in order.
    assert_chunks_change_nothing(&["meta", "--jobs", "2", &sjis, &latin, &utf16, &bom]);
}

fn page_file(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    s(&path).to_owned()
}

#[test]
fn chunk_size_usage_errors() {
    for args in [
        &["text", "--chunk-size", "0"][..],
        &["tokens", "--chunk-size", "-3"],
        &["stats", "--chunk-size", "many"],
        &["encoding", "--chunk-size", "7 bytes"],
        &["links", "--memory-limit", "1K"],
        &["meta", "--gunzip-limit", "lots"],
    ] {
        usage_error(&htmltok(args));
    }
}

// ---------------------------------------------------------------------------
// tokens --last-start-tag --chunk-size
// ---------------------------------------------------------------------------

/// The chunk sizes of the `--last-start-tag` tests: every boundary, and
/// the end tag cut at each place by pieces of 2, 3 and 7, or whole in one.
const SMALL_SIZES: [&str; 5] = ["1", "2", "3", "7", "64"];

/// Runs `args` over `input` (on stdin) whole and with each `--chunk-size`
/// of [`SMALL_SIZES`], asserting the runs are clean and print the same
/// bytes. Returns the whole run's output.
#[track_caller]
fn assert_small_chunks_change_nothing(args: &[&str], input: &[u8]) -> Output {
    let run = |extra: &[&str]| htmltok_stdin(&[args, extra].concat(), input);
    let whole = run(&[]);
    ok(&whole);
    assert!(!whole.stdout.is_empty(), "{args:?}");
    for n in SMALL_SIZES {
        let out = run(&["--chunk-size", n]);
        ok(&out);
        assert!(
            out.stdout == whole.stdout,
            "{args:?} --chunk-size {n} over {} bytes differs from the whole run at {}",
            input.len(),
            first_difference(&out.stdout, &whole.stdout)
        );
    }
    whole
}

/// Text before an end tag: `bytes` as fed, `utf8` as decoded by sniffing
/// (json) and `raw` as html5lib reads the bytes (UTF-8 as they are).
struct Filler {
    bytes: Vec<u8>,
    utf8: String,
    raw: String,
}

/// The fillers put before each case, whose text before the end tag is
/// `before` bytes long: none (the whole input within the 1024 bytes the
/// sniffing stream holds back), then enough for the end tag to start at
/// byte 1020 (across the 1024th byte) and past it at four successive
/// offsets (so every chunk size cuts it at other places), in ASCII
/// (sniffed as UTF-8) and in windows-1252 (a sniffing stream that decodes
/// chunk by chunk).
fn fillers(before: usize) -> Vec<Filler> {
    let mut fillers = vec![Filler {
        bytes: Vec::new(),
        utf8: String::new(),
        raw: String::new(),
    }];
    for at in [1020, 1100, 1101, 1102, 1103] {
        let ascii = "lorem ipsum ".repeat(100)[..at - before].to_owned();
        fillers.push(Filler {
            bytes: ascii.clone().into_bytes(),
            utf8: ascii.clone(),
            raw: ascii,
        });
    }
    for at in [1020, 1100, 1101] {
        let mut bytes = b"caf\xe9 ".repeat(200);
        bytes.truncate(at - before);
        fillers.push(Filler {
            utf8: WINDOWS_1252.decode(&bytes).0.into_owned(),
            raw: String::from_utf8_lossy(&bytes).into_owned(),
            bytes,
        });
    }
    fillers
}

/// A state whose text ends at an appropriate end tag: `source` (after a
/// filler) is `text`'s source, then `end_tag`, then `c<p>`.
struct EndTagCase {
    state: &'static str,
    last_start_tag: &'static str,
    source: &'static str,
    text: &'static str,
    end_tag: &'static str,
    name: &'static str,
    errors: &'static [&'static str],
}

impl EndTagCase {
    /// The input: `filler`, then the case's source, end tag and `c<p>`.
    fn input(&self, filler: &Filler) -> Vec<u8> {
        [
            &filler.bytes[..],
            self.source.as_bytes(),
            self.end_tag.as_bytes(),
            b"c<p>",
        ]
        .concat()
    }
}

const END_TAG_CASES: [EndTagCase; 3] = [
    EndTagCase {
        state: "rcdata",
        last_start_tag: "title",
        source: "a<b>&amp;</b></titl</titlex>",
        text: "a<b>&</b></titl</titlex>",
        end_tag: "</title>",
        name: "title",
        errors: &[],
    },
    EndTagCase {
        state: "rawtext",
        last_start_tag: "STYLE",
        source: "p{a:b}&amp;</styl</stylex>",
        text: "p{a:b}&amp;</styl</stylex>",
        end_tag: "</Style x=1>",
        name: "style",
        errors: &["end-tag-with-attributes"],
    },
    EndTagCase {
        state: "script-data",
        last_start_tag: "script",
        source: "if (a<b) s = \"</scr\" + \"ipt>\";",
        text: "if (a<b) s = \"</scr\" + \"ipt>\";",
        end_tag: "</script\t>",
        name: "script",
        errors: &[],
    },
];

/// Runs `tokens` with `format_args`, each case's state and last start tag
/// on each case's input behind every filler, checks small chunks change
/// nothing, and hands the output to `check`.
fn for_each_end_tag_case(format_args: &[&str], check: impl Fn(&EndTagCase, &Filler, &Output)) {
    for case in &END_TAG_CASES {
        for filler in fillers(case.source.len()) {
            let input = case.input(&filler);
            let case_args = [
                "--state",
                case.state,
                "--last-start-tag",
                case.last_start_tag,
            ];
            let args = [&["tokens"][..], format_args, &case_args].concat();
            let out = assert_small_chunks_change_nothing(&args, &input);
            check(case, &filler, &out);
        }
    }
}

#[test]
fn last_start_tag_in_chunks_json() {
    for_each_end_tag_case(&["--errors"], |case, filler, out| {
        // The text is one token, the end tag is one: the last start
        // tag made it appropriate, and the data state follows it.
        let lines = json_lines(out);
        let at = filler.utf8.len() + case.source.len();
        let end = at + case.end_tag.len();
        let text = format!("{}{}", filler.utf8, case.text);
        let what = format!("{} {:?}: {lines:#?}", case.state, filler.utf8);
        assert_eq!(lines.len(), 4 + case.errors.len(), "{what}");
        assert_eq!(lines[0]["kind"], "text", "{what}");
        assert_eq!(lines[0]["data"], text.as_str(), "{what}");
        assert_eq!(lines[0]["span"], json!([0, at]), "{what}");
        assert_eq!(lines[1]["kind"], "end_tag", "{what}");
        assert_eq!(lines[1]["name"], case.name, "{what}");
        assert_eq!(lines[1]["span"], json!([at, end]), "{what}");
        assert_eq!(lines[2]["kind"], "text", "{what}");
        assert_eq!(lines[2]["data"], "c", "{what}");
        assert_eq!(lines[3]["kind"], "start_tag", "{what}");
        assert_eq!(lines[3]["name"], "p", "{what}");
        for (line, code) in lines[4..].iter().zip(case.errors) {
            assert_eq!(line["error"], *code, "{what}");
        }
    });
}

#[test]
fn last_start_tag_in_chunks_html5lib() {
    for_each_end_tag_case(&["--format", "html5lib"], |case, filler, out| {
        let text = format!("{}{}", filler.raw, case.text);
        assert_eq!(
            json_lines(out),
            [json!({"output": [
                ["Character", text],
                ["EndTag", case.name],
                ["Character", "c"],
                ["StartTag", "p", {}, false],
            ]})],
            "{} {:?}",
            case.state,
            filler.raw
        );
    });
}

#[test]
fn other_end_tags_stay_text_in_chunks() {
    // Only the last start tag's end tag is appropriate: with another name
    // (or none) `</title>` is text, whatever the chunks.
    for filler in fillers(1) {
        let mut input = filler.bytes.clone();
        input.extend_from_slice(b"a</title>b");
        for last in [&["--last-start-tag", "textarea"][..], &[]] {
            let args = [&["tokens", "--state", "rcdata"][..], last].concat();
            let lines = json_lines(&assert_small_chunks_change_nothing(&args, &input));
            assert_eq!(lines.len(), 1, "{last:?} {lines:#?}");
            assert_eq!(lines[0]["kind"], "text");
            assert_eq!(lines[0]["data"], format!("{}a</title>b", filler.utf8));
        }
    }
}

/// Standard input longer than a chunk is checked for UTF-8 as a whole (it
/// cannot be reopened, so it is kept while checked), including the chunk
/// read ahead of the head: a page whose only invalid byte lies there, and
/// whose later bytes are valid UTF-8, is windows-1252 on standard input as
/// it is from a file. (It was read as UTF-8 when that chunk was skipped.)
#[test]
fn standard_input_checks_the_chunk_read_ahead_for_utf8() {
    let dir = tempfile::tempdir().unwrap();
    for size in [1024, 2000, 4096] {
        let mut bytes = b"<title>x</title><p>".to_vec();
        bytes.resize(size + 10, b'a');
        bytes.extend_from_slice(b" caf\xE9 ");
        bytes.resize(2 * size + 100, b'b');
        bytes.extend_from_slice(" cr\u{e8}me".as_bytes());
        let file = page_file(dir.path(), &format!("page{size}.html"), &bytes);
        let n = size.to_string();
        for command in ["text", "encoding"] {
            let from_file = htmltok(&[command, &file]);
            ok(&from_file);
            let from_stdin = htmltok_stdin(&[command, "--chunk-size", &n, "-"], &bytes);
            ok(&from_stdin);
            // `encoding` names its input first: `-` against the path.
            let answer = |out: &Output| stdout(out).split_once('\t').map(|(_, a)| a.to_owned());
            let (stdin, file) = match command {
                "encoding" => (answer(&from_stdin), answer(&from_file)),
                _ => (Some(stdout(&from_stdin)), Some(stdout(&from_file))),
            };
            assert!(
                stdin == file,
                "{command} {size}: standard input differs from the file at {}",
                first_difference(
                    stdin.unwrap_or_default().as_bytes(),
                    file.unwrap_or_default().as_bytes()
                )
            );
        }
        let text = stdout(&htmltok_stdin(&["text", "--chunk-size", &n, "-"], &bytes));
        assert!(text.contains(" caf\u{e9} "), "{size}: {text:?}");
        assert!(text.contains(" cr\u{c3}\u{a8}me"), "{size}: {text:?}");
    }
}
