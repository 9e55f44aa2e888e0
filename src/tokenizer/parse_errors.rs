//! Parse errors: recording the tokenizer's, and merging in the errors of
//! preprocessing the input stream in offset order.

use super::Tokenizer;
use crate::error::{ErrorCode, ParseError};
use crate::scan::utf8_width;

/// The parse errors found so far, and the next of the input stream's.
#[derive(Debug)]
pub(super) struct ErrorLog {
    pub(super) found: Vec<ParseError>,
    /// The next input-stream error (see `next_input_stream_error`) not yet
    /// in `found`: its offset (`usize::MAX` for none) and code. They are
    /// found as the tokenizer's errors pass them, and merged in offset
    /// order; none is held in advance, so a buffer full of control
    /// characters costs no memory before its errors are reported.
    pub(super) next_stream_error: (usize, ErrorCode),
}

impl<'a> Tokenizer<'a> {
    /// Records a parse error at `offset` (when errors are on). The common
    /// case, no input-stream error to report first and room in the list,
    /// is a plain store here; the rest is out of line.
    #[inline(always)]
    pub(super) fn error(&mut self, code: ErrorCode, offset: usize) {
        if self.opts.errors {
            if offset < self.errors.next_stream_error.0
                && self.errors.found.len() < self.errors.found.capacity()
            {
                self.errors.found.push(ParseError {
                    code,
                    offset: offset + self.cursor.base,
                });
            } else {
                self.push_error(code, offset);
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn push_error(&mut self, code: ErrorCode, offset: usize) {
        self.flush_stream_errors(offset + 1);
        if self.error_room() {
            self.errors.found.push(ParseError {
                code,
                offset: offset + self.cursor.base,
            });
        }
    }

    /// Whether the error list has room for one more: it grows as a `Vec`
    /// does, charged to the budget, and past the memory limit it does not
    /// (the errors are kept up to the limit; the next poll, or `emit_eof`,
    /// stops the tokenizer).
    #[inline]
    fn error_room(&mut self) -> bool {
        let found = &mut self.errors.found;
        if found.len() < found.capacity() {
            return true;
        }
        let more = found.capacity().max(4);
        if !self
            .budget
            .may_grow(more * core::mem::size_of::<ParseError>())
        {
            return false;
        }
        found.reserve_exact(more);
        true
    }

    /// Moves the input-stream errors before `end` into `errors`. Past the
    /// memory limit it stops (the poll then stops the tokenizer, or at the
    /// end of the input, `emit_eof` reports it).
    pub(super) fn flush_stream_errors(&mut self, end: usize) {
        while self.errors.next_stream_error.0 < end {
            if !self.error_room() {
                return;
            }
            let (offset, code) = self.errors.next_stream_error;
            self.errors.found.push(ParseError {
                code,
                offset: offset + self.cursor.base,
            });
            let after = offset + utf8_width(self.cursor.bytes[offset]);
            self.errors.next_stream_error = next_input_stream_error(self.cursor.input, after);
        }
    }
}

/// The first parse error of "preprocessing the input stream" ([preprocessing the input stream](https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream))
/// at or after `from` (a character boundary): a control character other
/// than ASCII whitespace and NUL, or a noncharacter (surrogates cannot occur
/// in a `&str`); its offset and code, or `usize::MAX` when there is none.
pub(super) fn next_input_stream_error(input: &str, from: usize) -> (usize, ErrorCode) {
    let bytes = input.as_bytes();
    let mut i = from;
    loop {
        // Nearly every byte of a page is skipped here, a block at a time.
        i = crate::scan::find_stream_error_start(bytes, i);
        if i >= bytes.len() {
            return (usize::MAX, ErrorCode::ControlCharacterInInputStream);
        }
        let c = input[i..].chars().next().unwrap_or('\0');
        let cp = c as u32;
        if (0x01..0x20).contains(&cp) || (0x7F..=0x9F).contains(&cp) {
            return (i, ErrorCode::ControlCharacterInInputStream);
        }
        if is_noncharacter(cp) {
            return (i, ErrorCode::NoncharacterInInputStream);
        }
        i += c.len_utf8();
    }
}

/// Whether `cp` is a noncharacter (U+FDD0–U+FDEF, or U+xFFFE / U+xFFFF).
#[inline]
pub(super) fn is_noncharacter(cp: u32) -> bool {
    (0xFDD0..=0xFDEF).contains(&cp) || (cp & 0xFFFE) == 0xFFFE
}
