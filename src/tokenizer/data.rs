//! The content states: data, RCDATA, RAWTEXT, script data (with its escaped
//! and double-escaped states), PLAINTEXT, and the less-than-sign and end tag
//! states that look for the end of RCDATA, RAWTEXT and script content
//! (from the [data state](https://html.spec.whatwg.org/multipage/parsing.html#data-state) to the
//! [PLAINTEXT state](https://html.spec.whatwg.org/multipage/parsing.html#plaintext-state), and from the
//! [RCDATA less-than sign state](https://html.spec.whatwg.org/multipage/parsing.html#rcdata-less-than-sign-state) to the
//! [script data double escape end state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escape-end-state)).
//!
//! These states hold most of a page's bytes, so each one skips its run of
//! plain characters in one search (see `scan.rs`) and appends the run to the
//! pending text as a single borrowed slice. A `<` that turns out not to start
//! an appropriate end tag is appended the same way, so script and style
//! content stays one borrowed slice however many `<` it holds.

use super::Tokenizer;
use super::charref::RefTarget;
use super::machine::MachineState;
use crate::error::ErrorCode;
use crate::scan::{ByteSet, find1, find2, is_ascii_whitespace};
use crate::token::Token;

/// Bytes that end a run in the data and RCDATA states.
static DATA_STOP: ByteSet = ByteSet::new(b"<&\0\r");
/// Bytes that end a run in the RAWTEXT and script data states.
static RAWTEXT_STOP: ByteSet = ByteSet::new(b"<\0\r");
/// Bytes that end a run in the PLAINTEXT state.
static PLAINTEXT_STOP: ByteSet = ByteSet::new(b"\0\r");
/// Bytes that end a run in the script data escaped states.
static ESCAPED_STOP: ByteSet = ByteSet::new(b"-<\0\r");

/// Which of the two families of script data escaped states: inside
/// `<!--` in a script, or inside a `<script>` within that.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ScriptEscapeKind {
    Escaped,
    DoubleEscaped,
}

/// Whether the escaped state is one of its dash states (a `-` was just
/// read), which decides where the next `-` goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EscapedSubstate {
    /// The script data (double) escaped state itself: a `-` goes to the
    /// dash state.
    Text,
    /// The dash or dash dash state: a `-` goes to the dash dash state.
    AfterDash,
}

/// The families of "less-than sign / end tag open / end tag name" states.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Rcdata,
    Rawtext,
    ScriptData,
    ScriptDataEscaped,
}

impl Family {
    /// The state to go back to when the `</name` is not an appropriate end tag.
    fn content_state(self) -> MachineState {
        match self {
            Family::Rcdata => MachineState::Rcdata,
            Family::Rawtext => MachineState::Rawtext,
            Family::ScriptData => MachineState::ScriptData,
            Family::ScriptDataEscaped => MachineState::ScriptDataEscaped,
        }
    }

    fn end_tag_open_state(self) -> MachineState {
        match self {
            Family::Rcdata => MachineState::RcdataEndTagOpen,
            Family::Rawtext => MachineState::RawtextEndTagOpen,
            Family::ScriptData => MachineState::ScriptDataEndTagOpen,
            Family::ScriptDataEscaped => MachineState::ScriptDataEscapedEndTagOpen,
        }
    }

    fn end_tag_name_state(self) -> MachineState {
        match self {
            Family::Rcdata => MachineState::RcdataEndTagName,
            Family::Rawtext => MachineState::RawtextEndTagName,
            Family::ScriptData => MachineState::ScriptDataEndTagName,
            Family::ScriptDataEscaped => MachineState::ScriptDataEscapedEndTagName,
        }
    }
}

