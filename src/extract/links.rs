//! The URLs in a page's attributes: which attributes hold them, and how
//! one attribute can hold several (`srcset`, `ping`, a refresh `content`).
//!
//! The table is keyed by [`Element`], so a tag with no URL attribute (most
//! tags) costs one `match` on an integer; only the attributes of the few
//! that have some are looked at.

use std::sync::Arc;

use crate::element::Element;
use crate::token::{Attribute, Span, Tag};

use super::is_space;
use super::resolve::Written;
use super::visible::ElementSet;

/// One URL found in a page.
///
/// Its strings (the URL resolved, as written, its `hreflang` and its
/// anchor text) are held in one buffer shared with the links resolved
/// with it, [`LINKS_PER_BUFFER`] at most (links come resolved in page
/// order, from [`extract`](super::extract), [`Extractor::finish`] or
/// [`Extractor::take_links`]): with an allocation per link, allocating and
/// freeing them was a third of what the links of the corpus's es6 page
/// (12,349 of them) cost over tokenizing it (BENCHMARKS.md, "Extraction").
/// A link kept after the others are dropped holds on to that buffer, at
/// most the strings of [`LINKS_PER_BUFFER`] links; [`Link::detach`] gives
/// it one of its own.
///
/// [`Extractor::finish`]: super::Extractor::finish
/// [`Extractor::take_links`]: super::Extractor::take_links
///
/// ```
/// use htmltok::extract::{extract, ExtractOptions};
/// use htmltok::url::Url;
///
/// let page = Url::parse("https://example.com/a/b.html").unwrap();
/// let html = r#"<a href=" ../c.html " hreflang=de>C <b>see</b></a>"#;
/// let found = extract(html, &ExtractOptions::default().url(Some(page)));
/// let link = &found.links[0];
/// assert_eq!((link.tag, link.attr), ("a", "href"));
/// assert_eq!(link.url(), "https://example.com/c.html");
/// assert_eq!(link.raw(), "../c.html");
/// assert_eq!(link.hreflang(), Some("de"));
/// assert_eq!(link.anchor_text(), Some("C see"));
/// assert_eq!(&html[link.span.range()], "../c.html");
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct Link {
    /// The element it is on (`"a"`, `"img"`, `"meta"`, ...).
    pub tag: &'static str,
    /// The attribute it is in (`"href"`, `"srcset"`, `"content"`, ...).
    pub attr: &'static str,
    /// Why the URL could not be parsed, when it could not.
    pub error: Option<String>,
    /// Where the URL is in the input: its own bytes when the value is
    /// written as it is, the whole attribute value's when the value has
    /// character references.
    pub span: Span,
    /// The element's `rel` keywords (`a`, `area`, `link`, `form`).
    pub rel: Rel,
    /// The buffer its strings are in, with those of the links resolved
    /// with it.
    strings: Arc<String>,
    /// Where its URL, the URL as written, the `hreflang` and the anchor
    /// text start in `strings`, and where the last ends (each ends where
    /// the next starts, but see `url_holds_raw`).
    bounds: [usize; 5],
    has_hreflang: bool,
    has_anchor_text: bool,
    /// Whether its URL ends with the URL as written, which is then not
    /// written again: the URL runs on to the end of the URL as written.
    /// So it is for most links (a fragment, a path or a query joined to
    /// the base, an absolute URL kept as it is), and the copy saved was
    /// one of the few a link costs (BENCHMARKS.md, "Extraction").
    url_holds_raw: bool,
}

impl Link {
    /// The URL resolved against the page's base URL; as written when it
    /// could not be resolved ([`error`](Self::error) says why) or when it
    /// is relative and the page's address is not known.
    pub fn url(&self) -> &str {
        let end = self.bounds[if self.url_holds_raw { 2 } else { 1 }];
        &self.strings[self.bounds[0]..end]
    }

    /// The URL as written (character references decoded, whitespace
    /// trimmed; for `srcset` one candidate's URL).
    pub fn raw(&self) -> &str {
        self.string(1)
    }

    /// The element's `hreflang` (`a`, `link`), whitespace trimmed.
    pub fn hreflang(&self) -> Option<&str> {
        self.has_hreflang.then(|| self.string(2))
    }

