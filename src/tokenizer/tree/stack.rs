//! The parse state the insertion modes work on ([parse state](https://html.spec.whatwg.org/multipage/parsing.html#parse-state)): the stack of
//! open elements with its scopes and special elements, inserting and
//! popping, the list of active formatting elements (the Noah's Ark clause,
//! reconstructing, clearing to the last marker), the adoption agency
//! algorithm (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody), "in body"), the implied end tags ([closing elements that have implied end tags](https://html.spec.whatwg.org/multipage/parsing.html#closing-elements-that-have-implied-end-tags))
//! and resetting the insertion mode.

use super::{Mode, Node, Point, RuleTag, Tree};
use crate::element::Element;
use crate::element::categories::{
    Category, Namespace, has_implied_end_tag, is_formatting, is_in, is_integration_point_element,
};

/// The scopes of "has an element in scope" ([the stack of open elements](https://html.spec.whatwg.org/multipage/parsing.html#the-stack-of-open-elements)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scope {
    Default,
    ListItem,
    Button,
    Table,
}

/// Whether `node` bounds `scope` (with html5ever's sets if
/// `html5ever`: see [`Tree::html5ever`]).
fn bounds(node: &Node, scope: Scope, html5ever: bool) -> bool {
    use Element::*;
    if html5ever && node.ns == Namespace::MathMl && node.element == AnnotationXml {
        return false;
    }
    match (node.ns, scope) {
        (Namespace::Html, Scope::Table) => matches!(node.element, Html | Table | Template),
        (Namespace::Html, Scope::Default) => is_in(node.element, Category::Scope),
        (Namespace::Html, Scope::Button) => is_in(node.element, Category::ButtonScope),
        (Namespace::Html, Scope::ListItem) => is_in(node.element, Category::ListItemScope),
        (_, Scope::Table) => false,
        (ns, _) => is_integration_point_element(ns, node.element),
    }
}

/// Whether `node` is in the special category ([the stack of open elements](https://html.spec.whatwg.org/multipage/parsing.html#the-stack-of-open-elements); with html5ever's
/// set if `html5ever`: see [`Tree::html5ever`]).
fn is_special(node: &Node, html5ever: bool) -> bool {
    match node.ns {
        Namespace::Html if html5ever => match node.element {
            Element::Isindex => true,
            Element::Search => false,
            e => is_in(e, Category::Special),
        },
        Namespace::Html => is_in(node.element, Category::Special),
        ns => !html5ever && is_integration_point_element(ns, node.element),
    }
}

impl Tree {
    /// Whether `node` is in the special category.
    pub(super) fn special(&self, node: &Node) -> bool {
        is_special(node, self.html5ever)
    }

    /// The current node.
    pub(super) fn current(&self) -> Option<&Node> {
        self.stack.last()
    }

    /// Whether the current node is the HTML element `element`.
    pub(super) fn current_is(&self, element: Element) -> bool {
        self.current().is_some_and(|n| n.is(element))
    }

    /// A new element for the tag, in namespace `ns` (not yet inserted).
    pub(super) fn create(&mut self, ns: Namespace, tag: &RuleTag<'_>) -> Node {
        use Element::*;
        let element = tag.element;
        let point = match (ns, element) {
            (Namespace::Svg, ForeignObject | Desc | Title) => Point::Html,
            (Namespace::MathMl, Mi | Mo | Mn | Ms | Mtext) => Point::MathText,
            (Namespace::MathMl, AnnotationXml)
                if tag.attr("encoding").is_some_and(|e| {
                    e.eq_ignore_ascii_case("text/html")
                        || e.eq_ignore_ascii_case("application/xhtml+xml")
                }) =>
            {
                Point::Html
            }
            _ => Point::None,
        };
        let attrs = if ns == Namespace::Html && is_formatting(element) && !tag.attrs.is_empty() {
            let mut kept: Vec<_> = tag.attrs.iter().filter(|a| !a.duplicate).collect();
            kept.sort_unstable_by_key(|a| a.name);
            let mut joined = String::new();
            for a in kept {
                for part in [a.name, a.value] {
                    joined.push_str(part);
                    joined.push('\0');
                }
            }
            joined.into_boxed_str()
        } else {
            Box::default()
        };
        let name = if element == Other {
            tag.name.into()
        } else {
            Box::default()
        };
        self.next_id += 1;
        Node {
            id: self.next_id,
            ns,
            element,
            name,
            point,
            attrs,
        }
    }

