//! The borrowed token types the tokenizer yields.
//!
//! Every string in a token is a plain `&'a str`. Where the token's text is
//! a verbatim run of the source, the string is a slice of the input; where it
//! differs from the source (a decoded character reference, an ASCII-lowercased
//! name, a replaced NUL, a normalized newline, text stitched from pieces) it
//! lives in the caller's [`bumpalo::Bump`] arena. Both have the lifetime `'a`,
//! so a token can be kept as long as the input and the arena live.
//!
//! Spans are byte offsets into the input (`start..end`), so the raw source of
//! any token, tag name or attribute value is always `&input[span.range()]`.

use core::ops::Range;

use crate::element::Element;

/// A half-open range of byte offsets into the input, `start..end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// Makes a span from `start` to `end`.
    #[inline]
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The span as a `Range`, to index the input with.
    #[inline]
    pub const fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// Length in bytes.
    #[inline]
    pub const fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no bytes.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// A tag's attributes: a slice in the caller's arena.
///
/// The tokenizer gathers attributes in a buffer it reuses from tag to tag and
/// copies the finished list into the arena with the rest of the token's
/// owned data. An inline `SmallVec` in the token was the first design; it
/// made every `Token` 392 bytes, and moving tokens through the iterator cost
/// a third of the run time on real pages (`perf`, es6.html), against 80
/// bytes and one arena copy per tag now. Steady state still makes no heap
/// allocation per tag: the buffer is reused and the arena is the caller's.
pub type Attributes<'a> = &'a [Attribute<'a>];

/// One token of the HTML [tokenization](https://html.spec.whatwg.org/multipage/parsing.html#tokenization) stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// A DOCTYPE token.
    Doctype(Doctype<'a>),
    /// A start tag token.
    StartTag(Tag<'a>),
    /// An end tag token.
    EndTag(Tag<'a>),
    /// A comment token (including bogus comments such as `<?php ... >`).
    Comment(Comment<'a>),
    /// A maximal run of character tokens between two other tokens.
    Text(Text<'a>),
}

impl<'a> Token<'a> {
    /// The byte span of the source this token came from.
    #[inline]
    pub fn span(&self) -> Span {
        match self {
            Token::Doctype(t) => t.span,
            Token::StartTag(t) | Token::EndTag(t) => t.span,
            Token::Comment(t) => t.span,
            Token::Text(t) => t.span,
        }
    }
}

/// A start or end tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag<'a> {
    /// The tag name, ASCII-lowercased (borrowed when the source was already
    /// lowercase).
    pub name: &'a str,
    /// The element `name` names, to `match` on instead of comparing
    /// strings: [`Element::Other`] when the name is not one the crate knows;
    /// then `name` is the name. The tokenizer sets it with
    /// [`Element::from_name`]; a `Tag` built by hand must do the same, since
    /// auto-switching and the serializer go by it.
    pub element: Element,
    /// The span of the name as written in the source.
    pub name_span: Span,
    /// The attributes in source order, duplicates included but flagged.
    pub attributes: Attributes<'a>,
    /// Whether the tag ended with `/>`.
    pub self_closing: bool,
    /// The span of the whole tag, from `<` to `>` inclusive.
    pub span: Span,
}

impl<'a> Tag<'a> {
    /// The first attribute with this (lowercase) name, as the spec keeps it:
    /// later duplicates are ignored.
    #[inline]
    pub fn attr(&self, name: &str) -> Option<&Attribute<'a>> {
        self.attributes
            .iter()
            .find(|a| !a.duplicate && a.name == name)
    }

    /// The value of the attribute with this (lowercase) name, if present.
    #[inline]
    pub fn attr_value(&self, name: &str) -> Option<&'a str> {
        self.attr(name).map(|a| a.value)
    }

    /// The attributes the spec keeps (no duplicates), in source order.
    #[inline]
    pub fn attrs(&self) -> impl Iterator<Item = &Attribute<'a>> {
        self.attributes.iter().filter(|a| !a.duplicate)
    }
}

/// One attribute of a tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attribute<'a> {
    /// The attribute name, ASCII-lowercased.
    pub name: &'a str,
    /// The value with character references decoded (empty when the
    /// attribute has no value).
    pub value: &'a str,
    /// The span of the name as written.
    pub name_span: Span,
    /// The span of the raw value as written, without its quotes; `None` when
    /// the attribute has no `=value` part at all.
    pub value_span: Option<Span>,
    /// Whether an earlier attribute of the same tag had the same name. The
    /// spec drops such attributes (a `duplicate-attribute` parse error);
    /// they are kept here for inspection, and [`Tag::attr`] skips them.
    pub duplicate: bool,
}

/// A DOCTYPE token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doctype<'a> {
    /// The name, ASCII-lowercased, or `None` when missing.
    pub name: Option<&'a str>,
    /// The public identifier, or `None` when missing (distinct from empty).
    pub public_id: Option<&'a str>,
    /// The system identifier, or `None` when missing (distinct from empty).
    pub system_id: Option<&'a str>,
    /// The force-quirks flag.
    pub force_quirks: bool,
    /// The span of the whole DOCTYPE.
    pub span: Span,
}

/// A comment token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment<'a> {
    /// The comment's data, without `<!--` and `-->`.
    pub data: &'a str,
    /// The span of the whole comment.
    pub span: Span,
}

/// A maximal run of character data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text<'a> {
    /// The characters, with character references decoded and newlines
    /// normalized.
    pub data: &'a str,
    /// The span of the source that produced these characters (for text from
    /// a CDATA section, the markers are included).
    pub span: Span,
}
