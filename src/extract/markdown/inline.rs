//! Inline markup: `**strong**`, `*emphasis*`, `` `code` `` and
//! `[links](url)`, opened lazily and closed so that CommonMark reads them.
//!
//! An element's markup is written when its first text is, not at its
//! start tag: an element with no text writes nothing, and the space before
//! its text goes before the opening delimiter (`** x**` is no emphasis in
//! CommonMark; `<b> x</b>` gives ` **x**`). A block boundary inside an
//! element closes its markup and leaves it due again for the text after
//! (markup cannot span blocks); so does a misnested end tag for the
//! elements inside (`<b><i>x</b>y</i>` gives `***x****y*`... that is, `y`
//! in emphasis of its own).
//!
//! Emphasis is read by the rules of
//! [left- and right-flanking delimiter runs](https://spec.commonmark.org/0.31.2/#left-flanking-delimiter-run):
//! an opening `*` is written only where it flanks its text (not after a
//! letter when the text begins with punctuation); a closing one after
//! punctuation flanks only when whitespace or punctuation follows, which
//! is known only when the next text comes: if a letter does, the
//! emphasis is taken out again (its text stays).

use super::escape;
use crate::scan::push_short;

/// An inline element's kind of markup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    Strong,
    Emphasis,
    Code,
    Link,
}

/// Where an inline element's markup stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// To be opened before the next text.
    Due,
    /// Opened at this byte of the output (the `**`, the `[`; for code,
    /// where its text begins: the backticks, as many as the text needs,
    /// go in when it ends).
    Open(usize),
    /// Not written: the same markup is open around it, or its opening
    /// delimiter would not flank its text.
    Plain,
}

/// An inline element open.
#[derive(Debug)]
struct Element {
    style: Style,
    state: State,
}

/// How deep inline elements are followed; deeper ones are text.
const MAX_OPEN: usize = 32;

/// A closing delimiter written after punctuation, with its opening one:
/// taken out if a letter follows.
#[derive(Clone, Copy, Debug)]
struct Fragile {
    open: usize,
    close: usize,
    len: usize,
}

/// The inline elements open, and the closings not yet known to flank.
#[derive(Debug, Default)]
pub(super) struct Inline {
    open: Vec<Element>,
    /// Inline elements past [`MAX_OPEN`], counted.
    over: u32,
    fragile: Vec<Fragile>,
    /// How many elements are [`State::Due`].
    due: u32,
    /// Whether a code span is open (its text is not escaped).
    code: bool,
    /// The destination of the link open (there is at most one: a new
    /// `<a>` ends the one open), as written in the Markdown; one buffer
    /// from link to link, where each link's URL was a string of its own.
    destination: String,
    /// A destination that needed no change (see [`Inline::destination_of`]).
    clean: String,
}

/// The last character of `out`: its last byte when that is ASCII (most
/// often), without decoding backwards.
#[inline(always)]
fn last_char(out: &str) -> Option<char> {
    match out.as_bytes().last() {
        Some(&b) if b.is_ascii() => Some(char::from(b)),
        _ => out.chars().next_back(),
    }
}

/// Whether `c` is punctuation as CommonMark's flanking rules mean it
/// (ASCII punctuation, and Unicode's `P` and `S` classes, approximated
/// beyond ASCII by what is neither alphanumeric nor whitespace).
#[inline(always)]
fn is_punctuation(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_punctuation()
    } else {
        is_other_punctuation(c)
    }
}

/// [`is_punctuation`] beyond ASCII (out of line: most text is ASCII).
#[inline(never)]
fn is_other_punctuation(c: char) -> bool {
    !c.is_alphanumeric() && !c.is_whitespace()
}

impl Inline {
    /// Whether anything waits for the next text: markup to open, or a
    /// closing that the next character decides.
    #[inline(always)]
    pub(super) fn waiting(&self) -> bool {
        self.due != 0 || !self.fragile.is_empty()
    }

