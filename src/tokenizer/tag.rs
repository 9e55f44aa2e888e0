//! The tag states: tag open, end tag open, tag name, the attribute states
//! and the self-closing start tag state (from the
//! [tag open state](https://html.spec.whatwg.org/multipage/parsing.html#tag-open-state) to the [tag name state](https://html.spec.whatwg.org/multipage/parsing.html#tag-name-state),
//! and from the [before attribute name state](https://html.spec.whatwg.org/multipage/parsing.html#before-attribute-name-state) to
//! the [self-closing start tag state](https://html.spec.whatwg.org/multipage/parsing.html#self-closing-start-tag-state)).
//!
//! Names and values are appended a run at a time: the run up to the next
//! byte that means something in the current state is one borrowed slice,
//! lowercased into the scratch buffer only when it holds an uppercase letter.
//!
//! # The fast path
//!
//! Nearly every tag on a real page has one shape: a name, then attributes
//! that are a name with an optional quoted or plain value, with no character
//! reference, NUL, CR or misplaced quote, ending in `>` or `/>`. For those,
//! [`Tokenizer::start_tag_fast`] and [`Tokenizer::end_tag_fast`] do what
//! states 6, 8 and 32–40 would do, in one function with the position in a
//! register and without the dispatcher between states. Anything else makes
//! the fast path hand over to the states at a point where they take the
//! same input to the same result: at the start of the tag name, at the start
//! of an attribute (nothing of it recorded yet), or after a finished quoted
//! value. The only errors on the fast path are those of an attribute name
//! (`unexpected-character-in-attribute-name` for a `"`, `'` or `<` in it,
//! then `duplicate-attribute`), reported where and in the order the
//! attribute name state reports them.

use super::Tokenizer;
use super::charref::RefTarget;
use super::machine::MachineState;
use crate::element::Element;
use crate::error::ErrorCode;
use crate::scan::{
    ByteSet, Run, class, class_run, class_run_seen, class_run_seen_past_first, class_run_upper,
    is_ascii_whitespace, run2, skip_whitespace,
};
use crate::token::{Attribute, Token};

/// Bytes that end a run of a double-quoted attribute value.
static DQ_VALUE_STOP: ByteSet = ByteSet::new(b"\"&\0\r");
/// Bytes that end a run of a single-quoted attribute value.
static SQ_VALUE_STOP: ByteSet = ByteSet::new(b"'&\0\r");
/// Bytes that end a run of an unquoted attribute value.
static UNQUOTED_VALUE_STOP: ByteSet = ByteSet::whitespace_and(b"&>\0\"'<=`");

impl<'a> Tokenizer<'a> {
    /// The `eof-in-tag` case shared by the tag states: the tag is dropped.
    fn eof_in_tag(&mut self) {
        if self.suspend() {
            return;
        }
        self.error(ErrorCode::EofInTag, self.cursor.pos);
        self.emit_eof(self.cursor.markup_start);
    }

