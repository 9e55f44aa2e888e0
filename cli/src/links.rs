//! `htmltok links`: the URLs in a page's attributes, resolved against its
//! base URL.

use std::borrow::Cow;
use std::io::{self, BufReader, Read, Write};
use std::process::ExitCode;

use htmltok::{Attribute, Span, Tag, Token};
use serde_json::{Map, Value};
use url::Url;

use crate::LinksArgs;
use crate::page::{Ctx, Doc, Event, Reading, Tokenize};
use crate::run::Job;
use crate::spill::Spill;

/// Runs `htmltok links`.
pub fn run(args: &LinksArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let job = LinksJob {
        base_url: args.base_url.as_ref(),
        reading: args.input.reading(args.read.decoding()),
    };
    let mut out = crate::stdout();
    let result = crate::run::run(&job, &inputs, &args.input.settings(), &mut out, |_, ()| {});
    crate::exit_status(result)
}

/// `htmltok links` as a [`Job`].
struct LinksJob<'a> {
    base_url: Option<&'a Url>,
    reading: Reading,
}

impl Job for LinksJob<'_> {
    type Summary = ();

    fn reading(&self) -> &Reading {
        &self.reading
    }

    /// The page's `<base href>` applies to the whole page, links before it
    /// included: until one is found, links wait in a spill (in memory, or
    /// a temporary file for a page with very many), and are written, in
    /// order, once it is found or the page ends.
    fn process<W: Write>(&self, doc: &mut Doc<'_>, out: &mut W) -> io::Result<()> {
        let name = doc.name;
        // <base href> itself is relative to the document's address.
        let document = Resolver::new(self.base_url, None);
        let mut base: Option<Resolver> = None;
        let mut waiting = Spill::default();
        doc.tokenize(
            &Tokenize::default(),
            &mut |event: Event<'_, '_>, ctx: &Ctx| {
                let Event::Token(Token::StartTag(tag)) = event else {
                    return Ok(());
                };
                let mut links = Vec::new();
                tag_links(&|span| ctx.source(span), tag, &mut links);
                let found_base = base.is_none() && tag.name == "base" && tag.attr("href").is_some();
                for link in links.drain(..) {
                    match &base {
                        Some(resolver) => write_link(out, name, &link, resolver, &document)?,
                        None => link.write_to(&mut waiting)?,
                    }
                }
                if found_base {
                    let resolver = Resolver::new(self.base_url, tag.attr_value("href"));
                    write_waiting(out, name, &mut waiting, &resolver, &document)?;
                    base = Some(resolver);
                }
                Ok(())
            },
        )?;
        let resolver = base.unwrap_or_else(|| document.clone());
        write_waiting(out, name, &mut waiting, &resolver, &document)
    }
}

/// Writes the links waiting in `waiting`, resolved, in order.
fn write_waiting(
    out: &mut impl Write,
    file: &str,
    waiting: &mut Spill,
    resolver: &Resolver,
    document: &Resolver,
) -> io::Result<()> {
    if waiting.is_empty() {
        return Ok(());
    }
    let mut reader = BufReader::new(core::mem::take(waiting).into_reader()?);
    while let Some(link) = Link::read_from(&mut reader)? {
        write_link(out, file, &link, resolver, document)?;
    }
    Ok(())
}

/// Writes one link's JSON line, resolved against the page's base (a
/// `<base href>` against the document's address).
fn write_link(
    out: &mut impl Write,
    file: &str,
    link: &Link<'_>,
    resolver: &Resolver,
    document: &Resolver,
) -> io::Result<()> {
    let resolved = if link.tag == "base" {
        document.resolve(&link.url)
    } else {
        resolver.resolve(&link.url)
    };
    let mut line = Map::new();
    line.insert("file".into(), file.into());
    line.insert("tag".into(), link.tag.as_ref().into());
    line.insert("attr".into(), link.attr.as_ref().into());
    line.insert("url".into(), resolved.url.into());
    line.insert("start".into(), link.span.start.into());
    line.insert("end".into(), link.span.end.into());
    if let Some(error) = resolved.error {
        line.insert("error".into(), error.into());
    }
    crate::json::write_line(out, &Value::Object(line))
}

