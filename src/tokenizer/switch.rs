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
//! - it follows whether a `<frameset>` would replace the body (§13.2.6.4.7
//!   "in body", and "after head"): in the "in frameset", "after frameset"
//!   and "after after frameset" insertion modes a tree builder ignores
//!   every start tag but `html`, `frameset`, `frame` and `noframes`, so
//!   only `noframes` switches (to RAWTEXT) from there on. See
//!   [`FramesetMode`];
//! - it follows what decides, at foreign content's integration points,
//!   whether an HTML start tag opens an element (so whether the foreign
//!   element below stays the current node): the form element pointer
//!   (§13.2.4.4: a second `form` is ignored outside templates) and the
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
//! integration point, the stack follows "in body" (§13.2.6.4.7) for what
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

use core::fmt;
use std::collections::HashMap;
use std::collections::hash_map::Entry as Entry_;

use super::machine::MachineState;
use super::name_key::{self, KeyHasher, NameKey, NameKeys};
use super::tree::Tree;
use super::{Options, State, Tokenizer};
use crate::element::{self, Element};
use crate::scan::is_ascii_whitespace;
use crate::token::{Attribute, Doctype, Tag};

/// Whether a start tag in foreign content ends it: the HTML "breakout"
/// tags of "in foreign content" (§13.2.6.5), `font` aside.
fn is_breakout_element(element: Element) -> bool {
    use Element::*;
    matches!(
        element,
        B | Big
            | Blockquote
            | Body
            | Br
            | Center
            | Code
            | Dd
            | Div
            | Dl
            | Dt
            | Em
            | Embed
            | H1
            | H2
            | H3
            | H4
            | H5
            | H6
            | Head
            | Hr
            | I
            | Img
            | Li
            | Listing
            | Menu
            | Meta
            | Nobr
            | Ol
            | P
            | Pre
            | Ruby
            | S
            | Small
            | Span
            | Strong
            | Strike
            | Sub
            | Sup
            | Table
            | Tt
            | U
            | Ul
            | Var
    )
}

/// Whether an HTML start tag leaves no element open "in body"
/// (§13.2.6.4.7): the void elements and the others inserted and popped at
/// once (`image` is inserted as `img`), and the start tags ignored there
/// (table parts outside a table, `frame`, `head`, and `html`, `body` and
/// `frameset`, which never open a second time). Inside foreign content's
/// integration points these must not be stacked, or the foreign element
/// below them would not be the current node any more. (In a table's cell a
/// `td` or `tr` would close the cell instead: auto-switching does not
/// follow tables.)
fn opens_nothing_in_body(element: Element) -> bool {
    use Element::*;
    element.is_void()
        || matches!(
            element,
            Image
                | Keygen
                | Basefont
                | Bgsound
                | Param
                | Caption
                | Colgroup
                | Frame
                | Head
                | Tbody
                | Td
                | Tfoot
                | Th
                | Thead
                | Tr
                | Html
                | Body
                | Frameset
        )
}

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

/// Where the tree builder stands with respect to `<frameset>`: the part of
/// its insertion mode and "frameset-ok" flag that decides whether a
/// `frameset` start tag takes over the document (§13.2.6.4.4–7, 13.2.6.4.19–22).
///
/// A tree builder never leaves the frameset insertion modes once in them,
/// and "frameset-ok" never becomes "ok" again, so watching stops for good
/// at [`FramesetMode::Off`] or [`FramesetMode::In`]; on nearly every page the first
/// text or the first image, list item or table ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FramesetMode {
    /// Before the body ("initial" to "after head"): a `frameset` start tag
    /// is inserted whatever the flag says.
    BeforeBody,
    /// In the body with "frameset-ok" still "ok": a `frameset` start tag
    /// replaces the body.
    BodyOk,
    /// "frameset-ok" is "not ok" (or auto-switching is off): `frameset`
    /// is ignored.
    Off,
    /// "In frameset", "after frameset", "after after frameset": every
    /// start tag but `noframes` leaves the tokenizer in the data state.
    In,
}

/// Whether a character token with these characters sets "frameset-ok" to
/// "not ok": any but whitespace and NUL (which "in body" ignores and
/// foreign content inserts as U+FFFD without touching the flag).
fn sets_frameset_not_ok(text: &str) -> bool {
    text.bytes().any(|b| !(is_ascii_whitespace(b) || b == 0))
}

/// The name a MathML `annotation-xml` that is an HTML integration point
/// (its `encoding` is `text/html` or `application/xhtml+xml`) is held
/// under, so the stack can tell it from one that is not. It holds a space,
/// which no tag name does, so no tag is taken for it.
const ANNOTATION_XML_HTML: &str = "annotation-xml html";

/// The namespace of an element on the [`OpenElements`] stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ns {
    Html,
    Svg,
    MathMl,
}

