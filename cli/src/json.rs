//! Writing JSON as it comes: the commands' outputs are JSON Lines whose
//! parts (a text token, a tag's attributes) can be as long
//! as the page, so they are written piece by piece, never built whole.
//! Strings are escaped as `serde_json` escapes them, so a line written in
//! pieces is the line `serde_json` would write whole.

use std::io::{self, Write};

use serde_json::Value;

use crate::page::Label;

/// Writes one JSON value and a newline.
pub fn write_line(out: &mut impl Write, value: &Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

/// Writes one JSON object and a newline: `label`'s fields (`"file"`, and
/// a record's), then those of `rest`, an object.
pub fn write_labelled(out: &mut impl Write, label: Label<'_>, rest: &Value) -> io::Result<()> {
    out.write_all(b"{")?;
    label.write_json(out)?;
    let rest = serde_json::to_vec(rest)?;
    match rest.strip_prefix(b"{") {
        Some(fields) if fields != b"}" => {
            out.write_all(b",")?;
            out.write_all(fields)?;
        }
        _ => out.write_all(b"}")?,
    }
    out.write_all(b"\n")
}

/// Writes `s` as a JSON string, quotes included.
pub fn write_str(out: &mut (impl Write + ?Sized), s: &str) -> io::Result<()> {
    if escapes_nothing(s) {
        out.write_all(b"\"")?;
        out.write_all(s.as_bytes())?;
        return out.write_all(b"\"");
    }
    serde_json::to_writer(out, s).map_err(io::Error::from)
}

/// Writes `s` as the inside of a JSON string: escaped, without the quotes.
/// Escaping works character by character, so pieces of a string written
/// one after the other make the whole string.
pub fn write_str_contents(out: &mut impl Write, s: &str) -> io::Result<()> {
    if escapes_nothing(s) {
        return out.write_all(s.as_bytes());
    }
    let mut quoted = Vec::with_capacity(s.len() + 2);
    serde_json::to_writer(&mut quoted, s)?;
    out.write_all(&quoted[1..quoted.len() - 1])
}

/// Whether `serde_json` writes `s` as it is between the quotes: it escapes
/// `"`, `\\` and the control characters below U+0020, nothing else. Most
/// strings (URLs, names, text) have none of them, and are written in one
/// copy where `serde_json`'s writer goes through its formatter (18 M
/// instructions for the 17,000 links of the corpus).
fn escapes_nothing(s: &str) -> bool {
    // Folded without an early exit, so the compiler checks 16 bytes a step.
    s.bytes().fold(true, |plain, b| {
        plain & (b >= 0x20) & (b != b'"') & (b != b'\\')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strings written without `serde_json` are the strings it writes:
    /// every byte alone and between others.
    #[test]
    fn plain_strings_as_serde_json_writes_them() {
        let mut cases: Vec<String> = (0..=0x7F_u8).map(|b| char::from(b).to_string()).collect();
        cases.extend((0..=0x7F_u8).map(|b| format!("ab{}cd", char::from(b))));
        cases.extend(
            [
                "",
                "https://example.com/a?b=c#d",
                "\u{e9}\u{1F600}",
                "\u{7F}\u{85}",
            ]
            .map(String::from),
        );
        for s in &cases {
            let mut ours = Vec::new();
            write_str(&mut ours, s).unwrap();
            assert_eq!(ours, serde_json::to_vec(s).unwrap(), "{s:?}");
            let mut contents = Vec::new();
            write_str_contents(&mut contents, s).unwrap();
            assert_eq!(contents, ours[1..ours.len() - 1], "{s:?}");
        }
    }

    #[test]
    fn pieces_make_the_whole_string() {
        let s = "a\"b\\c\nd\u{1}\u{e9}\u{1F600}\t";
        let mut whole = Vec::new();
        write_str(&mut whole, s).unwrap();
        let mut pieces = b"\"".to_vec();
        for c in s.chars() {
            let mut buf = [0; 4];
            write_str_contents(&mut pieces, c.encode_utf8(&mut buf)).unwrap();
        }
        pieces.push(b'"');
        assert_eq!(pieces, whole);
    }
}
