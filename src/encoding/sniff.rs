//! The [encoding sniffing algorithm](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm) and its
//! pieces: BOM sniffing, the `<meta>` prescan with "get an attribute" and
//! "get an XML encoding", and the
//! [algorithm for extracting a character encoding from a meta element](https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element).

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};
use memchr::{memchr, memmem};

use super::{Confidence, DecodeOptions, EncodingSource};
use crate::scan::is_ascii_whitespace;

/// How many bytes the `<meta>` prescan looks at by default: the standard
/// encourages user agents to prescan only the first 1024 bytes, and
/// browsers do exactly that.
pub const PRESCAN_BYTES: usize = 1024;

/// The result of the encoding sniffing algorithm, before any decoding: see
/// [`sniff`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sniffed {
    /// The encoding to decode with.
    pub encoding: &'static Encoding,
    /// Certain (a BOM, a user override, the transport layer) or tentative
    /// (the prescan, UTF-8 detection, the default).
    pub confidence: Confidence,
    /// Which step of the algorithm decided.
    pub source: EncodingSource,
    /// Length of the byte order mark at the start of the bytes (0, 2 or 3).
    /// Decoding skips it.
    pub bom_len: usize,
}

/// Runs the [encoding sniffing algorithm](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm) over the whole input
/// (nothing is decoded or copied):
///
/// 1. a byte order mark: UTF-8 `EF BB BF`, UTF-16BE `FE FF`, UTF-16LE
///    `FF FE`, certain;
/// 2. the user's override ([`DecodeOptions::override_encoding`]), certain;
/// 3. the transport layer's charset ([`DecodeOptions::transport_charset`]),
///    certain, when it is a known label (an unknown one is ignored);
/// 4. the `<meta>` prescan of the first [`DecodeOptions::prescan_bytes`]
///    bytes ([`prescan`]), tentative;
/// 5. optionally, UTF-8 detection ([`DecodeOptions::detect_utf8`]),
///    tentative;
/// 6. the default ([`DecodeOptions::default_encoding`], windows-1252),
///    tentative.
///
/// ```
/// use htmltok::encoding::{sniff, Sniffed};
/// use htmltok::{Confidence, DecodeOptions, EncodingSource, encoding_rs};
///
/// let s = sniff(b"<meta charset=koi8-r><p>\xf0\xd2\xc9", &DecodeOptions::default());
/// assert_eq!(s.encoding, encoding_rs::KOI8_R);
/// assert_eq!((s.confidence, s.source), (Confidence::Tentative, EncodingSource::Prescan));
///
/// let opts = DecodeOptions::default().transport_charset("utf-8");
/// assert_eq!(sniff(b"<meta charset=koi8-r>", &opts).source, EncodingSource::Transport);
/// ```
pub fn sniff(bytes: &[u8], opts: &DecodeOptions) -> Sniffed {
    let sniffed = |encoding, confidence, source| Sniffed {
        encoding,
        confidence,
        source,
        bom_len: 0,
    };
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return Sniffed {
            bom_len,
            ..sniffed(encoding, Confidence::Certain, EncodingSource::Bom)
        };
    }
    if let Some(encoding) = opts.override_encoding {
        return sniffed(encoding, Confidence::Certain, EncodingSource::Override);
    }
    if let Some(encoding) = opts
        .transport_charset
        .as_deref()
        .and_then(|label| Encoding::for_label(label.as_bytes()))
    {
        return sniffed(encoding, Confidence::Certain, EncodingSource::Transport);
    }
    if opts.prescan_bytes > 0 {
        let window = &bytes[..bytes.len().min(opts.prescan_bytes)];
        if let Some(encoding) = prescan(window) {
            return sniffed(encoding, Confidence::Tentative, EncodingSource::Prescan);
        }
    }
    if opts.detect_utf8 && !bytes.is_ascii() && core::str::from_utf8(bytes).is_ok() {
        return sniffed(UTF_8, Confidence::Tentative, EncodingSource::Utf8Detection);
    }
    sniffed(
        opts.default_encoding,
        Confidence::Tentative,
        EncodingSource::Default,
    )
}

