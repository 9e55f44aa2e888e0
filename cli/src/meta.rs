//! `htmltok meta`: the metadata of each page, one JSON object per page, as
//! the library's [`htmltok::extract`] gathers it.

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::extract::{ExtractOptions, Extractor, Metadata};
use serde_json::{Map, Value, json};
use url::Url;

use crate::args::MetaArgs;
use crate::extracting::{self, Feeding};
use crate::job::Job;
use crate::page::{Page, Reading, Tokenizing};
use crate::{exit, stdio};

/// Runs `htmltok meta`.
pub fn run(args: &MetaArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let job = MetaJob {
        options: options(args.base_url.as_ref()),
        reading: args.input.reading(args.read.decoding()),
    };
    let mut out = stdio::stdout();
    let result = crate::run::run(&job, &inputs, &args.input.settings(), &mut out, |_, ()| {});
    exit::status(result)
}

/// The extraction options of `htmltok meta`: metadata only.
fn options(base_url: Option<&Url>) -> ExtractOptions {
    ExtractOptions::default()
        .text(false)
        .links(false)
        .url(base_url.cloned())
}

/// `htmltok meta` as a [`Job`]: the library's [`Extractor`], metadata
/// only.
struct MetaJob {
    options: ExtractOptions,
    reading: Reading,
}

impl Job for MetaJob {
    type Summary = ();

    fn reading(&self) -> &Reading {
        &self.reading
    }

    fn process<W: Write>(&self, page: &mut Page<'_>, out: &mut W) -> io::Result<()> {
        let options = extracting::options_for(&self.options, page);
        let tokenizing = Tokenizing {
            options: options.tokenizer_options(),
            ..Tokenizing::default()
        };
        let mut extractor = Extractor::new(&options);
        page.tokenize(
            &tokenizing,
            &mut Feeding {
                extractor: &mut extractor,
            },
        )?;
        let meta = extractor.finish().metadata;
        page.label().write_line(out, &to_json(&meta))
    }
}

/// The JSON object of a page's metadata (without its label).
fn to_json(meta: &Metadata) -> Value {
    let pairs = |pairs: &[(String, String)]| -> Value {
        pairs
            .iter()
            .map(|(k, v)| json!({"property": k, "content": v}))
            .collect()
    };
    json!({
        "title": meta.title,
        "lang": meta.lang,
        "charset": meta.charset,
        "base": meta.base,
        "canonical": meta.canonical,
        "robots": meta.robots,
        "meta": meta.meta.iter().map(|m| {
            let mut entry = Map::new();
            entry.insert(m.key.as_str().into(), m.value.clone().into());
            entry.insert("content".into(), m.content.clone().into());
            Value::Object(entry)
        }).collect::<Value>(),
        "description": meta.description,
        "keywords": meta.keywords,
        "alternates": meta.alternates.iter().map(|a| json!({
            "href": a.href, "hreflang": a.hreflang, "type": a.media_type,
        })).collect::<Value>(),
        "refresh": meta.refresh.as_ref().map(|r| json!({"seconds": r.seconds, "url": r.url})),
        "open_graph": pairs(&meta.open_graph),
        "twitter": pairs(&meta.twitter),
        "json_ld": meta.json_ld,
        "truncated": meta.truncated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta_json(html: &str, address: Option<&str>) -> Value {
        let address = address.map(|a| Url::parse(a).unwrap());
        let out = crate::job::output_at_sizes(html, &[1, 3, 1 << 20], |reading| MetaJob {
            options: options(address.as_ref()),
            reading,
        });
        serde_json::from_str(&out).unwrap()
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
                "description": "Cod & more",
                "keywords": [],
                "alternates": [],
                "refresh": null,
                "open_graph": [{"property": "og:title", "content": "OG"}],
                "twitter": [],
                "json_ld": [],
                "truncated": false,
            })
        );
    }

    #[test]
    fn empty_page_has_nulls() {
        assert_eq!(
            meta_json("<p>hi", None),
            json!({"file": "f", "title": null, "lang": null, "charset": null, "base": null,
                   "canonical": null, "robots": [], "meta": [], "description": null,
                   "keywords": [], "alternates": [], "refresh": null, "open_graph": [],
                   "twitter": [], "json_ld": [], "truncated": false})
        );
        // A relative canonical stays as written without a base.
        let got = meta_json(
            "<link rel=canonical href=/c><svg><title>x</title></svg>",
            None,
        );
        assert_eq!(got["canonical"], "/c");
        assert_eq!(got["title"], Value::Null);
    }
}
