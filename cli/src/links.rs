//! `htmltok links`: the URLs in a page's attributes, resolved against its
//! base URL, as the library's [`htmltok::extract`] finds them.

use std::io::{self, BufReader, Read, Write};
use std::process::ExitCode;

use htmltok::extract::{ExtractOptions, Extractor, Link, Rel};
use url::Url;

use crate::args::LinksArgs;
use crate::extracting;
use crate::job::Job;
use crate::json::write_str;
use crate::page::{Context, EachToken, Event, Page, Reading, Tokenizing};
use crate::spill::Spill;
use crate::{exit, stdio};

/// Runs `htmltok links`.
pub fn run(args: &LinksArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let job = LinksJob {
        options: options(args.base_url.as_ref()),
        reading: args.input.reading(args.read.decoding()),
        spill_at: SPILL_AT,
    };
    let mut out = stdio::stdout();
    let result = crate::run::run(&job, &inputs, &args.input.settings(), &mut out, |_, ()| {});
    exit::status(result)
}

/// The extraction options of `htmltok links`: links only.
fn options(base_url: Option<&Url>) -> ExtractOptions {
    ExtractOptions::default()
        .text(false)
        .metadata(false)
        .url(base_url.cloned())
}

/// `htmltok links` as a [`Job`].
struct LinksJob {
    options: ExtractOptions,
    reading: Reading,
    /// How many bytes of links may wait in the extractor for a page's
    /// `<base>` before they go to the spill.
    spill_at: usize,
}

impl Job for LinksJob {
    type Summary = ();

    fn reading(&self) -> &Reading {
        &self.reading
    }

    /// The page's `<base href>` applies to the whole page, links before it
    /// included: until one is found, links wait in a spill (in memory, or
    /// a temporary file for a page with very many), and are written, in
    /// order, once it is found or the page ends.
    /// A record's page resolves against its target URI.
    fn process<W: Write>(&self, page: &mut Page<'_>, out: &mut W) -> io::Result<()> {
        // The label's JSON fields, written once: every line starts with them.
        let label = page.label().json();
        let options = extracting::options_for(&self.options, page);
        let tokenizing = Tokenizing {
            options: options.tokenizer_options(),
            ..Tokenizing::default()
        };
        let mut extractor = Extractor::new(&options);
        let mut waiting = Spill::default();
        page.tokenize(
            &tokenizing,
            &mut EachToken::new(|event: Event<'_, '_>, context: &Context| {
                match &event {
                    Event::Token(token) => {
                        extractor.token_with_source(token, &|span| context.source(span))
                    }
                    _ => extracting::feed(&mut extractor, &event),
                }
                if !extractor.base_known() {
                    // Links wait in the extractor; a page with very many moves
                    // them to the spill, which holds them in a file past 1 MB.
                    if extractor.links_held_bytes() >= self.spill_at {
                        for link in extractor.take_links_unresolved() {
                            spill_link(&mut waiting, &link)?;
                        }
                    }
                    return Ok(());
                }
                write_waiting(out, &label, &mut waiting, &extractor)?;
                for link in extractor.take_links() {
                    write_link(out, &label, &link)?;
                }
                Ok(())
            }),
        )?;
        write_waiting(out, &label, &mut waiting, &extractor)?;
        for link in extractor.finish().links {
            write_link(out, &label, &link)?;
        }
        Ok(())
    }
}

/// How many bytes of links may wait in the extractor for a page's `<base>`
/// before they go to the spill: a page's links are a small part of it
/// (the corpus's es6 page, 3.8 MB, holds 1.7 MB for its 12,349 links), so
/// on nearly every page they wait in memory, and a page with millions
/// (or a few huge ones) goes on in bounded memory. Spilling and reading
/// back cost more than finding the links (72 M instructions of 281 M over
/// the corpus when it was 4096 links).
const SPILL_AT: usize = 16 << 20;

/// Keeps a link whose base URL is not known yet: its fields but the
/// resolved URL, length-prefixed (read back by [`read_spilled`]).
fn spill_link(waiting: &mut Spill, link: &Link) -> io::Result<()> {
    let rel: Vec<&str> = link.rel.keywords().collect();
    for field in [link.tag, link.attr, link.raw(), &rel.join(" ")] {
        put_str(waiting, Some(field))?;
    }
    put_str(waiting, link.hreflang())?;
    put_str(waiting, link.anchor_text())?;
    waiting.write_all(&(link.span.start as u64).to_le_bytes())?;
    waiting.write_all(&(link.span.end as u64).to_le_bytes())
}

