//! The block structure of the Markdown: what separates the next text from
//! the last (a space, a hard line break, a new line, a blank line), the
//! containers open around it (block quotes, lists and their items), whose
//! prefix begins every line, and the heading being written.
//!
//! Separators are due, not written: a tag only says what it asks for, and
//! the strongest request since the last text is written before the next
//! text (so `</p></div><div><p>` is one blank line, and a page that ends
//! with closing tags ends with no separator).

/// What is due before the next text, weakest first: a later request
/// replaces an earlier one only when it is stronger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Due {
    Nothing,
    Space,
    /// A `<br>`: a backslash and a new line, when text follows in the
    /// same block (at the end of a block it would be a literal backslash).
    HardBreak,
    Line,
    Blank,
}

/// What a list numbers its items with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ListKind {
    Bullet,
    /// The number of the next item.
    Ordered(u32),
}

/// Whether a list has had an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Items {
    None,
    Some,
}

/// A container open around the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Container {
    /// `> ` on every line.
    Quote,
    /// A list, and whether an item's marker is written: the first item of an
    /// ordered list that does not start at 1 is set off by a blank line
    /// (it cannot interrupt a paragraph), the others by a new line.
    List(ListKind, Items),
    /// An item of the list below it: its marker on its first line, as
    /// many spaces as the marker is wide on the others.
    Item { number: Option<u32>, state: Marker },
}

/// Whether an item's marker is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Marker {
    Due,
    Written,
}

/// How deep containers nest: deeper ones are followed (their end tags
/// matched) but add no prefix, so that a page cannot make every line
/// longer than itself.
pub(super) const MAX_DEPTH: usize = 32;

/// The largest list item number CommonMark reads (nine digits).
const MAX_NUMBER: u32 = 999_999_999;

/// The block structure, and what is due before the next text.
#[derive(Debug)]
pub(super) struct Blocks {
    pub(super) due: Due,
    containers: Vec<Container>,
    /// Containers past [`MAX_DEPTH`], counted.
    over: u32,
    /// How many containers have stayed open since the last line was
    /// begun: the blank line between it and the next has their prefix
    /// (`>` between two paragraphs of a quote, nothing between two
    /// quotes).
    shared: usize,
    /// The heading being written: its level, and whether its `#`s are.
    heading: Option<(u8, bool)>,
    /// Whether the last thing written is a line's prefix (and marker, and
    /// heading marker): the next text is at the start of a line.
    pub(super) line_start: bool,
}

impl Blocks {
    pub(super) fn new() -> Blocks {
        Blocks {
            due: Due::Nothing,
            containers: Vec::new(),
            over: 0,
            shared: 0,
            heading: None,
            line_start: true,
        }
    }

    /// Asks for `due` before the next text. While an item's marker is due
    /// nothing stronger than a new line is: the item's first block goes
    /// on its marker's line (`- # Title`).
    #[inline]
    pub(super) fn ask(&mut self, due: Due) {
        let due = if due > Due::Line && self.marker_due() {
            Due::Line
        } else {
            due
        };
        self.due = self.due.max(due);
    }

    /// Whether the innermost item's marker is still to be written.
    fn marker_due(&self) -> bool {
        matches!(
            self.containers.last(),
            Some(Container::Item {
                state: Marker::Due,
                ..
            })
        )
    }

    /// Whether a heading's text is being written (its line takes no
    /// breaks).
    pub(super) fn in_heading_text(&self) -> bool {
        matches!(self.heading, Some((_, true)))
    }

    /// Whether a heading is open (its `#`s written or not).
    pub(super) fn in_heading(&self) -> bool {
        self.heading.is_some()
    }

    /// A heading of `level` begins.
    pub(super) fn start_heading(&mut self, level: u8) {
        self.ask(Due::Blank);
        self.heading = Some((level, false));
    }

    /// The heading ends: a `#` run it ends with is escaped (CommonMark
    /// would read it as the optional closing sequence).
    pub(super) fn end_heading(&mut self, out: &mut String) {
        if let Some((_, true)) = self.heading {
            let hashes = out.len() - out.trim_end_matches('#').len();
            let before = out.len() - hashes;
            if hashes > 0 && out[..before].ends_with(' ') {
                out.insert(before, '\\');
            }
        }
        self.heading = None;
        self.ask(Due::Blank);
    }

