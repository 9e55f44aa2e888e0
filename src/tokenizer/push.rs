//! The push interface: every token handed to a closure, in one loop.
//!
//! [`Tokenizer::for_each_token`] gives each token to a closure as soon as
//! it is finished, and the data state goes straight on to the next text
//! and tag. The other states run in a loop of their own (`run_states`,
//! through the state dispatch) until a token is ready or the data state is
//! back; their tokens wait in `output` for this loop to hand over.
//!
//! The iterator is this loop too, with a sink that takes one token and
//! stops (`Iterator::next`): what it pays per token over a closure is the
//! way in and out of the loop and the token written out for the caller,
//! where a closure compiled into the loop reads it from registers. On a
//! real page, where a token is a few dozen bytes, that is about an eighth
//! of the cost (BENCHMARKS.md).
//!
//! Both interfaces run the same states and hand out the same tokens and
//! errors in the same order: the push interface only changes who waits for
//! whom. (The tests check that for the html5lib suite, the corpus and
//! arbitrary input, and for switching between the two halfway.)

use core::ops::ControlFlow;

use super::Tokenizer;
use super::machine::MachineState;
use crate::token::Token;

impl<'a> Tokenizer<'a> {
    /// Hands every token still to come to `sink`, in the order the iterator
    /// would yield them, and returns at the end of the input (or where the
    /// [memory limit](crate::Options::memory_limit) stopped the tokenizer).
    ///
    /// This is the fastest way to tokenize a whole input: the closure is
    /// compiled into the tokenizer's loop, so no token makes the round trip
    /// back through the iterator. The tokenizer stays yours, so its
    /// [`errors`](Tokenizer::errors) and
    /// [`limit_error`](Tokenizer::limit_error) can be read afterwards; and
    /// the two interfaces mix, so a caller can look at the first tokens
    /// through the iterator and hand the rest over here. (The iterator's
    /// `for_each` and `fold` go this way as well.)
    ///
    /// ```
    /// use htmltok::{Options, Token, Tokenizer, bumpalo::Bump};
    ///
    /// let html = "<p class=x>One<p>Two &amp; three</p>";
    /// let arena = Bump::new();
    /// let mut tok = Tokenizer::with_options(html, &arena, Options::default().errors(true));
    /// let mut text = String::new();
    /// let mut tags = 0;
    /// tok.for_each_token(|token| match token {
    ///     Token::Text(t) => text.push_str(t.data),
    ///     Token::StartTag(_) | Token::EndTag(_) => tags += 1,
    ///     _ => {}
    /// });
    /// assert_eq!((text.as_str(), tags), ("OneTwo & three", 3));
    /// assert!(tok.errors().is_empty());
    /// ```
    pub fn for_each_token<F: FnMut(Token<'a>)>(&mut self, mut sink: F) {
        // Inlined at each place the loop hands a token over, where the
        // token's kind is known, so that a `match` on it in `sink` folds
        // away. Left to itself, a build without LTO and with several
        // codegen units (cargo's default release profile) calls this
        // closure out of line for a caller's larger `sink`: the token is
        // then written out, read back and dispatched on for each one
        // (BENCHMARKS.md: 10 M instructions of the 137 M that text
        // extraction costs over the corpus in such a build).
        self.push_until(
            #[inline(always)]
            |token| {
                sink(token);
                true
            },
        );
    }

    /// [`Tokenizer::for_each_token`] for a closure that may stop early:
    /// when it returns [`ControlFlow::Break`], no further token is handed to
    /// it and the break value is returned. The tokenizer keeps its place,
    /// so the iterator or another call goes on from the next token.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use htmltok::{Element, Token, Tokenizer, bumpalo::Bump};
    ///
    /// // The title, without tokenizing past the end of the head.
    /// let html = "<html><head><title>Fish</title></head><body>…a long page…";
    /// let arena = Bump::new();
    /// let mut tok = Tokenizer::new(html, &arena);
    /// let mut in_title = false;
    /// let mut title = String::new();
    /// let end = tok.try_for_each_token(|token| {
    ///     match token {
    ///         Token::StartTag(t) if t.element == Element::Title => in_title = true,
    ///         Token::EndTag(t) if t.element == Element::Title => in_title = false,
    ///         Token::Text(t) if in_title => title.push_str(t.data),
    ///         Token::EndTag(t) if t.element == Element::Head => return ControlFlow::Break(t.span.end),
    ///         _ => {}
    ///     }
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!((title.as_str(), end), ("Fish", ControlFlow::Break(38)));
    /// // The rest is still there.
    /// assert!(matches!(tok.next(), Some(Token::StartTag(t)) if t.name == "body"));
    /// ```
    pub fn try_for_each_token<B, F>(&mut self, mut sink: F) -> ControlFlow<B>
    where
        F: FnMut(Token<'a>) -> ControlFlow<B>,
    {
        let mut stopped = None;
        // Inlined, as in `for_each_token`.
        self.push_until(
            #[inline(always)]
            |token| match sink(token) {
                ControlFlow::Continue(()) => true,
                ControlFlow::Break(b) => {
                    stopped = Some(b);
                    false
                }
            },
        );
        match stopped {
            Some(b) => ControlFlow::Break(b),
            None => ControlFlow::Continue(()),
        }
    }

    /// The push loop (and the iterator's): hands tokens to `sink` until the
    /// input ends or `sink` returns false.
    #[inline(always)]
    pub(super) fn push_until<F: FnMut(Token<'a>) -> bool>(&mut self, mut sink: F) {
        self.output.paused = false;
        // A tag the iterator stashed behind the text it handed out last.
        if self.output.waiting.is_some() {
            if let Some(token) = self.output.waiting.take() {
                if !sink(token) {
                    return;
                }
            }
        }
        loop {
            if !self.hand_over(&mut sink) || self.output.done {
                return;
            }
            // The data state holds most tokens; the others, and the checks
            // that `step` makes for them, are the iterator's own.
            if self.state == MachineState::Data {
                self.data_state_then(&mut sink);
                if self.output.paused {
                    return;
                }
            } else {
                self.run_states();
            }
        }
    }

    /// Hands the tokens that are ready to `sink`: the pending text, then
    /// the token that ended it (a stashed token always has one before it).
    /// Returns false when `sink` asked to stop (a token not handed over yet
    /// stays for the iterator or the next call).
    #[inline(always)]
    fn hand_over<F: FnMut(Token<'a>) -> bool>(&mut self, sink: &mut F) -> bool {
        // Tested before it is taken: nearly always empty, and taking it
        // would read the whole token first.
        if self.output.ready.is_some() {
            if let Some(token) = self.output.ready.take() {
                if !sink(token) {
                    return false;
                }
                if let Some(token) = self.output.waiting.take() {
                    return sink(token);
                }
            }
        }
        true
    }
}
