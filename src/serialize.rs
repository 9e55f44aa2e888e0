//! Turning tokens back into HTML.
//!
//! The escaping is that of the standard's serialization algorithm
//! ([serializing HTML fragments](https://html.spec.whatwg.org/multipage/parsing.html#serialising-html-fragments),
//! [escaping a string](https://html.spec.whatwg.org/multipage/parsing.html#escapingString)): `&` becomes
//! `&amp;` and U+00A0 NO-BREAK SPACE becomes `&nbsp;`; in attribute mode `"`
//! becomes `&quot;`, otherwise `<` becomes `&lt;` and `>` becomes `&gt;`.
//! Attribute values are written in double quotes; the text of raw text
//! elements (`<script>`, `<style>`, `<xmp>`, `<iframe>`, `<noembed>`,
//! `<noframes>`, `<plaintext>`, and `<noscript>` when scripting is on) is
//! written literally, as the standard does when the parent is one of them.
//!
//! To know which text is raw, the serializer tracks the content model the
//! way the tokenizer's auto-switching does (see [`Options::auto_switch`]),
//! `<svg>`/`<math>` included, with the tokenizer's own code for it, so the
//! two cannot drift apart: [`serialize_tokens`] and [`Serializer`] do
//! that for a whole token stream; the `serialize_*` functions write one
//! token each.
//!
//! ```
//! use htmltok::serialize::serialize_tokens;
//! use htmltok::{Tokenizer, bumpalo::Bump};
//!
//! let html = "<P class=x>Fish &amp chips<script>if (a<b) f()</script>";
//! let arena = Bump::new();
//! let mut out = String::new();
//! serialize_tokens(Tokenizer::new(html, &arena), &mut out);
//! assert_eq!(out, r#"<p class="x">Fish &amp; chips<script>if (a<b) f()</script>"#);
//! ```
//!
//! # What round-trips
//!
//! Take any input, its tokens `T` from a [`Tokenizer`] with auto-switching
//! on (any [`Options::scripting`], any [`Options::initial_state`] and
//! [`Tokenizer::set_last_start_tag`]), and the HTML `serialize_tokens`
//! writes for `T` with a [`Serializer`] set up alike ([`Serializer::scripting`],
//! [`Serializer::initial_state`]). Tokenizing that HTML with the same options
//! gives `T` again — the same kinds, names, attributes (in order, duplicates
//! included and flagged alike), values, self-closing flags, comment data,
//! DOCTYPE fields and force-quirks flags, and text in the same runs — with
//! two exceptions:
//!
//! - **Spans** differ, of course: they point into the new HTML.
//! - **Carriage returns** that came from character references (`&#13;`) in
//!   text or attribute values come back as line feeds: the standard's
//!   escaping writes a CR as is, and the tokenizer's input preprocessing
//!   turns it (or CRLF) into LF. No other string of a token can hold a CR.
//!
//! The `roundtrip` fuzz target checks exactly this promise.
//!
//! It holds because of what the tokenizer can and cannot produce: comment
//! data never contains `-->` or `--!>` and never starts with `>` or `->`;
//! a DOCTYPE identifier never holds both kinds of quote; names are
//! non-empty and hold no whitespace, `/` or `>`; the text of a raw text
//! element never contains an end tag that would close it; a tag's
//! `element` is the one its name names. Token sequences built by hand that
//! break these rules are still written, but are not promised to read back
//! the same; neither are sequences the tokenizer could not have produced (a
//! start tag after `<plaintext>`'s text, text in a CDATA section that
//! contains `]]>`).
//!
//! # Beyond the standard's algorithm
//!
//! The standard serializes DOM nodes, not tokens, so a few choices are this
//! module's own, all to keep the round trip:
//!
//! - attributes flagged `duplicate` are written too (a DOM has none; the
//!   tokenizer flags them again on the way back);
//! - end tags keep their attributes and `/` (parse errors that a tree
//!   builder ignores);
//! - a DOCTYPE is written with its identifiers (`<!DOCTYPE html PUBLIC "…"
//!   "…">`), each in whichever quote it does not contain, and its
//!   force-quirks flag is kept by ending it the way the standard forces
//!   quirks: `<!DOCTYPE>` without a name, `<!DOCTYPE html PUBLIC>` without
//!   identifiers, and otherwise the last identifier's closing quote left out
//!   (`<!DOCTYPE html SYSTEM "about:legacy-compat>`);
//! - a stream that starts in the CDATA section state begins with `]]>`, so
//!   that all its text is written escaped in the data state.
//!
//! [`Options::auto_switch`]: crate::Options::auto_switch
//! [`Options::scripting`]: crate::Options::scripting
//! [`Options::initial_state`]: crate::Options::initial_state
//! [`Tokenizer`]: crate::Tokenizer
//! [`Tokenizer::set_last_start_tag`]: crate::Tokenizer::set_last_start_tag

