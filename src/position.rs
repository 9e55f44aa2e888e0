//! Line and column numbers, computed from byte offsets only when asked.
//!
//! The tokenizer records byte offsets because they are free to keep; turning
//! an offset into a line and column means counting newlines and characters,
//! which nobody should pay for unless they print the position. A
//! [`LineIndex`] does that counting once per input (the line starts) and then
//! answers each query with a binary search and a short character count.
//!
//! Lines and columns are 1-based and follow the preprocessed input stream of
//! §13.2.3.5, as html5lib-tests counts them: CR, LF and CRLF each end one
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
        let mut offset = offset.min(self.input.len());
        if offset > 0 && self.input.get(offset) == Some(&b'\n') && self.input[offset - 1] == b'\r' {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line - 1];
        // Count UTF-16 code units, as html5lib-tests does: one for every
        // byte that starts a character, and one more for each character
        // outside the Basic Multilingual Plane (a four-byte sequence).
        let col: usize = self.input[start..offset]
            .iter()
            .map(|&b| usize::from((b as i8) >= -0x40) + usize::from(b >= 0xF0))
            .sum();
        (line, col + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

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
}
