//! [`Lines`]: line and column numbers for byte offsets of a text read a
//! chunk at a time, without holding the whole text.
//!
//! The library's `LineIndex` indexes a whole text. A page read in chunks is
//! never whole in memory, so this counts lines as the text goes by and keeps
//! only the text from where a position may still be asked: the stream's
//! resume offset (`StreamTokenizer::resume_offset`), before which every
//! parse error has been reported. The numbers are those of `LineIndex`: 1-
//! based; CR, LF and CRLF each end one line (an offset on the LF of a CRLF
//! counts as the CR); columns count UTF-16 code units, as html5lib-tests
//! does.

/// A position: the line, and the UTF-16 code units from the line's start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct At {
    /// Byte offset in the whole text.
    offset: usize,
    /// 1-based line.
    line: usize,
    /// Code units between the start of the line and `offset`.
    units: usize,
    /// Offset where the line starts, if it is still in the window.
    line_start: Option<usize>,
}

/// Lines and columns of a text pushed in pieces (see the module docs).
#[derive(Debug)]
pub struct Lines {
    /// The text from `window_start` to the end of what was pushed.
    window: String,
    window_start: usize,
    /// Bytes at the front of `window` no longer needed (dropped in bulk).
    dead: usize,
    /// The position at `window_start + dead`: where every query starts from
    /// at worst.
    base: At,
    /// The last position asked, to go on from (queries come nearly in order).
    cursor: At,
}

impl Default for Lines {
    fn default() -> Lines {
        let start = At {
            offset: 0,
            line: 1,
            units: 0,
            line_start: Some(0),
        };
        Lines {
            window: String::new(),
            window_start: 0,
            dead: 0,
            base: start,
            cursor: start,
        }
    }
}

/// UTF-16 code units in UTF-8 bytes: one per byte that starts a character,
/// one more per four-byte sequence.
fn units(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|&b| usize::from((b as i8) >= -0x40) + usize::from(b >= 0xF0))
        .sum()
}

impl Lines {
    /// Appends the next piece of the text.
    pub fn push(&mut self, text: &str) {
        self.window.push_str(text);
    }

    /// The byte at `offset`, if pushed and still held.
    fn byte(&self, offset: usize) -> Option<u8> {
        let i = offset.checked_sub(self.window_start)?;
        self.window.as_bytes().get(i).copied()
    }

    /// The position at `offset` going forward from `from` (at or before it).
    fn walk(&self, from: At, offset: usize) -> At {
        let bytes = &self.window.as_bytes()[from.offset - self.window_start..];
        let span = &bytes[..offset - from.offset];
        let mut at = from;
        let mut last_start = None;
        for i in memchr::memchr2_iter(b'\n', b'\r', span) {
            // A CR followed by an LF ends its line at the LF.
            if span[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                continue;
            }
            at.line += 1;
            last_start = Some(i + 1);
        }
        match last_start {
            Some(start) => {
                at.units = units(&span[start..]);
                at.line_start = Some(from.offset + start);
            }
            None => at.units += units(span),
        }
        at.offset = offset;
        at
    }

    /// The 1-based line and column of byte `offset`, which must be at or
    /// after the last [`forget_before`](Self::forget_before) and within the
    /// text pushed (an offset past it counts as its end; a CR just before
    /// the end counts as a line end, the text being taken to end there).
    pub fn line_col(&mut self, offset: usize) -> (usize, usize) {
        let end = self.window_start + self.window.len();
        let mut offset = offset.clamp(self.base.offset, end);
        if offset > self.base.offset
            && self.byte(offset) == Some(b'\n')
            && self.byte(offset - 1) == Some(b'\r')
        {
            offset -= 1;
        }
        let from = if offset >= self.cursor.offset {
            self.cursor
        } else {
            match self.cursor.line_start {
                // Back within the cursor's line: count from its start.
                Some(start) if start <= offset && start >= self.base.offset => At {
                    offset: start,
                    line: self.cursor.line,
                    units: 0,
                    line_start: Some(start),
                },
                _ => self.base,
            }
        };
        self.cursor = self.walk(from, offset);
        (self.cursor.line, self.cursor.units + 1)
    }