// ---------------------------------------------------------------------------
// Prescan a byte stream to determine its encoding
// ---------------------------------------------------------------------------

/// "Prescan a byte stream to determine its encoding" over all of `bytes`
/// (pass the window to scan; [`sniff`] passes the first
/// [`PRESCAN_BYTES`]). Returns the encoding a `<meta charset>` or
/// `<meta http-equiv=content-type content="...; charset=...">` declares
/// (UTF-16 taken as UTF-8, x-user-defined as windows-1252), or the UTF-16
/// of a UTF-16 `<?x` start, or, when the scan runs out of bytes without
/// either, the encoding of an XML declaration (`<?xml ... encoding="...">`)
/// at the very start; `None` when there is none of these.
///
/// Comments, `<!...>`, `</...>`, `<?...>` and the attributes of other tags
/// are skipped, so a `<meta>` inside a comment or an attribute value does not
/// count; one inside `<script>` or `<style>` text does, as in browsers.
///
/// ```
/// use htmltok::encoding::prescan;
/// use htmltok::encoding_rs;
///
/// assert_eq!(prescan(b"<meta charset='iso8859-2'>"), Some(encoding_rs::ISO_8859_2));
/// assert_eq!(
///     prescan(br#"<meta http-equiv="Content-Type" content="text/html; charset=euc-jp">"#),
///     Some(encoding_rs::EUC_JP),
/// );
/// // A `content` charset counts only with http-equiv=content-type.
/// assert_eq!(prescan(br#"<meta content="text/html; charset=euc-jp">"#), None);
/// assert_eq!(prescan(b"<!-- <meta charset=euc-jp> -->"), None);
/// assert_eq!(prescan(b"<meta charset=utf-16>"), Some(encoding_rs::UTF_8));
/// ```
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    match prescan_markup(bytes) {
        Some(encoding) => Some(encoding),
        // The scan only ends by running out of bytes (or by reaching the
        // end of the window, which is the same thing here): then the answer
        // is "get an XML encoding" over the same bytes.
        None => xml_encoding(bytes),
    }
}

/// What a `<meta>`'s `charset` is while its attributes are read: the
/// standard's "null" (not seen), "failure" (a charset attribute that is no
/// label), or an encoding.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Charset {
    Null,
    Failure,
    Found(&'static Encoding),
}

/// The prescan's own steps. `None` means it ran out of bytes.
fn prescan_markup(b: &[u8]) -> Option<&'static Encoding> {
    // Prescan for UTF-16 XML declarations ('<?x' in UTF-16, case-sensitive;
    // two bytes longer than XML's Appendix F, and the name is not checked).
    if b.starts_with(&[0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00]) {
        return Some(UTF_16LE);
    }
    if b.starts_with(&[0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78]) {
        return Some(UTF_16BE);
    }
    let mut pos = 0;
    // Loop. Every branch leaves `pos` on the last byte it consumed; "next
    // byte" then moves past it.
    while pos < b.len() {
        let rest = &b[pos..];
        if rest.starts_with(b"<!--") {
            // The first '>' preceded by "--", after the '<'; the dashes may
            // be those of "<!--" itself ("<!-->").
            let dashes = memmem::find(&b[pos + 2..], b"-->")?;
            pos += 2 + dashes + 2;
        } else if is_meta_open(rest) {
            // Onto the space or slash after "<meta".
            pos += 5;
            if let Some(encoding) = meta_attributes(b, &mut pos)? {
                return Some(encoding);
            }
        } else if is_tag_open(rest) {
            // Any other tag: to the next space or '>', then past every
            // attribute.
            pos += rest
                .iter()
                .position(|&c| is_ascii_whitespace(c) || c == b'>')?;
            while get_attribute(b, &mut pos)?.is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            // To the first '>' after the '<'.
            pos += 1 + memchr(b'>', &rest[1..])?;
        }
        // Next byte.
        pos += 1;
    }
    None
}

