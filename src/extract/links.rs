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
    /// the next starts).
    bounds: [usize; 5],
    has_hreflang: bool,
    has_anchor_text: bool,
}

impl Link {
    /// The URL resolved against the page's base URL; as written when it
    /// could not be resolved ([`error`](Self::error) says why) or when it
    /// is relative and the page's address is not known.
    pub fn url(&self) -> &str {
        self.string(0)
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
        resolve: impl Fn(&Found, &str, &mut String) -> Option<String>,
    ) -> Vec<Link> {
        let at = |(start, end): (usize, usize)| &text[start..end];
        let len = |r: Option<(usize, usize)>| r.map_or(0, |(s, e)| e - s);
        let mut links = Vec::with_capacity(found.len());
        let mut placed = Vec::with_capacity(found.len().min(LINKS_PER_BUFFER));
        for group in found.chunks(LINKS_PER_BUFFER) {
            let room = group.iter().fold(0usize, |room, f| {
                let raw = f.raw.1 - f.raw.0;
                room.saturating_add(2 * raw + url_room + len(f.hreflang) + len(f.anchor_text))
            });
            let mut strings = String::with_capacity(room);
            placed.extend(group.iter().map(|f| {
                let raw = at(f.raw);
                let start = strings.len();
                let error = resolve(f, raw, &mut strings);
                let others = [Some(raw), f.hreflang.map(at), f.anchor_text.map(at)];
                Placed::new(f.head, error, start, &mut strings, others)
            }));
            let strings = Arc::new(strings);
            links.extend(placed.drain(..).map(|p| p.link(&strings)));
        }
        links
    }

    /// The link with its URL resolved by `resolve` again (see
    /// [`Link::assemble_all`]), in a buffer of its own.
    pub(crate) fn reassembled(
        &self,
        resolve: impl FnOnce(&str, &mut String) -> Option<String>,
    ) -> Link {
        let head = Head {
            tag: self.tag,
            attr: self.attr,
            span: self.span,
            rel: self.rel,
        };
        let mut strings = String::with_capacity(2 * (self.bounds[4] - self.bounds[0]));
        let error = resolve(self.raw(), &mut strings);
        let others = [Some(self.raw()), self.hreflang(), self.anchor_text()];
        let placed = Placed::new(head, error, 0, &mut strings, others);
        placed.link(&Arc::new(strings))
    }
}

/// A link whose strings are written to a buffer not yet shared.
struct Placed {
    head: Head,
    error: Option<String>,
    bounds: [usize; 5],
    has_hreflang: bool,
    has_anchor_text: bool,
}

impl Placed {
    /// The link whose URL was just appended to `strings` from `url_start`;
    /// its URL as written, `hreflang` and anchor text (`others`) are
    /// appended after it.
    fn new(
        head: Head,
        error: Option<String>,
        url_start: usize,
        strings: &mut String,
        others: [Option<&str>; 3],
    ) -> Placed {
        let mut bounds = [url_start; 5];
        for (i, s) in others.into_iter().enumerate() {
            bounds[i + 1] = strings.len();
            strings.push_str(s.unwrap_or_default());
        }
        bounds[4] = strings.len();
        Placed {
            head,
            error,
            bounds,
            has_hreflang: others[1].is_some(),
            has_anchor_text: others[2].is_some(),
        }
    }

