//! [`Link`]: one URL found in a page, its strings in a buffer shared with
//! the links resolved with it.

use std::sync::Arc;

use crate::token::Span;

use super::Rel;
use super::links::Found;
use super::resolve::Written;

/// One URL found in a page.
///
/// Its strings (the URL resolved, as written, its `hreflang` and its
/// anchor text) are held in one buffer shared with the links resolved
/// with it, [`LINKS_PER_BUFFER`] at most (links come resolved in page
/// order, from [`extract`](super::extract), [`Extractor::finish`] or
/// [`Extractor::take_links`]): an allocation per link was a large share of
/// what links cost.
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
    /// Whether it lies in the page's main content: in a block of the text
    /// that [`ExtractOptions::main_content`](super::ExtractOptions::main_content)
    /// keeps (every link, when the page fell back to all of its text;
    /// none, when main content was not asked for).
    pub in_main_content: bool,
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
    /// one of the few a link costs.
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
    pub(super) fn assemble_all(
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
                        in_main_content: false,
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
    pub(super) fn reassembled(&self, resolve: impl FnOnce(&str, &mut String) -> Written) -> Link {
        let mut strings = String::with_capacity(2 * (self.bounds[4] - self.bounds[0]));
        let others = [self.hreflang(), self.anchor_text()];
        let ((bounds, url_holds_raw), error) = place(&mut strings, self.raw(), others, resolve);
        Link {
            tag: self.tag,
            attr: self.attr,
            error,
            span: self.span,
            rel: self.rel,
            in_main_content: self.in_main_content,
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
        (
            self.tag,
            self.attr,
            &self.error,
            self.span,
            self.rel,
            self.in_main_content,
        ) == (
            other.tag,
            other.attr,
            &other.error,
            other.span,
            other.rel,
            other.in_main_content,
        ) && (self.url(), self.raw(), self.hreflang(), self.anchor_text())
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
            .field("in_main_content", &self.in_main_content)
            .finish()
    }
}

/// How many links share one buffer for their strings (see [`Link`]): one
/// allocation for that many links, and what a link kept alone holds on to.
pub const LINKS_PER_BUFFER: usize = 16;

/// The most bytes of anchor text kept for one link.
pub const ANCHOR_TEXT_LIMIT: usize = 1024;

// A group's links whose URL could not be parsed are a bit each of a `u32`.
const _: () = assert!(LINKS_PER_BUFFER <= 32);

#[cfg(test)]
mod tests {
    use super::*;

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