impl<'a> Tokenizer<'a> {
    /// Appends to the pending text the run of characters from `pos` up to
    /// the next byte in `stop` (found with memchr on `fast` delimiters when
    /// the input has no CR or NUL), and returns that byte without consuming
    /// it, or `None` at the end of the input.
    #[inline(always)]
    fn text_run(&mut self, stop: &ByteSet, fast: Fast) -> Option<u8> {
        let end = if self.cursor.has_cr_nul {
            stop.find(self.cursor.bytes, self.cursor.pos)
        } else {
            match fast {
                Fast::One(a) => find1(a, self.cursor.bytes, self.cursor.pos),
                Fast::Two(a, b) => find2(a, b, self.cursor.bytes, self.cursor.pos),
                Fast::None => self.cursor.bytes.len(),
            }
        };
        self.text_src(self.cursor.pos, end);
        self.cursor.pos = end;
        self.mark_safe();
        self.cursor.bytes.get(end).copied()
    }

    /// The [data state](https://html.spec.whatwg.org/multipage/parsing.html#data-state), run by the push loop (`push.rs`, which the
    /// iterator runs too): each tag and the text before it go to `sink` at
    /// once, and the state goes on while it is still the data state and
    /// `sink` wants more.
    #[inline(always)]
    pub(super) fn data_state_then<F: FnMut(Token<'a>) -> bool>(&mut self, sink: &mut F) {
        loop {
            if self.limit_hit() {
                return;
            }
            match self.text_run(&DATA_STOP, Fast::Two(b'<', b'&')) {
                Some(b'<') => {
                    self.cursor.markup_start = self.cursor.pos;
                    self.cursor.pos += 1;
                    // The common tags go straight to the fast path (tag.rs);
                    // everything else through the tag open state.
                    match self.cur() {
                        Some(b) if b.is_ascii_alphabetic() => {
                            self.start_tag_fast_then::<true, F>(sink);
                        }
                        Some(b'/')
                            if self
                                .cursor
                                .bytes
                                .get(self.cursor.pos + 1)
                                .is_some_and(|b| b.is_ascii_alphabetic()) =>
                        {
                            self.cursor.pos += 1;
                            self.end_tag_fast_then::<true, F>(sink);
                        }
                        // The tag open state, anything else: the `<` is
                        // text, and the data state goes on here, not through
                        // the state machine (a page of `<<<<` cost 176
                        // instructions a byte that way). The standard:
                        // https://html.spec.whatwg.org/multipage/parsing.html#tag-open-state
                        Some(b) if !matches!(b, b'!' | b'/' | b'?') => {
                            self.less_than_sign_as_text();
                            continue;
                        }
                        _ => {
                            self.state = MachineState::TagOpen;
                            return;
                        }
                    }
                    // The data state goes on while it still is one.
                    if self.output.paused || self.state != MachineState::Data || self.output.done {
                        return;
                    }
                }
                Some(b'&') => {
                    self.cursor.pos += 1;
                    self.ref_target = RefTarget::Text;
                    if self.character_reference_state() {
                        return;
                    }
                }
                Some(0) => {
                    // Emitted as is, with a parse error.
                    self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
                    self.text_src(self.cursor.pos, self.cursor.pos + 1);
                    self.cursor.pos += 1;
                }
                Some(_) => self.text_current(), // CR
                None => return self.emit_eof(self.cursor.bytes.len()),
            }
        }
    }

    /// The [RCDATA state](https://html.spec.whatwg.org/multipage/parsing.html#rcdata-state).
    pub(super) fn rcdata_state(&mut self) {
        loop {
            if self.limit_hit() {
                return;
            }
            match self.text_run(&DATA_STOP, Fast::Two(b'<', b'&')) {
                Some(b'<') => {
                    self.cursor.markup_start = self.cursor.pos;
                    self.cursor.pos += 1;
                    self.state = MachineState::RcdataLessThanSign;
                    return;
                }
                Some(b'&') => {
                    self.cursor.pos += 1;
                    self.ref_target = RefTarget::Text;
                    if self.character_reference_state() {
                        return;
                    }
                }
                Some(0) => self.text_replacement_for_nul(),
                Some(_) => self.text_current(),
                None => return self.emit_eof(self.cursor.bytes.len()),
            }
        }
    }

