//! Extraction's scans over the text of one token: the classes of its bytes
//! as bit masks (whitespace collapsing's [`TextMasks`], link resolution's
//! [`UrlMasks`], the Markdown writer's [`MarkdownMasks`]), and the skip
//! through text that collapsing copies as it is ([`skip_collapsed`]): per
//! token, so in SSE2 blocks chosen at compile time on x86-64 (see
//! `arch`). And main content's counts of its blocks' classes of bytes
//! ([`count_classes_at`]), over a page's whole text, in the widest blocks
//! the CPU has.

use super::arch;

/// Skips text that whitespace collapsing (`extract::collapse`) copies as
/// it is: returns an offset at or after `from`, at most `hay.len()`, such
/// that every byte from `from` up to it is a byte of a word or a single
/// ASCII space with such a byte after it. Searched in whole vector blocks
/// (see `arch`); the byte at the offset, and the tail too short for a
/// block, are left to the caller's byte loop, which decides exactly.
///
/// "A byte of a word" is taken narrowly here: any byte above 0x20 but the
/// lead byte 0xC2 (which may begin a no-break space). Text has a space
/// every six bytes or so, and a search that stopped at each would hand
/// most of the work back to the byte loop; a word-at-a-time (`u64`)
/// version of this was measured and cost as much as the byte loop, since
/// every space costs it a step.
#[inline]
pub(crate) fn skip_collapsed(hay: &[u8], from: usize) -> usize {
    arch::skip_collapsed(hay, from)
}

/// How many bytes of each class a text has before each of `marks`
/// (offsets into it, in order), pushed to `at`, for main content's
/// features (`extract::main_content::features`): the counts of a block
/// are those at its end less those at its start. The classes, in this
/// order: separators (space and LF), LFs, ASCII digits, sentence ends
/// (`.`, `!`, `?`), commas (`,`, `;`), navigation separators (`|`, `/`,
/// `>`), UTF-8 continuation bytes, and ASCII uppercase letters that begin
/// the text or follow a separator.
///
/// Main content counts every block of a page, and most blocks are a few
/// dozen bytes: counted one by one, each paid for starting and ending
/// its vector loop (and a loop over the bytes spends most of its time
/// there). Here the page's text goes through in one pass, 64 bytes at a
/// time (AVX2's or SSSE3's vectors, whichever the CPU has, their masks
/// side by side), each byte's classes found as bits by four table lookups
/// (`pshufb`, by its low and its high half), where comparing with each
/// class's bytes took three times the instructions; each class a bit mask
/// counted by POPCNT, and a mark takes the bits below it.
#[inline]
pub(crate) fn count_classes_at(text: &[u8], marks: &[usize], at: &mut Vec<[u32; CLASSES]>) {
    debug_assert!(marks.is_sorted() && marks.last().is_none_or(|&m| m <= text.len()));
    if !arch::count_classes_at(text, marks, at) {
        count_classes_at_by_bytes(text, marks, at);
    }
}

/// How many classes [`count_classes_at`] counts.
pub(crate) const CLASSES: usize = 8;

/// [`count_classes_at`] by a byte loop: the definition, for other
/// architectures and the tests.
pub(crate) fn count_classes_at_by_bytes(
    text: &[u8],
    marks: &[usize],
    at: &mut Vec<[u32; CLASSES]>,
) {
    let mut marks = marks.iter().peekable();
    let mut totals = [0u32; CLASSES];
    for i in 0..=text.len() {
        while marks.next_if(|&&m| m == i).is_some() {
            at.push(totals);
        }
        if i < text.len() {
            let counts = count_classes_by_bytes(&text[i..=i], i == 0 || is_separator(text[i - 1]));
            for (total, count) in totals.iter_mut().zip(counts) {
                *total += count;
            }
        }
    }
}

/// Whether `b` is a separator of collapsed text (a space or a LF).
fn is_separator(b: u8) -> bool {
    b == b' ' || b == b'\n'
}