    /// Pushes a container (past [`MAX_DEPTH`], counts it).
    pub(super) fn push(&mut self, container: Container) {
        if self.containers.len() < MAX_DEPTH {
            self.containers.push(container);
        } else {
            self.over += 1;
        }
    }

    /// Pops containers down to and including the innermost that `is`
    /// says is the one, if any is open (an end tag with none open is
    /// ignored). Returns whether one was.
    pub(super) fn pop_to(&mut self, is: impl Fn(&Container) -> bool) -> bool {
        if self.over > 0 {
            self.over -= 1;
            return true;
        }
        match self.containers.iter().rposition(is) {
            Some(at) => {
                self.truncate(at);
                true
            }
            None => false,
        }
    }

    /// How many containers are open (for undoing those opened inside a
    /// table cell).
    pub(super) fn depth(&self) -> usize {
        self.containers.len()
    }

    /// Pops the containers opened since there were `depth`.
    pub(super) fn truncate(&mut self, depth: usize) {
        self.containers.truncate(depth);
        self.shared = self.shared.min(self.containers.len());
        self.over = 0;
    }

    /// Whether a list is open (a `<li>` outside one is a block).
    pub(super) fn in_list(&self) -> bool {
        self.containers
            .iter()
            .any(|c| matches!(c, Container::List(..)))
    }

    /// Whether the innermost container is an item (a list inside one
    /// is set off by a new line, not a blank line).
    pub(super) fn in_item(&self) -> bool {
        self.containers
            .iter()
            .rev()
            .find(|c| !matches!(c, Container::List(..)))
            .is_some_and(|c| matches!(c, Container::Item { .. }))
    }

    /// A list item begins: the item open in the innermost list (and what
    /// was left open in it) ends, and its number is taken from the list
    /// (`value` sets it, and the numbers after it).
    pub(super) fn start_item(&mut self, value: Option<u32>) {
        if self.over > 0 {
            return;
        }
        let Some(list) = self
            .containers
            .iter()
            .rposition(|c| matches!(c, Container::List(..)))
        else {
            return;
        };
        self.truncate(list + 1);
        let Container::List(kind, items) = &mut self.containers[list] else {
            return;
        };
        let number = match kind {
            ListKind::Ordered(next) => {
                let n = value.unwrap_or(*next).min(MAX_NUMBER);
                *next = n.saturating_add(1).min(MAX_NUMBER);
                Some(n)
            }
            ListKind::Bullet => None,
        };
        // Only a bullet or a `1.` may interrupt a paragraph.
        let due = match (*items, number) {
            (Items::None, Some(n)) if n != 1 => Due::Blank,
            _ => Due::Line,
        };
        self.ask(due);
        self.push(Container::Item {
            number,
            state: Marker::Due,
        });
    }

    /// Writes what is due before text at a line's start or inside one:
    /// the separator, the containers' prefix, the items' markers and the
    /// heading's `#`s. `flat` (a table cell, a heading's content) turns
    /// every break into a space. Returns whether it wrote a marker.
    #[inline(always)]
    pub(super) fn begin(&mut self, out: &mut String, flat: bool) -> bool {
        // Most often (inline markup due before a word): at most a space,
        // flat or not, and no heading's `#`s waiting.
        if self.due <= Due::Space && !matches!(self.heading, Some((_, false))) {
            if self.due == Due::Space && !self.line_start {
                out.push(' ');
            }
            self.due = Due::Nothing;
            return false;
        }
        self.begin_lines(out, flat)
    }

