//! What a command is handed as its input is tokenized: [`Event`]s, to a
//! [`Sink`] compiled into the tokenizer's loop, with the [`Context`] of
//! the chunk they came from; and [`Runs`], which puts a text run cut by
//! chunk boundaries back together as pieces and an end.

use std::io;
use std::ops::ControlFlow;

use htmltok::stream::Source;
use htmltok::{ParseError, Span, Text, Token};

/// What the sink of [`Page::tokenize`](super::Page::tokenize) is handed,
/// in input order.
#[derive(Debug)]
pub enum Event<'t, 'a> {
    /// A token other than text.
    Token(&'t Token<'a>),
    /// A piece of a text run: the run is the pieces from one that
    /// [`RunPiece::Starts`] it to the next [`Event::TextEnd`]; joined, they
    /// are the text token the whole input gives. A run that fits in a
    /// chunk is one piece.
    Text {
        /// The piece.
        text: &'t Text<'a>,
        /// Where it stands in its run.
        piece: RunPiece,
    },
    /// The end of a text run: its span is `start..end` (the whole input's
    /// text token's span).
    TextEnd {
        /// Where the run's first piece starts.
        start: usize,
        /// Where the run ends.
        end: usize,
    },
    /// A parse error (with `Options::errors`), after the tokens of the chunk
    /// it was found in, with its line and column when asked for.
    Error(&'t ParseError, Option<(usize, usize)>),
}

/// Where a text piece ([`Event::Text`]) stands in its run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunPiece {
    /// The run's first piece: a new text token begins.
    Starts,
    /// A later piece of the run a chunk boundary cut.
    Continues,
}

/// How a [`Sink`] is handed text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextDelivery {
    /// As runs: [`Event::Text`] pieces, then an [`Event::TextEnd`] with
    /// the whole run's span, all to [`Sink::event`].
    Runs,
    /// Each piece as a token to [`Sink::token`], no run followed (a sink
    /// that does not look at runs spares the loop the bookkeeping).
    Tokens,
}

/// What the sink may ask about the tokens it is handed.
pub struct Context<'t, 'a> {
    /// Where the chunk's tokens come from, for a token or text event.
    source: Option<&'t Source<'a>>,
}

impl<'t, 'a> Context<'t, 'a> {
    /// The context of the tokens of a chunk that `source` holds.
    #[inline(always)]
    pub(super) fn of(source: &'t Source<'a>) -> Context<'t, 'a> {
        Context {
            source: Some(source),
        }
    }

    /// The context of an event that no chunk holds (a parse error, the end
    /// of the input's last run).
    pub(super) fn none() -> Context<'t, 'a> {
        Context { source: None }
    }

    /// The raw source of a span of the last token (`None` for a text run's
    /// span, which may begin in an earlier chunk, and for other events).
    pub fn source(&self, span: Span) -> Option<&'a str> {
        self.source?.source(span)
    }

    /// The decoded text of the chunk the last token came from (empty for
    /// other events).
    pub fn decoded(&self) -> &'a str {
        self.source.map_or("", |s| s.decoded())
    }
}

/// What [`Page::tokenize`](super::Page::tokenize) hands events to,
/// compiled into the loop over the tokens (each command's own copy of the
/// loop): a closure (see [`SinkFn`]), or a type of a command's own whose
/// [`Sink::event`] is `#[inline(always)]` where the compiler would not
/// inline a closure that large into the three places the loop calls it
/// from.
pub trait Sink {
    /// How the sink wants text handed over.
    const TEXT: TextDelivery = TextDelivery::Runs;

    /// Takes the next event: with [`TextDelivery::Runs`], every one; with
    /// [`TextDelivery::Tokens`], the parse errors (the tokens come to
    /// [`Sink::token`]).
    fn event<'t, 'a>(&mut self, event: Event<'t, 'a>, context: &Context<'t, 'a>) -> io::Result<()>;

    /// With [`TextDelivery::Tokens`], takes the next token (text pieces
    /// included), and breaks to have the loop pause: the loop then calls
    /// [`Sink::resume`] and goes on. So the writing of output, and its
    /// `io::Result`, stay out of the tokenizer's loop, into which this is
    /// compiled (with them in, the compiler kept the sink a call per
    /// token). A sink that asks for [`TextDelivery::Tokens`] implements
    /// it; the loop never calls it on the others.
    #[inline(always)]
    fn token<'t, 'a>(
        &mut self,
        token: &'t Token<'a>,
        context: &Context<'t, 'a>,
    ) -> ControlFlow<()> {
        let _ = (token, context);
        unreachable!("a sink with runs takes its tokens as events")
    }

