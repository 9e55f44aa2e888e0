//! Unit tests of the byte entry point: decoding, zero-copy, the memory cap,
//! resolution by `<meta>`.

use super::*;
use crate::Token;
use encoding_rs::{EUC_KR, ISO_8859_2, KOI8_R, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE};

fn utf8(bytes: &[u8]) -> Document<'_> {
    Document::from_bytes(bytes, &DecodeOptions::default().transport_charset("utf-8")).unwrap()
}

/// The Encoding Standard's UTF-8 decoder replaces each maximal subpart of
/// an ill-formed sequence with one U+FFFD; each case is worked out by hand.
#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let cases: &[(&[u8], &str)] = &[
        // Overlong forms: C0 and C1 are never lead bytes; E0 needs A0..BF next.
        (b"\xC0\x80", "\u{FFFD}\u{FFFD}"),
        (b"\xC1\xBF", "\u{FFFD}\u{FFFD}"),
        (b"\xE0\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xF0\x80\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
        // A surrogate (U+D800) encoded: ED needs 80..9F next.
        (b"\xED\xA0\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xED\xBF\xBF", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        // Past U+10FFFF: F4 needs 80..8F next; F5..FF are never lead bytes.
        (b"\xF4\x90\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xF5\x80", "\u{FFFD}\u{FFFD}"),
        // Truncated sequences: one U+FFFD for the whole valid prefix.
        (b"\xE2\x82", "\u{FFFD}"),
        (b"x\xE2\x82", "x\u{FFFD}"),
        (b"\xE2\x82A", "\u{FFFD}A"),
        (b"\xF0\x9F\x98A", "\u{FFFD}A"),
        (b"\xF0\x9F\x98<p>", "\u{FFFD}<p>"),
        (b"\xC2", "\u{FFFD}"),
        (b"\xE2\x82\xE2\x82\xAC", "\u{FFFD}\u{20AC}"),
        // Lone continuation bytes and bytes that never occur.
        (b"\x80", "\u{FFFD}"),
        (b"\x80\x80", "\u{FFFD}\u{FFFD}"),
        (b"\xBF", "\u{FFFD}"),
        (b"\xFE", "\u{FFFD}"),
        (b"\xFF", "\u{FFFD}"),
        (b"a\xFFb", "a\u{FFFD}b"),
        // Valid neighbours stay as they are.
        (
            b"\xE2\x82\xAC\x80\xF0\x9F\x98\x80",
            "\u{20AC}\u{FFFD}\u{1F600}",
        ),
        (b"\xEF\xBF\xBF", "\u{FFFF}"),
    ];
    for &(bytes, expected) in cases {
        let doc = utf8(bytes);
        assert_eq!(doc.text(), expected, "bytes {bytes:02X?}");
        let valid = core::str::from_utf8(bytes).is_ok();
        assert_eq!(doc.had_errors(), !valid, "bytes {bytes:02X?}");
        assert_eq!(doc.is_borrowed(), valid, "bytes {bytes:02X?}");
    }
}

