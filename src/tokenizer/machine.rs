//! The state machine: every state of the tokenizer, and the loop that runs
//! the states other than the data state (which the push loop runs itself,
//! see `push.rs`) one step at a time.

use super::{State, Tokenizer};

/// Which of a DOCTYPE's two identifiers a state reads (html5ever's
/// `DoctypeIdKind`): the states of the two are written alike, and
/// the machine tells them apart by it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum DoctypeIdKind {
    Public,
    System,
}

/// Every state of [tokenization](https://html.spec.whatwg.org/multipage/parsing.html#tokenization), named as the standard names them, and one of
/// the stream's own (`EndOfBuffer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MachineState {
    Data,
    Rcdata,
    Rawtext,
    ScriptData,
    Plaintext,
    TagOpen,
    EndTagOpen,
    TagName,
    RcdataLessThanSign,
    RcdataEndTagOpen,
    RcdataEndTagName,
    RawtextLessThanSign,
    RawtextEndTagOpen,
    RawtextEndTagName,
    ScriptDataLessThanSign,
    ScriptDataEndTagOpen,
    ScriptDataEndTagName,
    ScriptDataEscapeStart,
    ScriptDataEscapeStartDash,
    ScriptDataEscaped,
    ScriptDataEscapedDash,
    ScriptDataEscapedDashDash,
    ScriptDataEscapedLessThanSign,
    ScriptDataEscapedEndTagOpen,
    ScriptDataEscapedEndTagName,
    ScriptDataDoubleEscapeStart,
    ScriptDataDoubleEscaped,
    ScriptDataDoubleEscapedDash,
    ScriptDataDoubleEscapedDashDash,
    ScriptDataDoubleEscapedLessThanSign,
    ScriptDataDoubleEscapeEnd,
    BeforeAttributeName,
    AttributeName,
    AfterAttributeName,
    BeforeAttributeValue,
    AttributeValueDoubleQuoted,
    AttributeValueSingleQuoted,
    AttributeValueUnquoted,
    AfterAttributeValueQuoted,
    SelfClosingStartTag,
    BogusComment,
    MarkupDeclarationOpen,
    CommentStart,
    CommentStartDash,
    Comment,
    CommentLessThanSign,
    CommentLessThanSignBang,
    CommentLessThanSignBangDash,
    CommentLessThanSignBangDashDash,
    CommentEndDash,
    CommentEnd,
    CommentEndBang,
    Doctype,
    BeforeDoctypeName,
    DoctypeName,
    AfterDoctypeName,
    AfterDoctypePublicKeyword,
    BeforeDoctypePublicIdentifier,
    DoctypePublicIdentifierDoubleQuoted,
    DoctypePublicIdentifierSingleQuoted,
    AfterDoctypePublicIdentifier,
    BetweenDoctypePublicAndSystemIdentifiers,
    AfterDoctypeSystemKeyword,
    BeforeDoctypeSystemIdentifier,
    DoctypeSystemIdentifierDoubleQuoted,
    DoctypeSystemIdentifierSingleQuoted,
    AfterDoctypeSystemIdentifier,
    BogusDoctype,
    CdataSection,
    CdataSectionBracket,
    CdataSectionEnd,
    // The character reference states (from https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state on) run as a chain of
    // calls in charref.rs rather than through this dispatcher: they never
    // emit a token, so they never need to pause.
    /// Not the standard's: a stream's buffer has ended, and the machine
    /// will go on in the state it stopped in (`Safe::state`) with the next
    /// buffer, which the feed starts in this tokenizer's place
    /// (`end_of_buffer`, `stream/feed.rs`).
    EndOfBuffer,
}

impl MachineState {
    /// Whether this is one of the content states (data, RCDATA, RAWTEXT,
    /// script data, PLAINTEXT: the first five), whose step begins with a
    /// text run (see `data.rs`).
    #[inline(always)]
    fn starts_with_text_run(self) -> bool {
        self as u8 <= MachineState::Plaintext as u8
    }

    /// Whether the machine can stop in this state and carry on in another
    /// buffer: the state needs nothing but itself (no position of an
    /// earlier character, such as a `<` not yet known to be text).
    pub(super) fn is_resumable(self) -> bool {
        matches!(
            self,
            MachineState::Data
                | MachineState::Rcdata
                | MachineState::Rawtext
                | MachineState::ScriptData
                | MachineState::Plaintext
                | MachineState::ScriptDataEscapeStart
                | MachineState::ScriptDataEscapeStartDash
                | MachineState::ScriptDataEscaped
                | MachineState::ScriptDataEscapedDash
                | MachineState::ScriptDataEscapedDashDash
                | MachineState::ScriptDataDoubleEscaped
                | MachineState::ScriptDataDoubleEscapedDash
                | MachineState::ScriptDataDoubleEscapedDashDash
                | MachineState::CdataSection
        )
    }
}