    /// Whether a code span is open.
    #[inline(always)]
    pub(super) fn in_code(&self) -> bool {
        self.code
    }

    /// Whether a code span is open or due around the next text.
    pub(super) fn code_around(&self) -> bool {
        self.open
            .iter()
            .any(|e| e.style == Style::Code && e.state != State::Plain)
    }

    /// A link starts, to the URL `resolve` appends to a string: a link
    /// unless the URL is empty or a `javascript:` one.
    pub(super) fn start_link(&mut self, resolve: impl FnOnce(&mut String)) {
        // Past `MAX_OPEN` a link is only counted, and the link open (which
        // an `<a>` could not end then) keeps its destination.
        let full = self.open.len() == MAX_OPEN;
        let mut url = if full {
            String::new()
        } else {
            core::mem::take(&mut self.destination)
        };
        url.clear();
        resolve(&mut url);
        let link = !url.is_empty() && !url.starts_with("javascript:");
        if full {
            self.over += u32::from(link);
            return;
        }
        self.destination = if link { self.destination_of(url) } else { url };
        if link {
            self.start(Style::Link);
        }
    }

    /// [`destination`] of a link's URL. Most links of a page share their
    /// start (the page's own address before a fragment, the site's):
    /// what a URL shares with one that needed no change needs no look
    /// (`destination_changes` is a test of each byte), so only the rest
    /// is classed, where the whole URL was.
    fn destination_of(&mut self, url: String) -> String {
        // A short URL (a fragment alone) is one vector block anyway.
        const SHORT: usize = 16;
        if url.len() <= SHORT {
            return destination(url);
        }
        let shared = shared_prefix(self.clean.as_bytes(), url.as_bytes());
        if crate::scan::destination_changes(&url.as_bytes()[shared..]) {
            return destination(url);
        }
        // Kept while it shares half of each URL, so that most links
        // copy nothing.
        if shared < url.len() / 2 {
            self.clean.clear();
            self.clean.push_str(&url);
        }
        url
    }

    /// An inline element of `style` starts.
    pub(super) fn start(&mut self, style: Style) {
        if self.open.len() == MAX_OPEN {
            self.over += 1;
            return;
        }
        // The same markup inside itself says nothing more (and `**` in
        // `**` would end it); nothing is markup in code.
        let plain = self
            .open
            .iter()
            .any(|e| e.style == style || (e.style == Style::Code && e.state != State::Plain));
        let state = if plain { State::Plain } else { State::Due };
        if state == State::Due {
            self.due += 1;
        }
        self.open.push(Element { style, state });
    }

    /// Whether a link is open (a new `<a>` ends it, as a tree builder's
    /// adoption agency does).
    pub(super) fn in_link(&self) -> bool {
        self.open.iter().any(|e| e.style == Style::Link)
    }

    /// An inline element of `style` ends: its markup and that of the
    /// elements open inside it close, and those stay due for the text
    /// after (misnested tags).
    #[inline]
    pub(super) fn end(&mut self, style: Style, out: &mut String) {
        // Most often the innermost element ends, none counted past
        // `MAX_OPEN`: closed and dropped at once, where the search, the
        // close as a call and the due count's round trip cost about 150
        // instructions an end tag.
        if self.over == 0 {
            if let Some(&Element { style: last, state }) = self.open.last() {
                if last == style {
                    self.open.pop();
                    match state {
                        State::Due => self.due -= 1,
                        State::Plain => {}
                        State::Open(at) => self.write_close(style, at, out),
                    }
                    return;
                }
            }
        }
        self.end_misnested(style, out);
    }

    /// [`Inline::end`] of an element that is not the innermost (or past
    /// `MAX_OPEN`).
    #[inline(never)]
    fn end_misnested(&mut self, style: Style, out: &mut String) {
        if self.over > 0 {
            self.over -= 1;
            return;
        }
        let Some(at) = self.open.iter().rposition(|e| e.style == style) else {
            return;
        };
        for i in (at..self.open.len()).rev() {
            self.close(i, out);
        }
        if self.open.remove(at).state == State::Due {
            self.due -= 1;
        }
    }

