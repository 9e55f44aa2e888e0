//! The insertion modes (§13.2.6.4) and the rules for foreign content
//! (§13.2.6.5), each as the standard words it, for what changes the parse
//! state: the stack of open elements, the list of active formatting
//! elements, the pointers, the flags and the insertion mode. What the
//! rules do to the tree alone (where a node goes, attributes added to
//! `html` and `body`, parse errors) is left out.

use super::stack::Scope;
use super::{Chars, Flow, Mode, T, Tok, Tree};
use crate::element::Element::{self, *};
use crate::tokenizer::State;
use crate::tokenizer::switch::{Ns, is_breakout};

use Flow::{Again, Done};

/// The start tags "in head" handles that "in body", "after head", "in
/// template" send there.
fn is_head_element(e: Element) -> bool {
    matches!(
        e,
        Base | Basefont | Bgsound | Link | Meta | Noframes | Script | Style | Template | Title
    )
}

/// Whether an `input` start tag has `type=hidden`.
fn is_hidden_input(t: &T<'_>) -> bool {
    t.attr("type")
        .is_some_and(|v| v.eq_ignore_ascii_case("hidden"))
}

impl Tree {
    /// Processes the token by the rules of `mode`.
    pub(super) fn in_mode(&mut self, mode: Mode, tok: Tok<'_>) -> Flow {
        match mode {
            Mode::Initial => self.initial(tok),
            Mode::BeforeHtml => self.before_html(tok),
            Mode::BeforeHead => self.before_head(tok),
            Mode::InHead => self.in_head(tok),
            Mode::InHeadNoscript => self.in_head_noscript(tok),
            Mode::AfterHead => self.after_head(tok),
            Mode::InBody => self.in_body(tok),
            Mode::Text => self.text_mode(tok),
            Mode::InTable => self.in_table(tok),
            Mode::InTableText => self.in_table_text(tok),
            Mode::InCaption => self.in_caption(tok),
            Mode::InColumnGroup => self.in_column_group(tok),
            Mode::InTableBody => self.in_table_body(tok),
            Mode::InRow => self.in_row(tok),
            Mode::InCell => self.in_cell(tok),
            Mode::InTemplate => self.in_template(tok),
            Mode::AfterBody => self.after_body(tok),
            Mode::InFrameset => self.in_frameset(tok),
            Mode::AfterFrameset => self.after_frameset(tok),
            Mode::AfterAfterBody => self.after_after_body(tok),
            Mode::AfterAfterFrameset => self.after_after_frameset(tok),
        }
    }

    /// Switches the insertion mode and asks for the token again.
    fn again_in(&mut self, mode: Mode) -> Flow {
        self.mode = mode;
        Again
    }

    /// The generic raw text and RCDATA element parsing algorithms
    /// (§13.2.6.2), and `script` "in head": the element is inserted, the
    /// tokenizer switches, the insertion mode goes to "text".
    fn raw(&mut self, t: &T<'_>, state: State) -> Flow {
        self.insert(t);
        self.switch = Some(state);
        self.original = self.mode;
        self.mode = Mode::Text;
        Done
    }

