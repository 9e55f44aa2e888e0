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

/// The bytes that may need a backslash wherever they stand.
const ANYWHERE: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"\\`*_[]<&|";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
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
    /// Whether whitespace follows the piece (else anything may).
    pub(super) space_after: bool,
}

/// Writes `piece` (no whitespace in it) to `out`, escaped for `place`.
pub(super) fn write(out: &mut String, piece: &str, place: Place) {
    let bytes = piece.as_bytes();
    if place.code {
        if place.cell && bytes.contains(&b'|') {
            for (i, part) in piece.split('|').enumerate() {
                if i > 0 {
                    out.push_str("\\|");
                }
                out.push_str(part);
            }
        } else {
            out.push_str(piece);
        }
        return;
    }
    let mut copied = 0;
    // The byte that the line-start rule escaped, which the rules for
    // anywhere must not escape again.
    let mut escaped = usize::MAX;
    if place.line_start {
        if let Some(at) = line_start_escape(bytes) {
            out.push_str(&piece[..at]);
            out.push('\\');
            copied = at;
            escaped = at;
        }
    }
    let before = out.as_bytes().last().copied();
    for (i, &b) in bytes.iter().enumerate() {
        if !ANYWHERE[b as usize] || i == escaped {
            continue;
        }
        let next = bytes
            .get(i + 1)
            .copied()
            .or(place.space_after.then_some(b' '));
        let prev = if i == 0 { before } else { Some(bytes[i - 1]) };
        let escape = match b {
            b'\\' => next.is_none_or(|n| n.is_ascii_punctuation()),
            b'_' => {
                !(prev.is_some_and(|p| p.is_ascii_alphanumeric())
                    && next.is_some_and(|n| n.is_ascii_alphanumeric()))
            }
            b'<' => next.is_none_or(|n| n.is_ascii_alphabetic() || matches!(n, b'/' | b'!' | b'?')),
            b'&' => next.is_none_or(|n| n.is_ascii_alphanumeric() || n == b'#'),
            b'|' => place.cell,
            _ => true,
        };
        if escape {
            out.push_str(&piece[copied..i]);
            out.push('\\');
            copied = i;
        }
    }
    out.push_str(&piece[copied..]);
}

/// Writes `text`, escaped as it is for the middle of a line, at the start
/// of one: its first word escaped as a line's first (`# x`, `1. x`).
pub(super) fn line_start(out: &mut String, text: &str) {
    let first = text.split(' ').next().unwrap_or("");
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
        write(&mut out, piece, place);
        out
    }

    const TEXT: Place = Place {
        line_start: false,
        cell: false,
        code: false,
        space_after: false,
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
