//! URL resolution against a page's base URL, per the URL Standard.
//!
//! A page's links are relative to its *document base URL*: the `href` of
//! its first `<base>` with one, itself resolved against the address the
//! page was fetched from, or that address when there is no such `<base>`
//! (HTML Standard, "document base URL"). The parsing is the `url` crate's,
//! which implements the URL Standard as browsers do: `../` segments,
//! percent-encoding, IDNA hosts, default ports.

use url::Url;

use super::is_space;

/// A URL resolved, or as written with the reason it could not be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The absolute URL; the URL as written when it could not be parsed,
    /// or when it is relative and the page has no address.
    pub url: String,
    /// Why it could not be parsed, when it could not.
    pub error: Option<String>,
}

/// Resolves the URLs of one page against its base URL.
///
/// ```
/// use htmltok::extract::Resolver;
/// use htmltok::url::Url;
///
/// let page = Url::parse("https://example.com/dir/page.html").unwrap();
/// let resolver = Resolver::new(Some(&page), Some("/base/"));
/// assert_eq!(resolver.resolve("../a b").url, "https://example.com/a%20b");
/// assert_eq!(resolver.resolve("x").url, "https://example.com/base/x");
/// let bad = resolver.resolve("http://exa mple.com/");
/// assert_eq!(bad.url, "http://exa mple.com/");
/// assert!(bad.error.is_some());
/// ```
#[derive(Clone, Debug, Default)]
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

    /// The base URL, if there is one.
    pub fn base(&self) -> Option<&Url> {
        self.base.as_ref()
    }

    /// Resolves `raw` (leading and trailing ASCII whitespace ignored).
    /// Without a base URL, an absolute URL is normalized and a relative one
    /// is kept as written, without an error.
    pub fn resolve(&self, raw: &str) -> Resolved {
        let (url, error) = self.resolve_with_room(raw, 0);
        Resolved { url, error }
    }

    /// [`Resolver::resolve`], the URL in a string with room for `room`
    /// more bytes (a [`Link`](super::Link) puts its other strings after
    /// it), and why it could not be parsed, if it could not.
    pub(crate) fn resolve_with_room(&self, raw: &str, room: usize) -> (String, Option<String>) {
        // HTML's ASCII whitespace, the bytes `is_space` matches, a byte at
        // a time rather than a `char` at a time.
        let raw = raw.trim_ascii();
        let parsed = match &self.base {
            Some(base) => match fragment_of(base, raw, room) {
                Some(url) => return (url, None),
                None => base.join(raw),
            },
            None => Url::parse(raw),
        };
        let as_written = || {
            let mut url = String::with_capacity(raw.len() + room);
            url.push_str(raw);
            url
        };
        match parsed {
            Ok(url) => {
                let mut url: String = url.into();
                url.reserve_exact(room);
                (url, None)
            }
            Err(url::ParseError::RelativeUrlWithoutBase) if self.base.is_none() => {
                (as_written(), None)
            }
            Err(e) => (as_written(), Some(e.to_string())),
        }
    }
}

