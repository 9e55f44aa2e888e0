//! The insertion modes, each as the standard words it (see
//! [the insertion mode](https://html.spec.whatwg.org/multipage/parsing.html#the-insertion-mode)),
//! for what changes the parse state: the stack of open elements, the list
//! of active formatting elements, the pointers, the flags and the insertion
//! mode. What the rules do to the tree alone (where a node goes, attributes
//! added to `html` and `body`, parse errors) is left out.
//!
//! This file has the dispatch by mode and the modes before and after the
//! body; "in body" (`in_body.rs`), the table modes (`tables.rs`) and the
//! rules for foreign content (`foreign.rs`) have files of their own.

use super::{Chars, Flow, Mode, RuleTag, RuleToken, Tree};
use crate::element::Element::{self, *};
use crate::tokenizer::State;

use Flow::{Again, Done};

/// The start tags "in head" handles that "in body", "after head", "in
/// template" send there.
pub(super) fn is_head_element(e: Element) -> bool {
    matches!(
        e,
        Base | Basefont | Bgsound | Link | Meta | Noframes | Script | Style | Template | Title
    )
}

/// Whether an `input` start tag has `type=hidden`.
pub(super) fn is_hidden_input(t: &RuleTag<'_>) -> bool {
    t.attr("type")
        .is_some_and(|v| v.eq_ignore_ascii_case("hidden"))
}

