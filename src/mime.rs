//! What a resource is by its first bytes: the parts of the WHATWG MIME
//! Sniffing Standard a crawler needs before it tokenizes anything.
//!
//! A crawl hands over resources whose declared type is missing or wrong: a
//! PNG saved as `page.html`, a response with no `Content-Type`. Browsers
//! decide such cases from the *resource header*, the first
//! [`RESOURCE_HEADER_LEN`] bytes, by the standard's tables of signatures.
//! This module implements those rules as the standard writes them (the
//! [binary data byte](https://mimesniff.spec.whatwg.org/#binary-data-byte), the
//! [pattern matching algorithm](https://mimesniff.spec.whatwg.org/#pattern-matching-algorithm), the
//! [rules for identifying an unknown MIME type](https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type)
//! and the [rules for distinguishing if a resource is text or binary](https://mimesniff.spec.whatwg.org/#rules-for-text-or-binary)),
//! so that a tool can say *why* it skipped an input.
//!
//! Two signatures of the audio and video types
//! ([matching an audio or video type pattern](https://mimesniff.spec.whatwg.org/#matching-an-audio-or-video-type-pattern))
//! need a parser of their own and are not matched
//! here: WebM's EBML `DocType` and MP3 frames without an ID3 tag. Such
//! resources are still told apart from text (they hold binary data bytes);
//! they are named `application/octet-stream`.
//!
//! ```
//! use htmltok::mime;
//!
//! assert!(mime::is_binary(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"));
//! assert_eq!(mime::identify_unknown(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", false), "image/png");
//! // Text, however odd, is not binary; a stray NUL after a byte order mark neither.
//! assert!(!mime::is_binary(b"Hello world, no tags here.\n"));
//! assert!(!mime::is_binary(b"\xEF\xBB\xBF<p>a\0b"));
//! // With the sniff-scriptable flag, an unlabeled page that starts like HTML is HTML.
//! assert_eq!(mime::identify_unknown(b"  <!doctype html><title>x", true), "text/html");
//! ```

/// How many bytes the standard reads for sniffing: the resource header.
pub const RESOURCE_HEADER_LEN: usize = 1445;

/// Whether `b` is a binary data byte: a control character other than TAB,
/// LF, FF, CR and ESC (0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F).
#[inline]
pub fn is_binary_data_byte(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F)
}

/// The [rules for distinguishing if a resource is text or binary](https://mimesniff.spec.whatwg.org/#rules-for-text-or-binary),
/// applied to the first [`RESOURCE_HEADER_LEN`] bytes of `resource`: binary
/// unless it starts with a UTF-16 or UTF-8 byte order mark or holds no
/// binary data byte.
pub fn is_binary(resource: &[u8]) -> bool {
    let header = &resource[..resource.len().min(RESOURCE_HEADER_LEN)];
    if header.starts_with(&[0xFE, 0xFF])
        || header.starts_with(&[0xFF, 0xFE])
        || header.starts_with(&[0xEF, 0xBB, 0xBF])
    {
        return false;
    }
    header.iter().any(|&b| is_binary_data_byte(b))
}

/// The [rules for identifying an unknown MIME type](https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type)
/// on the first [`RESOURCE_HEADER_LEN`] bytes of `resource`: with
/// `sniff_scriptable`, HTML, XML and PDF first (what a browser does for a
/// resource with no type at all), then PostScript and the byte order marks,
/// [images](https://mimesniff.spec.whatwg.org/#matching-an-image-type-pattern),
/// [audio and video](https://mimesniff.spec.whatwg.org/#matching-an-audio-or-video-type-pattern) and
/// [archives](https://mimesniff.spec.whatwg.org/#matching-an-archive-type-pattern) (fonts are not among the
/// steps), then `text/plain` when there is no binary data byte,
/// else `application/octet-stream`.
pub fn identify_unknown(resource: &[u8], sniff_scriptable: bool) -> &'static str {
    let header = &resource[..resource.len().min(RESOURCE_HEADER_LEN)];
    if sniff_scriptable {
        if let Some(found) = first_match(header, SCRIPTABLE) {
            return found;
        }
    }
    if let Some(found) = first_match(header, UNKNOWN) {
        return found;
    }
    if let Some(found) = first_match(header, IMAGE) {
        return found;
    }
    if let Some(found) = first_match(header, AUDIO_VIDEO) {
        return found;
    }
    if is_mp4(header) {
        return "video/mp4";
    }
    if let Some(found) = first_match(header, ARCHIVE) {
        return found;
    }
    if header.iter().any(|&b| is_binary_data_byte(b)) {
        "application/octet-stream"
    } else {
        "text/plain"
    }
}

