//! What is given out: the whole Markdown, or with main content the kept
//! blocks' Markdown by the marks taken at each block's end; cut at the
//! cap either way.

use super::Markdown;

impl Markdown {
    /// The Markdown, cut at the cap (at a character boundary), and
    /// whether it was cut.
    pub(in crate::extract) fn take(self) -> (String, bool) {
        cut(self.out, self.limit)
    }

    /// With main content: the block whose end main content just noted
    /// ends here (`blocks` blocks have ended).
    pub(in crate::extract) fn mark(&mut self, blocks: usize) {
        if let Some(marks) = &mut self.marks {
            while marks.len() <= blocks {
                marks.push(self.out.len());
            }
        }
    }

    /// A table or code block that began at `start` of the output, with
    /// `from` marks taken, was written anew: the marks taken inside it
    /// no longer point into it, and it goes with the last block in it.
    pub(super) fn settle_marks(&mut self, from: usize, start: usize) {
        if let Some(marks) = &mut self.marks {
            let end = self.out.len();
            let from = from.min(marks.len());
            if let Some((last, inside)) = marks[from..].split_last_mut() {
                inside.iter_mut().for_each(|m| *m = start);
                *last = end;
            }
        }
    }

    /// The Markdown of the kept blocks (their numbers, in order): each run
    /// of consecutive blocks as written, a blank line between runs.
    pub(in crate::extract) fn take_blocks(self, kept: &[usize]) -> (String, bool) {
        let marks = self.marks.unwrap_or_default();
        // A mark is where the output ended at a block's end; markup taken
        // out after it (emphasis that no delimiter could close) may have
        // moved the text under it, so each is held to the output and to a
        // character boundary.
        let at = |mark: Option<usize>| {
            let mut at = mark.unwrap_or(self.out.len()).min(self.out.len());
            while !self.out.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let span = |b: usize| {
            let (start, end) = (at(marks.get(b).copied()), at(marks.get(b + 1).copied()));
            start.min(end)..end
        };
        let mut out = String::new();
        let mut previous: Option<usize> = None;
        for &b in kept {
            let text = &self.out[span(b)];
            // The blocks after a kept one go on as written, separators
            // and all, but at the start, where there is nothing to
            // separate.
            if previous.is_some_and(|p| p + 1 == b) && !out.is_empty() {
                out.push_str(text);
            } else {
                let text = text.trim_start_matches('\n');
                if !out.is_empty() && !text.is_empty() {
                    out.push_str("\n\n");
                }
                out.push_str(text);
            }
            previous = Some(b);
        }
        cut(out, self.limit)
    }
}

/// `text` cut to at most `limit` bytes at a character boundary, and
/// whether it was cut.
fn cut(mut text: String, limit: usize) -> (String, bool) {
    if text.len() <= limit {
        return (text, false);
    }
    let mut at = limit;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text.truncate(at);
    (text, true)
}