/// `<meta` (any case) followed by one of TAB, LF, FF, CR, SPACE, `/`.
fn is_meta_open(rest: &[u8]) -> bool {
    rest.len() >= 6
        && rest[0] == b'<'
        && rest[1..5].eq_ignore_ascii_case(b"meta")
        && (is_ascii_whitespace(rest[5]) || rest[5] == b'/')
}

/// `<`, optionally `/`, then an ASCII letter.
fn is_tag_open(rest: &[u8]) -> bool {
    match rest {
        [b'<', c, ..] if c.is_ascii_alphabetic() => true,
        [b'<', b'/', c, ..] => c.is_ascii_alphabetic(),
        _ => false,
    }
}

/// The `<meta>` branch of the prescan from its "attributes" step to its
/// "processing" step. `Some(Some(e))`: the prescan returns `e`;
/// `Some(None)`: go on with the next byte; `None`: ran out of bytes.
fn meta_attributes(b: &[u8], pos: &mut usize) -> Option<Option<&'static Encoding>> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    let mut charset = Charset::Null;
    while let Some((name, value)) = get_attribute(b, pos)? {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value == b"content-type",
            b"content" => {
                if let Some(encoding) = extract_meta_charset(&value) {
                    if charset == Charset::Null {
                        charset = Charset::Found(encoding);
                        need_pragma = Some(true);
                    }
                }
            }
            b"charset" => {
                charset = match Encoding::for_label(&value) {
                    Some(encoding) => Charset::Found(encoding),
                    None => Charset::Failure,
                };
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    // Processing.
    let Some(need_pragma) = need_pragma else {
        return Some(None);
    };
    if need_pragma && !got_pragma {
        return Some(None);
    }
    match charset {
        Charset::Found(encoding) => Some(Some(for_declaration(encoding))),
        Charset::Null | Charset::Failure => Some(None),
    }
}

/// The prescan's (and "change the encoding"'s) substitutions for a declared
/// encoding: a document that declares UTF-16 in ASCII bytes is not UTF-16,
/// so UTF-16BE/LE become UTF-8, and x-user-defined becomes windows-1252.
pub(crate) fn for_declaration(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else if encoding == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        encoding
    }
}

/// A name and value the prescan's "get an attribute" read, ASCII
/// lowercased, as bytes (only ASCII can make a label).
type Attr = (Vec<u8>, Vec<u8>);

/// "Get an attribute": `Some(Some(attr))`, `Some(None)` when there is none
/// (a `>`), `None` when the bytes ran out.
fn get_attribute(b: &[u8], pos: &mut usize) -> Option<Option<Attr>> {
    let at = |pos: usize| b.get(pos).copied();
    // Step 1: skip whitespace and slashes.
    while is_ascii_whitespace(at(*pos)?) || at(*pos)? == b'/' {
        *pos += 1;
    }
    // Step 2.
    if at(*pos)? == b'>' {
        return Some(None);
    }
    // Step 3.
    let mut name = Vec::new();
    let mut value = Vec::new();
    // Steps 4-5: the name.
    loop {
        match at(*pos)? {
            b'=' if !name.is_empty() => {
                *pos += 1;
                break;
            }
            c if is_ascii_whitespace(c) => {
                // Steps 6-8, "spaces".
                while is_ascii_whitespace(at(*pos)?) {
                    *pos += 1;
                }
                if at(*pos)? != b'=' {
                    return Some(Some((name, value)));
                }
                *pos += 1;
                break;
            }
            b'/' | b'>' => return Some(Some((name, value))),
            c => name.push(c.to_ascii_lowercase()),
        }
        *pos += 1;
    }
    // Step 9, "value": skip whitespace.
    while is_ascii_whitespace(at(*pos)?) {
        *pos += 1;
    }
    // Step 10.
    match at(*pos)? {
        quote @ (b'"' | b'\'') => loop {
            *pos += 1;
            let c = at(*pos)?;
            if c == quote {
                *pos += 1;
                return Some(Some((name, value)));
            }
            value.push(c.to_ascii_lowercase());
        },
        b'>' => return Some(Some((name, value))),
        c => {
            value.push(c.to_ascii_lowercase());
            *pos += 1;
        }
    }
    // Steps 11-12: the rest of an unquoted value.
    loop {
        match at(*pos)? {
            c if is_ascii_whitespace(c) || c == b'>' => return Some(Some((name, value))),
            c => value.push(c.to_ascii_lowercase()),
        }
        *pos += 1;
    }
}

