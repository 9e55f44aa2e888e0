//! A page's metadata: title, language, charset, the `<meta>`s an indexer
//! reads (description, keywords, robots, refresh, Open Graph, Twitter
//! cards), canonical and alternate links, and JSON-LD blocks.
//!
//! Everything is gathered in one pass as the tokens go by. A hostile page
//! can have a megabyte title or a million `<meta>`s, so what is held is
//! capped by one budget in bytes ([`ExtractOptions::metadata_limit`]);
//! past it, further values are left out and [`Metadata::truncated`] says
//! so.
//!
//! [`ExtractOptions::metadata_limit`]: super::ExtractOptions::metadata_limit

use crate::element::Element;
use crate::token::{Tag, Text};

use super::collapse::{Collapse, Out};
use super::rel::Rel;
use super::resolve::Resolver;
use super::url_lists::parse_refresh;
use super::visible::ElementSet;
use crate::scan::{is_ascii_whitespace, is_ascii_whitespace_char};

/// The metadata of a page.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Metadata {
    /// The text of the first `<title>` (outside SVG and MathML), collapsed.
    pub title: Option<String>,
    /// `<html lang>`.
    pub lang: Option<String>,
    /// The first `<meta charset>`, or charset of a `<meta
    /// http-equiv=content-type>`, as written.
    pub charset: Option<String>,
    /// The first `<base href>`, resolved against the page's address.
    pub base: Option<String>,
    /// The `href` of the first `<link rel=canonical>`, resolved.
    pub canonical: Option<String>,
    /// `<meta name=description>`.
    pub description: Option<String>,
    /// `<meta name=keywords>`, split at commas, trimmed.
    pub keywords: Vec<String>,
    /// The directives of every `<meta name=robots>`, lowercased, in order.
    pub robots: Vec<String>,
    /// Each `<link rel=alternate>` with an `hreflang` or a `type`.
    pub alternates: Vec<Alternate>,
    /// `<meta http-equiv=refresh>`.
    pub refresh: Option<Refresh>,
    /// Open Graph properties (`<meta property="og:...">`), in order, the
    /// key as written.
    pub open_graph: Vec<(String, String)>,
    /// Twitter card properties (`<meta name="twitter:...">`, or
    /// `property`), in order.
    pub twitter: Vec<(String, String)>,
    /// The content of each `<script type="application/ld+json">`, as
    /// written.
    pub json_ld: Vec<String>,
    /// Every `<meta>` with content and a key, in order.
    pub meta: Vec<MetaTag>,
    /// Whether values were left out because of the memory budget.
    pub truncated: bool,
}

/// A `<link rel=alternate>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternate {
    /// The URL, resolved.
    pub href: String,
    /// `hreflang`, as written.
    pub hreflang: Option<String>,
    /// `type` (`application/rss+xml`, ...), as written.
    pub media_type: Option<String>,
}

/// A `<meta http-equiv=refresh>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Refresh {
    /// The delay in seconds.
    pub seconds: f64,
    /// The URL, resolved, when the refresh goes to another page.
    pub url: Option<String>,
}

/// What names a `<meta>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MetaKey {
    /// `name=` (its value is lowercased).
    Name,
    /// `property=` (Open Graph, RDFa).
    Property,
    /// `http-equiv=` (lowercased).
    HttpEquiv,
    /// `itemprop=` (microdata).
    Itemprop,
}

impl MetaKey {
    /// The attribute name.
    pub fn as_str(self) -> &'static str {
        match self {
            MetaKey::Name => "name",
            MetaKey::Property => "property",
            MetaKey::HttpEquiv => "http-equiv",
            MetaKey::Itemprop => "itemprop",
        }
    }
}

/// One `<meta>` with content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaTag {
    /// Which attribute names it.
    pub key: MetaKey,
    /// That attribute's value.
    pub value: String,
    /// Its `content`.
    pub content: String,
}

/// Where the page's title is.
#[derive(Debug, Default)]
enum Title {
    /// No `<title>` yet.
    #[default]
    None,
    /// In the first `<title>`: its text so far, collapsed.
    Reading(Collapse, Out),
    /// After it.
    Done,
}

/// The elements whose end tags [`MetaCollector::end_tag`] reads.
pub(super) const END_ELEMENTS: ElementSet =
    ElementSet::of(&[Element::Title, Element::Svg, Element::Math, Element::Script]);