use core::borrow::Borrow;

use crate::token::{Comment, Doctype, Tag, Token};
use crate::tokenizer::{OpenElements, State};

/// Appends `s` to `out` escaped for text
/// ([escaping a string](https://html.spec.whatwg.org/multipage/parsing.html#escapingString), not in attribute mode): `&` → `&amp;`, U+00A0 → `&nbsp;`, `<` → `&lt;`,
/// `>` → `&gt;`.
///
/// ```
/// let mut out = String::new();
/// htmltok::serialize::escape_text("a < b & \u{a0}\"c\"", &mut out);
/// assert_eq!(out, "a &lt; b &amp; &nbsp;\"c\"");
/// ```
pub fn escape_text(s: &str, out: &mut String) {
    escape(s, false, out);
}

/// Appends `s` to `out` escaped for a double-quoted attribute value
/// ([escaping a string](https://html.spec.whatwg.org/multipage/parsing.html#escapingString) in attribute mode): `&` → `&amp;`, U+00A0 →
/// `&nbsp;`, `"` → `&quot;`.
///
/// ```
/// let mut out = String::new();
/// htmltok::serialize::escape_attribute_value("a < b & \u{a0}\"c\"", &mut out);
/// assert_eq!(out, "a < b &amp; &nbsp;&quot;c&quot;");
/// ```
pub fn escape_attribute_value(s: &str, out: &mut String) {
    escape(s, true, out);
}

fn escape(s: &str, attribute_mode: bool, out: &mut String) {
    let mut copied = 0;
    for (i, c) in s.char_indices() {
        let replacement = match c {
            '&' => "&amp;",
            '\u{A0}' => "&nbsp;",
            '"' if attribute_mode => "&quot;",
            '<' if !attribute_mode => "&lt;",
            '>' if !attribute_mode => "&gt;",
            _ => continue,
        };
        out.push_str(&s[copied..i]);
        out.push_str(replacement);
        copied = i + c.len_utf8();
    }
    out.push_str(&s[copied..]);
}

/// Appends a start tag: `<name`, each attribute as ` name="value"` (value
/// escaped in attribute mode), `/` if self-closing, `>`.
///
/// ```
/// use htmltok::{Token, Tokenizer, bumpalo::Bump};
/// let arena = Bump::new();
/// let Some(Token::StartTag(tag)) = Tokenizer::new("<IMG alt='\"hi\"' src=a.png/>", &arena).next()
/// else { unreachable!() };
/// let mut out = String::new();
/// htmltok::serialize::serialize_start_tag(&tag, &mut out);
/// assert_eq!(out, r#"<img alt="&quot;hi&quot;" src="a.png/">"#);
/// ```
pub fn serialize_start_tag(tag: &Tag<'_>, out: &mut String) {
    write_tag(tag, "<", out);
}

/// Appends an end tag: `</name>` (with the tag's attributes and `/`, if the
/// token has them, written as for a start tag).
///
/// ```
/// use htmltok::{Token, Tokenizer, bumpalo::Bump};
/// let arena = Bump::new();
/// let Some(Token::EndTag(tag)) = Tokenizer::new("</DIV >", &arena).next() else { unreachable!() };
/// let mut out = String::new();
/// htmltok::serialize::serialize_end_tag(&tag, &mut out);
/// assert_eq!(out, "</div>");
/// ```
pub fn serialize_end_tag(tag: &Tag<'_>, out: &mut String) {
    write_tag(tag, "</", out);
}

fn write_tag(tag: &Tag<'_>, open: &str, out: &mut String) {
    out.push_str(open);
    out.push_str(tag.name);
    for attr in tag.attributes {
        out.push(' ');
        out.push_str(attr.name);
        out.push_str("=\"");
        escape_attribute_value(attr.value, out);
        out.push('"');
    }
    if tag.self_closing {
        out.push('/');
    }
    out.push('>');
}