    /// Does what [`Sink::token`] paused the loop for.
    fn resume(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// Called after each chunk of the input is tokenized (before its
    /// parse errors): where a sink that gathers output writes it out,
    /// checked once a chunk rather than on every token in the loop.
    /// What it holds is then bounded by one chunk's worth.
    fn chunk_done(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A closure as a [`Sink`] that takes each token, text pieces included
/// ([`TextDelivery::Tokens`]): for a command that does not look at runs. The
/// closure's error pauses the loop, and [`Sink::resume`] gives it back.
pub struct EachToken<F> {
    f: F,
    error: Option<io::Error>,
}

impl<F> EachToken<F> {
    /// The sink of `f`.
    pub fn new(f: F) -> EachToken<F> {
        EachToken { f, error: None }
    }
}

impl<F: SinkFn> Sink for EachToken<F> {
    const TEXT: TextDelivery = TextDelivery::Tokens;

    #[inline(always)]
    fn event<'t, 'a>(&mut self, event: Event<'t, 'a>, context: &Context<'t, 'a>) -> io::Result<()> {
        (self.f)(event, context)
    }

    #[inline(always)]
    fn token<'t, 'a>(
        &mut self,
        token: &'t Token<'a>,
        context: &Context<'t, 'a>,
    ) -> ControlFlow<()> {
        match (self.f)(Event::Token(token), context) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.error = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    fn resume(&mut self) -> io::Result<()> {
        self.error.take().map_or(Ok(()), Err)
    }
}

/// A closure as a [`Sink`].
pub trait SinkFn: for<'t, 'a> FnMut(Event<'t, 'a>, &Context<'t, 'a>) -> io::Result<()> {}

impl<S: ?Sized> SinkFn for S where
    S: for<'t, 'a> FnMut(Event<'t, 'a>, &Context<'t, 'a>) -> io::Result<()>
{
}

impl<S: SinkFn + ?Sized> Sink for S {
    #[inline(always)]
    fn event<'t, 'a>(&mut self, event: Event<'t, 'a>, context: &Context<'t, 'a>) -> io::Result<()> {
        self(event, context)
    }
}

/// Tells text runs apart from their pieces (see [`Event::Text`]).
#[derive(Default)]
pub(super) struct Runs {
    /// The open run: where it started and where its last piece ended.
    open: Option<(usize, usize)>,
}

impl Runs {
    /// Hands `token` to `sink`: a text piece as one (the run's first or
    /// not), any other token after the end of the run it ends.
    #[inline(always)]
    pub(super) fn token<'t, 'a, S: Sink + ?Sized>(
        &mut self,
        token: &'t Token<'a>,
        context: &Context<'t, 'a>,
        sink: &mut S,
    ) -> io::Result<()> {
        if let Token::Text(text) = token {
            let (start, piece) = match self.open {
                None => (text.span.start, RunPiece::Starts),
                Some((start, _)) => (start, RunPiece::Continues),
            };
            self.open = Some((start, text.span.end));
            return sink.event(Event::Text { text, piece }, context);
        }
        // A run ends where the token after it starts: the whole input's
        // text span, even when a construct the standard drops (`</>`)
        // follows the run's last piece.
        if let Some((start, _)) = self.open.take() {
            let end = token.span().start;
            sink.event(Event::TextEnd { start, end }, context)?;
        }
        sink.event(Event::Token(token), context)
    }

    /// Ends the run the input ended in, if any: where the stream says text
    /// running to the end ends (after what the standard drops, which the
    /// last piece may not cover), or where its last piece ends if the input
    /// did not get to its end.
    pub(super) fn end<S: Sink + ?Sized>(
        &mut self,
        eof_text_end: Option<usize>,
        sink: &mut S,
    ) -> io::Result<()> {
        match self.open.take() {
            Some((start, end)) => {
                let end = eof_text_end.map_or(end, |e| e.max(end));
                sink.event(Event::TextEnd { start, end }, &Context::none())
            }
            None => Ok(()),
        }
    }
}
