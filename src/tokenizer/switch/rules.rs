//! The rules the approximation follows: what a start tag switches to and
//! what it opens or closes, and what an end tag closes, on the stack of
//! foreign content and the HTML elements open at its integration points
//! ("in body" and "in foreign content", as far as the module docs of
//! `switch` say).

use super::Listen;
use super::stack::{ANNOTATION_XML_HTML, Approximation, Entry, FramesetMode, NONE, TemplateMode};
use crate::element::Element;
use crate::element::categories::{
    Category, Namespace, has_implied_end_tag, is_breakout, opens_nothing_in_body,
};
use crate::token::Tag;
use crate::tokenizer::State;

impl Approximation {
    /// [`Self::start_tag`] for a tag that may switch (out of line: most
    /// tags do not get here).
    #[inline(never)]
    pub(super) fn start_tag_switching(&mut self, tag: &Tag<'_>, scripting: bool) -> Option<State> {
        let (name, element) = (tag.name, tag.element);
        if self.frameset == FramesetMode::In {
            // "in frameset" and after: `noframes` goes to "in head"; every
            // other start tag that switches is ignored.
            return (element == Element::Noframes).then_some(State::Rawtext);
        }
        if let Some(&Entry { ns, .. }) = self
            .stack
            .last()
            .filter(|top| top.ns != Namespace::Html && !self.top_is_integration_point(element))
        {
            if is_breakout(tag.element, attribute_names(tag)) {
                self.pop_to_html_content();
            } else {
                if !tag.self_closing {
                    let entry = if ns == Namespace::MathMl
                        && element == Element::AnnotationXml
                        && tag.attr_value("encoding").is_some_and(|e| {
                            e.eq_ignore_ascii_case("text/html")
                                || e.eq_ignore_ascii_case("application/xhtml+xml")
                        }) {
                        ANNOTATION_XML_HTML
                    } else {
                        name
                    };
                    self.push(ns, element, entry);
                }
                return None;
            }
        }
        if let Some(mode) = self.templates.last_mut() {
            // A template is the current node while its mode is one of
            // these (nothing else opens in it).
            match *mode {
                // "in column group" ignores all but `col` (which opens
                // nothing) and `template`.
                TemplateMode::ColumnGroup if element != Element::Template => return None,
                // "in template" (["in template"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intemplate)): the first start tag not
                // for "in head" chooses the mode.
                TemplateMode::Fresh => {
                    use Element::*;
                    match element {
                        Base | Basefont | Bgsound | Link | Meta | Noframes | Script | Style
                        | Template | Title => {}
                        Col => *mode = TemplateMode::ColumnGroup,
                        _ => *mode = TemplateMode::Other,
                    }
                    self.update_listen();
                }
                _ => {}
            }
        }
        if self.watching {
            self.watch_start_tag(tag);
            if self.frameset == FramesetMode::In {
                return None;
            }
        }
        let open = !self.stack.is_empty();
        let switch = match element {
            Element::Svg | Element::Math => {
                if !tag.self_closing {
                    let ns = if element == Element::Svg {
                        Namespace::Svg
                    } else {
                        Namespace::MathMl
                    };
                    self.push(ns, element, name);
                }
                return None;
            }
            Element::Template => {
                self.templates.push(TemplateMode::Fresh);
                self.listen = Listen::Every;
                if open {
                    self.push(Namespace::Html, element, name);
                }
                return None;
            }
            Element::Form => {
                // "in body": ignored while the form element pointer is
                // set, outside templates.
                let in_template = !self.templates.is_empty();
                if self.form && !in_template {
                    return None;
                }
                if !in_template {
                    self.form = true;
                    self.update_listen();
                }
                if open {
                    self.close_p();
                    self.push(Namespace::Html, element, name);
                    if !in_template {
                        self.point_form_here();
                    }
                }
                return None;
            }
            Element::Title | Element::Textarea => State::Rcdata,
            Element::Style
            | Element::Xmp
            | Element::Iframe
            | Element::Noembed
            | Element::Noframes => State::Rawtext,
            Element::Noscript if scripting => State::Rawtext,
            Element::Script => State::ScriptData,
            Element::Plaintext => State::Plaintext,
            _ => {
                // Inside foreign content's integration points, remember
                // HTML elements so their end tags return to the foreign
                // element.
                if open && self.html_start_tag(element) && !opens_nothing_in_body(element) {
                    self.push(Namespace::Html, element, name);
                }
                return None;
            }
        };
        if self.watching {
            self.raw_text = true;
        }
        // Inside foreign content's integration points the raw text element
        // is open too: its end tag (the one that ends its text) closes it,
        // and nothing below it.
        if open {
            if matches!(element, Element::Xmp | Element::Plaintext) {
                self.close_p();
            }
            self.push(Namespace::Html, element, name);
        }
        Some(switch)
    }