    /// For `<a href>`: its visible text, collapsed (at most
    /// [`ANCHOR_TEXT_LIMIT`] bytes).
    pub fn anchor_text(&self) -> Option<&str> {
        self.has_anchor_text.then(|| self.string(3))
    }

    /// The same link with a buffer of its own, holding its strings only:
    /// for a link kept long after the page's others are dropped.
    ///
    /// ```
    /// use htmltok::extract::{extract, ExtractOptions};
    ///
    /// let mut found = extract("<a href=/a>A</a><a href=/b>B</a>", &ExtractOptions::default());
    /// let kept = found.links.swap_remove(1).detach();
    /// drop(found);
    /// assert_eq!((kept.url(), kept.anchor_text()), ("/b", Some("B")));
    /// ```
    pub fn detach(&self) -> Link {
        let (start, end) = (self.bounds[0], self.bounds[4]);
        let mut bounds = self.bounds;
        bounds.iter_mut().for_each(|b| *b -= start);
        Link {
            strings: Arc::new(self.strings[start..end].to_owned()),
            bounds,
            ..self.clone()
        }
    }

    /// The `i`th of its strings.
    fn string(&self, i: usize) -> &str {
        &self.strings[self.bounds[i]..self.bounds[i + 1]]
    }

    /// The links `found` stands for, their strings taken from `text` (the
    /// buffer their ranges index) and written to one buffer for every
    /// [`LINKS_PER_BUFFER`] of them, each URL resolved by `resolve` (given
    /// the link, the URL as written and the buffer to append the resolved
    /// URL to; it answers why the URL could not be parsed, if it could
    /// not). `url_room` is about how long a resolved URL is beyond the URL
    /// as written (the base URL's length), to size each buffer once.
    pub(crate) fn assemble_all(
        found: &[Found],
        text: &str,
        url_room: usize,
        resolve: impl Fn(&Found, &str, &mut String) -> Written,
    ) -> Vec<Link> {
        let at = |(start, end): (usize, usize)| &text[start..end];
        let len = |r: Option<(usize, usize)>| r.map_or(0, |(s, e)| e - s);
        let mut links = Vec::with_capacity(found.len());
        let mut errors = Vec::new();
        for group in found.chunks(LINKS_PER_BUFFER) {
            // Enough for the URLs the resolver writes without the URL
            // parser (the base cut, the URL as written, maybe a `/`, and
            // the URL as written not again: see `place`), most of them;
            // the buffer grows for the few the parser writes.
            let room = group.iter().fold(0usize, |room, f| {
                let raw = f.raw.1 - f.raw.0;
                let others = len(f.hreflang()) + len(f.anchor_text());
                room.saturating_add(raw + url_room + 1 + others)
            });
            let mut strings = String::with_capacity(room);
            // The group's strings are written first and its links built
            // after, straight into `links`: each link is written once. The
            // few URLs that could not be parsed keep their errors apart.
            let mut bounds = [([0; 5], false); LINKS_PER_BUFFER];
            // The links whose URL could not be parsed, a bit each.
            let mut failed = 0u32;
            for (i, (f, bounds)) in group.iter().zip(&mut bounds).enumerate() {
                let others = [f.hreflang().map(at), f.anchor_text().map(at)];
                let error;
                (*bounds, error) = place(&mut strings, at(f.raw), others, |raw, out| {
                    resolve(f, raw, out)
                });
                if let Some(error) = error {
                    errors.push(error);
                    failed |= 1 << i;
                }
            }
            let strings = Arc::new(strings);
            let mut errors = errors.drain(..);
            links.extend(group.iter().zip(bounds).enumerate().map(
                |(i, (f, (bounds, url_holds_raw)))| {
                    let head = f.head;
                    Link {
                        tag: head.tag(),
                        attr: head.attr(),
                        error: if failed & (1 << i) != 0 {
                            errors.next()
                        } else {
                            None
                        },
                        span: head.span,
                        rel: head.rel,
                        strings: Arc::clone(&strings),
                        bounds,
                        has_hreflang: head.has_hreflang,
                        has_anchor_text: head.has_anchor_text,
                        url_holds_raw,
                    }
                },
            ));
        }
        links
    }

