//! The cursor: the input, the machine's place in it, and the marks the
//! states set in it.

use super::budget::Budget;
use super::strbuf::StrBuf;
use crate::scan::utf8_width;

/// The input being tokenized and where the machine is in it.
pub(super) struct Cursor<'a> {
    pub(super) input: &'a str,
    /// `input` as bytes (the states read bytes).
    pub(super) bytes: &'a [u8],
    /// Offset of the next input character.
    pub(super) pos: usize,
    /// Whether the input holds a CR or NUL anywhere (see scan.rs): the
    /// text states' runs then stop at those too.
    pub(super) has_cr_nul: bool,
    /// Where this buffer starts in the whole stream (0 for a whole input).
    pub(super) base: usize,
    /// Offset of the `<` that began the markup being tokenized.
    pub(super) markup_start: usize,
    /// Start of the name being matched by an "appropriate end tag" state or
    /// a double escape state: the standard's
    /// [temporary buffer](https://html.spec.whatwg.org/multipage/parsing.html#temporary-buffer)
    /// is `input[temp_start..pos]`.
    pub(super) temp_start: usize,
}

impl<'a> Cursor<'a> {
    /// At the start of `input`.
    pub(super) fn new(input: &'a str) -> Cursor<'a> {
        let bytes = input.as_bytes();
        Cursor {
            input,
            bytes,
            pos: 0,
            has_cr_nul: crate::scan::has_cr_or_nul(bytes),
            base: 0,
            markup_start: 0,
            temp_start: 0,
        }
    }

    /// Appends the character at `pos` to `buf` and advances: CR becomes LF,
    /// NUL becomes U+FFFD (callers report the error), anything else is
    /// copied verbatim.
    #[inline]
    pub(super) fn append_current(&mut self, buf: &mut StrBuf, budget: &mut Budget) {
        let (input, bytes) = (self.input, self.bytes);
        let b = bytes[self.pos];
        match b {
            b'\r' => {
                buf.push_char(input, '\n', budget);
                self.pos += 1;
                if bytes.get(self.pos) == Some(&b'\n') {
                    self.pos += 1;
                }
            }
            0 => {
                buf.push_char(input, char::REPLACEMENT_CHARACTER, budget);
                self.pos += 1;
            }
            _ => {
                let end = self.pos + utf8_width(b);
                buf.push_src(input, self.pos, end, budget);
                self.pos = end;
            }
        }
    }
}