/// The elements whose start tags [`MetaCollector::start_tag`] reads.
pub(super) const ELEMENTS: ElementSet = ElementSet::of(&[
    Element::Html,
    Element::Title,
    Element::Svg,
    Element::Math,
    Element::Base,
    Element::Link,
    Element::Meta,
    Element::Script,
]);

/// Gathers [`Metadata`] token by token.
#[derive(Debug)]
pub(super) struct MetaCollector {
    meta: Metadata,
    title: Title,
    /// Raw `<base href>` and canonical, resolved at the end.
    base_href: Option<String>,
    canonical: Option<String>,
    refresh_url: Option<String>,
    /// The alternates' raw hrefs.
    alternate_hrefs: Vec<String>,
    html_seen: bool,
    /// Open `<svg>`/`<math>` elements: their `<title>` is not the page's.
    foreign: u32,
    /// In a JSON-LD script: its text so far.
    json_ld: Option<String>,
    /// Bytes of budget left.
    budget: usize,
}

impl MetaCollector {
    /// A collector that holds at most `limit` bytes of values.
    pub(super) fn new(limit: usize) -> MetaCollector {
        MetaCollector {
            meta: Metadata::default(),
            title: Title::None,
            base_href: None,
            canonical: None,
            refresh_url: None,
            alternate_hrefs: Vec::new(),
            html_seen: false,
            foreign: 0,
            json_ld: None,
            budget: limit,
        }
    }

    /// Takes `n` bytes of the budget, or says there are not that many.
    fn spend(&mut self, n: usize) -> bool {
        if n > self.budget {
            self.meta.truncated = true;
            return false;
        }
        self.budget -= n;
        true
    }

    /// A value kept, if the budget allows.
    fn keep(&mut self, s: &str) -> Option<String> {
        self.spend(s.len()).then(|| s.to_owned())
    }

    /// Whether text tokens are wanted now (in the title, or in a JSON-LD
    /// script): elsewhere, [`MetaCollector::text`] does nothing.
    #[inline]
    pub(super) fn takes_text(&self) -> bool {
        matches!(self.title, Title::Reading(..)) || self.json_ld.is_some()
    }

    /// Takes in text. Inlined into the extractor's text paths, where most
    /// text is none of the metadata's: a test, and a call only for the
    /// text it takes.
    #[inline(always)]
    pub(super) fn text(&mut self, text: &Text<'_>) {
        if self.takes_text() {
            self.take_text(text);
        }
    }

    /// [`MetaCollector::text`] for the text it takes.
    #[inline(never)]
    fn take_text(&mut self, text: &Text<'_>) {
        if let Title::Reading(collapse, out) = &mut self.title {
            collapse.push(out, text.data, false);
            if out.truncated {
                self.meta.truncated = true;
            }
        } else if self.json_ld.is_some() {
            if self.spend(text.data.len()) {
                self.json_ld.as_mut().expect("json-ld").push_str(text.data);
            } else {
                self.json_ld = None;
            }
        }
    }

    /// Takes in an end tag (of one of [`END_ELEMENTS`]: the others change
    /// nothing).
    pub(super) fn end_tag(&mut self, tag: &Tag<'_>) {
        match tag.element {
            Element::Title => self.end_title(),
            Element::Svg | Element::Math => self.foreign = self.foreign.saturating_sub(1),
            Element::Script => {
                if let Some(json) = self.json_ld.take() {
                    self.meta.json_ld.push(json);
                }
            }
            _ => {}
        }
    }

    fn end_title(&mut self) {
        if let Title::Reading(_, out) = &mut self.title {
            let title = out.drain();
            // The budget was spent as it was written.
            self.budget = self.budget.saturating_sub(title.len());
            self.meta.title = Some(title);
            self.title = Title::Done;
        }
    }

    /// Takes in a start tag (of one of [`ELEMENTS`]: the others change
    /// nothing).
    pub(super) fn start_tag(&mut self, tag: &Tag<'_>) {
        match tag.element {
            Element::Html if !self.html_seen => {
                self.html_seen = true;
                self.meta.lang = tag.attr_value("lang").and_then(|l| self.keep(l));
            }
            Element::Title if self.foreign == 0 && matches!(self.title, Title::None) => {
                self.title = Title::Reading(Collapse::default(), Out::new(self.budget));
            }
            Element::Svg | Element::Math if !tag.self_closing => self.foreign += 1,
            Element::Base if self.base_href.is_none() => {
                self.base_href = tag.attr_value("href").and_then(|h| self.keep(h));
            }
            Element::Link => self.link(tag),
            Element::Meta => self.add_meta(tag),
            Element::Script => {
                let json = tag.attr_value("type").is_some_and(|t| {
                    t.trim_matches(is_ascii_whitespace_char)
                        .eq_ignore_ascii_case("application/ld+json")
                });
                if json {
                    self.json_ld = Some(String::new());
                }
            }
            _ => {}
        }
    }