/// `raw` resolved against `base` when `raw` is a fragment (`#top`) whose
/// bytes the URL parser writes out as they are, without the parser: `None`
/// for anything else.
///
/// Most links of a long document are to its own sections (12,324 of the
/// 12,349 on the corpus's es6 page), and the URL Standard resolves one
/// without looking at anything but the fragment: the "no scheme state"
/// sees the leading `#` and takes the base URL with its fragment set to
/// the rest, percent-encoded with the fragment percent-encode set, tabs
/// and newlines removed, leading and trailing C0 controls and spaces
/// trimmed (the `url` crate's `Parser::fragment_only`). When every byte
/// after the `#` is printable ASCII outside that set, none of that changes
/// a byte, and the result is the base up to its fragment, then `raw`: one
/// copy instead of the parser's walk through the fragment a character at
/// a time (1,400 instructions a link on es6). `fragment_fast_path` in the
/// tests holds it to `Url::join`.
fn fragment_of(base: &Url, raw: &str, room: usize) -> Option<String> {
    let fragment = raw.strip_prefix('#')?;
    // Folded without an early exit, so the compiler checks 16 bytes a step.
    let changed = fragment.bytes().fold(false, |changed, b| {
        changed | !b.is_ascii_graphic() | (b == b'"') | (b == b'<') | (b == b'>') | (b == b'`')
    });
    if changed {
        return None;
    }
    let whole = base.as_str();
    let before = match base.fragment() {
        Some(old) => &whole[..whole.len() - old.len() - 1],
        None => whole,
    };
    let mut url = String::with_capacity(before.len() + raw.len() + room);
    url.push_str(before);
    url.push_str(raw);
    Some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolution() {
        let address = Url::parse("https://example.com/dir/page.html").unwrap();
        let r = Resolver::new(Some(&address), None);
        assert_eq!(r.resolve("../a b?x#y").url, "https://example.com/a%20b?x#y");
        assert_eq!(r.resolve("../../../x").url, "https://example.com/x");
        assert_eq!(r.resolve("javascript:void(0)").url, "javascript:void(0)");
        assert_eq!(r.resolve("data:text/plain,hi").url, "data:text/plain,hi");
        let r = Resolver::new(Some(&address), Some(" /base/ "));
        assert_eq!(r.resolve("x").url, "https://example.com/base/x");
        let r = Resolver::new(None, Some("/relative/"));
        assert_eq!(r.base(), None);
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
        let bad = Resolver::new(Some(&address), None).resolve("http://[::1");
        assert_eq!(bad.error.as_deref(), Some("invalid IPv6 address"));
    }

    /// The fragment fast path gives what `Url::join` gives, over bases of
    /// every kind and fragments of every ASCII byte (and a few others),
    /// alone, in pairs and among plain ones; and it is taken.
    #[test]
    fn fragment_fast_path() {
        let bases = [
            "https://example.com/dir/page.html",
            "https://example.com/dir/page.html#old",
            "https://example.com/dir/page.html?q=1#",
            "http://user:pw@Example.ORG:8080/a/b/c?q=1#frag",
            "http://[::1]/x",
            "file:///home/x/page.html#f",
            "data:text/html,hi",
            "data:text/html,hi#x",
            "mailto:someone@example.com",
            "foo://host/a?b#c",
            "foo:/a/b",
            "javascript:void(0)",
        ];
        let mut fragments: Vec<String> = vec![
            "#".into(),
            "##".into(),
            "#sec-returnifabrupt".into(),
            "#a%20b".into(),
            "#%zz".into(),
            "#x?y#z/../w".into(),
            "#é".into(),
            "#\u{a0}".into(),
            "#a\u{1F600}b".into(),
            "#\u{7F}".into(),
            "# a".into(),
            "#a ".into(),
            "#a\tb".into(),
            "#a\nb\rc".into(),
        ];
        for b in 0..=0x7F_u8 {
            let c = char::from(b);
            fragments.push(format!("#{c}"));
            fragments.push(format!("#a{c}b"));
            fragments.push(format!("#{c}{c}x"));
        }
        let mut fast = 0;
        for base in bases {
            let base_url = Url::parse(base).unwrap();
            let resolver = Resolver::new(Some(&base_url), None);
            for raw in &fragments {
                let general = base_url.join(raw.trim_matches(is_space));
                let got = resolver.resolve(raw);
                assert_eq!(
                    Some(got.url.as_str()),
                    general.as_ref().ok().map(Url::as_str),
                    "{raw:?} against {base}"
                );
                assert_eq!(got.error, None);
                if fragment_of(&base_url, raw, 0).is_some() {
                    fast += 1;
                }
            }
        }
        // The printable bytes but `"<>`` and space, three ways each, and
        // the first six above, for every base.
        assert_eq!(fast, bases.len() * (6 + 3 * (94 - 4)));
    }
}
