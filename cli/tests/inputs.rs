//! No page left behind (issue 13): every input is processed as the HTML
//! Standard says, whatever its bytes; memory stays bounded whatever its
//! size; an input that fails part way keeps what it produced.

use htmltok_test_support::html5lib;
mod helpers;

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use flate2::Compression;
use flate2::write::GzEncoder;
use helpers::*;
use serde_json::{Value, json};

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    s(&path).to_owned()
}

// ---------------------------------------------------------------------------
// Any bytes are a page
// ---------------------------------------------------------------------------

#[test]
fn a_page_without_tags_is_its_text() {
    let out = htmltok_stdin(&["text"], b"Hello world, no tags here.\n");
    ok(&out);
    assert_eq!(stdout(&out), "Hello world, no tags here.\n");
    let out = htmltok_stdin(&["stats", "--format", "json"], b"Hello world.");
    ok(&out);
    assert_eq!(json_lines(&out)[0]["tokens"]["text"], 1);
}

#[test]
fn a_nul_is_the_error_the_standard_names() {
    let out = htmltok_stdin(&["errors"], b"<p>a\0b</p>");
    ok(&out);
    assert_eq!(
        stdout(&out),
        "-:1:5: unexpected-null-character\n1 parse error in 1 file\n  1 unexpected-null-character\n"
    );
    // In text, the tokenizer hands the NUL on; a browser's tree builder
    // drops it, and so does the visible text.
    let out = htmltok_stdin(&["text"], b"<p>a\0b</p>");
    ok(&out);
    assert_eq!(stdout(&out), "ab\n");
}

#[test]
fn control_characters_and_invalid_utf8_are_pages_too() {
    let out = htmltok_stdin(&["errors"], b"<p>\x01\x7f ok</p>");
    ok(&out);
    assert!(stdout(&out).starts_with(
        "-:1:4: control-character-in-input-stream\n-:1:5: control-character-in-input-stream\n"
    ));
    // Invalid UTF-8 is windows-1252 by sniffing: every byte is a character.
    let out = htmltok_stdin(&["text"], b"caf\xe9 \xff\xfe");
    ok(&out);
    assert_eq!(stdout(&out), "caf\u{e9} \u{ff}\u{fe}\n");
    let out = htmltok_stdin(&["text"], b"");
    ok(&out);
    assert_eq!(stdout(&out), "");
}

#[test]
fn less_than_alone_has_an_encoding() {
    let out = htmltok_stdin(&["encoding"], b"<");
    ok(&out);
    assert_eq!(stdout(&out), "-\twindows-1252\ttentative\n");
}

/// Every case of the html5lib-tests encoding suite's `tests1.dat`,
/// `tests2.dat` and `test-yahoo-jp.dat`, through `htmltok encoding` (all in
/// one run, each case a file), read whole and in chunks of 7 bytes.
#[test]
fn the_html5lib_encoding_suite_through_the_command_line() {
    let suite = html5lib::find_html5lib_tests_dir()
        .unwrap()
        .join("encoding");
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    let mut want = Vec::new();
    for dat in ["tests1.dat", "tests2.dat", "test-yahoo-jp.dat"] {
        let cases = html5lib::parse_encoding_dat(&fs::read(suite.join(dat)).unwrap());
        assert!(!cases.is_empty(), "{dat}");
        for (i, case) in cases.iter().enumerate() {
            let file = write(dir.path(), &format!("{dat}-{i:03}.html"), &case.data);
            want.push((file.clone(), case.encoding.to_ascii_lowercase()));
            files.push(file);
        }
    }
    assert_eq!(files.len(), 82);
    for extra in [&[][..], &["--chunk-size", "7"]] {
        let args: Vec<&str> = ["encoding"]
            .iter()
            .copied()
            .chain(extra.iter().copied())
            .chain(files.iter().map(String::as_str))
            .collect();
        let out = htmltok(&args);
        ok(&out);
        let text = stdout(&out);
        let got: Vec<(&str, &str)> = text
            .lines()
            .map(|l| {
                let mut parts = l.split('\t');
                (parts.next().unwrap(), parts.next().unwrap())
            })
            .collect();
        assert_eq!(got.len(), want.len());
        let mut failed = Vec::new();
        for ((file, label), (want_file, want_label)) in got.iter().zip(&want) {
            assert_eq!(file, want_file);
            // The suite names some encodings by another label.
            let same = label == want_label
                || htmltok::encoding_for_label(want_label)
                    .is_some_and(|e| htmltok::canonical_label(e) == *label);
            if !same {
                failed.push(format!("{file}: {label}, expected {want_label}"));
            }
        }
        println!(
            "{} passed, {} failed, 0 skipped ({extra:?})",
            want.len() - failed.len(),
            failed.len()
        );
        assert!(failed.is_empty(), "{failed:#?}");
    }
}

