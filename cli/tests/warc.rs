//! WARC archives as inputs (issue 15, item 3): every command reads the
//! archives warcio wrote (tests/warc/, see tools/gen_warc_fixtures.py and
//! its manifest), one result per HTML record, each carrying the record's
//! fields, equal to the results of the same page as a file.

mod helpers;

use std::fs;
use std::path::{Path, PathBuf};

use helpers::*;
use serde_json::{Value, json};

/// A fixture of tests/warc/.
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/warc")
        .join(name)
}

/// The manifest's records (`records`, or `bad_records`).
fn manifest(list: &str) -> Vec<Value> {
    let text = fs::read_to_string(fixture("manifest.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    manifest[list].as_array().unwrap().clone()
}

/// The good archive's HTML records, in order.
fn pages() -> Vec<Value> {
    let pages: Vec<Value> = manifest("records")
        .into_iter()
        .filter(|r| r["html"] == true)
        .collect();
    assert_eq!(pages.len(), 9);
    pages
}

/// The fields a record's results carry.
const RECORD_FIELDS: [&str; 5] = ["file", "uri", "record_id", "date", "status"];

/// A result without its label, and without what depends on time.
fn unlabelled(line: &Value) -> Value {
    let mut line = line.clone();
    let object = line.as_object_mut().unwrap();
    for field in RECORD_FIELDS.iter().chain(&["seconds", "mb_per_s"]) {
        object.remove(*field);
    }
    line
}

/// The lines of `lines` that belong to the record `id`, unlabelled.
fn of_record(lines: &[Value], id: &Value) -> Vec<Value> {
    lines
        .iter()
        .filter(|l| l["record_id"] == *id)
        .map(unlabelled)
        .collect()
}

/// `command` over the page of manifest record `page` as a file: with its
/// transport charset as `--encoding` (as `--transport-charset` for
/// `encoding`), and for `links` and `meta` its URI as `--base-url`.
fn as_file(command: &[&str], page: &Value) -> std::process::Output {
    let file = fixture(&format!("pages/{}", page["page"].as_str().unwrap()));
    let mut args: Vec<String> = command.iter().map(|a| a.to_string()).collect();
    if let Some(charset) = page["charset"].as_str() {
        let option = if command[0] == "encoding" {
            "--transport-charset"
        } else {
            "--encoding"
        };
        args.extend([option.to_owned(), charset.to_owned()]);
    }
    if ["links", "meta"].contains(&command[0]) {
        args.extend([
            "--base-url".to_owned(),
            page["uri"].as_str().unwrap().to_owned(),
        ]);
    }
    args.push(s(&file).to_owned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = htmltok(&args);
    ok(&out);
    out
}

#[test]
fn every_record_gives_what_its_page_gives_as_a_file() {
    let archive = fixture("good.warc.gz");
    let commands: [&[&str]; 6] = [
        &["links"],
        &["meta"],
        &["errors", "--format", "json", "--no-summary"],
        &["stats", "--format", "json"],
        &["tokens", "--errors"],
        &["text", "--offsets"],
    ];
    for command in commands {
        let out = htmltok(&[command, &[s(&archive)][..]].concat());
        ok(&out);
        let lines = json_lines(&out);
        for page in pages() {
            let got = of_record(&lines, &page["id"]);
            let want: Vec<Value> = json_lines(&as_file(command, &page))
                .iter()
                .filter(|l| l.get("total").is_none())
                .map(unlabelled)
                .collect();
            assert_eq!(got, want, "{command:?} {}", page["uri"]);
        }
    }
    // Plain text: a JSON line per record, its text as the file's.
    let out = htmltok(&["text", s(&archive)]);
    ok(&out);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 9);
    for (line, page) in lines.iter().zip(pages()) {
        let text = stdout(&as_file(&["text"], &page));
        assert_eq!(line["text"], text.trim_end_matches('\n'), "{}", page["uri"]);
    }
    // encoding: the page's, then the record's columns.
    let out = htmltok(&["encoding", s(&archive)]);
    ok(&out);
    let rows: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    assert_eq!(rows.len(), 9);
    for (row, page) in rows.iter().zip(pages()) {
        let file = stdout(&as_file(&["encoding"], &page));
        let columns: Vec<&str> = row.split('\t').collect();
        let file: Vec<&str> = file.trim_end().split('\t').collect();
        assert_eq!(columns[1..3], file[1..3], "{row}");
        let status = page["status"]
            .as_u64()
            .map_or("-".to_owned(), |s| s.to_string());
        let want = [
            s(&archive),
            page["uri"].as_str().unwrap(),
            page["id"].as_str().unwrap(),
            page["date"].as_str().unwrap(),
            &status,
        ];
        assert_eq!(
            [columns[0], columns[3], columns[4], columns[5], columns[6]],
            want
        );
    }
}

#[test]
fn results_carry_the_record_fields() {
    for name in ["good.warc", "good.warc.gz", "good-whole.warc.gz"] {
        let archive = fixture(name);
        let out = htmltok(&["meta", s(&archive)]);
        ok(&out);
        let lines = json_lines(&out);
        let labels: Vec<Value> = lines
            .iter()
            .map(|l| Value::Array(RECORD_FIELDS.iter().map(|f| l[*f].clone()).collect()))
            .collect();
        let want: Vec<Value> = pages()
            .iter()
            .map(|p| json!([s(&archive), p["uri"], p["id"], p["date"], p["status"]]))
            .collect();
        assert_eq!(labels, want, "{name}");
        // "file" first, then the record's fields, then the command's.
        let keys: Vec<&String> = lines[0].as_object().unwrap().keys().take(6).collect();
        assert_eq!(
            keys,
            ["file", "uri", "record_id", "date", "status", "title"]
        );
        // The Cyrillic page's charset is only in its HTTP header.
        assert_eq!(lines[1]["title"], "Привет");
        // A resource record has no status; the 404 page is a page.
        assert_eq!(lines[5]["status"], Value::Null);
        assert_eq!(lines[8]["status"], 404);
    }
}

#[test]
fn links_resolve_against_the_target_uri() {
    let out = htmltok(&[
        "links",
        "--base-url",
        "https://elsewhere.example/",
        s(&fixture("good.warc")),
    ]);
    ok(&out);
    let menu: Vec<Value> = json_lines(&out)
        .into_iter()
        .filter(|l| l["uri"] == "https://example.com/menu/today.html")
        .map(|l| l["url"].clone())
        .collect();
    assert_eq!(
        menu,
        ["https://example.com/peas.html", "https://example.com/hours"]
    );
}

#[test]
fn text_records_are_json_lines() {
    let archive = fixture("good.warc.gz");
    let out = htmltok(&["text", s(&archive)]);
    ok(&out);
    let first = &json_lines(&out)[0];
    assert_eq!(
        *first,
        json!({
            "file": s(&archive),
            "uri": "https://example.com/menu/today.html",
            "record_id": "<urn:uuid:00000000-0000-4000-8000-000000000003>",
            "date": "2024-05-01T12:00:03Z",
            "status": 200,
            "text": "Menu\nCod, chips and mushy peas.\nOpen every day.",
        })
    );
    // Two archives and a page: no blank line among the JSON lines.
    let page = fixture("pages/gone.html");
    let out = htmltok(&["text", s(&archive), s(&fixture("good.warc")), s(&page)]);
    ok(&out);
    let text = stdout(&out);
    let (records, rest) = text.split_at(text.find("==> ").unwrap());
    assert_eq!(records.lines().count(), 18);
    assert!(
        records.lines().all(|l| l.starts_with("{\"file\":")),
        "{records}"
    );
    assert_eq!(
        rest,
        format!("==> {} <==\nThis page is gone. Home\n", s(&page))
    );
}

#[test]
fn main_content_records_say_which_case_applied() {
    let archive = fixture("good.warc.gz");
    let out = htmltok(&["text", "--main-content", s(&archive)]);
    ok(&out);
    let lines = json_lines(&out);
    assert_eq!(
        lines.len(),
        json_lines(&htmltok(&["text", s(&archive)])).len()
    );
    for line in &lines {
        let case = line["main_content"].as_str().unwrap();
        assert!(["found", "all_text", "empty"].contains(&case), "{line}");
        assert_eq!(case == "empty", line["text"] == "", "{line}");
    }
}

#[test]
fn markdown_records_hold_the_text_as_markdown() {
    let archive = fixture("good.warc.gz");
    let plain = json_lines(&htmltok(&["text", s(&archive)]));
    let out = htmltok(&["text", "--format", "markdown", s(&archive)]);
    ok(&out);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), plain.len());
    for (md, plain) in lines.iter().zip(&plain) {
        assert_eq!(md["record_id"], plain["record_id"]);
        assert!(md.get("main_content").is_none(), "{md}");
        // The same words, give or take the markup's own characters.
        let words = |v: &Value| v["text"].as_str().unwrap().split_whitespace().count();
        assert!(
            words(md) >= words(plain) / 2 && words(md) <= words(plain) * 2,
            "{md}"
        );
    }
}

