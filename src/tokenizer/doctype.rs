//! The DOCTYPE states (from the [DOCTYPE state](https://html.spec.whatwg.org/multipage/parsing.html#doctype-state) to the
//! [bogus DOCTYPE state](https://html.spec.whatwg.org/multipage/parsing.html#bogus-doctype-state)).
//!
//! DOCTYPEs are rare and short, so these states follow the standard one
//! character at a time; only the name and the identifiers are appended as
//! runs.

use super::Tokenizer;
use super::machine::{DoctypeIdKind, MachineState};
use super::strbuf::StrBuf;
use crate::error::ErrorCode;
use crate::scan::{ByteSet, is_ascii_whitespace, skip_whitespace};
use crate::token::{Doctype, Token};

/// Bytes that end a run of DOCTYPE name characters.
static NAME_STOP: ByteSet = ByteSet::whitespace_and(b">\0");
/// Bytes that end a run of a double-quoted identifier.
static DQ_ID_STOP: ByteSet = ByteSet::new(b"\">\0\r");
/// Bytes that end a run of a single-quoted identifier.
static SQ_ID_STOP: ByteSet = ByteSet::new(b"'>\0\r");

/// The DOCTYPE token being built: each part missing until its state starts
/// it.
#[derive(Debug, Default)]
pub(super) struct CurrentDoctype {
    pub(super) name: Option<StrBuf>,
    pub(super) public_id: Option<StrBuf>,
    pub(super) system_id: Option<StrBuf>,
    pub(super) force_quirks: bool,
}

impl CurrentDoctype {
    /// The identifier of this kind.
    fn id_mut(&mut self, kind: DoctypeIdKind) -> &mut Option<StrBuf> {
        match kind {
            DoctypeIdKind::Public => &mut self.public_id,
            DoctypeIdKind::System => &mut self.system_id,
        }
    }
}

impl<'a> Tokenizer<'a> {
    /// Starts a new DOCTYPE token with everything missing.
    fn new_doctype(&mut self) {
        self.doctype.name = None;
        self.doctype.public_id = None;
        self.doctype.system_id = None;
        self.doctype.force_quirks = false;
    }

    /// Emits the current DOCTYPE token, ending at `pos`.
    fn emit_doctype(&mut self) {
        let (input, arena, budget) = (self.cursor.input, self.arena, &mut self.budget);
        // Each buffer is dropped here: what it charged is given back.
        let mut finish = |b: Option<StrBuf>| {
            b.map(|mut b| {
                let s = b.take(input, arena, budget);
                budget.released(b.capacity());
                s
            })
        };
        let doctype = Doctype {
            name: finish(self.doctype.name.take()),
            public_id: finish(self.doctype.public_id.take()),
            system_id: finish(self.doctype.system_id.take()),
            force_quirks: self.doctype.force_quirks,
            span: self.span(self.cursor.markup_start, self.cursor.pos),
        };
        self.state = MachineState::Data;
        if self.context.open_elements.is_exact() {
            self.follow_other_token(Some(&doctype));
        }
        self.emit(Token::Doctype(doctype));
    }

    /// The `eof-in-doctype` case: force quirks, emit, end.
    fn eof_in_doctype(&mut self) {
        if self.suspend() {
            return;
        }
        self.error(ErrorCode::EofInDoctype, self.cursor.pos);
        self.doctype.force_quirks = true;
        self.emit_doctype();
        self.emit_eof(self.cursor.pos);
    }

    /// Skips whitespace; returns the next byte, if any.
    #[inline]
    fn skip_ws(&mut self) -> Option<u8> {
        self.cursor.pos = skip_whitespace(self.cursor.bytes, self.cursor.pos);
        self.cur()
    }

