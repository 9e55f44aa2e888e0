//! End-to-end tests of `htmltok text`, `links`, `meta`, `errors` and
//! `stats`, and of the input handling all commands share (directories,
//! gzip, `--jobs`, bad inputs), on pages the tests write and on the real
//! pages of the corpus (`../shared/corpus`, or `$HTMLTOK_CORPUS_DIR`).

use std::fs;
use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::{Value, json};

mod helpers;

use helpers::*;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

const PAGE: &str = "<!DOCTYPE html>
<html lang=fr>
<head>
<meta charset=utf-8>
<title>Fish &amp;  Chips</title>
<base href=\"https://example.com/shop/\">
<link rel=canonical href=\"/fish\">
<meta name=robots content=\"NOINDEX, follow\">
<style>p { color: red }</style>
<script>document.write('<p>no')</script>
</head>
<body>
<h1>Today&rsquo;s   menu</h1>
<p>Cod &amp; chips <a href=\"cod.html\">more</a></p>
<img srcset=\"a.png 1x, b.png 2x\" alt=x>
<p class=a class=b>Peas</p>
</body>";

// ---------------------------------------------------------------------------
// Pages the tests write
// ---------------------------------------------------------------------------

#[test]
fn text_of_a_page() {
    let out = htmltok_stdin(&["text"], PAGE.as_bytes());
    ok(&out);
    assert_eq!(
        stdout(&out),
        "Today\u{2019}s menu\nCod & chips more\nPeas\n"
    );
}

#[test]
fn text_options() {
    let page = "<p>A <img alt=grey src=c.png> cat <span hidden>secret</span>sat on the mat";
    let text = |args: &[&str]| {
        let out = htmltok_stdin(&[&["text"][..], args].concat(), page.as_bytes());
        ok(&out);
        stdout(&out)
    };
    assert_eq!(text(&[]), "A cat sat on the mat\n");
    assert_eq!(text(&["--alt-text"]), "A grey cat sat on the mat\n");
    assert_eq!(text(&["--show-hidden"]), "A cat secretsat on the mat\n");
    assert_eq!(text(&["--limit", "9"]), "A cat sat\n");
    assert_eq!(text(&["--limit", "0"]), "");
}

#[test]
fn text_offsets_point_into_the_source() {
    let out = htmltok_stdin(&["text", "--offsets"], PAGE.as_bytes());
    ok(&out);
    let lines = json_lines(&out);
    let texts: Vec<&str> = lines.iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        ["Today\u{2019}s menu", "Cod & chips", "more", "Peas"]
    );
    let first = &lines[0];
    assert_eq!(first["file"], "-");
    let (start, end) = (
        first["start"].as_u64().unwrap(),
        first["end"].as_u64().unwrap(),
    );
    assert_eq!(&PAGE[start as usize..end as usize], "Today&rsquo;s   menu");
    assert_eq!(
        &PAGE[lines[2]["start"].as_u64().unwrap() as usize..][..4],
        "more"
    );
}

/// An article between a navigation bar and a footer.
fn article() -> String {
    let sentence = "The survey mapped four thousand square kilometres of the ocean floor, \
                    and its authors say the method will be used again next year. ";
    format!(
        "<!doctype html><title>Survey</title><nav class=menu><ul><li><a href=/a>Home</a>\
         <li><a href=/b>World</a><li><a href=/c>Science</a></ul></nav>\
         <main><article><h1>The ocean floor, mapped</h1><p>{}</p><p>{}</p></article></main>\
         <footer class=site-footer><a href=/privacy>Privacy</a> <a href=/terms>Terms</a></footer>",
        sentence.repeat(3),
        sentence.repeat(2)
    )
}