/// One row of a pattern table: a byte pattern, its mask, whether leading
/// whitespace bytes are ignored, whether the pattern ends with the
/// standard's `TT` (a tag-terminating byte: SP or `>`), and the type it
/// names.
struct Row {
    pattern: &'static [u8],
    mask: &'static [u8],
    skip_whitespace: bool,
    tag_terminated: bool,
    mime: &'static str,
}

fn first_match(header: &[u8], rows: &[Row]) -> Option<&'static str> {
    rows.iter()
        .find(|row| matches(header, row))
        .map(|row| row.mime)
}

/// The [pattern matching algorithm](https://mimesniff.spec.whatwg.org/#pattern-matching-algorithm), with a `TT` row's last byte
/// matched as a tag-terminating byte.
fn matches(input: &[u8], row: &Row) -> bool {
    debug_assert_eq!(row.pattern.len(), row.mask.len());
    let len = row.pattern.len() + usize::from(row.tag_terminated);
    if input.len() < len {
        return false;
    }
    let mut s = 0;
    if row.skip_whitespace {
        while s < input.len() && crate::scan::is_ascii_whitespace(input[s]) {
            s += 1;
        }
    }
    let Some(input) = input.get(s..s + len) else {
        return false;
    };
    let (body, end) = input.split_at(row.pattern.len());
    body.iter()
        .zip(row.pattern.iter().zip(row.mask))
        .all(|(&b, (&want, &mask))| b & mask == want)
        && end.iter().all(|&b| matches!(b, b' ' | b'>'))
}

/// The [signature for MP4](https://mimesniff.spec.whatwg.org/#signature-for-mp4).
fn is_mp4(s: &[u8]) -> bool {
    if s.len() < 12 {
        return false;
    }
    let box_size = u32::from_be_bytes([s[0], s[1], s[2], s[3]]) as usize;
    if s.len() < box_size || box_size % 4 != 0 || &s[4..8] != b"ftyp" {
        return false;
    }
    if &s[8..11] == b"mp4" {
        return true;
    }
    (16..box_size)
        .step_by(4)
        .any(|i| s.get(i..i + 3) == Some(b"mp4"))
}

/// A table of [`Row`]s, one per line: `[pattern] [mask] skip_whitespace
/// TT? "type"`. The standard writes a tag-terminating byte as a last
/// pattern byte `TT` with mask `FF`; here it is the `TT` after the
/// whitespace flag, and the two are left out of the lists.
macro_rules! rows {
    ($( [$($p:expr),*] [$($m:expr),*] $ws:literal $($tt:ident)? $mime:literal ),* $(,)?) => {
        &[$( Row {
            pattern: &[$($p),*],
            mask: &[$($m),*],
            skip_whitespace: $ws,
            tag_terminated: rows!(@tt $($tt)?),
            mime: $mime,
        } ),*]
    };
    (@tt TT) => { true };
    (@tt) => { false };
}