/// One URL found in a tag: borrowed from the token, or owned when read
/// back from a spill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link<'a> {
    /// The tag name.
    pub tag: Cow<'a, str>,
    /// The attribute name.
    pub attr: Cow<'a, str>,
    /// The URL as written (references decoded), whitespace trimmed.
    pub url: Cow<'a, str>,
    /// Where it is in the input.
    pub span: Span,
}

impl Link<'_> {
    /// Writes the link to a spill (see [`Link::read_from`]).
    fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        for s in [&self.tag, &self.attr, &self.url] {
            out.write_all(&(s.len() as u64).to_le_bytes())?;
            out.write_all(s.as_bytes())?;
        }
        out.write_all(&(self.span.start as u64).to_le_bytes())?;
        out.write_all(&(self.span.end as u64).to_le_bytes())
    }

    /// Reads back a link [`Link::write_to`] wrote, or `None` at the end.
    fn read_from(input: &mut impl Read) -> io::Result<Option<Link<'static>>> {
        fn number(input: &mut impl Read) -> io::Result<u64> {
            let mut bytes = [0; 8];
            input.read_exact(&mut bytes)?;
            Ok(u64::from_le_bytes(bytes))
        }
        fn string(input: &mut impl Read) -> io::Result<String> {
            let mut bytes = vec![0; number(input)? as usize];
            input.read_exact(&mut bytes)?;
            String::from_utf8(bytes).map_err(io::Error::other)
        }
        let tag = match string(input) {
            Ok(tag) => tag,
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        };
        let attr = string(input)?;
        let url = string(input)?;
        let span = Span::new(number(input)? as usize, number(input)? as usize);
        Ok(Some(Link {
            tag: tag.into(),
            attr: attr.into(),
            url: url.into(),
            span,
        }))
    }
}

/// How an attribute holds URLs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// One URL.
    Url,
    /// Image candidates: `url 2x, url 100w`.
    Srcset,
    /// URLs separated by whitespace (`ping`).
    Spaced,
    /// `<meta http-equiv=refresh content="5; url=...">`.
    Refresh,
}

/// The attributes of `tag` that hold URLs.
fn url_attributes(tag: &str) -> &'static [(&'static str, Kind)] {
    use Kind::*;
    match tag {
        "a" => &[("href", Url), ("ping", Spaced), ("xlink:href", Url)],
        "area" => &[("href", Url), ("ping", Spaced)],
        "link" => &[("href", Url), ("imagesrcset", Srcset)],
        "base" => &[("href", Url)],
        "img" => &[("src", Url), ("srcset", Srcset), ("longdesc", Url)],
        "source" => &[("src", Url), ("srcset", Srcset)],
        "script" | "embed" | "audio" | "track" => &[("src", Url)],
        "iframe" | "frame" => &[("src", Url), ("longdesc", Url)],
        "video" => &[("src", Url), ("poster", Url)],
        "input" => &[("src", Url), ("formaction", Url)],
        "button" => &[("formaction", Url)],
        "form" => &[("action", Url)],
        "blockquote" | "q" | "del" | "ins" => &[("cite", Url)],
        "object" => &[("data", Url)],
        "body" | "table" | "td" | "th" => &[("background", Url)],
        "html" => &[("manifest", Url)],
        "image" | "use" => &[("href", Url), ("xlink:href", Url)],
        "meta" => &[("content", Refresh)],
        _ => &[],
    }
}

