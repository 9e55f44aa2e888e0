//! End-to-end tests of the `htmltok` binary.

use std::path::PathBuf;

use serde_json::json;

mod helpers;

use helpers::*;

/// A temp file holding `bytes`, named after the test.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn no_arguments_runs_stats_on_the_sample() {
    let out = htmltok(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    for needle in [
        "sample page",
        "bytes",
        "tokens",
        "start_tag",
        "end_tag",
        "doctype",
        "comment",
        "errors",
        "MB/s",
        "(sample)",
        "borrowed",
        "arena",
        "hint:",
        "htmltok stats",
        "htmltok --help",
    ] {
        assert!(text.contains(needle), "no {needle:?} in:\n{text}");
    }
    // The row's numbers: 1 doctype among them, and the bytes of the sample.
    let row = text.lines().find(|l| l.ends_with("(sample)")).unwrap();
    let numbers: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(numbers[2], "1", "{row}");
    assert!(numbers[0].parse::<usize>().unwrap() > 2000, "{row}");
    assert!(stderr(&out).is_empty());
}

#[test]
fn tokens_json_has_kinds_fields_and_spans() {
    let path = temp_file("json.html", b"<a href=x b>Hi &amp; bye</a><!--c-->");
    let file = path.to_str().unwrap();
    let out = htmltok(&["tokens", file]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(
        lines,
        [
            json!({"file": file, "kind": "start_tag", "name": "a", "name_span": [1, 2],
                "attributes": [
                    {"name": "href", "value": "x", "name_span": [3, 7],
                     "value_span": [8, 9], "duplicate": false},
                    {"name": "b", "value": "", "name_span": [10, 11],
                     "value_span": null, "duplicate": false},
                ],
                "self_closing": false, "span": [0, 12]}),
            json!({"file": file, "kind": "text", "data": "Hi & bye", "span": [12, 24]}),
            json!({"file": file, "kind": "end_tag", "name": "a", "name_span": [26, 27],
                "attributes": [], "self_closing": false, "span": [24, 28]}),
            json!({"file": file, "kind": "comment", "data": "c", "span": [28, 36]}),
        ]
    );
}

#[test]
fn tokens_json_errors_follow_the_tokens() {
    let out = htmltok_stdin(&["tokens", "--errors"], b"<p>\n<b c=1 c=2>");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(
        lines.last().unwrap(),
        &json!({"file": "-", "error": "duplicate-attribute", "offset": 12, "line": 2, "col": 9})
    );
    assert_eq!(lines[0]["kind"], "start_tag");
}

#[test]
fn stdin_is_read_when_no_file_or_dash() {
    for args in [&["tokens"][..], &["tokens", "-"]] {
        let out = htmltok_stdin(args, b"<b>x</b>");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l["file"] == "-"));
        assert_eq!(lines[1]["data"], "x");
    }
}