    /// The [DOCTYPE state](https://html.spec.whatwg.org/multipage/parsing.html#doctype-state).
    pub(super) fn doctype_state(&mut self) {
        self.new_doctype();
        match self.cur() {
            Some(b) if is_ascii_whitespace(b) => {
                self.cursor.pos += 1;
                self.state = MachineState::BeforeDoctypeName;
            }
            Some(b'>') => self.state = MachineState::BeforeDoctypeName,
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error(
                    ErrorCode::MissingWhitespaceBeforeDoctypeName,
                    self.cursor.pos,
                );
                self.state = MachineState::BeforeDoctypeName;
            }
        }
    }

    /// The [before DOCTYPE name state](https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-name-state).
    pub(super) fn before_doctype_name_state(&mut self) {
        match self.skip_ws() {
            Some(b'>') => {
                self.error(ErrorCode::MissingDoctypeName, self.cursor.pos);
                self.doctype.force_quirks = true;
                self.cursor.pos += 1;
                self.emit_doctype();
            }
            None => self.eof_in_doctype(),
            Some(_) => {
                self.doctype.name = Some(StrBuf::default());
                self.state = MachineState::DoctypeName;
            }
        }
    }

    /// The [DOCTYPE name state](https://html.spec.whatwg.org/multipage/parsing.html#doctype-name-state).
    pub(super) fn doctype_name_state(&mut self) {
        let mut name = self.doctype.name.take().unwrap_or_default();
        loop {
            let end = NAME_STOP.find(self.cursor.bytes, self.cursor.pos);
            name.push_lower(self.cursor.input, self.cursor.pos, end, &mut self.budget);
            self.cursor.pos = end;
            match self.cur() {
                Some(b'>') => {
                    self.doctype.name = Some(name);
                    self.cursor.pos += 1;
                    return self.emit_doctype();
                }
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
                    name.push_char(
                        self.cursor.input,
                        char::REPLACEMENT_CHARACTER,
                        &mut self.budget,
                    );
                    self.cursor.pos += 1;
                }
                Some(_) => {
                    self.doctype.name = Some(name);
                    self.cursor.pos += 1;
                    self.state = MachineState::AfterDoctypeName;
                    return;
                }
                None => {
                    self.doctype.name = Some(name);
                    return self.eof_in_doctype();
                }
            }
        }
    }

    /// The [after DOCTYPE name state](https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-name-state).
    pub(super) fn after_doctype_name_state(&mut self) {
        match self.skip_ws() {
            Some(b'>') => {
                self.cursor.pos += 1;
                self.emit_doctype();
            }
            None => self.eof_in_doctype(),
            Some(_) => {
                let rest = &self.cursor.bytes[self.cursor.pos..];
                if self.resume.partial && rest.len() < 6 {
                    let n = rest.len();
                    if rest.eq_ignore_ascii_case(&b"PUBLIC"[..n])
                        || rest.eq_ignore_ascii_case(&b"SYSTEM"[..n])
                    {
                        self.suspend();
                        return;
                    }
                }
                let keyword = |k: &[u8]| rest.len() >= 6 && rest[..6].eq_ignore_ascii_case(k);
                if keyword(b"PUBLIC") {
                    self.cursor.pos += 6;
                    self.state = MachineState::AfterDoctypePublicKeyword;
                } else if keyword(b"SYSTEM") {
                    self.cursor.pos += 6;
                    self.state = MachineState::AfterDoctypeSystemKeyword;
                } else {
                    self.error(
                        ErrorCode::InvalidCharacterSequenceAfterDoctypeName,
                        self.cursor.pos,
                    );
                    self.doctype.force_quirks = true;
                    self.state = MachineState::BogusDoctype;
                }
            }
        }
    }

    /// The "after DOCTYPE public/system keyword" states ([after DOCTYPE public keyword state](https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-public-keyword-state) and
    /// [after DOCTYPE system keyword state](https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-system-keyword-state)), told apart by `kind`.
    fn after_keyword(&mut self, kind: DoctypeIdKind) {
        let (missing_ws, before) = match kind {
            DoctypeIdKind::Public => (
                ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword,
                MachineState::BeforeDoctypePublicIdentifier,
            ),
            DoctypeIdKind::System => (
                ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword,
                MachineState::BeforeDoctypeSystemIdentifier,
            ),
        };
        match self.cur() {
            Some(b) if is_ascii_whitespace(b) => {
                self.cursor.pos += 1;
                self.state = before;
            }
            Some(q @ (b'"' | b'\'')) => {
                self.error(missing_ws, self.cursor.pos);
                self.open_identifier(kind, q);
            }
            _ => self.before_identifier(kind),
        }
    }

    /// The "before DOCTYPE public/system identifier" states ([before DOCTYPE public identifier state](https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-public-identifier-state) and
    /// [before DOCTYPE system identifier state](https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-system-identifier-state)).
    fn before_identifier(&mut self, kind: DoctypeIdKind) {
        match self.skip_ws() {
            Some(q @ (b'"' | b'\'')) => self.open_identifier(kind, q),
            Some(b'>') => {
                self.error(
                    match kind {
                        DoctypeIdKind::Public => ErrorCode::MissingDoctypePublicIdentifier,
                        DoctypeIdKind::System => ErrorCode::MissingDoctypeSystemIdentifier,
                    },
                    self.cursor.pos,
                );
                self.doctype.force_quirks = true;
                self.cursor.pos += 1;
                self.emit_doctype();
            }
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error(
                    match kind {
                        DoctypeIdKind::Public => {
                            ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
                        }
                        DoctypeIdKind::System => {
                            ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
                        }
                    },
                    self.cursor.pos,
                );
                self.doctype.force_quirks = true;
                self.state = MachineState::BogusDoctype;
            }
        }
    }

    /// Consumes the opening quote `q` of an identifier, which starts empty.
    fn open_identifier(&mut self, kind: DoctypeIdKind, q: u8) {
        self.cursor.pos += 1;
        self.state = match (kind, q) {
            (DoctypeIdKind::Public, b'"') => MachineState::DoctypePublicIdentifierDoubleQuoted,
            (DoctypeIdKind::Public, _) => MachineState::DoctypePublicIdentifierSingleQuoted,
            (DoctypeIdKind::System, b'"') => MachineState::DoctypeSystemIdentifierDoubleQuoted,
            (DoctypeIdKind::System, _) => MachineState::DoctypeSystemIdentifierSingleQuoted,
        };
        *self.doctype.id_mut(kind) = Some(StrBuf::default());
    }

    /// The [after DOCTYPE public keyword state](https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-public-keyword-state).
    pub(super) fn after_doctype_public_keyword_state(&mut self) {
        self.after_keyword(DoctypeIdKind::Public)
    }

    /// The [before DOCTYPE public identifier state](https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-public-identifier-state).
    pub(super) fn before_doctype_public_identifier_state(&mut self) {
        self.before_identifier(DoctypeIdKind::Public)
    }

    /// The [DOCTYPE public identifier (double-quoted) state](https://html.spec.whatwg.org/multipage/parsing.html#doctype-public-identifier-(double-quoted)-state), the
    /// [DOCTYPE public identifier (single-quoted) state](https://html.spec.whatwg.org/multipage/parsing.html#doctype-public-identifier-(single-quoted)-state),
    /// the [DOCTYPE system identifier (double-quoted) state](https://html.spec.whatwg.org/multipage/parsing.html#doctype-system-identifier-(double-quoted)-state)
    /// and the [DOCTYPE system identifier (single-quoted) state](https://html.spec.whatwg.org/multipage/parsing.html#doctype-system-identifier-(single-quoted)-state).
    pub(super) fn doctype_identifier_quoted_state(&mut self, kind: DoctypeIdKind, quote: u8) {
        let stop = if quote == b'"' {
            &DQ_ID_STOP
        } else {
            &SQ_ID_STOP
        };
        let mut id = self.doctype.id_mut(kind).take().unwrap_or_default();
        loop {
            let end = stop.find(self.cursor.bytes, self.cursor.pos);
            id.push_src(self.cursor.input, self.cursor.pos, end, &mut self.budget);
            self.cursor.pos = end;
            match self.cur() {
                Some(b'>') => {
                    self.error(
                        match kind {
                            DoctypeIdKind::Public => ErrorCode::AbruptDoctypePublicIdentifier,
                            DoctypeIdKind::System => ErrorCode::AbruptDoctypeSystemIdentifier,
                        },
                        self.cursor.pos,
                    );
                    self.doctype.force_quirks = true;
                    self.cursor.pos += 1;
                    self.store_identifier(kind, id);
                    return self.emit_doctype();
                }
                Some(b) if b == quote => {
                    self.cursor.pos += 1;
                    self.store_identifier(kind, id);
                    self.state = match kind {
                        DoctypeIdKind::Public => MachineState::AfterDoctypePublicIdentifier,
                        DoctypeIdKind::System => MachineState::AfterDoctypeSystemIdentifier,
                    };
                    return;
                }
                Some(b) => {
                    if b == 0 {
                        self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
                    }
                    self.cursor.append_current(&mut id, &mut self.budget);
                }
                None => {
                    self.store_identifier(kind, id);
                    return self.eof_in_doctype();
                }
            }
        }
    }

    fn store_identifier(&mut self, kind: DoctypeIdKind, id: StrBuf) {
        *self.doctype.id_mut(kind) = Some(id);
    }

    /// The [after DOCTYPE public identifier state](https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-public-identifier-state).
    pub(super) fn after_doctype_public_identifier_state(&mut self) {
        match self.cur() {
            Some(b) if is_ascii_whitespace(b) => {
                self.cursor.pos += 1;
                self.state = MachineState::BetweenDoctypePublicAndSystemIdentifiers;
            }
            Some(b'"' | b'\'') => {
                self.error(
                    ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
                    self.cursor.pos,
                );
                self.between_doctype_public_and_system_identifiers_state();
            }
            _ => self.between_doctype_public_and_system_identifiers_state(),
        }
    }

    /// The [between DOCTYPE public and system identifiers state](https://html.spec.whatwg.org/multipage/parsing.html#between-doctype-public-and-system-identifiers-state).
    pub(super) fn between_doctype_public_and_system_identifiers_state(&mut self) {
        match self.skip_ws() {
            Some(b'>') => {
                self.cursor.pos += 1;
                self.emit_doctype();
            }
            _ => self.before_identifier(DoctypeIdKind::System),
        }
    }

    /// The [after DOCTYPE system keyword state](https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-system-keyword-state).
    pub(super) fn after_doctype_system_keyword_state(&mut self) {
        self.after_keyword(DoctypeIdKind::System)
    }

    /// The [before DOCTYPE system identifier state](https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-system-identifier-state).
    pub(super) fn before_doctype_system_identifier_state(&mut self) {
        self.before_identifier(DoctypeIdKind::System)
    }

    /// The [after DOCTYPE system identifier state](https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-system-identifier-state).
    pub(super) fn after_doctype_system_identifier_state(&mut self) {
        match self.skip_ws() {
            Some(b'>') => {
                self.cursor.pos += 1;
                self.emit_doctype();
            }
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error(
                    ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier,
                    self.cursor.pos,
                );
                self.state = MachineState::BogusDoctype;
            }
        }
    }

    /// The [bogus DOCTYPE state](https://html.spec.whatwg.org/multipage/parsing.html#bogus-doctype-state).
    pub(super) fn bogus_doctype_state(&mut self) {
        loop {
            let end = self.cursor.pos
                + self.cursor.bytes[self.cursor.pos..]
                    .iter()
                    .take_while(|&&b| b != b'>' && b != 0)
                    .count();
            self.cursor.pos = end;
            match self.cur() {
                Some(b'>') => {
                    self.cursor.pos += 1;
                    return self.emit_doctype();
                }
                Some(_) => {
                    self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
                    self.cursor.pos += 1;
                }
                None => {
                    if self.suspend() {
                        return;
                    }
                    self.emit_doctype();
                    return self.emit_eof(self.cursor.pos);
                }
            }
        }
    }
}
