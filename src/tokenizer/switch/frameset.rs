//! The frameset watch: whether a `<frameset>` would replace the body, and
//! so whether every start tag but `noframes` is ignored from then on.

use super::stack::{Approximation, FramesetMode};
use crate::element::Element;
use crate::scan::is_ascii_whitespace;
use crate::token::Tag;

/// Whether a character token with these characters sets "frameset-ok" to
/// "not ok": any but whitespace and NUL (which "in body" ignores and
/// foreign content inserts as U+FFFD without touching the flag).
pub(super) fn sets_frameset_not_ok(text: &str) -> bool {
    text.bytes().any(|b| !(is_ascii_whitespace(b) || b == 0))
}

impl Approximation {
    /// Whether the frameset watch wants to see the text before each token
    /// ([`Self::text`]).
    #[inline(always)]
    pub(super) fn watching_frameset(&self) -> bool {
        self.watching
    }

    pub(super) fn set_frameset(&mut self, frameset: FramesetMode) {
        self.frameset = frameset;
        self.watching = matches!(frameset, FramesetMode::BeforeBody | FramesetMode::BodyOk);
        self.update_listen();
    }

    /// Text handed out (or about to be) before the next token: character
    /// tokens for the tree builder unless they are a raw text element's.
    /// Called, while [`Self::watching_frameset`], before every start tag,
    /// end tag, comment and DOCTYPE with the text pending before it, and
    /// for a piece of text handed out alone.
    #[cold]
    pub(super) fn text(&mut self, text: &str) {
        if self.watching && !self.raw_text && self.head_templates == 0 && sets_frameset_not_ok(text)
        {
            self.set_frameset(FramesetMode::Off);
        }
    }

    /// What an HTML start tag does to the frameset watch (the tag is not
    /// inserted as a foreign element).
    #[cold]
    pub(super) fn watch_start_tag(&mut self, tag: &Tag<'_>) {
        use Element::*;
        let element = tag.element;
        if self.frameset == FramesetMode::BeforeBody {
            if self.head_templates > 0 {
                // Inside a template in the head: its contents.
                if element == Template {
                    self.head_templates += 1;
                }
                return;
            }
            match element {
                // "in head" and "after head" keep these in the head.
                Html | Head | Base | Basefont | Bgsound | Link | Meta | Noframes | Script
                | Style | Title | Noscript => return,
                Template => {
                    self.head_templates = 1;
                    return;
                }
                // "after head": inserted, "in frameset".
                Frameset => return self.enter_frameset(),
                // "after head": the body, "frameset-ok" "not ok".
                Body => return self.set_frameset(FramesetMode::Off),
                // "anything else": the body, then this tag "in body".
                _ => self.set_frameset(FramesetMode::BodyOk),
            }
        }
        match element {
            Frameset => self.enter_frameset(),
            // "in body": the start tags that set "frameset-ok" to "not
            // ok" (`image` is `img`, `template` through "in head").
            Body | Pre | Listing | Li | Dd | Dt | Button | Applet | Marquee | Object | Table
            | Area | Br | Embed | Img | Image | Keygen | Wbr | Hr | Textarea | Xmp | Iframe
            | Select | Template => self.set_frameset(FramesetMode::Off),
            Input
                if !tag
                    .attr_value("type")
                    .is_some_and(|t| t.eq_ignore_ascii_case("hidden")) =>
            {
                self.set_frameset(FramesetMode::Off)
            }
            _ => {}
        }
    }

    /// A `frameset` start tag taken: it replaces the body (and everything
    /// open in it, foreign content included).
    pub(super) fn enter_frameset(&mut self) {
        while !self.stack.is_empty() {
            self.pop();
        }
        self.set_frameset(FramesetMode::In);
    }

    /// What an end tag does to the frameset watch.
    #[cold]
    pub(super) fn watch_end_tag(&mut self, tag: &Tag<'_>) {
        use Element::*;
        self.raw_text = false;
        if self.head_templates > 0 {
            if tag.element == Template {
                self.head_templates -= 1;
            }
            return;
        }
        match (self.frameset, tag.element) {
            // `</br>` is a `<br>` "in body", which sets the flag.
            (_, Br) => self.set_frameset(FramesetMode::Off),
            // "anything else" before the body: the body, flag unchanged.
            (FramesetMode::BeforeBody, Body | Html) => self.set_frameset(FramesetMode::BodyOk),
            _ => {}
        }
    }
}
