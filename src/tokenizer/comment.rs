//! The comment states: bogus comment, markup declaration open, and the
//! comment states with their less-than-sign states (from the
//! [bogus comment state](https://html.spec.whatwg.org/multipage/parsing.html#bogus-comment-state) to the
//! [comment end bang state](https://html.spec.whatwg.org/multipage/parsing.html#comment-end-bang-state)).
//!
//! The standard appends dashes to the comment data lazily ("append two
//! U+002D HYPHEN-MINUS characters"); those dashes are always the source bytes
//! just consumed, so they are appended as source runs and a comment's data
//! stays a borrowed slice of the input unless it holds a NUL or CR.

use super::Tokenizer;
use super::machine::MachineState;
use crate::error::ErrorCode;
use crate::scan::ByteSet;
use crate::token::{Comment, Token};

/// Bytes that end a run in the comment state.
static COMMENT_STOP: ByteSet = ByteSet::new(b"<-\0\r");
/// Bytes that end a run in the bogus comment state.
static BOGUS_COMMENT_STOP: ByteSet = ByteSet::new(b">\0\r");

impl<'a> Tokenizer<'a> {
    /// Emits the current comment token, ending at `pos`.
    fn emit_comment(&mut self) {
        let data = self
            .comment
            .take(self.cursor.input, self.arena, &mut self.budget);
        let span = self.span(self.cursor.markup_start, self.cursor.pos);
        self.state = MachineState::Data;
        if self.context.open_elements.is_exact() {
            self.follow_other_token(None);
        }
        self.emit(Token::Comment(Comment { data, span }));
    }

    /// The `eof-in-comment` case: emit the comment, then end.
    fn eof_in_comment(&mut self) {
        if self.suspend() {
            return;
        }
        self.error(ErrorCode::EofInComment, self.cursor.pos);
        self.emit_comment();
        self.emit_eof(self.cursor.pos);
    }

    /// Appends `input[pos - back .. pos]`, characters already consumed, to
    /// the comment data.
    #[inline]
    fn comment_back(&mut self, back: usize) {
        self.comment.push_src(
            self.cursor.input,
            self.cursor.pos - back,
            self.cursor.pos,
            &mut self.budget,
        );
    }

    /// The [bogus comment state](https://html.spec.whatwg.org/multipage/parsing.html#bogus-comment-state).
    pub(super) fn bogus_comment_state(&mut self) {
        loop {
            if self.limit_hit() {
                return;
            }
            let end = BOGUS_COMMENT_STOP.find(self.cursor.bytes, self.cursor.pos);
            self.comment
                .push_src(self.cursor.input, self.cursor.pos, end, &mut self.budget);
            self.cursor.pos = end;
            match self.cur() {
                Some(b'>') => {
                    self.cursor.pos += 1;
                    return self.emit_comment();
                }
                Some(b) => {
                    if b == 0 {
                        self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
                    }
                    self.cursor
                        .append_current(&mut self.comment, &mut self.budget);
                }
                None => {
                    if self.suspend() {
                        return;
                    }
                    self.emit_comment();
                    return self.emit_eof(self.cursor.pos);
                }
            }
        }
    }

