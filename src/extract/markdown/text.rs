//! Text and images as Markdown: what is due before them written first
//! (a block's separator, its line's markers, inline markup opened), then
//! the text escaped where CommonMark would read it as markup.

use crate::scan::{MarkdownMasks, push_short};

use super::Markdown;
use super::blocks::Due;
use super::{escape, inline};

impl Markdown {
    /// Takes in text that is shown.
    #[inline(always)]
    pub(in crate::extract) fn text(&mut self, text: &str) {
        // Whitespace alone (most often a line break and an indentation
        // between two tags: a third of a page's text tokens) is a space
        // due and nothing more, told without classing its bytes.
        if whitespace_alone(text.as_bytes()) && self.math.is_none() && self.code.is_none() {
            if !self.is_full() {
                self.blocks.ask(Due::Space);
            }
            return;
        }
        self.text_words(text)
    }

    /// [`Markdown::text`] of text that is not whitespace alone (or is in
    /// code or math).
    #[inline(never)]
    fn text_words(&mut self, text: &str) {
        if self.is_full() {
            return;
        }
        if let Some(math) = &mut self.math {
            return math.push_str(text);
        }
        // Most text tokens: short, and with neither.
        if text.len() <= MarkdownMasks::MAX && self.code.is_none() {
            let masks = MarkdownMasks::of(text.as_bytes());
            if masks.other == 0 {
                return self.text_short(text, masks);
            }
        }
        // As in the plain text: a no-break space is a space, a NUL is
        // nothing.
        if has_nul_or_c2(text.as_bytes()) {
            let text: String = text
                .chars()
                .filter(|&c| c != '\0')
                .map(|c| if c == '\u{a0}' { ' ' } else { c })
                .collect();
            return self.text_plain(&text);
        }
        self.text_plain(text)
    }

    /// [`Markdown::text`] of text with no NUL or no-break space.
    fn text_plain(&mut self, text: &str) {
        if self.code.is_some() {
            return self.code_text(text);
        }
        let start = text
            .bytes()
            .take_while(|&b| crate::scan::is_ascii_whitespace(b))
            .count();
        self.write_words(text, start, None);
    }

    /// [`Markdown::text_plain`] of a text outside code, of at most
    /// [`MarkdownMasks::MAX`] bytes whose classes `masks` holds.
    fn text_short(&mut self, text: &str, masks: MarkdownMasks) {
        let start = (!masks.whitespace).trailing_zeros() as usize;
        self.write_words(text, start, Some(masks));
    }

    /// Writes the text outside code whose whitespace ends at `start`
    /// (its classes `masks`, if it is short): what is due before it, then
    /// the text collapsed and escaped.
    #[inline(always)]
    fn write_words(&mut self, text: &str, start: usize, masks: Option<MarkdownMasks>) {
        if start > 0 {
            self.blocks.ask(Due::Space);
        }
        let Some(first) = text.get(start..).and_then(|t| t.chars().next()) else {
            return;
        };
        self.begin(first);
        let place = escape::Place {
            line_start: self.blocks.line_start && self.table.is_none(),
            cell: self.table.as_ref().is_some_and(|t| t.in_cell()),
            code: self.inline.in_code(),
        };
        // `4` at a line's start and then `)` from another token would be
        // an ordered list's marker, which neither token shows alone.
        if matches!(first, '.' | ')')
            && !place.line_start
            && !place.code
            && self.table.is_none()
            && escape::digits_begin_the_line(&self.out)
        {
            self.out.push('\\');
        }
        let words = &text[start..];
        let ends_with_space = match masks {
            Some(masks) => escape::write_short(&mut self.out, words, masks.from(start), place),
            None => escape::write_text(&mut self.out, words, place),
        };
        if ends_with_space {
            self.blocks.ask(Due::Space);
        }
        self.blocks.line_start = false;
    }

    /// Writes what is due before text beginning with `first`.
    #[inline(always)]
    pub(super) fn begin(&mut self, first: char) {
        if !self.inline.waiting() && self.table.is_none() {
            // Most text: nothing due, or a space between words.
            match self.blocks.due {
                Due::Nothing => return,
                Due::Space if !self.blocks.line_start => {
                    push_short(&mut self.out, " ");
                    self.blocks.due = Due::Nothing;
                    return;
                }
                _ => {}
            }
        }
        self.begin_due(first)
    }