    /// The [RAWTEXT state](https://html.spec.whatwg.org/multipage/parsing.html#rawtext-state).
    pub(super) fn rawtext_state(&mut self) {
        match self.text_run(&RAWTEXT_STOP, Fast::One(b'<')) {
            Some(b'<') => {
                self.cursor.markup_start = self.cursor.pos;
                self.cursor.pos += 1;
                self.state = MachineState::RawtextLessThanSign;
            }
            Some(0) => self.text_replacement_for_nul(),
            Some(_) => self.text_current(),
            None => self.emit_eof(self.cursor.bytes.len()),
        }
    }

    /// The [script data state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-state).
    pub(super) fn script_data_state(&mut self) {
        match self.text_run(&RAWTEXT_STOP, Fast::One(b'<')) {
            Some(b'<') => {
                self.cursor.markup_start = self.cursor.pos;
                self.cursor.pos += 1;
                self.state = MachineState::ScriptDataLessThanSign;
            }
            Some(0) => self.text_replacement_for_nul(),
            Some(_) => self.text_current(),
            None => self.emit_eof(self.cursor.bytes.len()),
        }
    }

    /// The [PLAINTEXT state](https://html.spec.whatwg.org/multipage/parsing.html#plaintext-state).
    pub(super) fn plaintext_state(&mut self) {
        match self.text_run(&PLAINTEXT_STOP, Fast::None) {
            Some(0) => self.text_replacement_for_nul(),
            Some(_) => self.text_current(),
            None => self.emit_eof(self.cursor.bytes.len()),
        }
    }

    /// The "less-than sign" state of a family: after `<`, a `/` may begin an
    /// end tag; anything else means the `<` was text.
    fn family_less_than_sign(&mut self, family: Family) {
        if self.cur() == Some(b'/') {
            self.cursor.pos += 1;
            self.state = family.end_tag_open_state();
        } else {
            self.text_src(self.cursor.markup_start, self.cursor.pos);
            self.state = family.content_state();
        }
    }

    /// The "end tag open" state of a family: after `</`, a letter begins the
    /// end tag name; anything else means `</` was text.
    fn family_end_tag_open(&mut self, family: Family) {
        if matches!(self.cur(), Some(b) if b.is_ascii_alphabetic()) {
            self.new_tag(true);
            self.cursor.temp_start = self.cursor.pos;
            self.state = family.end_tag_name_state();
        } else {
            self.text_src(self.cursor.markup_start, self.cursor.pos);
            self.state = family.content_state();
        }
    }

    /// The "end tag name" state of a family: letters accumulate; whitespace,
    /// `/` or `>` after an appropriate end tag name continue the tag, and
    /// anything else makes `</name` text.
    fn family_end_tag_name(&mut self, family: Family) {
        let name_end = self.cursor.pos
            + self.cursor.bytes[self.cursor.pos..]
                .iter()
                .take_while(|b| b.is_ascii_alphabetic())
                .count();
        self.cursor.pos = name_end;
        if self.out_of_input_at(self.cursor.pos) {
            self.suspend();
            return;
        }
        let next = match self.cur() {
            Some(b) if is_ascii_whitespace(b) && self.is_appropriate_end_tag() => {
                Some(MachineState::BeforeAttributeName)
            }
            Some(b'/') if self.is_appropriate_end_tag() => Some(MachineState::SelfClosingStartTag),
            Some(b'>') if self.is_appropriate_end_tag() => None,
            _ => {
                self.text_src(self.cursor.markup_start, self.cursor.pos);
                self.state = family.content_state();
                return;
            }
        };
        self.tag.name.push_lower(
            self.cursor.input,
            self.cursor.temp_start,
            self.cursor.pos,
            &mut self.budget,
        );
        self.tag.name_span.end = self.cursor.pos;
        self.cursor.pos += 1;
        match next {
            Some(state) => self.state = state,
            None => self.emit_tag(),
        }
    }