    /// A name as a finished string: the source slice, or a lowercased copy
    /// in the arena when it has an uppercase letter.
    #[inline(always)]
    fn lowered(&mut self, src: &'a str, upper: bool) -> &'a str {
        if upper { self.lowered_copy(src) } else { src }
    }

    /// The lowercased copy of [`lowered`](Self::lowered): rare, and out of
    /// the fast path so that it keeps the tag's state in registers.
    #[cold]
    #[inline(never)]
    fn lowered_copy(&mut self, src: &'a str) -> &'a str {
        self.budget.wrote(src.len());
        let s = self.arena.alloc_str(src);
        s.make_ascii_lowercase();
        s
    }

    /// The element of a tag name the fast path found ending at `end`:
    /// `name`, which is the source itself unless it was lowercased
    /// (`upper`).
    #[inline(always)]
    fn element(&self, end: usize, name: &str, upper: bool) -> Element {
        if upper {
            Element::from_name(name)
        } else {
            Element::from_source(self.cursor.bytes, end, name)
        }
    }

    /// The fast path for a start tag (see the module docs). Called with
    /// `pos` on the ASCII letter after `<`.
    #[inline]
    pub(super) fn start_tag_fast(&mut self) {
        self.start_tag_fast_then::<false, _>(&mut |_| true);
    }

    /// [`Self::start_tag_fast`], handing the tag (and the text before it)
    /// to `sink` at once when `PUSH` (see [`Tokenizer::emit_then`]).
    #[inline(always)]
    pub(super) fn start_tag_fast_then<const PUSH: bool, F: FnMut(Token<'a>) -> bool>(
        &mut self,
        sink: &mut F,
    ) {
        self.new_tag(false);
        let bytes = self.cursor.bytes;
        let name_start = self.cursor.pos;
        let (run, seen) =
            class_run_seen_past_first(class::TAG_NAME_STOP, self.cursor.input, name_start);
        let upper = seen & class::UPPER != 0;
        let mut p = run.end;
        if p >= bytes.len() || bytes[p] == 0 {
            self.state = MachineState::TagName;
            return;
        }
        let name = self.lowered(run.text, upper);
        let name_end = p;
        self.tag.name_span.end = p;
        loop {
            // Before attribute name: whitespace, then `>`, `/>` or a name.
            // (A `>` right after the name or a quoted value is the commonest
            // case, taken before the whitespace loop.)
            if bytes.get(p) == Some(&b'>') {
                self.cursor.pos = p + 1;
                break;
            }
            p = skip_whitespace(bytes, p);
            match bytes.get(p) {
                Some(b'>') => {
                    self.cursor.pos = p + 1;
                    break;
                }
                Some(b'/') if bytes.get(p + 1) == Some(&b'>') => {
                    self.tag.self_closing = true;
                    self.cursor.pos = p + 2;
                    break;
                }
                Some(b'/' | b'=') | None => {
                    return self.tag_slow(name, p, MachineState::BeforeAttributeName);
                }
                Some(_) => {}
            }
            // A tag with very many attributes checks the memory limit as it
            // grows (the states check it at every step).
            if self.limit_hit_at(p) {
                return;
            }
            let attr_start = p;
            let (attr_run, seen) =
                class_run_seen(class::ATTR_NAME_STOP_QUIET, self.cursor.input, attr_start);
            let attr_upper = seen & class::UPPER != 0;
            let name_end = attr_run.end;
            match bytes.get(name_end) {
                Some(0) | None => {
                    return self.tag_slow(name, attr_start, MachineState::BeforeAttributeName);
                }
                _ => {}
            }
            if seen & class::ATTR_NAME_ERROR != 0 {
                self.attribute_name_char_errors(attr_run.text, attr_start);
            }
            // After attribute name: whitespace, then maybe `=` and a value.
            // (Nearly always `=` right away, then the value.)
            p = name_end;
            if bytes[p] != b'=' {
                p = skip_whitespace(bytes, p);
            }
            let mut value = "";
            let mut value_span = None;
            let mut quoted = false;
            if bytes.get(p) == Some(&b'=') {
                p += 1;
                if bytes.get(p).is_some_and(|&b| is_ascii_whitespace(b)) {
                    p = skip_whitespace(bytes, p);
                }
                match bytes.get(p) {
                    Some(&q @ (b'"' | b'\'')) => {
                        let start = p + 1;
                        let run = if self.cursor.has_cr_nul {
                            let end = if q == b'"' {
                                DQ_VALUE_STOP.find(bytes, start)
                            } else {
                                SQ_VALUE_STOP.find(bytes, start)
                            };
                            Run {
                                text: &self.cursor.input[start..end],
                                end,
                            }
                        } else {
                            run2(q, b'&', self.cursor.input, start)
                        };
                        let end = run.end;
                        if bytes.get(end) != Some(&q) {
                            return self.tag_slow(
                                name,
                                attr_start,
                                MachineState::BeforeAttributeName,
                            );
                        }
                        value = run.text;
                        value_span = Some(self.span(start, end));
                        quoted = true;
                        p = end + 1;
                    }
                    Some(b'>') | None => {
                        return self.tag_slow(name, attr_start, MachineState::BeforeAttributeName);
                    }
                    Some(_) => {
                        let start = p;
                        let run = class_run(class::UNQUOTED_STOP, self.cursor.input, start);
                        let end = run.end;
                        match bytes.get(end) {
                            Some(&b) if b == b'>' || is_ascii_whitespace(b) => {}
                            _ => {
                                return self.tag_slow(
                                    name,
                                    attr_start,
                                    MachineState::BeforeAttributeName,
                                );
                            }
                        }
                        value = run.text;
                        value_span = Some(self.span(start, end));
                        p = end;
                    }
                }
            }
            let attr_name = self.lowered(attr_run.text, attr_upper);
            let duplicate = self.is_duplicate(attr_name);
            if duplicate {
                self.error(ErrorCode::DuplicateAttribute, name_end);
            }
            self.tag.attrs.push(Attribute {
                name: attr_name,
                value,
                name_span: self.span(attr_start, name_end),
                value_span,
                duplicate,
            });
            if quoted {
                // After a quoted value: whitespace, `/` or `>` must follow;
                // anything else is for the states.
                match bytes.get(p) {
                    Some(&b) if b == b'/' || b == b'>' || is_ascii_whitespace(b) => {}
                    _ => return self.tag_slow(name, p, MachineState::AfterAttributeValueQuoted),
                }
            }
        }
        let element = self.element(name_end, name, upper);
        self.emit_start_tag_then::<PUSH, F>(name, element, sink);
    }

    /// Hands a tag over from the fast path to the states: the name is
    /// finished, the attributes before `pos` are in `attrs`.
    #[cold]
    fn tag_slow(&mut self, name: &'a str, pos: usize, state: MachineState) {
        self.tag
            .name
            .push_str(self.cursor.input, name, &mut self.budget);
        self.cursor.pos = pos;
        self.state = state;
    }

    /// The fast path for an end tag `</name>`. Called with `pos` on the
    /// ASCII letter after `</`.
    #[inline]
    pub(super) fn end_tag_fast(&mut self) {
        self.end_tag_fast_then::<false, _>(&mut |_| true);
    }

    /// [`Self::end_tag_fast`], handing the tag (and the text before it) to
    /// `sink` at once when `PUSH`.
    #[inline(always)]
    pub(super) fn end_tag_fast_then<const PUSH: bool, F: FnMut(Token<'a>) -> bool>(
        &mut self,
        sink: &mut F,
    ) {
        self.new_tag(true);
        let name_start = self.cursor.pos;
        let (run, seen) =
            class_run_seen_past_first(class::TAG_NAME_STOP, self.cursor.input, name_start);
        let upper = seen & class::UPPER != 0;
        let end = run.end;
        if self.cursor.bytes.get(end) == Some(&b'>') {
            let name = self.lowered(run.text, upper);
            let element = self.element(end, name, upper);
            self.tag.name_span.end = end;
            self.cursor.pos = end + 1;
            // The fast path read no attribute and no `/`.
            self.emit_end_tag_then::<PUSH, F>(name, element, &[], false, sink);
        } else {
            self.state = MachineState::TagName;
        }
    }

    /// The [tag open state](https://html.spec.whatwg.org/multipage/parsing.html#tag-open-state).
    #[inline]
    pub(super) fn tag_open_state(&mut self) {
        match self.cur() {
            Some(b'!') => {
                self.cursor.pos += 1;
                self.state = MachineState::MarkupDeclarationOpen;
            }
            Some(b'/') => {
                self.cursor.pos += 1;
                self.state = MachineState::EndTagOpen;
            }
            Some(b) if b.is_ascii_alphabetic() => self.start_tag_fast(),
            Some(b'?') => {
                self.error(
                    ErrorCode::UnexpectedQuestionMarkInsteadOfTagName,
                    self.cursor.pos,
                );
                self.comment.clear();
                self.state = MachineState::BogusComment;
            }
            None => {
                if self.suspend() {
                    return;
                }
                self.error(ErrorCode::EofBeforeTagName, self.cursor.pos);
                self.text_src(self.cursor.markup_start, self.cursor.pos);
                self.emit_eof(self.cursor.pos);
            }
            Some(_) => {
                self.less_than_sign_as_text();
                self.state = MachineState::Data;
            }
        }
    }

    /// The tag open state's "anything else" (the byte at `pos` begins no
    /// tag, markup declaration nor bogus comment): a parse error, and the
    /// `<` at `markup_start` is text. The data state's loop takes this case
    /// itself too, without going round the state machine.
    #[inline(always)]
    pub(super) fn less_than_sign_as_text(&mut self) {
        self.error(ErrorCode::InvalidFirstCharacterOfTagName, self.cursor.pos);
        self.text_src(self.cursor.markup_start, self.cursor.pos);
    }

    /// The [end tag open state](https://html.spec.whatwg.org/multipage/parsing.html#end-tag-open-state).
    #[inline]
    pub(super) fn end_tag_open_state(&mut self) {
        match self.cur() {
            Some(b) if b.is_ascii_alphabetic() => self.end_tag_fast(),
            Some(b'>') => {
                self.error(ErrorCode::MissingEndTagName, self.cursor.pos);
                self.cursor.pos += 1;
                self.state = MachineState::Data;
            }
            None => {
                if self.suspend() {
                    return;
                }
                self.error(ErrorCode::EofBeforeTagName, self.cursor.pos);
                self.text_src(self.cursor.markup_start, self.cursor.pos);
                self.emit_eof(self.cursor.pos);
            }
            Some(_) => {
                self.error(ErrorCode::InvalidFirstCharacterOfTagName, self.cursor.pos);
                self.comment.clear();
                self.state = MachineState::BogusComment;
            }
        }
    }

    /// The [tag name state](https://html.spec.whatwg.org/multipage/parsing.html#tag-name-state).
    #[inline]
    pub(super) fn tag_name_state(&mut self) {
        loop {
            let (run, upper) =
                class_run_upper(class::TAG_NAME_STOP, self.cursor.input, self.cursor.pos);
            let end = run.end;
            self.tag.name.push_name(
                self.cursor.input,
                self.cursor.pos,
                end,
                upper,
                &mut self.budget,
            );
            self.cursor.pos = end;
            self.tag.name_span.end = end;
            match self.cur() {
                Some(b'/') => {
                    self.cursor.pos += 1;
                    self.state = MachineState::SelfClosingStartTag;
                    return;
                }
                Some(b'>') => {
                    self.cursor.pos += 1;
                    return self.emit_tag();
                }
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
                    self.tag.name.push_char(
                        self.cursor.input,
                        char::REPLACEMENT_CHARACTER,
                        &mut self.budget,
                    );
                    self.cursor.pos += 1;
                }
                Some(_) => {
                    // Whitespace.
                    self.cursor.pos += 1;
                    self.state = MachineState::BeforeAttributeName;
                    return;
                }
                None => return self.eof_in_tag(),
            }
        }
    }

    /// The [before attribute name state](https://html.spec.whatwg.org/multipage/parsing.html#before-attribute-name-state).
    #[inline]
    pub(super) fn before_attribute_name_state(&mut self) {
        loop {
            while matches!(self.cur(), Some(b) if is_ascii_whitespace(b)) {
                self.cursor.pos += 1;
            }
            if !self.skip_stray_solidus() {
                break;
            }
        }
        match self.cur() {
            Some(b'/' | b'>') | None => self.state = MachineState::AfterAttributeName,
            Some(b'=') => {
                self.error(
                    ErrorCode::UnexpectedEqualsSignBeforeAttributeName,
                    self.cursor.pos,
                );
                self.new_attr();
                self.tag.attr_name.push_src(
                    self.cursor.input,
                    self.cursor.pos,
                    self.cursor.pos + 1,
                    &mut self.budget,
                );
                self.cursor.pos += 1;
                self.state = MachineState::AttributeName;
            }
            Some(_) => {
                self.new_attr();
                self.state = MachineState::AttributeName;
                // Straight on, not back through `run`: a tag of a million
                // short attributes costs a dispatch less per attribute.
                self.attribute_name_state();
            }
        }
    }

    /// A `/` at `pos` followed by a character other than `>` takes the
    /// after attribute name state (or before attribute name state) to the
    /// self-closing start tag state, which reports
    /// `unexpected-solidus-in-tag` and reconsumes that character in the
    /// before attribute name state: this does the same in one step, past
    /// the `/`, and says whether it did. A `/` at the end of the buffer is
    /// left to the states (the next byte, or the end of input, decides).
    #[inline(always)]
    fn skip_stray_solidus(&mut self) -> bool {
        match self.cursor.bytes.get(self.cursor.pos..self.cursor.pos + 2) {
            Some([b'/', next]) if *next != b'>' => {
                self.cursor.pos += 1;
                self.error(ErrorCode::UnexpectedSolidusInTag, self.cursor.pos);
                true
            }
            _ => false,
        }
    }

    /// The `unexpected-character-in-attribute-name` error of each `"`,
    /// `'` and `<` in `name`, a run of an attribute name at `start`: they
    /// are characters of the name, and parse errors.
    ///
    /// The fast path reports them as soon as it has the name, and may still
    /// hand the attribute over to the states (for its value), which read
    /// the name again: what was reported is not reported twice.
    #[cold]
    fn attribute_name_char_errors(&mut self, name: &str, start: usize) {
        if !self.opts.errors {
            return;
        }
        for (i, b) in name.bytes().enumerate() {
            if matches!(b, b'"' | b'\'' | b'<') && start + i >= self.tag.name_errors_until {
                self.error(ErrorCode::UnexpectedCharacterInAttributeName, start + i);
            }
        }
        self.tag.name_errors_until = start + name.len();
    }

    /// The [attribute name state](https://html.spec.whatwg.org/multipage/parsing.html#attribute-name-state). `"`, `'` and `<` are characters of
    /// the name (and parse errors): the run goes on through them.
    #[inline]
    pub(super) fn attribute_name_state(&mut self) {
        loop {
            let (run, seen) = class_run_seen(
                class::ATTR_NAME_STOP_QUIET,
                self.cursor.input,
                self.cursor.pos,
            );
            let end = run.end;
            // `attribute_name_char_errors` checks `errors` itself; checking
            // here too saves the call for a tag of a million `<` names.
            if seen & class::ATTR_NAME_ERROR != 0 && self.opts.errors {
                self.attribute_name_char_errors(run.text, self.cursor.pos);
            }
            self.tag.attr_name.push_name(
                self.cursor.input,
                self.cursor.pos,
                end,
                seen & class::UPPER != 0,
                &mut self.budget,
            );
            self.cursor.pos = end;
            if self.cur() != Some(0) {
                break;
            }
            self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
            self.tag.attr_name.push_char(
                self.cursor.input,
                char::REPLACEMENT_CHARACTER,
                &mut self.budget,
            );
            self.cursor.pos += 1;
        }
        // One call site, so that it is inlined here.
        self.finish_attr_name();
        if self.cur() == Some(b'=') {
            self.cursor.pos += 1;
            self.state = MachineState::BeforeAttributeValue;
        } else {
            // Whitespace, `/`, `>` or EOF: reconsume.
            self.state = MachineState::AfterAttributeName;
        }
    }

    /// The [after attribute name state](https://html.spec.whatwg.org/multipage/parsing.html#after-attribute-name-state).
    #[inline]
    pub(super) fn after_attribute_name_state(&mut self) {
        loop {
            while matches!(self.cur(), Some(b) if is_ascii_whitespace(b)) {
                self.cursor.pos += 1;
            }
            if self.skip_stray_solidus() {
                // The before attribute name state, and (as a rule) the
                // name of the next attribute.
                self.state = MachineState::BeforeAttributeName;
                self.before_attribute_name_state();
            } else {
                match self.cur() {
                    Some(b'/') => {
                        self.cursor.pos += 1;
                        self.state = MachineState::SelfClosingStartTag;
                    }
                    Some(b'=') => {
                        self.cursor.pos += 1;
                        self.state = MachineState::BeforeAttributeValue;
                    }
                    Some(b'>') => {
                        self.cursor.pos += 1;
                        self.emit_tag();
                    }
                    None => return self.eof_in_tag(),
                    Some(_) => {
                        self.new_attr();
                        self.state = MachineState::AttributeName;
                        self.attribute_name_state();
                    }
                }
            }
            // A name that ends without a value comes back here: a tag of
            // a million `/a`s or `a `s goes round this loop, not through
            // `run`.
            if self.state != MachineState::AfterAttributeName || self.limit_hit() {
                return;
            }
        }
    }

    /// The [before attribute value state](https://html.spec.whatwg.org/multipage/parsing.html#before-attribute-value-state).
    #[inline]
    pub(super) fn before_attribute_value_state(&mut self) {
        while matches!(self.cur(), Some(b) if is_ascii_whitespace(b)) {
            self.cursor.pos += 1;
        }
        match self.cur() {
            Some(b'"') => {
                self.cursor.pos += 1;
                self.start_attr_value(self.cursor.pos);
                self.state = MachineState::AttributeValueDoubleQuoted;
            }
            Some(b'\'') => {
                self.cursor.pos += 1;
                self.start_attr_value(self.cursor.pos);
                self.state = MachineState::AttributeValueSingleQuoted;
            }
            Some(b'>') => {
                self.error(ErrorCode::MissingAttributeValue, self.cursor.pos);
                self.start_attr_value(self.cursor.pos);
                self.cursor.pos += 1;
                self.emit_tag();
            }
            _ => {
                self.start_attr_value(self.cursor.pos);
                self.state = MachineState::AttributeValueUnquoted;
            }
        }
    }

    /// The [attribute value (double-quoted) state](https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(double-quoted)-state) and the
    /// [attribute value (single-quoted) state](https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(single-quoted)-state), told apart by `quote`.
    #[inline]
    pub(super) fn attribute_value_quoted_state(&mut self, quote: u8) {
        let stop = if quote == b'"' {
            &DQ_VALUE_STOP
        } else {
            &SQ_VALUE_STOP
        };
        loop {
            if self.limit_hit() {
                return;
            }
            let end = stop.find(self.cursor.bytes, self.cursor.pos);
            self.tag
                .attr_value
                .push_src(self.cursor.input, self.cursor.pos, end, &mut self.budget);
            self.cursor.pos = end;
            match self.cur() {
                Some(b'&') => {
                    self.cursor.pos += 1;
                    self.ref_target = RefTarget::Attribute;
                    if self.character_reference_state() {
                        return;
                    }
                }
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
                    self.cursor
                        .append_current(&mut self.tag.attr_value, &mut self.budget);
                }
                Some(b'\r') => {
                    self.cursor
                        .append_current(&mut self.tag.attr_value, &mut self.budget);
                }
                Some(_) => {
                    // The closing quote.
                    self.end_attr_value(self.cursor.pos);
                    self.cursor.pos += 1;
                    self.state = MachineState::AfterAttributeValueQuoted;
                    return;
                }
                None => return self.eof_in_tag(),
            }
        }
    }