#[test]
fn revisits_and_other_records_are_counted_not_errors() {
    let archive = fixture("good.warc.gz");
    let out = htmltok(&["stats", "--format", "json", s(&archive)]);
    ok(&out);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 10);
    let total = &lines[9]["total"];
    let counts: Vec<&Value> = [
        "files",
        "archives",
        "records",
        "revisits",
        "skipped_by_type",
    ]
    .iter()
    .map(|f| &total[*f])
    .collect();
    assert_eq!(counts, [1, 1, 9, 1, 4]);
    assert_eq!(total["archive_errors"], 0);
    let out = htmltok(&["stats", "--total", s(&archive)]);
    ok(&out);
    assert!(
        stdout(&out)
            .contains("total (1 files; 9 pages from 1 archives, 1 revisits, 4 skipped by type)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn bad_archives_report_each_error_once_and_go_on() {
    let archive = fixture("bad-records.warc");
    let bad = manifest("bad_records");
    for command in [
        "text", "links", "meta", "errors", "stats", "tokens", "encoding",
    ] {
        let out = htmltok(&[command, s(&archive)]);
        assert_eq!(out.status.code(), Some(1), "{command}");
        let err = stderr(&out);
        let want: Vec<String> = [
            (2, "no WARC-Target-URI in a response or resource record"),
            (
                4,
                "the response record's content is not an HTTP response (no status line)",
            ),
            (6, "HTTP header: "),
        ]
        .iter()
        .map(|(n, what)| {
            let offset = &bad[n - 1]["offset"];
            format!(
                "htmltok: {}: record {n} (offset {offset}): {what}",
                s(&archive)
            )
        })
        .collect();
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 3, "{command}: {err}");
        for (line, want) in lines.iter().zip(&want) {
            assert!(line.starts_with(want.as_str()), "{command}: {line}");
        }
        // The good pages around each are all there (they have no links,
        // and no parse errors: `errors` counts them).
        match command {
            "links" => assert_eq!(stdout(&out), ""),
            "errors" => assert_eq!(stdout(&out), "0 parse errors in 4 files\n"),
            _ => {
                for k in 1..=4 {
                    let uri = format!("https://example.com/good/{k}");
                    assert!(stdout(&out).contains(&uri), "{command}: {uri}");
                }
            }
        }
    }
    // Damaged gzip members, garbage, wrong lengths: one error each, and
    // the pages of the records around them.
    let cases = [
        ("bad-truncated-gzip.warc.gz", 2, 9),
        ("bad-gzip-garbage.warc.gz", 1, 9),
        ("bad-past-end.warc", 1, 8),
        ("bad-short-length.warc", 1, 8),
        ("bad-garbage.warc", 1, 9),
    ];
    for (name, errors, pages) in cases {
        let archive = fixture(name);
        let out = htmltok(&["meta", s(&archive)]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = stderr(&out);
        let prefix = format!("htmltok: {}: record ", s(&archive));
        assert_eq!(err.lines().count(), errors, "{name}: {err}");
        assert!(err.lines().all(|l| l.starts_with(&prefix)), "{name}: {err}");
        assert_eq!(json_lines(&out).len(), pages, "{name}");
    }
    // With other inputs, the archive counts as an input that failed.
    let page = fixture("pages/gone.html");
    let out = htmltok(&["text", s(&archive), s(&page)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).ends_with("htmltok: 1 of 2 inputs failed\n"));
}

#[test]
fn archives_are_known_by_content_and_found_in_folders() {
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("crawl.dat");
    fs::copy(fixture("good.warc.gz"), &renamed).unwrap();
    let plain = dir.path().join("sub/plain.bin");
    fs::create_dir_all(plain.parent().unwrap()).unwrap();
    fs::copy(fixture("good.warc"), &plain).unwrap();
    let want = stdout(&htmltok(&["links", s(&fixture("good.warc.gz"))]));
    for path in [&renamed, &plain] {
        let out = htmltok(&["links", s(path)]);
        ok(&out);
        let name = serde_json::to_string(s(path)).unwrap();
        let original = serde_json::to_string(s(&fixture("good.warc.gz"))).unwrap();
        assert_eq!(stdout(&out).replace(&name, &original), want);
    }
    // Standard input too.
    let out = htmltok_stdin(&["links"], &fs::read(fixture("good.warc.gz")).unwrap());
    ok(&out);
    let original = serde_json::to_string(s(&fixture("good.warc.gz"))).unwrap();
    assert_eq!(stdout(&out).replace("\"-\"", &original), want);
    // A walk finds *.warc and *.warc.gz next to pages.
    fs::copy(fixture("good.warc"), dir.path().join("sub/a.warc")).unwrap();
    fs::copy(fixture("good.warc.gz"), dir.path().join("b.warc.gz")).unwrap();
    fs::copy(fixture("pages/gone.html"), dir.path().join("c.html")).unwrap();
    let out = htmltok(&["meta", s(dir.path())]);
    ok(&out);
    let files: Vec<String> = json_lines(&out)
        .iter()
        .map(|l| {
            l["file"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    let mut want = vec!["b.warc.gz"; 9];
    want.push("c.html");
    want.extend(["a.warc"; 9]);
    assert_eq!(files, want);
}

#[test]
fn jobs_spread_archives_and_keep_their_order() {
    let archives = [
        fixture("good.warc.gz"),
        fixture("bad-records.warc"),
        fixture("good.warc"),
    ];
    let page = fixture("pages/menu.html");
    let files = [s(&archives[0]), s(&page), s(&archives[1]), s(&archives[2])];
    for command in ["text", "links", "errors", "tokens", "encoding"] {
        let run = |jobs: &str| htmltok(&[&[command, "--jobs", jobs][..], &files].concat());
        let (one, two) = (run("1"), run("2"));
        assert_eq!(one.status.code(), Some(1));
        assert_eq!(two.status.code(), Some(1));
        assert!(
            one.stdout == two.stdout,
            "{command}: {}",
            first_difference(&one.stdout, &two.stdout)
        );
        assert_eq!(stderr(&one), stderr(&two), "{command}");
    }
}

#[test]
fn with_one_job_each_error_comes_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("both");
    let file = fs::File::create(&both).unwrap();
    let archive = fixture("bad-records.warc");
    let status = std::process::Command::new(BIN)
        .args(["text", "--jobs", "1", s(&archive)])
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let lines: Vec<String> = fs::read_to_string(&both)
        .unwrap()
        .lines()
        .map(|l| match serde_json::from_str::<Value>(l) {
            Ok(line) => line["uri"].as_str().unwrap().to_owned(),
            Err(_) => l.split(": ").nth(2).unwrap().to_owned(),
        })
        .collect();
    let want = [
        "https://example.com/good/1",
        "record 2 (offset 482)",
        "https://example.com/good/2",
        "record 4 (offset 1365)",
        "https://example.com/good/3",
        "record 6 (offset 2254)",
        "https://example.com/good/4",
    ];
    assert_eq!(lines, want);
}

#[test]
fn an_encoding_the_user_chose_wins_over_the_http_charset() {
    let archive = fixture("good.warc");
    let out = htmltok(&["text", "--encoding", "windows-1252", s(&archive)]);
    ok(&out);
    let privet = &json_lines(&out)[1];
    assert_eq!(privet["uri"], "http://example.ru/privet");
    // windows-1251 bytes read as windows-1252.
    assert_eq!(privet["text"], "Ïðèâåò, ìèð! Äàëüøå");
    let out = htmltok(&["encoding", "--transport-charset", "iso-8859-2", s(&archive)]);
    ok(&out);
    let row = stdout(&out).lines().nth(1).unwrap().to_owned();
    assert!(
        row.contains("\tiso-8859-2\tcertain\thttp://example.ru/privet\t"),
        "{row}"
    );
}