#[test]
fn valid_utf8_is_borrowed_and_tokens_point_into_the_bytes() {
    let bytes = "<p class=\"naïve\">日本語 text</p>".as_bytes().to_vec();
    let doc = utf8(&bytes);
    assert!(doc.is_borrowed() && !doc.had_errors());
    assert_eq!(doc.text().as_ptr(), bytes.as_ptr());
    let arena = Bump::new();
    let mut seen = 0;
    for token in doc.tokenizer(&arena) {
        let strings: Vec<&str> = match &token {
            Token::StartTag(t) => vec![t.name, t.attributes[0].name, t.attributes[0].value],
            Token::Text(t) => vec![t.data],
            Token::EndTag(t) => vec![t.name],
            _ => vec![],
        };
        for s in strings {
            assert!(
                bytes.as_ptr_range().contains(&s.as_ptr()),
                "{s:?} is a copy"
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 5);
}

#[test]
fn utf8_bom_is_stripped_without_copying() {
    let bytes = b"\xEF\xBB\xBF<p>x";
    let doc = Document::from_bytes(bytes, &DecodeOptions::default()).unwrap();
    assert_eq!(
        (doc.encoding(), doc.bom_len(), doc.text()),
        (UTF_8, 3, "<p>x")
    );
    assert_eq!(doc.source(), EncodingSource::Bom);
    assert!(doc.is_borrowed());
    assert_eq!(doc.text().as_ptr(), bytes[3..].as_ptr());
}

#[test]
fn ascii_in_an_ascii_compatible_encoding_is_borrowed() {
    let bytes = b"<meta charset=shift_jis><p>plain";
    let doc = Document::from_bytes(bytes, &DecodeOptions::default()).unwrap();
    assert_eq!(doc.encoding(), SHIFT_JIS);
    assert!(doc.is_borrowed());
}

#[test]
fn utf16_with_and_without_bom() {
    let le = b"\xFF\xFE<\0p\0>\0\x3D\xD8"; // "<p>" then a lone high surrogate
    let doc = Document::from_bytes(le, &DecodeOptions::default()).unwrap();
    assert_eq!((doc.encoding(), doc.text()), (UTF_16LE, "<p>\u{FFFD}"));
    assert!(doc.had_errors());
    let be = b"\xFE\xFF\0<\0p\0>\0"; // odd byte at the end
    let doc = Document::from_bytes(be, &DecodeOptions::default()).unwrap();
    assert_eq!((doc.encoding(), doc.text()), (UTF_16BE, "<p>\u{FFFD}"));
    // Transport UTF-16 without a BOM is UTF-16LE, certain.
    let doc = Document::from_bytes(
        b"<\0p\0>\0",
        &DecodeOptions::default().transport_charset("utf-16"),
    )
    .unwrap();
    assert_eq!((doc.encoding(), doc.text()), (UTF_16LE, "<p>"));
    assert_eq!(doc.confidence(), Confidence::Certain);
}

#[test]
fn memory_limit_is_an_error_value() {
    let bytes = "<p>Zażółć gęślą jaźń".repeat(1000);
    let (latin2, _, unmappable) = ISO_8859_2.encode(&bytes);
    assert!(!unmappable);
    let opts = DecodeOptions::default().override_encoding(ISO_8859_2);
    let full = Document::from_bytes(&latin2, &opts).unwrap();
    assert!(full.text() == bytes);
    let needed = bytes.len();
    let err =
        Document::from_bytes(&latin2, &opts.clone().memory_limit(Some(needed - 1))).unwrap_err();
    assert_eq!(
        err,
        DecodeError::MemoryLimit(MemoryLimitError {
            kind: MemoryLimitKind::Decode {
                from: canonical_label(ISO_8859_2),
            },
            limit: needed - 1,
            needed,
            offset: None,
        })
    );
    assert!(err.to_string().contains("iso-8859-2"), "{err}");
    assert!(Document::from_bytes(&latin2, &opts.clone().memory_limit(Some(needed))).is_ok());
    // Zero is a valid limit: nothing can be copied, but borrowing is free.
    assert!(Document::from_bytes(&latin2, &opts.clone().memory_limit(Some(0))).is_err());
    let ascii = Document::from_bytes(b"<p>ok", &opts.memory_limit(Some(0))).unwrap();
    assert!(ascii.is_borrowed());
}

#[test]
fn reparse_keeps_the_memory_limit() {
    // A0 is U+00A0 in windows-1252 (2 bytes of UTF-8) but U+2550 in KOI8-R
    // (3 bytes): the first decode fits, the one the <meta> asks for does not.
    let mut page = format!("<!--{}-->", "x".repeat(2000)).into_bytes();
    page.extend_from_slice(b"<meta charset=koi8-r>\xA0\xA0\xA0\xA0\xA0\xA0");
    let opts = DecodeOptions::default().memory_limit(Some(page.len() + 6));
    let doc = Document::from_bytes(&page, &opts).unwrap();
    assert_eq!(doc.encoding(), encoding_rs::WINDOWS_1252);
    let err = doc.resolve(Options::default()).unwrap_err();
    assert!(
        matches!(err, DecodeError::MemoryLimit(MemoryLimitError {
            kind: MemoryLimitKind::Decode { from }, needed, ..
        }) if from == canonical_label(KOI8_R) && needed == page.len() + 12),
        "{err:?}"
    );
}

#[test]
fn resolve_confirms_or_changes() {
    let opts = DecodeOptions::default();
    // Prescan found it; the tokenizer sees the same meta: certain.
    let doc = Document::from_bytes_resolved(b"<meta charset=koi8-r>", &opts).unwrap();
    assert_eq!(
        (doc.encoding(), doc.confidence()),
        (KOI8_R, Confidence::Certain)
    );
    assert_eq!(doc.source(), EncodingSource::Prescan);
    // No meta at all: stays tentative, default.
    let doc = Document::from_bytes_resolved(b"<p>hi", &opts).unwrap();
    assert_eq!(doc.confidence(), Confidence::Tentative);
    // Past the window: changed by the tokenizer's meta.
    let mut page = format!("<!--{}-->", "x".repeat(2000)).into_bytes();
    page.extend_from_slice(b"<meta http-equiv=content-type content='text/html;charset=euc-kr'>");
    let doc = Document::from_bytes_resolved(&page, &opts).unwrap();
    assert_eq!(
        (doc.encoding(), doc.source()),
        (EUC_KR, EncodingSource::Meta)
    );
    // Certain documents are not rescanned.
    let doc = Document::from_bytes_resolved(&page, &opts.transport_charset("utf-8")).unwrap();
    assert_eq!(
        (doc.encoding(), doc.source()),
        (UTF_8, EncodingSource::Transport)
    );
}

#[test]
fn meta_tag_open_detection() {
    assert!(has_meta_tag_open("x<META charset=a>"));
    assert!(has_meta_tag_open("<meta"));
    assert!(!has_meta_tag_open("<met"));
    assert!(!has_meta_tag_open("< meta>"));
    assert!(!has_meta_tag_open("metadata"));
}

#[test]
fn display_strings() {
    assert_eq!(Confidence::Certain.to_string(), "certain");
    assert_eq!(Confidence::Tentative.to_string(), "tentative");
    assert_eq!(EncodingSource::Utf8Detection.to_string(), "utf8-detection");
    let err = DecodeOptions::default()
        .override_label("klingon")
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("unknown character encoding \"klingon\"")
    );
}

#[test]
fn meta_scan_is_bounded_by_the_memory_limit() {
    // ASCII in windows-1252: decoding borrows, but the text with references
    // goes to the tokenizer's arena, past the limit before the <meta>.
    let page = format!("<p>{}<meta charset=koi8-r>", "a&amp;b ".repeat(10_000));
    let opts = DecodeOptions::default().memory_limit(Some(1000));
    let doc = Document::from_bytes(page.as_bytes(), &opts).unwrap();
    assert!(doc.is_borrowed());
    let err = doc.clone().resolve(Options::default()).unwrap_err();
    assert!(
        matches!(err, DecodeError::MemoryLimit(e)
            if e.kind == MemoryLimitKind::MetaScan && e.limit == 1000),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .ends_with("while looking for a <meta> that changes the encoding"),
        "{err}"
    );
    // The tokenizer's own limit wins when set.
    let big = Options::default().memory_limit(Some(1 << 20));
    assert_eq!(doc.resolve(big).unwrap().encoding(), KOI8_R);
}
