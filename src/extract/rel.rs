//! [`Rel`]: the `rel` keywords of a link an indexer acts on.

use crate::scan::is_ascii_whitespace_char;

macro_rules! rel_keywords {
    ($($(#[$doc:meta])* $name:ident = $bit:expr, $keyword:literal;)*) => {
        /// The `rel` keywords of a link an indexer acts on, as a set.
        ///
        /// ```
        /// use htmltok::extract::Rel;
        ///
        /// let rel = Rel::parse("NoFollow  ugc external");
        /// assert!(rel.contains(Rel::NOFOLLOW) && rel.contains(Rel::UGC));
        /// assert!(!rel.contains(Rel::SPONSORED));
        /// assert_eq!(rel.keywords().collect::<Vec<_>>(), ["nofollow", "ugc", "external"]);
        /// ```
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Rel(u32);

        impl Rel {
            $($(#[$doc])* pub const $name: Rel = Rel(1 << $bit);)*

            /// Every keyword this type knows, with its flag.
            const ALL: &'static [(&'static str, Rel)] = &[$(($keyword, Rel::$name)),*];
        }
    };
}

rel_keywords! {
    /// `nofollow`: the page does not endorse the target.
    NOFOLLOW = 0, "nofollow";
    /// `ugc`: user-generated content.
    UGC = 1, "ugc";
    /// `sponsored`: a paid link.
    SPONSORED = 2, "sponsored";
    /// `canonical`: the preferred URL of this page.
    CANONICAL = 3, "canonical";
    /// `alternate`: another version (language, format) of this page.
    ALTERNATE = 4, "alternate";
    /// `noopener`.
    NOOPENER = 5, "noopener";
    /// `noreferrer`.
    NOREFERRER = 6, "noreferrer";
    /// `external`: a different site.
    EXTERNAL = 7, "external";
    /// `stylesheet`.
    STYLESHEET = 8, "stylesheet";
    /// `icon`.
    ICON = 9, "icon";
    /// `next`: the next page of a series.
    NEXT = 10, "next";
    /// `prev`: the previous page of a series.
    PREV = 11, "prev";
    /// `author`.
    AUTHOR = 12, "author";
    /// `license`.
    LICENSE = 13, "license";
    /// `manifest`.
    MANIFEST = 14, "manifest";
    /// `preload`.
    PRELOAD = 15, "preload";
    /// `prefetch`.
    PREFETCH = 16, "prefetch";
    /// `dns-prefetch`.
    DNS_PREFETCH = 17, "dns-prefetch";
    /// `preconnect`.
    PRECONNECT = 18, "preconnect";
    /// `modulepreload`.
    MODULEPRELOAD = 19, "modulepreload";
    /// `shortlink`.
    SHORTLINK = 20, "shortlink";
    /// `bookmark`.
    BOOKMARK = 21, "bookmark";
    /// `tag`.
    TAG = 22, "tag";
    /// `me`.
    ME = 23, "me";
    /// `help`.
    HELP = 24, "help";
    /// `search`.
    SEARCH = 25, "search";
    /// `amphtml`: the AMP version of this page.
    AMPHTML = 26, "amphtml";
}

impl Rel {
    /// The keywords of a `rel` value this type knows (ASCII
    /// case-insensitively; unknown ones are left out).
    pub fn parse(value: &str) -> Rel {
        let mut rel = Rel(0);
        for word in value
            .split(is_ascii_whitespace_char)
            .filter(|w| !w.is_empty())
        {
            if let Some((_, flag)) = Rel::ALL.iter().find(|(k, _)| k.eq_ignore_ascii_case(word)) {
                rel.0 |= flag.0;
            }
        }
        rel
    }

    /// Whether every keyword of `other` is in the set.
    pub fn contains(self, other: Rel) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The keywords in the set, lowercase, in a fixed order.
    pub fn keywords(self) -> impl Iterator<Item = &'static str> {
        Rel::ALL
            .iter()
            .filter(move |(_, flag)| self.contains(*flag))
            .map(|(k, _)| *k)
    }
}

impl core::ops::BitOr for Rel {
    type Output = Rel;

    /// The keywords of both.
    fn bitor(self, other: Rel) -> Rel {
        Rel(self.0 | other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_keywords() {
        let rel = Rel::parse("Alternate\tCANONICAL unknown");
        assert_eq!(
            rel.keywords().collect::<Vec<_>>(),
            ["canonical", "alternate"]
        );
        assert!(Rel::parse("").is_empty());
    }
}