#[test]
fn unreadable_file_is_reported_and_others_still_printed() {
    let good = temp_file("good.html", b"<i>ok</i>");
    let missing = "no-such-dir/missing.html";
    let out = htmltok(&[
        "tokens",
        "--format",
        "html5lib",
        missing,
        good.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(&format!("htmltok: {missing}: ")),
        "{err}"
    );
    assert_eq!(lines[1], "htmltok: 1 of 2 inputs failed");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        json_lines(&out),
        [json!({"output": [["StartTag", "i", {}, false], ["Character", "ok"], ["EndTag", "i"]]})]
    );
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &["tokens", "--state", "nowhere"][..],
        &["tokens", "--frobnicate"],
        &["--format", "json"],
    ] {
        let out = htmltok(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
    }
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let path = temp_file("invalid.html", b"a\xffb");
    let out = htmltok(&["tokens", "--format", "html5lib", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        json_lines(&out),
        [json!({"output": [["Character", "a\u{FFFD}b"]]})]
    );
}

#[test]
fn leading_bom_stays_a_character() {
    let out = htmltok_stdin(&["tokens", "--format", "html5lib"], b"\xEF\xBB\xBF<p>");
    assert_eq!(
        json_lines(&out),
        [json!({"output": [["Character", "\u{FEFF}"], ["StartTag", "p", {}, false]]})]
    );
}

#[test]
fn exact_switching_follows_tree_construction() {
    // `</div>` closes the `svg` opened inside it: the CDATA is then in HTML
    // content, a bogus comment. The default approximation does not follow
    // the `div` and reads a CDATA section.
    let input = b"<div><svg></div><![CDATA[x]]>";
    let last = |args: &[&str]| {
        let out = htmltok_stdin(args, input);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        json_lines(&out).pop().expect("tokens")
    };
    let exact = last(&["tokens", "--format", "html5lib", "--exact-switching"]);
    assert_eq!(
        exact["output"].as_array().and_then(|o| o.last()),
        Some(&json!(["Comment", "[CDATA[x]]"]))
    );
    let default = last(&["tokens", "--format", "html5lib"]);
    assert_eq!(
        default["output"].as_array().and_then(|o| o.last()),
        Some(&json!(["Character", "x"]))
    );
    // It needs auto-switching: a usage error before any input is read (so
    // none is given; writing it could meet a closed pipe).
    let out = htmltok(&["tokens", "--exact-switching", "--no-auto-switch"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--no-auto-switch"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn html5lib_format_with_all_options() {
    let input = b"<!DOCTYPE html><p b=1 a=2 b=3 />x</title>&amp;</title>";
    let out = htmltok_stdin(
        &[
            "tokens",
            "--format",
            "html5lib",
            "--errors",
            "--no-auto-switch",
            "--state",
            "rcdata",
            "--last-start-tag",
            "TITLE",
        ],
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        concat!(
            r#"{"output":[["Character","<!DOCTYPE html><p b=1 a=2 b=3 />x"],["EndTag","title"],"#,
            r#"["Character","&"],["EndTag","title"]],"errors":[]}"#,
            "\n"
        )
    );
    // In the data state the same input is markup; attributes keep source
    // order and the first duplicate wins.
    let out = htmltok_stdin(&["tokens", "--format", "html5lib", "--errors"], input);
    assert_eq!(
        json_lines(&out),
        [json!({
            "output": [
                ["DOCTYPE", "html", null, null, true],
                ["StartTag", "p", {"b": "1", "a": "2"}, true],
                ["Character", "x"],
                ["EndTag", "title"],
                ["Character", "&"],
                ["EndTag", "title"],
            ],
            "errors": [{"code": "duplicate-attribute", "line": 1, "col": 28}],
        })]
    );
    assert!(stdout(&out).contains(r#"{"b":"1","a":"2"}"#));
}

#[test]
fn closed_pipe_is_quiet() {
    let big = "<p class=x>hello &amp; world</p>\n".repeat(20_000);
    let path = temp_file("big.html", big.as_bytes());
    let out = htmltok_into_closed_pipe(&["tokens", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
}

#[test]
fn help_mentions_every_flag() {
    let text = stdout(&htmltok(&["--help"]));
    for needle in [
        "tokens",
        "text",
        "links",
        "meta",
        "errors",
        "stats",
        "encoding",
        "--glob",
        "--encoding",
        "--chunk-size",
        "windows-1252",
        "byte order mark",
        "decoded",
        "Exit status",
        "Examples:",
    ] {
        assert!(
            text.contains(needle),
            "`htmltok --help` lacks {needle}:\n{text}"
        );
    }
    let flags: [(&str, &[&str]); 7] = [
        (
            "tokens",
            &[
                "--format",
                "html5lib",
                "--errors",
                "--no-auto-switch",
                "--state",
                "--last-start-tag",
                "script-data",
                "cdata-section",
                "decoded UTF-8 text",
                "U+FEFF",
                "byte for byte",
            ],
        ),
        (
            "text",
            &["--offsets", "==> FILE <==", "<pre>", "decoded text"],
        ),
        ("links", &["--base-url", "srcset", "\"error\"", "decoded"]),
        ("meta", &["--base-url", "canonical", "robots", "charset"]),
        (
            "errors",
            &["--format", "FILE:LINE:COL: CODE", "--no-summary", "summary"],
        ),
        (
            "stats",
            &["--format", "--total", "MB/s", "progress", "--chunk-size"],
        ),
        (
            "encoding",
            &[
                "--transport-charset",
                "FILE<TAB>ENCODING<TAB>CONFIDENCE",
                "windows-1252 tentative",
                "certain",
                "byte order mark",
                "1024 bytes",
                "UTF-8 detection",
            ],
        ),
    ];
    for (command, needles) in flags {
        let out = htmltok(&[command, "--help"]);
        assert_eq!(out.status.code(), Some(0));
        let text = stdout(&out);
        let read_flags: &[&str] = if command == "encoding" {
            &[]
        } else {
            &["--encoding", "--chunk-size"]
        };
        for needle in
            needles
                .iter()
                .chain(read_flags)
                .chain(&["FILE", "--glob", "--jobs", "Examples:"])
        {
            assert!(
                text.contains(needle),
                "`htmltok {command} --help` lacks {needle}:\n{text}"
            );
        }
        let examples = text.split("Examples:").nth(1).unwrap();
        assert!(
            examples.contains(&format!("htmltok {command}")),
            "{command}: {examples}"
        );
    }
}
