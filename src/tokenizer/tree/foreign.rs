//! The [rules for parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign).

use super::{Chars, Flow, RuleToken, Tree};
use crate::element::Element::*;
use crate::element::categories::{Namespace, is_breakout};

use Flow::Done;

impl Tree {
    /// [the rules for parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign), the rules for parsing tokens in foreign content.
    pub(super) fn in_foreign_content(&mut self, tok: RuleToken<'_>) -> Flow {
        match tok {
            RuleToken::Chars(Chars::Other) => {
                self.frameset_ok = false;
                Done
            }
            RuleToken::Chars(_) | RuleToken::Doctype { .. } => Done,
            RuleToken::Start(t) if is_breakout(t.element, t.attribute_names()) => {
                self.pop_to_html_content()
            }
            RuleToken::End(t) if matches!(t.element, Br | P) => self.pop_to_html_content(),
            RuleToken::Start(t) => {
                let ns = self.current().map_or(Namespace::Html, |n| n.ns);
                self.insert_in(ns, &t);
                if t.self_closing {
                    self.pop();
                }
                Done
            }
            RuleToken::End(t) => {
                for i in (0..self.stack.len()).rev() {
                    if i == 0 {
                        return Done;
                    }
                    let node = &self.stack[i];
                    if i < self.stack.len() - 1 && node.ns == Namespace::Html {
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
    pub(super) fn pop_to_html_content(&mut self) -> Flow {
        while let Some(node) = self.current() {
            // (html5ever 0.40 passes an `annotation-xml` that is one.)
            let point = match node.point {
                super::Point::Html if self.html5ever => node.element != AnnotationXml,
                point => point != super::Point::None,
            };
            if node.ns == Namespace::Html || point {
                break;
            }
            self.pop();
        }
        Flow::AgainInHtml
    }
}
