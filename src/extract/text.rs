//! The visible text as it is written: the separator the tags make due,
//! and the text itself, gathered and collapsed in bulk or collapsed token
//! by token with the source span of each piece.
//!
//! Collapsing text token by token costs a call, a classification and a
//! copy per token, and most text tokens are a word or two: unless the
//! caller asks where each piece of output came from (offsets), the text of
//! the tokens is gathered as it is, with the separators due between them
//! marked in it, and collapsed [`GATHERED`] bytes at a time, in vector
//! blocks that go across inline tags (`a <b>b</b> c`) and lines (see
//! [`collapse`](super::collapse)). Collapsing is the same either way: its
//! only state is the separator due, and a line break, marked in the
//! gathered text, is the one separator whitespace cannot stand for (a
//! table cell's space is a space).

use crate::scan::{Gathered, LINE_BREAK};
use crate::token::Span;

use super::TextRun;
use super::collapse::{Collapse, Out, Pending};

/// How much text is gathered before it is collapsed: enough for
/// collapsing to run over long stretches, little enough to stay in the
/// processor's cache.
pub(super) const GATHERED: usize = 16 << 10;

/// How the text is written, as the options ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TextMode {
    /// No text is wanted.
    Off,
    /// Gathered as it comes and collapsed [`GATHERED`] bytes at a time.
    Gathered,
    /// Collapsed token by token, each piece recorded with the span it came
    /// from ([`TextRun`]).
    Offsets,
}

/// The byte that stands for the separator `due` in the gathered text, if
/// any: a space, or the [`LINE_BREAK`] marker.
#[inline(always)]
fn gathered_separator(due: Pending) -> Option<u8> {
    match due {
        Pending::Nothing => None,
        Pending::Space => Some(b' '),
        Pending::LineBreak => Some(LINE_BREAK),
    }
}

/// Where a piece of text went, with offsets: its range in the whole text,
/// and the run it is part of.
#[derive(Clone, Copy, Debug)]
pub(super) struct Placed {
    pub(super) at: usize,
    pub(super) end: usize,
    pub(super) run: usize,
}

/// The text written so far, and what is due before the next of it.
#[derive(Debug)]
pub(super) struct TextOut {
    mode: TextMode,
    /// The separator due before the next text: from tags, and, with
    /// offsets (text collapsed token by token), from whitespace too.
    pub(super) collapse: Collapse,
    /// The text gathered and not yet collapsed, line breaks marked in it.
    raw: Gathered,
    /// Collapses `raw`; its state is the separator due at the end of the
    /// text collapsed so far.
    raw_collapse: Collapse,
    /// How long `raw` may grow before it is collapsed: [`GATHERED`], or
    /// less near the cap, so that whether the cap is reached
    /// ([`TextOut::is_full`]) is known after the text that reached it, as
    /// it is with offsets (main content notes no text past it either way).
    /// Collapsed, gathered text is at most one byte longer (the separator
    /// due before it), so text shorter than the room left cannot reach it.
    collapse_at: usize,
    /// The collapsed text not yet taken.
    out: Out,
    /// Where the pieces of the text came from, with offsets.
    runs: Vec<TextRun>,
    /// The most bytes the collapsed text's buffer grows to when gathered
    /// text is collapsed into it, where it would double past them: what
    /// [`ExtractOptions::memory_limit`](super::ExtractOptions::memory_limit)
    /// leaves it (`usize::MAX` without a limit).
    pub(super) grow_to: usize,
    /// Offsets into `raw` that main content marked ([`TextOut::mark`]).
    marks: Vec<usize>,
    /// How far past the last mark `raw` is known to be blank
    /// ([`TextOut::blank_since_mark`]); 0 once collapsed.
    blank_to: usize,
    /// Where the marks collapsed so far went in the whole text
    /// ([`TextOut::places`]).
    places: Vec<usize>,
}