// ---------------------------------------------------------------------------
// Whole or in chunks: the same output
// ---------------------------------------------------------------------------

/// A page of about `len` bytes with every kind of construct, and, around
/// offset `at`, a CRLF, a multi-byte character, a character reference, a
/// long comment, a tag with attributes and a text run.
fn page_around(len: usize, at: usize) -> Vec<u8> {
    let block = "<div class=\"row\" data-x='1'><a href=\"/p?a=1&amp;b=2\">Caf\u{e9} &lt; \
                 na\u{ef}ve</a><script>if (a<b) { x = '</scrip'; }</script><!-- note -->\
                 <p>line\r\nbreak&nbsp;&#x1F600;</p></div>\n";
    let mut page = String::from("<!DOCTYPE html><html lang=en><title>T</title>");
    while page.len() + block.len() < at.saturating_sub(300) {
        page.push_str(block);
    }
    page.push_str("<p title=\"x &amp; y\">a long run of text \u{20ac}\r\n");
    while page.len() < at + 50 {
        page.push_str("word &amp; \u{e9} ");
    }
    page.push_str("<!-- a comment across the boundary --><img src=a.png srcset=\"a 1x, b 2x\">");
    while page.len() + block.len() <= len {
        page.push_str(block);
    }
    let mut bytes = page.into_bytes();
    bytes.resize(len, b' ');
    bytes
}

/// Files of exactly the default chunk size, one byte less and one more:
/// read whole, in chunks of 64 KiB and of one gigabyte, every command says
/// the same.
#[test]
fn files_at_the_chunk_size_read_whole_or_streamed_say_the_same() {
    const CHUNK: usize = 1 << 20;
    let dir = tempfile::tempdir().unwrap();
    for len in [CHUNK - 1, CHUNK, CHUNK + 1] {
        let page = page_around(len, CHUNK);
        assert_eq!(page.len(), len);
        let file = write(dir.path(), &format!("page-{len}.html"), &page);
        for args in [
            &["tokens", "--errors"][..],
            &["tokens", "--format", "html5lib", "--errors"],
            &["text"],
            &["text", "--offsets"],
            &["links", "--base-url", "https://example.com/a/"],
            &["meta"],
            &["errors"],
            &["encoding"],
        ] {
            let run = |extra: &[&str]| {
                let out = htmltok(&[args, extra, &[&file]].concat());
                ok(&out);
                out.stdout
            };
            let default = run(&[]);
            assert!(!default.is_empty(), "{args:?}");
            for extra in [&["--chunk-size", "1G"][..], &["--chunk-size", "64K"]] {
                let other = run(extra);
                assert!(
                    other == default,
                    "{len} bytes, {args:?} {extra:?}: {}",
                    first_difference(&default, &other)
                );
            }
        }
    }
}

/// UTF-8 detection looks at the whole input, also when it is read in
/// chunks: a page with no charset whose non-ASCII comes after the first
/// chunk is UTF-8 when it all is, windows-1252 when a later byte is not,
/// from a file and from standard input (kept in a temporary file to be
/// read twice).
#[test]
fn utf8_detection_sees_the_whole_input_in_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let ascii = "<p>plain ascii </p>".repeat(200);
    let utf8 = format!("{ascii}<p>caf\u{e9}</p>").into_bytes();
    let mut mixed = utf8.clone();
    mixed.extend_from_slice(b"<p>\xe9</p>");
    for (name, bytes, last) in [
        ("utf8.html", &utf8, "caf\u{e9}"),
        ("mixed.html", &mixed, "caf\u{c3}\u{a9}\n\u{e9}"),
    ] {
        let file = write(dir.path(), name, bytes);
        let whole = htmltok(&["text", &file]);
        ok(&whole);
        assert!(stdout(&whole).ends_with(&format!("{last}\n")), "{name}");
        for size in ["100", "1000"] {
            let out = htmltok(&["text", "--chunk-size", size, &file]);
            ok(&out);
            assert_eq!(out.stdout, whole.stdout, "{name} in chunks of {size}");
            let out = htmltok_stdin(&["text", "--chunk-size", size], bytes);
            ok(&out);
            assert_eq!(
                out.stdout, whole.stdout,
                "{name} on stdin in chunks of {size}"
            );
            // A pipe named as a file is read once, as standard input is.
            let out = htmltok_stdin(&["text", "--chunk-size", size, "/dev/stdin"], bytes);
            ok(&out);
            assert_eq!(
                out.stdout, whole.stdout,
                "{name} as /dev/stdin in chunks of {size}"
            );
        }
    }
}