/// The open elements as far as auto-switching tracks them (the part of the
/// tree builder's "stack of open elements" that changes tokenization):
/// empty outside `<svg>`/`<math>`; inside, each open element's namespace
/// and name (see the module docs for how they are held).
#[derive(Clone)]
pub(crate) struct OpenElements {
    /// The open elements, bottom first.
    stack: Vec<Entry>,
    /// The names of eight bytes or more of the open elements, one after
    /// the other (a shorter name is its own key).
    long_names: String,
    /// The topmost open element with a name of each key; each entry links
    /// to the next one below with its key. Two long names with one key
    /// only cost a step along that chain: the names themselves are
    /// compared before anything is closed.
    /// HTML elements have their keys with [`HTML_KEY`] flipped, so they
    /// are apart from the foreign ones, which the tree builder looks for
    /// apart.
    nearest: HashMap<NameKey, u32, KeyHasher>,
    keys: NameKeys,
    /// The key of [`ANNOTATION_XML_HTML`].
    annotation_xml_html: NameKey,
    /// Where the tree builder stands with respect to `<frameset>`.
    frameset: FramesetMode,
    /// `frameset` is [`FramesetMode::BeforeBody`] or [`FramesetMode::BodyOk`]:
    /// every token is looked at.
    watching: bool,
    /// [`LOUD`], [`QUIET`] or [`SILENT`]: what the tokenizer's test for
    /// every tag (one load) lets through.
    quiet: u8,
    /// While watching: the last start tag switched to a raw text content
    /// model, so the text before the next end tag is that element's text,
    /// not character tokens of the body.
    raw_text: bool,
    /// While before the body: how many `template` elements are open in the
    /// head. Their contents are the template's, not the body's.
    head_templates: u32,
    /// The open HTML `template` elements, innermost last, each with its
    /// "current template insertion mode" as far as it matters here.
    templates: Vec<TemplateMode>,
    /// Where on `stack` the open HTML templates are that are on it (the
    /// others are below foreign content), bottom first.
    stack_templates: Vec<u32>,
    /// For each open HTML element in a category of [`categories`] (the
    /// special elements, among them the scope boundaries, and `p`),
    /// bottom first: the nearest open HTML element at or below it in each
    /// category ([`NONE`]: none). The last one holds for the current node
    /// (the HTML elements above it are in none), so, with
    /// [`Entry::point`] for the integration points of foreign content,
    /// what the tree builder's walks down the stack stop at is found in
    /// O(1) ([`Self::near`]), and the elements that are in none (nearly
    /// all foreign elements) cost nothing here.
    bounds: Vec<[u32; CATEGORIES]>,
    /// The form element pointer is set (§13.2.4.4).
    form: bool,
    /// Where on `stack` the element the form element pointer points to is,
    /// while it is open there ([`NONE`]: elsewhere, closed or no pointer).
    form_at: u32,
    /// With [`Options::exact_switching`](super::Options::exact_switching):
    /// the tree-construction follower, which then decides everything (the
    /// approximation above stays empty, and loud, so that every token
    /// reaches the follower).
    exact: Option<Box<Tree>>,
    /// How much of the pending text exact switching has seen already:
    /// `<![CDATA[` asks whether the adjusted current node is foreign before
    /// the text before it is handed out, so the follower is given that text
    /// then ([`Tokenizer::watch_text_so_far`]), and only the rest when it
    /// is handed out ([`Tokenizer::watch_text`]).
    pub(super) text_seen: usize,
}

/// What the tree builder does with the start tags in a template, while the
/// template is the current node: the part of its "current template
/// insertion mode" (§13.2.6.4.18) that changes tokenization.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TemplateMode {
    /// "In template": the next start tag (not one for "in head") decides.
    Fresh,
    /// "In column group" (the first was `col`): every start tag but
    /// `template` (and `col`, which opens nothing) is ignored.
    ColumnGroup,
    /// Any other: tags are handled as elsewhere in the body.
    Other,
}

impl Default for OpenElements {
    fn default() -> OpenElements {
        let keys = NameKeys::default();
        OpenElements {
            stack: Vec::new(),
            long_names: String::new(),
            nearest: HashMap::default(),
            annotation_xml_html: keys.key(ANNOTATION_XML_HTML),
            keys,
            frameset: FramesetMode::BeforeBody,
            watching: true,
            quiet: LOUD,
            raw_text: false,
            head_templates: 0,
            templates: Vec::new(),
            stack_templates: Vec::new(),
            bounds: Vec::new(),
            form: false,
            form_at: NONE,
            exact: None,
            text_seen: 0,
        }
    }
}

/// One open element.
#[derive(Clone, Copy, Debug)]
struct Entry {
    ns: Ns,
    /// Its element, which the integration point rules test.
    element: Element,
    /// The key of its name ([`NameKeys`]): the name itself when short.
    key: NameKey,
    /// Where its name ends in `long_names` (where the names of the
    /// elements below it end, for a short name).
    long_end: usize,
    /// The next open element below with the same key ([`NONE`]: none).
    below_same: u32,
    /// Where the run of open elements it is in starts: HTML elements
    /// stacked above an integration point, or foreign elements above an
    /// HTML one (or the bottom).
    run_start: u32,
    /// Its [`FLAGS`] (and [`FORM`]): what pushing and closing it do
    /// besides its name; 0 for most elements.
    flags: u16,
    /// The nearest open [`POINT`] element at or below this one ([`NONE`]:
    /// none). Those are special and the boundary of every scope, so they
    /// are in every category but [`PARAGRAPH`] without a record on
    /// [`OpenElements::bounds`].
    point: u32,
}

/// The categories of [`categories`], as bits of [`FLAGS`] and indices into
/// [`OpenElements::bounds`].
const SPECIAL: usize = 0;
/// The boundaries of "has an element in scope" (§13.2.4.2).
pub(super) const SCOPE: usize = 1;
/// The boundaries of "has an element in button scope".
pub(super) const BUTTON_SCOPE: usize = 2;
/// The boundaries of "has an element in list item scope".
pub(super) const LIST_SCOPE: usize = 3;
/// Where the `li`, `dd` and `dt` start tags stop looking for an open one
/// to close (§13.2.6.4.7): special elements but `address`, `div`, `p`.
const ITEM_STOP: usize = 4;
/// HTML `p` elements: what "close a p element" looks for, which many
/// start tags do at integration points (no lookup by name).
const PARAGRAPH: usize = 5;
const CATEGORIES: usize = 6;
/// The bits of the categories in [`Entry::flags`].
const CATEGORY_BITS: u16 = (1 << CATEGORIES) - 1;
/// [`Entry::flags`]: an HTML `template` (on [`OpenElements::stack_templates`]).
const TEMPLATE: u16 = 1 << 6;
/// [`Entry::flags`]: the element the form element pointer pointed to when
/// it was opened.
const FORM: u16 = 1 << 7;
/// [`Entry::flags`]: an SVG `foreignObject`, `desc` or `title`, or a
/// MathML `mi`, `mo`, `mn`, `ms`, `mtext` or `annotation-xml` (whatever
/// its encoding): the foreign elements that are special and bound every
/// scope (§13.2.4.2), the integration points among them.
const POINT: u16 = 1 << 8;