impl TextOut {
    /// No text yet, written as `mode` says, at most `limit` bytes of it,
    /// its buffer grown to `grow_to` bytes at most where it can.
    pub(super) fn new(mode: TextMode, limit: usize, grow_to: usize) -> TextOut {
        TextOut {
            mode,
            collapse: Collapse::default(),
            // Offsets collapse token by token and gather nothing.
            raw: Gathered::with_capacity(if mode == TextMode::Gathered {
                GATHERED * 2
            } else {
                0
            }),
            raw_collapse: Collapse::default(),
            collapse_at: GATHERED.min(limit),
            out: Out::new(if mode == TextMode::Off { 0 } else { limit }),
            runs: Vec::new(),
            grow_to,
            marks: Vec::new(),
            blank_to: 0,
            places: Vec::new(),
        }
    }

    /// How the text is written.
    #[inline(always)]
    pub(super) fn mode(&self) -> TextMode {
        self.mode
    }

    /// Whether the cap on the text is reached: nothing more is written.
    #[inline(always)]
    pub(super) fn is_full(&self) -> bool {
        self.out.is_full()
    }

    /// Gathers a short text (outside `<pre>`) after the separator due, if
    /// it fits in the gathered text without filling it up; `false` when it
    /// does not, and nothing was done.
    #[inline(always)]
    pub(super) fn gather_short(&mut self, text: &str) -> bool {
        if !self.raw.fits_short(text.len(), self.collapse_at) {
            return false;
        }
        let sep = gathered_separator(self.collapse.take_due());
        self.raw.push_short(sep, text);
        true
    }

    /// Gathers `text` as it is, after the separator the tags before it
    /// made due, to be collapsed in bulk when enough is gathered (see the
    /// module docs); inside `<pre>` (`pre`) each newline is a line break.
    #[inline(always)]
    pub(super) fn gather(&mut self, text: &str, pre: bool) {
        if let Some(sep) = gathered_separator(self.collapse.take_due()) {
            self.raw.push_separator(sep);
        }
        if pre {
            self.raw.push_pre(text);
        } else {
            self.raw.push_str(text);
        }
        if self.raw.len() >= self.collapse_at {
            self.collapse_gathered();
        }
    }

    /// Marks the end of the text gathered so far (main content marks
    /// where each block's text ends): once it is collapsed,
    /// [`TextOut::places`] gives where the mark went.
    #[inline]
    pub(super) fn mark(&mut self) {
        self.marks.push(self.raw.len());
    }

    /// Whether the text gathered since the last mark is blank
    /// (`Gathered::is_blank_from`): then main content forgets it rather
    /// than mark it. `false` when no mark is held (none since the text
    /// was last collapsed).
    #[inline]
    pub(super) fn blank_since_mark(&mut self) -> bool {
        let Some(&mark) = self.marks.last() else {
            return false;
        };
        if !self.raw.is_blank_from(mark.max(self.blank_to)) {
            return false;
        }
        self.blank_to = self.raw.len();
        true
    }

    /// How many marks wait for the text to be collapsed.
    #[inline]
    pub(super) fn marks_held(&self) -> usize {
        self.marks.len()
    }

    /// Where the marks collapsed since this was last cleared went, in
    /// order (each the end of the last word before it, or one past), and
    /// the whole text so far: for main content, which clears them once it
    /// has read them.
    #[inline]
    pub(super) fn places(&mut self) -> (&mut Vec<usize>, &Out) {
        (&mut self.places, &self.out)
    }

    /// Collapses the text gathered into the output.
    #[inline(never)]
    pub(super) fn collapse_gathered(&mut self) {
        // Collapsed, gathered text is at most one byte longer (the
        // separator due before it), and squeezing stores 16 bytes past it.
        let needed = self.raw.len() + 17;
        if self.raw.len() > 0 && self.out.buf.capacity() - self.out.buf.len() < needed {
            self.grow(needed);
        }
        self.raw_collapse
            .push_gathered(&mut self.out, &self.raw, &self.marks, &mut self.places);
        self.raw.clear();
        self.marks.clear();
        self.blank_to = 0;
        // The room left only shrinks.
        if self.out.room() < self.collapse_at {
            self.collapse_at = self.out.room();
        }
    }