/// How many bytes of each class `text` has (see [`count_classes_at`]),
/// its first byte after a separator when `after_separator`.
pub(crate) fn count_classes_by_bytes(text: &[u8], after_separator: bool) -> [u32; CLASSES] {
    let mut counts = [0u32; CLASSES];
    for (i, &b) in text.iter().enumerate() {
        let after_separator = if i == 0 {
            after_separator
        } else {
            is_separator(text[i - 1])
        };
        let classes = [
            is_separator(b),
            b == b'\n',
            b.is_ascii_digit(),
            matches!(b, b'.' | b'!' | b'?'),
            matches!(b, b',' | b';'),
            matches!(b, b'|' | b'/' | b'>'),
            b & 0xC0 == 0x80,
            after_separator && b.is_ascii_uppercase(),
        ];
        for (count, class) in counts.iter_mut().zip(classes) {
            *count += u32::from(class);
        }
    }
    counts
}

/// The classes of the bytes of a short text (at most [`TextMasks::MAX`]
/// bytes), one bit per byte (bit `i` for byte `i`), for whitespace
/// collapsing (`extract::collapse`): with them, a text token is split into
/// words by bit operations, where a byte loop would branch at the end of
/// every word and space run (the branches the processor mispredicts most
/// in text extraction).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TextMasks {
    /// ASCII whitespace: space, tab, LF, FF, CR.
    pub(crate) whitespace: u64,
    /// The space character itself.
    pub(crate) space: u64,
    /// NUL and the lead byte 0xC2 (which may begin a no-break space): the
    /// bytes that need the byte loop.
    pub(crate) other: u64,
}

impl TextMasks {
    /// The longest text classified at once.
    pub(crate) const MAX: usize = 64;

    /// The classes of `text`'s bytes; `text.len() <= MAX`.
    #[inline]
    pub(crate) fn of(text: &[u8]) -> TextMasks {
        debug_assert!(text.len() <= Self::MAX);
        match arch::text_masks(text) {
            Some([whitespace, space, other]) => TextMasks {
                whitespace,
                space,
                other,
            },
            None => TextMasks::by_bytes(text),
        }
    }

    /// The same by a byte loop: the definition, for other architectures
    /// and the tests.
    pub(crate) fn by_bytes(text: &[u8]) -> TextMasks {
        let mut m = TextMasks::default();
        for (i, &b) in text.iter().enumerate().take(Self::MAX) {
            let bit = 1u64 << i;
            if super::class::is_ascii_whitespace(b) {
                m.whitespace |= bit;
            }
            if b == b' ' {
                m.space |= bit;
            }
            if b == 0 || b == 0xC2 {
                m.other |= bit;
            }
        }
        m
    }
}

/// The classes of the bytes of a short URL (at most [`UrlMasks::MAX`]
/// bytes), one bit per byte, for link resolution (`extract::resolve`): a
/// URL whose bytes the URL parser writes out as they are is resolved by
/// copying, and this tells which are in one vector pass, where a byte loop
/// cost more than the copies (several instructions a byte, over every
/// URL of a page).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct UrlMasks {
    /// Bytes the parser changes in a fragment: anything but printable
    /// ASCII, and `"`, `<`, `>`, `` ` ``.
    pub(crate) fragment: u64,
    /// Those and the bytes it changes in a special URL's path or query:
    /// `{`, `}`, `'`, `\`.
    pub(crate) special: u64,
    /// `/`.
    pub(crate) slash: u64,
    /// `.` and `%`, which begin a dot segment (`..`, `%2e`) after a `/`.
    pub(crate) dot: u64,
}

impl UrlMasks {
    /// The longest URL classified at once.
    pub(crate) const MAX: usize = 64;

    /// The classes of `url`'s bytes; `url.len() <= MAX`.
    #[inline]
    pub(crate) fn of(url: &[u8]) -> UrlMasks {
        debug_assert!(url.len() <= Self::MAX);
        match arch::url_masks(url) {
            Some([fragment, special, slash, dot]) => UrlMasks {
                fragment,
                special,
                slash,
                dot,
            },
            None => UrlMasks::by_bytes(url),
        }
    }

    /// The same by a byte loop: the definition, for other architectures
    /// and the tests.
    pub(crate) fn by_bytes(url: &[u8]) -> UrlMasks {
        let mut m = UrlMasks::default();
        for (i, &b) in url.iter().enumerate().take(Self::MAX) {
            let bit = 1u64 << i;
            let fragment = !b.is_ascii_graphic() || matches!(b, b'"' | b'<' | b'>' | b'`');
            if fragment {
                m.fragment |= bit;
            }
            if fragment || matches!(b, b'{' | b'}' | b'\'' | b'\\') {
                m.special |= bit;
            }
            if b == b'/' {
                m.slash |= bit;
            }
            if matches!(b, b'.' | b'%') {
                m.dot |= bit;
            }
        }
        m
    }
}

