//! Parse errors: the codes of the HTML Standard's
//! [table of parse errors](https://html.spec.whatwg.org/multipage/parsing.html#parse-errors)
//! by their spec names, and where they happened.
//!
//! Collecting errors is off by default and costs nothing then. When it is on
//! ([`crate::Options::errors`]), each error records only its code and byte
//! offset; line and column are computed from the offset on demand by
//! [`crate::LineIndex`], because most users never look at them.

use core::fmt;

/// Makes [`ErrorCode`] from the table below: the enum, the list of every
/// code, the names and the lookup by name, so that a code is written once.
macro_rules! error_codes {
    ($($name:literal => $variant:ident,)*) => {
        /// A parse error code, named as in the HTML Standard's
        /// [table of parse errors](https://html.spec.whatwg.org/multipage/parsing.html#parse-errors).
        ///
        /// [`ErrorCode::as_str`] gives the spec's kebab-case name, for example
        /// `eof-in-tag`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $(
                #[doc = concat!(
                    "[`", $name, "`](https://html.spec.whatwg.org/multipage/parsing.html#parse-error-",
                    $name, ")"
                )]
                $variant,
            )*
        }

        impl ErrorCode {
            /// Every code, in the order of the standard's table.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),*];

            /// The spec's name for this code, for example `"eof-in-tag"`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $name,)*
                }
            }

            /// Looks a code up by its spec name.
            pub fn from_name(name: &str) -> Option<ErrorCode> {
                match name {
                    $($name => Some(ErrorCode::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

// The codes of the standard's table, each by its name and its variant.
error_codes! {
    "abrupt-closing-of-empty-comment" => AbruptClosingOfEmptyComment,
    "abrupt-doctype-public-identifier" => AbruptDoctypePublicIdentifier,
    "abrupt-doctype-system-identifier" => AbruptDoctypeSystemIdentifier,
    "absence-of-digits-in-numeric-character-reference" => AbsenceOfDigitsInNumericCharacterReference,
    "cdata-in-html-content" => CdataInHtmlContent,
    "character-reference-outside-unicode-range" => CharacterReferenceOutsideUnicodeRange,
    "control-character-in-input-stream" => ControlCharacterInInputStream,
    "control-character-reference" => ControlCharacterReference,
    "duplicate-attribute" => DuplicateAttribute,
    "end-tag-with-attributes" => EndTagWithAttributes,
    "end-tag-with-trailing-solidus" => EndTagWithTrailingSolidus,
    "eof-before-tag-name" => EofBeforeTagName,
    "eof-in-cdata" => EofInCdata,
    "eof-in-comment" => EofInComment,
    "eof-in-doctype" => EofInDoctype,
    "eof-in-script-html-comment-like-text" => EofInScriptHtmlCommentLikeText,
    "eof-in-tag" => EofInTag,
    "incorrectly-closed-comment" => IncorrectlyClosedComment,
    "incorrectly-opened-comment" => IncorrectlyOpenedComment,
    "invalid-character-sequence-after-doctype-name" => InvalidCharacterSequenceAfterDoctypeName,
    "invalid-first-character-of-tag-name" => InvalidFirstCharacterOfTagName,
    "missing-attribute-value" => MissingAttributeValue,
    "missing-doctype-name" => MissingDoctypeName,
    "missing-doctype-public-identifier" => MissingDoctypePublicIdentifier,
    "missing-doctype-system-identifier" => MissingDoctypeSystemIdentifier,
    "missing-end-tag-name" => MissingEndTagName,
    "missing-quote-before-doctype-public-identifier" => MissingQuoteBeforeDoctypePublicIdentifier,
    "missing-quote-before-doctype-system-identifier" => MissingQuoteBeforeDoctypeSystemIdentifier,
    "missing-semicolon-after-character-reference" => MissingSemicolonAfterCharacterReference,
    "missing-whitespace-after-doctype-public-keyword" => MissingWhitespaceAfterDoctypePublicKeyword,
    "missing-whitespace-after-doctype-system-keyword" => MissingWhitespaceAfterDoctypeSystemKeyword,
    "missing-whitespace-before-doctype-name" => MissingWhitespaceBeforeDoctypeName,
    "missing-whitespace-between-attributes" => MissingWhitespaceBetweenAttributes,
    "missing-whitespace-between-doctype-public-and-system-identifiers" => MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
    "nested-comment" => NestedComment,
    "noncharacter-character-reference" => NoncharacterCharacterReference,
    "noncharacter-in-input-stream" => NoncharacterInInputStream,
    "non-void-html-element-start-tag-with-trailing-solidus" => NonVoidHtmlElementStartTagWithTrailingSolidus,
    "null-character-reference" => NullCharacterReference,
    "surrogate-character-reference" => SurrogateCharacterReference,
    "surrogate-in-input-stream" => SurrogateInInputStream,
    "unexpected-character-after-doctype-system-identifier" => UnexpectedCharacterAfterDoctypeSystemIdentifier,
    "unexpected-character-in-attribute-name" => UnexpectedCharacterInAttributeName,
    "unexpected-character-in-unquoted-attribute-value" => UnexpectedCharacterInUnquotedAttributeValue,
    "unexpected-equals-sign-before-attribute-name" => UnexpectedEqualsSignBeforeAttributeName,
    "unexpected-null-character" => UnexpectedNullCharacter,
    "unexpected-question-mark-instead-of-tag-name" => UnexpectedQuestionMarkInsteadOfTagName,
    "unexpected-solidus-in-tag" => UnexpectedSolidusInTag,
    "unknown-named-character-reference" => UnknownNamedCharacterReference,
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

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    /// Every code is listed once, and its name leads back to it.
    #[test]
    fn names_and_codes_match() {
        assert_eq!(ErrorCode::ALL.len(), 49);
        for (i, &code) in ErrorCode::ALL.iter().enumerate() {
            assert_eq!(ErrorCode::from_name(code.as_str()), Some(code));
            assert!(!ErrorCode::ALL[..i].contains(&code), "{code}");
        }
        assert_eq!(
            ErrorCode::from_name("eof-in-tag"),
            Some(ErrorCode::EofInTag)
        );
        assert_eq!(ErrorCode::from_name("not-a-code"), None);
    }
}