/// Writes an optional string: its length plus one (0 for none), then its
/// bytes.
fn put_str(out: &mut impl Write, s: Option<&str>) -> io::Result<()> {
    let len = s.map_or(0, |s| s.len() as u64 + 1);
    out.write_all(&len.to_le_bytes())?;
    out.write_all(s.unwrap_or_default().as_bytes())
}

/// Reads a number [`spill_link`] wrote.
fn get_u64(input: &mut impl Read) -> io::Result<u64> {
    let mut bytes = [0; 8];
    input.read_exact(&mut bytes)?;
    Ok(u64::from_le_bytes(bytes))
}

/// Reads a string [`put_str`] wrote.
fn get_str(input: &mut impl Read) -> io::Result<Option<String>> {
    let Some(len) = get_u64(input)?.checked_sub(1) else {
        return Ok(None);
    };
    let mut bytes = vec![0; len as usize];
    input.read_exact(&mut bytes)?;
    String::from_utf8(bytes).map(Some).map_err(io::Error::other)
}

/// A link read back from the spill: tag, attr, raw URL, rel keywords,
/// hreflang, anchor text, start, end.
type Spilled = (
    String,
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    u64,
    u64,
);

/// Reads back the next link [`spill_link`] wrote, or `None` at the end.
fn read_spilled(input: &mut impl Read) -> io::Result<Option<Spilled>> {
    let tag = match get_str(input) {
        Ok(tag) => tag.unwrap_or_default(),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut field = || get_str(input).map(Option::unwrap_or_default);
    let (attr, raw, rel) = (field()?, field()?, field()?);
    let (hreflang, anchor_text) = (get_str(input)?, get_str(input)?);
    Ok(Some((
        tag,
        attr,
        raw,
        rel,
        hreflang,
        anchor_text,
        get_u64(input)?,
        get_u64(input)?,
    )))
}

/// Writes the links waiting in `waiting`, resolved as the extractor now
/// resolves, in order.
fn write_waiting(
    out: &mut impl Write,
    label: &[u8],
    waiting: &mut Spill,
    extractor: &Extractor,
) -> io::Result<()> {
    if waiting.is_empty() {
        return Ok(());
    }
    let mut reader = BufReader::new(core::mem::take(waiting).into_reader()?);
    while let Some((tag, attr, raw, rel, hreflang, anchor_text, start, end)) =
        read_spilled(&mut reader)?
    {
        let resolved = extractor.resolve_url(&tag, &raw);
        LinkLine {
            tag: &tag,
            attr: &attr,
            url: &resolved.url,
            error: resolved.error.as_deref(),
            start,
            end,
            // The keywords `spill_link` wrote: every one known.
            rel: Rel::parse(&rel),
            hreflang: hreflang.as_deref(),
            anchor_text: anchor_text.as_deref(),
        }
        .write(out, label)?;
    }
    Ok(())
}

/// Writes one resolved link's JSON line.
fn write_link(out: &mut impl Write, label: &[u8], link: &Link) -> io::Result<()> {
    LinkLine {
        tag: link.tag,
        attr: link.attr,
        url: link.url(),
        error: link.error.as_deref(),
        start: link.span.start as u64,
        end: link.span.end as u64,
        rel: link.rel,
        hreflang: link.hreflang(),
        anchor_text: link.anchor_text(),
    }
    .write(out, label)
}

/// The fields of one line of `htmltok links`.
struct LinkLine<'a> {
    tag: &'a str,
    attr: &'a str,
    url: &'a str,
    error: Option<&'a str>,
    start: u64,
    end: u64,
    rel: Rel,
    hreflang: Option<&'a str>,
    anchor_text: Option<&'a str>,
}

