//! A URL (the bytes after the first, as lossy UTF-8) resolved by
//! `htmltok::extract::Resolver` against a base the first byte chooses (or
//! none): exactly what the `url` crate gives, `Url::join` against the base
//! or `Url::parse` without one (a URL it cannot parse is kept as written,
//! with an error but for a relative URL without a base). The resolver
//! writes plain fragments, paths, queries and `http(s)` URLs out without
//! the parser (`src/extract/resolve.rs`); this holds those fast paths to
//! the parser on any input.
#![no_main]

use htmltok::extract::Resolver;
use htmltok::url::{ParseError, Url};
use libfuzzer_sys::fuzz_target;

/// Bases of every kind the fast paths tell apart: special and not, with
/// and without a query, a fragment, a port, a user, a trailing slash.
const BASES: [&str; 12] = [
    "https://example.com/dir/page.html",
    "https://example.com/",
    "http://example.com/a/b/?q=1#frag",
    "http://user:pw@Example.ORG:8080/a/b/c?q",
    "https://[::1]/x/y",
    "ws://h/a/b",
    "ftp://h/a/",
    "file:///home/x/page.html#f",
    "data:text/html,hi",
    "mailto:someone@example.com",
    "foo://host/a/b?c#d",
    "foo:/a/b",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let raw = String::from_utf8_lossy(rest);
    let base = BASES
        .get(usize::from(first) % (BASES.len() + 1))
        .map(|b| Url::parse(b).unwrap());
    let got = Resolver::new(base.as_ref(), None).resolve(&raw);
    // The resolver trims HTML's ASCII whitespace; the parser then trims
    // C0 controls and spaces itself.
    let trimmed = raw.trim_ascii();
    let want = match &base {
        Some(base) => base.join(trimmed),
        None => Url::parse(trimmed),
    };
    match want {
        Ok(url) => {
            assert_eq!(got.url, url.as_str(), "{raw:?} against {base:?}");
            assert_eq!(got.error, None);
        }
        Err(e) => {
            assert_eq!(got.url, trimmed, "{raw:?} against {base:?}");
            let relative = base.is_none() && e == ParseError::RelativeUrlWithoutBase;
            assert_eq!(got.error.is_none(), relative, "{raw:?} against {base:?}");
        }
    }
});