    fn link(&mut self, tag: &Tag<'_>) {
        let Some(rel) = tag.attr_value("rel").map(Rel::parse) else {
            return;
        };
        let Some(href) = tag.attr_value("href") else {
            return;
        };
        if rel.contains(Rel::CANONICAL) && self.canonical.is_none() {
            self.canonical = self.keep(href);
        }
        if rel.contains(Rel::ALTERNATE) {
            let hreflang = tag.attr_value("hreflang");
            let media_type = tag.attr_value("type");
            if hreflang.is_none() && media_type.is_none() {
                return;
            }
            let n = href.len() + hreflang.map_or(0, str::len) + media_type.map_or(0, str::len);
            if self.spend(n) {
                self.alternate_hrefs.push(href.to_owned());
                self.meta.alternates.push(Alternate {
                    href: String::new(),
                    hreflang: hreflang.map(str::to_owned),
                    media_type: media_type.map(str::to_owned),
                });
            }
        }
    }

    fn add_meta(&mut self, tag: &Tag<'_>) {
        if self.meta.charset.is_none() {
            self.meta.charset = tag
                .attr_value("charset")
                .map(|c| c.trim_matches(is_ascii_whitespace_char))
                .or_else(|| {
                    let http_equiv = tag.attr_value("http-equiv")?;
                    if !http_equiv
                        .trim_matches(is_ascii_whitespace_char)
                        .eq_ignore_ascii_case("content-type")
                    {
                        return None;
                    }
                    charset_from_content_type(tag.attr_value("content")?)
                })
                .filter(|c| !c.is_empty())
                .and_then(|c| self.keep(c));
        }
        let Some(content) = tag.attr_value("content") else {
            return;
        };
        let keys = [
            (MetaKey::Name, "name"),
            (MetaKey::Property, "property"),
            (MetaKey::HttpEquiv, "http-equiv"),
            (MetaKey::Itemprop, "itemprop"),
        ];
        let Some((key, value)) = keys
            .into_iter()
            .find_map(|(key, attr)| tag.attr_value(attr).map(|v| (key, v)))
        else {
            return;
        };
        let value = match key {
            MetaKey::Name | MetaKey::HttpEquiv => value.to_ascii_lowercase(),
            _ => value.to_owned(),
        };
        if !self.spend(value.len() + content.len()) {
            return;
        }
        let name = value.trim_matches(is_ascii_whitespace_char);
        match key {
            MetaKey::Name if name == "robots" => {
                let directives = content
                    .split(',')
                    .map(|d| d.trim_matches(is_ascii_whitespace_char).to_lowercase())
                    .filter(|d| !d.is_empty());
                self.meta.robots.extend(directives);
            }
            MetaKey::Name if name == "description" && self.meta.description.is_none() => {
                self.meta.description = Some(content.to_owned());
            }
            MetaKey::Name if name == "keywords" => {
                let keywords = content
                    .split(',')
                    .map(|k| k.trim_matches(is_ascii_whitespace_char))
                    .filter(|k| !k.is_empty())
                    .map(str::to_owned);
                self.meta.keywords.extend(keywords);
            }
            MetaKey::HttpEquiv if name == "refresh" && self.meta.refresh.is_none() => {
                if let Some((delay, url)) = parse_refresh(content) {
                    self.meta.refresh = Some(Refresh {
                        seconds: delay.parse().unwrap_or(0.0),
                        url: None,
                    });
                    self.refresh_url = url.map(|(a, b)| content[a..b].to_owned());
                }
            }
            _ => {}
        }
        let prefixed = |prefix: &str| {
            name.len() > prefix.len()
                && name.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
        };
        if matches!(key, MetaKey::Property) && prefixed("og:") {
            self.meta
                .open_graph
                .push((name.to_owned(), content.to_owned()));
        } else if matches!(key, MetaKey::Name | MetaKey::Property) && prefixed("twitter:") {
            self.meta
                .twitter
                .push((name.to_owned(), content.to_owned()));
        }
        self.meta.meta.push(MetaTag {
            key,
            value,
            content: content.to_owned(),
        });
    }

