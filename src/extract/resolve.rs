//! URL resolution against a page's base URL, per the URL Standard.
//!
//! A page's links are relative to its *document base URL*: the `href` of
//! its first `<base>` with one, itself resolved against the address the
//! page was fetched from, or that address when there is no such `<base>`
//! (HTML Standard, "document base URL"). The parsing is the `url` crate's,
//! which implements the URL Standard as browsers do: `../` segments,
//! percent-encoding, IDNA hosts, default ports.

use url::{Position, Url};

use crate::scan::UrlMasks;
use crate::scan::is_ascii_whitespace_char;

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
    /// Where [`plain_join`] cuts the base, worked out once.
    cuts: Cuts,
}

/// How long the prefixes of a base URL are that a plain relative URL is
/// appended to (see [`plain_join`]).
#[derive(Clone, Copy, Debug, Default)]
struct Cuts {
    /// Up to its fragment.
    fragment: usize,
    /// Up to its query.
    query: usize,
    /// Up to its path.
    path: usize,
    /// Up to the last `/` of its path, included.
    dir: usize,
    /// Its scheme and `:`.
    scheme: usize,
    /// Whether paths and queries may be appended (a special base other
    /// than `file:`).
    special: bool,
}

impl Cuts {
    fn of(base: &Url) -> Cuts {
        let query = base[..Position::AfterPath].len();
        let path = base[..Position::BeforePath].len();
        Cuts {
            fragment: base[..Position::AfterQuery].len(),
            query,
            path,
            dir: base
                .path()
                .rfind('/')
                .map_or(query, |slash| path + slash + 1),
            scheme: base.scheme().len() + 1,
            special: matches!(base.scheme(), "http" | "https" | "ws" | "wss" | "ftp"),
        }
    }
}

