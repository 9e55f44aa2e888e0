//! The WARC reader against archives written by an independent writer
//! (warcio, through `tools/gen_warc_fixtures.py`, which also writes
//! `tests/warc/manifest.json`: what warcio read back from them).
//!
//! Good archives in three layouts (plain, a gzip member per record, one
//! gzip member for the file) give exactly the manifest's records, offsets
//! and pages; damaged ones give each damage once, as an error saying which
//! record and where, and every record before and after it.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use htmltok::extract::{ExtractOptions, extract};
use htmltok::url::Url;
use htmltok::warc::{
    HtmlRecord, Reader, ReaderOptions, Record, RecordKind, WarcError, WarcErrorKind,
};
use htmltok::{DecodeOptions, Document};
use htmltok_test_support::warc as invariants;
use htmltok_test_support::warc_writer as writer;
use serde_json::Value;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/warc")
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("tests/warc/{name}: {e}"))
}

fn manifest() -> Value {
    serde_json::from_slice(&fixture("manifest.json")).unwrap()
}

/// The manifest's good records.
fn records() -> Vec<Value> {
    manifest()["records"].as_array().unwrap().clone()
}

fn read(name: &str) -> Vec<Result<Record, WarcError>> {
    Reader::new(Cursor::new(fixture(name))).collect()
}

fn str_of(v: &Value) -> Option<&str> {
    v.as_str()
}

/// A record is the manifest's entry: type, URI, id, date.
fn assert_record(record: &Record, want: &Value) {
    assert_eq!(
        record.kind().as_str(),
        want["type"].as_str().unwrap(),
        "{want}"
    );
    assert_eq!(record.target_uri(), str_of(&want["uri"]), "{want}");
    assert_eq!(record.record_id(), str_of(&want["id"]), "{want}");
    assert_eq!(record.date(), str_of(&want["date"]), "{want}");
    assert_eq!(record.version(), "1.1");
}

/// What an item is, in short, to compare sequences: `ok ID` or `error N
/// KIND`.
fn summary(item: &Result<Record, WarcError>) -> String {
    match item {
        Ok(record) => format!("ok {}", record.record_id().unwrap_or("-")),
        Err(error) => format!(
            "error {} {}",
            error.position().number(),
            kind_name(error.kind())
        ),
    }
}

fn kind_name(kind: &WarcErrorKind) -> &'static str {
    match kind {
        WarcErrorKind::Io(_) => "io",
        WarcErrorKind::Gzip(_) => "gzip",
        WarcErrorKind::Garbage { .. } => "garbage",
        WarcErrorKind::Header(_) => "header",
        WarcErrorKind::Truncated { .. } => "truncated",
        WarcErrorKind::Length { .. } => "length",
        WarcErrorKind::TooLarge { .. } => "too-large",
        WarcErrorKind::MissingTargetUri => "missing-target-uri",
        WarcErrorKind::NotHttp => "not-http",
        WarcErrorKind::HttpHeader(_) => "http-header",
        WarcErrorKind::HttpBody(_) => "http-body",
        _ => "other",
    }
}

fn ok_ids(range: std::ops::Range<usize>) -> Vec<String> {
    let records = records();
    range
        .map(|i| format!("ok {}", records[i]["id"].as_str().unwrap()))
        .collect()
}

/// Reads `name` and checks that it gives the good records with one error
/// (`error N KIND`) at index `at`, in place of the record there when
/// `lost`.
fn one_error(name: &str, at: usize, error: &str, lost: bool) -> Vec<Result<Record, WarcError>> {
    let items = read(name);
    let mut want = ok_ids(0..17);
    if lost {
        want[at] = error.to_string();
    } else {
        want.insert(at, error.to_string());
    }
    assert_eq!(
        items.iter().map(summary).collect::<Vec<_>>(),
        want,
        "{name}"
    );
    items
}

