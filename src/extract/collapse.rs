//! Whitespace collapsing, run by run.
//!
//! A browser lays text out with runs of whitespace collapsed to one space,
//! and block boundaries as line breaks. An indexer wants the same: words
//! separated once, lines where the page has blocks. Going byte by byte
//! cost more than tokenizing the same text, so here text that is already collapsed
//! (words with single spaces between them) goes to the output as one
//! segment, one copy, found in one of two ways:
//!
//! - a text token of up to 64 bytes (most of them: the corpus's 190,486
//!   text tokens are 14 bytes long on average) is classified in 16-byte
//!   vector blocks into bit masks (`scan::TextMasks`); its leading and
//!   trailing whitespace and the breaks between segments come from
//!   `trailing_zeros`/`leading_zeros` of those masks. A byte loop branches
//!   at the end of every word and space run, and those branches, whose
//!   outcome depends on the text, were the ones the processor mispredicted
//!   most in text extraction;
//! - a longer one, or one with a NUL or a byte 0xC2 (which may begin a
//!   no-break space), goes through a 256-entry byte-class table, with
//!   `scan::skip_collapsed` skipping 16 bytes a step through words and
//!   single spaces.
//!
//! What else was tried and measured, and not kept, is in BENCHMARKS.md
//! ("Why the extraction code is as it is").
//!
//! Only the separator due is held between calls, so text of any length
//! goes through in constant memory, and the output can be drained at any
//! point (see [`Out`]).
//!
//! The calls are per 16 KiB of text, not per token, unless the caller
//! asks where each piece of output came from (offsets): the extractor
//! gathers the text of the tokens as it is, with the line breaks due
//! between them marked in it, and collapses it 16 KiB at a time
//! ([`Collapse::push_gathered`], see `Extractor::gather`). Most text tokens
//! are a word or two, and per token the call, its classification and its
//! copy cost more than the collapsing. Gathered text is squeezed in vector
//! blocks (32 bytes with AVX2, else 16) whose kept bytes are packed with a
//! shuffle (`scan::Gathered::squeeze`): the cost is per block, not per
//! segment, and the line breaks are one more kind of whitespace to it.

use crate::scan::{self, Gathered, TextMasks};

/// What separates the next word from the last one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Pending {
    /// Nothing: the next word continues the last one (`a<b>b</b>`).
    #[default]
    Nothing,
    /// One space.
    Space,
    /// One line break (wins over a space).
    LineBreak,
}

/// A byte of a word.
const WORD: u8 = 0;
/// ASCII whitespace as HTML defines it: space, tab, LF, FF, CR.
const SPACE: u8 = 1;
/// The line-break marker of gathered text (`scan::LINE_BREAK`, a byte
/// UTF-8 never has, so only gathered text holds it).
const BREAK: u8 = 2;
/// U+0000, which the tokenizer hands on in data: a browser's tree builder
/// drops it in HTML content, and so does this (the words around it join).
const NUL: u8 = 4;
/// The first byte of U+00A0 NO-BREAK SPACE (`C2 A0`) — or of another
/// character in U+0080..U+00BF, which is part of a word.
const LEAD_C2: u8 = 8;

/// The class of every byte.
static CLASS: [u8; 256] = {
    let mut table = [WORD; 256];
    let mut b = 0;
    while b < 256 {
        if scan::is_ascii_whitespace(b as u8) {
            table[b] = SPACE;
        }
        b += 1;
    }
    table[0] = NUL;
    table[0xC2] = LEAD_C2;
    table[scan::LINE_BREAK as usize] = BREAK;
    table
};

/// Where collapsed text is written: a buffer the caller may drain, with a
/// cap on the total length.
#[derive(Debug)]
pub(super) struct Out {
    /// The text written since the last drain.
    pub(super) buf: String,
    /// How many bytes were drained before `buf` began.
    pub(super) drained: usize,
    /// How many more bytes the cap on the total length lets through (0
    /// once it cut).
    room: usize,
    /// Whether text was left out because of the cap.
    pub(super) truncated: bool,
}

