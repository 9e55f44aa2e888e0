//! What must hold for any bytes read as a WARC archive: used by
//! `tests/warc.rs` and the `warc` and `warc_roundtrip` fuzz targets.
//!
//! The reader ends, yielding at most a few items per byte; record numbers
//! never go back and each record's is new; a record of a plain archive has
//! its file offset, inside the input, and a block within the size limit;
//! every error begins with its position; and the HTML iterator over the
//! same bytes accounts for every record the reader gave: a page, a
//! record passed over and counted, or an error of the page's own.

use htmltok::warc::{Reader, ReaderOptions, WarcErrorKind};

/// The record size limit of the checks: small, so that inputs reach it.
pub const LIMIT: u64 = 1 << 12;

/// Reads `data` with both iterators and checks the above.
pub fn check(data: &[u8]) {
    let options = ReaderOptions::default().max_record_size(LIMIT);
    let plain = !data.starts_with(&[0x1f, 0x8b]);
    let bound = 2 * data.len() + 4;

    let mut records = 0u64;
    let mut items = 0usize;
    let mut last_number = 0;
    let mut last_record = 0;
    for item in Reader::with_options(data, options.clone()) {
        items += 1;
        assert!(
            items <= bound,
            "more than {bound} items from {} bytes",
            data.len()
        );
        match item {
            Ok(record) => {
                records += 1;
                let position = record.position();
                assert!(position.number() > last_record, "record numbers repeat");
                last_record = position.number();
                last_number = last_number.max(position.number());
                assert!(record.block().len() as u64 <= LIMIT);
                if plain {
                    assert_eq!(position.offset(), Some(position.stream_offset()));
                    assert!(position.stream_offset() as usize + record.block().len() <= data.len());
                }
            }
            Err(error) => {
                let position = error.position();
                assert!(position.number() >= last_number, "{error}: numbers go back");
                last_number = position.number();
                assert!(error.to_string().starts_with(&format!("{position}: ")));
                if plain {
                    assert!(position.stream_offset() as usize <= data.len());
                }
            }
        }
    }

    let mut pages = Reader::with_options(data, options).html_records();
    let (mut html, mut errors, mut page_errors) = (0, 0, 0);
    for item in pages.by_ref() {
        match item {
            Ok(page) => {
                html += 1;
                assert!(page.payload().len() as u64 <= LIMIT);
                if let Ok(document) = page.document() {
                    assert!(document.text().len() <= 3 * page.payload().len() + 3);
                }
            }
            Err(error) => {
                errors += 1;
                if matches!(
                    error.kind(),
                    WarcErrorKind::MissingTargetUri
                        | WarcErrorKind::NotHttp
                        | WarcErrorKind::HttpHeader(_)
                        | WarcErrorKind::HttpBody(_)
                ) {
                    page_errors += 1;
                }
            }
        }
    }
    let counts = pages.counts();
    assert_eq!((counts.html, counts.errors), (html, errors));
    let passed_over = counts.skipped_by_type
        + counts.revisits
        + counts.requests
        + counts.warcinfo
        + counts.metadata
        + counts.other;
    assert_eq!(
        counts.records,
        html + passed_over + page_errors,
        "{counts:?}"
    );
    assert_eq!(counts.records, records, "{counts:?}");
}

/// How [`roundtrip`] lays the archive out.
#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// Uncompressed.
    Plain,
    /// One gzip member per record.
    GzipPerRecord,
    /// The whole archive as one gzip member.
    GzipWhole,
}

/// A record as [`archive_from`] writes it: type, target URI, block.
pub type Written = (String, String, Vec<u8>);

/// A valid archive built from `data`, and the records it holds. The first byte chooses the layout; then each
/// record is a byte choosing its type, a byte its length (0–255), and that
/// many bytes of block (arbitrary: line ends, `WARC/1.`, NULs).
pub fn archive_from(data: &[u8]) -> (Layout, Vec<u8>, Vec<Written>) {
    use std::io::Write;
    const TYPES: [&str; 6] = [
        "response", "resource", "request", "revisit", "metadata", "warcinfo",
    ];
    let layout = match data.first().copied().unwrap_or(0) % 3 {
        0 => Layout::Plain,
        1 => Layout::GzipPerRecord,
        _ => Layout::GzipWhole,
    };
    let mut records = Vec::new();
    let mut rest = data.get(1..).unwrap_or_default();
    while let [kind, len, tail @ ..] = rest {
        let len = (*len as usize).min(tail.len());
        let uri = format!("https://example.com/{}", records.len());
        records.push((
            TYPES[*kind as usize % TYPES.len()].to_string(),
            uri,
            tail[..len].to_vec(),
        ));
        rest = &tail[len..];
    }
    let gzip = |bytes: &[u8]| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    };
    let mut archive = Vec::new();
    for (i, (kind, uri, block)) in records.iter().enumerate() {
        let mut record = format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{i}>\r\n\
             WARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        record.extend_from_slice(block);
        record.extend_from_slice(b"\r\n\r\n");
        match layout {
            Layout::GzipPerRecord => archive.extend_from_slice(&gzip(&record)),
            _ => archive.extend_from_slice(&record),
        }
    }
    if let Layout::GzipWhole = layout {
        archive = gzip(&archive);
    }
    (layout, archive, records)
}

/// A valid archive built from `data` ([`archive_from`]) reads back as
/// exactly its records, numbered, with their file offsets where the layout
/// has them, and no error.
pub fn roundtrip(data: &[u8]) {
    let (layout, archive, records) = archive_from(data);
    let options = ReaderOptions::default().max_record_size(LIMIT);
    let read: Vec<_> = Reader::with_options(&archive[..], options)
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{layout:?}: {e}"));
    assert_eq!(read.len(), records.len(), "{layout:?}");
    for (i, (record, (kind, uri, block))) in read.iter().zip(&records).enumerate() {
        assert_eq!(record.kind().as_str(), kind);
        assert_eq!(record.target_uri(), Some(uri.as_str()));
        assert_eq!(record.block(), &block[..]);
        assert_eq!(record.position().number(), i as u64 + 1);
        let known = match layout {
            Layout::GzipWhole => i == 0,
            _ => true,
        };
        assert_eq!(
            record.position().offset().is_some(),
            known,
            "{layout:?} {i}"
        );
    }
    check(&archive);
}