/// "Get an XML encoding": the encoding named by `encoding="..."` in an XML
/// declaration at the very start of `bytes` (UTF-16 taken as UTF-8).
fn xml_encoding(b: &[u8]) -> Option<&'static Encoding> {
    if !b.starts_with(b"<?xml") {
        return None;
    }
    // The declaration ends at the first '>'; "encoding" and its value are
    // looked for inside it.
    let decl = &b[..memchr(b'>', b)?];
    let mut pos = memmem::find(decl, b"encoding")? + b"encoding".len();
    while *decl.get(pos)? <= 0x20 {
        pos += 1;
    }
    if decl[pos] != b'=' {
        return None;
    }
    pos += 1;
    while *decl.get(pos)? <= 0x20 {
        pos += 1;
    }
    let quote = decl[pos];
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    pos += 1;
    let len = memchr(quote, &decl[pos..])?;
    let label = &decl[pos..pos + len];
    if label.iter().any(|&c| c <= 0x20) {
        return None;
    }
    let encoding = Encoding::for_label(label)?;
    if encoding == UTF_16BE || encoding == UTF_16LE {
        Some(UTF_8)
    } else {
        Some(encoding)
    }
}

// ---------------------------------------------------------------------------
// Extracting a character encoding from a meta element
// ---------------------------------------------------------------------------