/// For each set of categories (bits of [`Entry::flags`]), the bits to
/// replace in an entry of [`OpenElements::bounds`]: all ones in those
/// categories (a branchless update of the six).
static CATEGORY_MASKS: [[u32; CATEGORIES]; 1 << CATEGORIES] = {
    let mut table = [[0; CATEGORIES]; 1 << CATEGORIES];
    let mut bits = 0;
    while bits < 1 << CATEGORIES {
        let mut c = 0;
        while c < CATEGORIES {
            if bits & 1 << c != 0 {
                table[bits][c] = u32::MAX;
            }
            c += 1;
        }
        bits += 1;
    }
    table
};

/// [`categories`], [`TEMPLATE`] and [`POINT`] of every element of each
/// namespace, by namespace and discriminant: one load per push.
static FLAGS: [[u16; 256]; 3] = {
    let mut table = [[0; 256]; 3];
    let mut i = 0;
    while i < element::ALL.len() {
        let e = element::ALL[i];
        table[Ns::Html as usize][i] = categories(e) as u16;
        if matches!(e, Element::Template) {
            table[Ns::Html as usize][i] |= TEMPLATE;
        }
        if matches!(e, Element::ForeignObject | Element::Desc | Element::Title) {
            table[Ns::Svg as usize][i] = POINT;
        }
        if matches!(
            e,
            Element::Mi
                | Element::Mo
                | Element::Mn
                | Element::Ms
                | Element::Mtext
                | Element::AnnotationXml
        ) {
            table[Ns::MathMl as usize][i] = POINT;
        }
        i += 1;
    }
    table
};

/// The categories an HTML element is in, one bit for each index of an
/// [`OpenElements::bounds`] record: the special elements (§13.2.4.2,
/// "special"), the boundaries of the scopes the tree builder tests, and
/// `p`. (The foreign elements in any are the integration points:
/// [`POINT`].)
const fn categories(element: Element) -> u8 {
    use Element::*;
    let special_html = matches!(
        element,
        Address
            | Applet
            | Area
            | Article
            | Aside
            | Base
            | Basefont
            | Bgsound
            | Blockquote
            | Body
            | Br
            | Button
            | Caption
            | Center
            | Col
            | Colgroup
            | Dd
            | Details
            | Dir
            | Div
            | Dl
            | Dt
            | Embed
            | Fieldset
            | Figcaption
            | Figure
            | Footer
            | Form
            | Frame
            | Frameset
            | H1
            | H2
            | H3
            | H4
            | H5
            | H6
            | Head
            | Header
            | Hgroup
            | Hr
            | Html
            | Iframe
            | Img
            | Input
            | Keygen
            | Li
            | Link
            | Listing
            | Main
            | Marquee
            | Menu
            | Meta
            | Nav
            | Noembed
            | Noframes
            | Noscript
            | Object
            | Ol
            | P
            | Param
            | Plaintext
            | Pre
            | Script
            | Search
            | Section
            | Select
            | Source
            | Style
            | Summary
            | Table
            | Tbody
            | Td
            | Template
            | Textarea
            | Tfoot
            | Th
            | Thead
            | Title
            | Tr
            | Track
            | Ul
            | Wbr
            | Xmp
    );
    let mut c = 0;
    if matches!(element, P) {
        c |= 1 << PARAGRAPH;
    }
    if special_html {
        c |= 1 << SPECIAL;
        if !matches!(element, Address | Div | P) {
            c |= 1 << ITEM_STOP;
        }
    }
    // `select` bounds every scope since the select parser relaxation
    // (whatwg/html#10548): `<div><select></div>` leaves the `div` open.
    if matches!(
        element,
        Applet | Caption | Html | Table | Td | Th | Marquee | Object | Select | Template
    ) {
        c |= 1 << SCOPE | 1 << BUTTON_SCOPE | 1 << LIST_SCOPE;
    }
    if matches!(element, Button) {
        c |= 1 << BUTTON_SCOPE;
    }
    if matches!(element, Ol | Ul) {
        c |= 1 << LIST_SCOPE;
    }
    c
}

/// Whether an HTML element is in the special category (§13.2.4.2).
pub(super) const fn is_special_html(element: Element) -> bool {
    categories(element) & 1 << SPECIAL != 0
}

/// Whether an HTML element bounds a scope of §13.2.4.2: "has an element in
/// scope" ([`SCOPE`]), in button scope ([`BUTTON_SCOPE`]) or in list item
/// scope ([`LIST_SCOPE`]).
pub(super) const fn bounds_html_scope(element: Element, scope: usize) -> bool {
    categories(element) & 1 << scope != 0
}

/// Whether an SVG or MathML element is one of the nine that are special
/// and bound every scope but table scope: SVG `foreignObject`, `desc`,
/// `title`, MathML `mi`, `mo`, `mn`, `ms`, `mtext`, `annotation-xml`
/// (whatever its encoding).
pub(super) fn is_point_element(ns: Ns, element: Element) -> bool {
    FLAGS[ns as usize][element as usize] & POINT != 0
}

/// The elements "generate implied end tags" closes (§13.2.6.3).
pub(super) const fn has_implied_end_tag(element: Element) -> bool {
    use Element::*;
    matches!(
        element,
        Dd | Dt | Li | Optgroup | Option | P | Rb | Rp | Rt | Rtc
    )
}

