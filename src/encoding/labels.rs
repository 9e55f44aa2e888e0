//! Encoding names as the WHATWG Encoding Standard writes them.

use encoding_rs::Encoding;

/// Every encoding of the Encoding Standard with its name in lowercase, which
/// is also one of its labels. encoding_rs names them with the standard's
/// capitalization ("Shift_JIS", "UTF-8"); html5lib-tests, the HTTP world and
/// most tools write the lowercase form ("shift_jis", "utf-8").
static CANONICAL: [(&Encoding, &str); 40] = [
    (encoding_rs::UTF_8, "utf-8"),
    (encoding_rs::IBM866, "ibm866"),
    (encoding_rs::ISO_8859_2, "iso-8859-2"),
    (encoding_rs::ISO_8859_3, "iso-8859-3"),
    (encoding_rs::ISO_8859_4, "iso-8859-4"),
    (encoding_rs::ISO_8859_5, "iso-8859-5"),
    (encoding_rs::ISO_8859_6, "iso-8859-6"),
    (encoding_rs::ISO_8859_7, "iso-8859-7"),
    (encoding_rs::ISO_8859_8, "iso-8859-8"),
    (encoding_rs::ISO_8859_8_I, "iso-8859-8-i"),
    (encoding_rs::ISO_8859_10, "iso-8859-10"),
    (encoding_rs::ISO_8859_13, "iso-8859-13"),
    (encoding_rs::ISO_8859_14, "iso-8859-14"),
    (encoding_rs::ISO_8859_15, "iso-8859-15"),
    (encoding_rs::ISO_8859_16, "iso-8859-16"),
    (encoding_rs::KOI8_R, "koi8-r"),
    (encoding_rs::KOI8_U, "koi8-u"),
    (encoding_rs::MACINTOSH, "macintosh"),
    (encoding_rs::WINDOWS_874, "windows-874"),
    (encoding_rs::WINDOWS_1250, "windows-1250"),
    (encoding_rs::WINDOWS_1251, "windows-1251"),
    (encoding_rs::WINDOWS_1252, "windows-1252"),
    (encoding_rs::WINDOWS_1253, "windows-1253"),
    (encoding_rs::WINDOWS_1254, "windows-1254"),
    (encoding_rs::WINDOWS_1255, "windows-1255"),
    (encoding_rs::WINDOWS_1256, "windows-1256"),
    (encoding_rs::WINDOWS_1257, "windows-1257"),
    (encoding_rs::WINDOWS_1258, "windows-1258"),
    (encoding_rs::X_MAC_CYRILLIC, "x-mac-cyrillic"),
    (encoding_rs::GBK, "gbk"),
    (encoding_rs::GB18030, "gb18030"),
    (encoding_rs::BIG5, "big5"),
    (encoding_rs::EUC_JP, "euc-jp"),
    (encoding_rs::ISO_2022_JP, "iso-2022-jp"),
    (encoding_rs::SHIFT_JIS, "shift_jis"),
    (encoding_rs::EUC_KR, "euc-kr"),
    (encoding_rs::REPLACEMENT, "replacement"),
    (encoding_rs::UTF_16BE, "utf-16be"),
    (encoding_rs::UTF_16LE, "utf-16le"),
    (encoding_rs::X_USER_DEFINED, "x-user-defined"),
];

/// The encoding's name in lowercase: `"utf-8"`, `"windows-1252"`,
/// `"shift_jis"`, `"euc-kr"`, `"utf-16le"`.
///
/// This is the form html5lib-tests expects and the one to print.
/// [`Encoding::name`] gives the standard's capitalization (`"Shift_JIS"`,
/// `"UTF-8"`) instead. Every lowercase name is also a label of its encoding,
/// so [`encoding_for_label`] turns it back into the encoding.
///
/// ```
/// use htmltok::{canonical_label, encoding_rs};
/// assert_eq!(canonical_label(encoding_rs::SHIFT_JIS), "shift_jis");
/// assert_eq!(canonical_label(encoding_rs::WINDOWS_1252), "windows-1252");
/// assert_eq!(encoding_rs::SHIFT_JIS.name(), "Shift_JIS");
/// ```
pub fn canonical_label(encoding: &'static Encoding) -> &'static str {
    CANONICAL
        .iter()
        .find(|(e, _)| *e == encoding)
        .map(|(_, label)| *label)
        // encoding_rs has exactly the 40 encodings above; should a later
        // version add one, fall back to its name (ASCII already).
        .unwrap_or_else(|| encoding.name())
}

/// The encoding a label names, by the Encoding Standard's "get an encoding"
/// (ASCII whitespace around the label is ignored, case does not matter),
/// or `None` for an unknown label.
///
/// ```
/// use htmltok::{encoding_for_label, encoding_rs};
/// assert_eq!(encoding_for_label(" Latin1 "), Some(encoding_rs::WINDOWS_1252));
/// assert_eq!(encoding_for_label("sjis"), Some(encoding_rs::SHIFT_JIS));
/// assert_eq!(encoding_for_label("utf-16"), Some(encoding_rs::UTF_16LE));
/// assert_eq!(encoding_for_label("no-such-encoding"), None);
/// ```
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_canonical_label_is_the_lowercased_name_and_a_label() {
        for (encoding, label) in CANONICAL {
            assert_eq!(label, encoding.name().to_ascii_lowercase());
            assert_eq!(canonical_label(encoding), label);
            assert_eq!(encoding_for_label(label), Some(encoding), "{label}");
        }
    }

    #[test]
    fn table_has_no_duplicates() {
        for (i, (a, _)) in CANONICAL.iter().enumerate() {
            for (b, _) in &CANONICAL[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
