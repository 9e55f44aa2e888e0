//! Content-model switching without a tree builder.
//!
//! In a browser the tree builder, not the tokenizer, decides that the text
//! after `<script>` is script data or that `<![CDATA[` inside `<svg>` opens a
//! CDATA section. A tokenizer used on its own would get those wrong, so in
//! auto-switch mode (the default) it does the part of the tree builder's
//! work that changes tokenization:
//!
//! - after an HTML start tag for `title`/`textarea` it switches to RCDATA;
//!   `style`, `xmp`, `iframe`, `noembed`, `noframes` (and `noscript` with
//!   scripting on) to RAWTEXT; `script` to script data; `plaintext` to
//!   PLAINTEXT;
//! - it keeps a stack of the elements open inside `<svg>` and `<math>`, with
//!   the standard's HTML and MathML text integration points and the
//!   "breakout" start tags that end foreign content, so that those switches
//!   apply only to HTML elements and CDATA sections open only in foreign
//!   content;
//! - it follows whether a `<frameset>` would replace the body (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)
//!   "in body", and "after head"): in the "in frameset", "after frameset"
//!   and "after after frameset" insertion modes a tree builder ignores
//!   every start tag but `html`, `frameset`, `frame` and `noframes`, so
//!   only `noframes` switches (to RAWTEXT) from there on. See
//!   [`stack::FramesetMode`];
//! - it follows what decides, at foreign content's integration points,
//!   whether an HTML start tag opens an element (so whether the foreign
//!   element below stays the current node): the form element pointer
//!   ([the element pointers](https://html.spec.whatwg.org/multipage/parsing.html#the-element-pointers): a second `form` is ignored outside templates) and the
//!   open templates with the part of their insertion modes that matters (a
//!   template whose first start tag is `col` goes "in column group", which
//!   ignores every start tag but `template`, whether it switches or not).
//!   `</template>` closes a template with everything above it, foreign
//!   content included.
//!
//! Outside `<svg>`/`<math>` the stack stays empty and costs nothing: a
//! start tag costs one table load unless it is one of the dozen that
//! switch or `form`/`template`; an end tag one test unless it is
//! `</form>`/`</template>`. Inside, on the HTML elements open at an
//! integration point, the stack follows "in body" (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)) for what
//! changes the current node: end tags close only within their scope and
//! not past a special element, block start tags close an open `p`, list
//! items and headings close their kind, `</form>` takes the form out from
//! under what is open above it. `select` follows the select parser
//! relaxation (whatwg/html#10548): a `select` bounds every scope, and
//! with one in scope a `select` start tag closes it and opens nothing,
//! an `input` closes it, and an `option`, `optgroup` or `hr` closes the
//! implied end tags (`option`, `p`, `li`…) on top; outside one an
//! `option` or `optgroup` closes an `option` that is the current node.
//! For the current node the stack keeps the nearest special element and
//! scope boundary at or below it, so each of these tests is O(1).
//!
//! It is an approximation of the tree builder, exact for the documents
//! real pages are (`tests/tree_oracle.rs` checks it against html5ever's
//! tree builder); [`Options::exact_switching`] replaces it with the
//! follower of `tree/`, which is exact for every document at a tree
//! builder's cost. What the approximation does not follow:
//!
//! - the table insertion modes: in a table or a cell, table tags at an
//!   integration point close the foreign content (a `<td>` closes the cell),
//!   and an HTML `form` in a table opens nothing;
//! - the list of active formatting elements: the adoption agency is taken
//!   as far as the current node goes (with a special element above the
//!   formatting element, the topmost one ends up the current node), and
//!   formatting elements are not reconstructed;
//! - the HTML elements open outside foreign content (but templates): an end
//!   tag for one of them closes the foreign content inside it
//!   (`<div><svg></div>`).
//!
//! The serializer (`serialize.rs`) must know the content model of every
//! text token exactly as the tokenizer will read it back, or text it writes
//! raw would be re-read as markup. So the rules live here once, in
//! [`OpenElements`], which both use.
//!
//! # Bounded cost
//!
//! A hostile page can open millions of elements inside `<svg>` and then
//! close elements that are not open. So every operation on the stack is
//! O(1) amortized: an end tag looks up the topmost open element of its
//! name (a hash, and a link from each element to the next one below with
//! its name, HTML and foreign elements apart), tests its scope against the
//! nearest boundaries kept for the current node, and either closes it
//! with what is above it or does nothing: it never walks the stack (the
//! implied end tags a start tag closes in a `select` cost one test per
//! element closed). Those boundaries cost most pushes nothing but a
//! table load: the entry of an element keeps the nearest integration
//! point of foreign content (a boundary of every kind) at or below it,
//! and a side stack has a record of the others for each open HTML
//! element that is one (a special element), so a run of foreign elements
//! adds no record.
//! `</form>` taking the form out from under the elements above it pops
//! and pushes those again, each only once: the next form opens above
//! them. A template's mode is kept in a stack of one byte per open
//! template. The names live in one buffer, stacked like the
//! elements, so pushing allocates nothing per element and the whole stack
//! moves from one buffer of a stream to the next without a copy.