    /// "Close a p element" if one is in button scope (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)).
    pub(super) fn close_p(&mut self) {
        let p = self.near(Category::Paragraph);
        if p != NONE && self.in_scope(p as usize, Category::ButtonScope) {
            self.pop_to(p as usize);
        }
    }

    /// What an HTML start tag closes first "in body" (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)), on the
    /// stack of foreign content's integration points: an open `p` in
    /// button scope before a block, a heading on a heading, the list item
    /// before another, a `button` before another, and the select
    /// parser's rules (an open `select` in scope closes before a `select`
    /// or an `input`, and the implied end tags in it before an `option`,
    /// `optgroup` or `hr`; outside one an `option` or `optgroup` closes
    /// an `option` that is the current node). (The other start tags that
    /// close elements close formatting elements, which are not followed:
    /// see the module docs.) False if the tag is ignored (a `select` in
    /// a `select`, which only closes it).
    pub(super) fn html_start_tag(&mut self, element: Element) -> bool {
        use Element::*;
        match element {
            Address | Article | Aside | Blockquote | Center | Details | Dialog | Dir | Div | Dl
            | Fieldset | Figcaption | Figure | Footer | Header | Hgroup | Main | Menu | Nav
            | Ol | P | Search | Section | Summary | Ul | Pre | Listing => {
                self.close_p();
            }
            Select | Input => {
                if let Some(i) = self.select_in_scope() {
                    self.pop_to(i);
                    // A `select` in one only closes it.
                    return element != Select;
                }
            }
            Hr => {
                self.close_p();
                if self.select_in_scope().is_some() {
                    self.generate_implied_end_tags(None);
                }
            }
            Option | Optgroup => {
                if self.select_in_scope().is_some() {
                    // An `option` closes an open `option`, not an
                    // `optgroup`; an `optgroup` closes either.
                    self.generate_implied_end_tags((element == Option).then_some(Optgroup));
                } else if self
                    .stack
                    .last()
                    .is_some_and(|top| top.ns == Namespace::Html && top.element == Option)
                {
                    self.pop();
                }
            }
            H1 | H2 | H3 | H4 | H5 | H6 => {
                self.close_p();
                if self.stack.last().is_some_and(|top| {
                    top.ns == Namespace::Html && matches!(top.element, H1 | H2 | H3 | H4 | H5 | H6)
                }) {
                    self.pop();
                }
            }
            Li | Dd | Dt => {
                let items: &[&str] = if element == Li {
                    &["li"]
                } else {
                    &["dd", "dt"]
                };
                // The walk down from the current node stops at a special
                // element but `address`, `div`, `p`: the item itself is
                // one, so it is found only if it is the first.
                if let Some(i) = self
                    .nearest_html_of(items)
                    .filter(|&i| self.near(Category::ItemStop) as usize == i)
                {
                    self.pop_to(i);
                }
                self.close_p();
            }
            Button => {
                if let Some(i) = self
                    .nearest_html("button")
                    .filter(|&i| self.in_scope(i, Category::Scope))
                {
                    self.pop_to(i);
                }
            }
            _ => {}
        }
        true
    }

    /// The topmost open HTML `select`, if it is in scope.
    pub(super) fn select_in_scope(&self) -> Option<usize> {
        self.nearest_html("select")
            .filter(|&i| self.in_scope(i, Category::Scope))
    }

    /// "Generate implied end tags" ([closing elements that have implied end tags](https://html.spec.whatwg.org/multipage/parsing.html#closing-elements-that-have-implied-end-tags)), but for `except`: closes
    /// the current node while it is an HTML `dd`, `dt`, `li`, `optgroup`,
    /// `option`, `p`, `rb`, `rp`, `rt` or `rtc`. (Each test is one load,
    /// and each closes an element: O(1) amortized.)
    pub(super) fn generate_implied_end_tags(&mut self, except: Option<Element>) {
        while let Some(&top) = self.stack.last() {
            if top.ns != Namespace::Html
                || Some(top.element) == except
                || !has_implied_end_tag(top.element)
            {
                return;
            }
            self.pop();
        }
    }

    /// [`Self::end_tag`] inside foreign content or while the frameset
    /// watch is on (out of line).
    #[inline(never)]
    pub(super) fn end_tag_loud(&mut self, tag: &Tag<'_>) {
        if self.watching {
            self.watch_end_tag(tag);
        }
        if !self.stack.is_empty() {
            self.end_tag_open(tag);
        } else if matches!(tag.element, Element::Template | Element::Form)
            && self.frameset != FramesetMode::In
        {
            // With the stack empty only these matter (and nothing "in
            // frameset", which empties the stack for good).
            self.end_tag_in_body(tag);
        }
    }