impl LinkLine<'_> {
    /// Writes the line: `{file, tag, attr, url, start, end}` (a record's
    /// fields after `file`), then
    /// `error`, `rel`, `hreflang` and `anchor_text` when there are some.
    /// Written field by field (a `serde_json::Map` per link cost more than
    /// the rest of the command), with no `write!` (its formatting machinery
    /// cost 25 M instructions over the corpus's 33,000 links).
    fn write(self, out: &mut impl Write, label: &[u8]) -> io::Result<()> {
        fn field(out: &mut impl Write, name: &str, value: &str) -> io::Result<()> {
            out.write_all(b",\"")?;
            out.write_all(name.as_bytes())?;
            out.write_all(b"\":")?;
            write_str(out, value)
        }
        fn number(out: &mut impl Write, name: &[u8], value: u64) -> io::Result<()> {
            out.write_all(name)?;
            out.write_all(itoa::Buffer::new().format(value).as_bytes())
        }
        out.write_all(b"{")?;
        out.write_all(label)?;
        field(&mut *out, "tag", self.tag)?;
        field(&mut *out, "attr", self.attr)?;
        field(&mut *out, "url", self.url)?;
        number(&mut *out, b",\"start\":", self.start)?;
        number(&mut *out, b",\"end\":", self.end)?;
        if let Some(error) = self.error {
            field(&mut *out, "error", error)?;
        }
        if !self.rel.is_empty() {
            out.write_all(b",\"rel\":[")?;
            for (i, keyword) in self.rel.keywords().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write_str(&mut *out, keyword)?;
            }
            out.write_all(b"]")?;
        }
        if let Some(hreflang) = self.hreflang {
            field(&mut *out, "hreflang", hreflang)?;
        }
        if let Some(anchor_text) = self.anchor_text {
            field(&mut *out, "anchor_text", anchor_text)?;
        }
        out.write_all(b"}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// The JSON lines of `htmltok links` for `html`, the same at every
    /// chunk size.
    fn lines(html: &str, address: Option<&str>) -> Vec<Value> {
        let address = address.map(|a| Url::parse(a).unwrap());
        let out = crate::job::output_at_sizes(html, &[1, 3, 7, 1 << 20], |reading| LinksJob {
            options: options(address.as_ref()),
            reading,
            // A few links wait, the rest go to the spill.
            spill_at: 1024,
        });
        out.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn lines_before_and_after_the_base() {
        let html = r#"<a href="x?a=1&amp;b" rel="nofollow UGC" hreflang=de>one <b>two</b></a>
            <img srcset="i.png 1x, j.png 2x"><base href="/base/"><a href=../y>y</a>
            <a href="http://exa mple.com/">bad</a>"#;
        let got = lines(html, Some("https://example.com/dir/page.html"));
        let at = |needle: &str| html.find(needle).unwrap();
        let (x, i, j, base, y, bad) = (
            at("x?a"),
            at("i.png"),
            at("j.png"),
            at("/base/"),
            at("../y"),
            at("http://exa"),
        );
        let want = [
            json!({"file": "f", "tag": "a", "attr": "href", "url": "https://example.com/base/x?a=1&b",
                   "start": x, "end": x + 11, "rel": ["nofollow", "ugc"], "hreflang": "de",
                   "anchor_text": "one two"}),
            json!({"file": "f", "tag": "img", "attr": "srcset", "url": "https://example.com/base/i.png",
                   "start": i, "end": i + 5}),
            json!({"file": "f", "tag": "img", "attr": "srcset", "url": "https://example.com/base/j.png",
                   "start": j, "end": j + 5}),
            json!({"file": "f", "tag": "base", "attr": "href", "url": "https://example.com/base/",
                   "start": base, "end": base + 6}),
            json!({"file": "f", "tag": "a", "attr": "href", "url": "https://example.com/y",
                   "start": y, "end": y + 4, "anchor_text": "y"}),
            json!({"file": "f", "tag": "a", "attr": "href", "url": "http://exa mple.com/",
                   "start": bad, "end": bad + 20, "error": "invalid international domain name",
                   "anchor_text": "bad"}),
        ];
        assert_eq!(got, want);
        // Without an address, relative URLs stay as written.
        let got = lines(html, None);
        assert_eq!(got[0]["url"], "x?a=1&b");
    }

    /// More links before the `<base>` than wait in the extractor: the
    /// spill keeps them, in order, resolved against the base found later.
    #[test]
    fn many_links_before_the_base() {
        let n = 1000;
        let mut html: String = (0..n).map(|i| format!("<a href=x{i}>t</a>")).collect();
        html.push_str("<base href=https://b.example/d/><img src=last>");
        let got = lines(&html, None);
        assert_eq!(got.len(), n + 2);
        for (i, line) in got.iter().take(n).enumerate() {
            assert_eq!(line["url"], format!("https://b.example/d/x{i}"));
            assert_eq!(line["anchor_text"], "t");
        }
        assert_eq!(got[n]["tag"], "base");
        assert_eq!(got[n + 1]["url"], "https://b.example/d/last");
    }
}
