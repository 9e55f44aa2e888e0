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
}
