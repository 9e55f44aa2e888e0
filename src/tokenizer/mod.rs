//! The tokenizer: the state machine of the standard's
//! [tokenization](https://html.spec.whatwg.org/multipage/parsing.html#tokenization)
//! section over the bytes of a `&str`.
//!
//! The states are split by the groups the standard writes them in, one
//! file each, so that a reader with the standard open finds every state by
//! its name; the machinery they share has a file per job:
//!
//! | file | what |
//! |---|---|
//! | `data.rs` | the [data state](https://html.spec.whatwg.org/multipage/parsing.html#data-state) to the [PLAINTEXT state](https://html.spec.whatwg.org/multipage/parsing.html#plaintext-state), and the RCDATA, RAWTEXT and script data less-than sign, end tag and escape states from the [RCDATA less-than sign state](https://html.spec.whatwg.org/multipage/parsing.html#rcdata-less-than-sign-state) to the [script data double escape end state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escape-end-state) |
//! | `tag.rs` | the [tag open](https://html.spec.whatwg.org/multipage/parsing.html#tag-open-state), [end tag open](https://html.spec.whatwg.org/multipage/parsing.html#end-tag-open-state) and [tag name](https://html.spec.whatwg.org/multipage/parsing.html#tag-name-state) states, the attribute states from the [before attribute name state](https://html.spec.whatwg.org/multipage/parsing.html#before-attribute-name-state) on, the [self-closing start tag state](https://html.spec.whatwg.org/multipage/parsing.html#self-closing-start-tag-state); and the fast path for common tags |
//! | `comment.rs` | the [bogus comment state](https://html.spec.whatwg.org/multipage/parsing.html#bogus-comment-state), the [markup declaration open state](https://html.spec.whatwg.org/multipage/parsing.html#markup-declaration-open-state), the comment states to the [comment end bang state](https://html.spec.whatwg.org/multipage/parsing.html#comment-end-bang-state) |
//! | `doctype.rs` | the DOCTYPE states, from the [DOCTYPE state](https://html.spec.whatwg.org/multipage/parsing.html#doctype-state) to the [bogus DOCTYPE state](https://html.spec.whatwg.org/multipage/parsing.html#bogus-doctype-state) |
//! | `cdata.rs` | the [CDATA section state](https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-state) and its bracket and end states |
//! | `charref.rs` | the character reference states, from the [character reference state](https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state) to the [numeric character reference end state](https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-end-state) |
//! | `machine.rs` | the state enum and the loop that runs one state at a time |
//! | `push.rs` | the push loop (the data state's, and the iterator's) |
//! | `options.rs` | [`Options`] and the public [`State`] |
//! | `strbuf.rs` | the string buffer that keeps strings zero-copy (below) |
//! | `emit.rs` | the pending text and emitting tokens |
//! | `current_tag.rs` | the tag token under construction and its attributes |
//! | `parse_errors.rs` | recording parse errors, with the input stream's |
//! | `resume.rs` | streaming: safe points, suspending, what the next buffer carries on with |
//! | `budget.rs` | [`Options::memory_limit`] |
//! | `cursor.rs` | where the machine is in the input: the bytes, the position, CR/NUL seen, where the markup began |
//! | `switch/` | the content-model switching a tree builder would do, for use without one (the serializer tracks content models with it too): the approximation's stack, its rules, the frameset watch, and the choice between it and `tree/` (`Follower`) |
//! | `tree/` | exact switching: the tree-construction stage followed without a tree |
//! | `name_key.rs` | the keys of the tables a hostile page can grow (a tag's attribute names, the open foreign elements), O(1) per lookup |
//!
//! This file holds the [`Tokenizer`] itself: its fields, its constructors
//! and its public methods.
//!
//! # Zero-copy strings
//!
//! Every string the tokenizer builds (text, names, values, comment data) goes
//! through a `StrBuf`. It starts as a pair of offsets into the input and
//! stays that way while everything appended is the next verbatim run of the
//! source. The first append that is not (a decoded reference, a lowercased
//! letter, a newline standing for CR, a gap in the source) copies what it has
//! into a scratch `String` and carries on there. When the token is emitted, a
//! borrowed buffer becomes a slice of the input and a scratch buffer is
//! copied once into the arena. Scratch buffers are reused, so steady state
//! makes no heap allocation per token.

mod budget;
mod cdata;
mod charref;
mod comment;
mod current_tag;
mod cursor;
mod data;
mod doctype;
mod emit;
mod machine;
mod name_key;
mod options;
mod parse_errors;
mod push;
mod resume;
mod strbuf;
mod switch;
mod tag;
mod tree;

use bumpalo::Bump;

use crate::error::{ErrorCode, ParseError};
use crate::memory_limit::MemoryLimitError;
use crate::token::Token;
use budget::Budget;
use charref::RefTarget;
use current_tag::CurrentTag;
use cursor::Cursor;
use doctype::CurrentDoctype;
use emit::{Output, PendingText};
use machine::MachineState;
use parse_errors::{ErrorLog, next_input_stream_error};
use resume::ResumeState;
use strbuf::StrBuf;
use switch::SwitchContext;

pub use options::{Options, State};
pub(crate) use resume::{BufferChain, Carry};
pub(crate) use switch::OpenElements;