#[test]
fn good_archives_give_the_manifest_records() {
    let manifest = manifest();
    let want = records();
    let gzip_offsets: Vec<u64> = manifest["gzip_offsets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    for name in ["good.warc", "good.warc.gz", "good-whole.warc.gz"] {
        let items = read(name);
        assert_eq!(items.len(), want.len(), "{name}");
        for (i, (item, want)) in items.iter().zip(&want).enumerate() {
            let record = item.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_record(record, want);
            assert_eq!(record.position().number(), i as u64 + 1);
            let offset = match name {
                "good.warc" => want["offset"].as_u64(),
                "good.warc.gz" => Some(gzip_offsets[i]),
                _ => (i == 0).then_some(0),
            };
            assert_eq!(
                record.position().offset(),
                offset,
                "{name} record {}",
                i + 1
            );
            assert_eq!(
                record.position().stream_offset(),
                want["offset"].as_u64().unwrap()
            );
        }
    }
    let reader = Reader::new(Cursor::new(fixture("good.warc.gz")));
    assert!(reader.is_compressed());
    assert!(!Reader::new(Cursor::new(fixture("good.warc"))).is_compressed());
}

#[test]
fn html_records_are_the_pages_the_generator_wrote() {
    let want: Vec<Value> = records()
        .into_iter()
        .filter(|r| r["html"] == true)
        .collect();
    assert_eq!(want.len(), 9);
    for name in ["good.warc", "good.warc.gz", "good-whole.warc.gz"] {
        let mut pages = Reader::new(Cursor::new(fixture(name))).html_records();
        let found: Vec<HtmlRecord> = pages.by_ref().map(|p| p.unwrap()).collect();
        assert_eq!(found.len(), want.len(), "{name}");
        for (page, want) in found.iter().zip(&want) {
            assert_eq!(page.target_uri(), want["uri"].as_str().unwrap());
            assert_eq!(page.record_id(), str_of(&want["id"]));
            assert_eq!(page.date(), str_of(&want["date"]));
            assert_eq!(page.status(), want["status"].as_u64().map(|s| s as u16));
            assert_eq!(
                page.charset(),
                str_of(&want["charset"]),
                "{}",
                page.target_uri()
            );
            let bytes = fixture(&format!("pages/{}", want["page"].as_str().unwrap()));
            assert_eq!(page.payload(), &bytes[..], "{name} {}", page.target_uri());
            let kind = if want["type"] == "resource" {
                RecordKind::Resource
            } else {
                RecordKind::Response
            };
            assert_eq!(page.kind(), &kind);
        }
        let counts = pages.counts();
        assert_eq!(
            (
                counts.records,
                counts.html,
                counts.skipped_by_type,
                counts.revisits
            ),
            (17, 9, 4, 1),
            "{name}: {counts:?}"
        );
        assert_eq!(
            (
                counts.requests,
                counts.warcinfo,
                counts.metadata,
                counts.other,
                counts.errors
            ),
            (1, 1, 1, 0, 0)
        );
    }
}