/// Whether a Markdown link destination changes any byte of `url`
/// (`extract::markdown::inline::destination`): a control character or a
/// space (up to 0x20), `<`, `>`, `(`, `)`, `\`, `|`, DEL, or 0xC2 (the lead
/// byte of the C1 controls, and of other characters). Most URLs hold
/// none; in 16-byte blocks, where a byte loop paid a table lookup a byte.
#[inline]
pub(crate) fn destination_changes(url: &[u8]) -> bool {
    arch::destination_changes(url).unwrap_or_else(|| destination_changes_by_bytes(url))
}

/// [`destination_changes`] by a byte loop: the definition, for other
/// architectures and the tests.
pub(crate) fn destination_changes_by_bytes(url: &[u8]) -> bool {
    url.iter()
        .any(|&b| b <= 0x20 || matches!(b, b'<' | b'>' | b'(' | b')' | b'\\' | b'|' | 0x7F | 0xC2))
}

/// The classes of the bytes of a short text (at most [`MarkdownMasks::MAX`]
/// bytes), one bit per byte, for the Markdown writer
/// (`extract::markdown::escape`): collapsing and escaping a text token
/// stops only at the bytes these mark, and most tokens hold none, where a
/// byte loop paid a table lookup and a branch a byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MarkdownMasks {
    /// ASCII whitespace: space, tab, LF, FF, CR.
    pub(crate) whitespace: u64,
    /// The space character itself.
    pub(crate) space: u64,
    /// The bytes CommonMark may read as markup anywhere in a line:
    /// `\`, `` ` ``, `*`, `_`, `[`, `]`, `<`, `&`.
    pub(crate) markup: u64,
    /// `|`, markup in a table cell.
    pub(crate) pipe: u64,
    /// NUL and the lead byte 0xC2 (which may begin a no-break space): the
    /// bytes the writer turns into others first.
    pub(crate) other: u64,
}

impl MarkdownMasks {
    /// The longest text classified at once.
    pub(crate) const MAX: usize = 64;

    /// The classes of `text`'s bytes; `text.len() <= MAX`.
    #[inline]
    pub(crate) fn of(text: &[u8]) -> MarkdownMasks {
        debug_assert!(text.len() <= Self::MAX);
        match arch::markdown_masks(text) {
            Some([whitespace, space, markup, pipe, other]) => MarkdownMasks {
                whitespace,
                space,
                markup,
                pipe,
                other,
            },
            None => MarkdownMasks::by_bytes(text),
        }
    }

    /// The classes of the bytes from `start` on (`start < MAX`), bit 0 for
    /// byte `start`.
    #[inline(always)]
    pub(crate) fn from(self, start: usize) -> MarkdownMasks {
        MarkdownMasks {
            whitespace: self.whitespace >> start,
            space: self.space >> start,
            markup: self.markup >> start,
            pipe: self.pipe >> start,
            other: self.other >> start,
        }
    }

