//! Writing JSON as it comes: the commands' outputs are JSON Lines whose
//! parts (a text token, a tag's attributes) can be as long
//! as the page, so they are written piece by piece, never built whole.
//! Strings are escaped as `serde_json` escapes them, so a line written in
//! pieces is the line `serde_json` would write whole.

use std::io::{self, Write};

use serde_json::Value;

/// Writes one JSON value and a newline.
pub fn write_line(out: &mut impl Write, value: &Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

/// Writes `s` as a JSON string, quotes included.
pub fn write_str(out: &mut (impl Write + ?Sized), s: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    write_str_contents(out, s)?;
    out.write_all(b"\"")
}

/// Writes `s` as the inside of a JSON string: escaped, without the quotes.
/// Escaping works character by character, so pieces of a string written
/// one after the other make the whole string.
///
/// It escapes what `serde_json` escapes, as `serde_json` writes it (`"`,
/// `\\`, and the control characters below U+0020: `\n`, `\t` and the like
/// where JSON has them, `\u001f` for the rest), so that the lines are the
/// ones `serde_json` would write. Written here because `serde_json` looks
/// at a string a byte at a time, through a table: about 10 instructions a
/// byte, as much as tokenizing, for a page's text in an archive's JSON
/// lines (whose line breaks always need escaping; 38 M instructions of
/// `htmltok text` over the corpus twice as an archive). Here 32 bytes are
/// tested at once, and the runs between escapes are copied whole.
pub fn write_str_contents(out: &mut (impl Write + ?Sized), s: &str) -> io::Result<()> {
    let bytes = s.as_bytes();
    let mut written = 0;
    for (n, block) in bytes.chunks(32).enumerate() {
        // Folded without an early exit, so the compiler tests the block in
        // vector registers.
        if !block.iter().fold(false, |any, &b| any | escaped(b)) {
            continue;
        }
        for (i, &b) in block.iter().enumerate() {
            if escaped(b) {
                let at = 32 * n + i;
                out.write_all(&bytes[written..at])?;
                write_escape(out, b)?;
                written = at + 1;
            }
        }
    }
    out.write_all(&bytes[written..])
}

/// Whether JSON needs `b` escaped in a string.
#[inline(always)]
fn escaped(b: u8) -> bool {
    (b < 0x20) | (b == b'"') | (b == b'\\')
}

/// Writes the escape of a byte that [`escaped`] holds.
fn write_escape(out: &mut (impl Write + ?Sized), b: u8) -> io::Result<()> {
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        b'\n' => b'n',
        b'\t' => b't',
        b'\r' => b'r',
        0x08 => b'b',
        0x0C => b'f',
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let (high, low) = (HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xF)]);
            return out.write_all(&[b'\\', b'u', b'0', b'0', high, low]);
        }
    };
    out.write_all(&[b'\\', short])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strings are the strings `serde_json` writes: every ASCII byte
    /// alone, between others, doubled, at every place around the edges of
    /// a block of 32; long and non-ASCII text.
    #[test]
    fn strings_as_serde_json_writes_them() {
        let mut cases: Vec<String> = (0..=0x7F_u8).map(|b| char::from(b).to_string()).collect();
        for b in 0..=0x7F_u8 {
            let c = char::from(b);
            cases.push(format!("ab{c}cd"));
            cases.push(format!("{c}{c}x\n"));
            for at in [1, 15, 16, 30, 31, 32, 33, 63, 64, 70] {
                cases.push(format!("{}{c}{}", "a".repeat(at), "é".repeat(20)));
            }
        }
        cases.push("line one\nline two\n\n\"quoted\" \\ back\u{1}\u{1f}\u{7f}".repeat(50));
        cases.extend(
            [
                "",
                "https://example.com/a?b=c#d",
                "\u{e9}\u{1F600}",
                "\u{85}",
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
