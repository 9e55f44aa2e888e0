//! Tables as GitHub's pipe tables
//! ([GFM tables](https://github.github.com/gfm/#tables-extension-)).
//!
//! A pipe table's delimiter row says how many columns it has, so a table
//! is written when it ends: its cells' text is written to the output as
//! it comes (flat, on one line, `|` escaped), their places noted, and at
//! the end tag that text is taken back and laid out in rows. The first
//! row is the header (a table without `<th>` cells is given its first row
//! as one), as wide as the widest row: GFM fills shorter rows with empty
//! cells itself, and would drop the cells of a row wider than the header.
//! Text in a table outside any cell (a `<caption>`, text a browser would
//! move out of the table) is written as a paragraph before it. A table in
//! a cell is flattened into that cell.

use core::ops::Range;

use super::Markdown;
use super::blocks::{Blocks, Due};
use super::escape;

/// A cell: its row, and its text in the output since the table began.
#[derive(Clone, Debug)]
struct Cell {
    row: u32,
    text: Range<usize>,
}

/// The outermost table open, as far as it has been read.
#[derive(Debug)]
pub(super) struct Table {
    /// Where the table's text begins in the output.
    start: usize,
    /// What was due before the table, written before it at its end.
    due: Due,
    /// How many containers were open at its start (those a cell leaves
    /// open end with it).
    depth: usize,
    /// The main-content marks taken before the table began.
    pub(super) marks: usize,
    cells: Vec<Cell>,
    /// The text outside cells (captions, misplaced text).
    outside: Vec<Range<usize>>,
    row: u32,
    /// Whether the current row has a cell.
    row_used: bool,
    /// Where the text being written in the table began: in a cell, or
    /// outside one.
    open: Option<(Place, usize)>,
    /// Tables open inside cells, flattened.
    pub(super) nested: u32,
}

/// Where text in a table goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Cell,
    Outside,
}

impl Table {
    /// A table begins at `start` of the output, `due` after what came
    /// before, with `depth` containers open.
    pub(super) fn new(start: usize, due: Due, depth: usize, marks: usize) -> Table {
        Table {
            start,
            due,
            depth,
            marks,
            cells: Vec::new(),
            outside: Vec::new(),
            row: 0,
            row_used: false,
            open: None,
            nested: 0,
        }
    }

    /// How many bytes it holds besides its text (in the output).
    pub(super) fn heap_bytes(&self) -> usize {
        self.cells.capacity() * core::mem::size_of::<Cell>()
            + self.outside.capacity() * core::mem::size_of::<Range<usize>>()
    }

    /// Whether text now goes in a cell (or outside the cells).
    pub(super) fn in_cell(&self) -> bool {
        matches!(self.open, Some((Place::Cell, _)))
    }

    /// Whether text written now opens the place it goes to first (a cell
    /// or the text outside them): no separator is due before it.
    pub(super) fn place_empty(&self, out_len: usize) -> bool {
        self.open.is_none_or(|(_, at)| at == out_len)
    }

    /// Text is about to be written at `at`: outside a cell, it opens the
    /// text outside cells.
    pub(super) fn before_text(&mut self, at: usize) {
        if self.open.is_none() {
            // Before the first cell, a caption or text a browser moves
            // before the table; after it, a cell of its own, so that the
            // text keeps its place.
            if self.cells.is_empty() && !self.row_used {
                self.open = Some((Place::Outside, at));
            } else {
                self.row_used = true;
                self.open = Some((Place::Cell, at));
            }
        }
    }

    /// Ends what text was open at `end` of the output.
    fn close(&mut self, end: usize) {
        match self.open.take() {
            Some((Place::Cell, at)) => self.cells.push(Cell {
                row: self.row,
                text: at - self.start..end - self.start,
            }),
            Some((Place::Outside, at)) if at < end => {
                self.outside.push(at - self.start..end - self.start)
            }
            _ => {}
        }
    }

    /// A cell begins at `at` (the one open ends there).
    fn start_cell(&mut self, at: usize) {
        self.close(at);
        self.row_used = true;
        self.open = Some((Place::Cell, at));
    }

    /// The cell open ends at `at`.
    fn end_cell(&mut self, at: usize) {
        if self.in_cell() {
            self.close(at);
        }
    }

    /// A row begins (or ends) at `at`.
    pub(super) fn row(&mut self, at: usize) {
        self.close(at);
        if self.row_used {
            self.row += 1;
            self.row_used = false;
        }
    }

    /// Where the table's text begins in the output.
    pub(super) fn start(&self) -> usize {
        self.start
    }

    /// How many containers were open at the table's start.
    pub(super) fn depth(&self) -> usize {
        self.depth
    }

