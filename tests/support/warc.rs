//! What must hold for any bytes read as a WARC archive: used by
//! `tests/warc.rs` and the `warc` fuzz target (each includes this file
//! with `#[path]`).
//!
//! The reader ends, yielding at most a few items per byte; record numbers
//! never go back and each record's is new; a record of a plain archive has
//! its file offset, inside the input, and a block within the size limit;
//! every error begins with its position; and the HTML iterator over the
//! same bytes accounts for every record the reader gave: a page, a
//! record passed over and counted, or an error of the page's own.
#![allow(dead_code)]

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
