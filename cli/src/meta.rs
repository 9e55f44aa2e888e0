//! `htmltok meta`: the metadata of each page, one JSON object per page.

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{Tag, Token};
use serde_json::{Map, Value};
use url::Url;

use crate::MetaArgs;
use crate::json::Escaping;
use crate::links::Resolver;
use crate::links::is_space;
use crate::page::{Ctx, Doc, Event, Reading, Tokenize};
use crate::run::Job;
use crate::spill::Spill;
use crate::text::Collapse;

/// Runs `htmltok meta`.
pub fn run(args: &MetaArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let job = MetaJob {
        base_url: args.base_url.as_ref(),
        reading: args.input.reading(args.read.decoding()),
    };
    let mut out = crate::stdout();
    let result = crate::run::run(&job, &inputs, &args.input.settings(), &mut out, |_, ()| {});
    crate::exit_status(result)
}

/// `htmltok meta` as a [`Job`].
struct MetaJob<'a> {
    base_url: Option<&'a Url>,
    reading: Reading,
}

impl Job for MetaJob<'_> {
    type Summary = ();

    fn reading(&self) -> &Reading {
        &self.reading
    }

    fn process<W: Write>(&self, doc: &mut Doc<'_>, out: &mut W) -> io::Result<()> {
        let mut meta = Meta::default();
        doc.tokenize(
            &Tokenize::default(),
            &mut |event: Event<'_, '_>, _: &Ctx| meta.event(&event),
        )?;
        meta.write_json(out, doc.name, self.base_url)
    }
}

/// Where the page's title is.
#[derive(Debug, Default)]
enum Title {
    /// No `<title>` yet.
    #[default]
    None,
    /// In the first `<title>`: its text so far, collapsed.
    Reading(Collapse),
    /// After it.
    Done,
}

/// What `htmltok meta` reports about a page, gathered event by event. The
/// title, the robots directives and the `<meta>`s can be as long as the
/// page: they are kept as JSON in spills, so a page of any size holds
/// little; the other fields are one attribute value each.
#[derive(Debug, Default)]
pub struct Meta {
    /// The text of the first `<title>`, collapsed, as the inside of a
    /// JSON string.
    title: Spill,
    title_state: Title,
    /// `<html lang>`.
    lang: Option<String>,
    /// The first `<meta charset>` or http-equiv content-type charset.
    charset: Option<String>,
    /// The first `<base href>`.
    base: Option<String>,
    /// The href of the first `<link rel=canonical>`.
    canonical: Option<String>,
    /// The robots directives, lowercased: JSON strings, comma-separated.
    robots: Spill,
    /// Each `<meta>` with content and a key: JSON objects, comma-separated.
    meta: Spill,
    html_seen: bool,
    /// Open <svg>/<math> elements: their <title> is not the page's.
    foreign: usize,
}

/// Writes `item` to a spill of comma-separated JSON values.
fn push_item(list: &mut Spill, item: &Value) -> io::Result<()> {
    if !list.is_empty() {
        list.write_all(b",")?;
    }
    serde_json::to_writer(list, item).map_err(io::Error::from)
}

impl Meta {
    /// Takes in the next event.
    pub fn event(&mut self, event: &Event<'_, '_>) -> io::Result<()> {
        match event {
            Event::Text { text, .. } => {
                if let Title::Reading(title) = &mut self.title_state {
                    title.push(&mut Escaping(&mut self.title), text.data, false)?;
                }
            }
            Event::Token(Token::EndTag(tag)) => match tag.name {
                "title" => {
                    if matches!(self.title_state, Title::Reading(_)) {
                        self.title_state = Title::Done;
                    }
                }
                "svg" | "math" => self.foreign = self.foreign.saturating_sub(1),
                _ => {}
            },
            Event::Token(Token::StartTag(tag)) => match tag.name {
                "html" if !self.html_seen => {
                    self.html_seen = true;
                    self.lang = tag.attr_value("lang").map(str::to_owned);
                }
                "title" if self.foreign == 0 && matches!(self.title_state, Title::None) => {
                    self.title_state = Title::Reading(Collapse::default());
                }
                "svg" | "math" if !tag.self_closing => self.foreign += 1,
                "base" if self.base.is_none() => {
                    self.base = tag.attr_value("href").map(str::to_owned);
                }
                "link" if self.canonical.is_none() && has_rel(tag, "canonical") => {
                    self.canonical = tag.attr_value("href").map(str::to_owned);
                }
                "meta" => self.add_meta(tag)?,
                _ => {}
            },
            _ => {}
        }
        Ok(())
    }

