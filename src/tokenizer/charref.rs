//! The character reference states (from the
//! [character reference state](https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state) on).
//!
//! A character reference never emits a token of its own: it appends
//! characters to the pending text or to the current attribute value (the
//! spec's "return state", here [`RefTarget`]) and hands control back. So the
//! nine states run as a chain of calls from the state that met the `&`,
//! not through the dispatcher, each function named for its state.
//!
//! When a reference does not decode ("flush code points consumed as a
//! character reference" with the characters as written), the characters are
//! appended as a source run, so text and values with stray `&` stay
//! borrowed. Only a decoded reference forces a copy.

use super::Tokenizer;
use crate::entities;
use crate::error::ErrorCode;
use crate::scan::is_ascii_whitespace;

/// What Windows-1252 made of the C1 controls, which numeric references in
/// the range 0x80–0x9F map to (the table in the [numeric character reference end state](https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-end-state)).
const C1_REPLACEMENTS: [u32; 32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
];

/// Which buffer a character reference appends to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RefTarget {
    /// Text (the return state is a text state).
    Text,
    /// The current attribute's value.
    Attribute,
}

impl<'a> Tokenizer<'a> {
    /// Appends the source `start..end` as written ("flush code points
    /// consumed as a character reference" when nothing was decoded).
    #[inline]
    fn flush_src(&mut self, start: usize, end: usize) {
        match self.ref_target {
            RefTarget::Text => self.text_src(start, end),
            RefTarget::Attribute => {
                self.tag
                    .attr_value
                    .push_src(self.cursor.input, start, end, &mut self.budget)
            }
        }
    }

    /// Appends decoded characters.
    #[inline]
    fn flush_str(&mut self, s: &str) {
        match self.ref_target {
            RefTarget::Text => self.text_str(s),
            RefTarget::Attribute => {
                self.tag
                    .attr_value
                    .push_str(self.cursor.input, s, &mut self.budget)
            }
        }
    }

    /// The [character reference state](https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state). Entered with `pos` just past
    /// the `&`. Returns true when the input ran out before the reference
    /// could be decided (only in a partial buffer; see `Tokenizer::suspend`).
    pub(super) fn character_reference_state(&mut self) -> bool {
        let amp = self.cursor.pos - 1;
        match self.cur() {
            Some(b) if b.is_ascii_alphanumeric() => self.named_character_reference_state(amp),
            Some(b'#') => {
                self.cursor.pos += 1;
                self.numeric_character_reference_state(amp)
            }
            None if self.suspend() => true,
            _ => {
                self.flush_src(amp, self.cursor.pos);
                false
            }
        }
    }

    /// Stops for more input if the buffer ends at `pos` and is partial.
    #[inline]
    fn needs_input_at(&mut self, pos: usize) -> bool {
        self.out_of_input_at(pos) && self.suspend()
    }

    /// The [named character reference state](https://html.spec.whatwg.org/multipage/parsing.html#named-character-reference-state).
    fn named_character_reference_state(&mut self, amp: usize) -> bool {
        let lookup = entities::lookup(&self.cursor.bytes[self.cursor.pos..]);
        if lookup.ran_out && self.suspend() {
            return true;
        }
        let Some(m) = lookup.matched else {
            self.flush_src(amp, self.cursor.pos);
            return self.ambiguous_ampersand_state();
        };
        let end = self.cursor.pos + m.len;
        let ends_with_semicolon = self.cursor.bytes[end - 1] == b';';
        if !ends_with_semicolon && self.needs_input_at(end) {
            return true;
        }
        self.cursor.pos = end;
        if !ends_with_semicolon && self.ref_target == RefTarget::Attribute {
            // The historical rule: in an attribute, `&amp=` and `&ampx` stay
            // as written.
            if matches!(self.cur(), Some(b) if b == b'=' || b.is_ascii_alphanumeric()) {
                self.flush_src(amp, self.cursor.pos);
                return false;
            }
        }
        if !ends_with_semicolon {
            self.error(
                ErrorCode::MissingSemicolonAfterCharacterReference,
                self.cursor.pos,
            );
        }
        self.flush_str(m.value);
        false
    }

    /// The [ambiguous ampersand state](https://html.spec.whatwg.org/multipage/parsing.html#ambiguous-ampersand-state).
    fn ambiguous_ampersand_state(&mut self) -> bool {
        let start = self.cursor.pos;
        let run = self.cursor.bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        if self.needs_input_at(start + run) {
            return true;
        }
        self.cursor.pos += run;
        self.flush_src(start, self.cursor.pos);
        if self.cur() == Some(b';') {
            self.error(ErrorCode::UnknownNamedCharacterReference, self.cursor.pos);
        }
        false
    }

