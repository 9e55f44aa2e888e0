//! Parse errors: the codes of §13.2.2 by their spec names, and where they
//! happened.
//!
//! Collecting errors is off by default and costs nothing then. When it is on
//! ([`crate::Options::errors`]), each error records only its code and byte
//! offset; line and column are computed from the offset on demand by
//! [`crate::LineIndex`], because most users never look at them.

use core::fmt;

/// A parse error code, named as in §13.2.2 of the HTML Standard.
///
/// [`ErrorCode::as_str`] gives the spec's kebab-case name, for example
/// `eof-in-tag`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `abrupt-closing-of-empty-comment`
    AbruptClosingOfEmptyComment,
    /// `abrupt-doctype-public-identifier`
    AbruptDoctypePublicIdentifier,
    /// `abrupt-doctype-system-identifier`
    AbruptDoctypeSystemIdentifier,
    /// `absence-of-digits-in-numeric-character-reference`
    AbsenceOfDigitsInNumericCharacterReference,
    /// `cdata-in-html-content`
    CdataInHtmlContent,
    /// `character-reference-outside-unicode-range`
    CharacterReferenceOutsideUnicodeRange,
    /// `control-character-in-input-stream`
    ControlCharacterInInputStream,
    /// `control-character-reference`
    ControlCharacterReference,
    /// `duplicate-attribute`
    DuplicateAttribute,
    /// `end-tag-with-attributes`
    EndTagWithAttributes,
    /// `end-tag-with-trailing-solidus`
    EndTagWithTrailingSolidus,
    /// `eof-before-tag-name`
    EofBeforeTagName,
    /// `eof-in-cdata`
    EofInCdata,
    /// `eof-in-comment`
    EofInComment,
    /// `eof-in-doctype`
    EofInDoctype,
    /// `eof-in-script-html-comment-like-text`
    EofInScriptHtmlCommentLikeText,
    /// `eof-in-tag`
    EofInTag,
    /// `incorrectly-closed-comment`
    IncorrectlyClosedComment,
    /// `incorrectly-opened-comment`
    IncorrectlyOpenedComment,
    /// `invalid-character-sequence-after-doctype-name`
    InvalidCharacterSequenceAfterDoctypeName,
    /// `invalid-first-character-of-tag-name`
    InvalidFirstCharacterOfTagName,
    /// `missing-attribute-value`
    MissingAttributeValue,
    /// `missing-doctype-name`
    MissingDoctypeName,
    /// `missing-doctype-public-identifier`
    MissingDoctypePublicIdentifier,
    /// `missing-doctype-system-identifier`
    MissingDoctypeSystemIdentifier,
    /// `missing-end-tag-name`
    MissingEndTagName,
    /// `missing-quote-before-doctype-public-identifier`
    MissingQuoteBeforeDoctypePublicIdentifier,
    /// `missing-quote-before-doctype-system-identifier`
    MissingQuoteBeforeDoctypeSystemIdentifier,
    /// `missing-semicolon-after-character-reference`
    MissingSemicolonAfterCharacterReference,
    /// `missing-whitespace-after-doctype-public-keyword`
    MissingWhitespaceAfterDoctypePublicKeyword,
    /// `missing-whitespace-after-doctype-system-keyword`
    MissingWhitespaceAfterDoctypeSystemKeyword,
    /// `missing-whitespace-before-doctype-name`
    MissingWhitespaceBeforeDoctypeName,
    /// `missing-whitespace-between-attributes`
    MissingWhitespaceBetweenAttributes,
    /// `missing-whitespace-between-doctype-public-and-system-identifiers`
    MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
    /// `nested-comment`
    NestedComment,
    /// `noncharacter-character-reference`
    NoncharacterCharacterReference,
    /// `noncharacter-in-input-stream`
    NoncharacterInInputStream,
    /// `non-void-html-element-start-tag-with-trailing-solidus`
    NonVoidHtmlElementStartTagWithTrailingSolidus,
    /// `null-character-reference`
    NullCharacterReference,
    /// `surrogate-character-reference`
    SurrogateCharacterReference,
    /// `surrogate-in-input-stream`
    SurrogateInInputStream,
    /// `unexpected-character-after-doctype-system-identifier`
    UnexpectedCharacterAfterDoctypeSystemIdentifier,
    /// `unexpected-character-in-attribute-name`
    UnexpectedCharacterInAttributeName,
    /// `unexpected-character-in-unquoted-attribute-value`
    UnexpectedCharacterInUnquotedAttributeValue,
    /// `unexpected-equals-sign-before-attribute-name`
    UnexpectedEqualsSignBeforeAttributeName,
    /// `unexpected-null-character`
    UnexpectedNullCharacter,
    /// `unexpected-question-mark-instead-of-tag-name`
    UnexpectedQuestionMarkInsteadOfTagName,
    /// `unexpected-solidus-in-tag`
    UnexpectedSolidusInTag,
    /// `unknown-named-character-reference`
    UnknownNamedCharacterReference,
}