/// The HTML tokenizer: an iterator of [`Token`]s over a `&str`.
///
/// ```
/// use htmltok::{Tokenizer, Token, bumpalo::Bump};
/// let arena = Bump::new();
/// let mut names = vec![];
/// for token in Tokenizer::new("<p class=x>Hi &amp; bye</p>", &arena) {
///     if let Token::StartTag(tag) = token {
///         names.push(tag.name);
///     }
/// }
/// assert_eq!(names, ["p"]);
/// ```
pub struct Tokenizer<'a> {
    /// The input and the machine's place in it.
    cursor: Cursor<'a>,
    /// Where strings that differ from the source are written.
    arena: &'a Bump,
    state: MachineState,
    /// The return state of the character reference states: where the
    /// reference's characters go.
    ref_target: RefTarget,
    opts: Options,
    /// Character tokens being gathered into one text token.
    text: PendingText,
    /// The tag token being built.
    tag: CurrentTag<'a>,
    /// The comment token being built.
    comment: StrBuf,
    /// The DOCTYPE token being built.
    doctype: CurrentDoctype,
    /// What a tree builder would tell the tokenizer: the last start tag,
    /// whether the adjusted current node is foreign, the open elements.
    context: SwitchContext<'a>,
    /// The tokens ready to be handed out, and whether the machine stopped.
    output: Output<'a>,
    /// Streaming: the buffer's place in the stream and how to stop in it.
    resume: ResumeState<'a>,
    /// [`Options::memory_limit`]: what the tokenizer charged as it took
    /// memory, and the poll that stops it.
    budget: Budget,
    /// The parse errors found so far.
    errors: ErrorLog,
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over `input` with default [`Options`], putting strings
    /// that differ from the source into `arena`.
    pub fn new(input: &'a str, arena: &'a Bump) -> Tokenizer<'a> {
        Tokenizer::with_options(input, arena, Options::default())
    }

    /// A tokenizer over `input` with the given options.
    pub fn with_options(input: &'a str, arena: &'a Bump, opts: Options) -> Tokenizer<'a> {
        let open_elements = OpenElements::for_options(&opts);
        Tokenizer::with_stack(input, arena, opts, open_elements)
    }

    /// A tokenizer over `input` that starts with `open_elements` open.
    fn with_stack(
        input: &'a str,
        arena: &'a Bump,
        opts: Options,
        open_elements: OpenElements,
    ) -> Tokenizer<'a> {
        let budget = Budget::new(&opts);
        let next_stream_error = if opts.errors {
            next_input_stream_error(input, 0)
        } else {
            (usize::MAX, ErrorCode::ControlCharacterInInputStream)
        };
        Tokenizer {
            cursor: Cursor::new(input),
            arena,
            state: opts.initial_state.into(),
            ref_target: RefTarget::Text,
            opts,
            text: PendingText::default(),
            tag: CurrentTag::default(),
            comment: StrBuf::default(),
            doctype: CurrentDoctype::default(),
            context: SwitchContext {
                last_start_tag: None,
                foreign: false,
                open_elements,
            },
            output: Output::default(),
            resume: ResumeState::default(),
            budget,
            errors: ErrorLog {
                found: Vec::new(),
                next_stream_error,
            },
        }
    }

    /// Switches the tokenizer to `state`, as a tree builder does after a
    /// start tag ([tree construction](https://html.spec.whatwg.org/multipage/parsing.html#tree-construction)). Takes effect at the next token.
    pub fn set_state(&mut self, state: State) {
        self.state = state.into();
    }

    /// Sets "the tag name of the last start tag to have been emitted", which
    /// decides what counts as an appropriate end tag in RCDATA, RAWTEXT and
    /// script data. `None` means no start tag has been emitted.
    pub fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.context.last_start_tag = name.map(|n| {
            let lower = n.to_ascii_lowercase();
            self.budget.wrote(lower.len());
            &*self.arena.alloc_str(&lower)
        });
    }

    /// Tells the tokenizer whether the adjusted current node is an element
    /// outside the HTML namespace, which decides whether `<![CDATA[` opens a
    /// CDATA section. Only for use with auto-switching off; with it on, the
    /// tokenizer tracks `<svg>` and `<math>` itself.
    pub fn set_foreign(&mut self, foreign: bool) {
        self.context.foreign = foreign;
    }

    /// The input being tokenized.
    pub fn input(&self) -> &'a str {
        self.cursor.input
    }

    /// The byte offset the tokenizer has reached.
    pub fn offset(&self) -> usize {
        self.cursor.pos
    }

    /// Why the tokenizer stopped before the end of the input, if it did:
    /// [`Options::memory_limit`] was exceeded.
    pub fn limit_error(&self) -> Option<&MemoryLimitError> {
        self.budget.error.as_ref()
    }

    /// The parse errors found so far, in the order the standard reports
    /// them. Empty unless [`Options::errors`] is on. Once the iterator has
    /// returned `None`, this holds every error of the input.
    pub fn errors(&self) -> &[ParseError] {
        &self.errors.found
    }

    /// Takes the parse errors found so far out of the tokenizer.
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        let found = core::mem::take(&mut self.errors.found);
        // No longer the tokenizer's to hold.
        self.budget
            .released(found.capacity() * core::mem::size_of::<ParseError>());
        found
    }
}

impl<'a> Iterator for Tokenizer<'a> {
    type Item = Token<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Token<'a>> {
        if self.output.waiting.is_some() {
            return self.output.waiting.take();
        }
        // The push loop with a sink that takes one token and stops: the
        // data state and the tag fast paths are the push interface's own,
        // inlined here, and the machine keeps its place for the next call.
        let mut got = None;
        self.push_until(|token| {
            got = Some(token);
            false
        });
        got
    }

    /// Runs through [`Tokenizer::for_each_token`], so `for_each` and the
    /// adapters built on `fold` take the push interface's faster path.
    fn fold<B, G>(mut self, init: B, mut fold: G) -> B
    where
        G: FnMut(B, Token<'a>) -> B,
    {
        let mut acc = Some(init);
        self.for_each_token(|token| acc = acc.take().map(|acc| fold(acc, token)));
        acc.expect("each step puts the accumulator back")
    }
}

impl core::iter::FusedIterator for Tokenizer<'_> {}
