//! One attribute, several URLs: the candidates of a `srcset`, the words of
//! a `ping`, the URL in a refresh `content`; and where each is in the source.

use crate::token::{Attribute, Span};

use crate::scan::{is_ascii_whitespace, is_ascii_whitespace_char};

/// The span of `range` of the attribute's value: its own span when the
/// value is written as it is (no character references), the whole value's
/// otherwise.
pub(super) fn candidate_span<'s>(
    source: &dyn Fn(Span) -> Option<&'s str>,
    attr: &Attribute<'_>,
    span: Span,
    range: (usize, usize),
) -> Span {
    // The same slice of the input (a value without character references
    // is borrowed from it) is the common case, and needs no byte compare.
    if source(span).is_some_and(|s| core::ptr::eq(s, attr.value) || s == attr.value) {
        Span::new(span.start + range.0, span.start + range.1)
    } else {
        span
    }
}

/// The range of `s` without leading and trailing ASCII whitespace (the
/// bytes [`is_ascii_whitespace`] matches, tested a byte at a time: cheaper than a
/// `char` at a time).
pub(super) fn trim_range(s: &str) -> (usize, usize) {
    let start = s.len() - s.trim_ascii_start().len();
    let end = s.trim_ascii_end().len();
    (start, end.max(start))
}

/// The ranges of the whitespace-separated words of `s`.
pub(super) fn words(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices().chain([(s.len(), ' ')]) {
        match (is_ascii_whitespace_char(c), start) {
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
pub(super) fn srcset_urls(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        while pos < b.len() && (is_ascii_whitespace(b[pos]) || b[pos] == b',') {
            pos += 1;
        }
        if pos >= b.len() {
            return out;
        }
        let start = pos;
        while pos < b.len() && !is_ascii_whitespace(b[pos]) {
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

/// The delay (its digits and dots as written) and the range of the URL in
/// a `<meta http-equiv=refresh>` content value (`5; url='/next'`),
/// following the HTML Standard's "shared declarative refresh steps";
/// `None` when the value is not a refresh.
pub(super) fn parse_refresh(s: &str) -> Option<(&str, Option<(usize, usize)>)> {
    let b = s.as_bytes();
    let skip_space = |mut i: usize| {
        while i < b.len() && is_ascii_whitespace(b[i]) {
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
    let delay = &s[digits..i];
    i = skip_space(i);
    if i < b.len() && matches!(b[i], b';' | b',') {
        i = skip_space(i + 1);
    } else if i < b.len() {
        return None;
    }
    if i >= b.len() {
        return Some((delay, None));
    }
    // An optional `url =` before the URL.
    let rest = &s[i..];
    if rest.len() >= 3 && rest.as_bytes()[..3].eq_ignore_ascii_case(b"url") {
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
    Some((delay, (stop > start).then_some((i + start, i + stop))))
}

/// The range of the URL of a refresh `content` value, if it has one.
pub(super) fn refresh_url(s: &str) -> Option<(usize, usize)> {
    parse_refresh(s)?.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srcset_candidates() {
        let s = "a.png 1x, b c.png 2x,d.png,, e(1,2).png 100w";
        let got: Vec<&str> = srcset_urls(s).iter().map(|&(a, b)| &s[a..b]).collect();
        assert_eq!(got, ["a.png", "b", "d.png", "e(1,2).png"]);
        assert!(srcset_urls(" , ").is_empty());
    }

    #[test]
    fn refresh_values() {
        assert_eq!(parse_refresh("0"), Some(("0", None)));
        assert_eq!(parse_refresh("0; http://x/"), Some(("0", Some((3, 12)))));
        assert_eq!(
            parse_refresh("5;URL = '/a b' x"),
            Some(("5", Some((9, 13))))
        );
        assert_eq!(parse_refresh("x; url=/a"), None);
        assert_eq!(parse_refresh("1.5 x"), None);
    }
}