/// Standard input that must be kept to be read twice, with no room for a
/// temporary file: that input fails, said so, and nothing half-decoded is
/// printed.
#[test]
fn no_room_to_keep_standard_input_fails_it_clearly() {
    let mut page = "<p>plain ascii </p>".repeat(150_000).into_bytes();
    page.extend_from_slice("<p>caf\u{e9}</p>".as_bytes());
    let mut child = Command::new(BIN)
        .args(["text", "--chunk-size", "64K"])
        .env("TMPDIR", "/nonexistent/htmltok-test")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&page));
    let out = child.wait_with_output().unwrap();
    // The binary stops reading once it knows it cannot go on.
    let _ = writer.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "htmltok: -: cannot keep standard input in a temporary file to check its encoding: "
        ),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------

#[test]
fn a_construct_larger_than_the_memory_limit_fails_that_input_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut page = b"<p>before</p><!--".to_vec();
    page.extend(std::iter::repeat_n(b'x', 3 << 20));
    page.extend_from_slice(b"--><p>after</p>");
    let big = write(dir.path(), "big-comment.html", &page);
    let good = write(dir.path(), "good.html", b"<p>good</p>");
    let missing = dir.path().join("missing.html").display().to_string();
    // Each command with a 1 MiB limit over the big page, then the good one.
    let limited = |command: &[&str], and_missing: bool| {
        let mut args = command.to_vec();
        args.extend(["--memory-limit", "1M", "--chunk-size", "64K", &big, &good]);
        if and_missing {
            args.push(&missing);
        }
        htmltok(&args)
    };
    let out = limited(&["tokens"], false);
    assert_eq!(out.status.code(), Some(1));
    // What came before the comment is out, and the next input is processed.
    let lines = json_lines(&out);
    let data: Vec<&Value> = lines.iter().filter_map(|l| l.get("data")).collect();
    assert_eq!(data, [&json!("before"), &json!("good")]);
    assert_eq!(
        stderr(&out),
        format!(
            "htmltok: {big}: memory limit of 262144 bytes exceeded at byte 13: 327668 bytes \
             needed for the input the stream holds between chunks (the limit is a quarter of \
             --memory-limit 1 MiB); the rest of the input was not processed\n\
             htmltok: 1 of 2 inputs failed\n"
        )
    );
    // stats counts what was tokenized of it, and says it failed part way.
    let out = limited(&["stats"], true);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("total (2 files, 2 failed (1 part way))"),
        "{}",
        stdout(&out)
    );
    let out = limited(&["stats", "--format", "json", "--total"], true);
    let total = &json_lines(&out)[0]["total"];
    assert_eq!(
        (&total["files"], &total["failed"], &total["partial"]),
        (&json!(2), &json!(2), &json!(1))
    );
    // Under the default limit it goes through.
    let out = htmltok(&["stats", &big]);
    ok(&out);
    // A construct of less than a quarter of the limit goes through (the
    // rest of the limit is for the copies made of it while it is held).
    let mut page = b"<!--".to_vec();
    page.extend(std::iter::repeat_n(b'x', 200 << 10));
    page.extend_from_slice(b"-->");
    let quarter = write(dir.path(), "quarter.html", &page);
    let out = htmltok(&[
        "stats",
        "--memory-limit",
        "1M",
        "--chunk-size",
        "64K",
        &quarter,
    ]);
    ok(&out);
}