mod frameset;
mod rules;
mod stack;
#[cfg(test)]
mod tests;

use super::machine::MachineState;
use super::tree::Tree;
use super::{Options, State, Tokenizer};
use crate::element::{self, Element};
use crate::token::{Doctype, Tag};
use stack::Approximation;

/// Whether an HTML start tag switches the content model or opens foreign
/// content, or is `form` or `template` (which decide what start tags do
/// at integration points): the only start tags auto-switching acts on
/// outside `<svg>` and `<math>`.
const fn is_switching_element(element: Element) -> bool {
    use Element::*;
    matches!(
        element,
        Svg | Math
            | Title
            | Textarea
            | Style
            | Xmp
            | Iframe
            | Noembed
            | Noframes
            | Noscript
            | Script
            | Plaintext
            | Form
            | Template
    )
}

/// [`is_switching_element`] of every element, by discriminant: the test
/// the tokenizer makes for every start tag, as one load (a `match` on the
/// element compiles to a jump table here).
static SWITCHING: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < element::ALL.len() {
        table[i] = is_switching_element(element::ALL[i]);
        i += 1;
    }
    table
};

/// What the tokenizer's test for every tag (one load) lets through to the
/// switching rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Listen {
    /// Every tag is looked at: elements are open, the frameset watch is
    /// on, a template waits for its first start tag, or exact switching
    /// decides.
    Every,
    /// None of that, so only the dozen switching start tags and `form`,
    /// `template` and their end tags matter.
    Switching,
    /// [`Listen::Switching`], and no template is open and the form
    /// element pointer is not set, so no end tag matters (`</form>` and
    /// `</template>` would do nothing).
    SwitchingStarts,
}

impl Listen {
    /// Whether a start tag for `element` changes nothing: outside foreign
    /// content only a dozen elements matter (once the frameset watch has
    /// stopped, as it does early on nearly every page).
    #[inline(always)]
    fn ignores_start_tag(self, element: Element) -> bool {
        self != Listen::Every && !SWITCHING[element as usize]
    }

    /// Whether an end tag for `element` changes nothing: outside foreign
    /// content, once the frameset watch has stopped, only `</template>` and
    /// `</form>` count, and only while a template is open or the form
    /// element pointer is set.
    #[inline(always)]
    fn ignores_end_tag(self, element: Element) -> bool {
        self == Listen::SwitchingStarts
            || (self == Listen::Switching && !matches!(element, Element::Template | Element::Form))
    }
}

/// Which of the two strategies decides the switches.
#[derive(Clone, Debug)]
enum Follower {
    /// The default: the approximation of this module, O(1) a tag.
    Approximate(Approximation),
    /// With [`Options::exact_switching`]: the tree-construction follower
    /// of `tree/`.
    Exact(Box<Tree>),
}

/// The open elements as far as auto-switching tracks them, by the
/// approximation or the exact follower: what decides the content model
/// after a start tag and whether the adjusted current node is foreign.
#[derive(Clone, Debug)]
pub(crate) struct OpenElements {
    /// What the test for every tag lets through: the approximation's
    /// ([`Approximation::listen`]), mirrored here after each call that may
    /// change it so that the test is one load; always
    /// [`Listen::Every`] for the exact follower.
    listen: Listen,
    /// How much of the pending text the follower has seen already:
    /// `<![CDATA[` asks whether the adjusted current node is foreign before
    /// the text before it is handed out, so the follower is given that text
    /// then ([`Tokenizer::watch_text_so_far`]), and only the rest when it
    /// is handed out ([`Tokenizer::watch_text`]).
    text_seen: usize,
    follower: Follower,
}

impl Default for OpenElements {
    fn default() -> OpenElements {
        OpenElements {
            listen: Listen::Every,
            text_seen: 0,
            follower: Follower::Approximate(Approximation::default()),
        }
    }
}