    /// A block boundary: every markup closes, and stays due for the text
    /// after; no closing waits for the next character (a line break
    /// follows it).
    pub(super) fn break_all(&mut self, out: &mut String) {
        for i in (0..self.open.len()).rev() {
            self.close(i, out);
        }
        self.fragile.clear();
    }

    /// Everything closes and is forgotten (a table cell's end, the page's).
    pub(super) fn end_all(&mut self, out: &mut String) {
        self.break_all(out);
        self.open.clear();
        self.over = 0;
        self.due = 0;
    }

    /// Settles the closings written after punctuation, now that the
    /// character after them is known: `next`, the first written after
    /// them (a separator's, or the next text's).
    pub(super) fn settle(&mut self, out: &mut String, next: char) {
        if self.fragile.is_empty() {
            return;
        }
        if next.is_whitespace() || is_punctuation(next) {
            self.fragile.clear();
            return;
        }
        // Taken out from the last byte back, so that each position still
        // holds when its turn comes.
        let mut cuts: Vec<(usize, usize)> = self
            .fragile
            .drain(..)
            .flat_map(|f| [(f.open, f.len), (f.close, f.len)])
            .collect();
        cuts.sort_unstable_by_key(|&(at, _)| core::cmp::Reverse(at));
        for (at, len) in cuts {
            out.replace_range(at..at + len, "");
        }
    }

    /// Writes the markup due before text beginning with `first`.
    pub(super) fn open_due(&mut self, out: &mut String, first: char) {
        if self.due == 0 {
            return;
        }
        // A `*` written by this call is part of the same delimiter run
        // (`***x` opens both); one written before it is a closing one,
        // which a new opening must not touch.
        let run = out.len();
        for i in 0..self.open.len() {
            if self.open[i].state != State::Due {
                continue;
            }
            self.due -= 1;
            let prev = last_char(out);
            // What follows an emphasis's delimiter: the text, or the
            // opening of a code span or link due inside it (other
            // emphasis joins its delimiter run).
            let first = match self.due {
                0 => first,
                _ => self.open[i + 1..]
                    .iter()
                    .filter(|e| e.state == State::Due)
                    .find_map(|e| match e.style {
                        Style::Code => Some('`'),
                        Style::Link => Some('['),
                        _ => None,
                    })
                    .unwrap_or(first),
            };
            let in_code = self.code;
            let style = self.open[i].style;
            self.open[i].state = match style {
                _ if in_code => State::Plain,
                Style::Strong | Style::Emphasis => {
                    let touches = prev == Some('*') && out.len() == run;
                    // Text that begins with whitespace CommonMark knows and
                    // HTML does not (a line tabulation) is not flanked.
                    let flanks = !touches
                        && !first.is_whitespace()
                        && (!is_punctuation(first)
                            || prev.is_none_or(|p| p.is_whitespace() || is_punctuation(p)));
                    if flanks && !self.would_close_around(i, out, prev, first, run) {
                        let at = out.len();
                        push_delimiter(out, style);
                        State::Open(at)
                    } else {
                        State::Plain
                    }
                }
                // Right after a backtick a code span's would join it.
                Style::Code if prev == Some('`') => State::Plain,
                Style::Code => {
                    self.code = true;
                    State::Open(out.len())
                }
                Style::Link => {
                    escape_bang(out);
                    let at = out.len();
                    out.push('[');
                    State::Open(at)
                }
            };
        }
    }