    /// [`Markdown::begin`] when more than a space is due: a separator,
    /// the containers' prefix, inline markup opened or settled.
    #[inline(never)]
    fn begin_due(&mut self, first: char) {
        let next = if self.blocks.due == Due::Nothing {
            first
        } else {
            ' '
        };
        self.inline.settle(&mut self.out, next);
        // A code span is on one line: a `<br>` in it is a space.
        let flat = self.flat() || self.inline.in_code();
        if let Some(table) = &mut self.table {
            if table.place_empty(self.out.len()) {
                self.blocks.due = Due::Nothing;
            }
            table.before_text(self.out.len());
        }
        self.blocks.begin(&mut self.out, flat);
        self.inline.open_due(&mut self.out, first);
    }

    /// Writes an image (with alt text asked for): `![alt](src)`, or the
    /// alt text alone in code or without a `src`.
    pub(in crate::extract) fn image(&mut self, alt: &str, src: Option<String>) {
        if self.is_full() {
            return;
        }
        if alt.trim_ascii().is_empty() {
            // No word, but a break between words, as in the plain text
            // (in code, a space written as it is).
            if self.code.is_some() {
                self.out.push(' ');
            } else {
                self.blocks.ask(Due::Space);
            }
            return;
        }
        if self.math.is_some() || self.code.is_some() || self.inline.code_around() {
            // A word between spaces, as in the plain text.
            self.blocks.ask(Due::Space);
            if self.code.is_some() {
                self.out.push(' ');
            }
            self.text(alt);
            if self.code.is_some() {
                self.out.push(' ');
            }
            return self.blocks.ask(Due::Space);
        }
        match src {
            Some(src) => {
                // A word between spaces, as in the plain text.
                self.blocks.ask(Due::Space);
                self.begin('!');
                inline::image(&mut self.out, alt, &src);
                self.blocks.line_start = false;
                self.blocks.ask(Due::Space);
            }
            // A word between spaces, as in the plain text.
            None => {
                self.blocks.ask(Due::Space);
                self.text(alt);
                self.blocks.ask(Due::Space);
            }
        }
    }
}

/// Whether `bytes` is ASCII whitespace alone (and not empty): most such
/// text is a line break and spaces, eight of which are compared at once.
#[inline(always)]
fn whitespace_alone(bytes: &[u8]) -> bool {
    let Some((&first, mut rest)) = bytes.split_first() else {
        return false;
    };
    if !crate::scan::is_ascii_whitespace(first) {
        return false;
    }
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    while let Some((word, tail)) = rest.split_first_chunk::<8>() {
        if u64::from_ne_bytes(*word) != SPACES {
            break;
        }
        rest = tail;
    }
    rest.iter().all(|&b| crate::scan::is_ascii_whitespace(b))
}

/// Whether `bytes` holds a NUL or a byte 0xC2 (which may begin a no-break
/// space): what reaches this is code and long tokens, whose first 128
/// bytes `scan::find2` searches in vector blocks (a byte loop paid about
/// two instructions a byte); under 16 bytes, eight bytes a step.
fn has_nul_or_c2(bytes: &[u8]) -> bool {
    if bytes.len() >= 16 {
        return crate::scan::find2(0, 0xC2, bytes, 0) < bytes.len();
    }
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS != 0;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        if has_zero(x) || has_zero(x ^ (0xC2 * ONES)) {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| b == 0 || b == 0xC2)
}
#[cfg(test)]
mod tests {
    use super::{Markdown, has_nul_or_c2, whitespace_alone};
    use crate::Tokenizer;
    use crate::extract::visible::boundary;
    use crate::token::Token;