/// Appends a comment: `<!--data-->`, the data as is (the standard does not
/// escape comments).
///
/// ```
/// use htmltok::{Token, Tokenizer, bumpalo::Bump};
/// let arena = Bump::new();
/// let Some(Token::Comment(c)) = Tokenizer::new("<?xml version=1?>", &arena).next() else { unreachable!() };
/// let mut out = String::new();
/// htmltok::serialize::serialize_comment(&c, &mut out);
/// assert_eq!(out, "<!--?xml version=1?-->");
/// ```
pub fn serialize_comment(comment: &Comment<'_>, out: &mut String) {
    out.push_str("<!--");
    out.push_str(comment.data);
    out.push_str("-->");
}

/// Appends a DOCTYPE: `<!DOCTYPE name>`, with ` PUBLIC "…"` and/or the
/// system identifier when present, each in a quote it does not contain. A
/// set force-quirks flag is kept as described in the [module
/// docs](self#beyond-the-standards-algorithm). Without a name, only
/// `<!DOCTYPE>` is written.
///
/// ```
/// use htmltok::{Token, Tokenizer, bumpalo::Bump};
/// let arena = Bump::new();
/// let html = r#"<!doctype HTML public "-//W3C//DTD HTML 4.01//EN" 'x"y'>"#;
/// let Some(Token::Doctype(d)) = Tokenizer::new(html, &arena).next() else { unreachable!() };
/// let mut out = String::new();
/// htmltok::serialize::serialize_doctype(&d, &mut out);
/// assert_eq!(out, r#"<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" 'x"y'>"#);
/// ```
pub fn serialize_doctype(doctype: &Doctype<'_>, out: &mut String) {
    out.push_str("<!DOCTYPE");
    let Some(name) = doctype.name else {
        // A DOCTYPE without a name always forces quirks.
        out.push('>');
        return;
    };
    out.push(' ');
    out.push_str(name);
    let ids = match (doctype.public_id, doctype.system_id) {
        (Some(public), system) => {
            out.push_str(" PUBLIC");
            [Some(public), system]
        }
        (None, Some(system)) => {
            out.push_str(" SYSTEM");
            [Some(system), None]
        }
        (None, None) => {
            // "missing-doctype-public-identifier" forces quirks.
            out.push_str(if doctype.force_quirks {
                " PUBLIC>"
            } else {
                ">"
            });
            return;
        }
    };
    let last = if ids[1].is_some() { 1 } else { 0 };
    for (i, id) in ids.iter().enumerate() {
        let Some(id) = id else { continue };
        let quote = if id.contains('"') { '\'' } else { '"' };
        out.push(' ');
        out.push(quote);
        out.push_str(id);
        // An identifier cut short by `>` ("abrupt-doctype-…-identifier")
        // forces quirks.
        if !(doctype.force_quirks && i == last) {
            out.push(quote);
        }
    }
    out.push('>');
}

/// Appends character data: literally when `raw` (the text of a raw text
/// element or PLAINTEXT, which the tokenizer reads without character
/// references), escaped with [`escape_text`] otherwise (data and RCDATA).
///
/// ```
/// let mut out = String::new();
/// htmltok::serialize::serialize_text("a<b", true, &mut out);
/// htmltok::serialize::serialize_text("a<b", false, &mut out);
/// assert_eq!(out, "a<ba&lt;b");
/// ```
pub fn serialize_text(data: &str, raw: bool, out: &mut String) {
    if raw {
        out.push_str(data);
    } else {
        escape_text(data, out);
    }
}

/// Appends the HTML for a token stream, tracking the content model as the
/// tokenizer's auto-switching does (a default [`Serializer`]). Accepts
/// tokens or references to them, so a [`Tokenizer`](crate::Tokenizer) can be
/// passed directly.
///
/// ```
/// use htmltok::serialize::serialize_tokens;
/// use htmltok::{Token, Tokenizer, bumpalo::Bump};
///
/// let html = "<title>a&lt;b</title><svg><style>x&gt;y</style><![CDATA[<]]></svg><style>p>a{}</style>";
/// let arena = Bump::new();
/// let tokens: Vec<Token> = Tokenizer::new(html, &arena).collect();
/// let mut out = String::new();
/// serialize_tokens(&tokens, &mut out);
/// assert_eq!(
///     out,
///     "<title>a&lt;b</title><svg><style>x&gt;y</style>&lt;</svg><style>p>a{}</style>"
/// );
/// ```
pub fn serialize_tokens<'a, T: Borrow<Token<'a>>>(
    tokens: impl IntoIterator<Item = T>,
    out: &mut String,
) {
    let mut serializer = Serializer::new();
    for token in tokens {
        serializer.write(token.borrow(), out);
    }
}

