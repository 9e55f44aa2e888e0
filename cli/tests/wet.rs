//! `htmltok wet` (issue 43, part 2): WET files of the archives warcio
//! wrote (tests/warc/), read back with the library's reader: Common
//! Crawl's layout, digests that verify, each record's text what `htmltok
//! text` prints for the same record, damage reported and skipped, and no
//! WET file left by an archive that could not be converted.

mod helpers;

use std::fs;
use std::path::{Path, PathBuf};

use helpers::*;
use htmltok::warc::{Reader, Record, RecordKind, sha1_digest};
use serde_json::Value;

/// A fixture of tests/warc/.
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/warc")
        .join(name)
}

/// Every record of a WARC file, none damaged.
fn records(path: &Path) -> Vec<Record> {
    Reader::open(path)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The files of a directory, by name.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Checks `wet`, written from `archive`, and returns its records.
fn check_wet(wet: &Path, archive: &Path) -> Vec<Record> {
    let records = records(wet);
    let info = &records[0];
    assert_eq!(info.version(), "1.0");
    assert_eq!(info.kind(), &RecordKind::Warcinfo);
    let names: Vec<&str> = info.headers().iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "WARC-Type",
            "WARC-Date",
            "WARC-Filename",
            "WARC-Record-ID",
            "Content-Type",
            "Content-Length"
        ]
    );
    let filename = wet.file_name().unwrap().to_str().unwrap();
    assert_eq!(info.header("WARC-Filename"), Some(filename));
    assert_eq!(info.content_type(), Some("application/warc-fields"));
    let block = String::from_utf8(info.block().to_vec()).unwrap();
    assert!(block.starts_with("Software-Info: htmltok/"), "{block}");
    assert!(block.contains("\r\nExtracted-Date: "), "{block}");

    // `htmltok text` of each record, by record id.
    let out = htmltok(&["text", s(archive)]);
    let texts: Vec<Value> = json_lines(&out);
    let text_of = |id: &str| {
        texts
            .iter()
            .find(|l| l["record_id"] == id)
            .map(|l| l["text"].as_str().unwrap().to_owned())
    };
    for record in &records[1..] {
        assert_eq!(record.version(), "1.0");
        assert_eq!(record.kind(), &RecordKind::Conversion);
        let names: Vec<&str> = record.headers().iter().map(|(n, _)| n.as_str()).collect();
        let order = [
            "WARC-Type",
            "WARC-Target-URI",
            "WARC-Date",
            "WARC-Record-ID",
            "WARC-Refers-To",
            "WARC-Block-Digest",
            "WARC-Identified-Content-Language",
            "Content-Type",
            "Content-Length",
        ];
        let want: Vec<&str> = order.into_iter().filter(|n| names.contains(n)).collect();
        assert_eq!(names, want);
        assert_eq!(names.len(), 8);
        assert_eq!(record.content_type(), Some("text/plain"));
        assert_eq!(
            record.header("WARC-Block-Digest"),
            Some(sha1_digest(record.block()).as_str())
        );
        let refers_to = record.header("WARC-Refers-To").unwrap();
        let text = text_of(refers_to).expect("a record htmltok text printed");
        assert_eq!(record.block(), text.as_bytes(), "{refers_to}");
        let line = texts.iter().find(|l| l["record_id"] == refers_to).unwrap();
        assert_eq!(record.target_uri(), line["uri"].as_str());
        assert_eq!(record.date(), line["date"].as_str());
    }
    // Every non-empty text has its record.
    let non_empty = texts.iter().filter(|l| l["text"] != "").count();
    assert_eq!(records.len() - 1, non_empty);
    records
}

#[test]
fn the_fixtures_wet_files_are_common_crawls_layout_with_htmltok_texts() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("wet");
    let good = ["good.warc.gz", "good-whole.warc.gz"].map(fixture);
    let mut args = vec!["wet", "-o", s(&out_dir), "--jobs", "2"];
    args.extend(good.iter().map(|p| s(p)));
    let out = htmltok(&args);
    ok(&out);
    assert_eq!(
        names(&out_dir),
        ["good-whole.warc.wet.gz", "good.warc.wet.gz"]
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    for (line, archive) in lines.iter().zip(&good) {
        assert_eq!(line["file"], s(archive));
        assert_eq!(line["records"], 17);
        assert_eq!(line["html"], 9);
        assert_eq!(line["not_html"], 8);
        assert_eq!(line["errors"], 0);
        assert_eq!(line["conversions"], 9);
    }
    let wet = out_dir.join("good-whole.warc.wet.gz");
    let records = check_wet(&wet, &fixture("good-whole.warc.gz"));
    assert_eq!(records.len(), 10);
    // A gzip member per record: each record at an offset of its own.
    let data = fs::read(&wet).unwrap();
    for record in &records {
        let offset = record.position().offset().unwrap() as usize;
        assert_eq!(&data[offset..offset + 3], b"\x1f\x8b\x08");
    }
    // Beside the archive by default.
    let copy = dir.path().join("CC-MAIN-x-00000.warc.gz");
    fs::copy(fixture("good.warc.gz"), &copy).unwrap();
    ok(&htmltok(&["wet", s(&copy)]));
    check_wet(&dir.path().join("CC-MAIN-x-00000.warc.wet.gz"), &copy);
}