    /// A writer fed `page` as the extractor feeds it.
    fn writer_after(page: &str) -> Markdown {
        let arena = crate::bumpalo::Bump::new();
        let options = crate::Options::default().auto_switch(false);
        let mut markdown = Markdown::new(true, usize::MAX, usize::MAX, false);
        for token in Tokenizer::with_options(page, &arena, options) {
            match token {
                Token::Text(text) => markdown.text(text.data),
                Token::StartTag(tag) => {
                    if markdown.takes_tag(tag.element) {
                        markdown.start_tag(&tag, &|raw, out| out.push_str(raw));
                    }
                    markdown.boundary(boundary(tag.element), tag.element);
                }
                Token::EndTag(tag) => {
                    if markdown.takes_tag(tag.element) {
                        markdown.end_tag(&tag);
                    }
                    markdown.boundary(boundary(tag.element), tag.element);
                }
                _ => {}
            }
        }
        markdown
    }

    /// A short text token's ways (its classes by masks, in code its copy
    /// without a search for line breaks) write what the general way
    /// (`text_plain`, after NULs and no-break spaces are taken out)
    /// writes, in every place: a paragraph, a line's start in a list, a
    /// table cell, a code span, emphasis and a link due, a code block.
    #[test]
    fn short_tokens_are_written_as_the_general_way_writes_them() {
        let places = [
            "<p>x ",
            "<p>",
            "<ul><li>",
            "<table><tr><td>",
            "<p>a <code>",
            "<p>a <b>",
            "<p>a <a href=u>",
            "<pre>",
            "<ul><li><pre>x\n",
        ];
        let texts = [
            "word",
            "two words",
            "a  b",
            "end ",
            "a\nb",
            "a\tb",
            "tail\n",
            "x|y",
            "`k`",
            "*s*",
            "_u_",
            "a_b",
            "[l]",
            "<t",
            "&amp",
            "\\",
            "1.",
            "# h",
            "- i",
            "> q",
            "^",
            "a\0b",
            "a\u{a0}b",
            "\u{1f}",
            "caf\u{e9}",
            "\u{b}v",
            "exactly sixteen!",
            "a text of thirty-three bytes here",
            "a text of sixty-four bytes, the longest that is classed at once.",
            "a text of sixty-five bytes, one more than is ever classed at once",
        ];
        for place in places {
            for text in texts {
                let mut fast = writer_after(place);
                fast.text(text);
                let mut slow = writer_after(place);
                slow.text_plain(&text.replace('\0', "").replace('\u{a0}', " "));
                assert_eq!(
                    format!("{fast:?}"),
                    format!("{slow:?}"),
                    "{place:?} {text:?}"
                );
            }
        }
    }

    #[test]
    fn whitespace_alone_at_every_length() {
        assert!(!whitespace_alone(b""));
        for len in 1..40 {
            for at in 0..len {
                let mut text = vec![b' '; len];
                for ws in [b'\n', b'\t', b'\r', 0x0C] {
                    text[at] = ws;
                    assert!(whitespace_alone(&text), "{len} {at}");
                }
                for other in [b'a', 0x0B, 0, 0xC2, b'-'] {
                    text[at] = other;
                    assert!(!whitespace_alone(&text), "{len} {at}");
                }
            }
        }
    }

    #[test]
    fn nul_or_c2_anywhere() {
        assert!(!has_nul_or_c2(b""));
        assert!(!has_nul_or_c2("plain text é ü and more".as_bytes()));
        for at in 0..20 {
            let mut text = vec![b'a'; 20];
            text[at] = 0;
            assert!(has_nul_or_c2(&text), "{at}");
            text[at] = 0xC2;
            assert!(has_nul_or_c2(&text), "{at}");
            text[at] = 0xC3;
            assert!(!has_nul_or_c2(&text), "{at}");
        }
        // Long texts too, past the vector blocks' 128 bytes.
        for len in [15, 16, 17, 31, 64, 100, 127, 128, 129, 200] {
            for at in 0..len {
                let mut text = vec![b'a'; len];
                text[at] = 0;
                assert!(has_nul_or_c2(&text), "{at} of {len}");
                text[at] = 0xC2;
                assert!(has_nul_or_c2(&text), "{at} of {len}");
                text[at] = 0xC3;
                assert!(!has_nul_or_c2(&text), "{at} of {len}");
            }
        }
    }
}
