//! [Changing the encoding while parsing](https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing),
//! over the token stream.
//!
//! A browser's tree builder, on a `<meta>` start tag, looks at its `charset`
//! (or `http-equiv=content-type` + `content`) and, while the confidence is
//! tentative, changes the encoding: when the declaration differs from the
//! encoding in use, the document is decoded again with the declared one.
//! The tokenizer has no tree builder, so this is a watcher a caller feeds
//! tokens to; it says when a re-decode is due and leaves doing it to the
//! caller ([`Document::reparse`](super::Document::reparse)).

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

use super::{Confidence, Document, sniff::for_declaration};
use crate::token::{Tag, Token};
use crate::tokenizer::Tokenizer;

/// A `<meta>` that declared an encoding other than the one the document was
/// decoded with while that encoding was tentative: the document must be
/// decoded again with [`to`](EncodingChange::to), certain
/// ([`Document::reparse`](super::Document::reparse)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodingChange {
    /// The encoding the document was decoded with.
    pub from: &'static Encoding,
    /// The encoding to decode it with instead (already with the standard's
    /// substitutions: UTF-16 declared becomes UTF-8, x-user-defined becomes
    /// windows-1252).
    pub to: &'static Encoding,
    /// Byte offset of the `<meta>` start tag in the decoded text (the
    /// tag's `span.start`).
    pub offset: usize,
}

/// Watches start tags for a `<meta>` that declares an encoding, and applies
/// [change the encoding](https://html.spec.whatwg.org/multipage/parsing.html#change-the-encoding) to what it finds.
///
/// Feed it every token (or only start tags) in order with
/// [`observe`](EncodingWatcher::observe). While the confidence is
/// tentative, a `meta` start tag whose `charset` attribute is a known label
/// (or, failing that, whose `http-equiv` is `content-type` and whose
/// `content` holds a known `charset=`) is a declaration:
///
/// - with the current encoding UTF-16, it is ignored, and the confidence
///   becomes certain;
/// - a declared UTF-16 becomes UTF-8, x-user-defined becomes windows-1252;
/// - the same encoding as the current one makes the confidence certain;
/// - another encoding is an [`EncodingChange`], and the confidence becomes
///   certain (the document is to be decoded again with it).
///
/// Once certain, nothing more is reported. Every `<meta>` start tag counts,
/// as the tree builder processes one in the head, the body and foreign
/// content alike; the rare places where it ignores one (in a frameset, in
/// `<select>`) are not told apart.
///
/// ```
/// use htmltok::{Document, DecodeOptions, EncodingWatcher, bumpalo::Bump, encoding_rs};
///
/// // Past the 1024 bytes the prescan looks at, so sniffing said windows-1252.
/// let mut page = format!("<!--{}-->", "x".repeat(2000)).into_bytes();
/// page.extend_from_slice(b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4");
/// let doc = Document::from_bytes(&page, &DecodeOptions::default())?;
/// assert_eq!(doc.encoding(), encoding_rs::WINDOWS_1252);
///
/// let arena = Bump::new();
/// let mut watcher = EncodingWatcher::for_document(&doc);
/// let change = doc.tokenizer(&arena).find_map(|t| watcher.observe(&t)).unwrap();
/// assert_eq!(change.to, encoding_rs::KOI8_R);
///
/// let doc = doc.reparse(&change)?;
/// assert!(doc.text().ends_with("Привет"));
/// # Ok::<(), htmltok::DecodeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodingWatcher {
    encoding: &'static Encoding,
    confidence: Confidence,
}

impl EncodingWatcher {
    /// A watcher for a document decoded with `encoding` at `confidence`.
    pub fn new(encoding: &'static Encoding, confidence: Confidence) -> EncodingWatcher {
        EncodingWatcher {
            encoding,
            confidence,
        }
    }

    /// A watcher for `doc`'s encoding and confidence.
    pub fn for_document(doc: &Document<'_>) -> EncodingWatcher {
        EncodingWatcher::new(doc.encoding(), doc.confidence())
    }

    /// The encoding in use: the document's, or the one an
    /// [`EncodingChange`] switched to.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The confidence now: certain once a `<meta>` confirmed or changed the
    /// encoding.
    pub fn confidence(&self) -> Confidence {
        self.confidence
    }

