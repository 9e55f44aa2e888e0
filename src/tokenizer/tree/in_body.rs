//! The ["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)
//! insertion mode, the one the standard writes at the greatest length.

use super::modes::{is_head_element, is_hidden_input};
use super::stack::Scope;
use super::{Chars, Flow, Mode, RuleTag, RuleToken, Tree};
use crate::element::Element::{self, *};
use crate::element::categories::Namespace;
use crate::tokenizer::State;

use Flow::Done;

impl Tree {
    /// ["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody).
    pub(super) fn in_body(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Chars(Chars::Null) | RuleToken::Doctype { .. } => Done,
            RuleToken::Chars(kind) => {
                self.reconstruct_formatting();
                if kind == Chars::Other {
                    self.frameset_ok = false;
                }
                Done
            }
            RuleToken::Start(t) => self.in_body_start(tok, &t),
            RuleToken::End(t) => self.in_body_end(tok, &t),
        }
    }

    /// "In body", a start tag.
    pub(super) fn in_body_start(&mut self, tok: RuleToken<'_>, t: &RuleTag<'_>) -> Flow {
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
                    n.ns == Namespace::Html && matches!(n.element, H1 | H2 | H3 | H4 | H5 | H6)
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
                        && !(node.ns == Namespace::Html
                            && matches!(node.element, Address | Div | P))
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
                self.insert_void(&RuleTag::named(if t.is(Image) { Img } else { t.element }));
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
                let ns = if t.is(Math) {
                    Namespace::MathMl
                } else {
                    Namespace::Svg
                };
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
    pub(super) fn in_body_end(&mut self, tok: RuleToken<'_>, t: &RuleTag<'_>) -> Flow {
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
                if self.in_scope_where(Scope::Default, |n| {
                    n.ns == Namespace::Html && heading(n.element)
                }) {
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
                self.insert_void(&RuleTag::named(Br));
                self.frameset_ok = false;
            }
            _ => self.any_other_end_tag(t),
        }
        Done
    }
}