    /// The link, its strings in `strings`.
    fn link(self, strings: &Arc<String>) -> Link {
        Link {
            tag: self.head.tag,
            attr: self.head.attr,
            error: self.error,
            span: self.head.span,
            rel: self.head.rel,
            strings: Arc::clone(strings),
            bounds: self.bounds,
            has_hreflang: self.has_hreflang,
            has_anchor_text: self.has_anchor_text,
        }
    }
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

/// What a link is besides its strings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head {
    pub(crate) tag: &'static str,
    pub(crate) attr: &'static str,
    pub(crate) span: Span,
    pub(crate) rel: Rel,
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
    pub(crate) hreflang: Option<(usize, usize)>,
    pub(crate) anchor_text: Option<(usize, usize)>,
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

/// An element's name and its URL attributes, each with how it holds URLs.
pub(crate) type UrlAttributes = (&'static str, &'static [(&'static str, Kind)]);

/// The element name and the URL attributes of a tag of `element` (named
/// `name`), if it has any.
fn url_attributes(element: Element, name: &str) -> Option<UrlAttributes> {
    use Element as E;
    use Kind::*;
    Some(match element {
        E::A => ("a", &[("href", Url), ("ping", Spaced), ("xlink:href", Url)]),
        E::Area => ("area", &[("href", Url), ("ping", Spaced)]),
        E::Link => ("link", &[("href", Url), ("imagesrcset", Srcset)]),
        E::Base => ("base", &[("href", Url)]),
        E::Img => (
            "img",
            &[("src", Url), ("srcset", Srcset), ("longdesc", Url)],
        ),
        E::Source => ("source", &[("src", Url), ("srcset", Srcset)]),
        E::Script => ("script", &[("src", Url)]),
        E::Embed => ("embed", &[("src", Url)]),
        E::Audio => ("audio", &[("src", Url)]),
        E::Track => ("track", &[("src", Url)]),
        E::Iframe => ("iframe", &[("src", Url), ("longdesc", Url)]),
        E::Frame => ("frame", &[("src", Url), ("longdesc", Url)]),
        E::Video => ("video", &[("src", Url), ("poster", Url)]),
        E::Input => ("input", &[("src", Url), ("formaction", Url)]),
        E::Button => ("button", &[("formaction", Url)]),
        E::Form => ("form", &[("action", Url)]),
        E::Blockquote => ("blockquote", &[("cite", Url)]),
        E::Q => ("q", &[("cite", Url)]),
        E::Del => ("del", &[("cite", Url)]),
        E::Ins => ("ins", &[("cite", Url)]),
        E::Object => ("object", &[("data", Url)]),
        E::Body => ("body", &[("background", Url)]),
        E::Table => ("table", &[("background", Url)]),
        E::Td => ("td", &[("background", Url)]),
        E::Th => ("th", &[("background", Url)]),
        E::Html => ("html", &[("manifest", Url)]),
        E::Image => ("image", &[("href", Url), ("xlink:href", Url)]),
        E::Meta => ("meta", &[("content", Refresh)]),
        E::Other if name == "use" => ("use", &[("href", Url), ("xlink:href", Url)]),
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
pub(crate) fn url_attributes_of(tag: &Tag<'_>) -> Option<UrlAttributes> {
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
    (tag_name, wanted): UrlAttributes,
    links: &mut Vec<Found>,
    text: &mut String,
) {
    let mut rel = None;
    let mut hreflang = None;
    for attr in tag.attrs() {
        let Some(&(attr_name, kind)) = wanted.iter().find(|(name, _)| *name == attr.name) else {
            continue;
        };
        let Some(span) = attr.value_span else {
            continue;
        };
        let mut push = |range: (usize, usize)| {
            let raw = &attr.value[range.0..range.1];
            if raw.is_empty() {
                return;
            }
            let rel = *rel.get_or_insert_with(|| {
                tag.attr_value("rel")
                    .filter(|_| matches!(tag_name, "a" | "area" | "link" | "form"))
                    .map_or(Rel::default(), Rel::parse)
            });
            // Written once for all the URLs of the tag.
            let hreflang = *hreflang.get_or_insert_with(|| {
                tag.attr_value("hreflang")
                    .filter(|_| matches!(tag_name, "a" | "link"))
                    .map(|h| append(text, h.trim_matches(is_space)))
            });
            links.push(Found {
                head: Head {
                    tag: tag_name,
                    attr: attr_name,
                    span: candidate_span(source, attr, span, range),
                    rel,
                },
                raw: append(text, raw),
                hreflang,
                anchor_text: None,
            });
        };
        match kind {
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

/// The range of `s` without leading and trailing ASCII whitespace.
fn trim_range(s: &str) -> (usize, usize) {
    let start = s.len() - s.trim_start_matches(is_space).len();
    let end = s.trim_end_matches(is_space).len();
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