impl Out {
    /// An empty output capped at `limit` bytes.
    pub(super) fn new(limit: usize) -> Out {
        Out {
            buf: String::new(),
            drained: 0,
            room: limit,
            truncated: false,
        }
    }

    /// The total length written, drained bytes included.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.drained + self.buf.len()
    }

    /// Makes room for `bytes` more of text (no more than the cap lets
    /// through).
    pub(super) fn reserve(&mut self, bytes: usize) {
        self.buf.reserve(bytes.min(self.room));
    }

    /// Capped at `limit` bytes more from now on, keeping what it holds
    /// (the anchor text goes after the strings of the links before it).
    pub(super) fn restart(&mut self, limit: usize) {
        self.room = limit;
        self.truncated = false;
    }

    /// Takes the text written since the last drain.
    pub(super) fn drain(&mut self) -> String {
        self.drained += self.buf.len();
        core::mem::take(&mut self.buf)
    }

    /// Writes `separator` (if any) and `word`, or as much as the cap
    /// allows, cut at a character boundary. Returns where the word begins,
    /// or `None` if nothing of it fit.
    #[inline(always)]
    fn write(&mut self, separator: Option<u8>, word: &str) -> Option<usize> {
        let needed = word.len() + usize::from(separator.is_some());
        if needed > self.room {
            return self.write_cut(separator, word);
        }
        self.room -= needed;
        let buf = &mut self.buf;
        buf.reserve(needed);
        if let Some(c) = separator {
            buf.push(char::from(c));
        }
        let at = self.drained + buf.len();
        buf.push_str(word);
        Some(at)
    }

    /// [`Out::write`] past the cap: as much of `word` as fits, then no
    /// more, ever (the text is a prefix of the page's).
    #[cold]
    fn write_cut(&mut self, separator: Option<u8>, word: &str) -> Option<usize> {
        if self.truncated {
            return None;
        }
        self.truncated = true;
        let separator_len = usize::from(separator.is_some());
        let mut cut = self.room.saturating_sub(separator_len);
        self.room = 0;
        while !word.is_char_boundary(cut) {
            cut -= 1;
        }
        // A cut segment ends at a word, not at the space after it.
        cut = word[..cut].trim_end_matches(' ').len();
        if cut == 0 {
            return None;
        }
        if let Some(c) = separator {
            self.buf.push(char::from(c));
        }
        let at = self.len();
        self.buf.push_str(&word[..cut]);
        Some(at)
    }

    /// How many more bytes the cap lets through.
    #[inline(always)]
    pub(super) fn room(&self) -> usize {
        self.room
    }

    /// Whether the cap is reached: nothing more will be written.
    #[inline]
    pub(super) fn is_full(&self) -> bool {
        self.truncated
    }
}

/// Collapses text as it is written: runs of whitespace and the boundaries
/// between blocks become one space or one line break (a line break wins);
/// nothing at the start, nothing at the end.
#[derive(Clone, Debug, Default)]
pub(super) struct Collapse {
    /// Whether a word has been written.
    started: bool,
    pending: Pending,
}

impl Collapse {
    /// Writes `text` collapsed to `out`; inside `<pre>` (`pre`), each
    /// newline in it is a line break. Returns where the first word written
    /// begins, if any was.
    ///
    /// Text that is already collapsed (words with one ASCII space between
    /// them) goes out as one copy: only whitespace that must change (a
    /// run, a tab, a newline, a no-break space) or a NUL ends a segment.
    #[inline(always)]
    pub(super) fn push(&mut self, out: &mut Out, text: &str, pre: bool) -> Option<usize> {
        if !pre && text.len() <= TextMasks::MAX {
            let masks = TextMasks::of(text.as_bytes());
            if masks.other == 0 {
                // Whitespace only (a quarter of a page's text tokens, the
                // indentation between tags): a space, without the call.
                if !text.is_empty() && masks.whitespace == u64::MAX >> (64 - text.len()) {
                    self.space();
                    return None;
                }
                return self.push_short(out, text, masks);
            }
        }
        self.push_bytes(out, text, pre)
    }