#[test]
fn extraction_of_a_record_equals_extraction_of_the_page_as_a_file() {
    let want: Vec<Value> = records()
        .into_iter()
        .filter(|r| r["html"] == true)
        .collect();
    let pages: Vec<HtmlRecord> = Reader::new(Cursor::new(fixture("good.warc.gz")))
        .html_records()
        .map(|p| p.unwrap())
        .collect();
    for (page, want) in pages.iter().zip(&want) {
        let bytes = fixture(&format!("pages/{}", want["page"].as_str().unwrap()));
        let mut decode = DecodeOptions::default();
        if let Some(charset) = want["charset"].as_str() {
            decode = decode.transport_charset(charset);
        }
        let doc = Document::from_bytes(&bytes, &decode).unwrap();
        let url = Url::parse(want["uri"].as_str().unwrap()).unwrap();
        let options = ExtractOptions::default().url(Some(url));
        let from_file = extract(doc.text(), &options);
        let from_archive = page.extract(&ExtractOptions::default()).unwrap();
        assert_eq!(from_archive.text, from_file.text);
        assert_eq!(
            format!("{:?}", from_archive.links),
            format!("{:?}", from_file.links)
        );
        assert_eq!(
            format!("{:?}", from_archive.metadata),
            format!("{:?}", from_file.metadata)
        );
    }
    // The charset is only in the HTTP header: it is what makes the text
    // right.
    let privet = pages
        .iter()
        .find(|p| p.target_uri() == "http://example.ru/privet")
        .unwrap();
    let text = privet.extract(&ExtractOptions::default()).unwrap().text;
    assert_eq!(text, "Привет, мир! Дальше");
    let doc = privet.document().unwrap();
    assert_eq!(doc.encoding_label(), "windows-1251");
    let sniffed = Document::from_bytes(privet.payload(), &DecodeOptions::default()).unwrap();
    assert_eq!(sniffed.encoding_label(), "windows-1252");
    let links = privet.extract(&ExtractOptions::default()).unwrap().links;
    assert_eq!(
        links[0].url(),
        "http://example.ru/%D1%81%D1%82%D1%80%D0%B0%D0%BD%D0%B8%D1%86%D0%B0.html"
    );
    // Relative links resolve against the target URI.
    let menu = &pages[0];
    let links = menu.extract(&ExtractOptions::default()).unwrap().links;
    let urls: Vec<&str> = links.iter().map(|l| l.url()).collect();
    assert_eq!(
        urls,
        ["https://example.com/peas.html", "https://example.com/hours"]
    );
}

#[test]
fn revisits_and_other_records_are_reported_by_kind() {
    let kinds: Vec<RecordKind> = read("good.warc")
        .into_iter()
        .map(|r| r.unwrap().kind().clone())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == RecordKind::Revisit).count(),
        1
    );
    assert_eq!(kinds[0], RecordKind::Warcinfo);
    assert_eq!(kinds[1], RecordKind::Request);
    assert_eq!(kinds[3], RecordKind::Metadata);
}

#[test]
fn truncated_gzip_members_cost_their_record_only() {
    let manifest = manifest();
    let gzip_offsets = manifest["gzip_offsets"].as_array().unwrap();
    let items = read("bad-truncated-gzip.warc.gz");
    let summaries: Vec<String> = items.iter().map(summary).collect();
    let mut want = ok_ids(0..3);
    want.push("error 4 gzip".to_string());
    want.extend(ok_ids(4..16));
    want.push("error 17 gzip".to_string());
    assert_eq!(summaries, want);
    // A member cut in the middle and followed by more gzip data reads as
    // corrupt; one cut by the end of the file as truncated.
    let error = items[3].as_ref().unwrap_err();
    let o = gzip_offsets[3].as_u64().unwrap();
    assert_eq!(error.position().offset(), Some(o));
    assert_eq!(
        error.to_string(),
        format!(
            "record 4 (offset {o}): corrupt gzip member (starting at offset {o}): corrupt deflate stream"
        )
    );
    let error = items[16].as_ref().unwrap_err();
    let member4 = gzip_offsets[4].as_u64().unwrap() - gzip_offsets[3].as_u64().unwrap();
    let o = gzip_offsets[16].as_u64().unwrap() - (member4 - member4 / 2);
    assert_eq!(
        error.to_string(),
        format!(
            "record 17 (offset {o}): truncated gzip member (starting at offset {o}): the archive ends inside it"
        )
    );
}

#[test]
fn bytes_between_gzip_members_are_skipped_and_reported() {
    let items = one_error("bad-gzip-garbage.warc.gz", 2, "error 3 gzip", false);
    let message = items[2].as_ref().unwrap_err().to_string();
    assert!(
        message.contains("16 bytes that are not gzip data"),
        "{message}"
    );
}

#[test]
fn a_whole_file_gzip_cut_short_gives_what_it_has_then_one_error() {
    let items = read("bad-whole-truncated.warc.gz");
    let (last, good) = items.split_last().unwrap();
    assert!(good.len() >= 5, "{}", good.len());
    let summaries: Vec<String> = good.iter().map(summary).collect();
    assert_eq!(summaries, ok_ids(0..good.len()));
    let error = last.as_ref().unwrap_err();
    assert!(matches!(error.kind(), WarcErrorKind::Gzip(_)), "{error}");
    assert!(
        error.to_string().contains("in the inflated stream"),
        "{error}"
    );
}