#[test]
fn text_main_content() {
    let page = article();
    let out = htmltok_stdin(&["text", "--main-content"], page.as_bytes());
    ok(&out);
    let text = stdout(&out);
    assert!(
        text.starts_with("The ocean floor, mapped\nThe survey mapped"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(
        !text.contains("Home") && !text.contains("Privacy"),
        "{text}"
    );
    // Every line of the main content is a line of the whole text.
    let all = stdout(&htmltok_stdin(&["text"], page.as_bytes()));
    assert!(text.lines().all(|l| all.lines().any(|a| a == l)), "{text}");

    // With offsets, each run maps back to its bytes, as all text's runs do.
    let out = htmltok_stdin(&["text", "--main-content", "--offsets"], page.as_bytes());
    ok(&out);
    let runs = json_lines(&out);
    assert_eq!(runs[0]["text"], "The ocean floor, mapped");
    for run in &runs {
        let (start, end) = (
            run["start"].as_u64().unwrap() as usize,
            run["end"].as_u64().unwrap() as usize,
        );
        assert_eq!(run["text"], page[start..end].trim(), "{run}");
    }
    assert!(!runs.iter().any(|r| r["text"] == "Home"));

    // --help says what it does, with an example.
    let help = stdout(&htmltok(&["text", "--help"]));
    assert!(help.contains("--main-content"), "{help}");
}

#[test]
fn text_as_markdown() {
    let page = "<h1>Fish &amp; chips</h1><p>Cod, <b>chips</b> and <a href=peas.html>peas</a>.\
                <ul><li>one<li>two</ul><pre class=language-sh>ls -l</pre>\
                <table><tr><th>A<th>B<tr><td>1<td>2</table>";
    let out = htmltok_stdin(&["text", "--format", "markdown"], page.as_bytes());
    ok(&out);
    assert_eq!(
        stdout(&out),
        "# Fish & chips\n\nCod, **chips** and [peas](peas.html).\n\n- one\n- two\n\n\
         ```sh\nls -l\n```\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n"
    );
    // Links as their text alone.
    let out = htmltok_stdin(
        &["text", "--format", "markdown", "--no-link-targets"],
        b"<p>See <a href=/x>this</a>.",
    );
    assert_eq!(stdout(&out), "See this.\n");
    // With main content, the article's Markdown.
    let out = htmltok_stdin(
        &["text", "--format", "markdown", "--main-content"],
        article().as_bytes(),
    );
    ok(&out);
    let text = stdout(&out);
    assert!(
        text.starts_with("# The ocean floor, mapped\n\nThe survey mapped"),
        "{text}"
    );
    assert!(
        !text.contains("Home") && !text.contains("Privacy"),
        "{text}"
    );
    // What does not go together, or is no format, is a usage error.
    for args in [
        &["text", "--format", "markdown", "--offsets"][..],
        &["text", "--no-link-targets"],
        &["text", "--format", "html"],
    ] {
        // Nothing on stdin: the command stops before it would read it.
        let out = htmltok(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("error:"), "{args:?}");
    }
    let help = stdout(&htmltok(&["text", "--help"]));
    assert!(help.contains("--format markdown"), "{help}");
}

#[test]
fn links_of_a_page_resolve_against_base() {
    let out = htmltok_stdin(&["links"], PAGE.as_bytes());
    ok(&out);
    let lines = json_lines(&out);
    let urls: Vec<(&str, &str, &str)> = lines
        .iter()
        .map(|l| {
            (
                l["tag"].as_str().unwrap(),
                l["attr"].as_str().unwrap(),
                l["url"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        urls,
        [
            ("base", "href", "https://example.com/shop/"),
            ("link", "href", "https://example.com/fish"),
            ("a", "href", "https://example.com/shop/cod.html"),
            ("img", "srcset", "https://example.com/shop/a.png"),
            ("img", "srcset", "https://example.com/shop/b.png"),
        ]
    );
    let a = &lines[2];
    assert_eq!(
        a,
        &json!({"file": "-", "tag": "a", "attr": "href", "url": "https://example.com/shop/cod.html",
                "start": a["start"], "end": a["end"], "anchor_text": "more"})
    );
    let span = |l: &Value| {
        &PAGE[l["start"].as_u64().unwrap() as usize..l["end"].as_u64().unwrap() as usize]
    };
    assert_eq!(span(a), "cod.html");
    assert_eq!(span(&lines[4]), "b.png");
}

#[test]
fn links_without_base_and_with_errors() {
    let html =
        "<a href=/rel>x</a><a href='HTTPS://Example.COM:443/a'>y</a><a href='http://[oops/'>z</a>";
    let out = htmltok_stdin(&["links"], html.as_bytes());
    ok(&out);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["url"], "/rel");
    assert!(lines[0].get("error").is_none());
    assert_eq!(lines[1]["url"], "https://example.com/a");
    assert_eq!(lines[2]["url"], "http://[oops/");
    assert_eq!(lines[2]["error"], "invalid IPv6 address");

    let out = htmltok_stdin(
        &["links", "--base-url", "https://site.test/dir/page"],
        html.as_bytes(),
    );
    ok(&out);
    assert_eq!(json_lines(&out)[0]["url"], "https://site.test/rel");
}

#[test]
fn meta_of_a_page() {
    let out = htmltok_stdin(&["meta"], PAGE.as_bytes());
    ok(&out);
    assert_eq!(
        json_lines(&out),
        [json!({
            "file": "-",
            "title": "Fish & Chips",
            "lang": "fr",
            "charset": "utf-8",
            "base": "https://example.com/shop/",
            "canonical": "https://example.com/fish",
            "robots": ["noindex", "follow"],
            "meta": [{"name": "robots", "content": "NOINDEX, follow"}],
            "description": null,
            "keywords": [],
            "alternates": [],
            "refresh": null,
            "open_graph": [],
            "twitter": [],
            "json_ld": [],
            "truncated": false,
        })]
    );
}

#[test]
fn errors_with_line_and_column() {
    let out = htmltok_stdin(&["errors"], PAGE.as_bytes());
    ok(&out);
    assert_eq!(
        stdout(&out),
        "-:16:17: duplicate-attribute\n1 parse error in 1 file\n  1 duplicate-attribute\n"
    );
    let out = htmltok_stdin(&["errors", "--no-summary"], b"<p>\n<a b='1'c>\n</p x>");
    ok(&out);
    assert_eq!(
        stdout(&out),
        "-:2:9: missing-whitespace-between-attributes\n-:3:6: end-tag-with-attributes\n"
    );
    let out = htmltok_stdin(&["errors", "--format", "json"], b"<p>\n<a b='1'c>");
    ok(&out);
    assert_eq!(
        json_lines(&out),
        [
            json!({"file": "-", "error": "missing-whitespace-between-attributes",
                   "offset": 12, "line": 2, "col": 9}),
            json!({"summary": {"errors": 1, "files": 1,
                   "codes": {"missing-whitespace-between-attributes": 1}}}),
        ]
    );
}

#[test]
fn stats_of_a_page() {
    let out = htmltok_stdin(
        &["stats", "--format", "json"],
        b"<!DOCTYPE html><p a=1 a=2>x<!--c--></p>",
    );
    ok(&out);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    let file = &lines[0];
    assert_eq!(file["file"], "-");
    assert_eq!(file["bytes"], 39);
    assert_eq!(
        file["tokens"],
        json!({"total": 5, "doctype": 1, "start_tag": 1, "end_tag": 1, "comment": 1, "text": 1})
    );
    assert_eq!(file["errors"], 1);
    assert!(file["seconds"].is_number() && file["mb_per_s"].is_number());
    let total = &lines[1]["total"];
    assert_eq!(
        (total["files"].as_u64(), total["failed"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(total["bytes"], 39);

    let out = htmltok_stdin(&["stats"], b"<p>x");
    ok(&out);
    let text = stdout(&out);
    assert!(
        text.starts_with("      bytes    tokens doctype start_tag"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2, "one input: no total line\n{text}");
    assert!(text.lines().nth(1).unwrap().ends_with("  -"), "{text}");
}

// ---------------------------------------------------------------------------
// Inputs: directories, gzip, order under --jobs
// ---------------------------------------------------------------------------

#[test]
fn directories_gzip_and_globs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("sub")).unwrap();
    fs::write(root.join("a.html"), "<p>alpha").unwrap();
    fs::write(root.join("sub/b.html.gz"), gzip(b"<p>beta &amp; gamma")).unwrap();
    fs::write(root.join("sub/c.htm"), "<p>delta").unwrap();
    fs::write(root.join("notes.txt"), "<p>not walked").unwrap();
    fs::write(root.join("page.php"), "<p>php").unwrap();

    let out = htmltok(&["text", s(root)]);
    ok(&out);
    let r = s(root);
    assert_eq!(
        stdout(&out),
        format!(
            "==> {r}/a.html <==\nalpha\n\n==> {r}/sub/b.html.gz <==\nbeta & gamma\n\n==> {r}/sub/c.htm <==\ndelta\n"
        )
    );

    // --glob replaces the defaults; a named file is read whatever its name.
    let out = htmltok(&[
        "text",
        "--glob",
        "*.php",
        s(root),
        s(&root.join("notes.txt")),
    ]);
    ok(&out);
    assert_eq!(
        stdout(&out),
        format!("==> {r}/page.php <==\nphp\n\n==> {r}/notes.txt <==\nnot walked\n")
    );

    // A blank line between texts, none before the first shown.
    let a = root.join("a.html");
    let a = s(&a);
    for jobs in ["1", "2"] {
        let out = htmltok(&["text", "-j", jobs, "missing.html", a, "missing.html", a]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            stdout(&out),
            format!("==> {a} <==\nalpha\n\n==> {a} <==\nalpha\n")
        );
    }

    // Gzip on stdin, and `tokens` on a gzipped file.
    let out = htmltok_stdin(&["text"], &gzip(b"<b>zipped</b>"));
    ok(&out);
    assert_eq!(stdout(&out), "zipped\n");
    let out = htmltok(&[
        "tokens",
        "--format",
        "html5lib",
        s(&root.join("sub/b.html.gz")),
    ]);
    ok(&out);
    assert_eq!(
        json_lines(&out),
        [json!({"output": [["StartTag", "p", {}, false], ["Character", "beta & gamma"]]})]
    );
}

#[test]
fn output_keeps_input_order_with_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let mut names = Vec::new();
    for i in 0..60 {
        // Early files are the big ones, so they finish last.
        let filler = "<p>filler text &amp; more</p>\n".repeat((60 - i) * 40);
        let page = format!("<title>page {i}</title><a href=\"/p/{i}\">{i}</a>{filler}");
        let path = dir.path().join(format!("{i:03}.html"));
        fs::write(&path, page).unwrap();
        names.push(s(&path).to_owned());
    }
    for jobs in ["1", "2", "4"] {
        let out = htmltok(&["links", "--jobs", jobs, s(dir.path())]);
        ok(&out);
        let files: Vec<String> = json_lines(&out)
            .iter()
            .map(|l| l["file"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(files, names, "--jobs {jobs}");

        let out = htmltok(&["meta", "-j", jobs, s(dir.path())]);
        ok(&out);
        let titles: Vec<String> = json_lines(&out)
            .iter()
            .map(|l| l["title"].as_str().unwrap().to_owned())
            .collect();
        let want: Vec<String> = (0..60).map(|i| format!("page {i}")).collect();
        assert_eq!(titles, want, "--jobs {jobs}");
    }
    // Named files keep the command line's order, not the names' order.
    let out = htmltok(&["errors", "--jobs", "2", &names[5], &names[1], &names[3]]);
    ok(&out);
    assert_eq!(stdout(&out), "0 parse errors in 3 files\n");
    let out = htmltok(&["stats", "--jobs", "2", &names[5], &names[1], &names[3]]);
    ok(&out);
    let rows: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.rsplit("  ").next().unwrap().to_owned())
        .collect();
    assert_eq!(
        rows,
        ["file", &names[5], &names[1], &names[3], "total (3 files)"]
    );
}

// ---------------------------------------------------------------------------
// Bad inputs and usage
// ---------------------------------------------------------------------------

#[test]
fn bad_inputs_are_reported_and_the_rest_processed() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    fs::write(p("good.html"), "<a href=x.html>good</a>").unwrap();
    fs::write(p("empty.html"), "").unwrap();
    fs::write(p("binary.html"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR<p>").unwrap();
    fs::write(p("notes.html"), "just some words, no markup at all\n").unwrap();
    fs::write(p("bad.html.gz"), "<p>not gzipped").unwrap();
    fs::write(p("bom-only.html"), b"\xEF\xBB\xBF").unwrap();
    let utf16: Vec<u8> = "\u{FEFF}<a href=u.html>utf</a>"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    fs::write(p("utf16.html"), utf16).unwrap();
    let missing = p("missing.html");
    let paths: Vec<String> = [
        "missing.html",
        "empty.html",
        "binary.html",
        "notes.html",
        "bad.html.gz",
        "bom-only.html",
        "good.html",
        // UTF-16 with a byte order mark is decoded, and processed.
        "utf16.html",
    ]
    .iter()
    .map(|name| s(&p(name)).to_owned())
    .collect();
    let files: Vec<&str> = paths.iter().map(String::as_str).collect();
    for command in [
        "tokens", "text", "links", "meta", "errors", "stats", "encoding",
    ] {
        // Only what cannot be read fails: an empty file, a binary one and
        // one without markup are pages too.
        let out = htmltok(&[&[command, "--jobs", "2"][..], &files].concat());
        assert_eq!(out.status.code(), Some(1), "{command}");
        let err = stderr(&out);
        let want = [
            format!("htmltok: {}: no such file or directory", s(&missing)),
            format!("htmltok: {}: not in gzip format", s(&p("bad.html.gz"))),
            "htmltok: 2 of 8 inputs failed".to_owned(),
        ];
        assert_eq!(err.lines().collect::<Vec<_>>(), want, "{command}");
        let signs: &[&str] = match command {
            "errors" => &["in 6 files\n"],
            "text" => &[
                "<==\ngood\n\n==> ",
                "notes.html <==\njust some words, no markup at all\n",
                "utf16.html <==\nutf\n",
            ],
            "encoding" => &[
                "good.html\twindows-1252\ttentative\n",
                "empty.html\twindows-1252\ttentative\n",
                "bom-only.html\tutf-8\tcertain\n",
                "utf16.html\tutf-16le\tcertain\n",
            ],
            "stats" => &["total (6 files, 2 failed)"],
            _ => &["good", "utf16"],
        };
        for sign in signs {
            assert!(stdout(&out).contains(sign), "{command}: {}", stdout(&out));
        }
        // With --skip-binary, the PNG is skipped, said so, and counted.
        let out = htmltok(&[&[command, "--jobs", "2", "--skip-binary"][..], &files].concat());
        assert_eq!(out.status.code(), Some(1), "{command}");
        let err = stderr(&out);
        let want = [
            format!("htmltok: {}: no such file or directory", s(&missing)),
            format!(
                "htmltok: {}: binary data (image/png), skipped (--skip-binary)",
                s(&p("binary.html"))
            ),
            format!("htmltok: {}: not in gzip format", s(&p("bad.html.gz"))),
            "htmltok: 2 of 8 inputs failed, 1 skipped as binary (--skip-binary)".to_owned(),
        ];
        assert_eq!(err.lines().collect::<Vec<_>>(), want, "{command}");
        if command == "stats" {
            assert!(stdout(&out).contains("total (5 files, 2 failed, 1 skipped)"));
        }
    }
    // Skipping on request is not a failure.
    let out = htmltok(&[
        "text",
        "--skip-binary",
        s(&p("binary.html")),
        s(&p("good.html")),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).ends_with("htmltok: 1 of 2 inputs skipped as binary (--skip-binary)\n"));
    // An empty stdin is an empty page.
    let out = htmltok(&["text"]);
    ok(&out);
    assert_eq!(stdout(&out), "");
}

#[test]
fn unreadable_directory_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    fs::create_dir(&locked).unwrap();
    fs::write(locked.join("x.html"), "<p>x").unwrap();
    fs::write(dir.path().join("y.html"), "<p>y").unwrap();
    let set_mode = |mode| {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&locked, fs::Permissions::from_mode(mode)).unwrap();
    };
    set_mode(0o000);
    let readable = fs::read_dir(&locked).is_ok(); // root reads anyway
    let out = htmltok(&["text", s(dir.path())]);
    set_mode(0o755);
    if readable {
        println!("running as root: permissions are not enforced, skipped");
        return;
    }
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!("htmltok: {}: permission denied\n", s(&locked))
    );
    assert!(stdout(&out).contains("y\n"));
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &["text", "--frobnicate"][..],
        &["links", "--base-url", "not a url"],
        &["stats", "--jobs", "0"],
        &["meta", "--jobs", "many"],
        &["errors", "--format", "xml"],
        &["text", "--glob", "[oops"],
        &["text", "--limit", "lots"],
        &["nonsense"],
    ] {
        let out = htmltok(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
        assert!(stdout(&out).is_empty());
    }
}

#[test]
fn closed_pipe_is_quiet_with_jobs() {
    let dir = tempfile::tempdir().unwrap();
    // Links too, so that `links` writes (and meets the closed pipe)
    // while it tokenizes.
    let page = "<p class=x>hello &amp; <a href=/w>world</a></p>\n".repeat(5_000);
    for i in 0..20 {
        fs::write(dir.path().join(format!("{i}.html")), &page).unwrap();
    }
    for command in ["text", "links", "meta", "errors", "stats", "tokens"] {
        for jobs in ["1", "2"] {
            let out = htmltok_into_closed_pipe(&[command, "--jobs", jobs, s(dir.path())]);
            assert_eq!(out.status.code(), Some(0), "{command} --jobs {jobs}");
            assert_eq!(stderr(&out), "", "{command} --jobs {jobs}");
        }
    }
}

// ---------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------

#[test]
fn every_corpus_page_passes_every_command() {
    let Some(dir) = corpus() else { return };
    for command in ["text", "links", "meta", "errors", "stats", "encoding"] {
        let out = htmltok(&[command, s(&dir)]);
        ok(&out);
        assert!(!out.stdout.is_empty(), "{command}");
    }
    // `tokens` prints ~100 MB for the corpus: one page is enough here.
    let out = htmltok(&["tokens", "--glob", "google.*", s(&dir)]);
    ok(&out);
    let lines = json_lines(&out);
    assert!(lines.len() > 500);
    assert!(
        lines
            .iter()
            .all(|l| l["file"] == s(&dir.join("google.html")))
    );
}

#[test]
fn corpus_meta() {
    let Some(dir) = corpus() else { return };
    let out = htmltok(&["meta", s(&dir)]);
    ok(&out);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 7);
    let by_name = |name: &str| {
        lines
            .iter()
            .find(|l| l["file"].as_str().unwrap().ends_with(name))
            .unwrap()
    };
    let amazon = by_name("/amazon.html");
    assert_eq!(
        amazon["title"],
        "Amazon.com: Online Shopping for Electronics, Apparel, Computers, Books, DVDs & more"
    );
    let es6 = by_name("/es6.html");
    assert_eq!(
        es6["title"],
        "ECMAScript Language Specification ECMA-262 6th Edition \u{2013} DRAFT"
    );
    let wikipedia = by_name("/wikipedia.html");
    assert_eq!(wikipedia["lang"], "en");
    assert_eq!(wikipedia["charset"], "UTF-8");
    assert_eq!(
        wikipedia["canonical"],
        "http://en.wikipedia.org/wiki/President_of_the_United_States"
    );
    assert!(
        wikipedia["meta"]
            .as_array()
            .unwrap()
            .contains(&json!({"name": "generator", "content": "MediaWiki 1.23wmf13"}))
    );
}

#[test]
fn corpus_links() {
    let Some(dir) = corpus() else { return };
    let page = dir.join("stackoverflow.html");
    let source = fs::read_to_string(&page).unwrap();
    let out = htmltok(&[
        "links",
        "--base-url",
        "https://stackoverflow.com/",
        s(&page),
    ]);
    ok(&out);
    let lines = json_lines(&out);
    let login = lines
        .iter()
        .find(|l| {
            l["url"]
                .as_str()
                .unwrap()
                .contains("/users/login?returnurl=")
        })
        .unwrap();
    assert_eq!(login["tag"], "a");
    assert_eq!(login["attr"], "href");
    assert_eq!(
        login["url"],
        "https://stackoverflow.com/users/login?returnurl=http%3a%2f%2fstackoverflow.com%2f&signup=true"
    );
    let (start, end) = (
        login["start"].as_u64().unwrap() as usize,
        login["end"].as_u64().unwrap() as usize,
    );
    assert_eq!(
        &source[start..end],
        "/users/login?returnurl=http%3a%2f%2fstackoverflow.com%2f&amp;signup=true"
    );
    assert!(
        lines
            .iter()
            .any(|l| l["url"] == "https://stackexchange.com/sites")
    );
    // Every span is an attribute value in the source.
    for l in &lines {
        let (start, end) = (
            l["start"].as_u64().unwrap() as usize,
            l["end"].as_u64().unwrap() as usize,
        );
        assert!(start < end && end <= source.len(), "{l}");
        assert!(!source[start..end].contains('<'), "{l}");
    }
}

#[test]
fn corpus_text() {
    let Some(dir) = corpus() else { return };
    let out = htmltok(&["text", s(&dir.join("wikipedia.html"))]);
    ok(&out);
    let text = stdout(&out);
    assert!(
        text.starts_with("President of the United States\n"),
        "{}",
        &text[..200]
    );
    assert!(
        text.contains(
            "The President of the United States of America (POTUS)[7] is the head of state"
        )
    );
    // No title, script or style text; no blank lines or stray spaces.
    assert!(!text.contains("Wikipedia, the free encyclopedia\nFrom"));
    assert!(!text.contains("mw.loader") && !text.contains("function("));
    assert!(text.lines().all(|l| !l.is_empty() && l.trim() == l));

    let page = dir.join("google.html");
    let source = fs::read_to_string(&page).unwrap();
    let out = htmltok(&["text", "--offsets", s(&page)]);
    ok(&out);
    for l in json_lines(&out) {
        let (start, end) = (
            l["start"].as_u64().unwrap() as usize,
            l["end"].as_u64().unwrap() as usize,
        );
        let raw = &source[start..end];
        if !raw.contains('&') {
            let collapsed: Vec<&str> = raw.split_ascii_whitespace().collect();
            assert_eq!(l["text"], collapsed.join(" "), "{l}");
        }
    }
}

#[test]
fn corpus_errors() {
    let Some(dir) = corpus() else { return };
    let out = htmltok(&["errors", s(&dir)]);
    ok(&out);
    let amazon = s(&dir.join("amazon.html")).to_owned();
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "{amazon}:1189:297: missing-whitespace-between-attributes\n"
        )),
        "{text}"
    );
    assert!(text.contains("in 7 files\n"), "{text}");
}