    /// Makes room for `needed` more bytes of collapsed text: twice the
    /// room, as a `String` grows, but no more than [`TextOut::grow_to`]
    /// unless `needed` itself takes more.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, needed: usize) {
        let buf = &mut self.out.buf;
        let least = buf.len() + needed;
        let target = buf
            .capacity()
            .saturating_mul(2)
            .min(self.grow_to)
            .max(least);
        buf.reserve_exact(target - buf.len());
    }

    /// How many bytes the text holds: its buffers and its runs.
    pub(super) fn heap_bytes(&self) -> usize {
        self.out.buf.capacity()
            + self.raw.capacity()
            + self.runs.capacity() * core::mem::size_of::<TextRun>()
            + (self.marks.capacity() + self.places.capacity()) * core::mem::size_of::<usize>()
    }

    /// Writes the text of a token as its mode says: with offsets,
    /// collapsed now and recorded as coming from `span`, and then where it
    /// went, if anything was written.
    #[inline(always)]
    pub(super) fn push(&mut self, text: &str, span: Span, pre: bool) -> Option<Placed> {
        if self.mode == TextMode::Offsets {
            let at = self.collapse.push(&mut self.out, text, pre);
            self.run(at, span);
            self.placed(at)
        } else {
            self.gather(text, pre);
            None
        }
    }

    /// Where the text written from `at` went (with offsets).
    #[inline(always)]
    fn placed(&self, at: Option<usize>) -> Option<Placed> {
        Some(Placed {
            at: at?,
            end: self.out.len(),
            run: self.runs.len().checked_sub(1)?,
        })
    }

    /// Writes an image's `alt` text as a word between spaces, as coming
    /// from `span` (with offsets), and then where it went.
    pub(super) fn push_alt(&mut self, alt: &str, span: Span) -> Option<Placed> {
        self.collapse.space();
        let mut placed = None;
        if self.mode == TextMode::Offsets {
            let at = self.collapse.push(&mut self.out, alt, false);
            if let Some(at) = at {
                self.runs.push(TextRun {
                    text: at..self.out.len(),
                    source: span,
                });
            }
            placed = self.placed(at);
        } else {
            self.gather(alt, false);
        }
        self.collapse.space();
        placed
    }

    /// Records the output since `at` as coming from `span` (joined to the
    /// last run when `span` continues it).
    fn run(&mut self, at: Option<usize>, span: Span) {
        let end = self.out.len();
        match self.runs.last_mut() {
            Some(last) if last.source.end == span.start => {
                last.source.end = span.end;
                last.text.end = end;
            }
            _ => {
                if let Some(at) = at {
                    self.runs.push(TextRun {
                        text: at..end,
                        source: span,
                    });
                }
            }
        }
    }

    /// Makes room for `bytes` more of text, and to collapse the last text
    /// gathered into, so that the text that fits `bytes` needs no more.
    pub(super) fn reserve(&mut self, bytes: usize) {
        if self.mode != TextMode::Off {
            self.out.reserve(bytes.saturating_add(GATHERED + 64));
        }
    }

    /// The text written since it was last taken.
    pub(super) fn take(&mut self) -> String {
        self.collapse_gathered();
        self.out.drain()
    }

    /// The text written since it was last taken or cleared.
    pub(super) fn pending(&mut self) -> &str {
        self.collapse_gathered();
        &self.out.buf
    }

    /// Forgets the text written since it was last taken or cleared.
    pub(super) fn clear(&mut self) {
        self.collapse_gathered();
        self.out.drained += self.out.buf.len();
        self.out.buf.clear();
    }

    /// The length of the whole text written so far, taken or not.
    pub(super) fn len(&mut self) -> usize {
        self.collapse_gathered();
        self.out.len()
    }

    /// How many bytes of text are held, collapsed or not yet.
    pub(super) fn held_len(&self) -> usize {
        self.out.buf.len() + self.raw.len()
    }

    /// The runs recorded since they were last taken.
    pub(super) fn take_runs(&mut self) -> Vec<TextRun> {
        core::mem::take(&mut self.runs)
    }

    /// Ends the text: what was not taken, whether the cap cut it, and the
    /// runs not taken.
    pub(super) fn finish(mut self) -> (String, bool, Vec<TextRun>) {
        self.collapse_gathered();
        let truncated = self.out.truncated;
        let mut text = self.out.drain();
        if text.capacity() > 2 * text.len() + 4096 {
            // Room reserved for more than came: given back (in place).
            text.shrink_to_fit();
        }
        (text, truncated, self.runs)
    }
}