#[test]
fn content_length_past_the_end_is_reported_and_the_records_inside_found() {
    let items = one_error("bad-past-end.warc", 4, "error 5 truncated", true);
    let offsets: Vec<u64> = records()
        .iter()
        .map(|r| r["offset"].as_u64().unwrap())
        .collect();
    let error = items[4].as_ref().unwrap_err();
    assert_eq!(error.position().offset(), Some(offsets[4]));
    assert!(
        error.to_string().starts_with(&format!(
            "record 5 (offset {}): Content-Length 8498 runs past the end of the archive (",
            offsets[4]
        )),
        "{error}"
    );
    // The records found again keep their offsets and numbers.
    for (i, item) in items.iter().enumerate().skip(5) {
        let record = item.as_ref().unwrap();
        assert_eq!(record.position().offset(), Some(offsets[i] + 1), "{i}"); // "8498" for 3 digits
        assert_eq!(record.position().number(), i as u64 + 1);
    }
}

#[test]
fn content_length_short_of_the_record_end_is_reported() {
    let items = one_error("bad-short-length.warc", 4, "error 5 length", true);
    let offset = records()[4]["offset"].as_u64().unwrap();
    let message = items[4].as_ref().unwrap_err().to_string();
    let want =
        format!("record 5 (offset {offset}): the content does not end where Content-Length ");
    assert!(message.starts_with(&want), "{message}");
}

#[test]
fn garbage_between_records_is_reported_once() {
    let items = one_error("bad-garbage.warc", 2, "error 3 garbage", false);
    let offsets: Vec<u64> = records()
        .iter()
        .map(|r| r["offset"].as_u64().unwrap())
        .collect();
    let error = items[2].as_ref().unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "record 3 (offset {}): 81 bytes that are not a WARC record (no `WARC/1.` header), skipped",
            offsets[2]
        )
    );
    assert_eq!(
        items[3].as_ref().unwrap().position().offset(),
        Some(offsets[2] + 81)
    );
    assert_eq!(items[3].as_ref().unwrap().position().number(), 3);
}

#[test]
fn records_wrong_inside_are_errors_of_the_html_iterator() {
    let manifest = manifest();
    let want = manifest["bad_records"].as_array().unwrap();
    // The reader itself reads every record.
    let items = read("bad-records.warc");
    assert_eq!(items.len(), 7);
    for (item, want) in items.iter().zip(want) {
        assert_record(item.as_ref().unwrap(), want);
    }
    let mut pages = Reader::new(Cursor::new(fixture("bad-records.warc"))).html_records();
    let summaries: Vec<String> = pages
        .by_ref()
        .map(|item| match item {
            Ok(page) => format!("page {}", page.target_uri()),
            Err(error) => format!(
                "error {} {}",
                error.position().number(),
                kind_name(error.kind())
            ),
        })
        .collect();
    assert_eq!(
        summaries,
        [
            "page https://example.com/good/1",
            "error 2 missing-target-uri",
            "page https://example.com/good/2",
            "error 4 not-http",
            "page https://example.com/good/3",
            "error 6 http-header",
            "page https://example.com/good/4",
        ]
    );
    assert_eq!(pages.counts().errors, 3);
    let offsets: Vec<u64> = want.iter().map(|r| r["offset"].as_u64().unwrap()).collect();
    let errors: Vec<String> = Reader::new(Cursor::new(fixture("bad-records.warc")))
        .html_records()
        .filter_map(Result::err)
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errors,
        [
            format!(
                "record 2 (offset {}): no WARC-Target-URI in a response or resource record",
                offsets[1]
            ),
            format!(
                "record 4 (offset {}): the response record's content is not an HTTP response (no status line)",
                offsets[3]
            ),
            format!(
                "record 6 (offset {}): HTTP header: the header block has no blank line after it",
                offsets[5]
            ),
        ]
    );
}

