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
#[inline]
pub(crate) fn of_element(element: Element) -> Signals {
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
pub(crate) fn of_attributes(tag: &Tag<'_>, classes: &mut ClassCache) -> (Signals, u32) {
    let mut signals = Signals::NONE;
    let mut class = 0;
    for attr in tag.attrs() {
        // By length first, then the bytes as one word: a tag's attributes
        // are mostly other ones, and a string compare each cost a call.
        let name = attr.name.as_bytes();
        signals |= match name.len() {
            2 if is(name, b"id") => of_words(attr.value),
            5 if is(name, b"class") => {
                class = hash32(attr.value);
                classes.of_words(attr.value, class)
            }
            4 if is(name, b"role") => of_role(attr.value),
            8 if is(name, b"itemprop") => of_itemprop(attr.value),
            11 if is(name, b"aria-hidden")
                && attr.value.trim_ascii().eq_ignore_ascii_case("true") =>
            {
                Signals::HIDDEN
            }
            5 if is(name, b"style") && hides(attr.value) => Signals::HIDDEN,
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
    const SLOTS: usize = 64;
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
        if usize::from(slot.len) == bytes.len() && slot.bytes[..bytes.len()] == *bytes {
            return slot.signals;
        }
        let signals = of_words(value);
        slot.len = bytes.len() as u8;
        slot.bytes[..bytes.len()].copy_from_slice(bytes);
        slot.signals = signals;
        signals
    }
}

/// A hash of `s` (FNV-1a, 32 bits; never 0).
pub(crate) fn hash32(s: &str) -> u32 {
    let hash = s.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    hash.max(1)
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

/// The most bytes of one `class` or `id` value looked at: the words that
/// say what a part is come first, and a hostile value costs no more.
const VALUE_BYTES: usize = 256;

/// The longest word looked up (longer ones are no known word).
const WORD_BYTES: usize = 24;

/// The signals of the words of a `class` or `id` value.
pub(crate) fn of_words(value: &str) -> Signals {
    let bytes = &value.as_bytes()[..value.len().min(VALUE_BYTES)];
    let mut signals = Signals::NONE;
    // The word being read: where it starts, and the hash of its bytes
    // lowercased.
    let mut start = 0;
    let mut hash = FNV_OFFSET;
    let mut previous_lower = false;
    for (i, &b) in bytes.iter().enumerate() {
        let class = BYTE_CLASS[b as usize];
        // A word ends at a byte that is no letter or digit, and before an
        // uppercase letter that follows a lowercase one (`mainNav`).
        if class == OTHER || (class == UPPER && previous_lower) {
            if i > start {
                signals |= of_word(hash, &bytes[start..i]);
            }
            start = i + usize::from(class == OTHER);
            hash = FNV_OFFSET;
        }
        previous_lower = class == LOWER;
        if class != OTHER {
            hash = fnv(hash, b | (0x20 * u8::from(class == UPPER)));
        }
    }
    if bytes.len() > start {
        signals |= of_word(hash, &bytes[start..]);
    }
    signals
}

/// Byte classes of [`of_words`].
const OTHER: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const DIGIT: u8 = 3;

/// The class of every byte.
static BYTE_CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = if c.is_ascii_lowercase() {
            LOWER
        } else if c.is_ascii_uppercase() {
            UPPER
        } else if c.is_ascii_digit() {
            DIGIT
        } else {
            OTHER
        };
        b += 1;
    }
    table
};

/// The longest part of [`PARTS`].
const PART_BYTES: usize = 10;

/// The signals of one word (`hash` is the hash of its bytes lowercased):
/// its own, or those of the known words it starts or ends with, if it is
/// long.
#[inline]
fn of_word(hash: u64, word: &[u8]) -> Signals {
    let len = word.len();
    if len > WORD_BYTES {
        return Signals::NONE;
    }
    let own = known(hash);
    if !own.is_empty() || len < 6 {
        return own;
    }
    // Its starts and its ends of the lengths a part has, by their hashes
    // (an end hashed from its last byte back); only where its first two
    // bytes begin a part, or its last two end one (most long words of a
    // page, its ids, do neither: no lookup then).
    let starts = PART_STARTS.has(word[0], word[1]);
    let ends = PART_ENDS.has(word[len - 1], word[len - 2]);
    if !starts && !ends {
        return Signals::NONE;
    }
    let mut signals = Signals::NONE;
    let (mut prefix, mut suffix) = (FNV_OFFSET, SUFFIX_OFFSET);
    for k in 1..len.min(PART_BYTES + 1) {
        prefix = fnv(prefix, word[k - 1].to_ascii_lowercase());
        suffix = fnv(suffix, word[len - k].to_ascii_lowercase());
        if PART_LENGTH[k] {
            if starts {
                signals |= part(prefix);
            }
            if ends {
                signals |= part(suffix);
            }
        }
    }
    signals
}

/// A set of pairs of letters, by their low five bits (a letter's case
/// aside; a digit or other byte may share a letter's bits, which only
/// lets more words through to the lookup).
struct Pairs([u64; 16]);

impl Pairs {
    /// The pairs that begin the parts (`last` false), or end them, the
    /// last byte first (`last` true).
    const fn of_parts(last: bool) -> Pairs {
        let mut bits = [0u64; 16];
        let mut i = 0;
        while i < PARTS.len() {
            let part = PARTS[i].0;
            let n = part.len();
            let (a, b) = if last {
                (part[n - 1], part[n - 2])
            } else {
                (part[0], part[1])
            };
            let at = Pairs::index(a, b);
            bits[at / 64] |= 1 << (at % 64);
            i += 1;
        }
        Pairs(bits)
    }

    /// Where the pair `a`, `b` is.
    #[inline(always)]
    const fn index(a: u8, b: u8) -> usize {
        ((a as usize & 31) << 5) | (b as usize & 31)
    }

    /// Whether the pair `a`, `b` is in the set.
    #[inline(always)]
    fn has(&self, a: u8, b: u8) -> bool {
        let at = Pairs::index(a, b);
        self.0[at / 64] & (1 << (at % 64)) != 0
    }
}

/// The first two bytes of every part.
static PART_STARTS: Pairs = Pairs::of_parts(false);

/// The last two bytes of every part, the last first.
static PART_ENDS: Pairs = Pairs::of_parts(true);

/// Where hashing an end of a word starts, told apart from the starts.
const SUFFIX_OFFSET: u64 = FNV_OFFSET ^ 0x5bd1_e995;

/// Whether some part is `k` bytes long.
static PART_LENGTH: [bool; PART_BYTES + 1] = {
    let mut table = [false; PART_BYTES + 1];
    let mut i = 0;
    while i < PARTS.len() {
        table[PARTS[i].0.len()] = true;
        i += 1;
    }
    table
};

/// The parts by the hash of their bytes (as a word's start) and of their
/// bytes from the last back (as its end), as [`TABLE`] holds the known
/// words.
static PART_TABLE: [(u64, Signals); 256] = {
    let mut table = [(0u64, Signals::NONE); 256];
    let mut i = 0;
    while i < 2 * PARTS.len() {
        let (part, signals) = PARTS[i / 2];
        assert!(part.len() <= PART_BYTES);
        let mut hash = if i % 2 == 0 {
            FNV_OFFSET
        } else {
            SUFFIX_OFFSET
        };
        let mut j = 0;
        while j < part.len() {
            hash = fnv(
                hash,
                if i % 2 == 0 {
                    part[j]
                } else {
                    part[part.len() - 1 - j]
                },
            );
            j += 1;
        }
        let mut slot = hash as usize % 256;
        while table[slot].0 != 0 {
            assert!(table[slot].0 != hash);
            slot = (slot + 1) % 256;
        }
        table[slot] = (hash, signals);
        i += 1;
    }
    table
};

/// The signals of the part with hash `hash`, if it is one.
#[inline]
fn part(hash: u64) -> Signals {
    let mut slot = hash as usize % 256;
    loop {
        let (key, signals) = PART_TABLE[slot];
        if key == hash {
            return signals;
        }
        if key == 0 {
            return Signals::NONE;
        }
        slot = (slot + 1) % 256;
    }
}

/// The known words that are also looked for at the start and the end of
/// a longer word.
const PARTS: &[(&[u8], Signals)] = &[
    (b"nav", Signals::NAV),
    (b"navigation", Signals::NAV),
    (b"menu", Signals::NAV),
    (b"breadcrumb", Signals::NAV),
    (b"footer", Signals::FOOTER),
    (b"header", Signals::HEADER),
    (b"sidebar", Signals::SIDEBAR),
    (b"widget", Signals::SIDEBAR),
    (b"related", Signals::RELATED),
    (b"share", Signals::SHARE),
    (b"social", Signals::SHARE),
    (b"comment", Signals::COMMENT),
    (b"cookie", Signals::COOKIE),
    (b"consent", Signals::COOKIE),
    (b"banner", Signals::AD),
    (b"advert", Signals::AD),
    (b"sponsor", Signals::AD),
    (b"promo", Signals::AD),
    (b"newsletter", Signals::SIGNUP),
    (b"subscribe", Signals::SIGNUP),
    (b"popup", Signals::POPUP),
    (b"modal", Signals::POPUP),
    (b"content", Signals::CONTENT),
    (b"article", Signals::ARTICLE),
    (b"post", Signals::ARTICLE),
    (b"entry", Signals::ARTICLE),
    (b"story", Signals::ARTICLE),
    (b"body", Signals::BODY),
    (b"text", Signals::BODY),
    (b"title", Signals::TITLE),
    (b"headline", Signals::TITLE),
];

/// The known words and what each says (all lowercase ASCII letters and
/// digits, at most [`WORD_BYTES`] long).
const WORDS: &[(Signals, &[&str])] = &[
    (
        Signals::NAV,
        &[
            "nav",
            "navbar",
            "navigation",
            "menu",
            "menus",
            "submenu",
            "megamenu",
            "breadcrumb",
            "breadcrumbs",
            "crumbs",
            "pagination",
            "pager",
            "paging",
            "toc",
            "toolbar",
            "tabs",
            "dropdown",
            "hamburger",
            "topnav",
            "subnav",
            "sitemap",
            "jump",
            "jumplinks",
        ],
    ),
    (
        Signals::FOOTER,
        &[
            "footer",
            "foot",
            "copyright",
            "colophon",
            "legal",
            "bottom",
            "contentinfo",
        ],
    ),
    (
        Signals::HEADER,
        &[
            "header", "masthead", "topbar", "top", "branding", "logo", "hero",
        ],
    ),
    (
        Signals::SIDEBAR,
        &[
            "sidebar",
            "side",
            "aside",
            "widget",
            "widgets",
            "rail",
            "sidebox",
            "complementary",
            "secondary",
        ],
    ),
    (
        Signals::RELATED,
        &[
            "related",
            "recommended",
            "recommendations",
            "recommendation",
            "popular",
            "trending",
            "mostread",
            "most",
            "more",
            "also",
            "upnext",
            "next",
            "prev",
            "previous",
            "outbrain",
            "taboola",
        ],
    ),
    (
        Signals::SHARE,
        &[
            "share",
            "shares",
            "sharing",
            "sharer",
            "social",
            "follow",
            "facebook",
            "twitter",
            "linkedin",
            "whatsapp",
            "pinterest",
            "addthis",
            "print",
            "email",
        ],
    ),
    (
        Signals::COMMENT,
        &[
            "comment",
            "comments",
            "commentlist",
            "disqus",
            "reply",
            "replies",
            "respond",
            "discussion",
            "discuss",
            "feedback",
            "reviews",
        ],
    ),
    (
        Signals::COOKIE,
        &[
            "cookie", "cookies", "consent", "gdpr", "privacy", "onetrust", "cmp", "notice",
        ],
    ),
    (
        Signals::AD,
        &[
            "ad",
            "ads",
            "advert",
            "adverts",
            "advertisement",
            "advertising",
            "adsbygoogle",
            "adslot",
            "adunit",
            "dfp",
            "gpt",
            "sponsor",
            "sponsored",
            "promo",
            "promotion",
            "promoted",
            "banner",
            "commercial",
            "affiliate",
        ],
    ),
    (
        Signals::SIGNUP,
        &[
            "login",
            "signin",
            "signup",
            "register",
            "subscribe",
            "subscription",
            "newsletter",
            "search",
            "searchform",
            "account",
            "paywall",
            "donate",
            "cta",
        ],
    ),
    (
        Signals::META,
        &[
            "byline",
            "author",
            "authors",
            "date",
            "dateline",
            "published",
            "updated",
            "timestamp",
            "meta",
            "metadata",
            "tags",
            "tag",
            "category",
            "categories",
            "info",
            "details",
            "postmeta",
            "entrymeta",
            "credit",
            "credits",
            "source",
        ],
    ),
    (
        Signals::POPUP,
        &[
            "modal",
            "popup",
            "overlay",
            "dialog",
            "lightbox",
            "toast",
            "alert",
            "interstitial",
        ],
    ),
    (
        Signals::HIDDEN,
        &[
            "hidden",
            "hide",
            "invisible",
            "sronly",
            "sr",
            "offscreen",
            "collapsed",
            "noscript",
        ],
    ),
    (
        Signals::CONTENT,
        &[
            "content",
            "contents",
            "main",
            "maincontent",
            "primary",
            "page",
            "container",
            "wrapper",
            "inner",
        ],
    ),
    (
        Signals::ARTICLE,
        &[
            "article", "articles", "post", "posts", "entry", "entries", "story", "blog", "hentry",
            "news", "single",
        ],
    ),
    (
        Signals::BODY,
        &[
            "body",
            "text",
            "prose",
            "richtext",
            "markdown",
            "copy",
            "paragraph",
            "description",
            "desc",
            "summary",
            "abstract",
            "lead",
            "intro",
            "answer",
            "question",
            "docs",
            "documentation",
            "doc",
            "readme",
        ],
    ),
    (
        Signals::TITLE,
        &[
            "title",
            "headline",
            "heading",
            "h1",
            "subtitle",
            "subheadline",
            "standfirst",
            "deck",
        ],
    ),
    (
        Signals::CARD,
        &[
            "card",
            "cards",
            "teaser",
            "teasers",
            "tile",
            "tiles",
            "item",
            "items",
            "grid",
            "listing",
            "thumb",
            "thumbnail",
            "preview",
        ],
    ),
    (
        Signals::SKIP,
        &["skip", "skiplink", "screenreader", "visuallyhidden"],
    ),
    (
        Signals::CAPTION,
        &[
            "caption",
            "figure",
            "figcaption",
            "gallery",
            "photo",
            "image",
            "img",
            "media",
            "video",
        ],
    ),
];

/// How many slots [`TABLE`] has: a power of two, at least four times the
/// known words, so that probes are short.
const SLOTS: usize = 1024;

/// FNV-1a, 64 bits, over lowercase bytes: how a word is looked up.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// One step of FNV-1a.
#[inline(always)]
const fn fnv(hash: u64, byte: u8) -> u64 {
    (hash ^ byte as u64).wrapping_mul(FNV_PRIME)
}

/// The known words by the hash of their bytes, in open addressing (a
/// key of 0 is an empty slot). A word is known by its 64-bit hash alone:
/// two of the few hundred words sharing one is ruled out when the table is
/// built, and a page's word taken for a known one by chance is one in
/// 2^64 / 300.
static TABLE: [(u64, Signals); SLOTS] = {
    let mut table = [(0u64, Signals::NONE); SLOTS];
    let mut g = 0;
    while g < WORDS.len() {
        let (signals, words) = WORDS[g];
        let mut w = 0;
        while w < words.len() {
            let bytes = words[w].as_bytes();
            assert!(bytes.len() <= WORD_BYTES);
            let mut hash = FNV_OFFSET;
            let mut i = 0;
            while i < bytes.len() {
                hash = fnv(hash, bytes[i]);
                i += 1;
            }
            assert!(hash != 0);
            let mut slot = hash as usize % SLOTS;
            while table[slot].0 != 0 {
                // A word listed twice would be a mistake in the list.
                assert!(table[slot].0 != hash);
                slot = (slot + 1) % SLOTS;
            }
            table[slot] = (hash, signals);
            w += 1;
        }
        g += 1;
    }
    table
};

/// The signals of the known word with hash `hash`, if it is one.
#[inline]
fn known(hash: u64) -> Signals {
    let mut slot = hash as usize % SLOTS;
    loop {
        let (key, signals) = TABLE[slot];
        if key == hash {
            return signals;
        }
        if key == 0 {
            return Signals::NONE;
        }
        slot = (slot + 1) % SLOTS;
    }
}

/// The signals of an ARIA `role` value (its first known role).
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
    fn words_are_split_and_matched() {
        assert_eq!(of_words("site-nav"), Signals::NAV);
        assert_eq!(of_words("mainNav"), Signals::CONTENT | Signals::NAV);
        assert_eq!(of_words("  Footer__links "), Signals::FOOTER);
        assert_eq!(of_words("comment_list commentlist"), Signals::COMMENT);
        assert_eq!(of_words("sitenavigation"), Signals::NAV);
        assert_eq!(of_words("article-body"), Signals::ARTICLE | Signals::BODY);
        assert_eq!(of_words("address"), Signals::NONE);
        assert_eq!(of_words("adsbygoogle ad"), Signals::AD);
        assert_eq!(of_words(""), Signals::NONE);
        // A word past the longest looked up is no word.
        assert_eq!(of_words(&"nav".repeat(20)), Signals::NONE);
    }

    /// Every listed word is found, alone and inside a value.
    #[test]
    fn every_known_word_is_found() {
        for &(signals, words) in WORDS {
            for word in words {
                assert_eq!(of_words(word), signals, "{word}");
                assert!(of_words(&format!("x-{word} y")).any(signals), "{word}");
            }
        }
    }

    /// Every part is found at the start and at the end of a longer word,
    /// in either case.
    #[test]
    fn every_part_is_found_inside_a_word() {
        for &(part, signals) in PARTS {
            let part = core::str::from_utf8(part).expect("ASCII");
            for word in [format!("{part}qqqqqq"), format!("qqqqqq{part}")] {
                assert!(of_words(&word).any(signals), "{word}");
                assert!(of_words(&word.to_ascii_uppercase()).any(signals), "{word}");
            }
        }
    }

    #[test]
    fn roles_itemprops_and_hiding() {
        assert_eq!(of_role("Navigation"), Signals::NAV);
        assert_eq!(of_role("presentation main"), Signals::CONTENT);
        assert_eq!(of_itemprop("articleBody"), Signals::BODY);
        assert!(hides("color: red; DISPLAY : none"));
        assert!(!hides("display:block"));
        assert!(!hides(&" ".repeat(1000)));
    }
}