    /// Looks at one token. Returns a change when this token is a `<meta>`
    /// that calls for decoding the document again.
    pub fn observe(&mut self, token: &Token<'_>) -> Option<EncodingChange> {
        match token {
            Token::StartTag(tag) => self.observe_tag(tag),
            _ => None,
        }
    }

    /// [`observe`](EncodingWatcher::observe) for a start tag.
    pub fn observe_tag(&mut self, tag: &Tag<'_>) -> Option<EncodingChange> {
        if self.confidence == Confidence::Certain || tag.name != "meta" {
            return None;
        }
        let declared = meta_declared_encoding(tag)?;
        self.change_the_encoding(declared, tag.span.start)
    }

    /// "Change the encoding" to `new`, found at `offset`.
    fn change_the_encoding(
        &mut self,
        new: &'static Encoding,
        offset: usize,
    ) -> Option<EncodingChange> {
        let from = self.encoding;
        self.confidence = Confidence::Certain;
        if from == UTF_16BE || from == UTF_16LE {
            return None;
        }
        let to = for_declaration(new);
        if to == from {
            return None;
        }
        self.encoding = to;
        Some(EncodingChange { from, to, offset })
    }
}

/// The encoding a `<meta>` start tag declares, as the tree builder reads it
/// ("in head", `meta`): its `charset` attribute when that is a known label,
/// else, when `http-equiv` is `Content-Type` (any case), the encoding
/// [`extract_meta_charset`](super::extract_meta_charset) finds in its
/// `content`. Attributes are read as the DOM would have them: character
/// references decoded, the first of duplicates kept. The caller checks the
/// tag is a `meta`. No UTF-16 or x-user-defined substitution is made here.
///
/// ```
/// use htmltok::{Token, Tokenizer, bumpalo::Bump, encoding::meta_declared_encoding, encoding_rs};
///
/// let arena = Bump::new();
/// let html = r#"<meta http-equiv=content-type content="text/html;charset=Big5">"#;
/// let Some(Token::StartTag(tag)) = Tokenizer::new(html, &arena).next() else { unreachable!() };
/// assert_eq!(meta_declared_encoding(&tag), Some(encoding_rs::BIG5));
/// ```
pub fn meta_declared_encoding(tag: &Tag<'_>) -> Option<&'static Encoding> {
    if let Some(encoding) = tag
        .attr_value("charset")
        .and_then(|label| Encoding::for_label(label.as_bytes()))
    {
        return Some(encoding);
    }
    let pragma = tag
        .attr_value("http-equiv")
        .is_some_and(|v| v.eq_ignore_ascii_case("content-type"));
    if !pragma {
        return None;
    }
    super::extract_meta_charset(tag.attr_value("content")?.as_bytes())
}

/// The tokens of a [`Document`] with an [`EncodingWatcher`] looking at them:
/// made by [`Document::tokens_with_encoding_check`]. It yields every token;
/// [`change`](CheckedTokens::change) tells whether one of the `<meta>`s seen
/// so far calls for decoding the document again.
///
/// ```
/// use htmltok::{Document, DecodeOptions, bumpalo::Bump, encoding_rs};
///
/// let page = b"<title>x</title><meta charset=euc-kr>";
/// // The prescan would find the meta: turn it off to see the change.
/// let doc = Document::from_bytes(page, &DecodeOptions::default().prescan_bytes(0))?;
/// let arena = Bump::new();
/// let mut tokens = doc.tokens_with_encoding_check(&arena);
/// let count = tokens.by_ref().count();
/// assert_eq!(count, 4);
/// assert_eq!(tokens.change().map(|c| (c.to, c.offset)), Some((encoding_rs::EUC_KR, 16)));
/// # Ok::<(), htmltok::DecodeError>(())
/// ```
pub struct CheckedTokens<'t> {
    tokenizer: Tokenizer<'t>,
    watcher: EncodingWatcher,
    change: Option<EncodingChange>,
}

impl core::fmt::Debug for CheckedTokens<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CheckedTokens")
            .field("watcher", &self.watcher)
            .field("change", &self.change)
            .finish_non_exhaustive()
    }
}

