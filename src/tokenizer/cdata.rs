//! The CDATA section states (the [CDATA section state](https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-state) and the two after it), reached from `<![CDATA[` in
//! foreign content (SVG, MathML).
//!
//! The section's characters are text. The `]` characters that turn out not
//! to close the section are the source bytes just consumed, so they are
//! appended as source runs, like everything else here.

use super::Tokenizer;
use super::machine::MachineState;
use crate::error::ErrorCode;
use crate::scan::ByteSet;

/// Bytes that end a run in the CDATA section state.
static CDATA_STOP: ByteSet = ByteSet::new(b"]\r");

impl<'a> Tokenizer<'a> {
    /// The [CDATA section state](https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-state).
    pub(super) fn cdata_section_state(&mut self) {
        loop {
            let end = if self.cursor.has_cr_nul {
                CDATA_STOP.find(self.cursor.bytes, self.cursor.pos)
            } else {
                crate::scan::find1(b']', self.cursor.bytes, self.cursor.pos)
            };
            self.text_src(self.cursor.pos, end);
            self.cursor.pos = end;
            match self.cur() {
                Some(b']') => {
                    self.cursor.pos += 1;
                    self.state = MachineState::CdataSectionBracket;
                    return;
                }
                Some(_) => self.text_current(), // CR
                None => {
                    if self.suspend() {
                        return;
                    }
                    self.error(ErrorCode::EofInCdata, self.cursor.pos);
                    return self.emit_eof(self.cursor.pos);
                }
            }
        }
    }

    /// The [CDATA section bracket state](https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-bracket-state).
    pub(super) fn cdata_section_bracket_state(&mut self) {
        if self.cur() == Some(b']') {
            self.cursor.pos += 1;
            self.state = MachineState::CdataSectionEnd;
        } else {
            self.text_src(self.cursor.pos - 1, self.cursor.pos);
            self.state = MachineState::CdataSection;
        }
    }

    /// The [CDATA section end state](https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-end-state).
    pub(super) fn cdata_section_end_state(&mut self) {
        match self.cur() {
            Some(b']') => {
                self.text_src(self.cursor.pos - 2, self.cursor.pos - 1);
                self.cursor.pos += 1;
            }
            Some(b'>') => {
                self.cursor.pos += 1;
                self.state = MachineState::Data;
            }
            _ => {
                self.text_src(self.cursor.pos - 2, self.cursor.pos);
                self.state = MachineState::CdataSection;
            }
        }
    }
}
