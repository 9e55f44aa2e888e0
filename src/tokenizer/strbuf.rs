//! The string buffer every string the tokenizer builds goes through (see
//! the module docs of `tokenizer`: zero-copy strings). Its scratch copy is
//! an owned buffer: it charges the tokenizer's [`Budget`] when it grows.

use bumpalo::Bump;

use super::budget::Budget;

/// A string under construction: a borrowed run of the input while it can be,
/// a scratch copy once it can't (see the module docs).
#[derive(Debug, Default)]
pub(super) struct StrBuf {
    start: usize,
    end: usize,
    owned: bool,
    scratch: String,
}

impl StrBuf {
    /// Empties the buffer (keeping the scratch allocation).
    #[inline]
    pub(super) fn clear(&mut self) {
        self.start = 0;
        self.end = 0;
        if self.owned {
            self.owned = false;
            self.scratch.clear();
        }
    }

    /// Whether nothing has been appended.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        if self.owned {
            self.scratch.is_empty()
        } else {
            self.start == self.end
        }
    }

    /// Appends `input[start..end]`, a verbatim run of the source.
    #[inline(always)]
    pub(super) fn push_src(&mut self, input: &str, start: usize, end: usize, budget: &mut Budget) {
        if start == end {
            return;
        }
        if self.owned {
            self.append(&input[start..end], budget);
        } else if self.start == self.end {
            self.start = start;
            self.end = end;
        } else if self.end == start {
            self.end = end;
        } else {
            self.make_owned(input, budget);
            self.append(&input[start..end], budget);
        }
    }

    /// Appends a string that is not a verbatim continuation of the source.
    #[inline]
    pub(super) fn push_str(&mut self, input: &str, s: &str, budget: &mut Budget) {
        self.make_owned(input, budget);
        self.append(s, budget);
    }

    /// Appends one character that is not the source's (U+FFFD for a
    /// NUL): a push, where `push_str` calls into memcpy.
    #[inline]
    pub(super) fn push_char(&mut self, input: &str, c: char, budget: &mut Budget) {
        self.make_owned(input, budget);
        self.room(c.len_utf8(), budget);
        self.scratch.push(c);
    }

    /// A buffer holding `s`, owned (text carried over from another buffer),
    /// its capacity charged to `budget`.
    pub(super) fn from_string(s: String, budget: &mut Budget) -> StrBuf {
        budget.grew(s.capacity());
        StrBuf {
            start: 0,
            end: 0,
            owned: !s.is_empty(),
            scratch: s,
        }
    }

    /// Takes the string so far out as an owned `String` (moving the
    /// scratch copy when there is one, its capacity given back to
    /// `budget`), leaving the buffer empty.
    pub(super) fn take_string(&mut self, input: &str, budget: &mut Budget) -> String {
        let s = if self.owned {
            budget.released(self.scratch.capacity());
            core::mem::take(&mut self.scratch)
        } else {
            input[self.start..self.end].to_owned()
        };
        self.clear();
        s
    }

    /// The scratch copy's capacity: what the buffer has charged (to give
    /// back when it is dropped).
    pub(super) fn capacity(&self) -> usize {
        self.scratch.capacity()
    }

    /// Appends `s` to the scratch copy.
    #[inline(always)]
    fn append(&mut self, s: &str, budget: &mut Budget) {
        self.room(s.len(), budget);
        self.scratch.push_str(s);
    }

    /// Makes room for `extra` more bytes in the scratch copy.
    #[inline(always)]
    fn room(&mut self, extra: usize, budget: &mut Budget) {
        if self.scratch.capacity() - self.scratch.len() < extra {
            self.grow(extra, budget);
        }
    }

    /// Grows the scratch copy as `String` would (amortized doubling) and
    /// charges `budget` with the growth: rare, so the charge costs nothing
    /// per byte.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, extra: usize, budget: &mut Budget) {
        let before = self.scratch.capacity();
        self.scratch.reserve(extra);
        budget.grew(self.scratch.capacity() - before);
    }

    /// Length in bytes of the string so far.
    #[inline]
    pub(super) fn len(&self) -> usize {
        if self.owned {
            self.scratch.len()
        } else {
            self.end - self.start
        }
    }

    /// Cuts the string back to its first `len` bytes (a length `len()` had).
    #[inline]
    pub(super) fn truncate(&mut self, len: usize) {
        if self.owned {
            self.scratch.truncate(len);
        } else {
            self.end = self.start + len;
        }
    }

    /// Appends `input[start..end]` ASCII-lowercased.
    #[inline]
    pub(super) fn push_lower(
        &mut self,
        input: &str,
        start: usize,
        end: usize,
        budget: &mut Budget,
    ) {
        let upper = input.as_bytes()[start..end]
            .iter()
            .any(u8::is_ascii_uppercase);
        self.push_name(input, start, end, upper, budget);
    }

    /// Appends `input[start..end]`, a run of a name a class scan found,
    /// lowercased when `upper` (it holds an ASCII uppercase letter).
    #[inline(always)]
    pub(super) fn push_name(
        &mut self,
        input: &str,
        start: usize,
        end: usize,
        upper: bool,
        budget: &mut Budget,
    ) {
        if upper {
            self.push_lowered(input, start, end, budget);
        } else {
            self.push_src(input, start, end, budget);
        }
    }

    #[cold]
    fn push_lowered(&mut self, input: &str, start: usize, end: usize, budget: &mut Budget) {
        self.make_owned(input, budget);
        self.room(end - start, budget);
        if end - start == 1 {
            // One letter (a one-byte run is ASCII), as a tag that never
            // ends may repeat a million times: a push, not a call into
            // memcpy and the slice's lowering.
            self.scratch
                .push(char::from(input.as_bytes()[start].to_ascii_lowercase()));
            return;
        }
        let from = self.scratch.len();
        self.scratch.push_str(&input[start..end]);
        self.scratch[from..].make_ascii_lowercase();
    }

    #[inline]
    fn make_owned(&mut self, input: &str, budget: &mut Budget) {
        if !self.owned {
            self.owned = true;
            self.scratch.clear();
            if self.start < self.end {
                self.append(&input[self.start..self.end], budget);
            }
        }
    }

    /// The scratch copy, if the string is one (not a slice of the input).
    #[inline(always)]
    pub(super) fn scratch_if_owned(&self) -> Option<&str> {
        if self.owned {
            Some(&self.scratch)
        } else {
            None
        }
    }

    /// The string so far.
    pub(super) fn as_str<'s>(&'s self, input: &'s str) -> &'s str {
        if self.owned {
            &self.scratch
        } else {
            &input[self.start..self.end]
        }
    }

    /// The finished string: a slice of the input, or a copy in the arena
    /// (charged to `budget`). Leaves the buffer empty.
    #[inline(always)]
    pub(super) fn take<'a>(
        &mut self,
        input: &'a str,
        arena: &'a Bump,
        budget: &mut Budget,
    ) -> &'a str {
        if self.owned {
            return self.take_owned(arena, budget);
        }
        let s = &input[self.start..self.end];
        self.start = 0;
        self.end = 0;
        s
    }

    /// [`take`](Self::take) of a scratch copy: out of line, so that the
    /// borrowed case, nearly every string, stays small where it is inlined.
    #[inline(never)]
    fn take_owned<'a>(&mut self, arena: &'a Bump, budget: &mut Budget) -> &'a str {
        budget.wrote(self.scratch.len());
        let s = arena.alloc_str(&self.scratch);
        self.clear();
        s
    }
}