    /// The [attribute value (unquoted) state](https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(unquoted)-state).
    #[inline]
    pub(super) fn attribute_value_unquoted_state(&mut self) {
        loop {
            if self.limit_hit() {
                return;
            }
            let end = UNQUOTED_VALUE_STOP.find(self.cursor.bytes, self.cursor.pos);
            self.tag
                .attr_value
                .push_src(self.cursor.input, self.cursor.pos, end, &mut self.budget);
            self.cursor.pos = end;
            match self.cur() {
                Some(b'&') => {
                    self.cursor.pos += 1;
                    self.ref_target = RefTarget::Attribute;
                    if self.character_reference_state() {
                        return;
                    }
                }
                Some(b'>') => {
                    self.end_attr_value(self.cursor.pos);
                    self.cursor.pos += 1;
                    return self.emit_tag();
                }
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter, self.cursor.pos);
                    self.cursor
                        .append_current(&mut self.tag.attr_value, &mut self.budget);
                }
                Some(b'"' | b'\'' | b'<' | b'=' | b'`') => {
                    self.error(
                        ErrorCode::UnexpectedCharacterInUnquotedAttributeValue,
                        self.cursor.pos,
                    );
                    self.tag.attr_value.push_src(
                        self.cursor.input,
                        self.cursor.pos,
                        self.cursor.pos + 1,
                        &mut self.budget,
                    );
                    self.cursor.pos += 1;
                }
                Some(_) => {
                    // Whitespace.
                    self.end_attr_value(self.cursor.pos);
                    self.cursor.pos += 1;
                    self.state = MachineState::BeforeAttributeName;
                    return;
                }
                None => return self.eof_in_tag(),
            }
        }
    }

    /// The [after attribute value (quoted) state](https://html.spec.whatwg.org/multipage/parsing.html#after-attribute-value-(quoted)-state).
    #[inline]
    pub(super) fn after_attribute_value_quoted_state(&mut self) {
        match self.cur() {
            Some(b) if is_ascii_whitespace(b) => {
                self.cursor.pos += 1;
                self.state = MachineState::BeforeAttributeName;
            }
            Some(b'/') => {
                self.cursor.pos += 1;
                self.state = MachineState::SelfClosingStartTag;
            }
            Some(b'>') => {
                self.cursor.pos += 1;
                self.emit_tag();
            }
            None => self.eof_in_tag(),
            Some(_) => {
                self.error(
                    ErrorCode::MissingWhitespaceBetweenAttributes,
                    self.cursor.pos,
                );
                self.state = MachineState::BeforeAttributeName;
            }
        }
    }

    /// The [self-closing start tag state](https://html.spec.whatwg.org/multipage/parsing.html#self-closing-start-tag-state).
    #[inline]
    pub(super) fn self_closing_start_tag_state(&mut self) {
        match self.cur() {
            Some(b'>') => {
                self.tag.self_closing = true;
                self.cursor.pos += 1;
                self.emit_tag();
            }
            None => self.eof_in_tag(),
            Some(_) => {
                self.error(ErrorCode::UnexpectedSolidusInTag, self.cursor.pos);
                self.state = MachineState::BeforeAttributeName;
                self.before_attribute_name_state();
            }
        }
    }
}