    /// [`Self::end_tag`] with elements open: "in foreign content"
    /// ([the rules for parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)) while the current node is foreign, then "in body".
    #[inline(always)]
    pub(super) fn end_tag_open(&mut self, tag: &Tag<'_>) {
        use Element::*;
        let (name, element) = (tag.name, tag.element);
        if let Some(&top) = self.stack.last().filter(|top| top.ns != Namespace::Html) {
            if matches!(element, Br | P) {
                self.pop_to_html_content();
            } else {
                // The walk down the foreign elements on top: one of that
                // name closes, with those above it.
                let mut found = self.nearest_named(false, name, self.keys.key(name));
                if element == AnnotationXml {
                    let html =
                        self.nearest_named(false, ANNOTATION_XML_HTML, self.annotation_xml_html);
                    found = found.max(html);
                }
                if let Some(i) = found.filter(|&i| i >= top.run_start as usize) {
                    return self.pop_to(i);
                }
            }
        }
        // Then "in body", from the current node down: with no HTML
        // element open on the stack, only the template and form end tags
        // do anything.
        if self.html_open() || matches!(element, Template | Form) {
            self.end_tag_in_body(tag);
        }
    }

    /// [`Self::end_tag`] "in body" (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)) on the stack of foreign
    /// content and its integration points, and for `</template>` and
    /// `</form>` anywhere.
    #[inline(never)]
    pub(super) fn end_tag_in_body(&mut self, tag: &Tag<'_>) {
        use Element::*;
        let (name, element) = (tag.name, tag.element);
        match element {
            Template => {
                // "in head": no scope; the innermost template closes with
                // everything above it, foreign content included.
                if let Some(&i) = self.stack_templates.last() {
                    self.pop_to(i as usize);
                } else if self.templates.pop().is_some() {
                    self.pop_to(0);
                    self.update_listen();
                }
            }
            Form if self.templates.is_empty() => {
                self.form = false;
                let i = core::mem::replace(&mut self.form_at, NONE) as usize;
                if i < self.stack.len() && self.in_scope(i, Category::Scope) {
                    self.remove(i);
                }
                self.update_listen();
            }
            Body | Html | Br => {}
            P => self.close_p(),
            Li => self.pop_in_scope(self.nearest_html("li"), Category::ListItemScope),
            H1 | H2 | H3 | H4 | H5 | H6 => self.pop_in_scope(
                self.nearest_html_of(&["h1", "h2", "h3", "h4", "h5", "h6"]),
                Category::Scope,
            ),
            Address | Article | Aside | Blockquote | Button | Center | Details | Dialog | Dir
            | Div | Dl | Fieldset | Figcaption | Figure | Footer | Header | Hgroup | Listing
            | Main | Menu | Nav | Ol | Pre | Search | Section | Select | Summary | Ul | Dd | Dt
            | Applet | Marquee | Object | Form => {
                self.pop_in_scope(self.nearest_html(name), Category::Scope);
            }
            A | B | Big | Code | Em | Font | I | Nobr | S | Small | Strike | Strong | Tt | U => {
                // The adoption agency (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)), as far as the current
                // node goes: with no special element above the formatting
                // element, it closes with everything above it; else the
                // topmost special element above it ends up the current
                // node. (The list of active formatting elements is not
                // followed: see the module docs.)
                let Some(i) = self.nearest_html(name) else {
                    return;
                };
                if !self.in_scope(i, Category::Scope) {
                    return;
                }
                let special = self.near(Category::Special);
                if special == NONE || (special as usize) < i {
                    self.pop_to(i);
                } else {
                    self.pop_to(special as usize + 1);
                }
            }
            _ => {
                // "Any other end tag": the walk down stops at the first
                // HTML element of that name, or a special element.
                if let Some(i) = self.nearest_html(name) {
                    let special = self.near(Category::Special);
                    if special == NONE || special as usize <= i {
                        self.pop_to(i);
                    }
                }
            }
        }
    }

    /// Closes the element at `i` with everything above it if it is in the
    /// scope `scope`.
    pub(super) fn pop_in_scope(&mut self, i: Option<usize>, scope: Category) {
        if let Some(i) = i.filter(|&i| self.in_scope(i, scope)) {
            self.pop_to(i);
        }
    }

    /// What a start tag does, as [`OpenElements::start_tag`](super::OpenElements::start_tag).
    #[cfg(test)]
    pub(super) fn start_tag(&mut self, tag: &Tag<'_>, scripting: bool) -> Option<State> {
        if self.listen.ignores_start_tag(tag.element) {
            return None;
        }
        self.start_tag_switching(tag, scripting)
    }

    /// What an end tag does, as [`OpenElements::end_tag`](super::OpenElements::end_tag).
    #[cfg(test)]
    pub(super) fn end_tag(&mut self, tag: &Tag<'_>) {
        if !self.listen.ignores_end_tag(tag.element) {
            self.end_tag_loud(tag);
        }
    }
}

/// The names of a tag's attributes, duplicates left out.
fn attribute_names<'t>(tag: &'t Tag<'_>) -> impl Iterator<Item = &'t str> {
    tag.attributes
        .iter()
        .filter(|a| !a.duplicate)
        .map(|a| a.name)
}
