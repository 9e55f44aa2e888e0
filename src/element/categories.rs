//! What the tree builder's rules ask of an element besides its name: its
//! namespace, and the categories of the standard's
//! [stack of open elements](https://html.spec.whatwg.org/multipage/parsing.html#the-stack-of-open-elements)
//! (special, the scope boundaries), the formatting elements, the implied end
//! tags and the start tags that break out of foreign content.
//!
//! Auto-switching (`tokenizer/switch/`) and exact switching
//! (`tokenizer/tree/`) both decide by these; they import them from here and
//! not from each other.

use super::Element;

/// The namespace of an open element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Namespace {
    Html,
    Svg,
    MathMl,
}

/// The categories of HTML elements the tree builder's walks down the stack
/// of open elements stop at, as bit positions of [`categories`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Category {
    /// The [special](https://html.spec.whatwg.org/multipage/parsing.html#special)
    /// elements.
    Special,
    /// The boundaries of
    /// ["has an element in scope"](https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-scope).
    Scope,
    /// The boundaries of
    /// ["has an element in button scope"](https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-button-scope).
    ButtonScope,
    /// The boundaries of
    /// ["has an element in list item scope"](https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-list-item-scope).
    ListItemScope,
    /// Where the `li`, `dd` and `dt` start tags stop looking for an open one
    /// to close ("in body"): special elements but `address`, `div`, `p`.
    ItemStop,
    /// HTML `p` elements: what "close a p element" looks for.
    Paragraph,
}

impl Category {
    /// How many categories there are.
    pub(crate) const COUNT: usize = 6;

    /// The category's bit in [`categories`].
    #[inline(always)]
    pub(crate) const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The categories an HTML element is in, one [`Category::bit`] each. (The
/// foreign elements in any are the integration points:
/// [`is_integration_point_element`].)
pub(crate) const fn categories(element: Element) -> u8 {
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
        c |= Category::Paragraph.bit();
    }
    if special_html {
        c |= Category::Special.bit();
        if !matches!(element, Address | Div | P) {
            c |= Category::ItemStop.bit();
        }
    }
    // `select` bounds every scope since the select parser relaxation
    // (whatwg/html#10548): `<div><select></div>` leaves the `div` open.
    if matches!(
        element,
        Applet | Caption | Html | Table | Td | Th | Marquee | Object | Select | Template
    ) {
        c |= Category::Scope.bit() | Category::ButtonScope.bit() | Category::ListItemScope.bit();
    }
    if matches!(element, Button) {
        c |= Category::ButtonScope.bit();
    }
    if matches!(element, Ol | Ul) {
        c |= Category::ListItemScope.bit();
    }
    c
}

/// Whether an HTML element is in `category`.
pub(crate) const fn is_in(element: Element, category: Category) -> bool {
    categories(element) & category.bit() != 0
}

/// Whether an SVG or MathML element is one of the nine that are special
/// and bound every scope but table scope: SVG `foreignObject`, `desc`,
/// `title`, MathML `mi`, `mo`, `mn`, `ms`, `mtext`, `annotation-xml`
/// (whatever its encoding). The
/// [HTML integration points](https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point)
/// and [MathML text integration points](https://html.spec.whatwg.org/multipage/parsing.html#mathml-text-integration-point)
/// are among them.
pub(crate) const fn is_integration_point_element(ns: Namespace, element: Element) -> bool {
    use Element::*;
    match ns {
        Namespace::Html => false,
        Namespace::Svg => matches!(element, ForeignObject | Desc | Title),
        Namespace::MathMl => matches!(element, Mi | Mo | Mn | Ms | Mtext | AnnotationXml),
    }
}

/// The elements
/// ["generate implied end tags"](https://html.spec.whatwg.org/multipage/parsing.html#generate-implied-end-tags)
/// closes.
pub(crate) const fn has_implied_end_tag(element: Element) -> bool {
    use Element::*;
    matches!(
        element,
        Dd | Dt | Li | Optgroup | Option | P | Rb | Rp | Rt | Rtc
    )
}

/// The [formatting](https://html.spec.whatwg.org/multipage/parsing.html#formatting)
/// elements, which go on the list of active formatting elements.
pub(crate) const fn is_formatting(element: Element) -> bool {
    use Element::*;
    matches!(
        element,
        A | B | Big | Code | Em | Font | I | Nobr | S | Small | Strike | Strong | Tt | U
    )
}

/// Whether a start tag in foreign content ends it (a "breakout" tag of the
/// [rules for parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)):
/// one of [`is_breakout_element`], or a `font` with a `color`, `face` or
/// `size` attribute (`attribute_names`: the tag's, duplicates left out).
pub(crate) fn is_breakout<'n>(
    element: Element,
    mut attribute_names: impl Iterator<Item = &'n str>,
) -> bool {
    is_breakout_element(element)
        || (element == Element::Font
            && attribute_names.any(|name| matches!(name, "color" | "face" | "size")))
}

/// Whether a start tag in foreign content ends it: the HTML "breakout"
/// tags of "in foreign content", `font` aside.
const fn is_breakout_element(element: Element) -> bool {
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
/// (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)): the void elements and the others inserted and popped at
/// once (`image` is inserted as `img`), and the start tags ignored there
/// (table parts outside a table, `frame`, `head`, and `html`, `body` and
/// `frameset`, which never open a second time). Inside foreign content's
/// integration points these must not be stacked, or the foreign element
/// below them would not be the current node any more. (In a table's cell a
/// `td` or `tr` would close the cell instead: auto-switching does not
/// follow tables.)
pub(crate) const fn opens_nothing_in_body(element: Element) -> bool {
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