impl ErrorCode {
    /// Every code, in the order of §13.2.2.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::AbruptClosingOfEmptyComment,
        ErrorCode::AbruptDoctypePublicIdentifier,
        ErrorCode::AbruptDoctypeSystemIdentifier,
        ErrorCode::AbsenceOfDigitsInNumericCharacterReference,
        ErrorCode::CdataInHtmlContent,
        ErrorCode::CharacterReferenceOutsideUnicodeRange,
        ErrorCode::ControlCharacterInInputStream,
        ErrorCode::ControlCharacterReference,
        ErrorCode::DuplicateAttribute,
        ErrorCode::EndTagWithAttributes,
        ErrorCode::EndTagWithTrailingSolidus,
        ErrorCode::EofBeforeTagName,
        ErrorCode::EofInCdata,
        ErrorCode::EofInComment,
        ErrorCode::EofInDoctype,
        ErrorCode::EofInScriptHtmlCommentLikeText,
        ErrorCode::EofInTag,
        ErrorCode::IncorrectlyClosedComment,
        ErrorCode::IncorrectlyOpenedComment,
        ErrorCode::InvalidCharacterSequenceAfterDoctypeName,
        ErrorCode::InvalidFirstCharacterOfTagName,
        ErrorCode::MissingAttributeValue,
        ErrorCode::MissingDoctypeName,
        ErrorCode::MissingDoctypePublicIdentifier,
        ErrorCode::MissingDoctypeSystemIdentifier,
        ErrorCode::MissingEndTagName,
        ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier,
        ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier,
        ErrorCode::MissingSemicolonAfterCharacterReference,
        ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword,
        ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword,
        ErrorCode::MissingWhitespaceBeforeDoctypeName,
        ErrorCode::MissingWhitespaceBetweenAttributes,
        ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
        ErrorCode::NestedComment,
        ErrorCode::NoncharacterCharacterReference,
        ErrorCode::NoncharacterInInputStream,
        ErrorCode::NonVoidHtmlElementStartTagWithTrailingSolidus,
        ErrorCode::NullCharacterReference,
        ErrorCode::SurrogateCharacterReference,
        ErrorCode::SurrogateInInputStream,
        ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier,
        ErrorCode::UnexpectedCharacterInAttributeName,
        ErrorCode::UnexpectedCharacterInUnquotedAttributeValue,
        ErrorCode::UnexpectedEqualsSignBeforeAttributeName,
        ErrorCode::UnexpectedNullCharacter,
        ErrorCode::UnexpectedQuestionMarkInsteadOfTagName,
        ErrorCode::UnexpectedSolidusInTag,
        ErrorCode::UnknownNamedCharacterReference,
    ];

    /// The spec's name for this code, for example `"eof-in-tag"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::AbruptClosingOfEmptyComment => "abrupt-closing-of-empty-comment",
            ErrorCode::AbruptDoctypePublicIdentifier => "abrupt-doctype-public-identifier",
            ErrorCode::AbruptDoctypeSystemIdentifier => "abrupt-doctype-system-identifier",
            ErrorCode::AbsenceOfDigitsInNumericCharacterReference => {
                "absence-of-digits-in-numeric-character-reference"
            }
            ErrorCode::CdataInHtmlContent => "cdata-in-html-content",
            ErrorCode::CharacterReferenceOutsideUnicodeRange => {
                "character-reference-outside-unicode-range"
            }
            ErrorCode::ControlCharacterInInputStream => "control-character-in-input-stream",
            ErrorCode::ControlCharacterReference => "control-character-reference",
            ErrorCode::DuplicateAttribute => "duplicate-attribute",
            ErrorCode::EndTagWithAttributes => "end-tag-with-attributes",
            ErrorCode::EndTagWithTrailingSolidus => "end-tag-with-trailing-solidus",
            ErrorCode::EofBeforeTagName => "eof-before-tag-name",
            ErrorCode::EofInCdata => "eof-in-cdata",
            ErrorCode::EofInComment => "eof-in-comment",
            ErrorCode::EofInDoctype => "eof-in-doctype",
            ErrorCode::EofInScriptHtmlCommentLikeText => "eof-in-script-html-comment-like-text",
            ErrorCode::EofInTag => "eof-in-tag",
            ErrorCode::IncorrectlyClosedComment => "incorrectly-closed-comment",
            ErrorCode::IncorrectlyOpenedComment => "incorrectly-opened-comment",
            ErrorCode::InvalidCharacterSequenceAfterDoctypeName => {
                "invalid-character-sequence-after-doctype-name"
            }
            ErrorCode::InvalidFirstCharacterOfTagName => "invalid-first-character-of-tag-name",
            ErrorCode::MissingAttributeValue => "missing-attribute-value",
            ErrorCode::MissingDoctypeName => "missing-doctype-name",
            ErrorCode::MissingDoctypePublicIdentifier => "missing-doctype-public-identifier",
            ErrorCode::MissingDoctypeSystemIdentifier => "missing-doctype-system-identifier",
            ErrorCode::MissingEndTagName => "missing-end-tag-name",
            ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier => {
                "missing-quote-before-doctype-public-identifier"
            }
            ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier => {
                "missing-quote-before-doctype-system-identifier"
            }
            ErrorCode::MissingSemicolonAfterCharacterReference => {
                "missing-semicolon-after-character-reference"
            }
            ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword => {
                "missing-whitespace-after-doctype-public-keyword"
            }
            ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword => {
                "missing-whitespace-after-doctype-system-keyword"
            }
            ErrorCode::MissingWhitespaceBeforeDoctypeName => {
                "missing-whitespace-before-doctype-name"
            }
            ErrorCode::MissingWhitespaceBetweenAttributes => {
                "missing-whitespace-between-attributes"
            }
            ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers => {
                "missing-whitespace-between-doctype-public-and-system-identifiers"
            }
            ErrorCode::NestedComment => "nested-comment",
            ErrorCode::NoncharacterCharacterReference => "noncharacter-character-reference",
            ErrorCode::NoncharacterInInputStream => "noncharacter-in-input-stream",
            ErrorCode::NonVoidHtmlElementStartTagWithTrailingSolidus => {
                "non-void-html-element-start-tag-with-trailing-solidus"
            }
            ErrorCode::NullCharacterReference => "null-character-reference",
            ErrorCode::SurrogateCharacterReference => "surrogate-character-reference",
            ErrorCode::SurrogateInInputStream => "surrogate-in-input-stream",
            ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier => {
                "unexpected-character-after-doctype-system-identifier"
            }
            ErrorCode::UnexpectedCharacterInAttributeName => {
                "unexpected-character-in-attribute-name"
            }
            ErrorCode::UnexpectedCharacterInUnquotedAttributeValue => {
                "unexpected-character-in-unquoted-attribute-value"
            }
            ErrorCode::UnexpectedEqualsSignBeforeAttributeName => {
                "unexpected-equals-sign-before-attribute-name"
            }
            ErrorCode::UnexpectedNullCharacter => "unexpected-null-character",
            ErrorCode::UnexpectedQuestionMarkInsteadOfTagName => {
                "unexpected-question-mark-instead-of-tag-name"
            }
            ErrorCode::UnexpectedSolidusInTag => "unexpected-solidus-in-tag",
            ErrorCode::UnknownNamedCharacterReference => "unknown-named-character-reference",
        }
    }

    /// Looks a code up by its spec name.
    pub fn from_name(name: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parse error: its code and the byte offset in the input where the
/// tokenizer met it (the offset of the character being consumed, or of the
/// end of the input for `eof-*` errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    /// What went wrong.
    pub code: ErrorCode,
    /// Byte offset into the input.
    pub offset: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.code, self.offset)
    }
}