#[test]
fn a_page_held_past_the_memory_limit_is_reported_with_what_was_read() {
    // Main content and Markdown hold a page's text until its end: 3 MB of
    // it passes a quarter of a 1 MiB limit, in any chunk size.
    let dir = tempfile::tempdir().unwrap();
    let paragraph = "<p>The survey of the deep ocean floor found the trench far deeper \
                     than the old charts had it, and the currents misread.</p>\n";
    let page = format!(
        "<article><h1>The deep ocean floor</h1>\n{}",
        paragraph.repeat(25_000)
    );
    let big = write(dir.path(), "big-text.html", page.as_bytes());
    let good = write(dir.path(), "good.html", b"<p>good</p>");
    for held in [&["--main-content"][..], &["--format", "markdown"]] {
        for chunk in ["64K", "1M"] {
            let mut args = vec!["text"];
            args.extend(held);
            args.extend(["--memory-limit", "1M", "--chunk-size", chunk, &big, &good]);
            let out = htmltok(&args);
            assert_eq!(out.status.code(), Some(1), "{held:?} {chunk}");
            // What was read is written, the next input too, and the
            // failure is reported after it.
            let text = stdout(&out);
            assert!(
                text.contains("The survey of the deep ocean floor"),
                "{held:?}"
            );
            assert!(
                text.len() > 32 << 10 && text.len() < 400 << 10,
                "{}",
                text.len()
            );
            assert!(text.ends_with("good\n"), "{held:?}");
            let err = stderr(&out);
            assert!(
                err.starts_with(&format!(
                    "htmltok: {big}: memory limit of 262144 bytes exceeded at byte "
                )),
                "{err}"
            );
            assert!(
                err.ends_with(
                    "for the text, blocks and links the extraction holds (the limit is a \
                     quarter of --memory-limit 1 MiB); the rest of the input was not processed\n\
                     htmltok: 1 of 2 inputs failed\n"
                ),
                "{err}"
            );
        }
    }
    // Under the default limit (64 MiB) the page goes through; text written
    // out as it goes is held under no such limit.
    ok(&htmltok(&["text", "--main-content", &big]));
    ok(&htmltok(&["text", "--memory-limit", "1M", &big]));
}

#[test]
fn gzip_is_capped_and_the_cap_is_an_option() {
    let dir = tempfile::tempdir().unwrap();
    let page = "<p>words and more words</p>\n".repeat(100_000); // 2.8 MB
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(page.as_bytes()).unwrap();
    let file = write(dir.path(), "page.html.gz", &gz.finish().unwrap());
    let out = htmltok(&["stats", "--format", "json", &file]);
    ok(&out);
    assert_eq!(json_lines(&out)[0]["bytes"], page.len());
    let out = htmltok(&["stats", "--format", "json", "--gunzip-limit", "1M", &file]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!("htmltok: {file}: gzip data inflates to more than 1 MiB (--gunzip-limit)\n")
    );
    // What was inflated up to the cap was processed, whatever the chunks.
    assert_eq!(json_lines(&out)[0]["bytes"], 1 << 20);
    for chunk in ["333", "4096", "1G"] {
        let out = htmltok(&[
            "stats",
            "--format",
            "json",
            "--gunzip-limit",
            "1M",
            "--chunk-size",
            chunk,
            &file,
        ]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(json_lines(&out)[0]["bytes"], 1 << 20, "chunks of {chunk}");
    }
    // Even a cap under the first chunk.
    let out = htmltok(&["stats", "--format", "json", "--gunzip-limit", "100K", &file]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json_lines(&out)[0]["bytes"], 100 << 10);
}

/// Runs the binary with `args` and returns its exit code and peak resident
/// memory in bytes, read from the kernel's `VmHWM` (the peak so far) as it
/// runs: `wait4`'s `ru_maxrss` would count this test process too, the
/// child being spawned from it.
fn run_measured(args: &[&str]) -> (Option<i32>, u64) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(text) = fs::read_to_string(&status)
            && let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kb * 1024);
        }
        if let Some(exit) = child.try_wait().unwrap() {
            return (exit.code(), peak);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// A generated 200 MB page (tags, references, scripts, comments, and now
/// and then a 1 MB comment a chunk boundary cuts) goes through `stats` and
/// `text` with a peak resident memory far below its size.
#[test]
fn a_200_megabyte_page_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.html");
    let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    let mut written = 0;
    let mut i = 0usize;
    while written < 200_000_000 {
        let block = format!(
            "<div class=\"row r{i}\" data-i={i}><a href=\"/p?i={i}&amp;x=1\">Item {i} &lt; more</a>\
             <script>if (a<b) {{ x = '</scrip' + {i}; }}</script><!-- c{i} --></div>\r\n"
        );
        file.write_all(block.as_bytes()).unwrap();
        written += block.len();
        if i.is_multiple_of(20_000) {
            let comment = format!("<!--{}-->", "-".repeat(1 << 20));
            file.write_all(comment.as_bytes()).unwrap();
            written += comment.len();
        }
        i += 1;
    }
    file.flush().unwrap();
    drop(file);
    for command in ["stats", "text"] {
        let (code, peak) = run_measured(&[command, "--jobs", "1", s(&path)]);
        assert_eq!(code, Some(0), "{command}");
        assert!(peak > 0, "no reading of /proc");
        println!("{command}: peak resident memory {} MiB", peak >> 20);
        assert!(peak < 64 << 20, "{command}: {} MiB", peak >> 20);
    }
}