    /// Whether the opening delimiter of emphasis `i`, after `prev` and
    /// before `first`, would be read as the closing one of emphasis open
    /// around it (opened before `run`, not inside a link that is inside
    /// it): a run that can close too (right-flanking: after a letter, or
    /// after punctuation before punctuation) closes the nearest `*` run
    /// open before it that CommonMark's rule of three lets it, whatever
    /// was meant (`***a**.**.***` reads `**.**` as emphasis of `.`).
    fn would_close_around(
        &self,
        i: usize,
        out: &str,
        prev: Option<char>,
        first: char,
        run: usize,
    ) -> bool {
        let right_flanking = prev
            .is_some_and(|p| !p.is_whitespace() && (!is_punctuation(p) || is_punctuation(first)));
        if !right_flanking {
            return false;
        }
        let len = delimiter(self.open[i].style).len();
        for outer in self.open[..i].iter().rev() {
            match (outer.style, outer.state) {
                // Emphasis inside a link's text is read inside it.
                (Style::Link, State::Open(_)) => return false,
                (Style::Strong | Style::Emphasis, State::Open(at)) if at < run => {
                    // The rule of three: a run that can open and close
                    // matches none whose length and its own sum to a
                    // multiple of three (the length as written: a
                    // delimiter taken out of it since is not counted).
                    let bytes = out.as_bytes();
                    let before = bytes[..at].iter().rev().take_while(|&&b| b == b'*').count();
                    let after = bytes[at..].iter().take_while(|&&b| b == b'*').count();
                    if (before + after + len) % 3 != 0 {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// Closes the markup of the `i`th element, if open, and leaves it due.
    fn close(&mut self, i: usize, out: &mut String) {
        let element = &mut self.open[i];
        let State::Open(at) = element.state else {
            return;
        };
        element.state = State::Due;
        let style = element.style;
        self.due += 1;
        self.write_close(style, at, out);
    }

    /// Writes the closing markup of an element of `style` opened at `at`.
    #[inline(always)]
    fn write_close(&mut self, style: Style, at: usize, out: &mut String) {
        match style {
            Style::Strong | Style::Emphasis => self.close_emphasis(style, at, out),
            Style::Code => {
                self.code = false;
                close_code(out, at);
            }
            Style::Link => {
                if out.len() == at + 1 {
                    out.truncate(at);
                } else {
                    out.reserve(self.destination.len() + 3);
                    push_short(out, "](");
                    push_short(out, &self.destination);
                    push_short(out, ")");
                }
            }
        }
    }

    /// [`Inline::write_close`] of emphasis.
    #[inline(always)]
    fn close_emphasis(&mut self, style: Style, at: usize, out: &mut String) {
        let len = delimiter(style).len();
        let last = last_char(out).unwrap_or(' ');
        if last.is_whitespace() {
            // Whitespace that HTML keeps in a word (a line tabulation)
            // before it: no closing could flank, so the emphasis is taken
            // out.
            out.replace_range(at..at + len, "");
            return;
        }
        let close = out.len();
        push_delimiter(out, style);
        if is_punctuation(last) {
            self.fragile.push(Fragile {
                open: at,
                close,
                len,
            });
        }
    }
}

/// The delimiter of emphasis of `style`.
fn delimiter(style: Style) -> &'static str {
    match style {
        Style::Strong => "**",
        _ => "*",
    }
}

/// Writes the delimiter of emphasis of `style` by fixed-length moves (a
/// string of one or two bytes went through `memcpy`, a `char` pushed
/// through a call).
#[inline(always)]
fn push_delimiter(out: &mut String, style: Style) {
    push_short(out, delimiter(style));
}

/// Puts a code span's backticks around its text, from `at` to the end of
/// `out`: one more than the longest run of backticks in it, and a space
/// inside each when the text begins or ends with one.
fn close_code(out: &mut String, at: usize) {
    let text = &out[at..];
    if text.is_empty() {
        return;
    }
    // Most code spans hold no backtick: one each side, where the general
    // case below searches for runs and inserts a string.
    let Some(first_tick) = memchr::memchr(b'`', text.as_bytes()) else {
        out.insert(at, '`');
        return push_short(out, "`");
    };
    let ticks = longest_run(&text.as_bytes()[first_tick..], b'`') + 1;
    let pad = text.starts_with('`') || text.ends_with('`');
    if pad {
        out.insert(at, ' ');
        out.push(' ');
    }
    // Written from a slice of backticks, no string made for them (most
    // code spans need one each side).
    const TICKS: &str = "````````````````";
    let mut left = ticks;
    while left > 0 {
        let piece = &TICKS[..left.min(TICKS.len())];
        out.insert_str(at, piece);
        out.push_str(piece);
        left -= piece.len();
    }
}

/// The longest run of `byte` in `bytes`: each run found by `memchr`
/// (a code block's text, thousands of bytes, most often holds no
/// backtick, where a byte loop paid a compare and a branch a byte).
pub(super) fn longest_run(bytes: &[u8], byte: u8) -> usize {
    let mut longest = 0;
    let mut at = 0;
    while let Some(found) = memchr::memchr(byte, &bytes[at..]) {
        let start = at + found;
        let run = bytes[start..].iter().take_while(|&&b| b == byte).count();
        longest = longest.max(run);
        at = start + run;
    }
    longest
}

/// A `!` right before a link's `[` would make the link an image: written
/// as `\!` when the text ends with one that is not escaped already.
fn escape_bang(out: &mut String) {
    let Some(before) = out.strip_suffix('!') else {
        return;
    };
    let backslashes = before.len() - before.trim_end_matches('\\').len();
    if backslashes % 2 == 0 {
        out.insert(out.len() - 1, '\\');
    }
}

/// Writes a link destination: percent-encoded where a space, a control
/// character or `<`/`>` would end or change it, a backslash before `(`,
/// `)` and `\` (so that unbalanced parentheses stay in it) and `|`.
pub(super) fn destination(url: String) -> String {
    // Most URLs (resolved ones are percent-encoded) need nothing.
    if !crate::scan::destination_changes(url.as_bytes()) {
        return url;
    }
    let mut out = String::with_capacity(url.len() + 8);
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            // `|` too, which would end a table's cell (an escape anywhere
            // else gives the same URL back).
            '(' | ')' | '\\' | '|' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {
                let mut buffer = [0; 4];
                for b in c.encode_utf8(&mut buffer).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// How many bytes `a` and `b` share at their start, eight at a time.
fn shared_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut at = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let (mut x8, mut y8) = ([0; 8], [0; 8]);
        x8.copy_from_slice(x);
        y8.copy_from_slice(y);
        let differ = u64::from_le_bytes(x8) ^ u64::from_le_bytes(y8);
        if differ != 0 {
            return at + differ.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    at + a[at..]
        .iter()
        .zip(&b[at..])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Writes an image, `![alt](src)`.
pub(super) fn image(out: &mut String, alt: &str, src: &str) {
    out.push_str("![");
    // Collapsed and escaped as any text is.
    escape::write_text(out, alt.trim_ascii_start(), escape::Place::default());
    out.push_str("](");
    out.push_str(&destination(src.to_owned()));
    out.push(')');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations() {
        let d = |url: &str| destination(url.to_owned());
        assert_eq!(&*d("https://x.example/a b"), "https://x.example/a%20b");
        assert_eq!(&*d("https://x.example/f(x)"), "https://x.example/f\\(x\\)");
        assert_eq!(&*d("a<b>\n"), "a%3Cb%3E%0A");
        assert_eq!(&*d("https://x.example/\u{85}"), "https://x.example/%C2%85");
        assert_eq!(&*d("https://x.example/é"), "https://x.example/é");
    }

    #[test]
    fn shared_prefixes() {
        for (a, b, n) in [
            ("", "abc", 0),
            ("abc", "abd", 2),
            ("https://example.com/a#x", "https://example.com/a#y", 22),
            ("https://example.com/", "https://example.com/dir", 20),
            ("0123456789abcdefXYZ", "0123456789abcdefXYZ", 19),
            ("01234567Z", "01234567Y", 8),
        ] {
            assert_eq!(shared_prefix(a.as_bytes(), b.as_bytes()), n, "{a} {b}");
            assert_eq!(shared_prefix(b.as_bytes(), a.as_bytes()), n, "{b} {a}");
        }
    }

    /// A link's destination through the cache of a clean one is what it
    /// is without it, whatever came before.
    #[test]
    fn destinations_through_the_cache() {
        let urls = [
            "https://example.com/dir/page.html#sec-a",
            "https://example.com/dir/page.html#sec-b(1)",
            "https://example.com/dir/page.html#sec-c",
            "https://example.com/dir/a b",
            "https://example.com/dir/page.html#sec-d|e",
            "#x",
            "https://other.example/\\path",
            "https://example.com/dir/page.html#sec-f",
        ];
        let mut inline = Inline::default();
        for _ in 0..2 {
            for url in urls {
                assert_eq!(
                    inline.destination_of(url.to_owned()),
                    destination(url.to_owned()),
                    "{url}"
                );
            }
        }
    }

    /// [`Inline::end`]'s path for the innermost element gives what the
    /// general one ([`Inline::end_misnested`]) gives, for each style
    /// closed in each state (due, open after a letter, punctuation or
    /// whitespace, with a backtick in code, plain inside itself), with
    /// others open around it.
    #[test]
    fn innermost_end_is_the_general_one() {
        let styles = [Style::Strong, Style::Emphasis, Style::Code, Style::Link];
        let texts = ["", "word", "end.", "tab\u{b}", "a`b", "`", "!"];
        let ends = |fast: bool| {
            let mut results = Vec::new();
            for outer in [None, Some(Style::Emphasis), Some(Style::Link)] {
                for &style in &styles {
                    for text in texts {
                        for twice in [false, true] {
                            let mut inline = Inline::default();
                            inline.destination.push_str("https://x.example/a");
                            let mut out = String::from("x ");
                            if let Some(outer) = outer {
                                inline.start(outer);
                                inline.open_due(&mut out, 'o');
                                out.push('o');
                            }
                            inline.start(style);
                            if twice {
                                inline.start(style);
                            }
                            if let Some(first) = text.chars().next() {
                                inline.open_due(&mut out, first);
                                out.push_str(text);
                            }
                            for _ in 0..1 + usize::from(twice) {
                                if fast {
                                    inline.end(style, &mut out);
                                } else {
                                    inline.end_misnested(style, &mut out);
                                }
                            }
                            results.push((out, format!("{inline:?}")));
                        }
                    }
                }
            }
            results
        };
        assert_eq!(ends(true), ends(false));
    }

    #[test]
    fn code_spans() {
        let mut out = String::from("x ab");
        close_code(&mut out, 2);
        assert_eq!(out, "x `ab`");
        let mut out = String::from("x a`b");
        close_code(&mut out, 2);
        assert_eq!(out, "x ``a`b``");
        let mut out = String::from("`x");
        close_code(&mut out, 0);
        assert_eq!(out, "`` `x ``");
        // More backticks than one piece of them holds.
        let run = "`".repeat(20);
        let mut out = format!("x{run}");
        close_code(&mut out, 0);
        let ticks = "`".repeat(21);
        assert_eq!(out, format!("{ticks} x{run} {ticks}"));
    }

    #[test]
    fn runs() {
        assert_eq!(longest_run(b"a``b```c`", b'`'), 3);
        assert_eq!(longest_run(b"abc", b'`'), 0);
        assert_eq!(longest_run(b"", b'`'), 0);
        assert_eq!(longest_run(b"````", b'`'), 4);
        // Against a byte loop, on runs at every place of a long text.
        let by_bytes = |bytes: &[u8]| {
            let (mut longest, mut run) = (0, 0);
            for &b in bytes {
                run = if b == b'`' { run + 1 } else { 0 };
                longest = longest.max(run);
            }
            longest
        };
        let mut text = vec![b'x'; 300];
        for (at, len) in [(0, 1), (17, 3), (40, 2), (100, 5), (250, 4), (296, 4)] {
            text[at..at + len].fill(b'`');
            assert_eq!(longest_run(&text, b'`'), by_bytes(&text), "{at}");
        }
    }
}