    /// The [RCDATA less-than sign state](https://html.spec.whatwg.org/multipage/parsing.html#rcdata-less-than-sign-state).
    pub(super) fn rcdata_less_than_sign_state(&mut self) {
        self.family_less_than_sign(Family::Rcdata)
    }

    /// The [RCDATA end tag open state](https://html.spec.whatwg.org/multipage/parsing.html#rcdata-end-tag-open-state).
    pub(super) fn rcdata_end_tag_open_state(&mut self) {
        self.family_end_tag_open(Family::Rcdata)
    }

    /// The [RCDATA end tag name state](https://html.spec.whatwg.org/multipage/parsing.html#rcdata-end-tag-name-state).
    pub(super) fn rcdata_end_tag_name_state(&mut self) {
        self.family_end_tag_name(Family::Rcdata)
    }

    /// The [RAWTEXT less-than sign state](https://html.spec.whatwg.org/multipage/parsing.html#rawtext-less-than-sign-state).
    pub(super) fn rawtext_less_than_sign_state(&mut self) {
        self.family_less_than_sign(Family::Rawtext)
    }

    /// The [RAWTEXT end tag open state](https://html.spec.whatwg.org/multipage/parsing.html#rawtext-end-tag-open-state).
    pub(super) fn rawtext_end_tag_open_state(&mut self) {
        self.family_end_tag_open(Family::Rawtext)
    }

    /// The [RAWTEXT end tag name state](https://html.spec.whatwg.org/multipage/parsing.html#rawtext-end-tag-name-state).
    pub(super) fn rawtext_end_tag_name_state(&mut self) {
        self.family_end_tag_name(Family::Rawtext)
    }

    /// The [script data less-than sign state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-less-than-sign-state).
    pub(super) fn script_data_less_than_sign_state(&mut self) {
        match self.cur() {
            Some(b'/') => {
                self.cursor.pos += 1;
                self.state = MachineState::ScriptDataEndTagOpen;
            }
            Some(b'!') => {
                self.cursor.pos += 1;
                self.text_src(self.cursor.markup_start, self.cursor.pos);
                self.state = MachineState::ScriptDataEscapeStart;
            }
            _ => {
                self.text_src(self.cursor.markup_start, self.cursor.pos);
                self.state = MachineState::ScriptData;
            }
        }
    }

    /// The [script data end tag open state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-end-tag-open-state).
    pub(super) fn script_data_end_tag_open_state(&mut self) {
        self.family_end_tag_open(Family::ScriptData)
    }

    /// The [script data end tag name state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-end-tag-name-state).
    pub(super) fn script_data_end_tag_name_state(&mut self) {
        self.family_end_tag_name(Family::ScriptData)
    }

    /// Emits the `-` at `pos` as text and switches to `state`; any other
    /// character is reconsumed in `otherwise`.
    fn dash_or(&mut self, state: MachineState, otherwise: MachineState) {
        if self.cur() == Some(b'-') {
            self.text_src(self.cursor.pos, self.cursor.pos + 1);
            self.cursor.pos += 1;
            self.state = state;
        } else {
            self.state = otherwise;
        }
    }

    /// The [script data escape start state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-escape-start-state).
    pub(super) fn script_data_escape_start_state(&mut self) {
        self.dash_or(
            MachineState::ScriptDataEscapeStartDash,
            MachineState::ScriptData,
        )
    }

    /// The [script data escape start dash state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-escape-start-dash-state).
    pub(super) fn script_data_escape_start_dash_state(&mut self) {
        self.dash_or(
            MachineState::ScriptDataEscapedDashDash,
            MachineState::ScriptData,
        )
    }

