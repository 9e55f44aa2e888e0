//! The URLs in a page's attributes: which attributes hold them, and how
//! one attribute can hold several (`srcset`, `ping`, a refresh `content`).
//!
//! The table is keyed by [`Element`], so a tag with no URL attribute (most
//! tags) costs one `match` on an integer; only the attributes of the few
//! that have some are looked at.

use crate::element::Element;
use crate::token::{Attribute, Span, Tag};

use super::rel::Rel;
use super::url_lists::{candidate_span, refresh_url, srcset_urls, trim_range, words};
use super::visible::ElementSet;
use crate::scan::is_ascii_whitespace_char;

/// What a found link is besides its strings, in 24 bytes: the element and
/// attribute as small enums, not names (every found link is written once
/// and read again when it is resolved, and a page may have a million).
#[derive(Clone, Copy, Debug)]
pub(super) struct Head {
    pub(super) span: Span,
    /// The element ([`Element::Other`] is SVG's `use`, the one unnamed
    /// element with URL attributes).
    pub(super) element: Element,
    attr: Attr,
    pub(super) rel: Rel,
    pub(super) has_hreflang: bool,
    pub(super) has_anchor_text: bool,
}

impl Head {
    /// The element's name.
    pub(super) fn tag(&self) -> &'static str {
        element_name(self.element)
    }

    /// The attribute's name.
    pub(super) fn attr(&self) -> &'static str {
        self.attr.url().0
    }

    /// Whether the link is an `href`.
    pub(super) fn is_href(&self) -> bool {
        self.attr == Attr::Href
    }
}

/// A link found and not yet resolved: its strings are ranges of a buffer
/// the extractor keeps for all such links ([`Found::raw`] and the rest), so
/// that links cost no allocation until they are resolved (then one for
/// every [`LINKS_PER_BUFFER`] of them).
#[derive(Clone, Debug)]
pub(super) struct Found {
    pub(super) head: Head,
    /// The URL as written, in the extractor's buffer.
    pub(super) raw: (usize, usize),
    hreflang: (usize, usize),
    anchor_text: (usize, usize),
}

// A page may have a million found links waiting for its `<base>`.
const _: () = assert!(core::mem::size_of::<Found>() <= 72);

impl Found {
    /// Where its `hreflang` is in the extractor's buffer, if it has one.
    pub(super) fn hreflang(&self) -> Option<(usize, usize)> {
        self.head.has_hreflang.then_some(self.hreflang)
    }

    /// Where its anchor text is in the extractor's buffer, if it has one.
    pub(super) fn anchor_text(&self) -> Option<(usize, usize)> {
        self.head.has_anchor_text.then_some(self.anchor_text)
    }

    /// Gives it the anchor text at `range` of the extractor's buffer.
    pub(super) fn set_anchor_text(&mut self, range: (usize, usize)) {
        self.anchor_text = range;
        self.head.has_anchor_text = true;
    }
}

/// How an attribute holds URLs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// One URL.
    Url,
    /// Image candidates: `url 2x, url 100w`.
    Srcset,
    /// URLs separated by whitespace (`ping`).
    Spaced,
    /// `<meta http-equiv=refresh content="5; url=...">`.
    Refresh,
}

/// Defines [`Attr`] from one list: each URL attribute's variant, name and
/// how it holds URLs.
macro_rules! url_attributes {
    ($($variant:ident = $name:literal, $kind:ident;)*) => {
        /// An attribute that may hold URLs: what [`Attr::of`] makes of an
        /// attribute's name, so that a tag's attributes are told apart by
        /// a `match` on literals (a length test and an integer compare
        /// each) instead of compares against a list of names.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Attr {
            $($variant,)*
        }

        impl Attr {
            /// Every one of them.
            #[cfg(test)]
            const ALL: &[Attr] = &[$(Attr::$variant,)*];

            /// The attribute named `name` (lowercase, as tags have them).
            #[inline]
            fn of(name: &str) -> Option<Attr> {
                match name {
                    $($name => Some(Attr::$variant),)*
                    _ => None,
                }
            }

            /// Its name, and how it holds URLs.
            fn url(self) -> (&'static str, Kind) {
                match self {
                    $(Attr::$variant => ($name, Kind::$kind),)*
                }
            }
        }
    };
}

url_attributes! {
    Href = "href", Url;
    Src = "src", Url;
    Srcset = "srcset", Srcset;
    XlinkHref = "xlink:href", Url;
    Ping = "ping", Spaced;
    ImageSrcset = "imagesrcset", Srcset;
    Longdesc = "longdesc", Url;
    Poster = "poster", Url;
    Formaction = "formaction", Url;
    Action = "action", Url;
    Cite = "cite", Url;
    Data = "data", Url;
    Background = "background", Url;
    Manifest = "manifest", Url;
    Content = "content", Refresh;
}

