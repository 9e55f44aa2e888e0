//! End-to-end tests of encodings: `htmltok encoding`, and the other
//! commands on pages that are not UTF-8 (sniffed, or `--encoding`).

mod helpers;

use std::fs;
use std::io::Write;
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;
use helpers::*;
use htmltok::encoding_rs::{Encoding, ISO_8859_2, SHIFT_JIS, WINDOWS_1252};
use serde_json::{Value, json};

/// A Japanese page that says it is Shift_JIS.
const JAPANESE: &str = "<!DOCTYPE html>\n<html lang=ja><head><meta charset=shift_jis>\
    <title>\u{65e5}\u{672c}\u{8a9e}\u{306e}\u{30da}\u{30fc}\u{30b8}</title></head>\n\
    <body><h1>\u{3053}\u{3093}\u{306b}\u{3061}\u{306f}\u{3001}\u{4e16}\u{754c}</h1>\
    <p>\u{6771}\u{4eac} &amp; \u{5927}\u{962a}</p></body></html>\n";

/// Its visible text.
const JAPANESE_TEXT: &str = "\u{3053}\u{3093}\u{306b}\u{3061}\u{306f}\u{3001}\u{4e16}\u{754c}\n\
    \u{6771}\u{4eac} & \u{5927}\u{962a}\n";

fn encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{text:?} in {}", encoding.name());
    bytes.into_owned()
}

/// UTF-16 with its byte order mark (encoding_rs encodes to UTF-8 only).
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

/// What `text` reads in windows-1252 (the encoding sniffing falls back to)
/// from `text` written in `encoding`.
fn mojibake(encoding: &'static Encoding, text: &str) -> String {
    let bytes = encode(encoding, text);
    WINDOWS_1252
        .decode_without_bom_handling(&bytes)
        .0
        .into_owned()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    s(&path).to_owned()
}

// ---------------------------------------------------------------------------
// htmltok encoding
// ---------------------------------------------------------------------------

#[test]
fn encoding_as_a_browser_decides() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let latin = "<p>caf\u{e9} cr\u{e8}me br\u{fb}l\u{e9}e</p>";
    let meta_1252 = write(
        d,
        "meta-1252.html",
        &encode(WINDOWS_1252, &format!("<meta charset=windows-1252>{latin}")),
    );
    let bare_1252 = write(d, "bare-1252.html", &encode(WINDOWS_1252, latin));
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(latin.as_bytes());
    let utf8_bom = write(d, "utf8-bom.html", &bom);
    let utf8 = write(d, "utf8.html", latin.as_bytes());
    let ascii = write(d, "ascii.html", b"<p>plain ASCII</p>");
    let utf16le = write(d, "utf16le.html", &utf16(latin, false));
    let utf16be = write(d, "utf16be.html", &utf16(latin, true));
    let sjis = write(d, "sjis.html", &encode(SHIFT_JIS, JAPANESE));
    // A <meta> past the prescan's 1024 bytes: the page is decoded again.
    let late = format!(
        "<!--{}--><meta charset=shift_jis>{JAPANESE}",
        "x".repeat(2000)
    );
    let late = write(d, "late.html", &encode(SHIFT_JIS, &late));
    let gz = write(
        d,
        "meta-1252.html.gz",
        &gzip(&fs::read(&meta_1252).unwrap()),
    );

    let out = htmltok(&[
        "encoding", &meta_1252, &bare_1252, &utf8_bom, &utf8, &ascii, &utf16le, &utf16be, &sjis,
        &late, &gz,
    ]);
    ok(&out);
    let want = [
        // The prescan finds the <meta> (tentative), the parser meets it and
        // it confirms the encoding (certain), as the standard's "change the
        // encoding" says.
        format!("{meta_1252}\twindows-1252\tcertain"),
        format!("{bare_1252}\twindows-1252\ttentative"),
        format!("{utf8_bom}\tutf-8\tcertain"),
        // No UTF-8 detection, as in browsers.
        format!("{utf8}\twindows-1252\ttentative"),
        format!("{ascii}\twindows-1252\ttentative"),
        format!("{utf16le}\tutf-16le\tcertain"),
        format!("{utf16be}\tutf-16be\tcertain"),
        format!("{sjis}\tshift_jis\tcertain"),
        format!("{late}\tshift_jis\tcertain"),
        format!("{gz}\twindows-1252\tcertain"),
    ];
    assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), want);

    // The transport layer's charset is certain; a BOM still wins.
    let out = htmltok(&[
        "encoding",
        "--transport-charset",
        "shift_jis",
        &ascii,
        &meta_1252,
        &utf8_bom,
    ]);
    ok(&out);
    assert_eq!(
        stdout(&out),
        format!(
            "{ascii}\tshift_jis\tcertain\n{meta_1252}\tshift_jis\tcertain\n{utf8_bom}\tutf-8\tcertain\n"
        )
    );
    // Any label of the encoding, in any case.
    let out = htmltok(&["encoding", "--transport-charset", " Latin1 ", &ascii]);
    ok(&out);
    assert_eq!(stdout(&out), format!("{ascii}\twindows-1252\tcertain\n"));
}