    /// A clone of `node` (the adoption agency, reconstruction): a new
    /// element for the same token.
    fn clone_of(&mut self, node: &Node) -> Node {
        self.next_id += 1;
        Node {
            id: self.next_id,
            ..node.clone()
        }
    }

    /// Pushes `node` onto the stack of open elements.
    pub(super) fn push(&mut self, node: Node) {
        self.open_templates += node.is(Element::Template) as usize;
        self.open.insert(node.id);
        self.stack.push(node);
    }

    /// Inserts an HTML element for the tag; returns its id.
    pub(super) fn insert(&mut self, tag: &RuleTag<'_>) -> u32 {
        self.insert_in(Namespace::Html, tag)
    }

    /// Inserts an element for the tag in namespace `ns`; returns its id.
    pub(super) fn insert_in(&mut self, ns: Namespace, tag: &RuleTag<'_>) -> u32 {
        let node = self.create(ns, tag);
        let id = node.id;
        self.push(node);
        id
    }

    /// Inserts an HTML element for the tag and pops it at once (void
    /// elements).
    pub(super) fn insert_void(&mut self, tag: &RuleTag<'_>) {
        self.insert(tag);
        self.pop();
    }

    /// Pops the current node.
    pub(super) fn pop(&mut self) {
        if let Some(node) = self.stack.pop() {
            self.open_templates -= node.is(Element::Template) as usize;
            self.open.remove(&node.id);
        }
    }

    /// Pops every element above the first `len`.
    pub(super) fn truncate(&mut self, len: usize) {
        while self.stack.len() > len {
            self.pop();
        }
    }

    /// Removes the element at `i` from the stack, wherever it is.
    pub(super) fn remove_at(&mut self, i: usize) {
        let node = self.stack.remove(i);
        self.open_templates -= node.is(Element::Template) as usize;
        self.open.remove(&node.id);
    }

    /// Puts `node` on the stack at `i` (the adoption agency).
    fn insert_at(&mut self, i: usize, node: Node) {
        self.open.insert(node.id);
        self.stack.insert(i, node);
    }

    /// Puts `node` on the stack in place of the element at `i`, a
    /// formatting element it clones (the adoption agency).
    fn replace_at(&mut self, i: usize, node: Node) {
        self.open.remove(&self.stack[i].id);
        self.open.insert(node.id);
        self.stack[i] = node;
    }

    /// Whether the element `id` is on the stack.
    pub(super) fn is_open(&self, id: u32) -> bool {
        self.open.contains(&id)
    }

    /// Where on the stack the element `id` is.
    pub(super) fn position(&self, id: u32) -> Option<usize> {
        if !self.is_open(id) {
            return None;
        }
        self.stack.iter().rposition(|n| n.id == id)
    }

    /// Pops elements until an HTML element `element` has been popped.
    pub(super) fn pop_until(&mut self, element: Element) {
        self.pop_until_one_of(|e| e == element);
    }

    /// Pops elements until an HTML element whose element passes `test`
    /// has been popped.
    pub(super) fn pop_until_one_of(&mut self, test: impl Fn(Element) -> bool) {
        let i = self
            .stack
            .iter()
            .rposition(|n| n.ns == Namespace::Html && test(n.element));
        self.truncate(i.unwrap_or(0));
    }

    /// Whether the topmost element passing `test` is in `scope`: reached,
    /// going down from the current node, before a boundary of the scope.
    pub(super) fn in_scope_where(&self, scope: Scope, test: impl Fn(&Node) -> bool) -> bool {
        for node in self.stack.iter().rev() {
            if test(node) {
                return true;
            }
            if bounds(node, scope, self.html5ever) {
                return false;
            }
        }
        false
    }

    /// Whether an HTML element `element` is in `scope`.
    pub(super) fn in_scope(&self, scope: Scope, element: Element) -> bool {
        self.in_scope_where(scope, |n| n.is(element))
    }

    /// Generates implied end tags ([closing elements that have implied end tags](https://html.spec.whatwg.org/multipage/parsing.html#closing-elements-that-have-implied-end-tags)), except for `except`.
    pub(super) fn generate_implied_end_tags(&mut self, except: Option<Element>) {
        while let Some(node) = self.current() {
            if node.ns != Namespace::Html
                || !has_implied_end_tag(node.element)
                || Some(node.element) == except
            {
                return;
            }
            self.pop();
        }
    }