/// Whether a start tag in foreign content ends it (a "breakout" tag, "in
/// foreign content", §13.2.6.5): one of [`is_breakout_element`], or a
/// `font` with a `color`, `face` or `size` attribute.
pub(super) fn is_breakout(element: Element, attributes: &[Attribute<'_>]) -> bool {
    is_breakout_element(element)
        || (element == Element::Font
            && attributes
                .iter()
                .any(|a| !a.duplicate && matches!(a.name, "color" | "face" | "size")))
}

/// No entry.
const NONE: u32 = u32::MAX;

/// The key ([`NameKeys`]) of the name of every element whose name is
/// shorter than eight bytes, by discriminant (0 for the others and
/// [`Element::Other`]): a push of one does not read the name.
static SHORT_KEYS: [NameKey; 256] = {
    let mut table = [0; 256];
    let mut i = 1;
    while i < element::ALL.len() {
        let name = element::NAMES[i].as_bytes();
        if name.len() < 8 {
            table[i] = name_key::packed(name);
        }
        i += 1;
    }
    table
};

/// [`OpenElements::quiet`]: every tag is looked at (elements are open, the
/// frameset watch is on, or a template waits for its first start tag).
const LOUD: u8 = 0;
/// [`OpenElements::quiet`]: none of that, so only the dozen switching
/// start tags and `form`, `template` and their end tags matter.
const QUIET: u8 = 1;
/// [`OpenElements::quiet`]: [`QUIET`], and no template is open and the
/// form element pointer is not set, so no end tag matters (`</form>` and
/// `</template>` would do nothing).
const SILENT: u8 = 2;

/// The bit flipped in the key of an HTML element's name ([`ns_key`]): a
/// bit of the top byte, which is a short name's length (below 8) or all
/// ones for a long name, so flipping it keeps the two kinds apart
/// ([`name_key::is_long`] tests the top bit).
const HTML_KEY: NameKey = 1 << 62;

/// The key on the stack of an element named with `key`, in the HTML
/// namespace if `html`.
#[inline(always)]
fn ns_key(key: NameKey, html: bool) -> NameKey {
    key ^ (html as NameKey * HTML_KEY)
}

impl fmt::Debug for OpenElements {
    /// As the list of elements, bottom first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries((0..self.stack.len()).map(|i| (self.stack[i].ns, self.name(i))))
            .finish()
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
            stack.exact = Some(Box::new(tree));
        }
        stack
    }

    /// Whether the exact follower decides (see [`Self::for_options`]).
    #[inline]
    pub(crate) fn is_exact(&self) -> bool {
        self.exact.is_some()
    }

    /// The name of the element at `i` (0 is the bottom).
    fn name(&self, i: usize) -> String {
        let key = self.stack[i].key;
        if name_key::is_long(key) {
            let start = if i == 0 {
                0
            } else {
                self.stack[i - 1].long_end
            };
            self.long_names[start..self.stack[i].long_end].to_owned()
        } else {
            let len = (key >> 56) as usize & 7;
            let bytes: Vec<u8> = (0..len).map(|j| (key >> (8 * j)) as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }

    /// Whether the element at `i` is named `name`, whose key is `key`.
    #[inline]
    fn is_named(&self, i: usize, name: &str, key: NameKey) -> bool {
        let entry = self.stack[i];
        entry.key == key
            && (!name_key::is_long(key) || {
                let start = if i == 0 {
                    0
                } else {
                    self.stack[i - 1].long_end
                };
                &self.long_names[start..entry.long_end] == name
            })
    }

    /// Whether the frameset watch wants to see the text before each token
    /// ([`Self::text`]).
    #[inline(always)]
    pub(crate) fn watching_frameset(&self) -> bool {
        self.watching
    }

    fn set_frameset(&mut self, frameset: FramesetMode) {
        if self.exact.is_some() {
            return;
        }
        self.frameset = frameset;
        self.watching = matches!(frameset, FramesetMode::BeforeBody | FramesetMode::BodyOk);
        self.update_quiet();
    }

    /// Text handed out (or about to be) before the next token: character
    /// tokens for the tree builder unless they are a raw text element's.
    /// Called, while [`Self::watching_frameset`], before every start tag,
    /// end tag, comment and DOCTYPE with the text pending before it, and
    /// for a piece of text handed out alone.
    #[cold]
    pub(crate) fn text(&mut self, text: &str) {
        if let Some(tree) = &mut self.exact {
            return tree.text(text);
        }
        if self.watching && !self.raw_text && self.head_templates == 0 && sets_frameset_not_ok(text)
        {
            self.set_frameset(FramesetMode::Off);
        }
    }

    /// What an HTML start tag does to the frameset watch (the tag is not
    /// inserted as a foreign element).
    #[cold]
    fn watch_start_tag(&mut self, tag: &Tag<'_>) {
        use Element::*;
        let element = tag.element;
        if self.frameset == FramesetMode::BeforeBody {
            if self.head_templates > 0 {
                // Inside a template in the head: its contents.
                if element == Template {
                    self.head_templates += 1;
                }
                return;
            }
            match element {
                // "in head" and "after head" keep these in the head.
                Html | Head | Base | Basefont | Bgsound | Link | Meta | Noframes | Script
                | Style | Title | Noscript => return,
                Template => {
                    self.head_templates = 1;
                    return;
                }
                // "after head": inserted, "in frameset".
                Frameset => return self.enter_frameset(),
                // "after head": the body, "frameset-ok" "not ok".
                Body => return self.set_frameset(FramesetMode::Off),
                // "anything else": the body, then this tag "in body".
                _ => self.set_frameset(FramesetMode::BodyOk),
            }
        }
        match element {
            Frameset => self.enter_frameset(),
            // "in body": the start tags that set "frameset-ok" to "not
            // ok" (`image` is `img`, `template` through "in head").
            Body | Pre | Listing | Li | Dd | Dt | Button | Applet | Marquee | Object | Table
            | Area | Br | Embed | Img | Image | Keygen | Wbr | Hr | Textarea | Xmp | Iframe
            | Select | Template => self.set_frameset(FramesetMode::Off),
            Input
                if !tag
                    .attr_value("type")
                    .is_some_and(|t| t.eq_ignore_ascii_case("hidden")) =>
            {
                self.set_frameset(FramesetMode::Off)
            }
            _ => {}
        }
    }

    /// A `frameset` start tag taken: it replaces the body (and everything
    /// open in it, foreign content included).
    fn enter_frameset(&mut self) {
        while !self.stack.is_empty() {
            self.pop();
        }
        self.set_frameset(FramesetMode::In);
    }

    /// What an end tag does to the frameset watch.
    #[cold]
    fn watch_end_tag(&mut self, tag: &Tag<'_>) {
        use Element::*;
        self.raw_text = false;
        if self.head_templates > 0 {
            if tag.element == Template {
                self.head_templates -= 1;
            }
            return;
        }
        match (self.frameset, tag.element) {
            // `</br>` is a `<br>` "in body", which sets the flag.
            (_, Br) => self.set_frameset(FramesetMode::Off),
            // "anything else" before the body: the body, flag unchanged.
            (FramesetMode::BeforeBody, Body | Html) => self.set_frameset(FramesetMode::BodyOk),
            _ => {}
        }
    }

    /// Bytes this stack holds on the heap (for a stream's memory cap).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.exact.as_ref().map_or(0, |t| t.heap_bytes())
            + self.long_names.len()
            + self.stack.len() * core::mem::size_of::<Entry>()
            + self.nearest.len() * 16
            + self.templates.len()
            + self.stack_templates.len() * 4
            + self.bounds.len() * core::mem::size_of::<[u32; CATEGORIES]>()
    }

    /// Opens an element, named `name` on the stack.
    #[inline]
    fn push(&mut self, ns: Ns, element: Element, name: &str) {
        let key = match SHORT_KEYS[element as usize] {
            0 => self.keys.key(name),
            key => {
                debug_assert_eq!(key, self.keys.key(name), "{name} is not {element:?}");
                key
            }
        };
        let key = ns_key(key, ns == Ns::Html);
        self.push_keyed(ns, element, name, key);
    }

    /// [`Self::push`] with the key on the stack known ([`ns_key`]; `name`
    /// is read only if it is long).
    fn push_keyed(&mut self, ns: Ns, element: Element, name: &str, key: NameKey) {
        let index = self.stack.len() as u32;
        // One hash per push and per pop (the entry API).
        let below_same = match self.nearest.entry(key) {
            Entry_::Occupied(mut e) => e.insert(index),
            Entry_::Vacant(e) => {
                e.insert(index);
                NONE
            }
        };
        if name_key::is_long(key) {
            self.long_names.push_str(name);
        }
        let flags = FLAGS[ns as usize][element as usize];
        let (run_start, below_point) = match self.stack.last() {
            Some(below) if (below.ns == Ns::Html) == (ns == Ns::Html) => {
                (below.run_start, below.point)
            }
            Some(below) => (index, below.point),
            None => (index, NONE),
        };
        self.stack.push(Entry {
            ns,
            element,
            key,
            long_end: self.long_names.len(),
            below_same,
            run_start,
            flags,
            point: if flags & POINT != 0 {
                index
            } else {
                below_point
            },
        });
        if flags != 0 {
            if flags & CATEGORY_BITS != 0 {
                let below = self.bounds.last().copied().unwrap_or([NONE; CATEGORIES]);
                let mask = &CATEGORY_MASKS[(flags & CATEGORY_BITS) as usize];
                let near = core::array::from_fn(|c| below[c] & !mask[c] | index & mask[c]);
                self.bounds.push(near);
            }
            if flags & TEMPLATE != 0 {
                self.stack_templates.push(index);
            }
        }
        self.quiet = LOUD;
    }

    /// Closes the current node.
    #[inline(always)]
    fn pop(&mut self) {
        let Some(entry) = self.stack.pop() else {
            return;
        };
        if let Entry_::Occupied(mut e) = self.nearest.entry(entry.key) {
            if entry.below_same == NONE {
                e.remove();
            } else {
                e.insert(entry.below_same);
            }
        }
        if name_key::is_long(entry.key) {
            let start = self.stack.last().map_or(0, |e| e.long_end);
            self.long_names.truncate(start);
        }
        if entry.flags & CATEGORY_BITS != 0 {
            self.bounds.pop();
        }
        if entry.flags & (TEMPLATE | FORM) != 0 {
            self.pop_marked(entry.flags);
        }
        if self.stack.is_empty() {
            self.update_quiet();
        }
    }

    /// What [`Self::pop`] undoes for a template or a form the pointer
    /// pointed to (just taken off the stack).
    #[cold]
    #[inline(never)]
    fn pop_marked(&mut self, flags: u16) {
        if flags & TEMPLATE != 0 {
            // An HTML template closes only with its end tag (or an outer
            // one's): its mode goes with it.
            self.stack_templates.pop();
            self.templates.pop();
        }
        if flags & FORM != 0 && self.stack.len() as u32 == self.form_at {
            self.form_at = NONE;
        }
    }

    /// The nearest open element at or below the current node in the
    /// category `c` ([`NONE`]: none).
    #[inline]
    fn near(&self, c: usize) -> u32 {
        let html = self.bounds.last().map_or(NONE, |near| near[c]);
        if c == PARAGRAPH {
            return html;
        }
        let point = self.stack.last().map_or(NONE, |top| top.point);
        // The later of the two (NONE, all ones, is the earliest).
        html.wrapping_add(1)
            .max(point.wrapping_add(1))
            .wrapping_sub(1)
    }

    /// Closes the element at `i` and everything above it.
    fn pop_to(&mut self, i: usize) {
        while self.stack.len() > i {
            self.pop();
        }
    }

    /// Takes the element at `i` off the stack, leaving those above it open
    /// (what `</form>` does to the form the pointer points to). Those above
    /// are taken off and put back: O(1) amortized, as a form taken out is
    /// below only what was opened after it, and the next one can only be
    /// opened above everything open then.
    fn remove(&mut self, i: usize) {
        let above = self.stack[i + 1..].to_vec();
        // The long names of those above, after the one at `i` (whose own is
        // before `from`).
        let from = self.stack[i].long_end;
        let names = self.long_names[from..].to_owned();
        self.pop_to(i);
        let mut start = 0;
        for e in above {
            debug_assert!(e.flags & TEMPLATE == 0, "a template above the form");
            let name = if name_key::is_long(e.key) {
                &names[start..e.long_end - from]
            } else {
                ""
            };
            start = e.long_end - from;
            // (Not the form the pointer points to, which is the one taken
            // out: no FORM flag to restore.)
            self.push_keyed(e.ns, e.element, name, e.key);
        }
    }

    /// Points the form element pointer to the current node (a `form`).
    fn point_form_here(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.flags |= FORM;
            self.form_at = self.stack.len() as u32 - 1;
        }
    }

    /// The pending text was cut back to `len` bytes (a partial buffer
    /// rewound to its last safe point).
    pub(crate) fn cut_text(&mut self, len: usize) {
        self.text_seen = self.text_seen.min(len);
    }

    /// Sets [`Self::quiet`] from what it depends on.
    fn update_quiet(&mut self) {
        if self.exact.is_some() {
            self.quiet = LOUD;
            return;
        }
        self.quiet = if !self.stack.is_empty()
            || self.watching
            || self.templates.last() == Some(&TemplateMode::Fresh)
        {
            LOUD
        } else if self.form || !self.templates.is_empty() {
            QUIET
        } else {
            SILENT
        };
    }

    /// Whether the adjusted current node is an element in foreign content
    /// (SVG or MathML), which, among other things, makes `<![CDATA[` open a
    /// CDATA section.
    #[inline]
    pub(crate) fn adjusted_current_node_is_foreign(&self) -> bool {
        if let Some(tree) = &self.exact {
            return tree.adjusted_current_node_is_foreign();
        }
        matches!(self.stack.last(), Some(e) if e.ns != Ns::Html)
    }

    /// Closes the foreign elements on top of the stack until the current
    /// node is an HTML element, an HTML integration point or a MathML text
    /// integration point (or the stack is empty): what a breakout start tag
    /// and `</br>`, `</p>` do in foreign content (§13.2.6.5) before "in
    /// body" handles them.
    fn pop_to_html_content(&mut self) {
        use Element::*;
        while let Some(&top) = self.stack.last() {
            let html_content = match (top.ns, top.element) {
                (Ns::Html, _)
                | (Ns::Svg, ForeignObject | Desc | Title)
                | (Ns::MathMl, Mi | Mo | Mn | Ms | Mtext) => true,
                (Ns::MathMl, AnnotationXml) => self.is_named(
                    self.stack.len() - 1,
                    ANNOTATION_XML_HTML,
                    self.annotation_xml_html,
                ),
                _ => false,
            };
            if html_content {
                return;
            }
            self.pop();
        }
    }

    /// The topmost open element named `name` (whose key is `key`), of the
    /// HTML namespace if `html`, else of SVG or MathML.
    #[inline]
    fn nearest_named(&self, html: bool, name: &str, key: NameKey) -> Option<usize> {
        let key = ns_key(key, html);
        let mut i = *self.nearest.get(&key)?;
        while !self.is_named(i as usize, name, key) {
            i = self.stack[i as usize].below_same;
            if i == NONE {
                return None;
            }
        }
        Some(i as usize)
    }

    /// Whether the adjusted current node makes a start tag for `element`
    /// an HTML one: an HTML integration point, or a MathML text integration
    /// point for anything but `mglyph` and `malignmark`.
    fn top_is_integration_point(&self, element: Element) -> bool {
        use Element::*;
        let Some(top) = self.stack.last() else {
            return false;
        };
        match (top.ns, top.element) {
            (Ns::Svg, ForeignObject | Desc | Title) => true,
            (Ns::MathMl, Mi | Mo | Mn | Ms | Mtext) => !matches!(element, Mglyph | Malignmark),
            // Any `annotation-xml` sends `<svg>` to the insertion mode
            // (§13.2.6, tree construction dispatcher), which opens an SVG
            // `svg`, not a MathML one.
            (Ns::MathMl, AnnotationXml) => {
                let i = self.stack.len() - 1;
                element == Svg || self.is_named(i, ANNOTATION_XML_HTML, self.annotation_xml_html)
            }
            _ => false,
        }
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
    /// Outside foreign content only a dozen elements matter (once the
    /// frameset watch has stopped, as it does early on nearly every page).
    #[inline(always)]
    pub(crate) fn ignores_start_tag(&self, tag: &Tag<'_>) -> bool {
        self.quiet != LOUD && !SWITCHING[tag.element as usize]
    }

    /// [`Self::start_tag`] for a tag that may switch (out of line: most
    /// tags do not get here).
    #[inline(never)]
    pub(crate) fn start_tag_switching(&mut self, tag: &Tag<'_>, scripting: bool) -> Option<State> {
        if let Some(tree) = &mut self.exact {
            return tree.start_tag(tag);
        }
        let (name, element) = (tag.name, tag.element);
        if self.frameset == FramesetMode::In {
            // "in frameset" and after: `noframes` goes to "in head"; every
            // other start tag that switches is ignored.
            return (element == Element::Noframes).then_some(State::Rawtext);
        }
        if let Some(&Entry { ns, .. }) = self
            .stack
            .last()
            .filter(|top| top.ns != Ns::Html && !self.top_is_integration_point(element))
        {
            if is_breakout(tag.element, tag.attributes) {
                self.pop_to_html_content();
            } else {
                if !tag.self_closing {
                    let entry = if ns == Ns::MathMl
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
                // "in template" (§13.2.6.4.18): the first start tag not
                // for "in head" chooses the mode.
                TemplateMode::Fresh => {
                    use Element::*;
                    match element {
                        Base | Basefont | Bgsound | Link | Meta | Noframes | Script | Style
                        | Template | Title => {}
                        Col => *mode = TemplateMode::ColumnGroup,
                        _ => *mode = TemplateMode::Other,
                    }
                    self.update_quiet();
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
                        Ns::Svg
                    } else {
                        Ns::MathMl
                    };
                    self.push(ns, element, name);
                }
                return None;
            }
            Element::Template => {
                self.templates.push(TemplateMode::Fresh);
                self.quiet = LOUD;
                if open {
                    self.push(Ns::Html, element, name);
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
                    self.update_quiet();
                }
                if open {
                    self.close_p();
                    self.push(Ns::Html, element, name);
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
                    self.push(Ns::Html, element, name);
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
            self.push(Ns::Html, element, name);
        }
        Some(switch)
    }

    /// Whether the element at `i` is in the scope whose boundaries are the
    /// category `scope` (§13.2.4.2): no boundary above it.
    fn in_scope(&self, i: usize, scope: usize) -> bool {
        let near = self.near(scope);
        !self.stack.is_empty() && (near == NONE || near as usize <= i)
    }

    /// The topmost open HTML element named `name`.
    #[inline]
    fn nearest_html(&self, name: &str) -> Option<usize> {
        self.nearest_named(true, name, self.keys.key(name))
    }

    /// Whether an HTML element is open on the stack: the current node, or
    /// the one below the run of foreign elements on top.
    #[inline]
    fn html_open(&self) -> bool {
        self.stack
            .last()
            .is_some_and(|top| top.ns == Ns::Html || top.run_start > 0)
    }

    /// The topmost open HTML element of any of these names.
    fn nearest_html_of(&self, names: &[&str]) -> Option<usize> {
        names.iter().filter_map(|n| self.nearest_html(n)).max()
    }

    /// "Close a p element" if one is in button scope (§13.2.6.4.7).
    fn close_p(&mut self) {
        let p = self.near(PARAGRAPH);
        if p != NONE && self.in_scope(p as usize, BUTTON_SCOPE) {
            self.pop_to(p as usize);
        }
    }

    /// What an HTML start tag closes first "in body" (§13.2.6.4.7), on the
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
    fn html_start_tag(&mut self, element: Element) -> bool {
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
                    .is_some_and(|top| top.ns == Ns::Html && top.element == Option)
                {
                    self.pop();
                }
            }
            H1 | H2 | H3 | H4 | H5 | H6 => {
                self.close_p();
                if self.stack.last().is_some_and(|top| {
                    top.ns == Ns::Html && matches!(top.element, H1 | H2 | H3 | H4 | H5 | H6)
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
                    .filter(|&i| self.near(ITEM_STOP) as usize == i)
                {
                    self.pop_to(i);
                }
                self.close_p();
            }
            Button => {
                if let Some(i) = self
                    .nearest_html("button")
                    .filter(|&i| self.in_scope(i, SCOPE))
                {
                    self.pop_to(i);
                }
            }
            _ => {}
        }
        true
    }

    /// The topmost open HTML `select`, if it is in scope.
    fn select_in_scope(&self) -> Option<usize> {
        self.nearest_html("select")
            .filter(|&i| self.in_scope(i, SCOPE))
    }

    /// "Generate implied end tags" (§13.2.6.3), but for `except`: closes
    /// the current node while it is an HTML `dd`, `dt`, `li`, `optgroup`,
    /// `option`, `p`, `rb`, `rp`, `rt` or `rtc`. (Each test is one load,
    /// and each closes an element: O(1) amortized.)
    fn generate_implied_end_tags(&mut self, except: Option<Element>) {
        while let Some(&top) = self.stack.last() {
            if top.ns != Ns::Html
                || Some(top.element) == except
                || !has_implied_end_tag(top.element)
            {
                return;
            }
            self.pop();
        }
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
    /// makes for every end tag): outside foreign content, once the
    /// frameset watch has stopped, only `</template>` and `</form>` count,
    /// and only while a template is open or the form element pointer is
    /// set (one test otherwise).
    #[inline(always)]
    pub(crate) fn ignores_end_tag(&self, tag: &Tag<'_>) -> bool {
        self.quiet == SILENT
            || (self.quiet == QUIET && !matches!(tag.element, Element::Template | Element::Form))
    }

    /// [`Self::end_tag`] inside foreign content or while the frameset
    /// watch is on (out of line).
    #[inline(never)]
    pub(crate) fn end_tag_loud(&mut self, tag: &Tag<'_>) {
        if let Some(tree) = &mut self.exact {
            return tree.end_tag(tag);
        }
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
    /// (§13.2.6.5) while the current node is foreign, then "in body".
    #[inline(always)]
    fn end_tag_open(&mut self, tag: &Tag<'_>) {
        use Element::*;
        let (name, element) = (tag.name, tag.element);
        if let Some(&top) = self.stack.last().filter(|top| top.ns != Ns::Html) {
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

    /// [`Self::end_tag`] "in body" (§13.2.6.4.7) on the stack of foreign
    /// content and its integration points, and for `</template>` and
    /// `</form>` anywhere.
    #[inline(never)]
    fn end_tag_in_body(&mut self, tag: &Tag<'_>) {
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
                    self.update_quiet();
                }
            }
            Form if self.templates.is_empty() => {
                self.form = false;
                let i = core::mem::replace(&mut self.form_at, NONE) as usize;
                if i < self.stack.len() && self.in_scope(i, SCOPE) {
                    self.remove(i);
                }
                self.update_quiet();
            }
            Body | Html | Br => {}
            P => self.close_p(),
            Li => self.pop_in_scope(self.nearest_html("li"), LIST_SCOPE),
            H1 | H2 | H3 | H4 | H5 | H6 => self.pop_in_scope(
                self.nearest_html_of(&["h1", "h2", "h3", "h4", "h5", "h6"]),
                SCOPE,
            ),
            Address | Article | Aside | Blockquote | Button | Center | Details | Dialog | Dir
            | Div | Dl | Fieldset | Figcaption | Figure | Footer | Header | Hgroup | Listing
            | Main | Menu | Nav | Ol | Pre | Search | Section | Select | Summary | Ul | Dd | Dt
            | Applet | Marquee | Object | Form => {
                self.pop_in_scope(self.nearest_html(name), SCOPE);
            }
            A | B | Big | Code | Em | Font | I | Nobr | S | Small | Strike | Strong | Tt | U => {
                // The adoption agency (§13.2.6.4.7), as far as the current
                // node goes: with no special element above the formatting
                // element, it closes with everything above it; else the
                // topmost special element above it ends up the current
                // node. (The list of active formatting elements is not
                // followed: see the module docs.)
                let Some(i) = self.nearest_html(name) else {
                    return;
                };
                if !self.in_scope(i, SCOPE) {
                    return;
                }
                let special = self.near(SPECIAL);
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
                    let special = self.near(SPECIAL);
                    if special == NONE || special as usize <= i {
                        self.pop_to(i);
                    }
                }
            }
        }
    }

    /// Closes the element at `i` with everything above it if it is in the
    /// scope `scope`.
    fn pop_in_scope(&mut self, i: Option<usize>, scope: usize) {
        if let Some(i) = i.filter(|&i| self.in_scope(i, scope)) {
            self.pop_to(i);
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
        if let Some(tree) = &mut self.context.open_elements.exact {
            match doctype {
                Some(doctype) => tree.doctype(doctype),
                None => tree.comment(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An end tag named `name`.
    fn end_tag(name: &str) -> Tag<'_> {
        Tag {
            name,
            element: Element::from_name(name),
            name_span: Default::default(),
            attributes: &[],
            self_closing: false,
            span: Default::default(),
        }
    }

    /// The stack as a list of (namespace, name), bottom first.
    fn list(stack: &OpenElements) -> Vec<(Ns, String)> {
        (0..stack.stack.len())
            .map(|i| (stack.stack[i].ns, stack.name(i)))
            .collect()
    }

    /// Random pushes, end tags and breakouts over short and long names
    /// give the stack a plain list gives: an end tag closes the nearest
    /// element of its name and everything above it, at any depth, as the
    /// tree builder's walks down the stack would, and nothing when none
    /// is open.
    #[test]
    fn end_tags_close_the_nearest_open_element_like_a_plain_list() {
        let names = [
            "g",
            "path",
            "clippath",
            "foreignobject",
            "lineargradient",
            "x",
            "mi",
            "desc",
        ];
        let mut next = crate::testing::below(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200 {
            let mut stack = OpenElements::new();
            let mut model: Vec<(Ns, String)> = Vec::new();
            for _ in 0..400 {
                let name = names[next(names.len())];
                match next(4) {
                    0 | 1 => {
                        let ns = [Ns::Svg, Ns::MathMl, Ns::Html][next(3)];
                        stack.push(ns, Element::from_name(name), name);
                        model.push((ns, name.to_owned()));
                    }
                    2 => {
                        stack.end_tag(&end_tag(name));
                        // A foreign current node: the foreign elements on
                        // top close by name. Then "any other end tag": the
                        // nearest HTML element of that name, unless a
                        // special element (here an integration point) is
                        // above it.
                        let top_foreign = model.last().is_some_and(|(ns, _)| *ns != Ns::Html);
                        let run_start = model
                            .iter()
                            .rposition(|(ns, _)| *ns == Ns::Html)
                            .map_or(0, |j| j + 1);
                        let special = |(ns, n): &(Ns, String)| {
                            (*ns == Ns::Svg && matches!(n.as_str(), "foreignobject" | "desc"))
                                || (*ns == Ns::MathMl && n == "mi")
                        };
                        if let Some(i) = model
                            .iter()
                            .rposition(|(ns, n)| *ns != Ns::Html && n == name)
                            .filter(|&i| top_foreign && i >= run_start)
                        {
                            model.truncate(i);
                        } else if let Some(i) = model
                            .iter()
                            .rposition(|(ns, n)| *ns == Ns::Html && n == name)
                            .filter(|&i| !model[i + 1..].iter().any(special))
                        {
                            model.truncate(i);
                        }
                    }
                    _ => {
                        stack.pop_to_html_content();
                        while model.last().is_some_and(|(ns, name)| {
                            *ns != Ns::Html
                                && !(*ns == Ns::Svg
                                    && matches!(name.as_str(), "foreignobject" | "desc"))
                                && !(*ns == Ns::MathMl && name == "mi")
                        }) {
                            model.pop();
                        }
                    }
                }
                assert_eq!(list(&stack), model);
                let mut open = 0;
                for &top in stack.nearest.values() {
                    let mut i = top;
                    while i != NONE {
                        open += 1;
                        i = stack.stack[i as usize].below_same;
                    }
                }
                assert_eq!(open, model.len(), "nearest");
            }
        }
    }

    /// The select parser's rules on the HTML elements open at an
    /// integration point (tags given as names, `/` before an end tag's):
    /// the stack as the tree builder's, whether the current node shows in
    /// the tokens or not (the implied end tags closed in a `select` do
    /// not: the `select` closes with all above it before an integration
    /// point can be the current node again).
    #[test]
    fn select_rules_at_an_integration_point() {
        for (tags, want) in [
            ("select select", ""),
            ("select div span select", ""),
            ("select span input", ""),
            ("select object select", "select object select"),
            ("select object select select", "select object"),
            ("div select /div", "div select"),
            ("p select /p", "p select"),
            ("select option p hr", "select"),
            ("select li rt option", "select option"),
            ("select optgroup option optgroup", "select optgroup"),
            ("select optgroup option option", "select optgroup option"),
            ("select option span hr", "select option span"),
            ("option optgroup", "optgroup"),
            ("option p option", "option p option"),
            ("optgroup option option", "optgroup option"),
        ] {
            let mut stack = OpenElements::new();
            for tag in ["svg", "foreignobject"].into_iter().chain(tags.split(' ')) {
                match tag.strip_prefix('/') {
                    Some(name) => stack.end_tag(&end_tag(name)),
                    // (A `Tag` is a start or an end tag alike.)
                    None => _ = stack.start_tag(&end_tag(tag), true),
                }
            }
            let names: Vec<String> = list(&stack).into_iter().skip(2).map(|(_, n)| n).collect();
            assert_eq!(names.join(" "), want, "{tags}");
        }
    }

    #[test]
    fn a_deep_stack_still_closes_its_bottom() {
        let mut stack = OpenElements::new();
        stack.push(Ns::Svg, Element::Svg, "svg");
        for _ in 0..100_000 {
            stack.push(Ns::Svg, Element::Other, "g");
        }
        let x = end_tag("x");
        for _ in 0..100_000 {
            stack.end_tag(&x); // not open: O(1) each
        }
        assert_eq!(stack.stack.len(), 100_001);
        stack.end_tag(&end_tag("svg"));
        assert!(stack.stack.is_empty() && stack.nearest.is_empty());
        assert!(stack.long_names.is_empty());
    }
}