    /// The same by a byte loop: the definition, for other architectures
    /// and the tests ([`TextMasks::by_bytes`]'s classes, and markup).
    pub(crate) fn by_bytes(text: &[u8]) -> MarkdownMasks {
        let TextMasks {
            whitespace,
            space,
            other,
        } = TextMasks::by_bytes(text);
        let mut m = MarkdownMasks {
            whitespace,
            space,
            other,
            ..MarkdownMasks::default()
        };
        for (i, &b) in text.iter().enumerate().take(Self::MAX) {
            let bit = 1u64 << i;
            if matches!(b, b'\\' | b'`' | b'*' | b'_' | b'[' | b']' | b'<' | b'&') {
                m.markup |= bit;
            }
            if b == b'|' {
                m.pipe |= bit;
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short-text classifier (`of`) against its byte-loop definition
    /// (`by_bytes`): every byte value at every position of texts of every
    /// length up to 64, made of `filler` around it. Under Miri, only the
    /// `interesting` bytes and the lengths `miri_lengths`.
    fn masks_match_the_definition<M: PartialEq + core::fmt::Debug>(
        interesting: fn(u8) -> bool,
        miri_lengths: &[usize],
        filler: &[u8],
        of: fn(&[u8]) -> M,
        by_bytes: fn(&[u8]) -> M,
    ) {
        for b in 0..=255u8 {
            if cfg!(miri) && !interesting(b) {
                continue;
            }
            for len in 0..=64 {
                if cfg!(miri) && !miri_lengths.contains(&len) {
                    continue;
                }
                for at in 0..len {
                    let mut text: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
                    text[at] = b;
                    assert_eq!(of(&text), by_bytes(&text), "{b:#04x} at {at} of {len}");
                }
            }
        }
    }

    /// `count_classes_at`, each way the CPU has, against its byte-loop
    /// definition (itself against counting each piece on its own), at
    /// every length around the blocks' and marks at random offsets.
    #[test]
    fn class_counts_match_the_definition() {
        let pieces = [
            "Ab", "c.d", "1,2;", "x|y/z>", "é", "Ü", "\n", " ", "Q!", "?", "日本", "\0",
        ];
        let mut seed = 7u32;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as usize % n
        };
        let mut text = Vec::new();
        for len in (0..300).chain([4095, 4096, 4097, 9000]) {
            text.clear();
            while text.len() < len {
                text.extend_from_slice(pieces[next(pieces.len())].as_bytes());
            }
            text.truncate(len);
            let mut marks: Vec<usize> = (0..1 + next(8)).map(|_| next(len + 1)).collect();
            marks.push(len);
            marks.sort_unstable();
            let mut want = Vec::new();
            count_classes_at_by_bytes(&text, &marks, &mut want);
            for (&mark, got) in marks.iter().zip(&want) {
                assert_eq!(
                    *got,
                    count_classes_by_bytes(&text[..mark], true),
                    "{len} {mark}"
                );
            }
            for count in arch::class_counters() {
                let mut got = Vec::new();
                assert!(count(&text, &marks, &mut got));
                assert_eq!(got, want, "{len} {marks:?}");
            }
        }
        let all: Vec<u8> = (0..=255).collect();
        let mut got = Vec::new();
        count_classes_at(&all, &[0, 100, 256], &mut got);
        assert_eq!(got[2], count_classes_by_bytes(&all, true));
    }

    /// `count_classes_at`, each way the CPU has, against its byte-loop
    /// definition: every byte value at every position of texts around a
    /// block's length, after a separator or a letter, a mark on each side
    /// of it. Under Miri, the bytes at the edges of the classes' sets.
    #[test]
    fn class_counts_of_every_byte() {
        for b in 0..=255u8 {
            if cfg!(miri)
                && !matches!(b, 0 | 0x09..=0x0B | 0x1F..=0x22 | 0x2B..=0x31 | 0x39..=0x41 | 0x4F..=0x50 | 0x5A..=0x5B | 0x7B..=0x7D | 0x7F..=0x80 | 0xBF..=0xC0 | 0xFF)
            {
                continue;
            }
            let lens: &[usize] = if cfg!(miri) {
                &[2, 65]
            } else {
                &[1, 2, 63, 64, 65, 129]
            };
            for &len in lens {
                for at in 0..len {
                    // Around each vector's and each block's edges.
                    if !matches!(at % 64, 0 | 1 | 15 | 16 | 31 | 32 | 33 | 47 | 48 | 62 | 63) {
                        continue;
                    }
                    for before in [b' ', b'a'] {
                        let mut text = b"Ab c.D\n".repeat(len.div_ceil(7));
                        text.truncate(len);
                        text[at] = b;
                        if at > 0 {
                            text[at - 1] = before;
                        }
                        let marks = [at, (at + 1).min(len), len];
                        let mut want = Vec::new();
                        count_classes_at_by_bytes(&text, &marks, &mut want);
                        for count in arch::class_counters() {
                            let mut got = Vec::new();
                            assert!(count(&text, &marks, &mut got));
                            assert_eq!(got, want, "{b:#04x} at {at} of {len}");
                        }
                    }
                }
            }
        }
    }

    /// `TextMasks::of` against its byte-loop definition.
    #[test]
    fn text_masks_match_the_definition() {
        assert_eq!(TextMasks::MAX, 64);
        masks_match_the_definition(
            |b| matches!(b, 0 | 0x09..=0x0D | b' ' | 0xC2 | 0x08 | 0x0E | 0x21),
            &[0, 1, 15, 16, 17, 31, 33, 63, 64],
            b"a b\tc\nd  e",
            TextMasks::of,
            TextMasks::by_bytes,
        );
    }

    /// `MarkdownMasks::of` against its byte-loop definition.
    #[test]
    fn markdown_masks_match_the_definition() {
        assert_eq!(MarkdownMasks::MAX, 64);
        masks_match_the_definition(
            |b| matches!(b, 0 | 0x09..=0x0D | b' ' | 0xC2 | 0x5A..=0x61 | b'*' | b'<' | b'&' | b'|'),
            &[0, 1, 15, 16, 17, 31, 33, 63, 64],
            b"a b\tc\nd  e_f",
            MarkdownMasks::of,
            MarkdownMasks::by_bytes,
        );
    }

    /// `destination_changes` against its byte-loop definition: every byte
    /// at every position of URLs of every length up to 80.
    #[test]
    fn destination_changes_match_the_definition() {
        for b in 0..=255u8 {
            for len in 1..=80 {
                if cfg!(miri) && len % 16 > 2 {
                    continue;
                }
                for at in 0..len {
                    let mut url = vec![b'a'; len];
                    url[at] = b;
                    let want = destination_changes_by_bytes(&url);
                    assert_eq!(destination_changes(&url), want, "{b:#04x} at {at} of {len}");
                }
            }
        }
        assert!(!destination_changes(b""));
    }

    /// `UrlMasks::of` against its byte-loop definition.
    #[test]
    fn url_masks_match_the_definition() {
        assert_eq!(UrlMasks::MAX, 64);
        masks_match_the_definition(
            |b| {
                matches!(
                    b,
                    0 | 0x20 | 0x21 | 0x7E | 0x7F | 0x80 | 0xFF | b'"' | b'`' | b'\\' | b'/' | b'%'
                )
            },
            &[0, 1, 7, 15, 16, 17, 31, 33, 63, 64],
            b"/a.b/{c}?d=%2e#e'f",
            UrlMasks::of,
            UrlMasks::by_bytes,
        );
    }

    /// `skip_collapsed` against its definition, byte by byte: every byte
    /// value at every position of texts of several lengths, alone and
    /// after a space; the scan must stop exactly at the first byte that
    /// may end a segment when that byte is in a whole block it checked,
    /// and never skip one.
    #[test]
    fn skip_collapsed_stops_where_a_segment_may_end() {
        let special = |b: u8| b <= 0x20 || b == 0xC2;
        let stops = |hay: &[u8], j: usize| {
            special(hay[j]) && !(hay[j] == b' ' && j + 1 < hay.len() && !special(hay[j + 1]))
        };
        for b in 0..=255u8 {
            if cfg!(miri) && !(special(b) || b == b'!' || b == 0xC3) {
                continue;
            }
            for len in [1, 15, 16, 17, 18, 33, 40] {
                for at in 0..len {
                    for before in [b'x', b' '] {
                        let mut hay: Vec<u8> = b"ab cd efg hij k"
                            .iter()
                            .copied()
                            .cycle()
                            .take(len)
                            .collect();
                        hay[at] = b;
                        if at > 0 {
                            hay[at - 1] = before;
                        }
                        for from in [0, 1.min(len - 1)] {
                            let got = skip_collapsed(&hay, from);
                            let first_stop = (from..len).find(|&j| stops(&hay, j)).unwrap_or(len);
                            assert!(
                                got <= first_stop,
                                "{b:#04x} at {at} of {len} from {from}: {got}"
                            );
                            assert!(got >= from && got <= len);
                            // Stopping early is allowed only in the tail a
                            // whole block with a byte after it cannot cover.
                            if cfg!(all(target_arch = "x86_64", target_feature = "sse2"))
                                && got < first_stop
                            {
                                assert!(got + 16 >= len, "{b:#04x} at {at} of {len}: {got}");
                            }
                        }
                    }
                }
            }
        }
    }
}