#[test]
fn records_over_the_size_limit_are_skipped_and_reported() {
    let limit = 200;
    let want = records();
    let items: Vec<_> = Reader::with_options(
        Cursor::new(fixture("good.warc.gz")),
        ReaderOptions::default().max_record_size(limit),
    )
    .collect();
    assert_eq!(items.len(), want.len());
    let mut too_large = 0;
    for (i, item) in items.iter().enumerate() {
        match item {
            Ok(record) => {
                assert_record(record, &want[i]);
                assert!(record.block().len() as u64 <= limit);
            }
            Err(error) => {
                too_large += 1;
                assert_eq!(error.position().number(), i as u64 + 1);
                let WarcErrorKind::TooLarge {
                    content_length,
                    limit: l,
                } = error.kind()
                else {
                    panic!("{error}");
                };
                assert!(*content_length > limit && *l == limit);
                assert!(
                    error
                        .to_string()
                        .contains("exceeds the record size limit of 200 bytes")
                );
            }
        }
    }
    assert!(too_large >= 4, "{too_large}");
}

#[test]
fn any_cut_or_damage_keeps_the_invariants() {
    // Prefixes (in steps) and single-byte damage at many places, in all
    // three layouts, and the damaged archives: see tests/support/warc.rs
    // (the `warc` fuzz target checks the same on arbitrary bytes).
    for name in [
        "good.warc",
        "good.warc.gz",
        "good-whole.warc.gz",
        "bad-records.warc",
        "bad-truncated-gzip.warc.gz",
        "bad-gzip-garbage.warc.gz",
        "bad-whole-truncated.warc.gz",
        "bad-past-end.warc",
        "bad-short-length.warc",
        "bad-garbage.warc",
    ] {
        let data = fixture(name);
        invariants::check(&data);
        if !name.starts_with("good") {
            continue;
        }
        for end in (0..data.len()).step_by(31) {
            invariants::check(&data[..end]);
        }
        let mut seed = 0x9e37_79b9_u32;
        for _ in 0..150 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let mut damaged = data.clone();
            let at = seed as usize % damaged.len();
            damaged[at] = (seed >> 24) as u8;
            invariants::check(&damaged);
        }
    }
    assert_eq!(Reader::new(&b""[..]).count(), 0);
    let only_garbage: Vec<_> = Reader::new(&b"hello\nworld\n"[..]).collect();
    assert_eq!(only_garbage.len(), 1);
    assert_eq!(
        only_garbage[0].as_ref().unwrap_err().to_string(),
        "record 1 (offset 0): 12 bytes that are not a WARC record (no `WARC/1.` header), skipped"
    );
}

#[test]
fn hostile_shapes_cost_linear_time() {
    // Records nested in records with lengths past the end, lengths that
    // stop short of the record end, and record starts without a blank
    // line: a quadratic reader would copy or search the rest of the input
    // once per record (tens of gigabytes here).
    let mb = 1 << 20;
    let shapes: [(&str, &[u8]); 4] = [
        (
            "past the end",
            b"WARC/1.0\r\nContent-Length: 9999999\r\n\r\n",
        ),
        ("short", b"WARC/1.0\r\nContent-Length: 3\r\n\r\nabcdef\r\n"),
        ("no blank line", b"WARC/1.0\r\nWARC-Type: response\r\n"),
        ("garbage", b"WARC/0.9 no\r\n"),
    ];
    for (what, shape) in shapes {
        let data = shape.repeat(mb / shape.len());
        let start = std::time::Instant::now();
        let options = ReaderOptions::default().max_header_size(4096);
        let items = Reader::with_options(&data[..], options).count();
        let seconds = start.elapsed().as_secs_f64();
        assert!(items >= 1 && items <= data.len(), "{what}");
        eprintln!("{what}: {seconds:.2} s, {items} items");
        assert!(seconds < 10.0, "{what}: {seconds:.1} s for {items} items");
    }
}