    /// [`Blocks::begin`] when a line break is due, or a heading's `#`s.
    #[inline(never)]
    fn begin_lines(&mut self, out: &mut String, flat: bool) -> bool {
        let due = core::mem::replace(&mut self.due, Due::Nothing);
        if flat {
            if due != Due::Nothing && !self.line_start {
                out.push(' ');
            }
            return false;
        }
        match due {
            Due::Nothing => {
                self.heading_marker(out);
                return false;
            }
            Due::HardBreak if self.line_start => {
                self.heading_marker(out);
                return false;
            }
            Due::Space => {
                if !self.line_start {
                    out.push(' ');
                }
                self.heading_marker(out);
                return false;
            }
            Due::HardBreak | Due::Line | Due::Blank => {}
        }
        // Nothing written yet: no separator at the top.
        if !out.is_empty() {
            match due {
                Due::HardBreak => out.push_str("\\\n"),
                Due::Line => out.push('\n'),
                _ => {
                    out.push('\n');
                    self.prefix(out, true);
                    out.push('\n');
                }
            }
        }
        let marker = self.prefix(out, false);
        self.shared = self.containers.len();
        self.line_start = true;
        self.heading_marker(out);
        marker
    }

    /// Writes a line break and the containers' prefix for a line that
    /// goes on a block already begun (a code block's, a table's).
    pub(super) fn next_line(&self, out: &mut String) {
        out.push('\n');
        for container in &self.containers {
            match container {
                Container::Quote => out.push_str("> "),
                Container::List(..) => {}
                Container::Item { number, .. } => {
                    out.push_str(spaces(number.map_or(2, |n| decimal_width(n) + 2)));
                }
            }
        }
    }

    /// Writes the heading's `#`s, if a heading's text begins.
    fn heading_marker(&mut self, out: &mut String) {
        if let Some((level, written @ false)) = &mut self.heading {
            for _ in 0..*level {
                out.push('#');
            }
            out.push(' ');
            *written = true;
            self.line_start = false;
        }
    }

    /// Writes the containers' prefix (with the markers due, unless the
    /// line is `blank`: then trimmed of trailing spaces). Returns whether
    /// a marker was written.
    fn prefix(&mut self, out: &mut String, blank: bool) -> bool {
        let start = out.len();
        let mut marker = false;
        let end = if blank {
            self.shared
        } else {
            self.containers.len()
        };
        let mut written = None;
        for (i, container) in self.containers[..end].iter_mut().enumerate() {
            match container {
                Container::Quote => out.push_str("> "),
                Container::List(..) => {}
                Container::Item { number, state } => {
                    if *state == Marker::Due && !blank {
                        match number {
                            Some(n) => {
                                push_decimal(out, *n);
                                out.push_str(". ");
                            }
                            None => out.push_str("- "),
                        }
                        *state = Marker::Written;
                        marker = true;
                        written = Some(i);
                    } else {
                        out.push_str(spaces(number.map_or(2, |n| decimal_width(n) + 2)));
                    }
                }
            }
        }
        // The list under an item whose marker is written has had an item
        // (an empty one writes none, and does not count); text written in
        // a list outside its items ends it for CommonMark, so an item
        // after it begins a list again.
        if !blank {
            if let Some(Container::List(_, items)) = self.containers[..end].last_mut() {
                *items = Items::None;
            }
        }
        if let Some(item) = written {
            if let Some(Container::List(_, items)) =
                item.checked_sub(1).map(|l| &mut self.containers[l])
            {
                *items = Items::Some;
            }
        }
        if blank {
            let kept = out[start..].trim_end_matches(' ').len();
            out.truncate(start + kept);
        }
        marker
    }
}

/// `n` spaces (an item's indentation: at most eleven).
fn spaces(n: usize) -> &'static str {
    const SPACES: &str = "            ";
    &SPACES[..n.min(SPACES.len())]
}

/// How many decimal digits `n` has.
fn decimal_width(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Writes `n` in decimal, a digit at a time (no string made and checked).
fn push_decimal(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        for n in [0, 7, 10, 99, 1_000, 4_294_967_295] {
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
        assert_eq!(decimal_width(9), 1);
        assert_eq!(decimal_width(10), 2);
        assert_eq!(decimal_width(0), 1);
    }

    #[test]
    fn separators_and_prefixes() {
        let mut b = Blocks::new();
        let mut out = String::new();
        b.push(Container::Quote);
        b.push(Container::List(ListKind::Ordered(3), Items::None));
        b.start_item(None);
        b.begin(&mut out, false);
        out.push('a');
        b.ask(Due::Blank);
        b.begin(&mut out, false);
        out.push('b');
        assert_eq!(out, "> 3. a\n>\n>    b");
    }
}