#[test]
fn encoding_ignores_an_unknown_transport_charset_with_a_warning() {
    let out = htmltok_stdin(
        &["encoding", "--transport-charset", "klingon"],
        b"<meta charset=euc-kr><p>x",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "-\teuc-kr\tcertain\n");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("htmltok: warning: unknown --transport-charset \"klingon\", ignored"),
        "{err}"
    );
}

#[test]
fn encoding_handles_inputs_as_the_other_commands() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut names = Vec::new();
    for i in 0..12 {
        let page = if i % 2 == 0 {
            format!("<meta charset=koi8-r><p>{i}")
        } else {
            format!("<p>{i}")
        };
        names.push(write(d, &format!("{i:02}.html"), page.as_bytes()));
    }
    write(d, "notes.txt", b"<p>not walked");
    let empty = write(d, "sub-empty.html", b"");
    for jobs in ["1", "2"] {
        let out = htmltok(&["encoding", "--jobs", jobs, s(d), "missing.html"]);
        assert_eq!(out.status.code(), Some(1));
        let mut want: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                if i % 2 == 0 {
                    format!("{name}\tkoi8-r\tcertain")
                } else {
                    format!("{name}\twindows-1252\ttentative")
                }
            })
            .collect();
        // An empty page has an encoding too: the default.
        want.push(format!("{empty}\twindows-1252\ttentative"));
        assert_eq!(
            stdout(&out).lines().collect::<Vec<_>>(),
            want,
            "--jobs {jobs}"
        );
        assert_eq!(
            stderr(&out),
            "htmltok: missing.html: no such file or directory\n\
             htmltok: 1 of 14 inputs failed\n"
        );
    }
    // Standard input, gzipped.
    let out = htmltok_stdin(&["encoding"], &gzip(b"<meta charset=gbk><p>x"));
    ok(&out);
    assert_eq!(stdout(&out), "-\tgbk\tcertain\n");
}

// ---------------------------------------------------------------------------
// The other commands on pages in other encodings
// ---------------------------------------------------------------------------

#[test]
fn shift_jis_page_gives_japanese_text() {
    let page = encode(SHIFT_JIS, JAPANESE);
    assert!(std::str::from_utf8(&page).is_err());
    let out = htmltok_stdin(&["text"], &page);
    ok(&out);
    assert_eq!(stdout(&out), JAPANESE_TEXT);

    let out = htmltok_stdin(&["meta"], &page);
    ok(&out);
    let meta = &json_lines(&out)[0];
    assert_eq!(
        meta["title"],
        "\u{65e5}\u{672c}\u{8a9e}\u{306e}\u{30da}\u{30fc}\u{30b8}"
    );
    assert_eq!(meta["charset"], "shift_jis");
    assert_eq!(meta["lang"], "ja");

    // Tokens: the text decoded, spans into the decoded (UTF-8) text.
    let out = htmltok_stdin(&["tokens", "--errors"], &page);
    ok(&out);
    let lines = json_lines(&out);
    let h1 = lines
        .iter()
        .find(|l| l["kind"] == "text" && l["data"].as_str().unwrap().starts_with('\u{3053}'))
        .unwrap();
    assert_eq!(
        h1["data"],
        "\u{3053}\u{3093}\u{306b}\u{3061}\u{306f}\u{3001}\u{4e16}\u{754c}"
    );
    let span = h1["span"].as_array().unwrap();
    let (start, end) = (span[0].as_u64().unwrap(), span[1].as_u64().unwrap());
    assert_eq!(&JAPANESE[start as usize..end as usize], h1["data"]);
    let last = lines.last().unwrap();
    assert_eq!(last["kind"], "text");
    assert_eq!(last["span"], json!([JAPANESE.len() - 1, JAPANESE.len()]));

    // Errors: lines and columns in the decoded text.
    let broken = encode(
        SHIFT_JIS,
        "<meta charset=shift_jis>\n<p>\u{65e5}\u{672c} <b a=1 a=2>",
    );
    let out = htmltok_stdin(&["errors", "--format", "json", "--no-summary"], &broken);
    ok(&out);
    assert_eq!(
        json_lines(&out),
        [json!({"file": "-", "error": "duplicate-attribute", "offset": 43, "line": 2, "col": 15})]
    );
}