/// "The algorithm for extracting a character encoding from a meta element"
/// applied to a `content` attribute value such as
/// `text/html; charset=Shift_JIS`: finds `charset` (any case), then `=`,
/// then a value, quoted or up to whitespace or `;`, and gets the encoding
/// that label names. Returns `None` when there is no such value, the quote
/// is unmatched, or the label is unknown.
///
/// Takes bytes so that the prescan (bytes) and a tokenized `<meta>` (a
/// `&str`, via `as_bytes`) share it.
///
/// ```
/// use htmltok::encoding::extract_meta_charset;
/// use htmltok::encoding_rs;
///
/// assert_eq!(extract_meta_charset(b"text/html; charset=Shift_JIS"), Some(encoding_rs::SHIFT_JIS));
/// assert_eq!(extract_meta_charset(b"text/html; CHARSET = 'koi8-r'"), Some(encoding_rs::KOI8_R));
/// assert_eq!(extract_meta_charset(b"text/html; charset='utf-8"), None); // unmatched quote
/// assert_eq!(extract_meta_charset(b"text/html"), None);
/// ```
pub fn extract_meta_charset(s: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    loop {
        // Loop: the next "charset", ASCII case-insensitively.
        let found = s[pos..]
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        pos += found + 7;
        while s.get(pos).is_some_and(|&c| is_ascii_whitespace(c)) {
            pos += 1;
        }
        if s.get(pos) != Some(&b'=') {
            // Just before that next character, and loop.
            continue;
        }
        pos += 1;
        while s.get(pos).is_some_and(|&c| is_ascii_whitespace(c)) {
            pos += 1;
        }
        return match *s.get(pos)? {
            quote @ (b'"' | b'\'') => {
                let len = memchr(quote, &s[pos + 1..])?;
                Encoding::for_label(&s[pos + 1..pos + 1 + len])
            }
            _ => {
                let len = s[pos..]
                    .iter()
                    .position(|&c| is_ascii_whitespace(c) || c == b';')
                    .unwrap_or(s.len() - pos);
                Encoding::for_label(&s[pos..pos + len])
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{EUC_JP, ISO_8859_2, KOI8_R, SHIFT_JIS, WINDOWS_1251};

    #[test]
    fn prescan_charset_forms() {
        assert_eq!(prescan(b"<meta charset=\"iso8859-2\">"), Some(ISO_8859_2));
        assert_eq!(prescan(b"<meta charset=iso8859-2>"), Some(ISO_8859_2));
        assert_eq!(prescan(b"<META\ncharset=iso8859-2>"), Some(ISO_8859_2));
        assert_eq!(prescan(b"<meta/charset=iso8859-2>"), Some(ISO_8859_2));
        assert_eq!(prescan(b"<meta   charset   =   'euc-jp'>"), Some(EUC_JP));
        assert_eq!(prescan(b"<metacharset=iso8859-2>"), None);
        // Runs out of bytes inside the value: nothing.
        assert_eq!(prescan(b"<meta charset=euc-jp"), None);
        assert_eq!(prescan(b"<meta charset=euc-jp "), None);
    }

    #[test]
    fn prescan_pragma_rules() {
        let ok = br#"<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">"#;
        assert_eq!(prescan(ok), Some(KOI8_R));
        let reversed = br#"<meta content="text/html; charset=koi8-r" http-equiv="content-type">"#;
        assert_eq!(prescan(reversed), Some(KOI8_R));
        let no_pragma = br#"<meta content="text/html; charset=koi8-r">"#;
        assert_eq!(prescan(no_pragma), None);
        let other_pragma = br#"<meta http-equiv="Content-Style-Type" content="charset=koi8-r">"#;
        assert_eq!(prescan(other_pragma), None);
        // charset wins over content whatever the order, and needs no pragma.
        let both = br#"<meta content="charset=koi8-r" charset="windows-1251">"#;
        assert_eq!(prescan(both), Some(WINDOWS_1251));
        // A charset attribute that is no label is "failure", not "null":
        // a later content no longer counts, and the meta gives nothing.
        let failure =
            br#"<meta charset="bogus" http-equiv="content-type" content="charset=koi8-r">"#;
        assert_eq!(prescan(failure), None);
        // The first of duplicate attributes counts.
        let dup = br#"<meta charset="koi8-r" charset="euc-jp">"#;
        assert_eq!(prescan(dup), Some(KOI8_R));
    }

    #[test]
    fn prescan_substitutions() {
        assert_eq!(prescan(b"<meta charset=utf-16be>"), Some(UTF_8));
        assert_eq!(prescan(b"<meta charset=utf-16le>"), Some(UTF_8));
        assert_eq!(
            prescan(b"<meta charset=x-user-defined>"),
            Some(WINDOWS_1252)
        );
    }

    #[test]
    fn prescan_skips_markup() {
        assert_eq!(prescan(b"<!-- <meta charset=koi8-r> -->"), None);
        assert_eq!(prescan(b"<!--><meta charset=koi8-r>"), Some(KOI8_R));
        assert_eq!(prescan(b"<!---><meta charset=koi8-r>"), Some(KOI8_R));
        assert_eq!(prescan(b"<!-- -- ><meta charset=koi8-r>"), None);
        assert_eq!(prescan(b"<p title='<meta charset=koi8-r>'>"), None);
        assert_eq!(prescan(b"<p title=x><meta charset=koi8-r>"), Some(KOI8_R));
        assert_eq!(prescan(b"</p foo='<meta charset=euc-jp>'>"), None);
        assert_eq!(
            prescan(b"<!DOCTYPE html><meta charset=koi8-r>"),
            Some(KOI8_R)
        );
        assert_eq!(prescan(b"<?php <meta charset=koi8-r> ?>"), None);
        assert_eq!(
            prescan(b"<script><meta charset=koi8-r></script>"),
            Some(KOI8_R)
        );
        // `<` followed by neither letter nor `!/?` is just a byte.
        assert_eq!(prescan(b"1 < 2 <meta charset=koi8-r>"), Some(KOI8_R));
    }

    #[test]
    fn prescan_utf16_and_xml() {
        assert_eq!(prescan(b"<\0?\0x\0m\0l\0"), Some(UTF_16LE));
        assert_eq!(prescan(b"\0<\0?\0x\0m\0l"), Some(UTF_16BE));
        let xml = br#"<?xml version="1.0" encoding="Shift_JIS"?><p>"#;
        assert_eq!(prescan(xml), Some(SHIFT_JIS));
        let xml16 = br#"<?xml version="1.0" encoding='utf-16'?>"#;
        assert_eq!(prescan(xml16), Some(UTF_8));
        // Only at the very start, and a meta wins.
        assert_eq!(prescan(br#" <?xml encoding="Shift_JIS"?>"#), None);
        let both = br#"<?xml encoding="Shift_JIS"?><meta charset=koi8-r>"#;
        assert_eq!(prescan(both), Some(KOI8_R));
        assert_eq!(prescan(br#"<?xml encoding="Shift JIS"?>"#), None);
        assert_eq!(prescan(br#"<?xml encoding=Shift_JIS?>"#), None);
    }

    #[test]
    fn extract_meta_charset_cases() {
        let e = |s: &str| extract_meta_charset(s.as_bytes());
        assert_eq!(e("charset=koi8-r"), Some(KOI8_R));
        assert_eq!(e("text/html;charset=koi8-r;foo"), Some(KOI8_R));
        assert_eq!(e("text/html; charset=\"koi8-r\""), Some(KOI8_R));
        assert_eq!(e("charsetcharset=koi8-r"), Some(KOI8_R));
        assert_eq!(e("charset x charset=koi8-r"), Some(KOI8_R));
        assert_eq!(e("charset="), None);
        assert_eq!(e("charset=\"koi8-r"), None);
        assert_eq!(e("charset=bogus"), None);
        assert_eq!(e("text/html"), None);
    }

    #[test]
    fn sniff_order() {
        let o = DecodeOptions::default();
        let bom = sniff(b"\xEF\xBB\xBF<meta charset=koi8-r>", &o);
        assert_eq!((bom.encoding, bom.bom_len), (UTF_8, 3));
        assert_eq!(bom.source, EncodingSource::Bom);
        let be = sniff(b"\xFE\xFF\0<", &o.clone().override_encoding(KOI8_R));
        assert_eq!(
            (be.encoding, be.bom_len, be.source),
            (UTF_16BE, 2, EncodingSource::Bom)
        );
        let ov = sniff(
            b"<meta charset=koi8-r>",
            &o.clone().override_encoding(EUC_JP),
        );
        assert_eq!((ov.encoding, ov.source), (EUC_JP, EncodingSource::Override));
        let tr = sniff(
            b"<meta charset=koi8-r>",
            &o.clone().transport_charset("utf-16"),
        );
        assert_eq!(
            (tr.encoding, tr.source),
            (UTF_16LE, EncodingSource::Transport)
        );
        assert_eq!(tr.confidence, Confidence::Certain);
        let unknown = sniff(
            b"<meta charset=koi8-r>",
            &o.clone().transport_charset("nope"),
        );
        assert_eq!(
            (unknown.encoding, unknown.source),
            (KOI8_R, EncodingSource::Prescan)
        );
        let def = sniff("<p>é".as_bytes(), &o);
        assert_eq!(
            (def.encoding, def.source),
            (WINDOWS_1252, EncodingSource::Default)
        );
        let det = sniff("<p>é".as_bytes(), &o.clone().detect_utf8(true));
        assert_eq!(
            (det.encoding, det.source),
            (UTF_8, EncodingSource::Utf8Detection)
        );
        let no_scan = sniff(b"<meta charset=koi8-r>", &o.clone().prescan_bytes(0));
        assert_eq!(no_scan.source, EncodingSource::Default);
    }

    #[test]
    fn prescan_window() {
        let mut page = b"<!--".to_vec();
        page.resize(1100, b'x');
        page.extend_from_slice(b"--><meta charset=koi8-r>");
        let o = DecodeOptions::default();
        assert_eq!(sniff(&page, &o).source, EncodingSource::Default);
        let wide = sniff(&page, &o.clone().prescan_bytes(4096));
        assert_eq!(
            (wide.encoding, wide.source),
            (KOI8_R, EncodingSource::Prescan)
        );
    }
}