/// The [rules for identifying an unknown MIME type](https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type),
/// the rows for the [sniff-scriptable flag](https://mimesniff.spec.whatwg.org/#sniff-scriptable-flag).
static SCRIPTABLE: &[Row] = rows![
    [0x3C, 0x21, 0x44, 0x4F, 0x43, 0x54, 0x59, 0x50, 0x45, 0x20, 0x48, 0x54, 0x4D, 0x4C]
    [0xFF, 0xFF, 0xDF, 0xDF, 0xDF, 0xDF, 0xDF, 0xDF, 0xDF, 0xFF, 0xDF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x48, 0x54, 0x4D, 0x4C]
    [0xFF, 0xDF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x48, 0x45, 0x41, 0x44]
    [0xFF, 0xDF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x53, 0x43, 0x52, 0x49, 0x50, 0x54]
    [0xFF, 0xDF, 0xDF, 0xDF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x49, 0x46, 0x52, 0x41, 0x4D, 0x45]
    [0xFF, 0xDF, 0xDF, 0xDF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x48, 0x31]
    [0xFF, 0xDF, 0xFF] true TT "text/html",
    [0x3C, 0x44, 0x49, 0x56]
    [0xFF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x46, 0x4F, 0x4E, 0x54]
    [0xFF, 0xDF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x54, 0x41, 0x42, 0x4C, 0x45]
    [0xFF, 0xDF, 0xDF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x41]
    [0xFF, 0xDF] true TT "text/html",
    [0x3C, 0x53, 0x54, 0x59, 0x4C, 0x45]
    [0xFF, 0xDF, 0xDF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x54, 0x49, 0x54, 0x4C, 0x45]
    [0xFF, 0xDF, 0xDF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x42]
    [0xFF, 0xDF] true TT "text/html",
    [0x3C, 0x42, 0x4F, 0x44, 0x59]
    [0xFF, 0xDF, 0xDF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x42, 0x52]
    [0xFF, 0xDF, 0xDF] true TT "text/html",
    [0x3C, 0x50]
    [0xFF, 0xDF] true TT "text/html",
    [0x3C, 0x21, 0x2D, 0x2D]
    [0xFF, 0xFF, 0xFF, 0xFF] true TT "text/html",
    [0x3C, 0x3F, 0x78, 0x6D, 0x6C] [0xFF, 0xFF, 0xFF, 0xFF, 0xFF] true "text/xml",
    [0x25, 0x50, 0x44, 0x46, 0x2D] [0xFF, 0xFF, 0xFF, 0xFF, 0xFF] false "application/pdf",
];

/// The [rules for identifying an unknown MIME type](https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type),
/// the rows every unknown type is matched against.
static UNKNOWN: &[Row] = rows![
    [0x25, 0x21, 0x50, 0x53, 0x2D, 0x41, 0x64, 0x6F, 0x62, 0x65, 0x2D]
    [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] false "application/postscript",
    [0xFE, 0xFF, 0x00, 0x00] [0xFF, 0xFF, 0x00, 0x00] false "text/plain",
    [0xFF, 0xFE, 0x00, 0x00] [0xFF, 0xFF, 0x00, 0x00] false "text/plain",
    [0xEF, 0xBB, 0xBF, 0x00] [0xFF, 0xFF, 0xFF, 0x00] false "text/plain",
];

/// [Image types](https://mimesniff.spec.whatwg.org/#matching-an-image-type-pattern).
static IMAGE: &[Row] = rows![
    [0x00, 0x00, 0x01, 0x00] [0xFF, 0xFF, 0xFF, 0xFF] false "image/x-icon",
    [0x00, 0x00, 0x02, 0x00] [0xFF, 0xFF, 0xFF, 0xFF] false "image/x-icon",
    [0x42, 0x4D] [0xFF, 0xFF] false "image/bmp",
    [0x47, 0x49, 0x46, 0x38, 0x37, 0x61] [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] false "image/gif",
    [0x47, 0x49, 0x46, 0x38, 0x39, 0x61] [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] false "image/gif",
    [0x52, 0x49, 0x46, 0x46, 0x00, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50]
    [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] false "image/webp",
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] false "image/png",
    [0xFF, 0xD8, 0xFF] [0xFF, 0xFF, 0xFF] false "image/jpeg",
];

/// [Audio and video types](https://mimesniff.spec.whatwg.org/#matching-an-audio-or-video-type-pattern) with a fixed pattern (MP4 is `is_mp4`).
static AUDIO_VIDEO: &[Row] = rows![
    [0x46, 0x4F, 0x52, 0x4D, 0x00, 0x00, 0x00, 0x00, 0x41, 0x49, 0x46, 0x46]
    [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF] false "audio/aiff",
    [0x49, 0x44, 0x33] [0xFF, 0xFF, 0xFF] false "audio/mpeg",
    [0x4F, 0x67, 0x67, 0x53, 0x00] [0xFF, 0xFF, 0xFF, 0xFF, 0xFF] false "application/ogg",
    [0x4D, 0x54, 0x68, 0x64, 0x00, 0x00, 0x00, 0x06] [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] false "audio/midi",
    [0x52, 0x49, 0x46, 0x46, 0x00, 0x00, 0x00, 0x00, 0x41, 0x56, 0x49, 0x20]
    [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF] false "video/avi",
    [0x52, 0x49, 0x46, 0x46, 0x00, 0x00, 0x00, 0x00, 0x57, 0x41, 0x56, 0x45]
    [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF] false "audio/wave",
];