impl<'t> CheckedTokens<'t> {
    pub(crate) fn new(tokenizer: Tokenizer<'t>, watcher: EncodingWatcher) -> CheckedTokens<'t> {
        CheckedTokens {
            tokenizer,
            watcher,
            change: None,
        }
    }

    /// The change the first declaring `<meta>` called for, if any so far.
    pub fn change(&self) -> Option<&EncodingChange> {
        self.change.as_ref()
    }

    /// The confidence now (certain once a `<meta>` confirmed or changed
    /// the encoding).
    pub fn confidence(&self) -> Confidence {
        self.watcher.confidence()
    }

    /// The tokenizer, for its parse errors and state.
    pub fn tokenizer(&self) -> &Tokenizer<'t> {
        &self.tokenizer
    }

    /// The tokenizer, to change its state as a tree builder would.
    pub fn tokenizer_mut(&mut self) -> &mut Tokenizer<'t> {
        &mut self.tokenizer
    }
}

impl<'t> Iterator for CheckedTokens<'t> {
    type Item = Token<'t>;

    fn next(&mut self) -> Option<Token<'t>> {
        let token = self.tokenizer.next()?;
        if let Some(change) = self.watcher.observe(&token) {
            self.change = Some(change);
        }
        Some(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tokenizer;
    use bumpalo::Bump;
    use encoding_rs::{EUC_KR, KOI8_R, UTF_8, WINDOWS_1252};

    fn changes(html: &str, from: &'static Encoding, c: Confidence) -> Vec<Option<EncodingChange>> {
        let arena = Bump::new();
        let mut w = EncodingWatcher::new(from, c);
        Tokenizer::new(html, &arena)
            .filter(|t| matches!(t, Token::StartTag(_)))
            .map(|t| w.observe(&t))
            .collect()
    }

    #[test]
    fn change_rules() {
        let t = Confidence::Tentative;
        let change = |to, offset| {
            Some(EncodingChange {
                from: WINDOWS_1252,
                to,
                offset,
            })
        };
        assert_eq!(
            changes("<meta charset=koi8-r>", WINDOWS_1252, t),
            [change(KOI8_R, 0)]
        );
        // Certain: ignored.
        assert_eq!(
            changes("<meta charset=koi8-r>", WINDOWS_1252, Confidence::Certain),
            [None]
        );
        // Same encoding: no change, and later metas are ignored.
        assert_eq!(
            changes(
                "<meta charset=latin1><meta charset=koi8-r>",
                WINDOWS_1252,
                t
            ),
            [None, None]
        );
        // UTF-16 declared → UTF-8; x-user-defined → windows-1252 (= same).
        assert_eq!(
            changes("<meta charset=utf-16>", WINDOWS_1252, t),
            [change(UTF_8, 0)]
        );
        assert_eq!(
            changes("<meta charset=x-user-defined>", WINDOWS_1252, t),
            [None]
        );
        // Current UTF-16: ignored.
        assert_eq!(changes("<meta charset=koi8-r>", UTF_16LE, t), [None]);
        // Unknown label: not a declaration; the next meta still counts.
        assert_eq!(
            changes(
                "<meta charset=bogus><p><meta charset=euc-kr>",
                WINDOWS_1252,
                t
            ),
            [None, None, change(EUC_KR, 23)]
        );
        // A bad charset falls back to the pragma.
        let html =
            r#"<meta charset=bogus http-equiv=Content-Type content="text/html; charset=koi8-r">"#;
        assert_eq!(changes(html, WINDOWS_1252, t), [change(KOI8_R, 0)]);
        // content without the pragma does nothing.
        assert_eq!(
            changes("<meta content='charset=koi8-r'>", WINDOWS_1252, t),
            [None]
        );
        // Character references are decoded, as in the DOM.
        assert_eq!(
            changes("<meta charset=koi8&#45;r>", WINDOWS_1252, t),
            [change(KOI8_R, 0)]
        );
        // Not in raw text, comments or attribute values.
        assert_eq!(
            changes(
                "<style><meta charset=koi8-r></style><!--<meta charset=koi8-r>-->",
                WINDOWS_1252,
                t
            ),
            [None]
        );
    }
}
