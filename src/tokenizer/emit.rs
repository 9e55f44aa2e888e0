//! Emitting: the pending text the content states append to, and handing
//! finished tokens (with the text before them) to the output.

use super::MemoryLimitError;
use super::Tokenizer;
use super::strbuf::StrBuf;
use crate::error::{ErrorCode, ParseError};
use crate::scan::utf8_width;
use crate::token::{Span, Text, Token};

impl<'a> Tokenizer<'a> {
    /// A span of this buffer as a span of the whole stream.
    #[inline(always)]
    pub(super) fn sp(&self, start: usize, end: usize) -> Span {
        Span::new(start + self.base, end + self.base)
    }

    /// Appends the verbatim source `start..end` to the pending text.
    #[inline]
    pub(super) fn text_src(&mut self, start: usize, end: usize) {
        if self.text.is_empty() {
            self.text_start = self.last_token_end;
        }
        self.text.push_src(self.input, start, end);
    }

    /// Appends a string that differs from the source to the pending text.
    #[inline]
    pub(super) fn text_str(&mut self, s: &str) {
        if self.text.is_empty() {
            self.text_start = self.last_token_end;
        }
        self.text.push_str(self.input, s);
    }

    /// Emits the character at `pos` as text and advances past it: a CR (or
    /// CRLF) becomes LF, anything else is copied verbatim.
    #[inline]
    pub(super) fn text_current(&mut self) {
        let b = self.bytes[self.pos];
        if b == b'\r' {
            self.text_str("\n");
            self.skip_cr();
        } else {
            let end = self.pos + utf8_width(b);
            self.text_src(self.pos, end);
            self.pos = end;
        }
    }

    /// Emits U+FFFD as text for the NUL at `pos` (with its parse error).
    #[inline]
    pub(super) fn text_replacement_for_nul(&mut self) {
        self.error(ErrorCode::UnexpectedNullCharacter, self.pos);
        self.text_str("\u{FFFD}");
        self.pos += 1;
    }

    /// Appends the character at `pos` to `buf` and advances: CR becomes LF,
    /// NUL becomes U+FFFD (callers report the error), anything else is
    /// copied verbatim.
    #[inline]
    pub(super) fn append_current(input: &str, bytes: &[u8], pos: &mut usize, buf: &mut StrBuf) {
        let b = bytes[*pos];
        match b {
            b'\r' => {
                buf.push_char(input, '\n');
                *pos += 1;
                if bytes.get(*pos) == Some(&b'\n') {
                    *pos += 1;
                }
            }
            0 => {
                buf.push_char(input, char::REPLACEMENT_CHARACTER);
                *pos += 1;
            }
            _ => {
                let end = *pos + utf8_width(b);
                buf.push_src(input, *pos, end);
                *pos = end;
            }
        }
    }

    /// Queues a finished token, preceded by the pending text if there is any.
    #[inline(always)]
    pub(super) fn emit(&mut self, token: Token<'a>) {
        self.emit_then::<false, _>(token, &mut |_| true);
    }

    /// [`Self::emit`] for the states outside the data state (`PUSH` false:
    /// the tokens wait in `out` and `stash` for the push loop to hand them
    /// over) or for the data state's own paths (`PUSH` true: they go to
    /// `sink` at once, which returns whether to go on; see `push.rs`).
    #[inline(always)]
    pub(super) fn emit_then<const PUSH: bool, F: FnMut(Token<'a>) -> bool>(
        &mut self,
        token: Token<'a>,
        sink: &mut F,
    ) {
        // (At the call sites that emit tags this test folds away.)
        if self.opts.auto_switch && matches!(token, Token::Comment(_) | Token::Doctype(_)) {
            self.watch_text();
        }
        let span = token.span();
        self.last_token_end = span.end;
        if !self.text.is_empty() {
            let text = self.take_text(span.start - self.base);
            if !PUSH {
                self.out = Some(text);
                self.stash = Some(token);
                return;
            }
            if !sink(text) {
                // The token waits where the iterator keeps the second of
                // two, and is handed out first whichever way goes on.
                self.stash = Some(token);
                self.paused = true;
                return;
            }
        }
        if !PUSH {
            self.out = Some(token);
        } else if !sink(token) {
            self.paused = true;
        }
    }

    #[inline(always)]
    pub(super) fn take_text(&mut self, end: usize) -> Token<'a> {
        let data = self.text.take(self.input, self.arena);
        Token::Text(Text {
            data,
            span: Span::new(self.text_start, (end + self.base).max(self.text_start)),
        })
    }

    /// Handles the end-of-file token: flushes pending text, whose span ends
    /// at `text_end`, and stops.
    pub(super) fn emit_eof(&mut self, text_end: usize) {
        if self.suspend() {
            return;
        }
        self.eof_text_end = Some(text_end + self.base);
        self.flush_stream_errors(usize::MAX);
        let errors_over = match self.opts.memory_limit {
            Some(limit) if self.next_stream_error.0 != usize::MAX => Some(limit),
            _ => None,
        };
        if let Some(limit) = errors_over {
            // The errors alone passed the limit: the tokens are all out (the
            // last, below, too), the errors from here on are not.
            self.limit_error = Some(MemoryLimitError {
                limit,
                used: self.errors.len() * core::mem::size_of::<ParseError>(),
                offset: self.next_stream_error.0 + self.base,
            });
        }
        if !self.text.is_empty() {
            let text = self.take_text(text_end);
            self.out = Some(text);
        }
        self.done = true;
    }

    /// Once the end of the input is reached: where a text token running to
    /// it ends (in the whole stream), the input's end or the start of what
    /// the end cut short.
    pub(crate) fn eof_text_end(&self) -> Option<usize> {
        self.eof_text_end
    }
}
