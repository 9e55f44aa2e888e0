//! Text written so that CommonMark reads it as the same text: a backslash
//! before each character that would otherwise be read as markup, and
//! before nothing else (an escaped `snake\_case` or `1\.5` is noise in a
//! language model's data).
//!
//! What CommonMark reads as markup
//! ([backslash escapes](https://spec.commonmark.org/0.31.2/#backslash-escapes)):
//!
//! - anywhere: `` ` `` (code spans), `*` (emphasis), `[` and `]` (links),
//!   `\` before punctuation (an escape), `<` before what could begin a tag
//!   or an autolink, `&` before what could be a character reference, `_`
//!   unless it stands between two letters or digits (where it can neither
//!   open nor close emphasis: `snake_case` stays as it is), and `|` in a
//!   table cell;
//! - at the start of a line: `#` runs that would begin a heading, `-`, `+`
//!   that would begin a list item, `1.` and `1)`, `>` (a block quote),
//!   runs of `-`, `=`, `*`, `_` that would be a thematic break or a setext
//!   heading's underline, and `~~~` (a code fence).
//!
//! A piece of text is escaped on its own, without the character after it
//! (the next token may begin with anything): where that character
//! decides, the piece is escaped as if the worst came next.

/// What a byte of text is to the writer: part of a word, whitespace, or
/// a byte that may need a backslash where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Word,
    Space,
    Markup,
}

/// The classes of the bytes for each kind of place (see [`Place`]):
/// text, text in a table cell (where `|` is markup too), code (where
/// nothing is), code in a cell (where `|` still ends the cell).
const CLASSES: [[Class; 256]; 4] = {
    let mut tables = [[Class::Word; 256]; 4];
    let mut t = 0;
    while t < 4 {
        let mut b = 0;
        while b < 256 {
            if crate::scan::is_ascii_whitespace(b as u8) {
                tables[t][b] = Class::Space;
            }
            b += 1;
        }
        t += 1;
    }
    let markup = b"\\`*_[]<&";
    let mut i = 0;
    while i < markup.len() {
        tables[0][markup[i] as usize] = Class::Markup;
        tables[1][markup[i] as usize] = Class::Markup;
        i += 1;
    }
    tables[1][b'|' as usize] = Class::Markup;
    tables[3][b'|' as usize] = Class::Markup;
    tables
};

/// Where a piece of text is written.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Place {
    /// At the start of a line (after the containers' prefix): block
    /// markers count.
    pub(super) line_start: bool,
    /// In a table cell: `|` ends the cell.
    pub(super) cell: bool,
    /// In a code span: nothing is markup but a cell's `|`.
    pub(super) code: bool,
}

impl Place {
    fn classes(self) -> &'static [Class; 256] {
        &CLASSES[usize::from(self.cell) | usize::from(self.code) << 1]
    }
}

/// Writes `text` (which begins with no whitespace) to `out`: its runs of
/// whitespace collapsed to one space, each byte CommonMark would read as
/// markup in `place` escaped. Returns whether it ended with whitespace
/// (not written: the caller makes it a space due).
pub(super) fn write_text(out: &mut String, text: &str, place: Place) -> bool {
    let bytes = text.as_bytes();
    let classes = place.classes();
    let mut copied = 0;
    // The byte the line-start rule escaped, which the rules for anywhere
    // must not escape again.
    let mut escaped = usize::MAX;
    if place.line_start && !place.code {
        // CommonMark ends a marker at a line tabulation (U+000B) too,
        // which HTML's whitespace is not.
        let word = bytes
            .iter()
            .position(|&b| classes[b as usize] == Class::Space || b == 0x0B)
            .unwrap_or(bytes.len());
        if let Some(at) = line_start_escape(&bytes[..word]) {
            out.push_str(&text[..at]);
            out.push('\\');
            copied = at;
            escaped = at;
        }
    }
    let mut i = 0;
    while i < bytes.len() {
        match classes[bytes[i] as usize] {
            Class::Word => i += 1,
            // A single space between words is copied with them: most text
            // is one copy.
            Class::Space
                if bytes[i] == b' '
                    && bytes
                        .get(i + 1)
                        .is_some_and(|&n| classes[n as usize] != Class::Space) =>
            {
                i += 1
            }
            Class::Space => {
                out.push_str(&text[copied..i]);
                while i < bytes.len() && classes[bytes[i] as usize] == Class::Space {
                    i += 1;
                }
                if i == bytes.len() {
                    return true;
                }
                out.push(' ');
                copied = i;
            }
            Class::Markup => {
                let prev = if i == copied {
                    out.as_bytes().last().copied()
                } else {
                    Some(bytes[i - 1])
                };
                if i != escaped && needs_backslash(bytes[i], prev, bytes.get(i + 1).copied(), place)
                {
                    out.push_str(&text[copied..i]);
                    out.push('\\');
                    copied = i;
                }
                i += 1;
            }
        }
    }
    out.push_str(&text[copied..]);
    false
}