/// Adds the URLs of a start tag to `links`, in attribute order. `source`
/// gives the raw source of a span of the tag (a value's, to tell one
/// written as it is from one with character references).
pub fn tag_links<'a>(
    source: &dyn Fn(Span) -> Option<&'a str>,
    tag: &Tag<'a>,
    links: &mut Vec<Link<'a>>,
) {
    let wanted = url_attributes(tag.name);
    if wanted.is_empty() {
        return;
    }
    for attr in tag.attrs() {
        let Some(&(_, kind)) = wanted.iter().find(|(name, _)| *name == attr.name) else {
            continue;
        };
        let Some(span) = attr.value_span else {
            continue;
        };
        let mut push = |range: (usize, usize)| {
            let url = &attr.value[range.0..range.1];
            if !url.is_empty() {
                let span = candidate_span(source, attr, span, range);
                links.push(Link {
                    tag: tag.name.into(),
                    attr: attr.name.into(),
                    url: url.into(),
                    span,
                });
            }
        };
        match kind {
            Kind::Url => push(trim_range(attr.value)),
            Kind::Srcset => srcset_urls(attr.value).into_iter().for_each(push),
            Kind::Spaced => words(attr.value).into_iter().for_each(push),
            Kind::Refresh => {
                let refresh = tag
                    .attr_value("http-equiv")
                    .is_some_and(|v| v.trim_matches(is_space).eq_ignore_ascii_case("refresh"));
                if let Some(range) = refresh.then(|| refresh_url(attr.value)).flatten() {
                    push(range);
                }
            }
        }
    }
}

/// The span of `range` of the attribute's value: its own span when the
/// value is written as it is (no character references), the whole value's
/// otherwise.
fn candidate_span<'a>(
    source: &dyn Fn(Span) -> Option<&'a str>,
    attr: &Attribute<'_>,
    span: Span,
    range: (usize, usize),
) -> Span {
    if source(span) == Some(attr.value) {
        Span::new(span.start + range.0, span.start + range.1)
    } else {
        span
    }
}