/// A streaming serializer: writes tokens one at a time, tracking the content
/// model exactly as the tokenizer's auto-switching does (the same rules for
/// raw text elements, `<svg>`/`<math>`, integration points and breakout
/// tags), so that text is escaped or written raw as the tokenizer will read
/// it back.
///
/// ```
/// use htmltok::serialize::Serializer;
/// use htmltok::{Options, Tokenizer, bumpalo::Bump};
///
/// let html = "<noscript><b>&amp;</b></noscript>";
/// let arena = Bump::new();
/// let opts = Options::default().scripting(false);
/// let mut ser = Serializer::new().scripting(false);
/// let mut out = String::new();
/// for token in Tokenizer::with_options(html, &arena, opts) {
///     ser.write(&token, &mut out);
/// }
/// assert_eq!(out, html);
/// ```
#[derive(Clone, Debug)]
pub struct Serializer {
    /// The content model the next text will be read in.
    state: State,
    scripting: bool,
    /// `]]>` still to be written before the first token (a stream that
    /// started in the CDATA section state).
    close_cdata: bool,
    /// The open elements as far as auto-switching tracks them: empty
    /// outside `<svg>`/`<math>`. The tokenizer's own tracker, so the two
    /// cannot disagree.
    stack: OpenElements,
}

impl Default for Serializer {
    fn default() -> Serializer {
        Serializer::new()
    }
}

impl Serializer {
    /// A serializer for tokens from a tokenizer with default
    /// [`Options`](crate::Options): data state, scripting on.
    pub fn new() -> Serializer {
        Serializer {
            state: State::Data,
            scripting: true,
            close_cdata: false,
            stack: OpenElements::new(),
        }
    }

    /// Whether scripting is on, which makes `<noscript>` a raw text
    /// element; set it as [`Options::scripting`](crate::Options::scripting)
    /// was set for the tokens.
    pub fn scripting(mut self, on: bool) -> Serializer {
        self.scripting = on;
        self
    }

    /// The state the tokens' tokenizer started in
    /// ([`Options::initial_state`](crate::Options::initial_state)), and
    /// the one the output is to be read back in. In the CDATA section state,
    /// the output starts with `]]>`, which closes the section at once.
    pub fn initial_state(mut self, state: State) -> Serializer {
        if state == State::CdataSection {
            self.close_cdata = true;
            self.state = State::Data;
        } else {
            self.close_cdata = false;
            self.state = state;
        }
        self
    }

    /// The content model the next text will be read in: [`State::Data`],
    /// [`State::Rcdata`] (escaped) or [`State::Rawtext`],
    /// [`State::ScriptData`], [`State::Plaintext`] (raw).
    pub fn content_model(&self) -> State {
        self.state
    }

    /// Appends one token to `out`.
    pub fn write(&mut self, token: &Token<'_>, out: &mut String) {
        if self.close_cdata {
            self.close_cdata = false;
            out.push_str("]]>");
        }
        match token {
            Token::Doctype(d) => serialize_doctype(d, out),
            Token::StartTag(tag) => {
                serialize_start_tag(tag, out);
                self.state = self
                    .stack
                    .start_tag(tag, self.scripting)
                    .unwrap_or(State::Data);
            }
            Token::EndTag(tag) => {
                serialize_end_tag(tag, out);
                self.state = State::Data;
                self.stack.end_tag(tag);
            }
            Token::Comment(c) => serialize_comment(c, out),
            Token::Text(t) => {
                if self.stack.watching_frameset() {
                    self.stack.text(t.data);
                }
                let raw = matches!(
                    self.state,
                    State::Rawtext | State::ScriptData | State::Plaintext
                );
                serialize_text(t.data, raw, out);
            }
        }
    }
}
