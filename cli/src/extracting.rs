//! The library's [`Extractor`] as the extracting commands (`text`, `links`,
//! `meta`) drive it: fed a page's events, and with a record's page
//! resolving its links against the record's address.

use std::borrow::Cow;
use std::io;
use std::ops::ControlFlow;

use htmltok::Token;
use htmltok::extract::{ExtractOptions, Extractor};

use crate::page::{Context, Event, Page, Sink, TextDelivery};

/// The options to extract `page` with: `options`, and for a record's page,
/// its links resolved against the record's target URI.
pub fn options_for<'o>(options: &'o ExtractOptions, page: &Page<'_>) -> Cow<'o, ExtractOptions> {
    match page.record {
        Some(record) => Cow::Owned(options.clone().url(record.url())),
        None => Cow::Borrowed(options),
    }
}

/// Hands an event's token to the extractor.
#[inline(always)]
pub fn feed(extractor: &mut Extractor, event: &Event<'_, '_>) {
    match event {
        Event::Token(token) => extractor.token(token),
        Event::Text { text, .. } => extractor.text(text),
        Event::TextEnd { .. } | Event::Error(..) => {}
    }
}

/// The sink that hands every token to the extractor and writes nothing:
/// for a command that writes what the extractor found once the page ends.
pub struct Feeding<'e> {
    /// The extractor fed.
    pub extractor: &'e mut Extractor,
}

impl Sink for Feeding<'_> {
    /// Text pieces come as tokens, which is all the extractor needs.
    const TEXT: TextDelivery = TextDelivery::Tokens;

    /// Parse errors (none unless the run asks for them).
    fn event(&mut self, event: Event<'_, '_>, _: &Context<'_, '_>) -> io::Result<()> {
        feed(self.extractor, &event);
        Ok(())
    }

    /// Compiled into the tokenizer's loop, as the library's `extract` is.
    #[inline(always)]
    fn token(&mut self, token: &Token<'_>, _: &Context<'_, '_>) -> ControlFlow<()> {
        self.extractor.token(token);
        ControlFlow::Continue(())
    }
}