impl Tree {
    /// Processes the token by the rules of `mode`.
    pub(super) fn in_mode(&mut self, mode: Mode, tok: RuleToken<'_>) -> Flow {
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
    pub(super) fn again_in(&mut self, mode: Mode) -> Flow {
        self.mode = mode;
        Again
    }

    /// The generic raw text and RCDATA element parsing algorithms
    /// ([parsing elements that contain only text](https://html.spec.whatwg.org/multipage/parsing.html#parsing-elements-that-contain-only-text)), and `script` "in head": the element is inserted, the
    /// tokenizer switches, the insertion mode goes to "text".
    pub(super) fn raw(&mut self, t: &RuleTag<'_>, state: State) -> Flow {
        self.insert(t);
        self.switch = Some(state);
        self.original = self.mode;
        self.mode = Mode::Text;
        Done
    }

    /// ["initial"](https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode).
    pub(super) fn initial(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Chars(Chars::Space) => Done,
            RuleToken::Doctype { quirky } => {
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

    /// ["before html"](https://html.spec.whatwg.org/multipage/parsing.html#the-before-html-insertion-mode).
    pub(super) fn before_html(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Doctype { .. } | RuleToken::Chars(Chars::Space) => Done,
            RuleToken::Start(t) if t.is(Html) => {
                self.insert(&t);
                self.mode = Mode::BeforeHead;
                Done
            }
            RuleToken::End(t) if !matches!(t.element, Head | Body | Html | Br) => Done,
            _ => {
                self.insert(&RuleTag::named(Html));
                self.again_in(Mode::BeforeHead)
            }
        }
    }

    /// ["before head"](https://html.spec.whatwg.org/multipage/parsing.html#the-before-head-insertion-mode).
    pub(super) fn before_head(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Chars(Chars::Space) | RuleToken::Doctype { .. } => Done,
            RuleToken::Start(t) if t.is(Html) => self.in_body(tok),
            RuleToken::Start(t) if t.is(Head) => {
                self.insert_head(&t);
                self.mode = Mode::InHead;
                Done
            }
            RuleToken::End(t) if !matches!(t.element, Head | Body | Html | Br) => Done,
            _ => {
                self.insert_head(&RuleTag::named(Head));
                self.again_in(Mode::InHead)
            }
        }
    }

    /// Inserts the `head` element and sets the head element pointer.
    pub(super) fn insert_head(&mut self, t: &RuleTag<'_>) {
        self.insert(t);
        self.head = self.current().cloned();
    }

    /// ["in head"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead).
    pub(super) fn in_head(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Chars(Chars::Space) | RuleToken::Doctype { .. } => Done,
            RuleToken::Start(t) => match t.element {
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
            RuleToken::End(t) => match t.element {
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
    pub(super) fn leave_head(&mut self) -> Flow {
        self.pop();
        self.again_in(Mode::AfterHead)
    }

    /// ["in head noscript"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inheadnoscript).
    pub(super) fn in_head_noscript(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Doctype { .. } => Done,
            RuleToken::Start(t) if t.is(Html) => self.in_body(tok),
            RuleToken::End(t) if t.is(Noscript) => {
                self.pop();
                self.mode = Mode::InHead;
                Done
            }
            RuleToken::Chars(Chars::Space) => self.in_head(tok),
            RuleToken::Start(t)
                if matches!(
                    t.element,
                    Basefont | Bgsound | Link | Meta | Noframes | Style
                ) =>
            {
                self.in_head(tok)
            }
            RuleToken::Start(t) if matches!(t.element, Head | Noscript) => Done,
            RuleToken::End(t) if !t.is(Br) => Done,
            _ => {
                self.pop();
                self.again_in(Mode::InHead)
            }
        }
    }

    /// ["after head"](https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode).
    pub(super) fn after_head(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Chars(Chars::Space) | RuleToken::Doctype { .. } => Done,
            RuleToken::Start(t) => match t.element {
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
            RuleToken::End(t) => match t.element {
                Template => self.in_head(tok),
                Body | Html | Br => self.open_body(),
                _ => Done,
            },
            _ => self.open_body(),
        }
    }

    /// "After head", anything else: a `body` is inserted.
    pub(super) fn open_body(&mut self) -> Flow {
        self.insert(&RuleTag::named(Body));
        self.again_in(Mode::InBody)
    }

    /// ["text"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incdata).
    pub(super) fn text_mode(&mut self, tok: RuleToken<'_>) -> Flow {
        if let RuleToken::End(_) = tok {
            self.pop();
            self.mode = self.original;
        }
        Done
    }

    /// ["in template"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intemplate).
    pub(super) fn in_template(&mut self, tok: RuleToken<'_>) -> Flow {
        let mode = match tok {
            RuleToken::Chars(_) | RuleToken::Doctype { .. } => return self.in_body(tok),
            RuleToken::Start(t) if is_head_element(t.element) => return self.in_head(tok),
            RuleToken::End(t) if t.is(Template) => return self.in_head(tok),
            RuleToken::Start(t) => match t.element {
                Caption | Colgroup | Tbody | Tfoot | Thead => Mode::InTable,
                Col => Mode::InColumnGroup,
                Tr => Mode::InTableBody,
                Td | Th => Mode::InRow,
                _ => Mode::InBody,
            },
            RuleToken::End(_) => return Done,
        };
        self.templates.pop();
        self.templates.push(mode);
        self.again_in(mode)
    }

    /// ["after body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-afterbody).
    pub(super) fn after_body(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Chars(Chars::Space) => self.in_body(tok),
            RuleToken::Doctype { .. } => Done,
            RuleToken::Start(t) if t.is(Html) => self.in_body(tok),
            RuleToken::End(t) if t.is(Html) => {
                self.mode = Mode::AfterAfterBody;
                Done
            }
            _ => self.again_in(Mode::InBody),
        }
    }

    /// ["in frameset"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inframeset).
    pub(super) fn in_frameset(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Start(t) => match t.element {
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
            RuleToken::End(t) if t.is(Frameset) => {
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

    /// ["after frameset"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-afterframeset).
    pub(super) fn after_frameset(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Start(t) if t.is(Html) => self.in_body(tok),
            RuleToken::End(t) if t.is(Html) => {
                self.mode = Mode::AfterAfterFrameset;
                Done
            }
            RuleToken::Start(t) if t.is(Noframes) => self.in_head(tok),
            _ => Done,
        }
    }

    /// ["after after body"](https://html.spec.whatwg.org/multipage/parsing.html#the-after-after-body-insertion-mode).
    pub(super) fn after_after_body(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Doctype { .. } | RuleToken::Chars(Chars::Space) => self.in_body(tok),
            RuleToken::Start(t) if t.is(Html) => self.in_body(tok),
            _ => self.again_in(Mode::InBody),
        }
    }

    /// ["after after frameset"](https://html.spec.whatwg.org/multipage/parsing.html#the-after-after-frameset-insertion-mode).
    pub(super) fn after_after_frameset(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Doctype { .. } | RuleToken::Chars(Chars::Space) => self.in_body(tok),
            RuleToken::Start(t) if t.is(Html) => self.in_body(tok),
            RuleToken::Start(t) if t.is(Noframes) => self.in_head(tok),
            _ => Done,
        }
    }
}
