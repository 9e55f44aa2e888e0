//! The CDATA section states (§13.2.5.69–71), reached from `<![CDATA[` in
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
    /// 13.2.5.69 CDATA section state.
    pub(super) fn cdata_section_state(&mut self) {
        loop {
            let end = if self.has_cr_nul {
                CDATA_STOP.find(self.bytes, self.pos)
            } else {
                crate::scan::find1(b']', self.bytes, self.pos)
            };
            self.text_src(self.pos, end);
            self.pos = end;
            match self.cur() {
                Some(b']') => {
                    self.pos += 1;
                    self.state = MachineState::CdataSectionBracket;
                    return;
                }
                Some(_) => self.text_current(), // CR
                None => {
                    if self.suspend() {
                        return;
                    }
                    self.error(ErrorCode::EofInCdata, self.pos);
                    return self.emit_eof(self.pos);
                }
            }
        }
    }

    /// 13.2.5.70 CDATA section bracket state.
    pub(super) fn cdata_section_bracket_state(&mut self) {
        if self.cur() == Some(b']') {
            self.pos += 1;
            self.state = MachineState::CdataSectionEnd;
        } else {
            self.text_src(self.pos - 1, self.pos);
            self.state = MachineState::CdataSection;
        }
    }

    /// 13.2.5.71 CDATA section end state.
    pub(super) fn cdata_section_end_state(&mut self) {
        match self.cur() {
            Some(b']') => {
                self.text_src(self.pos - 2, self.pos - 1);
                self.pos += 1;
            }
            Some(b'>') => {
                self.pos += 1;
                self.state = MachineState::Data;
            }
            _ => {
                self.text_src(self.pos - 2, self.pos);
                self.state = MachineState::CdataSection;
            }
        }
    }
}
