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

use crate::scan::{MarkdownMasks, is_ascii_whitespace, push_short};

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

/// Writes `text` (which begins with no whitespace) to `out`: its runs of
/// whitespace collapsed to one space, each byte CommonMark would read as
/// markup in `place` escaped. Returns whether it ended with whitespace
/// (not written: the caller makes it a space due).
///
/// A window of [`MarkdownMasks::MAX`] bytes at a time, its classes as bit
/// masks, so that the writer stops only at the bytes that may need work
/// (whitespace but for a single space between words, and markup), where a
/// byte loop paid a lookup and a branch a byte.
pub(super) fn write_text(out: &mut String, text: &str, place: Place) -> bool {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let (mut copied, escaped) = first_word(out, text, place);
    let mut pos = 0;
    while pos < n {
        let w = (n - pos).min(MarkdownMasks::MAX);
        let masks = MarkdownMasks::of(&bytes[pos..pos + w]);
        let last = bytes.get(pos + w).is_none_or(|&b| is_ascii_whitespace(b));
        let (ws, mut stops) = stops(masks, w, last, place);
        let mut next = pos + w;
        while stops != 0 {
            let i = stops.trailing_zeros() as usize;
            let at = pos + i;
            if ws >> i & 1 == 0 {
                escape_markup(out, text, at, &mut copied, escaped, place);
                stops &= stops - 1;
                continue;
            }
            push_short(out, &text[copied..at]);
            let mut end = at + (!(ws >> i)).trailing_zeros() as usize;
            while end < n && is_ascii_whitespace(bytes[end]) {
                end += 1;
            }
            if end == n {
                return true;
            }
            push_short(out, " ");
            copied = end;
            if end >= pos + w {
                // The run went on past the window: the next one starts
                // after it.
                next = end;
                break;
            }
            stops &= !0 << (end - pos);
        }
        pos = next;
    }
    push_short(out, &text[copied..]);
    false
}

/// [`write_text`] for a text of at most [`MarkdownMasks::MAX`] bytes,
/// whose classes `masks` holds: one window, the caller's. Inlined into
/// the text token's path, most tokens' (a call cost 30 instructions a
/// token).
#[inline(always)]
pub(super) fn write_short(
    out: &mut String,
    text: &str,
    masks: MarkdownMasks,
    place: Place,
) -> bool {
    let n = text.len();
    debug_assert!(n > 0 && n <= MarkdownMasks::MAX);
    let (ws, mut stops) = stops(masks, n, true, place);
    let (mut copied, escaped) = first_word(out, text, place);
    while stops != 0 {
        let i = stops.trailing_zeros() as usize;
        if ws >> i & 1 == 0 {
            escape_markup(out, text, i, &mut copied, escaped, place);
            stops &= stops - 1;
            continue;
        }
        push_short(out, &text[copied..i]);
        let end = i + (!(ws >> i)).trailing_zeros() as usize;
        if end >= n {
            return true;
        }
        push_short(out, " ");
        copied = end;
        stops &= !0 << end;
    }
    push_short(out, &text[copied..]);
    false
}

/// The whitespace of a window of `w` bytes whose classes are `masks`,
/// and the bytes [`write_text`] stops at in it in `place`: whitespace but
/// a single space between words (a space with a byte after it that is no
/// whitespace; `last`: whether what follows the window counts as such),
/// and markup.
#[inline(always)]
fn stops(masks: MarkdownMasks, w: usize, last: bool, place: Place) -> (u64, u64) {
    let ws = masks.whitespace;
    let single = masks.space & !(ws >> 1) & !(u64::from(last) << (w - 1));
    let markup = if place.code { 0 } else { masks.markup };
    let pipe = if place.cell { masks.pipe } else { 0 };
    (ws, (ws & !single) | markup | pipe)
}

/// The start of [`write_text`]: at a line's start, the backslash its
/// first word needs there (`# x`, `1. x`), written with what comes before
/// it. Returns how much of `text` is written, and the byte escaped (which
/// the rules for anywhere must not escape again; `usize::MAX` for none).
#[inline(always)]
fn first_word(out: &mut String, text: &str, place: Place) -> (usize, usize) {
    if !place.line_start || place.code || !may_begin_a_block(text.as_bytes()) {
        return (0, usize::MAX);
    }
    let bytes = text.as_bytes();
    // CommonMark ends a marker at a line tabulation (U+000B) too,
    // which HTML's whitespace is not.
    let word = bytes
        .iter()
        .position(|&b| is_ascii_whitespace(b) || b == 0x0B)
        .unwrap_or(bytes.len());
    match line_start_escape(&bytes[..word]) {
        Some(at) => {
            out.push_str(&text[..at]);
            out.push('\\');
            (at, at)
        }
        None => (0, usize::MAX),
    }
}