/// ASCII whitespace, as HTML defines it.
pub(crate) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0C' | '\r')
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
pub fn srcset_urls(s: &str) -> Vec<(usize, usize)> {
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

/// The range of the URL in a `<meta http-equiv=refresh>` content value
/// (`5; url='/next'`), following the HTML Standard's "shared declarative
/// refresh steps"; `None` when there is none.
fn refresh_url(s: &str) -> Option<(usize, usize)> {
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
    i = skip_space(i);
    if i < b.len() && matches!(b[i], b';' | b',') {
        i = skip_space(i + 1);
    } else if i < b.len() {
        return None;
    }
    if i >= b.len() {
        return None;
    }
    // An optional `url =` before the URL.
    let rest = &s[i..];
    if rest.len() >= 3 && rest[..3].eq_ignore_ascii_case("url") {
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
    (stop > start).then_some((i + start, i + stop))
}

/// A URL resolved, or as written with the reason it could not be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The absolute URL, or the URL as written.
    pub url: String,
    /// Why it could not be parsed, when it could not.
    pub error: Option<String>,
}

/// Resolves the URLs of one page against its base URL.
#[derive(Clone, Debug)]
pub struct Resolver {
    base: Option<Url>,
}

impl Resolver {
    /// The resolver of a page fetched from `address` (if known) whose first
    /// `<base href>` is `base_href` (if any): the base href resolved against
    /// the address, or the address when there is no usable base href.
    pub fn new(address: Option<&Url>, base_href: Option<&str>) -> Resolver {
        let href = base_href
            .map(|h| h.trim_matches(is_space))
            .filter(|h| !h.is_empty());
        let from_href = href.and_then(|h| match address {
            Some(address) => address.join(h).ok(),
            None => Url::parse(h).ok(),
        });
        Resolver {
            base: from_href.or_else(|| address.cloned()),
        }
    }

    /// Resolves `raw`. Without a base URL, an absolute URL is normalized
    /// and a relative one is kept as written (without an error).
    pub fn resolve(&self, raw: &str) -> Resolved {
        let raw = raw.trim_matches(is_space);
        let parsed = match &self.base {
            Some(base) => base.join(raw),
            None => Url::parse(raw),
        };
        match parsed {
            Ok(url) => Resolved {
                url: url.into(),
                error: None,
            },
            Err(url::ParseError::RelativeUrlWithoutBase) if self.base.is_none() => Resolved {
                url: raw.to_owned(),
                error: None,
            },
            Err(e) => Resolved {
                url: raw.to_owned(),
                error: Some(e.to_string()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use htmltok::Tokenizer;
    use htmltok::bumpalo::Bump;

    fn links(html: &str) -> Vec<(String, String, String, (usize, usize))> {
        let arena = Bump::new();
        let mut out = Vec::new();
        for token in Tokenizer::new(html, &arena) {
            if let Token::StartTag(tag) = token {
                tag_links(&|span: Span| html.get(span.range()), &tag, &mut out);
            }
        }
        out.iter()
            .map(|l| {
                (
                    l.tag.to_string(),
                    l.attr.to_string(),
                    l.url.to_string(),
                    (l.span.start, l.span.end),
                )
            })
            .collect()
    }

    fn l(
        tag: &str,
        attr: &str,
        url: &str,
        span: (usize, usize),
    ) -> (String, String, String, (usize, usize)) {
        (tag.into(), attr.into(), url.into(), span)
    }

    #[test]
    fn finds_url_attributes_with_spans() {
        let html = r#"<a href=" /x " title=t><img src=i.png alt><form action=""><p cite=no>"#;
        assert_eq!(
            links(html),
            [
                l("a", "href", "/x", (10, 12)),
                l("img", "src", "i.png", (32, 37))
            ]
        );
    }

    #[test]
    fn srcset_candidates_have_their_own_spans() {
        let html = r#"<img srcset="a.png 1x, b,c.png 2x,d.png,,  e.png (x, y) 3w , f.png">"#;
        let got = links(html);
        let urls: Vec<&str> = got.iter().map(|x| x.2.as_str()).collect();
        assert_eq!(urls, ["a.png", "b,c.png", "d.png", "e.png", "f.png"]);
        for (_, _, url, (s, e)) in &got {
            assert_eq!(&html[*s..*e], url);
        }
        // With a character reference the value's span stands for all.
        let html = r#"<img srcset="a.png?x&amp;y 1x, b.png 2x">"#;
        assert_eq!(
            links(html),
            [
                l("img", "srcset", "a.png?x&y", (13, 39)),
                l("img", "srcset", "b.png", (13, 39))
            ]
        );
    }

    #[test]
    fn ping_and_refresh() {
        let html = "<a ping=' /p1  /p2'><meta http-equiv=Refresh content=\"5; URL='/next?a' \">\
            <meta http-equiv=refresh content=5><meta name=x content=\"0;url=/no\">";
        let got = links(html);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!((got[0].2.as_str(), got[1].2.as_str()), ("/p1", "/p2"));
        assert_eq!(got[2].0, "meta");
        assert_eq!(got[2].2, "/next?a");
        assert_eq!(&html[got[2].3.0..got[2].3.1], "/next?a");
        assert_eq!(refresh_url("0"), None);
        assert_eq!(refresh_url("0; http://x/"), Some((3, 12)));
        assert_eq!(refresh_url("x; url=/a"), None);
    }

    #[test]
    fn resolution() {
        let address = Url::parse("https://example.com/dir/page.html").unwrap();
        let r = Resolver::new(Some(&address), None);
        assert_eq!(r.resolve("../a b?x#y").url, "https://example.com/a%20b?x#y");
        let r = Resolver::new(Some(&address), Some(" /base/ "));
        assert_eq!(r.resolve("x").url, "https://example.com/base/x");
        let r = Resolver::new(None, Some("/relative/"));
        assert_eq!(r.base, None);
        assert_eq!(
            r.resolve("x.html"),
            Resolved {
                url: "x.html".into(),
                error: None
            }
        );
        assert_eq!(r.resolve("HTTP://Example.COM").url, "http://example.com/");
        let bad = r.resolve("http://exa mple.com/");
        assert_eq!(bad.url, "http://exa mple.com/");
        assert_eq!(
            bad.error.as_deref(),
            Some("invalid international domain name")
        );
    }
}