#[test]
fn encoding_flag_overrides_sniffing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let body = "<p>\u{6771}\u{4eac}</p>";
    // No <meta>, not UTF-8: sniffed as windows-1252.
    let bare = write(d, "bare.html", &encode(SHIFT_JIS, body));
    let out = htmltok(&["text", &bare]);
    ok(&out);
    assert_eq!(
        stdout(&out),
        format!("{}\n", mojibake(SHIFT_JIS, "\u{6771}\u{4eac}"))
    );
    for label in ["shift_jis", "SJIS", " ms_kanji "] {
        let out = htmltok(&["text", "--encoding", label, &bare]);
        ok(&out);
        assert_eq!(stdout(&out), "\u{6771}\u{4eac}\n", "{label}");
    }
    // The override beats a <meta> ...
    let wrong_meta = write(
        d,
        "wrong-meta.html",
        &encode(SHIFT_JIS, &format!("<meta charset=iso-8859-2>{body}")),
    );
    let out = htmltok(&["text", "--encoding", "shift_jis", &wrong_meta]);
    ok(&out);
    assert_eq!(stdout(&out), "\u{6771}\u{4eac}\n");
    // ... but not a byte order mark.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(body.as_bytes());
    let out = htmltok_stdin(&["text", "--encoding", "shift_jis"], &bom);
    ok(&out);
    assert_eq!(stdout(&out), "\u{6771}\u{4eac}\n");
    // Every command that sniffs takes it.
    for command in ["tokens", "text", "links", "meta", "errors", "stats"] {
        let out = htmltok(&[command, "--encoding", "shift_jis", &bare]);
        ok(&out);
        let text = stdout(&out);
        if command == "tokens" {
            assert!(text.contains("\"data\":\"\u{6771}\u{4eac}\""), "{text}");
        }
    }
}

#[test]
fn unknown_encoding_is_a_usage_error() {
    for command in ["tokens", "text", "links", "meta", "errors", "stats"] {
        let err = usage_error(&htmltok(&[command, "--encoding", "klingon", "x.html"]));
        assert!(
            err.contains("'klingon'") && err.contains("unknown character encoding"),
            "{command}: {err}"
        );
    }
    // --encoding means nothing to html5lib's input (UTF-8 as it is).
    let err = usage_error(&htmltok(&[
        "tokens",
        "--format",
        "html5lib",
        "--encoding",
        "utf-8",
        "x.html",
    ]));
    assert!(err.contains("--format html5lib"), "{err}");
    // The commands that sniff have no --transport-charset; `encoding` has
    // no --encoding.
    usage_error(&htmltok(&[
        "text",
        "--transport-charset",
        "utf-8",
        "x.html",
    ]));
    usage_error(&htmltok(&["encoding", "--encoding", "utf-8", "x.html"]));
}