    fn add_meta(&mut self, tag: &Tag<'_>) -> io::Result<()> {
        if self.charset.is_none() {
            self.charset = tag
                .attr_value("charset")
                .map(|c| c.trim_matches(is_space))
                .or_else(|| {
                    let http_equiv = tag.attr_value("http-equiv")?;
                    if !http_equiv
                        .trim_matches(is_space)
                        .eq_ignore_ascii_case("content-type")
                    {
                        return None;
                    }
                    charset_from_content_type(tag.attr_value("content")?)
                })
                .filter(|c| !c.is_empty())
                .map(str::to_owned);
        }
        let Some(content) = tag.attr_value("content") else {
            return Ok(());
        };
        let key = ["name", "property", "http-equiv", "itemprop"]
            .into_iter()
            .find_map(|k| tag.attr_value(k).map(|v| (k, v)));
        let Some((key, value)) = key else {
            return Ok(());
        };
        let value = match key {
            "name" | "http-equiv" => value.to_ascii_lowercase(),
            _ => value.to_owned(),
        };
        if key == "name" && value.trim_matches(is_space) == "robots" {
            for directive in content
                .split(',')
                .map(|d| d.trim_matches(is_space).to_lowercase())
                .filter(|d| !d.is_empty())
            {
                push_item(&mut self.robots, &Value::from(directive))?;
            }
        }
        let mut entry = Map::new();
        entry.insert(key.into(), value.into());
        entry.insert("content".into(), content.into());
        push_item(&mut self.meta, &Value::Object(entry))
    }

    /// Writes the JSON line, URLs resolved against the page's base (itself
    /// resolved against `address`): `{"file", "title", "lang", "charset",
    /// "base", "canonical", "robots": [...], "meta": [...]}`. A title cut
    /// short by the end of the input still counts.
    pub fn write_json(
        &mut self,
        out: &mut impl Write,
        file: &str,
        address: Option<&Url>,
    ) -> io::Result<()> {
        let document = Resolver::new(address, None);
        let resolver = Resolver::new(address, self.base.as_deref());
        let field = |out: &mut dyn Write, name: &str, value: Option<&str>| -> io::Result<()> {
            write!(out, ",\"{name}\":")?;
            serde_json::to_writer(out, &value).map_err(io::Error::from)
        };
        out.write_all(b"{\"file\":")?;
        serde_json::to_writer(&mut *out, file)?;
        out.write_all(b",\"title\":")?;
        if matches!(self.title_state, Title::None) {
            out.write_all(b"null")?;
        } else {
            out.write_all(b"\"")?;
            self.title.drain_to(out)?;
            out.write_all(b"\"")?;
        }
        field(out, "lang", self.lang.as_deref())?;
        field(out, "charset", self.charset.as_deref())?;
        let base = self.base.as_deref().map(|b| document.resolve(b).url);
        field(out, "base", base.as_deref())?;
        let canonical = self.canonical.as_deref().map(|c| resolver.resolve(c).url);
        field(out, "canonical", canonical.as_deref())?;
        out.write_all(b",\"robots\":[")?;
        self.robots.drain_to(out)?;
        out.write_all(b"],\"meta\":[")?;
        self.meta.drain_to(out)?;
        out.write_all(b"]}\n")
    }
}

/// Whether the tag's `rel` holds `keyword` (ASCII case-insensitively).
fn has_rel(tag: &Tag<'_>, keyword: &str) -> bool {
    tag.attr_value("rel")
        .is_some_and(|rel| rel.split(is_space).any(|k| k.eq_ignore_ascii_case(keyword)))
}