    /// Generates all implied end tags thoroughly ([closing elements that have implied end tags](https://html.spec.whatwg.org/multipage/parsing.html#closing-elements-that-have-implied-end-tags)).
    pub(super) fn generate_all_implied_end_tags_thoroughly(&mut self) {
        use Element::*;
        while let Some(node) = self.current() {
            let implied = has_implied_end_tag(node.element)
                || matches!(
                    node.element,
                    Caption | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr
                );
            if node.ns != Namespace::Html || !implied {
                return;
            }
            self.pop();
        }
    }

    /// Closes a `p` element (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)).
    pub(super) fn close_p(&mut self) {
        self.generate_implied_end_tags(Some(Element::P));
        self.pop_until(Element::P);
    }

    /// Closes a `p` element if one is in button scope.
    pub(super) fn close_p_in_button_scope(&mut self) {
        if self.in_scope(Scope::Button, Element::P) {
            self.close_p();
        }
    }

    /// Pops until the current node is one of `elements`, `template` or
    /// `html` (clearing the stack back to a table, table body or table row
    /// context: ["in table"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable) and the table modes after it).
    pub(super) fn clear_back_to(&mut self, elements: &[Element]) {
        while let Some(node) = self.current() {
            if node.ns == Namespace::Html
                && (elements.contains(&node.element)
                    || matches!(node.element, Element::Template | Element::Html))
            {
                return;
            }
            self.pop();
        }
    }

    /// Pushes a marker onto the list of active formatting elements.
    pub(super) fn push_marker(&mut self) {
        self.formatting.push(None);
    }

    /// Pushes the current node onto the list of active formatting elements
    /// ([the list of active formatting elements](https://html.spec.whatwg.org/multipage/parsing.html#the-list-of-active-formatting-elements)), with the Noah's Ark clause: of three earlier entries
    /// after the last marker with its name and attributes, the earliest
    /// goes.
    pub(super) fn push_formatting(&mut self) {
        let Some(node) = self.current().cloned() else {
            return;
        };
        let same = |other: &Node| {
            other.ns == node.ns
                && other.element == node.element
                && other.name == node.name
                && other.attrs == node.attrs
        };
        let mut count = 0;
        let mut earliest = None;
        for (i, entry) in self.formatting.iter().enumerate().rev() {
            match entry {
                None => break,
                Some(other) if same(other) => {
                    count += 1;
                    earliest = Some(i);
                }
                Some(_) => {}
            }
        }
        if count >= 3 {
            if let Some(i) = earliest {
                self.formatting.remove(i);
            }
        }
        self.formatting.push(Some(node));
    }

    /// Where on the list of active formatting elements the element `id` is.
    pub(super) fn formatting_position(&self, id: u32) -> Option<usize> {
        self.formatting
            .iter()
            .rposition(|e| e.as_ref().is_some_and(|n| n.id == id))
    }

    /// The last element on the list after its last marker that is an HTML
    /// element with the tag's name.
    pub(super) fn formatting_named(&self, tag: &RuleTag<'_>) -> Option<usize> {
        for (i, entry) in self.formatting.iter().enumerate().rev() {
            match entry {
                None => return None,
                Some(n) if n.is_html_named(tag) => return Some(i),
                Some(_) => {}
            }
        }
        None
    }

    /// Reconstructs the active formatting elements ([the list of active formatting elements](https://html.spec.whatwg.org/multipage/parsing.html#the-list-of-active-formatting-elements)).
    pub(super) fn reconstruct_formatting(&mut self) {
        let open = |tree: &Tree, entry: &Option<Node>| match entry {
            None => true,
            Some(n) => tree.is_open(n.id),
        };
        let Some(last) = self.formatting.last() else {
            return;
        };
        if open(self, last) {
            return;
        }
        let mut first = self.formatting.len() - 1;
        while first > 0 && !open(self, &self.formatting[first - 1]) {
            first -= 1;
        }
        for i in first..self.formatting.len() {
            let Some(node) = self.formatting[i].clone() else {
                continue;
            };
            let new = self.clone_of(&node);
            self.push(new.clone());
            self.formatting[i] = Some(new);
        }
    }

    /// Clears the list of active formatting elements up to the last
    /// marker.
    pub(super) fn clear_formatting_to_marker(&mut self) {
        while let Some(entry) = self.formatting.pop() {
            if entry.is_none() {
                return;
            }
        }
    }