    /// No position before `offset` will be asked again: the text before it
    /// can go. (A CR just before it is kept, to tell a CRLF.)
    pub fn forget_before(&mut self, offset: usize) {
        let end = self.window_start + self.window.len();
        let mut offset = offset.min(end).max(self.base.offset);
        while !self.window.is_char_boundary(offset - self.window_start) {
            offset -= 1;
        }
        if offset > self.base.offset && self.byte(offset - 1) == Some(b'\r') {
            offset -= 1;
        }
        if offset <= self.base.offset {
            return;
        }
        self.base = if offset >= self.cursor.offset {
            self.walk(self.cursor, offset)
        } else {
            self.walk(self.base, offset)
        };
        self.cursor = self.base;
        if self.base.line_start.is_some_and(|s| s < offset) {
            // The line started before what is kept: count from `base`.
            self.base.line_start = None;
            self.cursor.line_start = None;
        }
        self.dead = offset - self.window_start;
        if self.dead > self.window.len() / 2 {
            self.window.drain(..self.dead);
            self.window_start += self.dead;
            self.dead = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use htmltok::LineIndex;

    /// Every offset of `text`, asked in order after pushing it in pieces of
    /// `size` and forgetting what is behind, gives `LineIndex`'s answer.
    fn check(text: &str, size: usize) {
        let index = LineIndex::new(text);
        let mut lines = Lines::default();
        let bounds: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        let mut pushed = 0;
        let mut asked = 0;
        while pushed < text.len() {
            let mut next = (pushed + size).min(text.len());
            while !text.is_char_boundary(next) {
                next += 1;
            }
            lines.push(&text[pushed..next]);
            pushed = next;
            // Ask a few behind too (errors come nearly in order). The end
            // of the text so far only at the end: a CR there may be half of
            // a CRLF (a stream never reports a position past a held CR).
            let last = if pushed == text.len() {
                pushed
            } else {
                pushed - 1
            };
            for &o in bounds.iter().filter(|&&o| o >= asked && o <= last) {
                assert_eq!(lines.line_col(o), index.line_col(o), "{text:?} at {o}");
                let back = o.saturating_sub(3).max(asked);
                assert_eq!(lines.line_col(back), index.line_col(back), "back to {back}");
            }
            asked = pushed.saturating_sub(2);
            lines.forget_before(asked);
        }
    }

    #[test]
    fn agrees_with_the_line_index() {
        let texts = [
            "ab\ncd\r\nef\rgh\u{e9}x",
            "\r\n\r\n\r\r\n\n\r",
            "a\u{1F600}b\nc\u{1F600}\r",
            "no breaks at all, just a long line of text",
            "",
        ];
        for text in texts {
            for size in [1, 2, 3, 5, 64] {
                check(text, size);
            }
        }
        let long: String = (0..500)
            .map(|i| match i % 7 {
                0 => "\r\n",
                1 => "\u{e9}",
                2 => "\r",
                3 => "\u{1F600}",
                4 => "\n",
                _ => "abc",
            })
            .collect();
        for size in [1, 4, 9, 100, 10_000] {
            check(&long, size);
        }
    }

    #[test]
    fn keeps_only_the_text_still_needed() {
        let mut lines = Lines::default();
        for _ in 0..1000 {
            lines.push(&"x".repeat(1000));
            let end = lines.window_start + lines.window.len();
            lines.forget_before(end - 10);
        }
        assert!(lines.window.len() < 4000, "{}", lines.window.len());
        assert_eq!(lines.line_col(1_000_000 - 5), (1, 1_000_000 - 4));
    }
}