#[test]
fn main_content_records_hold_what_text_main_content_prints() {
    let dir = tempfile::tempdir().unwrap();
    let wet = dir.path().join("main.wet");
    let archive = fixture("good.warc");
    ok(&htmltok(&[
        "wet",
        "--main-content",
        "-o",
        s(&wet),
        s(&archive),
    ]));
    let texts = json_lines(&htmltok(&["text", "--main-content", s(&archive)]));
    let records = records(&wet);
    assert!(records.len() > 1);
    for record in &records[1..] {
        let id = record.header("WARC-Refers-To").unwrap();
        let line = texts.iter().find(|l| l["record_id"] == id).unwrap();
        assert_eq!(record.block(), line["text"].as_str().unwrap().as_bytes());
    }
}

#[test]
fn markdown_records_hold_what_text_format_markdown_prints() {
    let dir = tempfile::tempdir().unwrap();
    let wet = dir.path().join("md.wet");
    let archive = fixture("good.warc");
    ok(&htmltok(&[
        "wet",
        "--format",
        "markdown",
        "-o",
        s(&wet),
        s(&archive),
    ]));
    let texts = json_lines(&htmltok(&["text", "--format", "markdown", s(&archive)]));
    let records = records(&wet);
    assert!(records.len() > 1);
    for record in &records[1..] {
        assert_eq!(record.header("Content-Type"), Some("text/markdown"));
        let id = record.header("WARC-Refers-To").unwrap();
        let line = texts.iter().find(|l| l["record_id"] == id).unwrap();
        assert_eq!(record.block(), line["text"].as_str().unwrap().as_bytes());
    }
}

#[test]
fn one_archive_to_a_named_file_plain_or_gzipped() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("text.warc");
    ok(&htmltok(&[
        "wet",
        "-o",
        s(&plain),
        s(&fixture("good.warc")),
    ]));
    let data = fs::read(&plain).unwrap();
    assert!(data.starts_with(b"WARC/1.0\r\nWARC-Type: warcinfo\r\n"));
    check_wet(&plain, &fixture("good.warc"));
    let gzipped = dir.path().join("text.wet.gz");
    ok(&htmltok(&[
        "wet",
        "--alt-text",
        "-o",
        s(&gzipped),
        s(&fixture("good.warc")),
    ]));
    assert!(fs::read(&gzipped).unwrap().starts_with(b"\x1f\x8b"));
    assert_eq!(names(dir.path()), ["text.warc", "text.wet.gz"]);
}

#[test]
fn damaged_records_are_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let archive = fixture("bad-records.warc");
    let out = htmltok(&["wet", "-o", s(dir.path()), s(&archive)]);
    assert_eq!(out.status.code(), Some(1));
    let errors = stderr(&out);
    let reports: Vec<&str> = errors.lines().collect();
    assert_eq!(reports.len(), 3, "{errors}");
    for report in &reports {
        assert!(
            report.starts_with(&format!("htmltok: {}: record ", s(&archive))),
            "{report}"
        );
    }
    let line = &json_lines(&out)[0];
    assert_eq!(line["errors"], 3);
    // What could be read is converted all the same.
    let wet = dir.path().join("bad-records.warc.wet.gz");
    assert_eq!(line["wet"], s(&wet));
    let records = check_wet(&wet, &archive);
    assert_eq!(line["conversions"], (records.len() - 1) as u64);
}

#[test]
fn an_archive_that_cannot_be_read_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.warc.gz");
    let out_dir = dir.path().join("out");
    let out = htmltok(&[
        "wet",
        "-o",
        s(&out_dir),
        s(&missing),
        s(&fixture("good.warc")),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let errors = stderr(&out);
    assert!(
        errors.contains(&format!("htmltok: {}: ", s(&missing))),
        "{errors}"
    );
    assert!(
        errors.ends_with("htmltok: 1 of 2 inputs failed\n"),
        "{errors}"
    );
    assert_eq!(names(&out_dir), ["good.warc.wet.gz"]);
    assert_eq!(json_lines(&out).len(), 1);

    // A truncated archive: its records up to the cut, and a report.
    let cut = dir.path().join("cut.warc.gz");
    let data = fs::read(fixture("good.warc.gz")).unwrap();
    fs::write(&cut, &data[..data.len() / 2]).unwrap();
    let out = htmltok(&["wet", s(&cut)]);
    assert_eq!(out.status.code(), Some(1));
    let wet = dir.path().join("cut.warc.wet.gz");
    let records = check_wet(&wet, &cut);
    assert!(records.len() > 1 && records.len() < 10);
    assert!(
        !names(dir.path()).iter().any(|n| n.contains("tmp")),
        "{:?}",
        names(dir.path())
    );
}

#[test]
fn usage_and_help() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    fs::write(&file, "").unwrap();
    let good = fixture("good.warc");
    let message = usage_error(&htmltok(&["wet", "-o", s(&file), s(&good), s(&good)]));
    assert!(message.contains("-o names a directory"), "{message}");
    usage_error(&htmltok(&["wet"]));
    let help = stdout(&htmltok(&["wet", "--help"]));
    assert!(help.contains("WARC-Refers-To"), "{help}");
    assert!(
        help.contains("htmltok wet CC-MAIN-20240101000000-00000.warc.gz"),
        "{help}"
    );
    let help = stdout(&htmltok(&["--help"]));
    assert!(help.contains("htmltok wet "), "{help}");
}