impl OpenElements {
    /// No open elements: outside foreign content.
    pub(crate) fn new() -> Self {
        OpenElements::default()
    }

    /// The stack for these options: the approximation, or the exact
    /// follower with [`Options::exact_switching`] (and auto-switching,
    /// without which nothing switches).
    pub(crate) fn for_options(opts: &Options) -> Self {
        let mut stack = OpenElements::new();
        if opts.auto_switch && opts.exact_switching {
            let tree = Tree::new(opts.scripting, opts.html5ever_deviations);
            stack.follower = Follower::Exact(Box::new(tree));
        }
        stack
    }

    /// Whether the exact follower decides (see [`Self::for_options`]).
    #[inline]
    pub(crate) fn is_exact(&self) -> bool {
        matches!(self.follower, Follower::Exact(_))
    }

    /// Copies the approximation's [`Listen`] after a call that may have
    /// changed it.
    #[inline(always)]
    fn listen_as_approximation(&mut self) {
        if let Follower::Approximate(stack) = &self.follower {
            self.listen = stack.listen;
        }
    }

    /// Whether the frameset watch wants to see the text before each token
    /// ([`Self::text`]); the exact follower sees all text.
    #[inline(always)]
    pub(crate) fn watching_frameset(&self) -> bool {
        match &self.follower {
            Follower::Approximate(stack) => stack.watching_frameset(),
            Follower::Exact(_) => true,
        }
    }

    /// Text handed out (or about to be) before the next token: character
    /// tokens for the tree builder unless they are a raw text element's.
    /// Called, while [`Self::watching_frameset`], before every start tag,
    /// end tag, comment and DOCTYPE with the text pending before it, and
    /// for a piece of text handed out alone.
    #[cold]
    pub(crate) fn text(&mut self, text: &str) {
        match &mut self.follower {
            Follower::Approximate(stack) => stack.text(text),
            Follower::Exact(tree) => tree.text(text),
        }
        self.listen_as_approximation();
    }

    /// What a start tag does to the stack, and the content model it
    /// switches the tokenizer to, if any: RCDATA, RAWTEXT, script data or
    /// PLAINTEXT for the HTML elements that take them (`noscript` only
    /// when `scripting`).
    ///
    /// While the frameset watch is on, the text before the tag must have
    /// been given to [`Self::text`] first.
    #[inline(always)]
    pub(crate) fn start_tag(&mut self, tag: &Tag<'_>, scripting: bool) -> Option<State> {
        if self.ignores_start_tag(tag) {
            return None;
        }
        self.start_tag_switching(tag, scripting)
    }

    /// Whether a start tag changes nothing here: the test the tokenizer
    /// makes for every start tag, before it does anything else for one.
    #[inline(always)]
    pub(crate) fn ignores_start_tag(&self, tag: &Tag<'_>) -> bool {
        self.listen.ignores_start_tag(tag.element)
    }

    /// [`Self::start_tag`] for a tag that may switch (out of line: most
    /// tags do not get here).
    #[inline(never)]
    pub(crate) fn start_tag_switching(&mut self, tag: &Tag<'_>, scripting: bool) -> Option<State> {
        let switch = match &mut self.follower {
            Follower::Approximate(stack) => stack.start_tag_switching(tag, scripting),
            Follower::Exact(tree) => tree.start_tag(tag),
        };
        self.listen_as_approximation();
        switch
    }

    /// What an end tag does to the stack: closes the nearest open element
    /// of that name and everything above it. While the frameset watch is
    /// on, the text before the tag must have been given to [`Self::text`]
    /// first.
    #[inline(always)]
    pub(crate) fn end_tag(&mut self, tag: &Tag<'_>) {
        if !self.ignores_end_tag(tag) {
            self.end_tag_loud(tag);
        }
    }

    /// Whether an end tag changes nothing here (the test the tokenizer
    /// makes for every end tag).
    #[inline(always)]
    pub(crate) fn ignores_end_tag(&self, tag: &Tag<'_>) -> bool {
        self.listen.ignores_end_tag(tag.element)
    }

    /// [`Self::end_tag`] inside foreign content or while the frameset
    /// watch is on (out of line).
    #[inline(never)]
    pub(crate) fn end_tag_loud(&mut self, tag: &Tag<'_>) {
        match &mut self.follower {
            Follower::Approximate(stack) => stack.end_tag_loud(tag),
            Follower::Exact(tree) => tree.end_tag(tag),
        }
        self.listen_as_approximation();
    }