#[test]
fn valid_archives_of_arbitrary_blocks_read_back_exactly() {
    // Blocks made of what could confuse a reader: line ends, record
    // starts, gzip magic, NULs, in all three layouts.
    let pieces: [&[u8]; 6] = [
        b"\r\n\r\n",
        b"\nWARC/1.1\r\n",
        b"\x1f\x8b\x08",
        b"\0",
        b"HTTP/1.1 200 OK\r\n\r\n<p>",
        b"\n\n",
    ];
    let mut seed = 0x2545_f491_u32;
    for round in 0..300 {
        let mut data = vec![round as u8 % 3];
        for _ in 0..round % 7 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let mut block = Vec::new();
            for k in 0..(seed % 9) {
                block.extend_from_slice(pieces[((seed >> (k + 3)) % 6) as usize]);
            }
            block.truncate(255);
            data.push((seed >> 20) as u8);
            data.push(block.len() as u8);
            data.extend_from_slice(&block);
        }
        invariants::roundtrip(&data);
    }
}

#[test]
fn records_written_read_back_exactly() {
    // Every layout and version, records of every type with fields and
    // blocks of every sort, refusals included; then pseudo-random inputs.
    let mut seeds: Vec<Vec<u8>> = (0..6u8)
        .map(|first| {
            let mut data = vec![first];
            for kind in 0..9u8 {
                data.extend_from_slice(&[kind, 3 + kind % 4, 5, b'X', b'-', b'a', b'b', b'c']);
                data.extend_from_slice(&[9, b' ', b'v', 0xc3, 0xa9, b'l', b'u', b'e', b' ', b'\t']);
                data.push(0);
                data.extend_from_slice(&[
                    12, b'W', b'A', b'R', b'C', b'/', b'1', b'.', b'1', b'\r', b'\n', 0x1f, 0x8b,
                ]);
            }
            data
        })
        .collect();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..300 {
        let len = (state >> 56) as usize;
        let data: Vec<u8> = (0..len * 4)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        seeds.push(data);
    }
    for data in &seeds {
        writer::roundtrip(data);
    }
}

#[test]
fn a_wet_of_the_fixtures_refers_to_every_page_with_its_text() {
    use htmltok::warc::{WetOptions, WetWriter, sha1_digest};
    for name in ["good.warc", "good.warc.gz", "good-whole.warc.gz"] {
        let options = WetOptions::default().filename("good.warc.wet.gz").seed(1);
        let mut wet = WetWriter::new(Vec::new(), options);
        wet.convert(Reader::new(Cursor::new(fixture(name))), |e| {
            panic!("{name}: {e}")
        })
        .unwrap();
        let counts = *wet.counts();
        let file = wet.finish().unwrap();
        let out: Vec<Record> = Reader::new(&file[..]).collect::<Result<_, _>>().unwrap();
        assert_eq!(out[0].kind(), &RecordKind::Warcinfo);
        assert_eq!(out[0].header("WARC-Filename"), Some("good.warc.wet.gz"));

        let pages: Vec<HtmlRecord> = Reader::new(Cursor::new(fixture(name)))
            .html_records()
            .collect::<Result<_, _>>()
            .unwrap();
        let texts: Vec<(String, String)> = pages
            .iter()
            .map(|p| {
                let text = p.extract(&ExtractOptions::default()).unwrap().text;
                (p.record_id().unwrap().to_string(), text)
            })
            .filter(|(_, text)| !text.is_empty())
            .collect();
        assert_eq!(counts.conversions as usize, texts.len());
        assert_eq!(counts.empty as usize, pages.len() - texts.len());
        assert_eq!(out.len(), texts.len() + 1);
        for (record, (id, text)) in out[1..].iter().zip(&texts) {
            assert_eq!(record.kind(), &RecordKind::Conversion);
            assert_eq!(record.version(), "1.0");
            assert_eq!(record.header("WARC-Refers-To"), Some(id.as_str()));
            assert_eq!(record.block(), text.as_bytes());
            assert_eq!(
                record.header("WARC-Block-Digest"),
                Some(sha1_digest(text.as_bytes()).as_str())
            );
            assert_eq!(record.content_type(), Some("text/plain"));
        }
    }
}