/// A set of [`Attr`]s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Attrs(u32);

impl Attrs {
    const fn of(attrs: &[Attr]) -> Attrs {
        let mut bits = 0;
        let mut i = 0;
        while i < attrs.len() {
            bits |= 1 << attrs[i] as u32;
            i += 1;
        }
        Attrs(bits)
    }

    fn contains(self, attr: Attr) -> bool {
        self.0 & (1 << attr as u32) != 0
    }
}

/// The name of an element with URL attributes: [`Element::Other`] is SVG's
/// `use`, the one unnamed element that has some ([`url_attributes`]).
fn element_name(element: Element) -> &'static str {
    element.name().unwrap_or("use")
}

/// The URL attributes of a tag of `element` (named `name`), if it has
/// any.
fn url_attributes(element: Element, name: &str) -> Option<Attrs> {
    use Attr::*;
    use Element as E;
    Some(match element {
        E::A => const { Attrs::of(&[Href, Ping, XlinkHref]) },
        E::Area => const { Attrs::of(&[Href, Ping]) },
        E::Link => const { Attrs::of(&[Href, ImageSrcset]) },
        E::Base => const { Attrs::of(&[Href]) },
        E::Img => const { Attrs::of(&[Src, Srcset, Longdesc]) },
        E::Source => const { Attrs::of(&[Src, Srcset]) },
        E::Script => const { Attrs::of(&[Src]) },
        E::Embed => const { Attrs::of(&[Src]) },
        E::Audio => const { Attrs::of(&[Src]) },
        E::Track => const { Attrs::of(&[Src]) },
        E::Iframe => const { Attrs::of(&[Src, Longdesc]) },
        E::Frame => const { Attrs::of(&[Src, Longdesc]) },
        E::Video => const { Attrs::of(&[Src, Poster]) },
        E::Input => const { Attrs::of(&[Src, Formaction]) },
        E::Button => const { Attrs::of(&[Formaction]) },
        E::Form => const { Attrs::of(&[Action]) },
        E::Blockquote => const { Attrs::of(&[Cite]) },
        E::Q => const { Attrs::of(&[Cite]) },
        E::Del => const { Attrs::of(&[Cite]) },
        E::Ins => const { Attrs::of(&[Cite]) },
        E::Object => const { Attrs::of(&[Data]) },
        E::Body => const { Attrs::of(&[Background]) },
        E::Table => const { Attrs::of(&[Background]) },
        E::Td => const { Attrs::of(&[Background]) },
        E::Th => const { Attrs::of(&[Background]) },
        E::Html => const { Attrs::of(&[Manifest]) },
        E::Image => const { Attrs::of(&[Href, XlinkHref]) },
        E::Meta => const { Attrs::of(&[Content]) },
        E::Other if name == "use" => const { Attrs::of(&[Href, XlinkHref]) },
        _ => return None,
    })
}

/// The elements whose start tags the links are read from: those with URL
/// attributes ([`url_attributes`]; [`Element::Other`] for SVG's `use`),
/// and `a`, whose start tag also ends the anchor text of the one before.
pub(super) const ELEMENTS: ElementSet = ElementSet::of(&[
    Element::A,
    Element::Area,
    Element::Link,
    Element::Base,
    Element::Img,
    Element::Source,
    Element::Script,
    Element::Embed,
    Element::Audio,
    Element::Track,
    Element::Iframe,
    Element::Frame,
    Element::Video,
    Element::Input,
    Element::Button,
    Element::Form,
    Element::Blockquote,
    Element::Q,
    Element::Del,
    Element::Ins,
    Element::Object,
    Element::Body,
    Element::Table,
    Element::Td,
    Element::Th,
    Element::Html,
    Element::Image,
    Element::Meta,
    Element::Other,
]);

/// The URL attributes the tag may have, if any: a cheap first test (one
/// `match` on an integer for most tags), whose answer goes to
/// [`tag_links`].
#[inline]
pub(super) fn url_attributes_of(tag: &Tag<'_>) -> Option<Attrs> {
    if tag.attributes.is_empty() {
        return None;
    }
    url_attributes(tag.element, tag.name)
}