#[test]
fn sniffing_decodes_every_encoding_the_page_says() {
    let latin = "<p>caf\u{e9} cr\u{e8}me &amp; br\u{fb}l\u{e9}e</p>";
    let latin_text = "caf\u{e9} cr\u{e8}me & br\u{fb}l\u{e9}e\n";
    let mut utf8_bom = b"\xEF\xBB\xBF".to_vec();
    utf8_bom.extend_from_slice(latin.as_bytes());
    let polish = "Za\u{17c}\u{f3}\u{142}\u{107} g\u{119}\u{15b}l\u{105} ja\u{17a}\u{144}";
    let pages: [(&str, Vec<u8>, String); 6] = [
        // Not UTF-8 and no <meta>: windows-1252.
        (
            "windows-1252",
            encode(WINDOWS_1252, latin),
            latin_text.to_owned(),
        ),
        // Valid UTF-8 and no <meta>: UTF-8 (detected).
        ("utf-8", latin.as_bytes().to_vec(), latin_text.to_owned()),
        ("utf-8 bom", utf8_bom, latin_text.to_owned()),
        ("utf-16le bom", utf16(latin, false), latin_text.to_owned()),
        ("utf-16be bom", utf16(latin, true), latin_text.to_owned()),
        (
            "iso-8859-2 meta",
            encode(
                ISO_8859_2,
                &format!(
                    "<meta http-equiv=Content-Type content='text/html; charset=ISO-8859-2'><p>{polish}"
                ),
            ),
            format!("{polish}\n"),
        ),
    ];
    for (name, bytes, want) in &pages {
        let out = htmltok_stdin(&["text"], bytes);
        ok(&out);
        assert_eq!(&stdout(&out), want, "{name}");
    }
    // UTF-16 without a byte order mark is not sniffed (as in browsers): it
    // reads as windows-1252 with NULs: no tags (a `<` before a NUL starts
    // none), and text whose NULs the visible text drops, as a browser does;
    // --skip-binary skips it.
    let mut no_bom = utf16(latin, false);
    no_bom.drain(..2);
    let out = htmltok_stdin(&["text"], &no_bom);
    ok(&out);
    assert_eq!(stdout(&out), format!("{latin}\n"));
    let out = htmltok_stdin(&["text", "--skip-binary"], &no_bom);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        "htmltok: -: binary data (application/octet-stream), skipped (--skip-binary)\n"
    );
}

#[test]
fn byte_order_mark_is_not_text_when_sniffing() {
    let out = htmltok_stdin(&["tokens"], b"\xEF\xBB\xBF<p>x");
    ok(&out);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["kind"], "start_tag");
    assert_eq!(lines[0]["span"], json!([0, 3]));
    assert_eq!(
        lines[1],
        json!({"file": "-", "kind": "text", "data": "x", "span": [3, 4]})
    );
    // In html5lib form the bytes are the input stream as they are.
    let out = htmltok_stdin(&["tokens", "--format", "html5lib"], b"\xEF\xBB\xBF<p>x");
    ok(&out);
    assert_eq!(
        json_lines(&out),
        [
            json!({"output": [["Character", "\u{FEFF}"], ["StartTag", "p", {}, false], ["Character", "x"]]})
        ]
    );
    // A windows-1252 page through html5lib: bytes that are not UTF-8 are
    // U+FFFD there, decoded in json.
    let page = b"<p>caf\xe9";
    let out = htmltok_stdin(&["tokens", "--format", "html5lib"], page);
    assert_eq!(
        json_lines(&out)[0]["output"][1],
        json!(["Character", "caf\u{FFFD}"])
    );
    let out = htmltok_stdin(&["tokens"], page);
    let lines: Vec<Value> = json_lines(&out);
    assert_eq!(lines[1]["data"], "caf\u{e9}");
    assert_eq!(lines[1]["span"], json!([3, 8]));
}

#[test]
fn a_meta_past_the_prescan_does_not_change_the_commands_decoding() {
    // `encoding` decodes again for it (shift_jis, certain); the commands
    // decide from the first 1024 bytes, as a stream must (documented in
    // --help): not UTF-8 and no <meta> there, so windows-1252.
    let page = format!(
        "<!--{}--><meta charset=shift_jis><p>\u{6771}",
        "x".repeat(2000)
    );
    let page = encode(SHIFT_JIS, &page);
    let out = htmltok_stdin(&["encoding"], &page);
    assert_eq!(stdout(&out), "-\tshift_jis\tcertain\n");
    let out = htmltok_stdin(&["text"], &page);
    ok(&out);
    assert_eq!(
        stdout(&out),
        format!("{}\n", mojibake(SHIFT_JIS, "\u{6771}"))
    );
    let out = htmltok_stdin(&["text", "--encoding", "shift_jis"], &page);
    assert_eq!(stdout(&out), "\u{6771}\n");
}