    /// The adoption agency algorithm (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)) for an end tag (or an
    /// `a`, `nobr` start tag) with the tag's name. Returns `false` where
    /// the standard says to act as "any other end tag" instead.
    pub(super) fn adoption_agency(&mut self, tag: &RuleTag<'_>) -> bool {
        if let Some(current) = self.current() {
            if current.is_html_named(tag) && self.formatting_position(current.id).is_none() {
                self.pop();
                return true;
            }
        }
        for _ in 0..8 {
            let Some(listed) = self.formatting_named(tag) else {
                return false;
            };
            let formatting_id = self.formatting[listed].as_ref().expect("not a marker").id;
            let Some(at) = self.position(formatting_id) else {
                self.formatting.remove(listed);
                return true;
            };
            if !self.in_scope_where(Scope::Default, |n| n.id == formatting_id) {
                return true;
            }
            let Some(furthest) = (at + 1..self.stack.len()).find(|&i| self.special(&self.stack[i]))
            else {
                self.truncate(at);
                self.formatting.remove(listed);
                return true;
            };
            let furthest_id = self.stack[furthest].id;
            let formatting = self.stack[at].clone();
            let mut bookmark = listed;
            let mut last_is_furthest = true;
            let mut i = furthest;
            let mut inner = 0;
            loop {
                inner += 1;
                i -= 1;
                let node = self.stack[i].clone();
                if node.id == formatting.id {
                    break;
                }
                let mut listed_node = self.formatting_position(node.id);
                if inner > 3 {
                    if let Some(j) = listed_node.take() {
                        self.formatting.remove(j);
                        if j < bookmark {
                            bookmark -= 1;
                        }
                    }
                }
                let Some(j) = listed_node else {
                    self.remove_at(i);
                    continue;
                };
                let new = self.clone_of(&node);
                self.formatting[j] = Some(new.clone());
                self.replace_at(i, new);
                if last_is_furthest {
                    bookmark = j + 1;
                }
                last_is_furthest = false;
            }
            let new = self.clone_of(&formatting);
            let j = self.formatting_position(formatting.id).expect("listed");
            self.formatting.remove(j);
            if j < bookmark {
                bookmark -= 1;
            }
            self.formatting.insert(bookmark, Some(new.clone()));
            let at = self.position(formatting.id).expect("open");
            self.remove_at(at);
            let furthest = self.position(furthest_id).expect("open");
            self.insert_at(furthest + 1, new);
        }
        true
    }

    /// "Any other end tag" of "in body" (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)).
    pub(super) fn any_other_end_tag(&mut self, tag: &RuleTag<'_>) {
        for i in (0..self.stack.len()).rev() {
            let node = &self.stack[i];
            if node.is_html_named(tag) {
                let except = if tag.element == Element::Other {
                    None
                } else {
                    Some(tag.element)
                };
                self.generate_implied_end_tags(except);
                self.truncate(i);
                return;
            }
            if self.special(node) {
                return;
            }
        }
    }

    /// Resets the insertion mode appropriately ([the insertion mode](https://html.spec.whatwg.org/multipage/parsing.html#the-insertion-mode)).
    pub(super) fn reset_insertion_mode(&mut self) {
        use Element::*;
        for i in (0..self.stack.len()).rev() {
            let last = i == 0;
            let node = &self.stack[i];
            let mode = match (node.ns, node.element) {
                (Namespace::Html, Td | Th) if !last => Some(Mode::InCell),
                (Namespace::Html, Tr) => Some(Mode::InRow),
                (Namespace::Html, Tbody | Thead | Tfoot) => Some(Mode::InTableBody),
                (Namespace::Html, Caption) => Some(Mode::InCaption),
                (Namespace::Html, Colgroup) => Some(Mode::InColumnGroup),
                (Namespace::Html, Table) => Some(Mode::InTable),
                (Namespace::Html, Template) => self.templates.last().copied(),
                (Namespace::Html, Head) if !last => Some(Mode::InHead),
                (Namespace::Html, Body) => Some(Mode::InBody),
                (Namespace::Html, Frameset) => Some(Mode::InFrameset),
                (Namespace::Html, Html) => Some(if self.head.is_none() {
                    Mode::BeforeHead
                } else {
                    Mode::AfterHead
                }),
                _ if last => Some(Mode::InBody),
                _ => None,
            };
            if let Some(mode) = mode {
                self.mode = mode;
                return;
            }
        }
        self.mode = Mode::InBody;
    }
}
