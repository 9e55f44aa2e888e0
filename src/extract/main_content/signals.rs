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
        _ => Signals::NONE,
    }
}

/// What the tag's attributes name: its `class` and `id` words, its `role`,
/// its `itemprop`, and whether it is hidden by `aria-hidden` or an inline
/// `display: none`.
pub(crate) fn of_attributes(tag: &Tag<'_>) -> Signals {
    let mut signals = Signals::NONE;
    for attr in tag.attrs() {
        match attr.name {
            "class" | "id" => signals |= of_words(attr.value),
            "role" => signals |= of_role(attr.value),
            "itemprop" => signals |= of_itemprop(attr.value),
            "aria-hidden" if attr.value.trim_ascii().eq_ignore_ascii_case("true") => {
                signals |= Signals::HIDDEN;
            }
            "style" if hides(attr.value) => signals |= Signals::HIDDEN,
            _ => {}
        }
    }
    signals
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
        if !b.is_ascii_whitespace() {
            squeezed[n] = b.to_ascii_lowercase();
            n += 1;
        }
    }
    let s = &squeezed[..n];
    contains(s, b"display:none") || contains(s, b"visibility:hidden")
}

/// Whether `needle` occurs in `hay`.
fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
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
    let mut word = [0u8; WORD_BYTES];
    let mut len = 0;
    let mut too_long = false;
    let mut previous_lower = false;
    for &b in bytes.iter().chain([&b' ']) {
        let alnum = b.is_ascii_alphanumeric();
        // A word ends at a byte that is no letter or digit, and before an
        // uppercase letter that follows a lowercase one (`mainNav`).
        if !alnum || (b.is_ascii_uppercase() && previous_lower) {
            if len > 0 && !too_long {
                signals |= of_word(&word[..len]);
            }
            len = 0;
            too_long = false;
        }
        previous_lower = b.is_ascii_lowercase();
        if alnum {
            if len < WORD_BYTES {
                word[len] = b.to_ascii_lowercase();
                len += 1;
            } else {
                too_long = true;
            }
        }
    }
    signals
}

/// The signals of one lowercase word: its own, or those of the known word
/// it starts or ends with, if it is long.
fn of_word(word: &[u8]) -> Signals {
    let own = known(word);
    if !own.is_empty() || word.len() < 6 {
        return own;
    }
    let mut signals = Signals::NONE;
    for &(part, s) in PARTS {
        if word.len() > part.len() && (word.starts_with(part) || word.ends_with(part)) {
            signals |= s;
        }
    }
    signals
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

/// The signals of a known whole word, lowercase.
fn known(word: &[u8]) -> Signals {
    match word {
        b"nav" | b"navbar" | b"navigation" | b"menu" | b"menus" | b"submenu" | b"megamenu"
        | b"breadcrumb" | b"breadcrumbs" | b"crumbs" | b"pagination" | b"pager" | b"paging"
        | b"toc" | b"toolbar" | b"tabs" | b"dropdown" | b"hamburger" | b"topnav" | b"subnav"
        | b"sitemap" | b"jump" | b"jumplinks" => Signals::NAV,
        b"footer" | b"foot" | b"copyright" | b"colophon" | b"legal" | b"bottom"
        | b"contentinfo" => Signals::FOOTER,
        b"header" | b"masthead" | b"topbar" | b"top" | b"branding" | b"logo" | b"hero" => {
            Signals::HEADER
        }
        b"sidebar" | b"side" | b"aside" | b"widget" | b"widgets" | b"rail" | b"sidebox"
        | b"complementary" | b"secondary" => Signals::SIDEBAR,
        b"related" | b"recommended" | b"recommendations" | b"recommendation" | b"popular"
        | b"trending" | b"mostread" | b"most" | b"more" | b"also" | b"upnext" | b"next"
        | b"prev" | b"previous" | b"outbrain" | b"taboola" => Signals::RELATED,
        b"share" | b"shares" | b"sharing" | b"sharer" | b"social" | b"follow" | b"facebook"
        | b"twitter" | b"linkedin" | b"whatsapp" | b"pinterest" | b"addthis" | b"print"
        | b"email" => Signals::SHARE,
        b"comment" | b"comments" | b"commentlist" | b"disqus" | b"reply" | b"replies"
        | b"respond" | b"discussion" | b"discuss" | b"feedback" | b"reviews" => Signals::COMMENT,
        b"cookie" | b"cookies" | b"consent" | b"gdpr" | b"privacy" | b"onetrust" | b"cmp"
        | b"notice" => Signals::COOKIE,
        b"ad" | b"ads" | b"advert" | b"adverts" | b"advertisement" | b"advertising"
        | b"adsbygoogle" | b"adslot" | b"adunit" | b"dfp" | b"gpt" | b"sponsor" | b"sponsored"
        | b"promo" | b"promotion" | b"promoted" | b"banner" | b"commercial" | b"affiliate" => {
            Signals::AD
        }
        b"login" | b"signin" | b"signup" | b"register" | b"subscribe" | b"subscription"
        | b"newsletter" | b"search" | b"searchform" | b"account" | b"paywall" | b"donate"
        | b"cta" => Signals::SIGNUP,
        b"byline" | b"author" | b"authors" | b"date" | b"dateline" | b"published" | b"updated"
        | b"timestamp" | b"meta" | b"metadata" | b"tags" | b"tag" | b"category" | b"categories"
        | b"info" | b"details" | b"postmeta" | b"entrymeta" | b"credit" | b"credits"
        | b"source" => Signals::META,
        b"modal" | b"popup" | b"overlay" | b"dialog" | b"lightbox" | b"toast" | b"alert"
        | b"interstitial" => Signals::POPUP,
        b"hidden" | b"hide" | b"invisible" | b"sronly" | b"sr" | b"offscreen" | b"collapsed"
        | b"noscript" => Signals::HIDDEN,
        b"content" | b"contents" | b"main" | b"maincontent" | b"primary" | b"page"
        | b"container" | b"wrapper" | b"inner" => Signals::CONTENT,
        b"article" | b"articles" | b"post" | b"posts" | b"entry" | b"entries" | b"story"
        | b"blog" | b"hentry" | b"news" | b"single" => Signals::ARTICLE,
        b"body" | b"text" | b"prose" | b"richtext" | b"markdown" | b"copy" | b"paragraph"
        | b"description" | b"desc" | b"summary" | b"abstract" | b"lead" | b"intro" | b"answer"
        | b"question" | b"docs" | b"documentation" | b"doc" | b"readme" => Signals::BODY,
        b"title" | b"headline" | b"heading" | b"h1" | b"subtitle" | b"subheadline"
        | b"standfirst" | b"deck" => Signals::TITLE,
        b"card" | b"cards" | b"teaser" | b"teasers" | b"tile" | b"tiles" | b"item" | b"items"
        | b"grid" | b"listing" | b"thumb" | b"thumbnail" | b"preview" => Signals::CARD,
        b"skip" | b"skiplink" | b"screenreader" | b"visuallyhidden" => Signals::SKIP,
        b"caption" | b"figure" | b"figcaption" | b"gallery" | b"photo" | b"image" | b"img"
        | b"media" | b"video" => Signals::CAPTION,
        _ => Signals::NONE,
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