/// Adds the URLs of a start tag to `links`, in attribute order, as written
/// (their strings appended to `text`, which their ranges index); `wanted` is
/// what [`url_attributes_of`] gave for it. `source` is the input the tag's
/// spans index, when the caller has it (to tell a value written as it is
/// from one with character references, and give each URL its own span).
pub(super) fn tag_links<'s>(
    source: &dyn Fn(Span) -> Option<&'s str>,
    tag: &Tag<'_>,
    wanted: Attrs,
    links: &mut Vec<Found>,
    text: &mut String,
) {
    // One pass over the attributes finds the URL attributes (at most three
    // per element: `wanted` has no more) and the values every link of the
    // tag takes, which may come after them.
    let mut urls: [Option<(&Attribute<'_>, Attr)>; 3] = [None; 3];
    let mut found = 0;
    let (mut rel_value, mut hreflang_value) = (None, None);
    for attr in tag.attrs() {
        match attr.name {
            "rel" => rel_value = Some(attr.value),
            "hreflang" => hreflang_value = Some(attr.value),
            name => match Attr::of(name) {
                Some(url) if wanted.contains(url) && found < urls.len() => {
                    urls[found] = Some((attr, url));
                    found += 1;
                }
                _ => {}
            },
        }
    }
    if found == 0 {
        return;
    }
    // What every link of the tag takes, worked out once (the `hreflang`
    // written once for them all, before the first URL).
    let rel = match rel_value {
        Some(value)
            if matches!(
                tag.element,
                Element::A | Element::Area | Element::Link | Element::Form
            ) =>
        {
            Rel::parse(value)
        }
        _ => Rel::default(),
    };
    let hreflang = hreflang_value
        .filter(|_| matches!(tag.element, Element::A | Element::Link))
        .map(|h| append(text, h.trim_ascii()));
    let head = Head {
        span: Span::new(0, 0),
        element: tag.element,
        attr: Attr::Href,
        rel,
        has_hreflang: hreflang.is_some(),
        has_anchor_text: false,
    };
    let hreflang = hreflang.unwrap_or_default();
    for (attr, url) in urls[..found].iter().flatten() {
        let Some(span) = attr.value_span else {
            continue;
        };
        let head = Head { attr: *url, ..head };
        // The one URL of most attributes is pushed inline, the several of
        // the rest through a closure.
        let mut push = |range| push_found(source, attr, span, range, head, hreflang, links, text);
        match url.url().1 {
            Kind::Url => push(trim_range(attr.value)),
            Kind::Srcset => srcset_urls(attr.value).into_iter().for_each(push),
            Kind::Spaced => words(attr.value).into_iter().for_each(push),
            Kind::Refresh => {
                if let Some(range) = refresh_url(attr.value).filter(|_| is_refresh(tag)) {
                    push(range);
                }
            }
        }
    }
}

/// Adds the URL at `range` of the attribute's value (its span `span`) to
/// `links`, its string appended to `text`, unless it is empty; `head` is
/// what the tag's links share, `hreflang` their `hreflang`'s range.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn push_found<'s>(
    source: &dyn Fn(Span) -> Option<&'s str>,
    attr: &Attribute<'_>,
    span: Span,
    range: (usize, usize),
    head: Head,
    hreflang: (usize, usize),
    links: &mut Vec<Found>,
    text: &mut String,
) {
    let raw = &attr.value[range.0..range.1];
    if raw.is_empty() {
        return;
    }
    links.push(Found {
        head: Head {
            span: candidate_span(source, attr, span, range),
            ..head
        },
        raw: append(text, raw),
        hreflang,
        anchor_text: (0, 0),
    });
}

/// Appends `s` to `text`, and gives its range there.
pub(super) fn append(text: &mut String, s: &str) -> (usize, usize) {
    let start = text.len();
    text.push_str(s);
    (start, text.len())
}

/// Whether the tag is a `<meta http-equiv=refresh>`.
pub(super) fn is_refresh(tag: &Tag<'_>) -> bool {
    tag.attr_value("http-equiv").is_some_and(|v| {
        v.trim_matches(is_ascii_whitespace_char)
            .eq_ignore_ascii_case("refresh")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`ELEMENTS`], which the extractor passes the start tags of to
    /// [`url_attributes_of`], are the elements with URL attributes.
    #[test]
    fn elements_are_those_with_url_attributes() {
        for &element in &crate::element::ALL {
            let has = url_attributes(element, "use").is_some();
            assert_eq!(ELEMENTS.contains(element), has, "{element:?}");
        }
        assert!(ELEMENTS.contains(Element::Other) && ELEMENTS.contains(Element::A));
    }

    #[test]
    fn url_attributes_are_named_back_and_few() {
        let all = Attr::ALL;
        for &attr in all {
            assert_eq!(Attr::of(attr.url().0), Some(attr), "{attr:?}");
        }
        assert_eq!(Attr::of("rel"), None);
        // `tag_links` keeps at most three URL attributes of a tag.
        for &element in &crate::element::ALL {
            if let Some(attrs) = url_attributes(element, "use") {
                // What a found link's element is named from.
                assert!(element.name().is_some() || element == Element::Other);
                assert!(attrs.0.count_ones() <= 3, "{element:?}");
                assert!(all.iter().any(|&a| attrs.contains(a)), "{element:?}");
            }
        }
        assert_eq!(element_name(Element::Other), "use");
        assert_eq!(element_name(Element::Img), "img");
    }
}