/// The markup byte at `i` of `text`: a backslash before it if it needs
/// one, written with the text from `copied` up to it.
#[inline(always)]
fn escape_markup(
    out: &mut String,
    text: &str,
    i: usize,
    copied: &mut usize,
    escaped: usize,
    place: Place,
) {
    let bytes = text.as_bytes();
    let prev = if i == *copied {
        out.as_bytes().last().copied()
    } else {
        Some(bytes[i - 1])
    };
    if i != escaped && needs_backslash(bytes[i], prev, bytes.get(i + 1).copied(), place) {
        push_short(out, &text[*copied..i]);
        out.push('\\');
        *copied = i;
    }
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

/// Whether `out` ends with 1 to 9 digits that begin its last line after
/// the containers' prefix (quote markers, list markers, indentation): a
/// `.` or `)` written next would make them an ordered list's marker. The
/// look back is bounded (a prefix of more than 256 bytes is not looked
/// through), so that a line of many tokens costs no more a token.
pub(super) fn digits_begin_the_line(out: &str) -> bool {
    let bytes = out.as_bytes();
    let digits = bytes
        .iter()
        .rev()
        .take(10)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if !(1..=9).contains(&digits) {
        return false;
    }
    let before = &bytes[..bytes.len() - digits];
    if !matches!(before.last(), None | Some(b' ' | b'\n')) {
        return false;
    }
    for &b in before.iter().rev().take(256) {
        match b {
            b'\n' => return true,
            b' ' | b'>' | b'-' | b'+' | b'*' | b'.' | b')' | b'0'..=b'9' => {}
            _ => return false,
        }
    }
    before.len() <= 256
}

/// Whether `bytes` begins with a byte [`line_start_escape`] may escape a
/// word for: most words at a line's start are told by it alone, without
/// looking for their end.
#[inline(always)]
fn may_begin_a_block(bytes: &[u8]) -> bool {
    matches!(
        bytes.first(),
        Some(b'#' | b'-' | b'+' | b'*' | b'=' | b'_' | b'>' | b'~' | b'0'..=b'9')
    )
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

    #[test]
    fn digits_that_begin_a_line() {
        for (out, begins) in [
            ("4", true),
            ("x\n4", true),
            ("> 1. 123", true),
            ("   12", true),
            ("see 4", false),
            ("x4", false),
            ("1234567890", false),
            ("", false),
            ("4 ", false),
        ] {
            assert_eq!(digits_begin_the_line(out), begins, "{out:?}");
        }
    }

    fn escaped(piece: &str, place: Place) -> String {
        let mut out = String::new();
        write_text(&mut out, piece, place);
        out
    }

    /// The definition `write_text` and `write_short` are held to: a byte
    /// at a time.
    fn by_bytes(out: &mut String, text: &str, place: Place) -> bool {
        let bytes = text.as_bytes();
        let markup = |b: u8| match b {
            b'|' => place.cell,
            b'\\' | b'`' | b'*' | b'_' | b'[' | b']' | b'<' | b'&' => !place.code,
            _ => false,
        };
        let (mut copied, escaped) = first_word(out, text, place);
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            // A single space between words is copied with them.
            let single = b == b' ' && bytes.get(i + 1).is_some_and(|&n| !is_ascii_whitespace(n));
            if is_ascii_whitespace(b) && !single {
                out.push_str(&text[copied..i]);
                while i < bytes.len() && is_ascii_whitespace(bytes[i]) {
                    i += 1;
                }
                if i == bytes.len() {
                    return true;
                }
                out.push(' ');
                copied = i;
                continue;
            }
            if markup(b) {
                escape_markup(out, text, i, &mut copied, escaped, place);
            }
            i += 1;
        }
        out.push_str(&text[copied..]);
        false
    }

    /// `write_text` (in windows of 64 bytes) and `write_short` against the
    /// byte loop, on texts of every length to 200 made of words, runs of
    /// whitespace of every length (across the windows' edges) and markup,
    /// in every place.
    #[test]
    fn masks_agree_with_the_byte_loop() {
        let pieces = [
            "ab", " ", "  ", "\t\n ", "_x", "*", "a|b", "<p", "1.", "# ", "é", "\u{b}", "\\",
        ];
        let mut state = 7u32;
        for len in 1..=200 {
            for _ in 0..20 {
                let mut text = String::new();
                while text.len() < len {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    text.push_str(pieces[(state >> 16) as usize % pieces.len()]);
                }
                let text = text.trim_start_matches(|c: char| c.is_ascii_whitespace());
                if text.is_empty() {
                    continue;
                }
                for bits in 0..8 {
                    let place = Place {
                        line_start: bits & 1 != 0,
                        cell: bits & 2 != 0,
                        code: bits & 4 != 0,
                    };
                    let (mut want, mut got) = (String::from("x"), String::from("x"));
                    let want_end = by_bytes(&mut want, text, place);
                    assert_eq!(write_text(&mut got, text, place), want_end, "{text:?}");
                    assert_eq!(got, want, "{text:?} {place:?}");
                    if text.len() <= MarkdownMasks::MAX {
                        let mut short = String::from("x");
                        let masks = MarkdownMasks::of(text.as_bytes());
                        assert_eq!(write_short(&mut short, text, masks, place), want_end);
                        assert_eq!(short, want, "{text:?} {place:?}");
                    }
                }
            }
        }
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