    /// The [markup declaration open state](https://html.spec.whatwg.org/multipage/parsing.html#markup-declaration-open-state).
    pub(super) fn markup_declaration_open_state(&mut self) {
        let rest = &self.cursor.bytes[self.cursor.pos..];
        if self.resume.partial && rest.len() < 7 {
            // Not enough input to tell `--`, `DOCTYPE` and `[CDATA[` apart.
            let prefix_of = |pat: &[u8]| {
                let n = rest.len().min(pat.len());
                rest[..n].eq_ignore_ascii_case(&pat[..n])
            };
            if (rest.len() < 2 && prefix_of(b"--"))
                || prefix_of(b"DOCTYPE")
                || prefix_of(b"[CDATA[")
            {
                self.suspend();
                return;
            }
        }
        if rest.starts_with(b"--") {
            self.cursor.pos += 2;
            self.comment.clear();
            self.state = MachineState::CommentStart;
        } else if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"DOCTYPE") {
            self.cursor.pos += 7;
            self.state = MachineState::Doctype;
        } else if rest.starts_with(b"[CDATA[") {
            if self.context.open_elements.is_exact() {
                self.watch_text_so_far();
            }
            if self.in_foreign_content() {
                self.cursor.pos += 7;
                self.state = MachineState::CdataSection;
            } else {
                self.comment.clear();
                self.comment.push_src(
                    self.cursor.input,
                    self.cursor.pos,
                    self.cursor.pos + 7,
                    &mut self.budget,
                );
                self.cursor.pos += 7;
                // html5lib-tests places this error on the last `[`.
                self.error(ErrorCode::CdataInHtmlContent, self.cursor.pos - 1);
                self.state = MachineState::BogusComment;
            }
        } else {
            self.error(ErrorCode::IncorrectlyOpenedComment, self.cursor.pos);
            self.comment.clear();
            self.state = MachineState::BogusComment;
        }
    }

    /// The [comment start state](https://html.spec.whatwg.org/multipage/parsing.html#comment-start-state).
    pub(super) fn comment_start_state(&mut self) {
        match self.cur() {
            Some(b'-') => {
                self.cursor.pos += 1;
                self.state = MachineState::CommentStartDash;
            }
            Some(b'>') => {
                self.error(ErrorCode::AbruptClosingOfEmptyComment, self.cursor.pos);
                self.cursor.pos += 1;
                self.emit_comment();
            }
            _ => self.state = MachineState::Comment,
        }
    }

    /// The [comment start dash state](https://html.spec.whatwg.org/multipage/parsing.html#comment-start-dash-state).
    pub(super) fn comment_start_dash_state(&mut self) {
        match self.cur() {
            Some(b'-') => {
                self.cursor.pos += 1;
                self.state = MachineState::CommentEnd;
            }
            Some(b'>') => {
                self.error(ErrorCode::AbruptClosingOfEmptyComment, self.cursor.pos);
                self.cursor.pos += 1;
                self.emit_comment();
            }
            None => self.eof_in_comment(),
            Some(_) => {
                self.comment_back(1);
                self.state = MachineState::Comment;
            }
        }
    }

    /// The [comment state](https://html.spec.whatwg.org/multipage/parsing.html#comment-state).
    pub(super) fn comment_state(&mut self) {
        loop {
            if self.limit_hit() {
                return;
            }
            let end = COMMENT_STOP.find(self.cursor.bytes, self.cursor.pos);
            self.comment
                .push_src(self.cursor.input, self.cursor.pos, end, &mut self.budget);
            self.cursor.pos = end;
            match self.cur() {
                Some(b'<') => {
                    self.cursor.pos += 1;
                    self.comment_back(1);
                    self.state = MachineState::CommentLessThanSign;
                    return;
                }
                Some(b'-') => {
                    self.cursor.pos += 1;
                    self.state = MachineState::CommentEndDash;
                    return;
                }
                Some(b) => {
                    if b == 0 {
                        self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
                    }
                    self.cursor
                        .append_current(&mut self.comment, &mut self.budget);
                }
                None => return self.eof_in_comment(),
            }
        }
    }

    /// The [comment less-than sign state](https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-state).
    pub(super) fn comment_less_than_sign_state(&mut self) {
        match self.cur() {
            Some(b'!') => {
                self.cursor.pos += 1;
                self.comment_back(1);
                self.state = MachineState::CommentLessThanSignBang;
            }
            Some(b'<') => {
                self.cursor.pos += 1;
                self.comment_back(1);
            }
            _ => self.state = MachineState::Comment,
        }
    }

    /// The [comment less-than sign bang state](https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-bang-state).
    pub(super) fn comment_less_than_sign_bang_state(&mut self) {
        if self.cur() == Some(b'-') {
            self.cursor.pos += 1;
            self.state = MachineState::CommentLessThanSignBangDash;
        } else {
            self.state = MachineState::Comment;
        }
    }

    /// The [comment less-than sign bang dash state](https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-bang-dash-state).
    pub(super) fn comment_less_than_sign_bang_dash_state(&mut self) {
        if self.cur() == Some(b'-') {
            self.cursor.pos += 1;
            self.state = MachineState::CommentLessThanSignBangDashDash;
        } else {
            self.state = MachineState::CommentEndDash;
        }
    }

    /// The [comment less-than sign bang dash dash state](https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-bang-dash-dash-state).
    pub(super) fn comment_less_than_sign_bang_dash_dash_state(&mut self) {
        match self.cur() {
            Some(b'>') | None => {}
            Some(_) => self.error(ErrorCode::NestedComment, self.cursor.pos),
        }
        self.state = MachineState::CommentEnd;
    }

    /// The [comment end dash state](https://html.spec.whatwg.org/multipage/parsing.html#comment-end-dash-state).
    pub(super) fn comment_end_dash_state(&mut self) {
        match self.cur() {
            Some(b'-') => {
                self.cursor.pos += 1;
                self.state = MachineState::CommentEnd;
            }
            None => self.eof_in_comment(),
            Some(_) => {
                self.comment_back(1);
                self.state = MachineState::Comment;
            }
        }
    }

    /// The [comment end state](https://html.spec.whatwg.org/multipage/parsing.html#comment-end-state).
    pub(super) fn comment_end_state(&mut self) {
        match self.cur() {
            Some(b'>') => {
                self.cursor.pos += 1;
                self.emit_comment();
            }
            Some(b'!') => {
                self.cursor.pos += 1;
                self.state = MachineState::CommentEndBang;
            }
            Some(b'-') => {
                // The first of the two pending dashes becomes data.
                self.comment.push_src(
                    self.cursor.input,
                    self.cursor.pos - 2,
                    self.cursor.pos - 1,
                    &mut self.budget,
                );
                self.cursor.pos += 1;
            }
            None => self.eof_in_comment(),
            Some(_) => {
                self.comment_back(2);
                self.state = MachineState::Comment;
            }
        }
    }

    /// The [comment end bang state](https://html.spec.whatwg.org/multipage/parsing.html#comment-end-bang-state).
    pub(super) fn comment_end_bang_state(&mut self) {
        match self.cur() {
            Some(b'-') => {
                self.comment_back(3);
                self.cursor.pos += 1;
                self.state = MachineState::CommentEndDash;
            }
            Some(b'>') => {
                self.error(ErrorCode::IncorrectlyClosedComment, self.cursor.pos);
                self.cursor.pos += 1;
                self.emit_comment();
            }
            None => self.eof_in_comment(),
            Some(_) => {
                self.comment_back(3);
                self.state = MachineState::Comment;
            }
        }
    }
}