    /// The body shared by the script data escaped and double escaped states
    /// and their dash states: `-`, `<`, NUL and EOF are special, anything
    /// else is text and returns to `plain`.
    fn escaped_common(&mut self, kind: ScriptEscapeKind, at: EscapedSubstate) {
        use MachineState::*;
        let (plain, lt) = match kind {
            ScriptEscapeKind::Escaped => (ScriptDataEscaped, ScriptDataEscapedLessThanSign),
            ScriptEscapeKind::DoubleEscaped => {
                (ScriptDataDoubleEscaped, ScriptDataDoubleEscapedLessThanSign)
            }
        };
        let dash = match (kind, at) {
            (ScriptEscapeKind::Escaped, EscapedSubstate::Text) => ScriptDataEscapedDash,
            (ScriptEscapeKind::Escaped, EscapedSubstate::AfterDash) => ScriptDataEscapedDashDash,
            (ScriptEscapeKind::DoubleEscaped, EscapedSubstate::Text) => ScriptDataDoubleEscapedDash,
            (ScriptEscapeKind::DoubleEscaped, EscapedSubstate::AfterDash) => {
                ScriptDataDoubleEscapedDashDash
            }
        };
        // Only the state without dashes reads text in runs: in the dash
        // states the next character nearly always leaves them.
        let b = match at {
            EscapedSubstate::Text => self.text_run(&ESCAPED_STOP, Fast::Two(b'-', b'<')),
            EscapedSubstate::AfterDash => self.cur(),
        };
        match b {
            Some(b'-') => {
                self.text_src(self.cursor.pos, self.cursor.pos + 1);
                self.cursor.pos += 1;
                self.state = dash;
            }
            Some(b'<') => {
                self.cursor.markup_start = self.cursor.pos;
                self.cursor.pos += 1;
                // In the double escaped states the `<` is text at once.
                if kind == ScriptEscapeKind::DoubleEscaped {
                    self.text_src(self.cursor.markup_start, self.cursor.pos);
                }
                self.state = lt;
            }
            Some(0) => {
                self.text_replacement_for_nul();
                self.state = plain;
            }
            Some(_) => {
                self.text_current();
                self.state = plain;
            }
            None => {
                if self.suspend() {
                    return;
                }
                self.error(ErrorCode::EofInScriptHtmlCommentLikeText, self.cursor.pos);
                self.emit_eof(self.cursor.bytes.len());
            }
        }
    }

    /// The [script data escaped state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-state).
    pub(super) fn script_data_escaped_state(&mut self) {
        self.escaped_common(ScriptEscapeKind::Escaped, EscapedSubstate::Text)
    }

    /// The [script data escaped dash state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-dash-state).
    pub(super) fn script_data_escaped_dash_state(&mut self) {
        self.escaped_common(ScriptEscapeKind::Escaped, EscapedSubstate::AfterDash)
    }

    /// The [script data escaped dash dash state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-dash-dash-state).
    pub(super) fn script_data_escaped_dash_dash_state(&mut self) {
        if self.cur() == Some(b'>') {
            self.text_src(self.cursor.pos, self.cursor.pos + 1);
            self.cursor.pos += 1;
            self.state = MachineState::ScriptData;
            return;
        }
        self.escaped_common(ScriptEscapeKind::Escaped, EscapedSubstate::AfterDash)
    }

    /// The [script data escaped less-than sign state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-less-than-sign-state).
    pub(super) fn script_data_escaped_less_than_sign_state(&mut self) {
        match self.cur() {
            Some(b'/') => {
                self.cursor.pos += 1;
                self.state = MachineState::ScriptDataEscapedEndTagOpen;
            }
            Some(b) if b.is_ascii_alphabetic() => {
                self.text_src(self.cursor.markup_start, self.cursor.pos);
                self.cursor.temp_start = self.cursor.pos;
                self.state = MachineState::ScriptDataDoubleEscapeStart;
            }
            _ => {
                self.text_src(self.cursor.markup_start, self.cursor.pos);
                self.state = MachineState::ScriptDataEscaped;
            }
        }
    }