    /// [`Collapse::push`] for a text of at most [`TextMasks::MAX`] bytes
    /// outside `<pre>`, with neither NUL nor a byte 0xC2 in it, split into
    /// segments by bit operations on its byte classes: the branches are
    /// per segment, not per word and space run.
    fn push_short(&mut self, out: &mut Out, text: &str, masks: TextMasks) -> Option<usize> {
        let n = text.len();
        if n == 0 {
            return None;
        }
        let word = !masks.whitespace & (u64::MAX >> (64 - n));
        if word == 0 {
            self.space();
            return None;
        }
        let start = word.trailing_zeros() as usize;
        let end = 64 - word.leading_zeros() as usize;
        if start > 0 {
            self.space();
        }
        // Whitespace inside the words' span that is not a single space
        // between two word bytes: where a segment ends.
        let kept = masks.space & (word << 1) & (word >> 1);
        let mut breaks = masks.whitespace & !kept & (u64::MAX << start) & (u64::MAX >> (64 - end));
        let mut from = start;
        let mut first = None;
        while breaks != 0 {
            let to = breaks.trailing_zeros() as usize;
            let at = self.word(out, &text[from..to]);
            first = first.or(at);
            self.space();
            // The next segment starts at the next word byte.
            from = (word & (u64::MAX << to)).trailing_zeros() as usize;
            breaks &= u64::MAX.checked_shl(from as u32).unwrap_or(0);
        }
        let at = self.word(out, &text[from..end]);
        if end < n {
            self.space();
        }
        first.or(at)
    }

    /// Writes gathered text collapsed to `out` (see `Extractor::gather`):
    /// what [`Collapse::push`] and [`Collapse::line_break`] write for its
    /// lines one after the other, squeezed in vector blocks
    /// ([`Gathered::squeeze`]) rather than segment by segment.
    ///
    /// And where each of `marks` went (offsets into `text`, in order; main
    /// content marks where each block's text ends): for each, pushed to
    /// `at`, a length of the whole text once the text before the mark is
    /// written, the end of the last word before it or one past (the
    /// separator after that word), at most the length written.
    pub(super) fn push_gathered(
        &mut self,
        out: &mut Out,
        text: &Gathered,
        marks: &[usize],
        at: &mut Vec<usize>,
    ) {
        let bytes = text.as_bytes();
        let first_mark = at.len();
        // The separators before the first word: due, not written; eight
        // spaces at a time (indentation), then a byte at a time, the
        // separators seen noted and made due once.
        let mut i = 0;
        let mut seen = 0;
        while let Some(eight) = bytes.get(i..i + 8) {
            if eight != b"        " {
                break;
            }
            seen = SPACE;
            i += 8;
        }
        while let Some(&b) = bytes.get(i) {
            let class = CLASS[b as usize];
            if class & (SPACE | BREAK | NUL) == 0 {
                if b == 0xC2 && bytes.get(i + 1) == Some(&0xA0) {
                    seen |= SPACE;
                    i += 2;
                    continue;
                }
                break;
            }
            seen |= class;
            i += 1;
        }
        if seen & BREAK != 0 {
            self.line_break();
        } else if seen & SPACE != 0 {
            self.space();
        }
        // The marks in the separators before the first word.
        let before = marks.partition_point(|&m| m <= i);
        at.extend(core::iter::repeat_n(out.len(), before));
        let marks = &marks[before..];
        if i == bytes.len() {
            return;
        }
        // Squeezed, the text is at most as long, and a separator goes
        // before it; near the cap, the byte loop cuts it exactly.
        if bytes.len() - i >= out.room {
            let mut from = i;
            for &mark in marks.iter().chain([&bytes.len()]) {
                for (n, line) in text.lines(from..mark).enumerate() {
                    if n > 0 {
                        self.line_break();
                    }
                    self.push(out, line, false);
                }
                at.push(out.len());
                from = mark;
            }
            // The text's end is no mark.
            at.pop();
            return;
        }
        let before = out.buf.len();
        if let Some(c) = self.separator() {
            out.buf.push(char::from(c));
        }
        let squeezed = at.len();
        if marks.is_empty() {
            text.squeeze(i, &mut out.buf);
        } else {
            text.squeeze_marked(i, &mut out.buf, marks, at);
            for place in &mut at[squeezed..] {
                *place += out.drained;
            }
        }
        // It began with a word; a run at its end is the separator due.
        self.started = true;
        self.pending = match out.buf.as_bytes().last() {
            Some(b' ') => Pending::Space,
            Some(b'\n') => Pending::LineBreak,
            _ => Pending::Nothing,
        };
        if self.pending != Pending::Nothing {
            out.buf.pop();
        }
        out.room -= out.buf.len() - before;
        // A mark in the run at the end: at the text's end.
        let end = out.len();
        for place in &mut at[first_mark..] {
            *place = (*place).min(end);
        }
    }

