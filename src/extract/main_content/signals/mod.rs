//! What an element says of the text inside it, by its name, its `class`
//! and `id` words, its ARIA `role` and its `itemprop`: a set of
//! [`Signals`], each a bit.
//!
//! Authors name the parts of a page for their style sheets and scripts,
//! and the names say what the parts are (`site-nav`, `footer`,
//! `comment-list`, `share-buttons`, `article-body`, `cookie-banner`). The
//! words are matched whole, after splitting a value at every character
//! that is not a letter or a digit and at each lowercase-to-uppercase step
//! (`mainNav` is `main` and `nav`), lowercased; a long word that is no
//! known word is also tried by the known words it starts or ends with
//! (`sitenavigation`, `commentlist`). What each signal weighs is not
//! decided here: the scoring learns it (see `model.rs`).

mod vocabulary; // the known words and parts, and what each says
mod words; // splitting a value into words, and looking them up

pub(crate) use words::of_words;

use crate::element::Element;
use crate::token::Tag;

/// A set of signals, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Signals(pub(crate) u64);

macro_rules! signals {
    ($($(#[$doc:meta])* $name:ident = $bit:expr;)*) => {
        impl Signals {
            $($(#[$doc])* pub(crate) const $name: Signals = Signals(1 << $bit);)*
        }

        /// Every signal's name, by bit (for the feature dump).
        pub(crate) const NAMES: &[(&str, Signals)] = &[$((stringify!($name), Signals::$name)),*];
    };
}

signals! {
    // Named by the page (class, id, role, itemprop).
    /// Navigation: `nav`, `menu`, `breadcrumb`, `pagination`, `role=navigation`.
    NAV = 0;
    /// The page's footer: `footer`, `copyright`, `role=contentinfo`.
    FOOTER = 1;
    /// The page's header: `header`, `masthead`, `topbar`, `role=banner`.
    HEADER = 2;
    /// A sidebar: `sidebar`, `aside`, `widget`, `rail`, `role=complementary`.
    SIDEBAR = 3;
    /// More to read: `related`, `recommended`, `popular`, `trending`.
    RELATED = 4;
    /// Sharing and following: `share`, `social`, `follow`.
    SHARE = 5;
    /// Comments: `comment`, `disqus`, `reply`, `respond`.
    COMMENT = 6;
    /// Cookie and consent notices: `cookie`, `consent`, `gdpr`.
    COOKIE = 7;
    /// Advertising: `ad`, `ads`, `advert`, `sponsor`, `promo`.
    AD = 8;
    /// Sign-up, log-in, search and newsletter boxes.
    SIGNUP = 9;
    /// About the text, not the text: `byline`, `author`, `date`, `tags`.
    META = 10;
    /// Pop-ups and overlays: `modal`, `popup`, `overlay`, `dialog`.
    POPUP = 11;
    /// Hidden from view: `hidden`, `sr-only`, `visually-hidden`,
    /// `display:none`, `aria-hidden=true`.
    HIDDEN = 12;
    /// The page's content: `content`, `main`, `role=main`.
    CONTENT = 13;
    /// An article or post: `article`, `post`, `entry`, `story`, `blog`.
    ARTICLE = 14;
    /// The body of the text: `body`, `text`, `prose`, `itemprop=articleBody`.
    BODY = 15;
    /// A title: `title`, `headline`, `heading`.
    TITLE = 16;
    /// A teaser in a listing: `card`, `teaser`, `tile`, `item`.
    CARD = 17;
    /// Skip links and screen-reader-only helpers: `skip`.
    SKIP = 18;
    /// A caption or figure: `caption`, `figure`, `gallery`.
    CAPTION = 19;
    // The elements themselves.
    /// Inside `<article>`.
    IN_ARTICLE = 24;
    /// Inside `<main>`.
    IN_MAIN = 25;
    /// Inside `<nav>`.
    IN_NAV = 26;
    /// Inside `<aside>`.
    IN_ASIDE = 27;
    /// Inside `<header>`.
    IN_HEADER = 28;
    /// Inside `<footer>`.
    IN_FOOTER = 29;
    /// Inside `<form>`.
    IN_FORM = 30;
    /// Inside a list item (`<li>`, `<dd>`, `<dt>`).
    IN_LI = 31;
    /// Inside a table cell.
    IN_TABLE = 32;
    /// Inside `<blockquote>`.
    IN_QUOTE = 33;
    /// Inside `<figure>` or `<figcaption>`.
    IN_FIGURE = 34;
    /// Inside `<pre>` or `<code>`.
    IN_CODE = 35;
    /// Inside a link (`<a>`).
    IN_LINK = 36;
    /// Inside a heading (`<h1>` to `<h6>`).
    IN_HEADING = 37;
    /// Inside `<p>`.
    IN_P = 38;
    /// Inside `<button>`, `<select>`, `<label>` or `<option>`.
    IN_CONTROL = 39;
    /// Inside `<section>`.
    IN_SECTION = 40;
    /// Inside `<details>` or `<dialog>`.
    IN_DETAILS = 41;
    /// Inside `<address>` or `<time>`.
    IN_ADDRESS = 42;
    /// Inside `<ul>` or `<ol>` (a list, item or not).
    IN_LIST = 43;
    /// Inside `<h1>`.
    IN_H1 = 44;
    /// Inside `<strong>`, `<b>`, `<em>` or `<i>`.
    IN_EMPHASIS = 45;
    /// Inside `<noscript>` (read when scripting is off).
    IN_NOSCRIPT = 46;
}

impl Signals {
    /// The signals the page names (class, id, role, itemprop).
    pub(crate) const NAMED: Signals = Signals((1 << 24) - 1);

    /// No signal.
    pub(crate) const NONE: Signals = Signals(0);

    /// Whether any signal of `other` is in the set.
    #[inline(always)]
    pub(crate) fn any(self, other: Signals) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether it has no signal.
    #[inline(always)]
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl core::ops::BitOr for Signals {
    type Output = Signals;

    #[inline(always)]
    fn bitor(self, other: Signals) -> Signals {
        Signals(self.0 | other.0)
    }
}

impl core::ops::BitOrAssign for Signals {
    #[inline(always)]
    fn bitor_assign(&mut self, other: Signals) {
        self.0 |= other.0;
    }
}

/// What the element itself says, by its name.
pub(crate) const fn of_element(element: Element) -> Signals {
    use Element as E;
    match element {
        E::Article => Signals::IN_ARTICLE,
        E::Main => Signals::IN_MAIN,
        E::Nav => Signals::IN_NAV,
        E::Aside => Signals::IN_ASIDE,
        E::Header => Signals::IN_HEADER,
        E::Footer => Signals::IN_FOOTER,
        E::Form => Signals::IN_FORM,
        E::Li | E::Dd | E::Dt => Signals::IN_LI,
        E::Td | E::Th => Signals::IN_TABLE,
        E::Blockquote => Signals::IN_QUOTE,
        E::Figure | E::Figcaption => Signals::IN_FIGURE,
        E::Pre | E::Code | E::Listing | E::Xmp => Signals::IN_CODE,
        E::A => Signals::IN_LINK,
        E::H1 => Signals(Signals::IN_HEADING.0 | Signals::IN_H1.0),
        E::H2 | E::H3 | E::H4 | E::H5 | E::H6 => Signals::IN_HEADING,
        E::P => Signals::IN_P,
        E::Button | E::Select | E::Label | E::Option | E::Optgroup => Signals::IN_CONTROL,
        E::Section => Signals::IN_SECTION,
        E::Details | E::Dialog | E::Summary => Signals::IN_DETAILS,
        E::Address | E::Time => Signals::IN_ADDRESS,
        E::Ul | E::Ol | E::Menu | E::Dl => Signals::IN_LIST,
        E::Strong | E::B | E::Em | E::I => Signals::IN_EMPHASIS,
        E::Noscript => Signals::IN_NOSCRIPT,
        _ => Signals::NONE,
    }
}

/// What the tag's attributes name: its `class` and `id` words, its `role`,
/// its `itemprop`, and whether it is hidden by `aria-hidden` or an inline
/// `display: none`.
///
/// Also a hash of its `class` value (0 when it has none): the parts of a
/// page that repeat (the posts of a thread, the items of a listing) share
/// one.
#[inline(never)]
pub(crate) fn of_attributes(tag: &Tag<'_>, classes: &mut ClassCache) -> (Signals, u32) {
    let mut signals = Signals::NONE;
    let mut class = 0;
    for attr in tag.attrs() {
        // By length first, then the bytes as one word: a tag's attributes
        // are mostly other ones, and a string compare each cost a call.
        let name = attr.name.as_bytes();
        // The rare ones out of line, so that this loop keeps its state in
        // registers.
        signals |= match name.len() {
            2 if is(name, b"id") => of_words(attr.value),
            5 if is(name, b"class") => {
                class = hash32(attr.value);
                classes.of_words(attr.value, class)
            }
            4 if is(name, b"role") => of_role(attr.value),
            8 if is(name, b"itemprop") => of_itemprop(attr.value),
            11 if is(name, b"aria-hidden") => of_aria_hidden(attr.value),
            5 if is(name, b"style") => of_style(attr.value),
            _ => Signals::NONE,
        };
    }
    (signals, class)
}

/// The signals of the `class` values seen last, by their hash: a page
/// writes a few hundred values tens of thousands of times (a code
/// listing's token classes, a list's item class), so most are looked up
/// here rather than read word by word again. Values longer than
/// [`ClassCache::VALUE`] bytes are not held; a value is compared whole,
/// so the cache changes no answer.
#[derive(Debug)]
pub(crate) struct ClassCache {
    slots: [ClassSlot; ClassCache::SLOTS],
}

/// One value of [`ClassCache`] and its signals.
#[derive(Clone, Copy, Debug)]
struct ClassSlot {
    len: u8,
    bytes: [u8; ClassCache::VALUE],
    signals: Signals,
}

impl ClassCache {
    /// How many values are held.
    const SLOTS: usize = 256;
    /// The longest value held.
    const VALUE: usize = 40;

    /// Holding nothing.
    pub(crate) fn new() -> ClassCache {
        ClassCache {
            // A length past VALUE matches no value.
            slots: [ClassSlot {
                len: u8::MAX,
                bytes: [0; ClassCache::VALUE],
                signals: Signals::NONE,
            }; ClassCache::SLOTS],
        }
    }

    /// [`of_words`] of a `class` value whose [`hash32`] is `hash`.
    #[inline]
    fn of_words(&mut self, value: &str, hash: u32) -> Signals {
        let bytes = value.as_bytes();
        if bytes.len() > ClassCache::VALUE {
            return of_words(value);
        }
        let slot = &mut self.slots[hash as usize % ClassCache::SLOTS];
        if usize::from(slot.len) == bytes.len() && same(&slot.bytes, bytes) {
            return slot.signals;
        }
        let signals = of_words(value);
        slot.len = bytes.len() as u8;
        slot.bytes[..bytes.len()].copy_from_slice(bytes);
        slot.signals = signals;
        signals
    }
}

/// Whether `value` (at most [`ClassCache::VALUE`] bytes) is the start of
/// `held`: compared a word at a time, the last word overlapping the ones
/// before, where a call to `bcmp` cost more than most values' bytes (most
/// are a few bytes long).
#[inline(always)]
fn same(held: &[u8; ClassCache::VALUE], value: &[u8]) -> bool {
    let n = value.len();
    match n {
        0 => true,
        1..=3 => held[0] == value[0] && held[n / 2] == value[n / 2] && held[n - 1] == value[n - 1],
        4..=7 => u32_at(held, 0) == u32_at(value, 0) && u32_at(held, n - 4) == u32_at(value, n - 4),
        _ => {
            let mut at = 0;
            while at + 8 < n {
                if u64_at(held, at) != u64_at(value, at) {
                    return false;
                }
                at += 8;
            }
            u64_at(held, n - 8) == u64_at(value, n - 8)
        }
    }
}

/// A hash of `s` (32 bits; never 0), read a word at a time, where a byte
/// at a time cost a multiply a byte: the bytes are taken as
/// [`ClassCache`]'s `same` compares them (overlapping words, which with
/// the length tell the bytes), each mixed by multiplying.
#[inline]
pub(crate) fn hash32(s: &str) -> u32 {
    const K1: u64 = 0x9e37_79b9_7f4a_7c15;
    const K2: u64 = 0xff51_afd7_ed55_8ccd;
    const K3: u64 = 0xc4ce_b9fe_1a85_ec53;
    let b = s.as_bytes();
    let n = b.len();
    let (x, y) = match n {
        0 => (0, 0),
        1..=3 => (
            u64::from(b[0]) | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]) << 16,
            0,
        ),
        4..=7 => (u64::from(u32_at(b, 0)), u64::from(u32_at(b, n - 4))),
        8..=16 => (u64_at(b, 0), u64_at(b, n - 8)),
        _ => {
            let mut x = 0u64;
            let mut at = 0;
            while at + 8 < n {
                x = (x ^ u64_at(b, at)).wrapping_mul(K1).rotate_left(31);
                at += 8;
            }
            (x, u64_at(b, n - 8))
        }
    };
    let h = (x.wrapping_mul(K1).rotate_left(29) ^ y ^ (n as u64).wrapping_mul(K3)).wrapping_mul(K2);
    ((h >> 32) as u32).max(1)
}

/// The 8 bytes of `s` at `at`, as `same`, `hash32` and the words' skip
/// (`words::of_words`) read a value.
#[inline(always)]
fn u64_at(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(s[at..at + 8].try_into().expect("8"))
}

/// The 4 bytes of `s` at `at`, as `same` and `hash32` read a value.
#[inline(always)]
fn u32_at(s: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(s[at..at + 4].try_into().expect("4"))
}

/// Whether `name` is `word` (compared as a fixed-size array, not through a
/// call).
#[inline(always)]
fn is<const N: usize>(name: &[u8], word: &[u8; N]) -> bool {
    <&[u8; N]>::try_from(name).is_ok_and(|name| name == word)
}

/// Whether an inline style hides the element (`display: none` or
/// `visibility: hidden`).
fn hides(style: &str) -> bool {
    let bytes = style.as_bytes();
    if !may_hide(bytes) {
        return false;
    }
    let mut squeezed = [0u8; 64];
    // Only the first 64 non-space bytes are looked at: a style that hides
    // says so early, and a hostile one costs no more.
    let mut n = 0;
    for &b in bytes {
        if n == squeezed.len() {
            break;
        }
        squeezed[n] = b.to_ascii_lowercase();
        n += usize::from(!b.is_ascii_whitespace());
    }
    let s = &squeezed[..n];
    // Each declaration's `:`, and the property before it and the value
    // after it, compared as fixed-size arrays.
    (0..n).filter(|&p| s[p] == b':').any(|p| {
        let (name, value) = (&s[..p], &s[p + 1..]);
        (ends_with(name, b"display") && starts_with(value, b"none"))
            || (ends_with(name, b"visibility") && starts_with(value, b"hidden"))
    })
}

/// Whether an inline style may hide the element, as [`hides`] reads it:
/// a `:` between a `y` (`display`, `visibility`) and an `n` or `h`
/// (`none`, `hidden`), whitespace aside. Most styles have none, and this
/// looks only at their colons (most styles were squeezed byte by byte).
#[inline]
fn may_hide(style: &[u8]) -> bool {
    let lower = |b: u8| b | 0x20;
    memchr::memchr_iter(b':', style).any(|p| {
        let before = style[..p].iter().rev().find(|b| !b.is_ascii_whitespace());
        let after = style[p + 1..].iter().find(|b| !b.is_ascii_whitespace());
        before.is_some_and(|&b| lower(b) == b'y')
            && after.is_some_and(|&b| matches!(lower(b), b'n' | b'h'))
    })
}

/// Whether `s` ends with `word`.
#[inline(always)]
fn ends_with<const N: usize>(s: &[u8], word: &[u8; N]) -> bool {
    s.len() >= N && is(&s[s.len() - N..], word)
}

/// Whether `s` starts with `word`.
#[inline(always)]
fn starts_with<const N: usize>(s: &[u8], word: &[u8; N]) -> bool {
    s.len() >= N && is(&s[..N], word)
}

/// The signals of an `aria-hidden` value.
#[inline(never)]
fn of_aria_hidden(value: &str) -> Signals {
    if value.trim_ascii().eq_ignore_ascii_case("true") {
        Signals::HIDDEN
    } else {
        Signals::NONE
    }
}

/// The signals of an inline style: whether it hides the element.
#[inline(never)]
fn of_style(style: &str) -> Signals {
    if hides(style) {
        Signals::HIDDEN
    } else {
        Signals::NONE
    }
}

/// The signals of an ARIA `role` value (its first known role).
#[inline(never)]
fn of_role(value: &str) -> Signals {
    value
        .split_ascii_whitespace()
        .map(|role| match role.to_ascii_lowercase().as_str() {
            "navigation" | "menu" | "menubar" | "tablist" => Signals::NAV,
            "banner" => Signals::HEADER,
            "contentinfo" => Signals::FOOTER,
            "complementary" => Signals::SIDEBAR,
            "main" => Signals::CONTENT,
            "article" => Signals::ARTICLE,
            "search" | "form" => Signals::SIGNUP,
            "dialog" | "alertdialog" | "alert" => Signals::POPUP,
            "heading" => Signals::TITLE,
            _ => Signals::NONE,
        })
        .find(|s| !s.is_empty())
        .unwrap_or(Signals::NONE)
}

/// The signals of a schema.org `itemprop` value.
#[inline(never)]
fn of_itemprop(value: &str) -> Signals {
    let mut signals = Signals::NONE;
    for prop in value.split_ascii_whitespace() {
        signals |= match prop {
            "articleBody" | "reviewBody" | "text" | "description" | "mainEntity"
            | "acceptedAnswer" | "suggestedAnswer" => Signals::BODY,
            "headline" | "name" => Signals::TITLE,
            "comment" => Signals::COMMENT,
            "author" | "datePublished" | "dateModified" | "publisher" => Signals::META,
            "breadcrumb" => Signals::NAV,
            _ => Signals::NONE,
        };
    }
    signals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_itemprops_and_hiding() {
        assert_eq!(of_role("Navigation"), Signals::NAV);
        assert_eq!(of_role("presentation main"), Signals::CONTENT);
        assert_eq!(of_itemprop("articleBody"), Signals::BODY);
        assert!(hides("color: red; DISPLAY : none"));
        assert!(!hides("display:block"));
        assert!(!hides(&" ".repeat(1000)));
        assert!(hides("VISIBILITY :\tHidden"));
        assert!(!hides("display: inline; visibility: visible"));
        assert!(!may_hide(b"color: red; display: block"));
        assert!(may_hide(b"display :\n none"));
    }

    /// Values that differ (in a byte, or in length) hash apart, whatever
    /// their length, and no value hashes to 0 (which says "no class").
    #[test]
    fn class_hashes_tell_values_apart() {
        let mut seen = std::collections::HashMap::new();
        for n in 0..=64usize {
            for k in 0..64usize {
                let value: String = (0..n)
                    .map(|i| char::from(b'a' + ((i * 7 + k * (i + 1)) % 26) as u8))
                    .collect();
                let mut flipped = value.clone().into_bytes();
                if let Some(b) = flipped.get_mut(k % n.max(1)) {
                    *b = b'-';
                }
                for v in [value, String::from_utf8(flipped).expect("ASCII")] {
                    let h = hash32(&v);
                    assert_ne!(h, 0);
                    if let Some(other) = seen.insert(h, v.clone()) {
                        assert_eq!(other, v, "{h:x}");
                    }
                }
            }
        }
        assert_eq!(hash32("nt"), hash32(&String::from("nt")));
    }

    /// The word-at-a-time comparison agrees with comparing the bytes, for
    /// every length the cache holds and a difference at every place.
    #[test]
    fn cached_values_are_compared_whole() {
        let mut held = [0u8; ClassCache::VALUE];
        for (i, b) in held.iter_mut().enumerate() {
            *b = b'a' + (i % 26) as u8;
        }
        for n in 0..=ClassCache::VALUE {
            let mut value = held[..n].to_vec();
            assert!(same(&held, &value), "length {n}");
            for at in 0..n {
                value[at] ^= 0x20;
                assert!(!same(&held, &value), "length {n}, differing at {at}");
                value[at] ^= 0x20;
            }
        }
    }
}