impl From<State> for MachineState {
    fn from(s: State) -> MachineState {
        match s {
            State::Data => MachineState::Data,
            State::Rcdata => MachineState::Rcdata,
            State::Rawtext => MachineState::Rawtext,
            State::ScriptData => MachineState::ScriptData,
            State::Plaintext => MachineState::Plaintext,
            State::CdataSection => MachineState::CdataSection,
        }
    }
}

impl<'a> Tokenizer<'a> {
    /// The byte at `pos`, if any.
    #[inline(always)]
    pub(super) fn cur(&self) -> Option<u8> {
        self.cursor.bytes.get(self.cursor.pos).copied()
    }

    /// Advances past the character at `pos`, which is a CR: past the LF too
    /// when one follows (CRLF is one newline).
    #[inline]
    pub(super) fn skip_cr(&mut self) {
        self.cursor.pos += 1;
        if self.cursor.bytes.get(self.cursor.pos) == Some(&b'\n') {
            self.cursor.pos += 1;
        }
    }

    /// Runs the states other than the data state's push loop until one of
    /// them has a token ready, the data state is back or the input is done.
    /// A comment or a DOCTYPE passes through several states; looping here,
    /// with the dispatch inlined, costs far less than a round trip through
    /// the push loop for each.
    pub(super) fn run_states(&mut self) {
        loop {
            self.step();
            if self.output.ready.is_some() || self.output.done || self.state == MachineState::Data {
                return;
            }
        }
    }