    /// The [numeric character reference state](https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-state). Entered with `pos` just
    /// past the `#`.
    fn numeric_character_reference_state(&mut self, amp: usize) -> bool {
        if self.needs_input_at(self.cursor.pos) {
            return true;
        }
        match self.cur() {
            Some(b'x' | b'X') => {
                self.cursor.pos += 1;
                self.hexadecimal_character_reference_start_state(amp)
            }
            _ => self.decimal_character_reference_start_state(amp),
        }
    }

    /// The [hexadecimal character reference start state](https://html.spec.whatwg.org/multipage/parsing.html#hexadecimal-character-reference-start-state).
    fn hexadecimal_character_reference_start_state(&mut self, amp: usize) -> bool {
        if self.needs_input_at(self.cursor.pos) {
            return true;
        }
        if matches!(self.cur(), Some(b) if b.is_ascii_hexdigit()) {
            self.character_reference_digits(16)
        } else {
            self.absence_of_digits(amp)
        }
    }

    /// The decimal character reference start state, of earlier editions of
    /// the standard (see the [numeric character reference state](https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-state)).
    fn decimal_character_reference_start_state(&mut self, amp: usize) -> bool {
        if matches!(self.cur(), Some(b) if b.is_ascii_digit()) {
            self.character_reference_digits(10)
        } else {
            self.absence_of_digits(amp)
        }
    }

    /// The "anything else" of both start states: the `&#` or `&#x` is text.
    fn absence_of_digits(&mut self, amp: usize) -> bool {
        self.error(
            ErrorCode::AbsenceOfDigitsInNumericCharacterReference,
            self.cursor.pos,
        );
        self.flush_src(amp, self.cursor.pos);
        false
    }

    /// The [hexadecimal character reference state](https://html.spec.whatwg.org/multipage/parsing.html#hexadecimal-character-reference-state) (`radix` 16) and
    /// The [decimal character reference state](https://html.spec.whatwg.org/multipage/parsing.html#decimal-character-reference-state) (`radix` 10).
    fn character_reference_digits(&mut self, radix: u32) -> bool {
        let mut code: u32 = 0;
        let mut end = self.cursor.pos;
        while let Some(d) = self
            .cursor
            .bytes
            .get(end)
            .and_then(|&b| (b as char).to_digit(radix))
        {
            // Saturate past the Unicode range: only "too big" matters then.
            code = code.saturating_mul(radix).saturating_add(d).min(0x11_0000);
            end += 1;
        }
        if self.needs_input_at(end) {
            return true;
        }
        self.cursor.pos = end;
        self.numeric_reference_terminator(code)
    }

    /// The end of the digits: a `;` is consumed, anything else is a
    /// `missing-semicolon-after-character-reference` and is reconsumed.
    ///
    /// In a partial buffer that ends right after the `;`, the reference
    /// waits for the next buffer: its error (at the offset after the `;`)
    /// must come after an input-stream error of the character there, as it
    /// does over the whole input.
    fn numeric_reference_terminator(&mut self, code: u32) -> bool {
        if self.cur() == Some(b';') {
            if self.needs_input_at(self.cursor.pos + 1) {
                return true;
            }
            self.cursor.pos += 1;
        } else {
            self.error(
                ErrorCode::MissingSemicolonAfterCharacterReference,
                self.cursor.pos,
            );
        }
        self.numeric_character_reference_end_state(code);
        false
    }

    /// The [numeric character reference end state](https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-end-state).
    fn numeric_character_reference_end_state(&mut self, code: u32) {
        let replacement = |tok: &mut Self, e| {
            tok.error(e, tok.cursor.pos);
            0xFFFD
        };
        let code = match code {
            0 => replacement(self, ErrorCode::NullCharacterReference),
            0x11_0000.. => replacement(self, ErrorCode::CharacterReferenceOutsideUnicodeRange),
            0xD800..=0xDFFF => replacement(self, ErrorCode::SurrogateCharacterReference),
            _ => {
                if super::parse_errors::is_noncharacter(code) {
                    self.error(ErrorCode::NoncharacterCharacterReference, self.cursor.pos);
                    code
                } else if code == 0x0D
                    || (is_control(code) && !u8::try_from(code).is_ok_and(is_ascii_whitespace))
                {
                    self.error(ErrorCode::ControlCharacterReference, self.cursor.pos);
                    if (0x80..=0x9F).contains(&code) {
                        C1_REPLACEMENTS[(code - 0x80) as usize]
                    } else {
                        code
                    }
                } else {
                    code
                }
            }
        };
        let c = char::from_u32(code).unwrap_or('\u{FFFD}');
        let mut buf = [0u8; 4];
        self.flush_str(c.encode_utf8(&mut buf));
    }
}

/// Whether `cp` is a control: C0 controls, DEL and the C1 controls.
#[inline]
fn is_control(cp: u32) -> bool {
    cp <= 0x1F || (0x7F..=0x9F).contains(&cp)
}
