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
//! | `switch.rs` | the content-model switching a tree builder would do, for use without one (the serializer tracks content models with it too) |
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
pub(crate) mod switch;
mod tag;
mod tree;

use std::collections::HashMap;

use bumpalo::Bump;
use smallvec::SmallVec;

use crate::error::{ErrorCode, ParseError};
use crate::token::{Attribute, Span, Token};
use charref::RefTarget;
use machine::MachineState;
use name_key::{KeyHasher, NameKey, NameKeys};
use parse_errors::next_input_stream_error;
use resume::Safe;
use strbuf::StrBuf;
use switch::OpenElements;

pub use budget::MemoryLimitError;
pub use options::{Options, State};
pub(crate) use resume::Carry;

use crate::stream::Link;

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
    input: &'a str,
    bytes: &'a [u8],
    arena: &'a Bump,
    /// Offset of the next input character.
    pos: usize,
    state: MachineState,
    /// The return state of the character reference states: where the
    /// reference's characters go.
    ref_target: RefTarget,
    opts: Options,
    /// Whether the input holds a CR or NUL anywhere (see scan.rs).
    has_cr_nul: bool,

    // Character tokens being gathered into one text token.
    text: StrBuf,
    text_start: usize,
    /// Where the last emitted token ended: the start of the next text span.
    last_token_end: usize,
    /// Offset of the `<` that began the markup being tokenized.
    tok_start: usize,

    // The tag being built.
    is_end_tag: bool,
    tag_name: StrBuf,
    tag_name_span: Span,
    self_closing: bool,
    /// The tag's attributes so far; inline up to eight, so most documents
    /// never allocate for them.
    ///
    /// The state path pushes an attribute as soon as its name is finished;
    /// its value, if it has one, is set when the next attribute starts or
    /// the tag ends (`finish_attr`).
    attrs: SmallVec<[Attribute<'a>; 8]>,
    /// Once a tag has more than a few attributes (see `is_duplicate`): the
    /// index of the first attribute with each name key.
    attr_keys: HashMap<NameKey, u32, KeyHasher>,
    name_keys: NameKeys,
    attr_name: StrBuf,
    attr_name_start: usize,
    attr_value: StrBuf,
    attr_value_span: Option<Span>,
    /// Where the errors of `"`, `'` and `<` in attribute names have been
    /// reported up to (see `attribute_name_char_errors`).
    name_errors_until: usize,
    /// Start of the name being matched by an "appropriate end tag" state
    /// (the spec's temporary buffer is `input[temp_start..pos]`).
    temp_start: usize,

    // Comment and DOCTYPE data.
    comment: StrBuf,
    doctype_name: Option<StrBuf>,
    public_id: Option<StrBuf>,
    system_id: Option<StrBuf>,
    force_quirks: bool,

    /// The tag name of the last start tag emitted, for "appropriate end tag".
    last_start_tag: Option<&'a str>,
    /// Set by [`Tokenizer::set_foreign`] when not auto-switching.
    foreign: bool,
    /// The open elements as far as auto-switching tracks them.
    ns_stack: OpenElements,

    // Output: at most a text token and the token that ended it. The states
    // outside the data state's push loop (`step`) leave their tokens here,
    // and so does a push sink that stops after the text (the token that
    // ended it waits in `stash`).
    out: Option<Token<'a>>,
    /// The token that ended the text in `out`, handed out next.
    stash: Option<Token<'a>>,
    done: bool,
    /// Set when a push sink asked to stop (see `push.rs`).
    paused: bool,

    // Streaming (see stream.rs): whether more input may follow this buffer,
    // where this buffer starts in the whole stream, and the last point the
    // machine can be resumed from in a later buffer.
    partial: bool,
    /// With coalescing, text cut by the end of a partial buffer stays
    /// pending and goes to the next buffer (see `take_carry`) instead of being
    /// handed out as a piece.
    keep_cut_text: bool,
    base: usize,
    safe: Safe,
    /// Where a partial run stopped: the offset the next buffer must start at.
    suspended_at: Option<usize>,
    /// Where text running to the end of the input ends (see `emit_eof`).
    eof_text_end: Option<usize>,
    /// The arena's size when the tokenizer started, and why it stopped
    /// early (see `Options::memory_limit`).
    arena_base: usize,
    limit_error: Option<MemoryLimitError>,
    /// The position from which the memory limit is checked again.
    next_limit_check: usize,
    /// A stream's feed, which starts its next buffer in this tokenizer's
    /// place when this buffer ends (see `next_buffer`); `None` for a whole
    /// input.
    link: Option<Box<Link<'a>>>,

    errors: Vec<ParseError>,
    /// The next input-stream error (§13.2.3.5) not yet in `errors`: its
    /// offset (`usize::MAX` for none) and code. They are found as the
    /// tokenizer's errors pass them, and merged in offset order; none is
    /// held in advance, so a buffer full of control characters costs no
    /// memory before its errors are reported.
    next_stream_error: (usize, ErrorCode),
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over `input` with default [`Options`], putting strings
    /// that differ from the source into `arena`.
    pub fn new(input: &'a str, arena: &'a Bump) -> Tokenizer<'a> {
        Tokenizer::with_options(input, arena, Options::default())
    }

    /// A tokenizer over `input` with the given options.
    pub fn with_options(input: &'a str, arena: &'a Bump, opts: Options) -> Tokenizer<'a> {
        let ns_stack = OpenElements::for_options(&opts);
        Tokenizer::with_stack(input, arena, opts, ns_stack)
    }

    /// A tokenizer over `input` that starts with `ns_stack` open.
    fn with_stack(
        input: &'a str,
        arena: &'a Bump,
        opts: Options,
        ns_stack: OpenElements,
    ) -> Tokenizer<'a> {
        let bytes = input.as_bytes();
        let (arena_base, next_limit_check) = if opts.memory_limit.is_some() {
            (arena.allocated_bytes(), 0)
        } else {
            (0, usize::MAX)
        };
        let next_stream_error = if opts.errors {
            next_input_stream_error(input, 0)
        } else {
            (usize::MAX, ErrorCode::ControlCharacterInInputStream)
        };
        Tokenizer {
            input,
            bytes,
            arena,
            pos: 0,
            state: opts.initial_state.into(),
            ref_target: RefTarget::Text,
            has_cr_nul: crate::scan::has_cr_or_nul(bytes),
            opts,
            text: StrBuf::default(),
            text_start: 0,
            last_token_end: 0,
            tok_start: 0,
            is_end_tag: false,
            tag_name: StrBuf::default(),
            tag_name_span: Span::default(),
            self_closing: false,
            attrs: SmallVec::new(),
            attr_keys: HashMap::default(),
            name_keys: NameKeys::default(),
            attr_name: StrBuf::default(),
            attr_name_start: 0,
            attr_value: StrBuf::default(),
            attr_value_span: None,
            name_errors_until: 0,
            temp_start: 0,
            comment: StrBuf::default(),
            doctype_name: None,
            public_id: None,
            system_id: None,
            force_quirks: false,
            last_start_tag: None,
            foreign: false,
            ns_stack,
            out: None,
            stash: None,
            done: false,
            paused: false,
            partial: false,
            keep_cut_text: false,
            base: 0,
            safe: Safe::default(),
            suspended_at: None,
            eof_text_end: None,
            arena_base,
            limit_error: None,
            next_limit_check,
            link: None,
            errors: Vec::new(),
            next_stream_error,
        }
    }

    /// Switches the tokenizer to `state`, as a tree builder does after a
    /// start tag (§13.2.6). Takes effect at the next token.
    pub fn set_state(&mut self, state: State) {
        self.state = state.into();
    }

    /// Sets "the tag name of the last start tag to have been emitted", which
    /// decides what counts as an appropriate end tag in RCDATA, RAWTEXT and
    /// script data. `None` means no start tag has been emitted.
    pub fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.last_start_tag = name.map(|n| {
            let lower = n.to_ascii_lowercase();
            &*self.arena.alloc_str(&lower)
        });
    }

    /// Tells the tokenizer whether the adjusted current node is an element
    /// outside the HTML namespace, which decides whether `<![CDATA[` opens a
    /// CDATA section. Only for use with auto-switching off; with it on, the
    /// tokenizer tracks `<svg>` and `<math>` itself.
    pub fn set_foreign(&mut self, foreign: bool) {
        self.foreign = foreign;
    }

    /// The input being tokenized.
    pub fn input(&self) -> &'a str {
        self.input
    }

    /// The byte offset the tokenizer has reached.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Why the tokenizer stopped before the end of the input, if it did:
    /// [`Options::memory_limit`] was exceeded.
    pub fn limit_error(&self) -> Option<&MemoryLimitError> {
        self.limit_error.as_ref()
    }

    /// The parse errors found so far, in the order the standard reports
    /// them. Empty unless [`Options::errors`] is on. Once the iterator has
    /// returned `None`, this holds every error of the input.
    pub fn errors(&self) -> &[ParseError] {
        &self.errors
    }

    /// Takes the parse errors found so far out of the tokenizer.
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        core::mem::take(&mut self.errors)
    }
}

impl<'a> Iterator for Tokenizer<'a> {
    type Item = Token<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Token<'a>> {
        if self.stash.is_some() {
            return self.stash.take();
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