    /// Runs one state.
    #[inline(always)]
    fn step(&mut self) {
        if self.limit_hit() {
            return;
        }
        // The content states (data to PLAINTEXT) start with a text run,
        // which records the safe point itself and suspends at the end of
        // the buffer through `emit_eof`.
        if self.resume.partial && !self.state.starts_with_text_run() {
            if self.state.is_resumable() {
                self.mark_safe();
            }
            if self.cursor.pos >= self.cursor.bytes.len() {
                if self.state == MachineState::EndOfBuffer {
                    self.end_of_buffer();
                } else {
                    self.suspend_now();
                }
                return;
            }
        }
        match self.state {
            // The push loop runs the data state itself, and `run_states`
            // hands back to it as soon as the state is data again.
            MachineState::Data => {}
            MachineState::Rcdata => self.rcdata_state(),
            MachineState::Rawtext => self.rawtext_state(),
            MachineState::ScriptData => self.script_data_state(),
            MachineState::Plaintext => self.plaintext_state(),
            MachineState::TagOpen => self.tag_open_state(),
            MachineState::EndTagOpen => self.end_tag_open_state(),
            MachineState::TagName => self.tag_name_state(),
            MachineState::RcdataLessThanSign => self.rcdata_less_than_sign_state(),
            MachineState::RcdataEndTagOpen => self.rcdata_end_tag_open_state(),
            MachineState::RcdataEndTagName => self.rcdata_end_tag_name_state(),
            MachineState::RawtextLessThanSign => self.rawtext_less_than_sign_state(),
            MachineState::RawtextEndTagOpen => self.rawtext_end_tag_open_state(),
            MachineState::RawtextEndTagName => self.rawtext_end_tag_name_state(),
            MachineState::ScriptDataLessThanSign => self.script_data_less_than_sign_state(),
            MachineState::ScriptDataEndTagOpen => self.script_data_end_tag_open_state(),
            MachineState::ScriptDataEndTagName => self.script_data_end_tag_name_state(),
            MachineState::ScriptDataEscapeStart => self.script_data_escape_start_state(),
            MachineState::ScriptDataEscapeStartDash => self.script_data_escape_start_dash_state(),
            MachineState::ScriptDataEscaped => self.script_data_escaped_state(),
            MachineState::ScriptDataEscapedDash => self.script_data_escaped_dash_state(),
            MachineState::ScriptDataEscapedDashDash => self.script_data_escaped_dash_dash_state(),
            MachineState::ScriptDataEscapedLessThanSign => {
                self.script_data_escaped_less_than_sign_state()
            }
            MachineState::ScriptDataEscapedEndTagOpen => {
                self.script_data_escaped_end_tag_open_state()
            }
            MachineState::ScriptDataEscapedEndTagName => {
                self.script_data_escaped_end_tag_name_state()
            }
            MachineState::ScriptDataDoubleEscapeStart => {
                self.script_data_double_escape_start_state()
            }
            MachineState::ScriptDataDoubleEscaped => self.script_data_double_escaped_state(),
            MachineState::ScriptDataDoubleEscapedDash => {
                self.script_data_double_escaped_dash_state()
            }
            MachineState::ScriptDataDoubleEscapedDashDash => {
                self.script_data_double_escaped_dash_dash_state()
            }
            MachineState::ScriptDataDoubleEscapedLessThanSign => {
                self.script_data_double_escaped_less_than_sign_state()
            }
            MachineState::ScriptDataDoubleEscapeEnd => self.script_data_double_escape_end_state(),
            MachineState::BeforeAttributeName => self.before_attribute_name_state(),
            MachineState::AttributeName => self.attribute_name_state(),
            MachineState::AfterAttributeName => self.after_attribute_name_state(),
            MachineState::BeforeAttributeValue => self.before_attribute_value_state(),
            MachineState::AttributeValueDoubleQuoted => self.attribute_value_quoted_state(b'"'),
            MachineState::AttributeValueSingleQuoted => self.attribute_value_quoted_state(b'\''),
            MachineState::AttributeValueUnquoted => self.attribute_value_unquoted_state(),
            MachineState::AfterAttributeValueQuoted => self.after_attribute_value_quoted_state(),
            MachineState::SelfClosingStartTag => self.self_closing_start_tag_state(),
            MachineState::BogusComment => self.bogus_comment_state(),
            MachineState::MarkupDeclarationOpen => self.markup_declaration_open_state(),
            MachineState::CommentStart => self.comment_start_state(),
            MachineState::CommentStartDash => self.comment_start_dash_state(),
            MachineState::Comment => self.comment_state(),
            MachineState::CommentLessThanSign => self.comment_less_than_sign_state(),
            MachineState::CommentLessThanSignBang => self.comment_less_than_sign_bang_state(),
            MachineState::CommentLessThanSignBangDash => {
                self.comment_less_than_sign_bang_dash_state()
            }
            MachineState::CommentLessThanSignBangDashDash => {
                self.comment_less_than_sign_bang_dash_dash_state()
            }
            MachineState::CommentEndDash => self.comment_end_dash_state(),
            MachineState::CommentEnd => self.comment_end_state(),
            MachineState::CommentEndBang => self.comment_end_bang_state(),
            MachineState::Doctype => self.doctype_state(),
            MachineState::BeforeDoctypeName => self.before_doctype_name_state(),
            MachineState::DoctypeName => self.doctype_name_state(),
            MachineState::AfterDoctypeName => self.after_doctype_name_state(),
            MachineState::AfterDoctypePublicKeyword => self.after_doctype_public_keyword_state(),
            MachineState::BeforeDoctypePublicIdentifier => {
                self.before_doctype_public_identifier_state()
            }
            MachineState::DoctypePublicIdentifierDoubleQuoted => {
                self.doctype_identifier_quoted_state(DoctypeIdKind::Public, b'"')
            }
            MachineState::DoctypePublicIdentifierSingleQuoted => {
                self.doctype_identifier_quoted_state(DoctypeIdKind::Public, b'\'')
            }
            MachineState::AfterDoctypePublicIdentifier => {
                self.after_doctype_public_identifier_state()
            }
            MachineState::BetweenDoctypePublicAndSystemIdentifiers => {
                self.between_doctype_public_and_system_identifiers_state()
            }
            MachineState::AfterDoctypeSystemKeyword => self.after_doctype_system_keyword_state(),
            MachineState::BeforeDoctypeSystemIdentifier => {
                self.before_doctype_system_identifier_state()
            }
            MachineState::DoctypeSystemIdentifierDoubleQuoted => {
                self.doctype_identifier_quoted_state(DoctypeIdKind::System, b'"')
            }
            MachineState::DoctypeSystemIdentifierSingleQuoted => {
                self.doctype_identifier_quoted_state(DoctypeIdKind::System, b'\'')
            }
            MachineState::AfterDoctypeSystemIdentifier => {
                self.after_doctype_system_identifier_state()
            }
            MachineState::BogusDoctype => self.bogus_doctype_state(),
            MachineState::CdataSection => self.cdata_section_state(),
            MachineState::CdataSectionBracket => self.cdata_section_bracket_state(),
            MachineState::CdataSectionEnd => self.cdata_section_end_state(),
            // Only in a partial buffer, at its end (above).
            MachineState::EndOfBuffer => {}
        }
    }
}