/// Whether the markup byte `b`, between `prev` and `next` (`None`: the
/// start of the output, the end of the text, where anything may come),
/// needs a backslash in `place`.
fn needs_backslash(b: u8, prev: Option<u8>, next: Option<u8>, place: Place) -> bool {
    match b {
        b'|' => place.cell,
        _ if place.code => false,
        b'\\' => next.is_none_or(|n| n.is_ascii_punctuation()),
        b'_' => {
            !(prev.is_some_and(|p| p.is_ascii_alphanumeric())
                && next.is_some_and(|n| n.is_ascii_alphanumeric()))
        }
        b'<' => next.is_none_or(|n| n.is_ascii_alphabetic() || matches!(n, b'/' | b'!' | b'?')),
        b'&' => next.is_none_or(|n| n.is_ascii_alphanumeric() || n == b'#'),
        _ => true,
    }
}

/// Writes `text`, escaped as it is for the middle of a line, at the start
/// of one: its first word escaped as a line's first (`# x`, `1. x`).
pub(super) fn line_start(out: &mut String, text: &str) {
    let first = text.split([' ', '\u{b}']).next().unwrap_or("");
    match line_start_escape(first.as_bytes()) {
        // A `*` is escaped anywhere already.
        Some(at) if !text[at..].starts_with('*') => {
            out.push_str(&text[..at]);
            out.push('\\');
            out.push_str(&text[at..]);
        }
        _ => out.push_str(text),
    }
}

/// Where a backslash goes in a piece at the start of a line, if the piece
/// would begin a block there.
fn line_start_escape(bytes: &[u8]) -> Option<usize> {
    let first = *bytes.first()?;
    let all_first = || bytes.iter().all(|&b| b == first);
    match first {
        // An ATX heading's opening run is followed by a space or the end
        // of the line; `#tag` is text.
        b'#' if bytes.len() <= 6 && all_first() => Some(0),
        // A list item (`-`, `+`, `*` then a space), a thematic break or a
        // setext underline (a line of `-`, `=`, `*` or `_`).
        b'-' | b'+' | b'*' | b'=' | b'_' if bytes.len() == 1 || all_first() => Some(0),
        b'>' => Some(0),
        b'~' if bytes.starts_with(b"~~~") => Some(0),
        b'0'..=b'9' => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            (digits <= 9 && digits + 1 == bytes.len() && matches!(bytes[digits], b'.' | b')'))
                .then_some(digits)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(piece: &str, place: Place) -> String {
        let mut out = String::new();
        write_text(&mut out, piece, place);
        out
    }

    const TEXT: Place = Place {
        line_start: false,
        cell: false,
        code: false,
    };
    const LINE: Place = Place {
        line_start: true,
        ..TEXT
    };

    #[test]
    fn markup_anywhere() {
        for (piece, want) in [
            ("a*b", "a\\*b"),
            ("`x`", "\\`x\\`"),
            ("[x]", "\\[x\\]"),
            ("snake_case", "snake_case"),
            ("_x_", "\\_x\\_"),
            ("<div>", "\\<div>"),
            ("a<3", "a<3"),
            ("&amp;", "\\&amp;"),
            ("R&", "R\\&"),
            ("C:\\dir", "C:\\dir"),
            ("a\\*", "a\\\\\\*"),
            ("x|y", "x|y"),
            ("1.5", "1.5"),
            ("#tag", "#tag"),
            ("don't", "don't"),
        ] {
            assert_eq!(escaped(piece, TEXT), want, "{piece}");
        }
    }

    #[test]
    fn markup_at_line_start() {
        for (piece, want) in [
            ("#", "\\#"),
            ("###", "\\###"),
            ("#tag", "#tag"),
            ("-", "\\-"),
            ("+", "\\+"),
            ("---", "\\---"),
            ("===", "\\==="),
            ("*", "\\*"),
            ("***", "\\*\\*\\*"),
            ("1.", "1\\."),
            ("12)", "12\\)"),
            ("1.5", "1.5"),
            (">", "\\>"),
            (">x", "\\>x"),
            ("~~~js", "\\~~~js"),
            ("-x", "-x"),
            ("#\u{b}x", "\\#\u{b}x"),
            ("-\u{b}x", "\\-\u{b}x"),
        ] {
            assert_eq!(escaped(piece, LINE), want, "{piece}");
        }
    }

    #[test]
    fn cells_and_code() {
        let cell = Place { cell: true, ..TEXT };
        assert_eq!(escaped("a|b", cell), "a\\|b");
        let code = Place { code: true, ..TEXT };
        assert_eq!(escaped("*[x]|`", code), "*[x]|`");
        let code_cell = Place {
            code: true,
            cell: true,
            ..TEXT
        };
        assert_eq!(escaped("a|b", code_cell), "a\\|b");
    }
}