/// The charset in a Content-Type value (`text/html; charset="utf-8"`), as
/// the HTML Standard's "extracting a character encoding from a meta
/// element" finds it.
fn charset_from_content_type(content: &str) -> Option<&str> {
    let lower = content.to_ascii_lowercase();
    let mut from = 0;
    loop {
        let at = from + lower[from..].find("charset")?;
        let mut i = at + "charset".len();
        let b = content.as_bytes();
        while i < b.len() && is_space(b[i] as char) {
            i += 1;
        }
        if i >= b.len() || b[i] != b'=' {
            from = at + 1;
            continue;
        }
        i += 1;
        while i < b.len() && is_space(b[i] as char) {
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
                    .find(|c: char| is_space(c) || c == ';')
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
    use crate::page::Decoding;
    use serde_json::json;

    fn meta_json(html: &str, address: Option<&str>) -> Value {
        let address = address.map(|a| Url::parse(a).unwrap());
        let mut lines = Vec::new();
        for size in [1, 3, 1 << 20] {
            let reading = Reading {
                chunk_size: size,
                ..Reading::new(Decoding::sniff(None))
            };
            let reader = Box::new(io::Cursor::new(html.as_bytes().to_vec()));
            let mut doc = Doc::open("f", reader, None, &reading).unwrap();
            let job = MetaJob {
                base_url: address.as_ref(),
                reading: reading.clone(),
            };
            let mut out = Vec::new();
            job.process(&mut doc, &mut out).unwrap();
            lines.push(String::from_utf8(out).unwrap());
        }
        assert!(lines.iter().all(|l| *l == lines[0]), "{lines:?}");
        serde_json::from_str(&lines[0]).unwrap()
    }

    #[test]
    fn gathers_everything() {
        let html = r#"<!DOCTYPE html><html lang=en-GB><head>
            <meta http-equiv="Content-Type" content="text/html; charset='iso-8859-1'">
            <meta charset=utf-8>
            <title>  Fish &amp;
              chips </title><title>second</title>
            <meta name=Description content="Cod &amp; more">
            <meta property="og:title" content="OG">
            <meta name=ROBOTS content="NoIndex, nofollow ,">
            <meta name=robots content="noarchive">
            <link rel="alternate Canonical" href="/c?a=1&amp;b=2">
            <base href="/base/">
            </head><svg><title>not this</title></svg>"#;
        let got = meta_json(html, Some("https://example.com/x/y.html"));
        assert_eq!(
            got,
            json!({
                "file": "f",
                "title": "Fish & chips",
                "lang": "en-GB",
                "charset": "iso-8859-1",
                "base": "https://example.com/base/",
                "canonical": "https://example.com/c?a=1&b=2",
                "robots": ["noindex", "nofollow", "noarchive"],
                "meta": [
                    {"http-equiv": "content-type", "content": "text/html; charset='iso-8859-1'"},
                    {"name": "description", "content": "Cod & more"},
                    {"property": "og:title", "content": "OG"},
                    {"name": "robots", "content": "NoIndex, nofollow ,"},
                    {"name": "robots", "content": "noarchive"},
                ],
            })
        );
    }

    #[test]
    fn empty_page_has_nulls() {
        assert_eq!(
            meta_json("<p>hi", None),
            json!({"file": "f", "title": null, "lang": null, "charset": null, "base": null,
                   "canonical": null, "robots": [], "meta": []})
        );
        // A relative canonical stays as written without a base.
        let got = meta_json(
            "<link rel=canonical href=/c><svg><title>x</title></svg>",
            None,
        );
        assert_eq!(got["canonical"], "/c");
        assert_eq!(got["title"], Value::Null);
    }

    #[test]
    fn content_type_charset() {
        assert_eq!(
            charset_from_content_type("text/html; charset=UTF-8"),
            Some("UTF-8")
        );
        assert_eq!(
            charset_from_content_type("text/html;charset = \"a b\""),
            Some("a b")
        );
        assert_eq!(
            charset_from_content_type("charsetx; charset=x;y"),
            Some("x")
        );
        assert_eq!(charset_from_content_type("text/html"), None);
        assert_eq!(charset_from_content_type("charset='unterminated"), None);
    }
}