    /// §13.2.6.4.1.
    fn initial(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Chars(Chars::Space) => Done,
            Tok::Doctype { quirky } => {
                self.quirks = quirky;
                self.mode = Mode::BeforeHtml;
                Done
            }
            _ => {
                self.quirks = true;
                self.again_in(Mode::BeforeHtml)
            }
        }
    }

    /// §13.2.6.4.2.
    fn before_html(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Doctype { .. } | Tok::Chars(Chars::Space) => Done,
            Tok::Start(t) if t.is(Html) => {
                self.insert(&t);
                self.mode = Mode::BeforeHead;
                Done
            }
            Tok::End(t) if !matches!(t.element, Head | Body | Html | Br) => Done,
            _ => {
                self.insert(&T::named(Html));
                self.again_in(Mode::BeforeHead)
            }
        }
    }

    /// §13.2.6.4.3.
    fn before_head(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Chars(Chars::Space) | Tok::Doctype { .. } => Done,
            Tok::Start(t) if t.is(Html) => self.in_body(tok),
            Tok::Start(t) if t.is(Head) => {
                self.insert_head(&t);
                self.mode = Mode::InHead;
                Done
            }
            Tok::End(t) if !matches!(t.element, Head | Body | Html | Br) => Done,
            _ => {
                self.insert_head(&T::named(Head));
                self.again_in(Mode::InHead)
            }
        }
    }

    /// Inserts the `head` element and sets the head element pointer.
    fn insert_head(&mut self, t: &T<'_>) {
        self.insert(t);
        self.head = self.current().cloned();
    }

    /// §13.2.6.4.4.
    fn in_head(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Chars(Chars::Space) | Tok::Doctype { .. } => Done,
            Tok::Start(t) => match t.element {
                Html => self.in_body(tok),
                Base | Basefont | Bgsound | Link | Meta => {
                    self.insert_void(&t);
                    Done
                }
                Title => self.raw(&t, State::Rcdata),
                Noscript if self.scripting => self.raw(&t, State::Rawtext),
                Noframes | Style => self.raw(&t, State::Rawtext),
                Noscript => {
                    self.insert(&t);
                    self.mode = Mode::InHeadNoscript;
                    Done
                }
                Script => self.raw(&t, State::ScriptData),
                Template => {
                    self.insert(&t);
                    self.push_marker();
                    self.frameset_ok = false;
                    self.mode = Mode::InTemplate;
                    self.templates.push(Mode::InTemplate);
                    Done
                }
                Head => Done,
                _ => self.leave_head(),
            },
            Tok::End(t) => match t.element {
                Head => {
                    self.pop();
                    self.mode = Mode::AfterHead;
                    Done
                }
                Body | Html | Br => self.leave_head(),
                Template => {
                    if self.open_templates > 0 {
                        self.generate_all_implied_end_tags_thoroughly();
                        self.pop_until(Template);
                        self.clear_formatting_to_marker();
                        self.templates.pop();
                        self.reset_insertion_mode();
                    }
                    Done
                }
                _ => Done,
            },
            _ => self.leave_head(),
        }
    }

    /// "In head", anything else: pops the `head`, on to "after head".
    fn leave_head(&mut self) -> Flow {
        self.pop();
        self.again_in(Mode::AfterHead)
    }

    /// §13.2.6.4.5.
    fn in_head_noscript(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Doctype { .. } => Done,
            Tok::Start(t) if t.is(Html) => self.in_body(tok),
            Tok::End(t) if t.is(Noscript) => {
                self.pop();
                self.mode = Mode::InHead;
                Done
            }
            Tok::Chars(Chars::Space) => self.in_head(tok),
            Tok::Start(t)
                if matches!(
                    t.element,
                    Basefont | Bgsound | Link | Meta | Noframes | Style
                ) =>
            {
                self.in_head(tok)
            }
            Tok::Start(t) if matches!(t.element, Head | Noscript) => Done,
            Tok::End(t) if !t.is(Br) => Done,
            _ => {
                self.pop();
                self.again_in(Mode::InHead)
            }
        }
    }

    /// §13.2.6.4.6.
    fn after_head(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Chars(Chars::Space) | Tok::Doctype { .. } => Done,
            Tok::Start(t) => match t.element {
                Html => self.in_body(tok),
                Body => {
                    self.insert(&t);
                    self.frameset_ok = false;
                    self.mode = Mode::InBody;
                    Done
                }
                Frameset => {
                    self.insert(&t);
                    self.mode = Mode::InFrameset;
                    Done
                }
                e if is_head_element(e) => {
                    let Some(head) = self.head.clone() else {
                        return self.in_head(tok);
                    };
                    let id = head.id;
                    self.push(head);
                    let flow = self.in_head(tok);
                    if let Some(i) = self.position(id) {
                        self.remove_at(i);
                    }
                    flow
                }
                Head => Done,
                _ => self.open_body(),
            },
            Tok::End(t) => match t.element {
                Template => self.in_head(tok),
                Body | Html | Br => self.open_body(),
                _ => Done,
            },
            _ => self.open_body(),
        }
    }

    /// "After head", anything else: a `body` is inserted.
    fn open_body(&mut self) -> Flow {
        self.insert(&T::named(Body));
        self.again_in(Mode::InBody)
    }

    /// §13.2.6.4.7.
    pub(super) fn in_body(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Chars(Chars::Null) | Tok::Doctype { .. } => Done,
            Tok::Chars(kind) => {
                self.reconstruct_formatting();
                if kind == Chars::Other {
                    self.frameset_ok = false;
                }
                Done
            }
            Tok::Start(t) => self.in_body_start(tok, &t),
            Tok::End(t) => self.in_body_end(tok, &t),
        }
    }

    /// "In body", a start tag.
    fn in_body_start(&mut self, tok: Tok<'_>, t: &T<'_>) -> Flow {
        match t.element {
            Html => {}
            e if is_head_element(e) => return self.in_head(tok),
            Body => {
                let second_is_body = self.stack.len() > 1 && self.stack[1].is(Body);
                if second_is_body && self.open_templates == 0 {
                    self.frameset_ok = false;
                }
            }
            Frameset => {
                let second_is_body = self.stack.len() > 1 && self.stack[1].is(Body);
                if second_is_body && self.frameset_ok {
                    self.truncate(1);
                    self.insert(t);
                    self.mode = Mode::InFrameset;
                }
            }
            Address | Article | Aside | Blockquote | Center | Details | Dialog | Dir | Div | Dl
            | Fieldset | Figcaption | Figure | Footer | Header | Hgroup | Main | Menu | Nav
            | Ol | P | Search | Section | Summary | Ul => {
                self.close_p_in_button_scope();
                self.insert(t);
            }
            H1 | H2 | H3 | H4 | H5 | H6 => {
                self.close_p_in_button_scope();
                if self.current().is_some_and(|n| {
                    n.ns == Ns::Html && matches!(n.element, H1 | H2 | H3 | H4 | H5 | H6)
                }) {
                    self.pop();
                }
                self.insert(t);
            }
            Pre | Listing => {
                self.close_p_in_button_scope();
                self.insert(t);
                self.frameset_ok = false;
                self.ignore_lf = true;
            }
            Form => {
                if self.form.is_none() || self.open_templates > 0 {
                    self.close_p_in_button_scope();
                    let id = self.insert(t);
                    if self.open_templates == 0 {
                        self.form = Some(id);
                    }
                }
            }
            Li | Dd | Dt => {
                self.frameset_ok = false;
                for i in (0..self.stack.len()).rev() {
                    let node = &self.stack[i];
                    let closes = match t.element {
                        Li => node.is(Li).then_some(Li),
                        _ => [Dd, Dt].into_iter().find(|&e| node.is(e)),
                    };
                    if let Some(e) = closes {
                        self.generate_implied_end_tags(Some(e));
                        self.pop_until(e);
                        break;
                    }
                    if self.special(node)
                        && !(node.ns == Ns::Html && matches!(node.element, Address | Div | P))
                    {
                        break;
                    }
                }
                self.close_p_in_button_scope();
                self.insert(t);
            }
            Plaintext => {
                self.close_p_in_button_scope();
                self.insert(t);
                self.switch = Some(State::Plaintext);
            }
            Button => {
                if self.in_scope(Scope::Default, Button) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(Button);
                }
                self.reconstruct_formatting();
                self.insert(t);
                self.frameset_ok = false;
            }
            A => {
                if let Some(i) = self.formatting_named(t) {
                    let id = self.formatting[i].as_ref().map(|n| n.id);
                    self.adoption_agency(t);
                    if let Some(id) = id {
                        if let Some(j) = self.formatting_position(id) {
                            self.formatting.remove(j);
                        }
                        if let Some(j) = self.position(id) {
                            self.remove_at(j);
                        }
                    }
                }
                self.reconstruct_formatting();
                self.insert(t);
                self.push_formatting();
            }
            B | Big | Code | Em | Font | I | S | Small | Strike | Strong | Tt | U => {
                self.reconstruct_formatting();
                self.insert(t);
                self.push_formatting();
            }
            Nobr => {
                self.reconstruct_formatting();
                if self.in_scope(Scope::Default, Nobr) {
                    if !self.adoption_agency(t) {
                        self.any_other_end_tag(t);
                    }
                    self.reconstruct_formatting();
                }
                self.insert(t);
                self.push_formatting();
            }
            Applet | Marquee | Object => {
                self.reconstruct_formatting();
                self.insert(t);
                self.push_marker();
                self.frameset_ok = false;
            }
            Table => {
                if !self.quirks {
                    self.close_p_in_button_scope();
                }
                self.insert(t);
                self.frameset_ok = false;
                self.mode = Mode::InTable;
            }
            Area | Br | Embed | Img | Keygen | Wbr | Image => {
                self.reconstruct_formatting();
                self.insert_void(&T::named(if t.is(Image) { Img } else { t.element }));
                self.frameset_ok = false;
            }
            Input => {
                if self.in_scope(Scope::Default, Select) {
                    self.pop_until(Select);
                }
                self.reconstruct_formatting();
                self.insert_void(t);
                if !is_hidden_input(t) {
                    self.frameset_ok = false;
                }
            }
            Param | Source | Track => self.insert_void(t),
            Hr => {
                self.close_p_in_button_scope();
                if self.in_scope(Scope::Default, Select) {
                    self.generate_implied_end_tags(None);
                }
                self.insert_void(t);
                self.frameset_ok = false;
            }
            Textarea => {
                self.frameset_ok = false;
                return self.raw(t, State::Rcdata);
            }
            Xmp => {
                self.close_p_in_button_scope();
                self.reconstruct_formatting();
                self.frameset_ok = false;
                return self.raw(t, State::Rawtext);
            }
            Iframe => {
                self.frameset_ok = false;
                return self.raw(t, State::Rawtext);
            }
            Noembed => return self.raw(t, State::Rawtext),
            Noscript if self.scripting => return self.raw(t, State::Rawtext),
            Select => {
                if self.in_scope(Scope::Default, Select) {
                    self.pop_until(Select);
                } else {
                    self.reconstruct_formatting();
                    self.insert(t);
                    self.frameset_ok = false;
                }
            }
            Option | Optgroup => {
                if self.in_scope(Scope::Default, Select) {
                    let except = if t.is(Option) { Some(Optgroup) } else { None };
                    self.generate_implied_end_tags(except);
                } else if self.current_is(Option) {
                    self.pop();
                }
                self.reconstruct_formatting();
                self.insert(t);
            }
            Rb | Rtc => {
                if self.in_scope(Scope::Default, Ruby) {
                    self.generate_implied_end_tags(None);
                }
                self.insert(t);
            }
            Rp | Rt => {
                if self.in_scope(Scope::Default, Ruby) {
                    self.generate_implied_end_tags(Some(Rtc));
                }
                self.insert(t);
            }
            Math | Svg => {
                self.reconstruct_formatting();
                let ns = if t.is(Math) { Ns::MathMl } else { Ns::Svg };
                self.insert_in(ns, t);
                if t.self_closing {
                    self.pop();
                }
            }
            Caption | Col | Colgroup | Frame | Head | Tbody | Td | Tfoot | Th | Thead | Tr => {}
            _ => {
                self.reconstruct_formatting();
                self.insert(t);
            }
        }
        Done
    }

    /// "In body", an end tag.
    fn in_body_end(&mut self, tok: Tok<'_>, t: &T<'_>) -> Flow {
        match t.element {
            Template => return self.in_head(tok),
            Body => {
                if self.in_scope(Scope::Default, Body) {
                    self.mode = Mode::AfterBody;
                }
            }
            Html => {
                if self.in_scope(Scope::Default, Body) {
                    return self.again_in(Mode::AfterBody);
                }
            }
            Address | Article | Aside | Blockquote | Button | Center | Details | Dialog | Dir
            | Div | Dl | Fieldset | Figcaption | Figure | Footer | Header | Hgroup | Listing
            | Main | Menu | Nav | Ol | Pre | Search | Section | Select | Summary | Ul => {
                if self.in_scope(Scope::Default, t.element) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(t.element);
                }
            }
            Form => {
                if self.open_templates == 0 {
                    let node = self.form.take();
                    if let Some(id) = node {
                        if self.in_scope_where(Scope::Default, |n| n.id == id) {
                            self.generate_implied_end_tags(None);
                            if let Some(i) = self.position(id) {
                                self.remove_at(i);
                            }
                        }
                    }
                } else if self.in_scope(Scope::Default, Form) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(Form);
                }
            }
            P => {
                if self.in_scope(Scope::Button, P) {
                    self.close_p();
                }
            }
            Li => {
                if self.in_scope(Scope::ListItem, Li) {
                    self.generate_implied_end_tags(Some(Li));
                    self.pop_until(Li);
                }
            }
            Dd | Dt => {
                if self.in_scope(Scope::Default, t.element) {
                    self.generate_implied_end_tags(Some(t.element));
                    self.pop_until(t.element);
                }
            }
            H1 | H2 | H3 | H4 | H5 | H6 => {
                let heading = |e: Element| matches!(e, H1 | H2 | H3 | H4 | H5 | H6);
                if self.in_scope_where(Scope::Default, |n| n.ns == Ns::Html && heading(n.element)) {
                    self.generate_implied_end_tags(None);
                    self.pop_until_one_of(heading);
                }
            }
            A | B | Big | Code | Em | Font | I | Nobr | S | Small | Strike | Strong | Tt | U => {
                if !self.adoption_agency(t) {
                    self.any_other_end_tag(t);
                }
            }
            Applet | Marquee | Object => {
                if self.in_scope(Scope::Default, t.element) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(t.element);
                    self.clear_formatting_to_marker();
                }
            }
            Br => {
                self.reconstruct_formatting();
                self.insert_void(&T::named(Br));
                self.frameset_ok = false;
            }
            _ => self.any_other_end_tag(t),
        }
        Done
    }

    /// §13.2.6.4.8.
    fn text_mode(&mut self, tok: Tok<'_>) -> Flow {
        if let Tok::End(_) = tok {
            self.pop();
            self.mode = self.original;
        }
        Done
    }

    /// §13.2.6.4.9.
    fn in_table(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Chars(_)
                if self.current().is_some_and(|n| {
                    n.ns == Ns::Html
                        && matches!(n.element, Table | Tbody | Template | Tfoot | Thead | Tr)
                        // (html5ever 0.40 leaves out `template`.)
                        && !(self.html5ever && n.element == Template)
                }) =>
            {
                self.pending_other = false;
                self.original = self.mode;
                self.again_in(Mode::InTableText)
            }
            Tok::Doctype { .. } => Done,
            Tok::Start(t) => match t.element {
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
                    self.insert(&T::named(Colgroup));
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
                    self.insert(&T::named(Tbody));
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
            Tok::End(t) => match t.element {
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
            Tok::Chars(_) => self.in_body(tok),
        }
    }

    /// §13.2.6.4.10.
    fn in_table_text(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Chars(Chars::Null) => Done,
            Tok::Chars(kind) => {
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

    /// §13.2.6.4.11.
    fn in_caption(&mut self, tok: Tok<'_>) -> Flow {
        let closes = match tok {
            Tok::End(t) if t.is(Caption) => Some(Done),
            Tok::Start(t)
                if matches!(
                    t.element,
                    Caption | Col | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr
                ) =>
            {
                Some(Again)
            }
            Tok::End(t) if t.is(Table) => Some(Again),
            Tok::End(t)
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

    /// §13.2.6.4.12.
    fn in_column_group(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Chars(Chars::Space) | Tok::Doctype { .. } => return Done,
            Tok::Start(t) if t.is(Html) => return self.in_body(tok),
            Tok::Start(t) if t.is(Col) => {
                self.insert_void(&t);
                return Done;
            }
            Tok::End(t) if t.is(Colgroup) => {
                if self.current_is(Colgroup) {
                    self.pop();
                    self.mode = Mode::InTable;
                }
                return Done;
            }
            Tok::End(t) if t.is(Col) => return Done,
            Tok::Start(t) | Tok::End(t) if t.is(Template) => return self.in_head(tok),
            _ => {}
        }
        if !self.current_is(Colgroup) {
            return Done;
        }
        self.pop();
        self.again_in(Mode::InTable)
    }

    /// §13.2.6.4.13.
    fn in_table_body(&mut self, tok: Tok<'_>) -> Flow {
        const CONTEXT: &[Element] = &[Tbody, Tfoot, Thead];
        match tok {
            Tok::Start(t) if t.is(Tr) => {
                self.clear_back_to(CONTEXT);
                self.insert(&t);
                self.mode = Mode::InRow;
                Done
            }
            Tok::Start(t) if matches!(t.element, Th | Td) => {
                self.clear_back_to(CONTEXT);
                self.insert(&T::named(Tr));
                self.again_in(Mode::InRow)
            }
            Tok::End(t) if matches!(t.element, Tbody | Tfoot | Thead) => {
                if self.in_scope(Scope::Table, t.element) {
                    self.clear_back_to(CONTEXT);
                    self.pop();
                    self.mode = Mode::InTable;
                }
                Done
            }
            Tok::Start(t)
                if matches!(t.element, Caption | Col | Colgroup | Tbody | Tfoot | Thead) =>
            {
                self.leave_table_body()
            }
            Tok::End(t) if t.is(Table) => self.leave_table_body(),
            Tok::End(t)
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
    fn leave_table_body(&mut self) -> Flow {
        // (html5ever 0.40: `table`, `tbody`, `tfoot`.)
        let html5ever = self.html5ever;
        let section = |n: &super::Node| {
            n.ns == Ns::Html
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

    /// §13.2.6.4.14.
    fn in_row(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Start(t) if matches!(t.element, Th | Td) => {
                self.clear_back_to(&[Tr]);
                self.insert(&t);
                self.mode = Mode::InCell;
                self.push_marker();
                Done
            }
            Tok::End(t) if t.is(Tr) => {
                if self.in_scope(Scope::Table, Tr) {
                    self.clear_back_to(&[Tr]);
                    self.pop();
                    self.mode = Mode::InTableBody;
                }
                Done
            }
            Tok::Start(t)
                if matches!(
                    t.element,
                    Caption | Col | Colgroup | Tbody | Tfoot | Thead | Tr
                ) =>
            {
                self.leave_row()
            }
            Tok::End(t) if t.is(Table) => self.leave_row(),
            Tok::End(t) if matches!(t.element, Tbody | Tfoot | Thead) => {
                if !self.in_scope(Scope::Table, t.element) {
                    return Done;
                }
                self.leave_row()
            }
            Tok::End(t)
                if matches!(t.element, Body | Caption | Col | Colgroup | Html | Td | Th) =>
            {
                Done
            }
            _ => self.in_table(tok),
        }
    }

    /// "In row": closes the row, if one is open, and asks for the token
    /// again "in table body".
    fn leave_row(&mut self) -> Flow {
        if !self.in_scope(Scope::Table, Tr) {
            return Done;
        }
        self.clear_back_to(&[Tr]);
        self.pop();
        self.again_in(Mode::InTableBody)
    }

    /// §13.2.6.4.15.
    fn in_cell(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::End(t) if matches!(t.element, Td | Th) => {
                if self.in_scope(Scope::Table, t.element) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(t.element);
                    self.clear_formatting_to_marker();
                    self.mode = Mode::InRow;
                }
                Done
            }
            Tok::Start(t)
                if matches!(
                    t.element,
                    Caption | Col | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr
                ) =>
            {
                let cell = |n: &super::Node| n.ns == Ns::Html && matches!(n.element, Td | Th);
                if !self.in_scope_where(Scope::Table, cell) {
                    return Done;
                }
                self.close_cell()
            }
            Tok::End(t) if matches!(t.element, Body | Caption | Col | Colgroup | Html) => Done,
            Tok::End(t) if matches!(t.element, Table | Tbody | Tfoot | Thead | Tr) => {
                if !self.in_scope(Scope::Table, t.element) {
                    return Done;
                }
                self.close_cell()
            }
            _ => self.in_body(tok),
        }
    }

    /// Closes the cell (§13.2.6.4.15) and asks for the token again.
    fn close_cell(&mut self) -> Flow {
        self.generate_implied_end_tags(None);
        self.pop_until_one_of(|e| matches!(e, Td | Th));
        self.clear_formatting_to_marker();
        self.again_in(Mode::InRow)
    }

    /// §13.2.6.4.18.
    fn in_template(&mut self, tok: Tok<'_>) -> Flow {
        let mode = match tok {
            Tok::Chars(_) | Tok::Doctype { .. } => return self.in_body(tok),
            Tok::Start(t) if is_head_element(t.element) => return self.in_head(tok),
            Tok::End(t) if t.is(Template) => return self.in_head(tok),
            Tok::Start(t) => match t.element {
                Caption | Colgroup | Tbody | Tfoot | Thead => Mode::InTable,
                Col => Mode::InColumnGroup,
                Tr => Mode::InTableBody,
                Td | Th => Mode::InRow,
                _ => Mode::InBody,
            },
            Tok::End(_) => return Done,
        };
        self.templates.pop();
        self.templates.push(mode);
        self.again_in(mode)
    }

    /// §13.2.6.4.19.
    fn after_body(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Chars(Chars::Space) => self.in_body(tok),
            Tok::Doctype { .. } => Done,
            Tok::Start(t) if t.is(Html) => self.in_body(tok),
            Tok::End(t) if t.is(Html) => {
                self.mode = Mode::AfterAfterBody;
                Done
            }
            _ => self.again_in(Mode::InBody),
        }
    }

    /// §13.2.6.4.20.
    fn in_frameset(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Start(t) => match t.element {
                Html => self.in_body(tok),
                Frameset => {
                    self.insert(&t);
                    Done
                }
                Frame => {
                    self.insert_void(&t);
                    Done
                }
                Noframes => self.in_head(tok),
                _ => Done,
            },
            Tok::End(t) if t.is(Frameset) => {
                if self.stack.len() > 1 {
                    self.pop();
                    if !self.current_is(Frameset) {
                        self.mode = Mode::AfterFrameset;
                    }
                }
                Done
            }
            _ => Done,
        }
    }

    /// §13.2.6.4.21.
    fn after_frameset(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Start(t) if t.is(Html) => self.in_body(tok),
            Tok::End(t) if t.is(Html) => {
                self.mode = Mode::AfterAfterFrameset;
                Done
            }
            Tok::Start(t) if t.is(Noframes) => self.in_head(tok),
            _ => Done,
        }
    }

    /// §13.2.6.4.22.
    fn after_after_body(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Doctype { .. } | Tok::Chars(Chars::Space) => self.in_body(tok),
            Tok::Start(t) if t.is(Html) => self.in_body(tok),
            _ => self.again_in(Mode::InBody),
        }
    }

    /// §13.2.6.4.23.
    fn after_after_frameset(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Doctype { .. } | Tok::Chars(Chars::Space) => self.in_body(tok),
            Tok::Start(t) if t.is(Html) => self.in_body(tok),
            Tok::Start(t) if t.is(Noframes) => self.in_head(tok),
            _ => Done,
        }
    }

    /// §13.2.6.5, the rules for parsing tokens in foreign content.
    pub(super) fn in_foreign_content(&mut self, tok: Tok<'_>) -> Flow {
        match tok {
            Tok::Chars(Chars::Other) => {
                self.frameset_ok = false;
                Done
            }
            Tok::Chars(_) | Tok::Doctype { .. } => Done,
            Tok::Start(t) if is_breakout(t.element, t.attrs) => self.pop_to_html_content(),
            Tok::End(t) if matches!(t.element, Br | P) => self.pop_to_html_content(),
            Tok::Start(t) => {
                let ns = self.current().map_or(Ns::Html, |n| n.ns);
                self.insert_in(ns, &t);
                if t.self_closing {
                    self.pop();
                }
                Done
            }
            Tok::End(t) => {
                for i in (0..self.stack.len()).rev() {
                    if i == 0 {
                        return Done;
                    }
                    let node = &self.stack[i];
                    if i < self.stack.len() - 1 && node.ns == Ns::Html {
                        return self.in_mode(self.mode, tok);
                    }
                    if node.same_name(&t) {
                        self.truncate(i);
                        return Done;
                    }
                }
                Done
            }
        }
    }

    /// Foreign content's breakout: pops until the current node is an HTML
    /// element or an integration point, then reprocesses the token in the
    /// current insertion mode.
    fn pop_to_html_content(&mut self) -> Flow {
        while let Some(node) = self.current() {
            // (html5ever 0.40 passes an `annotation-xml` that is one.)
            let point = match node.point {
                super::Point::Html if self.html5ever => node.element != AnnotationXml,
                point => point != super::Point::None,
            };
            if node.ns == Ns::Html || point {
                break;
            }
            self.pop();
        }
        Flow::AgainInHtml
    }
}
