//! `htmltok meta`: the metadata of each page, one JSON object per page.

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::{Options, Tag, Token};
use serde_json::{Map, Value, json};
use url::Url;

use crate::MetaArgs;
use crate::links::Resolver;
use crate::page::{Page, Reading};
use crate::run::Job;
use crate::text::Collapse;

/// Runs `htmltok meta`.
pub fn run(args: &MetaArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let job = MetaJob {
        base_url: args.base_url.as_ref(),
        reading: args.read.reading(),
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

    fn process<W: Write>(&self, page: &Page<'_>, out: &mut W) -> io::Result<()> {
        let mut reader = MetaReader::default();
        page.tokenize(Options::default(), None, &mut |token| {
            reader.push(token);
            Ok(())
        })?;
        let meta = reader.finish();
        crate::tokens::write_line(out, &meta.to_json(page.name, self.base_url))
    }
}

/// What `htmltok meta` reports about a page, URLs as written.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Meta<'a> {
    /// The text of the first `<title>`, collapsed.
    pub title: Option<String>,
    /// `<html lang>`.
    pub lang: Option<&'a str>,
    /// The first `<meta charset>` or http-equiv content-type charset.
    pub charset: Option<&'a str>,
    /// The first `<base href>`.
    pub base: Option<&'a str>,
    /// The href of the first `<link rel=canonical>`.
    pub canonical: Option<&'a str>,
    /// The robots directives, lowercased.
    pub robots: Vec<String>,
    /// `(key attribute, key value, content)` of each `<meta>` with content.
    pub meta: Vec<(&'static str, String, &'a str)>,
}

/// Gathers the metadata of a page, token by token.
#[derive(Debug, Default)]
pub struct MetaReader<'a> {
    meta: Meta<'a>,
    html_seen: bool,
    /// The title being read: its text so far.
    title: Option<Collapse>,
    /// Open <svg>/<math> elements: their <title> is not the page's.
    foreign: usize,
}

impl<'a> MetaReader<'a> {
    /// Takes in the next token.
    pub fn push(&mut self, token: Token<'a>) {
        let meta = &mut self.meta;
        match &token {
            Token::Text(t) => {
                if let Some(title) = &mut self.title {
                    title.push(t.data, false);
                }
            }
            Token::EndTag(tag) => match tag.name {
                "title" => {
                    if let Some(t) = self.title.take() {
                        meta.title = Some(t.finish().trim_end().to_owned());
                    }
                }
                "svg" | "math" => self.foreign = self.foreign.saturating_sub(1),
                _ => {}
            },
            Token::StartTag(tag) => match tag.name {
                "html" if !self.html_seen => {
                    self.html_seen = true;
                    meta.lang = tag.attr_value("lang");
                }
                "title" if self.foreign == 0 && meta.title.is_none() && self.title.is_none() => {
                    self.title = Some(Collapse::default());
                }
                "svg" | "math" if !tag.self_closing => self.foreign += 1,
                "base" if meta.base.is_none() => meta.base = tag.attr_value("href"),
                "link" if meta.canonical.is_none() && has_rel(tag, "canonical") => {
                    meta.canonical = tag.attr_value("href");
                }
                "meta" => meta.add_meta(tag),
                _ => {}
            },
            _ => {}
        }
    }

    /// The metadata.
    pub fn finish(mut self) -> Meta<'a> {
        // A title cut short by the end of the input still counts.
        if let Some(t) = self.title.take() {
            self.meta.title = Some(t.finish().trim_end().to_owned());
        }
        self.meta
    }
}

impl<'a> Meta<'a> {
    /// Gathers the metadata of a page.
    #[cfg(test)]
    pub fn of(tokens: impl Iterator<Item = Token<'a>>) -> Meta<'a> {
        let mut reader = MetaReader::default();
        tokens.for_each(|token| reader.push(token));
        reader.finish()
    }

    fn add_meta(&mut self, tag: &Tag<'a>) {
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
                .filter(|c| !c.is_empty());
        }
        let Some(content) = tag.attr_value("content") else {
            return;
        };
        let key = ["name", "property", "http-equiv", "itemprop"]
            .into_iter()
            .find_map(|k| tag.attr_value(k).map(|v| (k, v)));
        let Some((key, value)) = key else {
            return;
        };
        let value = match key {
            "name" | "http-equiv" => value.to_ascii_lowercase(),
            _ => value.to_owned(),
        };
        if key == "name" && value.trim_matches(is_space) == "robots" {
            self.robots.extend(
                content
                    .split(',')
                    .map(|d| d.trim_matches(is_space).to_lowercase())
                    .filter(|d| !d.is_empty()),
            );
        }
        self.meta.push((key, value, content));
    }

    /// The JSON object, URLs resolved against the page's base (itself
    /// resolved against `address`).
    pub fn to_json(&self, file: &str, address: Option<&Url>) -> Value {
        let document = Resolver::new(address, None);
        let resolver = Resolver::new(address, self.base);
        let meta: Vec<Value> = self
            .meta
            .iter()
            .map(|(key, value, content)| {
                let mut entry = Map::new();
                entry.insert((*key).into(), value.as_str().into());
                entry.insert("content".into(), (*content).into());
                Value::Object(entry)
            })
            .collect();
        json!({
            "file": file,
            "title": self.title,
            "lang": self.lang,
            "charset": self.charset,
            "base": self.base.map(|b| document.resolve(b).url),
            "canonical": self.canonical.map(|c| resolver.resolve(c).url),
            "robots": self.robots,
            "meta": meta,
        })
    }
}

/// Whether the tag's `rel` holds `keyword` (ASCII case-insensitively).
fn has_rel(tag: &Tag<'_>, keyword: &str) -> bool {
    tag.attr_value("rel")
        .is_some_and(|rel| rel.split(is_space).any(|k| k.eq_ignore_ascii_case(keyword)))
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0C' | '\r')
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
    use htmltok::Tokenizer;
    use htmltok::bumpalo::Bump;

    fn meta_json(html: &str, address: Option<&str>) -> Value {
        let arena = Bump::new();
        let address = address.map(|a| Url::parse(a).unwrap());
        Meta::of(Tokenizer::new(html, &arena)).to_json("f", address.as_ref())
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
