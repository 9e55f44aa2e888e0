//! Emitting: the pending text the content states append to, and handing
//! finished tokens (with the text before them) to the output.

use super::Tokenizer;
use super::strbuf::StrBuf;
use crate::error::ErrorCode;
use crate::scan::utf8_width;
use crate::token::{Span, Text, Token};

/// Character tokens being gathered into one text token.
#[derive(Debug, Default)]
pub(super) struct PendingText {
    pub(super) buf: StrBuf,
    /// Where the text starts in the stream.
    pub(super) start: usize,
    /// Where the last emitted token ended: the start of the next text.
    pub(super) last_token_end: usize,
}

/// The tokens ready to be handed out: at most a text token and the token
/// that ended it. The states outside the data state's push loop leave their
/// tokens here, and so does a push sink that stops after the text (the
/// token that ended it waits in `waiting`).
#[derive(Debug, Default)]
pub(super) struct Output<'a> {
    /// The next token to hand out.
    pub(super) ready: Option<Token<'a>>,
    /// The token that ended the text in `ready`, handed out after it.
    pub(super) waiting: Option<Token<'a>>,
    /// The tokenizer has stopped for good (the input ended, or the memory
    /// limit stopped it).
    pub(super) done: bool,
    /// A push sink asked to stop (see `push.rs`).
    pub(super) paused: bool,
}

impl<'a> Tokenizer<'a> {
    /// A span of this buffer as a span of the whole stream.
    #[inline(always)]
    pub(super) fn span(&self, start: usize, end: usize) -> Span {
        Span::new(start + self.cursor.base, end + self.cursor.base)
    }

    /// Appends the verbatim source `start..end` to the pending text.
    #[inline]
    pub(super) fn text_src(&mut self, start: usize, end: usize) {
        if self.text.buf.is_empty() {
            self.text.start = self.text.last_token_end;
        }
        self.text
            .buf
            .push_src(self.cursor.input, start, end, &mut self.budget);
    }

    /// Appends a string that differs from the source to the pending text.
    #[inline]
    pub(super) fn text_str(&mut self, s: &str) {
        if self.text.buf.is_empty() {
            self.text.start = self.text.last_token_end;
        }
        self.text
            .buf
            .push_str(self.cursor.input, s, &mut self.budget);
    }

    /// Emits the character at `pos` as text and advances past it: a CR (or
    /// CRLF) becomes LF, anything else is copied verbatim.
    #[inline]
    pub(super) fn text_current(&mut self) {
        let b = self.cursor.bytes[self.cursor.pos];
        if b == b'\r' {
            self.text_str("\n");
            self.skip_cr();
        } else {
            let end = self.cursor.pos + utf8_width(b);
            self.text_src(self.cursor.pos, end);
            self.cursor.pos = end;
        }
    }

    /// Emits U+FFFD as text for the NUL at `pos` (with its parse error).
    #[inline]
    pub(super) fn text_replacement_for_nul(&mut self) {
        self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
        self.text_str("\u{FFFD}");
        self.cursor.pos += 1;
    }

    /// Queues a finished token, preceded by the pending text if there is any.
    #[inline(always)]
    pub(super) fn emit(&mut self, token: Token<'a>) {
        self.emit_then::<false, _>(token, &mut |_| true);
    }

    /// [`Self::emit`] for the states outside the data state (`PUSH` false:
    /// the tokens wait in `output.ready` and `output.waiting` for the push loop to hand them
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
        self.text.last_token_end = span.end;
        if !self.text.buf.is_empty() {
            let text = self.take_text(span.start - self.cursor.base);
            if !PUSH {
                self.output.ready = Some(text);
                self.output.waiting = Some(token);
                return;
            }
            if !sink(text) {
                // The token waits where the iterator keeps the second of
                // two, and is handed out first whichever way goes on.
                self.output.waiting = Some(token);
                self.output.paused = true;
                return;
            }
        }
        if !PUSH {
            self.output.ready = Some(token);
        } else if !sink(token) {
            self.output.paused = true;
        }
    }

    #[inline(always)]
    pub(super) fn take_text(&mut self, end: usize) -> Token<'a> {
        let data = self
            .text
            .buf
            .take(self.cursor.input, self.arena, &mut self.budget);
        Token::Text(Text {
            data,
            span: Span::new(
                self.text.start,
                (end + self.cursor.base).max(self.text.start),
            ),
        })
    }

    /// Handles the end-of-file token: flushes pending text, whose span ends
    /// at `text_end`, and stops.
    pub(super) fn emit_eof(&mut self, text_end: usize) {
        if self.suspend() {
            return;
        }
        self.resume.eof_text_end = Some(text_end + self.cursor.base);
        self.flush_stream_errors(usize::MAX);
        // A charge passed the limit since the last poll (the errors alone,
        // refused to grow, most often): the tokens are all out (the last,
        // below, too), the errors from where they stopped are not.
        let stopped = match self.errors.next_stream_error.0 {
            usize::MAX => self.cursor.pos,
            at => at,
        };
        self.limit_error_at_end(stopped);
        if !self.text.buf.is_empty() {
            let text = self.take_text(text_end);
            self.output.ready = Some(text);
        }
        self.output.done = true;
    }

    /// Once the end of the input is reached: where a text token running to
    /// it ends (in the whole stream), the input's end or the start of what
    /// the end cut short.
    pub(crate) fn eof_text_end(&self) -> Option<usize> {
        self.resume.eof_text_end
    }
}