    /// [`Collapse::push`] for any text: segment by segment, a byte loop.
    fn push_bytes(&mut self, out: &mut Out, text: &str, pre: bool) -> Option<usize> {
        let bytes = text.as_bytes();
        let n = bytes.len();
        let mut first = None;
        let mut i = 0;
        while i < n {
            let class = CLASS[bytes[i] as usize];
            let nbsp = class == LEAD_C2 && bytes.get(i + 1) == Some(&0xA0);
            if class == SPACE && !pre {
                i += 1;
                while i < n && CLASS[bytes[i] as usize] == SPACE {
                    i += 1;
                }
                self.space();
                continue;
            }
            if class == SPACE || nbsp {
                if pre && bytes[i] == b'\n' {
                    self.pending = Pending::LineBreak;
                } else {
                    self.space();
                }
                i += 1 + usize::from(nbsp);
                continue;
            }
            if class == NUL {
                i += 1;
                continue;
            }
            // A segment: words with single spaces between them.
            let start = i;
            i += 1;
            loop {
                i = crate::scan::skip_collapsed(bytes, i);
                while i < n && CLASS[bytes[i] as usize] == WORD {
                    i += 1;
                }
                if i + 1 < n && bytes[i] == b' ' && CLASS[bytes[i + 1] as usize] == WORD {
                    i += 2;
                } else if i < n
                    && CLASS[bytes[i] as usize] == LEAD_C2
                    && bytes.get(i + 1) != Some(&0xA0)
                {
                    i += 1; // U+0080..U+00BF other than NBSP: a word character
                } else {
                    break;
                }
            }
            let at = self.word(out, &text[start..i]);
            if first.is_none() {
                first = at;
            }
        }
        first
    }

    /// The separator due, and nothing due after.
    #[inline]
    pub(super) fn take_due(&mut self) -> Pending {
        core::mem::take(&mut self.pending)
    }

    /// A space before the next word (unless a line break is due).
    #[inline]
    pub(super) fn space(&mut self) {
        if self.pending == Pending::Nothing {
            self.pending = Pending::Space;
        }
    }

    /// A line break before the next word.
    #[inline]
    pub(super) fn line_break(&mut self) {
        self.pending = Pending::LineBreak;
    }

    /// The separator to write before the next word: the one due, once a
    /// word has been written.
    #[inline]
    fn separator(&self) -> Option<u8> {
        match self.pending {
            _ if !self.started => None,
            Pending::Nothing => None,
            Pending::Space => Some(b' '),
            Pending::LineBreak => Some(b'\n'),
        }
    }