/// [Archive types](https://mimesniff.spec.whatwg.org/#matching-an-archive-type-pattern).
static ARCHIVE: &[Row] = rows![
    [0x1F, 0x8B, 0x08] [0xFF, 0xFF, 0xFF] false "application/x-gzip",
    [0x50, 0x4B, 0x03, 0x04] [0xFF, 0xFF, 0xFF, 0xFF] false "application/zip",
    [0x52, 0x61, 0x72, 0x20, 0x1A, 0x07, 0x00] [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] false "application/x-rar-compressed",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_data_bytes_are_the_standards() {
        let binary: Vec<u8> = (0u8..=0xFF).filter(|&b| is_binary_data_byte(b)).collect();
        let want: Vec<u8> = (0x00..=0x08)
            .chain([0x0B])
            .chain(0x0E..=0x1A)
            .chain(0x1C..=0x1F)
            .collect();
        assert_eq!(binary, want);
    }

    #[test]
    fn text_or_binary() {
        assert!(!is_binary(b""));
        assert!(!is_binary(b"<"));
        assert!(!is_binary("caf\u{e9} \t\r\n\x0c\x1b".as_bytes()));
        assert!(is_binary(b"<p>a\0b</p>"));
        assert!(!is_binary(b"\xFF\xFE<\0p\0>\0"));
        assert!(!is_binary(b"\xFE\xFF\0<\0p"));
        // Only the resource header counts.
        let mut late = vec![b'a'; RESOURCE_HEADER_LEN];
        late.push(0);
        assert!(!is_binary(&late));
        late[RESOURCE_HEADER_LEN - 1] = 0;
        assert!(is_binary(&late));
    }

    #[test]
    fn names_the_signatures() {
        let cases: &[(&[u8], &str)] = &[
            (b"GIF89a\x01\0\x01\0", "image/gif"),
            (b"\xFF\xD8\xFF\xE0\0\x10JFIF", "image/jpeg"),
            (b"RIFF\x10\0\0\0WEBPVP8 ", "image/webp"),
            (b"RIFF\x10\0\0\0WAVEfmt ", "audio/wave"),
            (b"%PDF-1.7\n", "text/plain"), // only with the scriptable flag
            (b"PK\x03\x04\x14\0\0\0", "application/zip"),
            (b"\x1f\x8b\x08\0\0\0\0\0", "application/x-gzip"),
            // Fonts are not sniffed for an unknown type (the rules for
            // identifying an unknown MIME type: https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type).
            (b"wOF2\0\x01\0\0", "application/octet-stream"),
            (b"\0\0\0\x18ftypmp42\0\0\0\0mp41isom", "video/mp4"),
            (
                b"\0\0\0\x18ftypisom\0\0\0\0iso2avc1",
                "application/octet-stream",
            ),
            (b"ID3\x03\0\0\0", "audio/mpeg"),
            (b"plain text", "text/plain"),
            (b"\x01\x02\x03", "application/octet-stream"),
        ];
        for (bytes, want) in cases {
            assert_eq!(identify_unknown(bytes, false), *want, "{bytes:?}");
        }
    }

    #[test]
    fn scriptable_patterns() {
        let html: &[&[u8]] = &[
            b"<!DOCTYPE html>",
            b"\r\n <!doctype HTML>",
            b"<html>",
            b"<HEAD ",
            b"<script>",
            b"<h1>x",
            b"<a href>",
            b"<b>",
            b"<br>",
            b"<p>",
            b"<!-- c -->",
            b"<TITLE>",
        ];
        for bytes in html {
            assert_eq!(identify_unknown(bytes, true), "text/html", "{bytes:?}");
        }
        let other: &[(&[u8], &str)] = &[
            (b"<html", "text/plain"), // no tag-terminating byte
            (b"<bx>", "text/plain"),
            (b"<h2>", "text/plain"),
            (b"<?xml version", "text/xml"),
            (b"%PDF-1.4", "application/pdf"),
            (b"x <p>", "text/plain"),
        ];
        for (bytes, want) in other {
            assert_eq!(identify_unknown(bytes, true), *want, "{bytes:?}");
        }
    }
}
