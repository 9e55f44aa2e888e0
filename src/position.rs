//! Line and column numbers, computed from byte offsets only when asked.
//!
//! The tokenizer records byte offsets because they are free to keep; turning
//! an offset into a line and column means counting newlines and characters,
//! which nobody should pay for unless they print the position. A
//! [`LineIndex`] does that counting once per input (the line starts) and then
//! answers each query with a binary search and a short character count.
//!
//! Lines and columns are 1-based and follow the input stream after
//! [preprocessing](https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream), as html5lib-tests
//! counts them: CR, LF and CRLF each end one
//! line, and columns count characters as UTF-16 code units (so a character
//! outside the Basic Multilingual Plane counts two), not bytes.

/// Maps byte offsets of one input to 1-based (line, column) pairs.
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    input: &'a [u8],
    /// Byte offset at which each line starts; `line_starts[0] == 0`.
    line_starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes the line starts of `input`.
    pub fn new(input: &'a str) -> LineIndex<'a> {
        let bytes = input.as_bytes();
        let mut line_starts = vec![0];
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            // A CR directly followed by LF ends its line at the LF.
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                continue;
            }
            line_starts.push(i + 1);
        }
        LineIndex {
            input: bytes,
            line_starts,
        }
    }

    /// The 1-based line and column of the character at byte `offset` (an
    /// offset at the end of the input gives the position just past the last
    /// character). An offset inside a CRLF pair counts as the CR.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = position_of(self.input, offset);
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line - 1];
        (line, utf16_units(&self.input[start..offset]) + 1)
    }
}

/// `offset` clamped to the input, and inside a CRLF pair moved to the CR.
fn position_of(input: &[u8], offset: usize) -> usize {
    let offset = offset.min(input.len());
    if offset > 0 && input.get(offset) == Some(&b'\n') && input[offset - 1] == b'\r' {
        offset - 1
    } else {
        offset
    }
}

/// The UTF-16 code units of `bytes` (whole characters of UTF-8), as
/// html5lib-tests counts columns: one for every byte that starts a
/// character, one more for each character outside the Basic Multilingual
/// Plane (a four-byte sequence).
fn utf16_units(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|&b| usize::from((b as i8) >= -0x40) + usize::from(b >= 0xF0))
        .sum()
}

/// Lines and columns of offsets taken in order, each counted on from the
/// last: the same answers as [`LineIndex::line_col`], for the cost of
/// reading the input once, where `line_col` counts each column from its
/// line's start (quadratic for many offsets on one long line, as a
/// minified page's errors are). Needs no index, so it can follow an input
/// as it grows.
///
/// ```
/// use htmltok::LineCursor;
///
/// let input = "ab\r\ncd\u{1F600}e";
/// let at = LineCursor::START.advance(input, 1);
/// assert_eq!(at.line_col(), (1, 2));
/// let at = at.advance(input, 9); // after the emoji, which counts two
/// assert_eq!(at.line_col(), (2, 5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCursor {
    offset: usize,
    line: usize,
    units: usize,
}

impl LineCursor {
    /// The start of the input: line 1, column 1.
    pub const START: LineCursor = LineCursor {
        offset: 0,
        line: 1,
        units: 0,
    };

    /// The place of `offset` in `input`, counted on from this one (from
    /// the start when `offset` lies before it).
    pub fn advance(self, input: &str, offset: usize) -> LineCursor {
        let input = input.as_bytes();
        let offset = position_of(input, offset);
        let mut at = if offset >= self.offset {
            self
        } else {
            LineCursor::START
        };
        let mut run_start = at.offset;
        for i in memchr::memchr2_iter(b'\n', b'\r', &input[at.offset..offset]) {
            let i = at.offset + i;
            // A CR directly followed by LF ends its line at the LF.
            if input[i] == b'\r' && input.get(i + 1) == Some(&b'\n') {
                continue;
            }
            at.line += 1;
            at.units = 0;
            run_start = i + 1;
        }
        at.units += utf16_units(&input[run_start..offset]);
        at.offset = offset;
        at
    }

    /// The 1-based line and column.
    pub fn line_col(&self) -> (usize, usize) {
        (self.line, self.units + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::{LineCursor, LineIndex};

    #[test]
    fn counts_lines_and_characters() {
        let idx = LineIndex::new("ab\ncd\r\nef\rgh\u{e9}x");
        assert_eq!(idx.line_col(0), (1, 1));
        assert_eq!(idx.line_col(2), (1, 3));
        assert_eq!(idx.line_col(3), (2, 1));
        assert_eq!(idx.line_col(5), (2, 3)); // the CR of CRLF
        assert_eq!(idx.line_col(6), (2, 3)); // the LF of CRLF counts as the CR
        assert_eq!(idx.line_col(7), (3, 1));
        assert_eq!(idx.line_col(10), (4, 1));
        assert_eq!(idx.line_col(14), (4, 4)); // after the two-byte é
        assert_eq!(idx.line_col(15), (4, 5)); // end of input
        let astral = LineIndex::new("a\u{1F600}b");
        assert_eq!(astral.line_col(5), (1, 4)); // the emoji counts two
    }

    #[test]
    fn a_cursor_agrees_with_the_index_at_every_offset() {
        let input = "ab\ncd\r\nef\rgh\u{e9}x\r\r\n\n\u{1F600}z";
        let idx = LineIndex::new(input);
        let mut at = LineCursor::START;
        for offset in 0..=input.len() + 2 {
            at = at.advance(input, offset);
            assert_eq!(at.line_col(), idx.line_col(offset), "offset {offset}");
            // And from the start, as for an offset behind the cursor.
            let fresh = LineCursor::START.advance(input, offset);
            assert_eq!(fresh.line_col(), idx.line_col(offset), "offset {offset}");
        }
        let back = LineCursor::START.advance(input, 12).advance(input, 4);
        assert_eq!(back.line_col(), idx.line_col(4));
    }
}