    /// The table ends: its text is taken back from `out` and written as
    /// a paragraph of the text outside cells and a pipe table, after
    /// what was due before it, in the containers of `blocks`.
    pub(super) fn write(mut self, out: &mut String, blocks: &mut Blocks) {
        self.close(out.len());
        let text = out.split_off(self.start);
        let trimmed = |r: &Range<usize>| text[r.clone()].trim_matches(' ');
        blocks.ask(self.due);
        let outside: Vec<&str> = self
            .outside
            .iter()
            .map(trimmed)
            .filter(|t| !t.is_empty())
            .collect();
        if !outside.is_empty() {
            blocks.begin(out, false);
            for (i, t) in outside.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                } else {
                    // Written flat, now at the start of a line.
                    escape::line_start(out, t);
                    continue;
                }
                out.push_str(t);
            }
            blocks.line_start = false;
            blocks.ask(Due::Blank);
        }
        if self.cells.is_empty() {
            return;
        }
        let rows = self.cells.last().map_or(0, |c| c.row as usize + 1);
        let mut widths = vec![0usize; rows];
        for cell in &self.cells {
            widths[cell.row as usize] += 1;
        }
        let columns = widths.iter().copied().max().unwrap_or(0);
        let mut cells = self.cells.iter().peekable();
        let mut first = true;
        while let Some(cell) = cells.peek() {
            let row = cell.row;
            if first {
                blocks.begin(out, false);
            } else {
                blocks.next_line(out);
            }
            out.push('|');
            let mut written = 0;
            while let Some(cell) = cells.next_if(|c| c.row == row) {
                out.push(' ');
                out.push_str(trimmed(&cell.text));
                out.push_str(" |");
                written += 1;
            }
            if first {
                for _ in written..columns {
                    out.push_str("  |");
                }
                blocks.next_line(out);
                out.push('|');
                for _ in 0..columns {
                    out.push_str(" --- |");
                }
                first = false;
            }
        }
        blocks.line_start = false;
        blocks.ask(Due::Blank);
    }
}
/// What a table tag is to the table ([`Markdown::table_part`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TablePart {
    /// `tr`, `thead`, `tbody`, `tfoot`, start or end.
    Row,
    CellStart,
    CellEnd,
}

impl Markdown {
    /// A row or cell tag: in the outermost table, the text before it ends
    /// (its markup closed; a cell's place noted, the containers opened in
    /// it closed with it); anywhere else, a space.
    pub(super) fn table_part(&mut self, part: TablePart) {
        let Some(table) = self.table.as_mut().filter(|t| t.nested == 0) else {
            return self.blocks.ask(Due::Space);
        };
        // A cell's end tag with no cell open: a break between words, as
        // in the plain text.
        if part == TablePart::CellEnd && !table.in_cell() {
            return self.blocks.ask(Due::Space);
        }
        self.inline.end_all(&mut self.out);
        let at = self.out.len();
        match part {
            TablePart::Row => return table.row(at),
            TablePart::CellStart => table.start_cell(at),
            TablePart::CellEnd => table.end_cell(at),
        }
        self.blocks.truncate(table.depth());
        if part == TablePart::CellStart {
            // A cell's text starts its place: nothing is due before it.
            self.blocks.due = Due::Nothing;
            self.blocks.line_start = true;
        }
    }

    pub(super) fn start_table(&mut self) {
        if let Some(table) = &mut self.table {
            table.nested += 1;
            self.blocks.ask(Due::Space);
            return;
        }
        if self.blocks.in_heading() || self.flat_tables > 0 {
            self.flat_tables += 1;
            self.blocks.ask(Due::Space);
            return;
        }
        self.inline.end_all(&mut self.out);
        let due = self.blocks.due.max(Due::Blank);
        self.blocks.due = Due::Nothing;
        self.table = Some(Box::new(Table::new(
            self.out.len(),
            due,
            self.blocks.depth(),
            self.marks.as_ref().map_or(0, Vec::len),
        )));
    }

    pub(super) fn end_table(&mut self) {
        if self.flat_tables > 0 {
            self.flat_tables -= 1;
            self.blocks.ask(Due::Space);
            return;
        }
        let Some(table) = &mut self.table else {
            return;
        };
        if table.nested > 0 {
            table.nested -= 1;
            self.blocks.ask(Due::Space);
            return;
        }
        self.inline.end_all(&mut self.out);
        let Some(table) = self.table.take() else {
            return;
        };
        let (start, marks) = (table.start(), table.marks);
        self.blocks.truncate(table.depth());
        table.write(&mut self.out, &mut self.blocks);
        self.settle_marks(marks, start);
    }
}