#[test]
fn corpus_stats() {
    let Some(dir) = corpus() else { return };
    let pages = corpus_pages(&dir);
    let sizes: Vec<u64> = pages
        .iter()
        .map(|p| fs::metadata(p).unwrap().len())
        .collect();
    for jobs in ["1", "2"] {
        let out = htmltok(&["stats", "--format", "json", "--jobs", jobs, s(&dir)]);
        ok(&out);
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 8);
        for ((line, page), size) in lines.iter().zip(&pages).zip(&sizes) {
            assert_eq!(line["file"], s(page));
            assert_eq!(line["bytes"].as_u64(), Some(*size));
            assert!(line["tokens"]["total"].as_u64().unwrap() > 100);
        }
        let total = &lines[7]["total"];
        assert_eq!(total["bytes"].as_u64(), Some(sizes.iter().sum()));
        assert_eq!(total["files"], 7);
        assert_eq!(total["jobs"].as_u64(), Some(jobs.parse().unwrap()));
        let doctypes: u64 = lines[..7]
            .iter()
            .map(|l| l["tokens"]["doctype"].as_u64().unwrap())
            .sum();
        assert_eq!(total["tokens"]["doctype"].as_u64(), Some(doctypes));
    }
    // The table: a header, a row per page, the total; no progress bar when
    // stderr is not a terminal.
    let out = htmltok(&["stats", s(&dir)]);
    ok(&out);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    assert!(lines[8].ends_with("  total (7 files)"), "{text}");
    let out = htmltok(&["stats", "--total", s(&dir)]);
    ok(&out);
    assert_eq!(stdout(&out).lines().count(), 2);
}