    /// The link with its URL resolved by `resolve` again (see
    /// [`Link::assemble_all`]), in a buffer of its own.
    pub(crate) fn reassembled(&self, resolve: impl FnOnce(&str, &mut String) -> Written) -> Link {
        let mut strings = String::with_capacity(2 * (self.bounds[4] - self.bounds[0]));
        let others = [self.hreflang(), self.anchor_text()];
        let ((bounds, url_holds_raw), error) = place(&mut strings, self.raw(), others, resolve);
        Link {
            tag: self.tag,
            attr: self.attr,
            error,
            span: self.span,
            rel: self.rel,
            strings: Arc::new(strings),
            bounds,
            has_hreflang: self.has_hreflang,
            has_anchor_text: self.has_anchor_text,
            url_holds_raw,
        }
    }
}

/// Appends a link's strings to `strings`: its URL as `resolve` writes it
/// (given the URL as written), then the URL as written (unless the URL
/// ends with it), its `hreflang` and anchor text (`others`, empty when
/// absent). Gives where each starts and where the last ends, whether
/// the URL ends with the URL as written (see [`Link`]'s `url_holds_raw`),
/// and why the URL could not be parsed, if it could not.
fn place(
    strings: &mut String,
    raw: &str,
    others: [Option<&str>; 2],
    resolve: impl FnOnce(&str, &mut String) -> Written,
) -> (([usize; 5], bool), Option<String>) {
    let mut bounds = [strings.len(); 5];
    let written = resolve(raw, strings);
    if written.ends_with_raw {
        bounds[1] = strings.len() - raw.len();
    } else {
        bounds[1] = strings.len();
        strings.push_str(raw);
    }
    for (i, s) in others.into_iter().enumerate() {
        bounds[i + 2] = strings.len();
        // Most links have neither (a call to copy nothing, skipped).
        if let Some(s) = s {
            strings.push_str(s);
        }
    }
    bounds[4] = strings.len();
    ((bounds, written.ends_with_raw), written.error)
}

impl PartialEq for Link {
    fn eq(&self, other: &Link) -> bool {
        (self.tag, self.attr, &self.error, self.span, self.rel)
            == (other.tag, other.attr, &other.error, other.span, other.rel)
            && (self.url(), self.raw(), self.hreflang(), self.anchor_text())
                == (
                    other.url(),
                    other.raw(),
                    other.hreflang(),
                    other.anchor_text(),
                )
    }
}

impl Eq for Link {}

impl core::fmt::Debug for Link {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Link")
            .field("tag", &self.tag)
            .field("attr", &self.attr)
            .field("url", &self.url())
            .field("raw", &self.raw())
            .field("error", &self.error)
            .field("span", &self.span)
            .field("rel", &self.rel)
            .field("hreflang", &self.hreflang())
            .field("anchor_text", &self.anchor_text())
            .finish()
    }
}

/// What a found link is besides its strings, in 24 bytes: the element and
/// attribute as small enums, not names (every found link is written once
/// and read again when it is resolved, and a page may have a million).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head {
    pub(crate) span: Span,
    /// The element ([`Element::Other`] is SVG's `use`, the one unnamed
    /// element with URL attributes).
    pub(crate) element: Element,
    attr: Attr,
    pub(crate) rel: Rel,
    has_hreflang: bool,
    has_anchor_text: bool,
}

impl Head {
    /// The element's name.
    pub(crate) fn tag(&self) -> &'static str {
        element_name(self.element)
    }

    /// The attribute's name.
    pub(crate) fn attr(&self) -> &'static str {
        self.attr.url().0
    }

    /// Whether the link is an `href`.
    pub(crate) fn is_href(&self) -> bool {
        self.attr == Attr::Href
    }
}

/// A link found and not yet resolved: its strings are ranges of a buffer
/// the extractor keeps for all such links ([`Found::raw`] and the rest), so
/// that links cost no allocation until they are resolved (then one for
/// every [`LINKS_PER_BUFFER`] of them).
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub(crate) head: Head,
    /// The URL as written, in the extractor's buffer.
    pub(crate) raw: (usize, usize),
    hreflang: (usize, usize),
    anchor_text: (usize, usize),
}

// A page may have a million found links waiting for its `<base>`.
const _: () = assert!(core::mem::size_of::<Found>() <= 72);

// A group's links whose URL could not be parsed are a bit each of a `u32`.
const _: () = assert!(LINKS_PER_BUFFER <= 32);