    /// The metadata, URLs resolved: the base against `document` (the
    /// page's address), the rest against `page` (its base URL). A title
    /// cut short by the end of the input still counts.
    pub(super) fn finish(mut self, document: &Resolver, page: &Resolver) -> Metadata {
        self.end_title();
        if let Some(json) = self.json_ld.take() {
            self.meta.json_ld.push(json);
        }
        let mut meta = self.meta;
        meta.base = self.base_href.map(|b| document.resolve(&b).url);
        meta.canonical = self.canonical.map(|c| page.resolve(&c).url);
        for (alternate, href) in meta.alternates.iter_mut().zip(self.alternate_hrefs) {
            alternate.href = page.resolve(&href).url;
        }
        if let Some(refresh) = &mut meta.refresh {
            refresh.url = self.refresh_url.map(|u| page.resolve(&u).url);
        }
        meta
    }
}

/// The charset in a Content-Type value (`text/html; charset="utf-8"`), as
/// the HTML Standard's "extracting a character encoding from a meta
/// element" finds it.
pub(super) fn charset_from_content_type(content: &str) -> Option<&str> {
    let b = content.as_bytes();
    let mut from = 0;
    loop {
        let at = from
            + b[from..]
                .windows(7)
                .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        let mut i = at + "charset".len();
        while i < b.len() && is_ascii_whitespace(b[i]) {
            i += 1;
        }
        if i >= b.len() || b[i] != b'=' {
            from = at + 1;
            continue;
        }
        i += 1;
        while i < b.len() && is_ascii_whitespace(b[i]) {
            i += 1;
        }
        let rest = &content[i..];
        return match rest.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let inner = &rest[1..];
                inner.find(q).map(|end| &inner[..end])
            }
            Some(_) => {
                let end = rest
                    .find(|c: char| is_ascii_whitespace_char(c) || c == ';')
                    .unwrap_or(rest.len());
                Some(&rest[..end])
            }
            None => None,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The elements whose tag, last in `html_of(name)`, changes the
    /// collector (the tags before it are fed first).
    fn changed_by_last_tag(html_of: impl Fn(&str) -> String) -> Vec<Element> {
        let mut changed = Vec::new();
        for &element in &crate::element::ALL {
            let html = html_of(element.name().unwrap_or("use"));
            let arena = bumpalo::Bump::new();
            let options = crate::Options::default().auto_switch(false);
            let mut collector = MetaCollector::new(usize::MAX);
            let mut before = String::new();
            for token in crate::Tokenizer::with_options(&html, &arena, options) {
                before = format!("{collector:?}");
                match token {
                    crate::Token::StartTag(tag) => collector.start_tag(&tag),
                    crate::Token::EndTag(tag) => collector.end_tag(&tag),
                    _ => {}
                }
            }
            if format!("{collector:?}") != before {
                changed.push(element);
            }
        }
        changed
    }

    /// The elements of `set`, in id order.
    fn members(set: ElementSet) -> Vec<Element> {
        crate::element::ALL
            .iter()
            .copied()
            .filter(|&e| set.contains(e))
            .collect()
    }

    /// The start tags of elements outside [`ELEMENTS`] (which the
    /// extractor does not pass on) change nothing, whatever their
    /// attributes; those of each element in it change something.
    #[test]
    fn elements_are_those_read() {
        let attributes = r#"lang=en href=/x rel="canonical alternate" hreflang=de name=description property=og:title content="1; url=/y" http-equiv=refresh charset=utf-8 type=application/ld+json"#;
        let changed = changed_by_last_tag(|name| format!("<{name} {attributes}>"));
        assert_eq!(changed, members(ELEMENTS));
    }

    /// Likewise for end tags and [`END_ELEMENTS`], with every element that
    /// the metadata reads to its end open.
    #[test]
    fn end_elements_are_those_read() {
        let open = "<title><script type=application/ld+json><svg><math>";
        let changed = changed_by_last_tag(|name| format!("{open}</{name}>"));
        assert_eq!(changed, members(END_ELEMENTS));
    }

    #[test]
    fn content_type_charset() {
        assert_eq!(
            charset_from_content_type("text/html; charset=UTF-8"),
            Some("UTF-8")
        );
        assert_eq!(
            charset_from_content_type("text/html;CharSet = \"a b\""),
            Some("a b")
        );
        assert_eq!(
            charset_from_content_type("charsetx; charset=x;y"),
            Some("x")
        );
        assert_eq!(charset_from_content_type("text/html"), None);
        assert_eq!(charset_from_content_type("charset='unterminated"), None);
        assert_eq!(
            charset_from_content_type("\u{e9}charset=\u{e9}"),
            Some("\u{e9}")
        );
    }
}