    /// Writes one word after the separator due. Returns where it begins.
    #[inline]
    fn word(&mut self, out: &mut Out, word: &str) -> Option<usize> {
        let separator = self.separator();
        self.pending = Pending::Nothing;
        let at = out.write(separator, word);
        self.started |= at.is_some();
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collapse(pieces: &[(&str, bool)], limit: usize) -> (String, bool) {
        let mut out = Out::new(limit);
        let mut c = Collapse::default();
        for (text, pre) in pieces {
            c.push(&mut out, text, *pre);
        }
        (out.buf, out.truncated)
    }

    #[test]
    fn words_and_separators() {
        let all = usize::MAX;
        assert_eq!(collapse(&[("  a \t b\r\n", false)], all).0, "a b");
        assert_eq!(
            collapse(&[("a", false), ("b ", false), (" c", false)], all).0,
            "ab c"
        );
        assert_eq!(collapse(&[("a\u{a0}\u{a0}b", false)], all).0, "a b");
        // U+00A9 (C2 A9) is a word character, not a space.
        assert_eq!(
            collapse(&[("\u{a9}x \u{a9}", false)], all).0,
            "\u{a9}x \u{a9}"
        );
        assert_eq!(collapse(&[("a\0b \0 c", false)], all).0, "ab c");
        assert_eq!(collapse(&[("a \n\n b\nc", true)], all).0, "a\nb\nc");
        assert_eq!(collapse(&[("", false), ("   ", false)], all).0, "");
        assert_eq!(collapse(&[("\u{c2}", false)], all).0, "\u{c2}");
    }

    #[test]
    fn long_text_cut_anywhere() {
        let all = usize::MAX;
        let text =
            "one two three  four\tfive six seven eight nine\u{a0}ten eleven \u{a9}\u{c2}\u{a0}x\0y";
        let want = "one two three four five six seven eight nine ten eleven \u{a9}\u{c2} xy";
        for cut in 0..text.len() {
            if let (Some(a), Some(b)) = (text.get(..cut), text.get(cut..)) {
                assert_eq!(collapse(&[(a, false), (b, false)], all).0, want, "{cut}");
            }
        }
        let spaces = "  \t\n\r\x0c        \x0b  \n          x    \n\t\t\t\t\t\t\ty";
        assert_eq!(collapse(&[(spaces, false)], all).0, "\x0b x y");
        let pre = "a b  c\n d\te f g h i j k l m n o p\n\nq";
        assert_eq!(
            collapse(&[(pre, true)], all).0,
            "a b c\nd e f g h i j k l m n o p\nq"
        );
    }

    /// Many texts (long enough for the vector scan of
    /// `scan::skip_collapsed`, with every kind of byte that ends a segment
    /// at every distance) against a plain definition: NULs dropped,
    /// no-break spaces as spaces, words joined by one space.
    #[test]
    fn agrees_with_splitting_on_whitespace() {
        let pieces = [
            "a",
            "bc",
            "defgh",
            " ",
            " ",
            "  ",
            "\n",
            "\t",
            "\r",
            "\x0c",
            "\0",
            "\u{a0}",
            "\u{a9}",
            "\x0b",
            "\u{c2}",
            "\x01",
            "ijklmnopqrstu",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let runs = if cfg!(miri) { 200 } else { 20_000 };
        for _ in 0..runs {
            let mut text = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = seed % 40;
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Mostly words and single spaces, as in real text.
                let pick = (seed >> 32) as usize % (pieces.len() + 6);
                text.push_str(match pick {
                    p if p < pieces.len() => pieces[p],
                    p if p % 2 == 0 => "w",
                    _ => " ",
                });
            }
            let want = text
                .replace('\0', "")
                .replace('\u{a0}', " ")
                .split_ascii_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(collapse(&[(&text, false)], usize::MAX).0, want, "{text:?}");
        }
    }

    #[test]
    fn the_cap_cuts_at_a_character_boundary() {
        assert_eq!(collapse(&[("ab cd", false)], 4), ("ab c".into(), true));
        assert_eq!(collapse(&[("ab cd", false)], 3), ("ab".into(), true));
        assert_eq!(collapse(&[("ab cd", false)], 5), ("ab cd".into(), false));
        assert_eq!(collapse(&[("é", false)], 1), ("".into(), true));
        assert_eq!(collapse(&[("aé", false)], 2), ("a".into(), true));
        assert_eq!(collapse(&[("abc", false)], 0), ("".into(), true));
    }
}