impl Found {
    /// Where its `hreflang` is in the extractor's buffer, if it has one.
    pub(crate) fn hreflang(&self) -> Option<(usize, usize)> {
        self.head.has_hreflang.then_some(self.hreflang)
    }

    /// Where its anchor text is in the extractor's buffer, if it has one.
    pub(crate) fn anchor_text(&self) -> Option<(usize, usize)> {
        self.head.has_anchor_text.then_some(self.anchor_text)
    }

    /// Gives it the anchor text at `range` of the extractor's buffer.
    pub(crate) fn set_anchor_text(&mut self, range: (usize, usize)) {
        self.anchor_text = range;
        self.head.has_anchor_text = true;
    }
}

/// How many links share one buffer for their strings (see [`Link`]): one
/// allocation for that many links, and what a link kept alone holds on to.
pub const LINKS_PER_BUFFER: usize = 16;

/// The most bytes of anchor text kept for one link.
pub const ANCHOR_TEXT_LIMIT: usize = 1024;

macro_rules! rel_keywords {
    ($($(#[$doc:meta])* $name:ident = $bit:expr, $keyword:literal;)*) => {
        /// The `rel` keywords of a link an indexer acts on, as a set.
        ///
        /// ```
        /// use htmltok::extract::Rel;
        ///
        /// let rel = Rel::parse("NoFollow  ugc external");
        /// assert!(rel.contains(Rel::NOFOLLOW) && rel.contains(Rel::UGC));
        /// assert!(!rel.contains(Rel::SPONSORED));
        /// assert_eq!(rel.keywords().collect::<Vec<_>>(), ["nofollow", "ugc", "external"]);
        /// ```
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Rel(u32);

        impl Rel {
            $($(#[$doc])* pub const $name: Rel = Rel(1 << $bit);)*

            /// Every keyword this type knows, with its flag.
            const ALL: &'static [(&'static str, Rel)] = &[$(($keyword, Rel::$name)),*];
        }
    };
}

rel_keywords! {
    /// `nofollow`: the page does not endorse the target.
    NOFOLLOW = 0, "nofollow";
    /// `ugc`: user-generated content.
    UGC = 1, "ugc";
    /// `sponsored`: a paid link.
    SPONSORED = 2, "sponsored";
    /// `canonical`: the preferred URL of this page.
    CANONICAL = 3, "canonical";
    /// `alternate`: another version (language, format) of this page.
    ALTERNATE = 4, "alternate";
    /// `noopener`.
    NOOPENER = 5, "noopener";
    /// `noreferrer`.
    NOREFERRER = 6, "noreferrer";
    /// `external`: a different site.
    EXTERNAL = 7, "external";
    /// `stylesheet`.
    STYLESHEET = 8, "stylesheet";
    /// `icon`.
    ICON = 9, "icon";
    /// `next`: the next page of a series.
    NEXT = 10, "next";
    /// `prev`: the previous page of a series.
    PREV = 11, "prev";
    /// `author`.
    AUTHOR = 12, "author";
    /// `license`.
    LICENSE = 13, "license";
    /// `manifest`.
    MANIFEST = 14, "manifest";
    /// `preload`.
    PRELOAD = 15, "preload";
    /// `prefetch`.
    PREFETCH = 16, "prefetch";
    /// `dns-prefetch`.
    DNS_PREFETCH = 17, "dns-prefetch";
    /// `preconnect`.
    PRECONNECT = 18, "preconnect";
    /// `modulepreload`.
    MODULEPRELOAD = 19, "modulepreload";
    /// `shortlink`.
    SHORTLINK = 20, "shortlink";
    /// `bookmark`.
    BOOKMARK = 21, "bookmark";
    /// `tag`.
    TAG = 22, "tag";
    /// `me`.
    ME = 23, "me";
    /// `help`.
    HELP = 24, "help";
    /// `search`.
    SEARCH = 25, "search";
    /// `amphtml`: the AMP version of this page.
    AMPHTML = 26, "amphtml";
}

impl Rel {
    /// The keywords of a `rel` value this type knows (ASCII
    /// case-insensitively; unknown ones are left out).
    pub fn parse(value: &str) -> Rel {
        let mut rel = Rel(0);
        for word in value.split(is_space).filter(|w| !w.is_empty()) {
            if let Some((_, flag)) = Rel::ALL.iter().find(|(k, _)| k.eq_ignore_ascii_case(word)) {
                rel.0 |= flag.0;
            }
        }
        rel
    }

    /// Whether every keyword of `other` is in the set.
    pub fn contains(self, other: Rel) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The keywords in the set, lowercase, in a fixed order.
    pub fn keywords(self) -> impl Iterator<Item = &'static str> {
        Rel::ALL
            .iter()
            .filter(move |(_, flag)| self.contains(*flag))
            .map(|(k, _)| *k)
    }
}

impl core::ops::BitOr for Rel {
    type Output = Rel;

    /// The keywords of both.
    fn bitor(self, other: Rel) -> Rel {
        Rel(self.0 | other.0)
    }
}

/// How an attribute holds URLs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
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
pub(crate) struct Attrs(u32);

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
pub(crate) const ELEMENTS: ElementSet = ElementSet::of(&[
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
pub(crate) fn url_attributes_of(tag: &Tag<'_>) -> Option<Attrs> {
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
pub(crate) fn tag_links<'s>(
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
pub(crate) fn append(text: &mut String, s: &str) -> (usize, usize) {
    let start = text.len();
    text.push_str(s);
    (start, text.len())
}

/// Whether the tag is a `<meta http-equiv=refresh>`.
pub(crate) fn is_refresh(tag: &Tag<'_>) -> bool {
    tag.attr_value("http-equiv")
        .is_some_and(|v| v.trim_matches(is_space).eq_ignore_ascii_case("refresh"))
}

/// The span of `range` of the attribute's value: its own span when the
/// value is written as it is (no character references), the whole value's
/// otherwise.
fn candidate_span<'s>(
    source: &dyn Fn(Span) -> Option<&'s str>,
    attr: &Attribute<'_>,
    span: Span,
    range: (usize, usize),
) -> Span {
    // The same slice of the input (a value without character references
    // is borrowed from it) is the common case, and needs no byte compare.
    if source(span).is_some_and(|s| core::ptr::eq(s, attr.value) || s == attr.value) {
        Span::new(span.start + range.0, span.start + range.1)
    } else {
        span
    }
}

/// The range of `s` without leading and trailing ASCII whitespace (the
/// bytes [`is_space`] matches, tested a byte at a time: a `char` at a time
/// cost 30 instructions a URL).
fn trim_range(s: &str) -> (usize, usize) {
    let start = s.len() - s.trim_ascii_start().len();
    let end = s.trim_ascii_end().len();
    (start, end.max(start))
}

/// The ranges of the whitespace-separated words of `s`.
fn words(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices().chain([(s.len(), ' ')]) {
        match (is_space(c), start) {
            (true, Some(st)) => {
                out.push((st, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// The ranges of the candidate URLs of a `srcset` value, as the HTML
/// Standard's "parse a srcset attribute" splits them: a URL runs to the
/// next whitespace (trailing commas dropped), its descriptors to the next
/// comma outside parentheses.
pub(crate) fn srcset_urls(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        while pos < b.len() && (is_space(b[pos] as char) || b[pos] == b',') {
            pos += 1;
        }
        if pos >= b.len() {
            return out;
        }
        let start = pos;
        while pos < b.len() && !is_space(b[pos] as char) {
            pos += 1;
        }
        let mut end = pos;
        if b[end - 1] == b',' {
            while end > start && b[end - 1] == b',' {
                end -= 1;
            }
        } else {
            let mut in_parens = false;
            while pos < b.len() {
                match b[pos] {
                    b'(' => in_parens = true,
                    b')' => in_parens = false,
                    b',' if !in_parens => break,
                    _ => {}
                }
                pos += 1;
            }
        }
        if end > start {
            out.push((start, end));
        }
    }
}

/// The delay (its digits and dots as written) and the range of the URL in
/// a `<meta http-equiv=refresh>` content value (`5; url='/next'`),
/// following the HTML Standard's "shared declarative refresh steps";
/// `None` when the value is not a refresh.
pub(crate) fn parse_refresh(s: &str) -> Option<(&str, Option<(usize, usize)>)> {
    let b = s.as_bytes();
    let skip_space = |mut i: usize| {
        while i < b.len() && is_space(b[i] as char) {
            i += 1;
        }
        i
    };
    let mut i = skip_space(0);
    let digits = i;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    if i == digits {
        return None;
    }
    let delay = &s[digits..i];
    i = skip_space(i);
    if i < b.len() && matches!(b[i], b';' | b',') {
        i = skip_space(i + 1);
    } else if i < b.len() {
        return None;
    }
    if i >= b.len() {
        return Some((delay, None));
    }
    // An optional `url =` before the URL.
    let rest = &s[i..];
    if rest.len() >= 3 && rest.as_bytes()[..3].eq_ignore_ascii_case(b"url") {
        let j = skip_space(i + 3);
        if j < b.len() && b[j] == b'=' {
            i = skip_space(j + 1);
        }
    }
    let mut end = b.len();
    if i < b.len() && matches!(b[i], b'"' | b'\'') {
        let quote = b[i];
        i += 1;
        end = s[i..].find(quote as char).map_or(b.len(), |q| i + q);
    }
    let (start, stop) = trim_range(&s[i..end]);
    Some((delay, (stop > start).then_some((i + start, i + stop))))
}

/// The range of the URL of a refresh `content` value, if it has one.
fn refresh_url(s: &str) -> Option<(usize, usize)> {
    parse_refresh(s)?.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srcset_candidates() {
        let s = "a.png 1x, b c.png 2x,d.png,, e(1,2).png 100w";
        let got: Vec<&str> = srcset_urls(s).iter().map(|&(a, b)| &s[a..b]).collect();
        assert_eq!(got, ["a.png", "b", "d.png", "e(1,2).png"]);
        assert!(srcset_urls(" , ").is_empty());
    }

    #[test]
    fn refresh_values() {
        assert_eq!(parse_refresh("0"), Some(("0", None)));
        assert_eq!(parse_refresh("0; http://x/"), Some(("0", Some((3, 12)))));
        assert_eq!(
            parse_refresh("5;URL = '/a b' x"),
            Some(("5", Some((9, 13))))
        );
        assert_eq!(parse_refresh("x; url=/a"), None);
        assert_eq!(parse_refresh("1.5 x"), None);
    }

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

    #[test]
    fn rel_keywords() {
        let rel = Rel::parse("Alternate\tCANONICAL unknown");
        assert_eq!(
            rel.keywords().collect::<Vec<_>>(),
            ["canonical", "alternate"]
        );
        assert!(Rel::parse("").is_empty());
    }

    /// Links share buffers [`LINKS_PER_BUFFER`] at a time, in order, each
    /// buffer holding its links' strings only; a detached link holds its
    /// own strings alone, and reads the same.
    #[test]
    fn links_share_buffers_in_groups() {
        use crate::extract::{ExtractOptions, extract};
        let html: String = (0..40)
            .map(|i| format!("<a href=/p{i} hreflang=x{i}>text {i}</a>"))
            .collect();
        let page = url::Url::parse("https://example.com/").unwrap();
        let found = extract(&html, &ExtractOptions::default().url(Some(page)));
        assert_eq!(found.links.len(), 40);
        let mut groups: Vec<usize> = Vec::new();
        for (i, link) in found.links.iter().enumerate() {
            assert_eq!(link.url(), format!("https://example.com/p{i}"));
            assert_eq!(link.anchor_text(), Some(format!("text {i}").as_str()));
            let shared = i > 0 && Arc::ptr_eq(&link.strings, &found.links[i - 1].strings);
            match groups.last_mut() {
                Some(n) if shared => *n += 1,
                _ => groups.push(1),
            }
        }
        assert_eq!(
            groups,
            [
                LINKS_PER_BUFFER,
                LINKS_PER_BUFFER,
                40 - 2 * LINKS_PER_BUFFER
            ]
        );
        for group in found.links.chunks(LINKS_PER_BUFFER) {
            let used: usize = group.iter().map(|l| l.bounds[4] - l.bounds[0]).sum();
            assert_eq!(group[0].strings.len(), used);
        }
        let kept = found.links[20].detach();
        assert_eq!(kept, found.links[20]);
        assert_eq!(kept.strings.len(), kept.bounds[4]);
        assert_eq!((kept.raw(), kept.hreflang()), ("/p20", Some("x20")));
    }
}