    /// The pending text was cut back to `len` bytes (a partial buffer
    /// rewound to its last safe point).
    pub(crate) fn cut_text(&mut self, len: usize) {
        self.text_seen = self.text_seen.min(len);
    }

    /// Whether the adjusted current node is an element in foreign content
    /// (SVG or MathML), which, among other things, makes `<![CDATA[` open a
    /// CDATA section.
    #[inline]
    pub(crate) fn adjusted_current_node_is_foreign(&self) -> bool {
        match &self.follower {
            Follower::Approximate(stack) => stack.adjusted_current_node_is_foreign(),
            Follower::Exact(tree) => tree.adjusted_current_node_is_foreign(),
        }
    }

    /// Bytes this stack holds on the heap (for a stream's memory cap).
    pub(crate) fn heap_bytes(&self) -> usize {
        match &self.follower {
            Follower::Approximate(stack) => stack.heap_bytes(),
            Follower::Exact(tree) => tree.heap_bytes(),
        }
    }
}

/// What a tree builder would tell the tokenizer, or auto-switching
/// follows in its place.
pub(super) struct SwitchContext<'a> {
    /// The tag name of the last start tag emitted, for "appropriate end
    /// tag".
    pub(super) last_start_tag: Option<&'a str>,
    /// Set by [`Tokenizer::set_foreign`] when not auto-switching.
    pub(super) foreign: bool,
    /// The open elements as far as auto-switching tracks them.
    pub(super) open_elements: OpenElements,
}

impl<'a> Tokenizer<'a> {
    /// Whether the adjusted current node is outside the HTML namespace.
    #[inline]
    pub(crate) fn in_foreign_content(&self) -> bool {
        if self.opts.auto_switch {
            self.context
                .open_elements
                .adjusted_current_node_is_foreign()
        } else {
            self.context.foreign
        }
    }

    /// What a start tag does to the content model and the element stack.
    #[inline]
    pub(super) fn auto_start_tag(&mut self, tag: &Tag<'a>) {
        if !self.context.open_elements.ignores_start_tag(tag) {
            self.auto_start_tag_switching(tag);
        }
    }

    /// [`Self::auto_start_tag`] for a tag that may switch (out of line).
    #[inline(never)]
    fn auto_start_tag_switching(&mut self, tag: &Tag<'a>) {
        self.watch_text();
        if let Some(state) = self
            .context
            .open_elements
            .start_tag_switching(tag, self.opts.scripting)
        {
            self.state = MachineState::from(state);
        }
    }

    /// What an end tag does to the element stack.
    #[inline]
    pub(super) fn auto_end_tag(&mut self, tag: &Tag<'a>) {
        if !self.context.open_elements.ignores_end_tag(tag) {
            self.watch_text();
            self.context.open_elements.end_tag_loud(tag);
        }
    }

    /// Tells the frameset watch the text pending before the next token, or
    /// handed out alone, while it watches (auto-switching only).
    #[inline(always)]
    pub(super) fn watch_text(&mut self) {
        if self.context.open_elements.watching_frameset() && !self.text.buf.is_empty() {
            self.watch_pending_text();
        }
    }

    /// [`Self::watch_text`] with text to watch (out of line).
    #[cold]
    #[inline(never)]
    fn watch_pending_text(&mut self) {
        self.watch_text_so_far();
        // The text is handed out next: the next text is new.
        self.context.open_elements.text_seen = 0;
    }

    /// Gives the watch the pending text it has not seen yet. Exact
    /// switching needs it before `<![CDATA[` asks whether the adjusted
    /// current node is foreign and before a comment or DOCTYPE is given to
    /// the follower where it is built ([`Self::follow_other_token`]);
    /// [`Self::watch_text`] gives it the rest.
    #[cold]
    pub(super) fn watch_text_so_far(&mut self) {
        if !self.text.buf.is_empty() {
            let text = self.text.buf.as_str(self.cursor.input);
            let seen = self.context.open_elements.text_seen.min(text.len());
            self.context.open_elements.text(&text[seen..]);
            self.context.open_elements.text_seen = text.len();
        }
    }

    /// Gives exact switching a comment (`None`) or a DOCTYPE where it is
    /// built, the text before it first (out of the tokenizer's inlined
    /// emit path, which this would slow for every token).
    #[cold]
    pub(super) fn follow_other_token(&mut self, doctype: Option<&Doctype<'_>>) {
        self.watch_text_so_far();
        if let Follower::Exact(tree) = &mut self.context.open_elements.follower {
            match doctype {
                Some(doctype) => tree.doctype(doctype),
                None => tree.comment(),
            }
        }
    }
}