    /// The [script data escaped end tag open state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-end-tag-open-state).
    pub(super) fn script_data_escaped_end_tag_open_state(&mut self) {
        self.family_end_tag_open(Family::ScriptDataEscaped)
    }

    /// The [script data escaped end tag name state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-end-tag-name-state).
    pub(super) fn script_data_escaped_end_tag_name_state(&mut self) {
        self.family_end_tag_name(Family::ScriptDataEscaped)
    }

    /// The body of the double escape start and end states: letters are text
    /// and go into the temporary buffer; whitespace, `/` or `>` after
    /// "script" switches to `if_script`, after anything else to `otherwise`.
    fn double_escape_boundary(&mut self, if_script: MachineState, otherwise: MachineState) {
        let end = self.cursor.pos
            + self.cursor.bytes[self.cursor.pos..]
                .iter()
                .take_while(|b| b.is_ascii_alphabetic())
                .count();
        if self.out_of_input_at(end) {
            self.suspend();
            return;
        }
        self.text_src(self.cursor.pos, end);
        self.cursor.pos = end;
        match self.cur() {
            Some(b) if is_ascii_whitespace(b) || b == b'/' || b == b'>' => {
                let is_script = self.cursor.input[self.cursor.temp_start..self.cursor.pos]
                    .eq_ignore_ascii_case("script");
                self.state = if is_script { if_script } else { otherwise };
                self.text_current();
            }
            _ => self.state = otherwise,
        }
    }

    /// The [script data double escape start state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escape-start-state).
    pub(super) fn script_data_double_escape_start_state(&mut self) {
        self.double_escape_boundary(
            MachineState::ScriptDataDoubleEscaped,
            MachineState::ScriptDataEscaped,
        )
    }

    /// The [script data double escaped state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-state).
    pub(super) fn script_data_double_escaped_state(&mut self) {
        self.escaped_common(ScriptEscapeKind::DoubleEscaped, EscapedSubstate::Text)
    }

    /// The [script data double escaped dash state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-dash-state).
    pub(super) fn script_data_double_escaped_dash_state(&mut self) {
        self.escaped_common(ScriptEscapeKind::DoubleEscaped, EscapedSubstate::AfterDash)
    }

    /// The [script data double escaped dash dash state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-dash-dash-state).
    pub(super) fn script_data_double_escaped_dash_dash_state(&mut self) {
        if self.cur() == Some(b'>') {
            self.text_src(self.cursor.pos, self.cursor.pos + 1);
            self.cursor.pos += 1;
            self.state = MachineState::ScriptData;
            return;
        }
        self.escaped_common(ScriptEscapeKind::DoubleEscaped, EscapedSubstate::AfterDash)
    }

    /// The [script data double escaped less-than sign state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-less-than-sign-state).
    pub(super) fn script_data_double_escaped_less_than_sign_state(&mut self) {
        if self.cur() == Some(b'/') {
            self.text_src(self.cursor.pos, self.cursor.pos + 1);
            self.cursor.pos += 1;
            self.cursor.temp_start = self.cursor.pos;
            self.state = MachineState::ScriptDataDoubleEscapeEnd;
        } else {
            self.state = MachineState::ScriptDataDoubleEscaped;
        }
    }

    /// The [script data double escape end state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escape-end-state).
    pub(super) fn script_data_double_escape_end_state(&mut self) {
        self.double_escape_boundary(
            MachineState::ScriptDataEscaped,
            MachineState::ScriptDataDoubleEscaped,
        )
    }
}

/// The memchr search a text state uses when the input holds no CR or NUL.
#[derive(Clone, Copy)]
enum Fast {
    /// Stop at this byte.
    One(u8),
    /// Stop at either byte.
    Two(u8, u8),
    /// Nothing stops the run but the end of the input.
    None,
}