impl Resolver {
    /// The resolver of a page fetched from `address` (if known) whose first
    /// `<base href>` is `base_href` (if any): the base href resolved against
    /// the address, or the address when there is no usable base href.
    pub fn new(address: Option<&Url>, base_href: Option<&str>) -> Resolver {
        let href = base_href
            .map(|h| h.trim_matches(is_ascii_whitespace_char))
            .filter(|h| !h.is_empty());
        let from_href = href.and_then(|h| match address {
            Some(address) => address.join(h).ok(),
            None => Url::parse(h).ok(),
        });
        let base = from_href.or_else(|| address.cloned());
        Resolver {
            cuts: base.as_ref().map(Cuts::of).unwrap_or_default(),
            base,
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
        let mut url = String::new();
        let error = self.resolve_into(raw, &mut url).error;
        Resolved { url, error }
    }

    /// [`Resolver::resolve`], the URL appended to `out` (where the links of
    /// a page are written one after the other): why it could not be
    /// parsed, if it could not, and whether what it wrote ends with `raw`.
    pub(super) fn resolve_into(&self, raw: &str, out: &mut String) -> Written {
        // HTML's ASCII whitespace, the bytes `is_ascii_whitespace` matches, a
        // byte at a time rather than a `char` at a time.
        let trimmed = raw.trim_ascii();
        if trimmed.len() == raw.len() {
            return self.resolve_trimmed_into(raw, out);
        }
        let error = self.resolve_trimmed_into(trimmed, out).error;
        Written {
            error,
            ends_with_raw: false,
        }
    }

    /// [`Resolver::resolve_into`] for a URL without leading or trailing
    /// ASCII whitespace (a found link's: [`links::tag_links`] trims them).
    ///
    /// [`links::tag_links`]: super::links::tag_links
    pub(super) fn resolve_trimmed_into(&self, raw: &str, out: &mut String) -> Written {
        debug_assert_eq!(raw.trim_ascii(), raw);
        let written = |ends_with_raw: bool| Written {
            error: None,
            ends_with_raw,
        };
        let parsed = match &self.base {
            Some(base) => match plain_join(base.as_str(), self.cuts, raw, out) {
                Some(ends_with_raw) => return written(ends_with_raw),
                None => base.join(raw),
            },
            None if without_scheme(raw.as_bytes()) => {
                out.push_str(raw);
                return written(true);
            }
            None => match plain_absolute(raw, out) {
                Some(ends_with_raw) => return written(ends_with_raw),
                None => Url::parse(raw),
            },
        };
        match parsed {
            Ok(url) => {
                out.push_str(url.as_str());
                written(false)
            }
            Err(url::ParseError::RelativeUrlWithoutBase) if self.base.is_none() => {
                out.push_str(raw);
                written(true)
            }
            Err(e) => {
                out.push_str(raw);
                Written {
                    error: Some(e.to_string()),
                    ends_with_raw: true,
                }
            }
        }
    }
}

/// What [`Resolver::resolve_into`] wrote.
pub(super) struct Written {
    /// Why the URL could not be parsed, if it could not.
    pub(super) error: Option<String>,
    /// Whether what it wrote ends with the URL as written (a fragment, a
    /// path or a query joined to the base, a URL kept as it is: most of
    /// them), so that the URL as written need not be written again.
    pub(super) ends_with_raw: bool,
}

/// `raw` resolved against `base` without the URL parser, when it is a
/// relative URL whose bytes the parser would write out as they are:
/// `None` for anything else, which goes to the parser.
///
/// Most URLs of a page are relative, and most of them plain: a fragment
/// (`#top`: 12,324 of the 12,349 links of the corpus's es6 page), a path
/// (`/wiki/Paris`, `img/a.png`) or a query (`?page=2`). The URL Standard
/// resolves such a URL by taking the base URL up to some point and
/// appending the URL, percent-encoded (the fragment, path and special-query
/// percent-encode sets), tabs and newlines removed, leading and trailing C0
/// controls and spaces trimmed, dot segments (`..`, `%2e`) applied and,
/// for a special scheme, `\` read as `/` (the `url` crate's
/// `Parser::parse_relative` and `fragment_only`). When every byte of the
/// URL is printable ASCII outside those sets and no path segment is a dot
/// segment, none of that changes a byte: the result is the base up to
/// the point, then `raw`. One copy, where the parser walks the URL a
/// character at a time. The points, by the URL's first byte:
///
/// - `#`: the base up to its fragment (any base);
/// - `?`: the base up to its query;
/// - `/` (not `//`, which starts a host): the base up to its path;
/// - anything else but a scheme (`mailto:`): the base up to the last `/`
///   of its path.
///
/// All but fragments only against a special base other than `file:`
/// (`http:`, `https:`, `ws:`, `wss:`, `ftp:`), whose paths always start
/// with `/` and whose queries encode `'`. `plain_join` in the tests holds
/// it to `Url::join`.
///
/// `Some` when taken, saying whether what it wrote ends with `raw`.
fn plain_join(base: &str, cuts: Cuts, raw: &str, out: &mut String) -> Option<bool> {
    let bytes = raw.as_bytes();
    let &first = bytes.first()?;
    let (cut, special) = match first {
        b'#' => (cuts.fragment, false),
        b'?' => (cuts.query, true),
        b'/' if bytes.get(1) == Some(&b'/') => {
            return if cuts.special {
                with_authority(&base[..cuts.scheme], raw, out)
            } else {
                None
            };
        }
        b'/' => (cuts.path, true),
        b'h' => return plain_absolute(raw, out),
        _ if has_scheme(bytes) => return None,
        _ => (cuts.dir, true),
    };
    let as_is = if special {
        cuts.special && path_as_is(bytes)
    } else {
        written_as_is(bytes, false)
    };
    if !as_is {
        return None;
    }
    out.push_str(&base[..cut]);
    out.push_str(raw);
    Some(true)
}

/// Writes `raw` to `out` when it is an absolute `http:` or `https:` URL
/// that the URL parser writes out as it is (see [`with_authority`]);
/// `None`, writing nothing, for anything else.
fn plain_absolute(raw: &str, out: &mut String) -> Option<bool> {
    let after_scheme = raw
        .strip_prefix("http:")
        .or_else(|| raw.strip_prefix("https:"))?;
    with_authority(&raw[..raw.len() - after_scheme.len()], after_scheme, out)
}

/// `scheme` (a special one, with its `:`) and `rest` (`//`, a host, then a
/// path, a query and a fragment) as the URL parser writes them when it
/// changes nothing but the `/` a URL without a path gets: the host a
/// domain of lowercase ASCII letters, digits and `-`, in labels of which
/// none is empty or starts with `xn--` (which IDNA would decode and check)
/// and the last starts with a letter (so that it is not read as an IPv4
/// address); no user, no port; the rest written as it is (see
/// [`plain_join`]). Written to `out`, saying whether what it wrote ends
/// with `rest` (it does but where a `/` was added); `None`, writing
/// nothing, for anything else.
fn with_authority(scheme: &str, rest: &str, out: &mut String) -> Option<bool> {
    let after = rest.strip_prefix("//")?;
    let after = after.as_bytes();
    // The host, in one pass: where it ends, and whether each label is
    // plain, as each ends.
    let plain_label = |label: &[u8]| !label.is_empty() && !label.starts_with(b"xn--");
    let (mut host_len, mut label) = (0, 0);
    while let Some(&b) = after.get(host_len) {
        match b {
            b'a'..=b'z' | b'0'..=b'9' | b'-' => {}
            b'.' if plain_label(&after[label..host_len]) => label = host_len + 1,
            b'/' | b'?' | b'#' => break,
            _ => return None,
        }
        host_len += 1;
    }
    let last = &after[label..host_len];
    let last_is_a_name = last.first().is_some_and(u8::is_ascii_lowercase);
    let path = &after[host_len..];
    if !plain_label(last) || !last_is_a_name || !path_as_is(path) {
        return None;
    }
    out.push_str(scheme);
    if path.first() == Some(&b'/') {
        out.push_str(rest);
        return Some(true);
    }
    out.push_str(&rest[..2 + host_len]);
    out.push('/');
    out.push_str(&rest[2 + host_len..]);
    Some(false)
}

/// Whether the URL parser writes out the path, query and fragment `bytes`
/// of a special URL as they are: every byte as it is (see
/// [`written_as_is`]), and no dot segment in the path.
fn path_as_is(bytes: &[u8]) -> bool {
    // A dot segment starts with `.` or `%` at the start or after a `/`:
    // rare, so looked for (in the path) only where one of those is
    // anywhere (the query too).
    let maybe = if bytes.len() <= UrlMasks::MAX {
        let masks = UrlMasks::of(bytes);
        if masks.special != 0 {
            return false;
        }
        masks.dot & (masks.slash << 1 | 1) != 0
    } else {
        if !written_as_is_by_bytes(bytes, true) {
            return false;
        }
        // Folded without an early exit, so the compiler checks 16 bytes a
        // step.
        let may_start = |b: u8| (b == b'.') | (b == b'%');
        bytes.first().is_some_and(|&b| may_start(b))
            || bytes
                .windows(2)
                .fold(false, |maybe, w| maybe | ((w[0] == b'/') & may_start(w[1])))
    };
    if !maybe {
        return true;
    }
    let path_end = memchr::memchr2(b'?', b'#', bytes).unwrap_or(bytes.len());
    !bytes[..path_end].split(|&b| b == b'/').any(is_dot_segment)
}

/// Whether the URL parser writes out every byte of `bytes` as it is, in a
/// fragment, or (`special`) in the path, the query and the fragment of a
/// special URL, reading none as anything else: printable ASCII, none of
/// the fragment percent-encode set, and for `special` none of the path
/// and special-query percent-encode sets nor `\\` (a `/` in a special
/// URL's path).
#[inline]
fn written_as_is(bytes: &[u8], special: bool) -> bool {
    if bytes.len() <= UrlMasks::MAX {
        let masks = UrlMasks::of(bytes);
        return if special {
            masks.special
        } else {
            masks.fragment
        } == 0;
    }
    written_as_is_by_bytes(bytes, special)
}

/// [`written_as_is`] by a byte loop, for URLs longer than [`UrlMasks`]
/// classifies at once.
fn written_as_is_by_bytes(bytes: &[u8], special: bool) -> bool {
    // Folded without an early exit, so the compiler checks 16 bytes a step.
    bytes.iter().fold(true, |plain, &b| {
        plain
            & b.is_ascii_graphic()
            & !matches!(b, b'"' | b'<' | b'>' | b'`')
            & !(special & matches!(b, b'{' | b'}' | b'\'' | b'\\'))
    })
}

/// Whether a path segment is one the URL parser removes or goes up for:
/// `.` or `..`, either dot possibly written `%2e`.
fn is_dot_segment(segment: &[u8]) -> bool {
    let dot = |s: &[u8]| s == b"." || s.eq_ignore_ascii_case(b"%2e");
    match segment.len() {
        1 | 3 => dot(segment),
        2 | 4 | 6 => (1..segment.len()).any(|i| dot(&segment[..i]) && dot(&segment[i..])),
        _ => false,
    }
}

/// Whether the URL parser surely finds no scheme at the start of `bytes`
/// (the URL being trimmed of ASCII whitespace), so that without a base URL
/// it is relative and kept as it is: where the URL, once the parser has
/// trimmed leading C0 controls and spaces and removed tabs and newlines,
/// does not begin with a letter, or its letters, digits, `+`, `-` and `.`
/// are followed by anything but `:` (the URL Standard's
/// [scheme start state](https://url.spec.whatwg.org/#scheme-start-state)).
/// Most URLs of a page read without an address are such (`#top`,
/// `/wiki/Paris`), where the parser allocated and failed for each.
/// `false` for a URL that may have a scheme, or may be read otherwise:
/// a C0 control or space first, a tab or newline in the would-be scheme.
fn without_scheme(bytes: &[u8]) -> bool {
    let Some(&first) = bytes.first() else {
        return true;
    };
    if !first.is_ascii_alphabetic() {
        return first > b' ';
    }
    !matches!(past_scheme_bytes(bytes), Some(b':' | b'\t' | b'\n' | b'\r'))
}

/// Whether `bytes` starts with a scheme: an ASCII letter, then letters,
/// digits, `+`, `-` or `.`, then `:`.
fn has_scheme(bytes: &[u8]) -> bool {
    bytes.first().is_some_and(u8::is_ascii_alphabetic) && past_scheme_bytes(bytes) == Some(b':')
}

/// The first byte of `bytes` that a scheme cannot hold (a letter, a
/// digit, `+`, `-` or `.`), if any: a `:` there ends a scheme.
fn past_scheme_bytes(bytes: &[u8]) -> Option<u8> {
    bytes
        .iter()
        .copied()
        .find(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `raw` went the fast way against `base`, which writes
    /// nothing when it does not (the parser's URL follows).
    fn plain_joined(base: &Url, raw: &str) -> bool {
        let mut out = String::from("before");
        let taken = plain_join(base.as_str(), Cuts::of(base), raw, &mut out);
        match taken {
            Some(ends_with_raw) => assert_eq!(out.ends_with(raw), ends_with_raw, "{raw:?}"),
            None => assert_eq!(out, "before", "{raw:?} against {base}"),
        }
        taken.is_some()
    }

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
                let general = base_url.join(raw.trim_matches(is_ascii_whitespace_char));
                let got = resolver.resolve(raw);
                assert_eq!(
                    Some(got.url.as_str()),
                    general.as_ref().ok().map(Url::as_str),
                    "{raw:?} against {base}"
                );
                assert_eq!(got.error, None);
                if plain_joined(&base_url, raw) {
                    fast += 1;
                }
            }
        }
        // The printable bytes but `"<>`` and space, three ways each, and
        // the first six above, for every base.
        assert_eq!(fast, bases.len() * (6 + 3 * (94 - 4)));
    }

    /// Without a base URL, the URLs taken as relative without the parser
    /// are those it finds relative (and keeps as written, without an
    /// error), over URLs whose first bytes are every byte, and schemes
    /// broken by every byte; and most relative URLs are taken.
    #[test]
    fn without_scheme_equals_the_parser() {
        let mut inputs: Vec<String> = [
            "",
            "#",
            "#sec-a",
            "/wiki/Paris",
            "?q",
            "../a",
            "é:x",
            "x",
            "ab",
            "a+b-c.d",
            "a1:",
            "mailto:x@y",
            "a\tb:c",
            "a\nb:c",
            "a\rb:c",
            "ab\t:",
            "ab:\t",
            "\u{b}ab:",
            "\u{1}x:",
            "\u{1}#x",
            "x\u{1}:",
            "ab\u{1}",
            "\u{7f}a:",
            "a\u{7f}:",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for c in (0..=0x7F_u8)
            .map(char::from)
            .chain(['é', '\u{a0}', '\u{feff}'])
        {
            for rest in ["", "a:", ":", "b", "x:y", "ttp://a.b/"] {
                inputs.push(format!("{c}{rest}"));
                inputs.push(format!("h{c}{rest}"));
                inputs.push(format!("ab{c}{rest}"));
            }
        }
        let resolver = Resolver::new(None, None);
        let mut taken = 0;
        for raw in &inputs {
            let raw = raw.trim_ascii();
            let parsed = Url::parse(raw);
            if without_scheme(raw.as_bytes()) {
                taken += 1;
                assert_eq!(
                    parsed,
                    Err(url::ParseError::RelativeUrlWithoutBase),
                    "{raw:?}"
                );
            }
            let want = match &parsed {
                Ok(url) => (url.as_str(), None),
                Err(url::ParseError::RelativeUrlWithoutBase) => (raw, None),
                Err(e) => (raw, Some(e.to_string())),
            };
            let got = resolver.resolve(raw);
            assert_eq!((got.url.as_str(), got.error), want, "{raw:?}");
        }
        let relative = inputs
            .iter()
            .filter(|raw| {
                Url::parse(raw.trim_ascii()) == Err(url::ParseError::RelativeUrlWithoutBase)
            })
            .count();
        assert!(taken * 10 > relative * 9, "{taken} of {relative}");
    }

    /// The relative fast path gives what `Url::join` gives, over bases of
    /// every kind and URLs made of pieces that matter to the parser (dots,
    /// slashes, schemes, bytes it encodes or reads otherwise), every one
    /// and two of them and 20,000 longer mixes; and it is taken.
    #[test]
    fn plain_join_equals_the_parser() {
        let bases = [
            "https://example.com/dir/page.html",
            "https://example.com/dir/",
            "https://example.com",
            "https://example.com/dir/page.html?q=1#old",
            "https://example.com/a/b/c?q",
            "http://user:pw@Example.ORG:8080/a/b/c?q=1#frag",
            "http://[::1]/x/y",
            "ws://h/a/b",
            "wss://h:1/a/b?c",
            "ftp://h/a/",
            "file:///home/x/page.html#f",
            "data:text/html,hi",
            "mailto:someone@example.com",
            "foo://host/a/b?c#d",
            "foo:/a/b",
        ];
        let pieces = [
            "a",
            "b.html",
            "/",
            "//",
            "?",
            "#",
            ".",
            "..",
            "%2e",
            "%2E",
            ".%2e",
            "%2E.",
            "%2e%2E",
            "x:",
            "1:",
            "a+b.c-d:",
            ":",
            "\\",
            "'",
            "\"",
            "{",
            "}",
            "`",
            "<",
            ">",
            " ",
            "\t",
            "\n",
            "\u{1}",
            "é",
            "%",
            "%zz",
            "%41",
            "@",
            "~",
            "|",
            "[",
            "]",
            "^",
            "=",
            "&",
            ";",
            ",",
            "!",
            "$",
            "(",
            "*",
            "+",
            "-",
            "_",
            // Hosts.
            "http://",
            "https://",
            "HTTP://",
            "ftp://",
            "http:",
            "ex.com",
            "Ex.com",
            "a.b-c.d",
            "-a-.b",
            "xn--",
            "xn--nxasmq6b",
            "XN--a",
            "1.2",
            "0x7f",
            "9z",
            ":80",
            "[::1]",
            "a..b",
            "www.",
        ];
        let mut inputs: Vec<String> = pieces.iter().map(|p| p.to_string()).collect();
        for a in pieces {
            for b in pieces {
                inputs.push(format!("{a}{b}"));
            }
        }
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            let mut input = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for i in 0..3 + seed % 6 {
                input.push_str(pieces[((seed >> (8 * i)) % pieces.len() as u64) as usize]);
            }
            inputs.push(input);
        }
        // Around the length classified in one vector pass (`UrlMasks`),
        // and past it: the byte loop.
        let long: Vec<String> = inputs[inputs.len() - 3000..]
            .iter()
            .enumerate()
            .map(|(i, raw)| format!("{}{raw}", "ab/".repeat(18 + i % 5)))
            .collect();
        inputs.extend(long);
        // Without a base: absolute URLs only.
        let resolver = Resolver::new(None, None);
        for raw in &inputs {
            let got = resolver.resolve(raw);
            match Url::parse(raw.trim_matches(is_ascii_whitespace_char)) {
                Ok(want) => assert_eq!(got.url, want.as_str(), "{raw:?}"),
                Err(_) => assert_eq!(got.url, raw.trim_ascii(), "{raw:?}"),
            }
        }
        let (mut fast, mut with_host) = (0, 0);
        for base in bases {
            let base_url = Url::parse(base).unwrap();
            let resolver = Resolver::new(Some(&base_url), None);
            for raw in &inputs {
                let general = base_url.join(raw.trim_matches(is_ascii_whitespace_char));
                let got = resolver.resolve(raw);
                if let Ok(want) = &general {
                    assert_eq!(got.url, want.as_str(), "{raw:?} against {base}");
                } else {
                    assert!(got.error.is_some(), "{raw:?} against {base}");
                }
                let raw = raw.trim_ascii();
                if plain_joined(&base_url, raw) {
                    fast += usize::from(!raw.starts_with('#'));
                    with_host += usize::from(raw.contains("//"));
                }
            }
        }
        // Paths and queries (not fragments) went the fast way at least as
        // many times as there are URLs (of 15 times as many resolved).
        assert!(fast > inputs.len(), "the fast path taken {fast} times");
        assert!(with_host > 1000, "taken for {with_host} URLs with a host");
    }
}
