//! The table insertion modes: from
//! ["in table"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable)
//! to ["in cell"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intd).

use super::modes::is_hidden_input;
use super::stack::Scope;
use super::{Chars, Flow, Mode, RuleTag, RuleToken, Tree};
use crate::element::Element::{self, *};
use crate::element::categories::Namespace;

use Flow::{Again, Done};

impl Tree {
    /// ["in table"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable).
    pub(super) fn in_table(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Chars(_)
                if self.current().is_some_and(|n| {
                    n.ns == Namespace::Html
                        && matches!(n.element, Table | Tbody | Template | Tfoot | Thead | Tr)
                        // (html5ever 0.40 leaves out `template`.)
                        && !(self.html5ever && n.element == Template)
                }) =>
            {
                self.pending_other = false;
                self.original = self.mode;
                self.again_in(Mode::InTableText)
            }
            RuleToken::Doctype { .. } => Done,
            RuleToken::Start(t) => match t.element {
                Caption => {
                    self.clear_back_to(&[Table]);
                    self.push_marker();
                    self.insert(&t);
                    self.mode = Mode::InCaption;
                    Done
                }
                Colgroup => {
                    self.clear_back_to(&[Table]);
                    self.insert(&t);
                    self.mode = Mode::InColumnGroup;
                    Done
                }
                Col => {
                    self.clear_back_to(&[Table]);
                    self.insert(&RuleTag::named(Colgroup));
                    self.again_in(Mode::InColumnGroup)
                }
                Tbody | Tfoot | Thead => {
                    self.clear_back_to(&[Table]);
                    self.insert(&t);
                    self.mode = Mode::InTableBody;
                    Done
                }
                Td | Th | Tr => {
                    self.clear_back_to(&[Table]);
                    self.insert(&RuleTag::named(Tbody));
                    self.again_in(Mode::InTableBody)
                }
                Table => {
                    if !self.in_scope(Scope::Table, Table) {
                        return Done;
                    }
                    self.pop_until(Table);
                    self.reset_insertion_mode();
                    Again
                }
                Style | Script | Template => self.in_head(tok),
                Input if is_hidden_input(&t) => {
                    self.insert_void(&t);
                    Done
                }
                Form => {
                    if self.open_templates == 0 && self.form.is_none() {
                        let id = self.insert(&t);
                        self.form = Some(id);
                        self.pop();
                    }
                    Done
                }
                _ => self.in_body(tok),
            },
            RuleToken::End(t) => match t.element {
                Table => {
                    if self.in_scope(Scope::Table, Table) {
                        self.pop_until(Table);
                        self.reset_insertion_mode();
                    }
                    Done
                }
                Body | Caption | Col | Colgroup | Html | Tbody | Td | Tfoot | Th | Thead | Tr => {
                    Done
                }
                Template => self.in_head(tok),
                _ => self.in_body(tok),
            },
            RuleToken::Chars(_) => self.in_body(tok),
        }
    }

    /// ["in table text"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intabletext).
    pub(super) fn in_table_text(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Chars(Chars::Null) => Done,
            RuleToken::Chars(kind) => {
                self.pending_other |= kind == Chars::Other;
                Done
            }
            _ => {
                self.end_table_text();
                Again
            }
        }
    }

    /// "In table text", anything else: the pending characters are
    /// inserted, and the original insertion mode is back.
    pub(super) fn end_table_text(&mut self) {
        if self.pending_other {
            // "In table", anything else: "in body" with foster parenting,
            // for each character.
            self.reconstruct_formatting();
            self.frameset_ok = false;
        }
        self.pending_other = false;
        self.mode = self.original;
    }

    /// ["in caption"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incaption).
    pub(super) fn in_caption(&mut self, tok: RuleToken<'_>) -> Flow {
        let closes = match tok {
            RuleToken::End(t) if t.is(Caption) => Some(Done),
            RuleToken::Start(t)
                if matches!(
                    t.element,
                    Caption | Col | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr
                ) =>
            {
                Some(Again)
            }
            RuleToken::End(t) if t.is(Table) => Some(Again),
            RuleToken::End(t)
                if matches!(
                    t.element,
                    Body | Col | Colgroup | Html | Tbody | Td | Tfoot | Th | Thead | Tr
                ) =>
            {
                return Done;
            }
            _ => None,
        };
        let Some(flow) = closes else {
            return self.in_body(tok);
        };
        if !self.in_scope(Scope::Table, Caption) {
            return Done;
        }
        self.generate_implied_end_tags(None);
        self.pop_until(Caption);
        self.clear_formatting_to_marker();
        self.mode = Mode::InTable;
        flow
    }

    /// ["in column group"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incolgroup).
    pub(super) fn in_column_group(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Chars(Chars::Space) | RuleToken::Doctype { .. } => return Done,
            RuleToken::Start(t) if t.is(Html) => return self.in_body(tok),
            RuleToken::Start(t) if t.is(Col) => {
                self.insert_void(&t);
                return Done;
            }
            RuleToken::End(t) if t.is(Colgroup) => {
                if self.current_is(Colgroup) {
                    self.pop();
                    self.mode = Mode::InTable;
                }
                return Done;
            }
            RuleToken::End(t) if t.is(Col) => return Done,
            RuleToken::Start(t) | RuleToken::End(t) if t.is(Template) => return self.in_head(tok),
            _ => {}
        }
        if !self.current_is(Colgroup) {
            return Done;
        }
        self.pop();
        self.again_in(Mode::InTable)
    }

    /// ["in table body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intbody).
    pub(super) fn in_table_body(&mut self, tok: RuleToken<'_>) -> Flow {
        const CONTEXT: &[Element] = &[Tbody, Tfoot, Thead];
        match tok {
            RuleToken::Start(t) if t.is(Tr) => {
                self.clear_back_to(CONTEXT);
                self.insert(&t);
                self.mode = Mode::InRow;
                Done
            }
            RuleToken::Start(t) if matches!(t.element, Th | Td) => {
                self.clear_back_to(CONTEXT);
                self.insert(&RuleTag::named(Tr));
                self.again_in(Mode::InRow)
            }
            RuleToken::End(t) if matches!(t.element, Tbody | Tfoot | Thead) => {
                if self.in_scope(Scope::Table, t.element) {
                    self.clear_back_to(CONTEXT);
                    self.pop();
                    self.mode = Mode::InTable;
                }
                Done
            }
            RuleToken::Start(t)
                if matches!(t.element, Caption | Col | Colgroup | Tbody | Tfoot | Thead) =>
            {
                self.leave_table_body()
            }
            RuleToken::End(t) if t.is(Table) => self.leave_table_body(),
            RuleToken::End(t)
                if matches!(
                    t.element,
                    Body | Caption | Col | Colgroup | Html | Td | Th | Tr
                ) =>
            {
                Done
            }
            _ => self.in_table(tok),
        }
    }

    /// "In table body": closes the table section, if one is open, and asks
    /// for the token again "in table".
    pub(super) fn leave_table_body(&mut self) -> Flow {
        // (html5ever 0.40: `table`, `tbody`, `tfoot`.)
        let html5ever = self.html5ever;
        let section = |n: &super::Node| {
            n.ns == Namespace::Html
                && if html5ever {
                    matches!(n.element, Table | Tbody | Tfoot)
                } else {
                    matches!(n.element, Tbody | Thead | Tfoot)
                }
        };
        if !self.in_scope_where(Scope::Table, section) {
            return Done;
        }
        self.clear_back_to(&[Tbody, Tfoot, Thead]);
        self.pop();
        self.again_in(Mode::InTable)
    }

    /// ["in row"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intr).
    pub(super) fn in_row(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Start(t) if matches!(t.element, Th | Td) => {
                self.clear_back_to(&[Tr]);
                self.insert(&t);
                self.mode = Mode::InCell;
                self.push_marker();
                Done
            }
            RuleToken::End(t) if t.is(Tr) => {
                if self.in_scope(Scope::Table, Tr) {
                    self.clear_back_to(&[Tr]);
                    self.pop();
                    self.mode = Mode::InTableBody;
                }
                Done
            }
            RuleToken::Start(t)
                if matches!(
                    t.element,
                    Caption | Col | Colgroup | Tbody | Tfoot | Thead | Tr
                ) =>
            {
                self.leave_row()
            }
            RuleToken::End(t) if t.is(Table) => self.leave_row(),
            RuleToken::End(t) if matches!(t.element, Tbody | Tfoot | Thead) => {
                if !self.in_scope(Scope::Table, t.element) {
                    return Done;
                }
                self.leave_row()
            }
            RuleToken::End(t)
                if matches!(t.element, Body | Caption | Col | Colgroup | Html | Td | Th) =>
            {
                Done
            }
            _ => self.in_table(tok),
        }
    }

    /// "In row": closes the row, if one is open, and asks for the token
    /// again "in table body".
    pub(super) fn leave_row(&mut self) -> Flow {
        if !self.in_scope(Scope::Table, Tr) {
            return Done;
        }
        self.clear_back_to(&[Tr]);
        self.pop();
        self.again_in(Mode::InTableBody)
    }

    /// ["in cell"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intd).
    pub(super) fn in_cell(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::End(t) if matches!(t.element, Td | Th) => {
                if self.in_scope(Scope::Table, t.element) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(t.element);
                    self.clear_formatting_to_marker();
                    self.mode = Mode::InRow;
                }
                Done
            }
            RuleToken::Start(t)
                if matches!(
                    t.element,
                    Caption | Col | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr
                ) =>
            {
                let cell =
                    |n: &super::Node| n.ns == Namespace::Html && matches!(n.element, Td | Th);
                if !self.in_scope_where(Scope::Table, cell) {
                    return Done;
                }
                self.close_cell()
            }
            RuleToken::End(t) if matches!(t.element, Body | Caption | Col | Colgroup | Html) => {
                Done
            }
            RuleToken::End(t) if matches!(t.element, Table | Tbody | Tfoot | Thead | Tr) => {
                if !self.in_scope(Scope::Table, t.element) {
                    return Done;
                }
                self.close_cell()
            }
            _ => self.in_body(tok),
        }
    }

    /// Closes the cell (["in cell"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intd)) and asks for the token again.
    pub(super) fn close_cell(&mut self) -> Flow {
        self.generate_implied_end_tags(None);
        self.pop_until_one_of(|e| matches!(e, Td | Th));
        self.clear_formatting_to_marker();
        self.again_in(Mode::InRow)
    }
}
