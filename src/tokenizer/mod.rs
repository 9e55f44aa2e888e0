//! The tokenizer: the state machine of §13.2.5 over the bytes of a `&str`.
//!
//! The machine is split by the groups of states in the standard, one file
//! each, so that a reader with §13.2.5 open finds every state by its name:
//!
//! | file | states |
//! |---|---|
//! | `data.rs` | data, RCDATA, RAWTEXT, script data (with its escaped and double-escaped states), PLAINTEXT and their less-than-sign / end tag states (§13.2.5.1–5, 9–31) |
//! | `tag.rs` | tag open, end tag open, tag name, the attribute states, self-closing start tag (§13.2.5.6–8, 32–40) |
//! | `comment.rs` | bogus comment, markup declaration open, the comment states (§13.2.5.41–52) |
//! | `doctype.rs` | the DOCTYPE states (§13.2.5.53–68) |
//! | `cdata.rs` | the CDATA section states (§13.2.5.69–71) |
//! | `charref.rs` | the character reference states (§13.2.5.72–80) |
//! | `switch.rs` | the content-model switching a tree builder would do, for use without one (the serializer tracks content models with it too) |
//! | `name_key.rs` | the keys of the tables a hostile page can grow (a tag's attribute names, the open foreign elements), O(1) per lookup |
//!
//! This file holds what they share: the tokenizer's fields, the string
//! buffers that keep tokens zero-copy, and token emission.
//!
//! # Zero-copy strings
//!
//! Every string the tokenizer builds (text, names, values, comment data) goes
//! through a [`StrBuf`]. It starts as a pair of offsets into the input and
//! stays that way while everything appended is the next verbatim run of the
//! source. The first append that is not (a decoded reference, a lowercased
//! letter, a newline standing for CR, a gap in the source) copies what it has
//! into a scratch `String` and carries on there. When the token is emitted, a
//! borrowed buffer becomes a slice of the input and a scratch buffer is
//! copied once into the arena. Scratch buffers are reused, so steady state
//! makes no heap allocation per token.

mod cdata;
mod charref;
mod comment;
mod data;
mod doctype;
mod name_key;
mod push;
pub(crate) mod switch;
mod tag;
mod tree;

use std::collections::HashMap;

use bumpalo::Bump;
use smallvec::SmallVec;

use crate::element::Element;
use crate::error::{ErrorCode, ParseError};
use crate::scan::utf8_width;
use crate::token::{Attribute, Attributes, Span, Tag, Text, Token};
use name_key::{KeyHasher, NameKey, NameKeys};
use switch::OpenElements;

use crate::stream::Link;

/// The states a tree builder (or a test) may put the tokenizer in: the
/// content models of §13.2.5 that a start tag can switch to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum State {
    /// The data state (§13.2.5.1): ordinary content.
    #[default]
    Data,
    /// The RCDATA state (§13.2.5.2): `<title>`, `<textarea>`.
    Rcdata,
    /// The RAWTEXT state (§13.2.5.3): `<style>`, `<xmp>`, `<iframe>`,
    /// `<noembed>`, `<noframes>`, and `<noscript>` with scripting on.
    Rawtext,
    /// The script data state (§13.2.5.4): `<script>`.
    ScriptData,
    /// The PLAINTEXT state (§13.2.5.5): everything after `<plaintext>`.
    Plaintext,
    /// The CDATA section state (§13.2.5.69).
    CdataSection,
}

/// How a [`Tokenizer`] behaves. Build one with [`Options::default`] and the
/// builder methods.
///
/// ```
/// use htmltok::{Options, State};
/// let opts = Options::default().errors(true).initial_state(State::Rcdata);
/// assert!(opts.errors);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Switch content model after start tags as a tree builder would
    /// (`<script>` → script data, `<title>` → RCDATA, …) and follow
    /// `<svg>`/`<math>` for CDATA sections. On by default; turn it off when a
    /// tree builder drives the tokenizer with [`Tokenizer::set_state`].
    pub auto_switch: bool,
    /// With [`Options::auto_switch`]: decide the switches by following the
    /// tree-construction stage exactly (§13.2.6: every insertion mode, the
    /// stack of open elements, the active formatting elements and the
    /// adoption agency, tables, templates, quirks mode) instead of the
    /// default approximation, which follows only what foreign content and
    /// a few pointers need. The two differ only on contrived markup (such
    /// as a formatting element's end tag closing `<svg>` through the
    /// adoption agency, then `<![CDATA[`); the default costs O(1) a tag,
    /// this a tree builder's walks of the stack (bounded: the follower
    /// stops past 4,096 open elements). Off by default.
    pub exact_switching: bool,
    /// Whether scripting is enabled, which makes `<noscript>` content RAWTEXT
    /// in auto-switch mode. On by default, as in browsers.
    pub scripting: bool,
    /// Collect parse errors (see [`Tokenizer::errors`]). Off by default.
    pub errors: bool,
    /// The state to start in. [`State::Data`] by default.
    pub initial_state: State,
    /// The most bytes the tokenizer may write to the arena and hold in its
    /// buffers for one document, or `None` (the default) for no limit. Past
    /// it, the tokenizer stops: the iterator ends and
    /// [`Tokenizer::limit_error`] says where. The check runs between runs of
    /// the input, once every 4 KiB of it, so the overshoot is at most one
    /// run and what 4 KiB of input makes.
    pub memory_limit: Option<usize>,
    /// See [`Options::__html5ever_deviations`].
    pub(crate) html5ever_deviations: bool,
}

/// The tokenizer stopped because of [`Options::memory_limit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryLimitError {
    /// The limit, in bytes.
    pub limit: usize,
    /// What the tokenizer had used when it stopped.
    pub used: usize,
    /// Byte offset of the input where it stopped; every token before the
    /// construct being tokenized there was delivered, and the text before
    /// it (a run of text that passed the limit, up to the offset).
    pub offset: usize,
}

impl core::fmt::Display for MemoryLimitError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "tokenizer memory limit of {} bytes exceeded at byte {} ({} bytes used)",
            self.limit, self.offset, self.used
        )
    }
}

impl std::error::Error for MemoryLimitError {}

impl Default for Options {
    fn default() -> Options {
        Options {
            auto_switch: true,
            exact_switching: false,
            scripting: true,
            errors: false,
            initial_state: State::Data,
            memory_limit: None,
            html5ever_deviations: false,
        }
    }
}

impl Options {
    /// Sets [`Options::auto_switch`].
    pub fn auto_switch(mut self, on: bool) -> Options {
        self.auto_switch = on;
        self
    }

    /// Sets [`Options::exact_switching`].
    pub fn exact_switching(mut self, on: bool) -> Options {
        self.exact_switching = on;
        self
    }

    /// Not part of the API: for the project's own tests against
    /// html5ever's tree builder. Makes exact switching follow html5ever
    /// 0.40 where it deviates from the standard (its element sets, and
    /// three rules; `tests/support/tree_oracle.rs` lists them), so that a
    /// test can tell a difference those deviations explain from any other.
    #[doc(hidden)]
    pub fn __html5ever_deviations(mut self, on: bool) -> Options {
        self.html5ever_deviations = on;
        self
    }

    /// Sets [`Options::scripting`].
    pub fn scripting(mut self, on: bool) -> Options {
        self.scripting = on;
        self
    }

    /// Sets [`Options::errors`].
    pub fn errors(mut self, on: bool) -> Options {
        self.errors = on;
        self
    }

    /// Sets [`Options::memory_limit`].
    pub fn memory_limit(mut self, limit: Option<usize>) -> Options {
        self.memory_limit = limit;
        self
    }

    /// Sets [`Options::initial_state`].
    pub fn initial_state(mut self, state: State) -> Options {
        self.initial_state = state;
        self
    }
}

/// Every state of §13.2.5, named as the standard names them, and one of
/// the stream's own (`EndOfBuffer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum S {
    Data,
    Rcdata,
    Rawtext,
    ScriptData,
    Plaintext,
    TagOpen,
    EndTagOpen,
    TagName,
    RcdataLessThanSign,
    RcdataEndTagOpen,
    RcdataEndTagName,
    RawtextLessThanSign,
    RawtextEndTagOpen,
    RawtextEndTagName,
    ScriptDataLessThanSign,
    ScriptDataEndTagOpen,
    ScriptDataEndTagName,
    ScriptDataEscapeStart,
    ScriptDataEscapeStartDash,
    ScriptDataEscaped,
    ScriptDataEscapedDash,
    ScriptDataEscapedDashDash,
    ScriptDataEscapedLessThanSign,
    ScriptDataEscapedEndTagOpen,
    ScriptDataEscapedEndTagName,
    ScriptDataDoubleEscapeStart,
    ScriptDataDoubleEscaped,
    ScriptDataDoubleEscapedDash,
    ScriptDataDoubleEscapedDashDash,
    ScriptDataDoubleEscapedLessThanSign,
    ScriptDataDoubleEscapeEnd,
    BeforeAttributeName,
    AttributeName,
    AfterAttributeName,
    BeforeAttributeValue,
    AttributeValueDoubleQuoted,
    AttributeValueSingleQuoted,
    AttributeValueUnquoted,
    AfterAttributeValueQuoted,
    SelfClosingStartTag,
    BogusComment,
    MarkupDeclarationOpen,
    CommentStart,
    CommentStartDash,
    Comment,
    CommentLessThanSign,
    CommentLessThanSignBang,
    CommentLessThanSignBangDash,
    CommentLessThanSignBangDashDash,
    CommentEndDash,
    CommentEnd,
    CommentEndBang,
    Doctype,
    BeforeDoctypeName,
    DoctypeName,
    AfterDoctypeName,
    AfterDoctypePublicKeyword,
    BeforeDoctypePublicIdentifier,
    DoctypePublicIdentifierDoubleQuoted,
    DoctypePublicIdentifierSingleQuoted,
    AfterDoctypePublicIdentifier,
    BetweenDoctypePublicAndSystemIdentifiers,
    AfterDoctypeSystemKeyword,
    BeforeDoctypeSystemIdentifier,
    DoctypeSystemIdentifierDoubleQuoted,
    DoctypeSystemIdentifierSingleQuoted,
    AfterDoctypeSystemIdentifier,
    BogusDoctype,
    CdataSection,
    CdataSectionBracket,
    CdataSectionEnd,
    // The character reference states (§13.2.5.72–80) run as a chain of
    // calls in charref.rs rather than through this dispatcher: they never
    // emit a token, so they never need to pause.
    /// Not the standard's: a stream's buffer has ended, and the machine
    /// will go on in the state it stopped in (`Safe::state`) with the next
    /// buffer, which the feed starts in this tokenizer's place
    /// (`end_of_buffer`, stream.rs).
    EndOfBuffer,
}

impl S {
    /// Whether this is one of the content states (data, RCDATA, RAWTEXT,
    /// script data, PLAINTEXT: the first five), whose step begins with a
    /// text run (see `data.rs`).
    #[inline(always)]
    fn starts_with_text_run(self) -> bool {
        self as u8 <= S::Plaintext as u8
    }

    /// Whether the machine can stop in this state and carry on in another
    /// buffer: the state needs nothing but itself (no position of an
    /// earlier character, such as a `<` not yet known to be text).
    fn is_resumable(self) -> bool {
        matches!(
            self,
            S::Data
                | S::Rcdata
                | S::Rawtext
                | S::ScriptData
                | S::Plaintext
                | S::ScriptDataEscapeStart
                | S::ScriptDataEscapeStartDash
                | S::ScriptDataEscaped
                | S::ScriptDataEscapedDash
                | S::ScriptDataEscapedDashDash
                | S::ScriptDataDoubleEscaped
                | S::ScriptDataDoubleEscapedDash
                | S::ScriptDataDoubleEscapedDashDash
                | S::CdataSection
        )
    }
}

/// What a tokenizer stopped in a partial buffer hands to the next one: the
/// state to resume in and the context a tree builder would have set.
#[derive(Clone, Debug)]
pub(crate) struct Carry {
    pub(crate) state: S,
    /// Where the last token ended (the start of the next text's span).
    pub(crate) last_token_end: Option<usize>,
    pub(crate) last_start_tag: Option<String>,
    pub(crate) foreign: bool,
    pub(crate) ns_stack: OpenElements,
    /// With coalescing: the text that ran up to the cut, still pending (it
    /// goes on in the next buffer), and where it starts in the stream.
    pub(crate) text: String,
    pub(crate) text_start: usize,
}

impl Carry {
    /// The context at the start of a stream.
    pub(crate) fn new(opts: &Options) -> Carry {
        Carry {
            state: opts.initial_state.into(),
            last_token_end: None,
            last_start_tag: None,
            foreign: false,
            ns_stack: OpenElements::for_options(opts),
            text: String::new(),
            text_start: 0,
        }
    }

    /// A context that allocates nothing, left in a stream whose own is
    /// lent to a feed.
    pub(crate) fn empty() -> Carry {
        Carry {
            state: S::Data,
            last_token_end: None,
            last_start_tag: None,
            foreign: false,
            ns_stack: OpenElements::default(),
            text: String::new(),
            text_start: 0,
        }
    }

    /// Sets the last start tag name (lowercased).
    pub(crate) fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.last_start_tag = name.map(str::to_ascii_lowercase);
    }

    /// Sets whether the adjusted current node is foreign.
    pub(crate) fn set_foreign(&mut self, foreign: bool) {
        self.foreign = foreign;
    }

    /// Bytes this context holds, for the memory cap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.last_start_tag.as_ref().map_or(0, String::len)
            + self.ns_stack.heap_bytes()
            + self.text.len()
    }
}

/// A point the machine can be resumed from (see `Tokenizer::mark_safe`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Safe {
    pos: usize,
    state: S,
    text_len: usize,
    errors_len: usize,
    next_stream_error: (usize, ErrorCode),
}

impl Default for Safe {
    fn default() -> Safe {
        Safe {
            pos: 0,
            state: S::Data,
            text_len: 0,
            errors_len: 0,
            next_stream_error: (usize::MAX, ErrorCode::ControlCharacterInInputStream),
        }
    }
}

impl From<State> for S {
    fn from(s: State) -> S {
        match s {
            State::Data => S::Data,
            State::Rcdata => S::Rcdata,
            State::Rawtext => S::Rawtext,
            State::ScriptData => S::ScriptData,
            State::Plaintext => S::Plaintext,
            State::CdataSection => S::CdataSection,
        }
    }
}

/// How far the input advances between two checks of the memory limit (see
/// `Tokenizer::limit_hit_at`).
const LIMIT_CHECK_EVERY: usize = 4096;

/// The name of the attribute of `attrs` (the current tag's) named `name`,
/// if there is one (equal to `name`, but borrowed as long as the tag); when
/// there is none, the attribute is taken to be added next, at index
/// `attrs.len()` (every caller pushes it).
///
/// A scan is fastest for the few attributes real tags have; past 8, the
/// last two names are tried (a hostile tag repeats one or two), then a
/// table of the names so far (`attr_keys`, keyed by `name_keys`; see
/// `name_key.rs`) makes each check one lookup, so a tag with a million
/// attributes (or a million copies of one) stays linear.
#[inline(always)]
fn duplicate_of<'a>(
    attrs: &[Attribute<'a>],
    attr_keys: &mut HashMap<NameKey, u32, KeyHasher>,
    name_keys: &NameKeys,
    name: &str,
) -> Option<&'a str> {
    let n = attrs.len();
    let same = |a: &&Attribute<'a>| same_name(a.name.as_bytes(), name.as_bytes());
    if n < 8 {
        return attrs.iter().find(same).map(|a| a.name);
    }
    // A tag that repeats one name or two in turn (as a page made to cost
    // does, a million times) finds it among the last two: two compares
    // instead of a hash and a probe. Any earlier equal name will do.
    if let Some(a) = attrs[n - 2..].iter().rev().find(same) {
        return Some(a.name);
    }
    duplicate_in_table(attrs, attr_keys, name_keys, name)
}

/// [`duplicate_of`] by the table, for a tag of 8 attributes or more: rare
/// on real pages, and out of line so that the common case stays small
/// where it is inlined.
#[inline(never)]
fn duplicate_in_table<'a>(
    attrs: &[Attribute<'a>],
    attr_keys: &mut HashMap<NameKey, u32, KeyHasher>,
    name_keys: &NameKeys,
    name: &str,
) -> Option<&'a str> {
    let n = attrs.len();
    if attr_keys.is_empty() {
        for (i, a) in attrs.iter().enumerate() {
            attr_keys.entry(name_keys.key(a.name)).or_insert(i as u32);
        }
    }
    let key = name_keys.key(name);
    match attr_keys.get(&key) {
        None => {
            attr_keys.insert(key, n as u32);
            None
        }
        // A short name is its own key; a long one is checked.
        Some(&first) if !name_key::is_long(key) || attrs[first as usize].name == name => {
            Some(attrs[first as usize].name)
        }
        // Two long names with one key: rare, and only by chance.
        Some(_) => attrs.iter().find(|a| a.name == name).map(|a| a.name),
    }
}

/// Whether two attribute names are equal. Length and first byte rule out
/// nearly every other name first; a short name is compared a byte at a
/// time, where a call into memcmp would cost more.
#[inline(always)]
fn same_name(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() || a.first() != b.first() {
        return false;
    }
    if a.len() <= 8 {
        a.iter().zip(b).all(|(x, y)| x == y)
    } else {
        a == b
    }
}

/// A string under construction: a borrowed run of the input while it can be,
/// a scratch copy once it can't (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct StrBuf {
    start: usize,
    end: usize,
    owned: bool,
    scratch: String,
}

impl StrBuf {
    /// Empties the buffer (keeping the scratch allocation).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.start = 0;
        self.end = 0;
        if self.owned {
            self.owned = false;
            self.scratch.clear();
        }
    }

    /// Whether nothing has been appended.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        if self.owned {
            self.scratch.is_empty()
        } else {
            self.start == self.end
        }
    }

    /// Appends `input[start..end]`, a verbatim run of the source.
    #[inline(always)]
    pub(crate) fn push_src(&mut self, input: &str, start: usize, end: usize) {
        if start == end {
            return;
        }
        if self.owned {
            self.scratch.push_str(&input[start..end]);
        } else if self.start == self.end {
            self.start = start;
            self.end = end;
        } else if self.end == start {
            self.end = end;
        } else {
            self.make_owned(input);
            self.scratch.push_str(&input[start..end]);
        }
    }

    /// Appends a string that is not a verbatim continuation of the source.
    #[inline]
    pub(crate) fn push_str(&mut self, input: &str, s: &str) {
        self.make_owned(input);
        self.scratch.push_str(s);
    }

    /// Appends one character that is not the source's (U+FFFD for a
    /// NUL): a push, where `push_str` calls into memcpy.
    #[inline]
    pub(crate) fn push_char(&mut self, input: &str, c: char) {
        self.make_owned(input);
        self.scratch.push(c);
    }

    /// A buffer holding `s`, owned (text carried over from another buffer).
    pub(crate) fn from_string(s: String) -> StrBuf {
        StrBuf {
            start: 0,
            end: 0,
            owned: !s.is_empty(),
            scratch: s,
        }
    }

    /// Takes the string so far out as an owned `String` (moving the
    /// scratch copy when there is one), leaving the buffer empty.
    pub(crate) fn take_string(&mut self, input: &str) -> String {
        let s = if self.owned {
            core::mem::take(&mut self.scratch)
        } else {
            input[self.start..self.end].to_owned()
        };
        self.clear();
        s
    }

    /// Heap bytes the buffer holds: its scratch copy, if it made one (a
    /// borrowed string is the input's).
    pub(crate) fn heap_bytes(&self) -> usize {
        if self.owned {
            self.scratch.capacity()
        } else {
            0
        }
    }

    /// Length in bytes of the string so far.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        if self.owned {
            self.scratch.len()
        } else {
            self.end - self.start
        }
    }

    /// Cuts the string back to its first `len` bytes (a length `len()` had).
    #[inline]
    pub(crate) fn truncate(&mut self, len: usize) {
        if self.owned {
            self.scratch.truncate(len);
        } else {
            self.end = self.start + len;
        }
    }

    /// Appends `input[start..end]` ASCII-lowercased.
    #[inline]
    pub(crate) fn push_lower(&mut self, input: &str, start: usize, end: usize) {
        let upper = input.as_bytes()[start..end]
            .iter()
            .any(u8::is_ascii_uppercase);
        self.push_name(input, start, end, upper);
    }

    /// Appends `input[start..end]`, a run of a name a class scan found,
    /// lowercased when `upper` (it holds an ASCII uppercase letter).
    #[inline(always)]
    pub(crate) fn push_name(&mut self, input: &str, start: usize, end: usize, upper: bool) {
        if upper {
            self.push_lowered(input, start, end);
        } else {
            self.push_src(input, start, end);
        }
    }

    #[cold]
    fn push_lowered(&mut self, input: &str, start: usize, end: usize) {
        self.make_owned(input);
        if end - start == 1 {
            // One letter (a one-byte run is ASCII), as a tag that never
            // ends may repeat a million times: a push, not a call into
            // memcpy and the slice's lowering.
            self.scratch
                .push(char::from(input.as_bytes()[start].to_ascii_lowercase()));
            return;
        }
        let from = self.scratch.len();
        self.scratch.push_str(&input[start..end]);
        self.scratch[from..].make_ascii_lowercase();
    }

    #[inline]
    fn make_owned(&mut self, input: &str) {
        if !self.owned {
            self.owned = true;
            self.scratch.clear();
            if self.start < self.end {
                self.scratch.push_str(&input[self.start..self.end]);
            }
        }
    }

    /// The string so far.
    pub(crate) fn as_str<'s>(&'s self, input: &'s str) -> &'s str {
        if self.owned {
            &self.scratch
        } else {
            &input[self.start..self.end]
        }
    }

    /// The finished string: a slice of the input, or a copy in the arena.
    /// Leaves the buffer empty.
    #[inline]
    pub(crate) fn take<'a>(&mut self, input: &'a str, arena: &'a Bump) -> &'a str {
        let s = if self.owned {
            arena.alloc_str(&self.scratch)
        } else {
            &input[self.start..self.end]
        };
        self.clear();
        s
    }
}

/// Which buffer a character reference appends to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RefTarget {
    /// Text (the return state is a text state).
    Text,
    /// The current attribute's value.
    Attribute,
}

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
    state: S,
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

    /// A tokenizer over one buffer of a stream (see `stream.rs`): `input`
    /// starts at offset `base` of the whole stream, `partial` says more input
    /// may follow, and `carry` is what the previous buffer left (its pending
    /// text is moved in). With `keep_cut_text`, text cut by the end of the
    /// buffer is left for [`Tokenizer::take_carry`] rather than handed out.
    pub(crate) fn resume(
        input: &'a str,
        arena: &'a Bump,
        opts: Options,
        carry: &mut Carry,
        base: usize,
        partial: bool,
        keep_cut_text: bool,
    ) -> Tokenizer<'a> {
        let ns_stack = core::mem::take(&mut carry.ns_stack);
        let mut tok = Tokenizer::with_stack(input, arena, opts, ns_stack);
        tok.state = carry.state;
        tok.last_start_tag = carry
            .last_start_tag
            .as_deref()
            .map(|n| &*arena.alloc_str(n));
        tok.foreign = carry.foreign;
        tok.base = base;
        tok.last_token_end = carry.last_token_end.unwrap_or(base);
        tok.partial = partial;
        tok.keep_cut_text = keep_cut_text;
        tok.safe.state = carry.state;
        if !carry.text.is_empty() {
            tok.text = StrBuf::from_string(core::mem::take(&mut carry.text));
            tok.text_start = carry.text_start;
        }
        tok
    }

    /// A stream's tokenizer over no buffer yet, linked to its feed: a
    /// buffer that has ended ([`S::EndOfBuffer`]), so the first call for a
    /// token starts the feed's first buffer. It answers no span (its base
    /// is past every offset).
    pub(crate) fn linked(arena: &'a Bump, link: Box<Link<'a>>) -> Tokenizer<'a> {
        // Never tokenizes: the options only keep it from allocating.
        let opts = Options::default().auto_switch(false);
        let mut tok = Tokenizer::with_stack("", arena, opts, OpenElements::default());
        tok.base = usize::MAX;
        tok.partial = true;
        tok.state = S::EndOfBuffer;
        tok.link = Some(link);
        tok
    }

    /// The feed this tokenizer is linked to, if it is a stream's.
    pub(crate) fn link_mut(&mut self) -> Option<&mut Link<'a>> {
        self.link.as_deref_mut()
    }

    /// Whether the tokenizer has stopped for good: its input ended, or the
    /// memory limit stopped it.
    pub(crate) fn is_done(&self) -> bool {
        self.done
    }

    /// Unlinks the tokenizer from its feed (which is being dropped).
    pub(crate) fn take_link(&mut self) -> Option<Box<Link<'a>>> {
        self.link.take()
    }

    /// This buffer has ended: when the tokenizer is a stream's, its feed
    /// collects what the buffer left and starts the next buffer in this
    /// tokenizer's place. Returns whether it did (false at the end of the
    /// chunk, or for a whole input). Once per buffer, so out of line.
    #[cold]
    #[inline(never)]
    pub(crate) fn next_buffer(&mut self) -> bool {
        let Some(mut link) = self.link.take() else {
            return false;
        };
        let started = link.next_buffer(self);
        self.link = Some(link);
        started
    }

    /// Where this buffer starts in the whole stream (0 for a whole input).
    pub(crate) fn base(&self) -> usize {
        self.base
    }

    /// After a partial run has ended: the offset (in this buffer) the next
    /// buffer must start at, or `None` if the input was finished.
    pub(crate) fn suspended_at(&self) -> Option<usize> {
        self.suspended_at
    }

    /// What the next buffer needs to carry on from where this one stopped
    /// (moving out the pending text, if the buffer kept some).
    pub(crate) fn take_carry(&mut self) -> Carry {
        let text_start = self.text_start;
        let text = self.text.take_string(self.input);
        Carry {
            text,
            text_start,
            // Stopped at the end of a buffer, the machine resumes in the
            // state of its last safe point.
            state: if self.state == S::EndOfBuffer {
                self.safe.state
            } else {
                self.state
            },
            last_token_end: Some(self.last_token_end),
            last_start_tag: self.last_start_tag.map(str::to_owned),
            foreign: self.foreign,
            ns_stack: core::mem::take(&mut self.ns_stack),
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

    // ----- shared machinery used by the state files -----

    /// Records a parse error at `offset` (when errors are on). The common
    /// case, no input-stream error to report first and room in the list,
    /// is a plain store here; the rest is out of line.
    #[inline(always)]
    pub(crate) fn error(&mut self, code: ErrorCode, offset: usize) {
        if self.opts.errors {
            if offset < self.next_stream_error.0 && self.errors.len() < self.errors.capacity() {
                self.errors.push(ParseError {
                    code,
                    offset: offset + self.base,
                });
            } else {
                self.push_error(code, offset);
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn push_error(&mut self, code: ErrorCode, offset: usize) {
        self.flush_stream_errors(offset + 1);
        self.errors.push(ParseError {
            code,
            offset: offset + self.base,
        });
    }

    /// Moves the input-stream errors before `end` into `errors`. Past the
    /// memory limit it stops (the limit check then stops the tokenizer, or
    /// at the end of the input, `emit_eof` reports it).
    fn flush_stream_errors(&mut self, end: usize) {
        let mut moved = 0usize;
        while self.next_stream_error.0 < end {
            let (offset, code) = self.next_stream_error;
            self.errors.push(ParseError {
                code,
                offset: offset + self.base,
            });
            let after = offset + utf8_width(self.bytes[offset]);
            self.next_stream_error = next_input_stream_error(self.input, after);
            moved += 1;
            if moved % 4096 == 0 && self.errors_over_limit() {
                self.next_limit_check = 0;
                return;
            }
        }
    }

    /// Whether the parse errors alone take more than the memory limit.
    fn errors_over_limit(&self) -> bool {
        self.opts
            .memory_limit
            .is_some_and(|limit| self.errors.len() * core::mem::size_of::<ParseError>() > limit)
    }

    /// A span of this buffer as a span of the whole stream.
    #[inline(always)]
    pub(crate) fn sp(&self, start: usize, end: usize) -> Span {
        Span::new(start + self.base, end + self.base)
    }

    // ----- the memory limit -----

    /// Whether [`Options::memory_limit`] is exceeded; if so the tokenizer
    /// stops (no further token is handed out).
    #[inline(always)]
    pub(crate) fn limit_hit(&mut self) -> bool {
        self.limit_hit_at(self.pos)
    }

    /// [`limit_hit`](Self::limit_hit) for a state that keeps its position
    /// in a local (the tag fast path). The usage is added up only once the
    /// input has advanced [`LIMIT_CHECK_EVERY`] bytes since the last time:
    /// adding it up at every run cost a fifth of the run time, and what
    /// 4 KiB of input can make is bounded.
    #[inline(always)]
    pub(crate) fn limit_hit_at(&mut self, pos: usize) -> bool {
        // Never true without a limit (`next_limit_check` is then the end).
        pos >= self.next_limit_check && self.check_limit(pos)
    }

    #[cold]
    #[inline(never)]
    fn check_limit(&mut self, pos: usize) -> bool {
        let Some(limit) = self.opts.memory_limit else {
            self.next_limit_check = usize::MAX;
            return false;
        };
        self.next_limit_check = pos.saturating_add(LIMIT_CHECK_EVERY);
        let used = self.arena.allocated_bytes().saturating_sub(self.arena_base)
            + self.text.heap_bytes()
            + self.tag_name.heap_bytes()
            + self.attr_name.heap_bytes()
            + self.attr_value.heap_bytes()
            + self.comment.heap_bytes()
            + self.attrs.capacity() * core::mem::size_of::<Attribute<'_>>()
            + self.attr_keys.capacity() * 16
            + self.ns_stack.heap_bytes()
            + self.errors.capacity() * core::mem::size_of::<ParseError>();
        if used <= limit {
            return false;
        }
        self.limit_error = Some(MemoryLimitError {
            limit,
            used,
            offset: pos + self.base,
        });
        self.out = None;
        self.stash = None;
        self.done = true;
        // The text before the construct being tokenized is finished, and a
        // text state's run is finished up to `pos`: handed out, not
        // dropped. (A state that keeps its position in a local, the tag
        // fast path, is inside a tag: its text ends where the tag begins.)
        if !self.text.is_empty() {
            let end = if self.state.is_resumable() && pos == self.pos {
                pos
            } else {
                self.tok_start
            };
            self.out = Some(self.take_text(end));
        }
        true
    }

    // ----- streaming: safe points and suspension -----

    /// Records the current position as one the machine can be resumed from
    /// in another buffer (only when more input may follow).
    #[inline(always)]
    pub(crate) fn mark_safe(&mut self) {
        if self.partial {
            self.safe.pos = self.pos;
            self.safe.state = self.state;
            self.safe.text_len = self.text.len();
            // Without parse errors both counts stay 0.
            if self.opts.errors {
                self.safe.errors_len = self.errors.len();
                self.safe.next_stream_error = self.next_stream_error;
            }
        }
    }

    /// In a partial buffer, stops at the last safe point: everything after it
    /// is undone and will be tokenized again with the next buffer. The text
    /// before it is handed out as a piece. Returns whether it stopped (false
    /// when this buffer is the end of the input and EOF rules apply).
    #[inline]
    pub(crate) fn suspend(&mut self) -> bool {
        if !self.partial {
            return false;
        }
        self.suspend_now();
        true
    }

    #[cold]
    fn suspend_now(&mut self) {
        let safe = self.safe;
        self.pos = safe.pos;
        self.state = safe.state;
        self.text.truncate(safe.text_len);
        self.ns_stack.cut_text(safe.text_len);
        self.errors.truncate(safe.errors_len);
        self.next_stream_error = safe.next_stream_error;
        self.flush_stream_errors(safe.pos);
        if !self.text.is_empty() && !self.keep_cut_text {
            if self.opts.auto_switch {
                self.watch_text();
            }
            let text = self.take_text(safe.pos);
            self.out = Some(text);
            self.last_token_end = safe.pos + self.base;
        }
        self.suspended_at = Some(safe.pos);
        // The next step starts the next buffer (`step` runs it at the end
        // of the input); no more checks of the memory limit here, where
        // nothing more is tokenized.
        self.state = S::EndOfBuffer;
        self.pos = self.bytes.len();
        self.next_limit_check = usize::MAX;
    }

    /// The step of [`S::EndOfBuffer`]: the feed starts its next buffer in
    /// this tokenizer's place, unless it holds its tokenizers at their
    /// buffers' ends (`Feed::try_for_each_token_in`) or the chunk is done.
    #[cold]
    #[inline(never)]
    fn end_of_buffer(&mut self) {
        let crosses = self.link.as_ref().is_some_and(|link| link.crosses());
        if !crosses || !self.next_buffer() {
            self.done = true;
        }
    }

    /// In a partial buffer, whether the input ends at `pos` (so a state that
    /// needs the next character must suspend).
    #[inline(always)]
    pub(crate) fn out_of_input_at(&self, pos: usize) -> bool {
        self.partial && pos >= self.bytes.len()
    }

    /// The byte at `pos`, if any.
    #[inline(always)]
    pub(crate) fn cur(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Advances past the character at `pos`, which is a CR: past the LF too
    /// when one follows (CRLF is one newline).
    #[inline]
    pub(crate) fn skip_cr(&mut self) {
        self.pos += 1;
        if self.bytes.get(self.pos) == Some(&b'\n') {
            self.pos += 1;
        }
    }

    /// Whether the adjusted current node is outside the HTML namespace.
    #[inline]
    pub(crate) fn in_foreign_content(&self) -> bool {
        if self.opts.auto_switch {
            self.ns_stack.adjusted_current_node_is_foreign()
        } else {
            self.foreign
        }
    }

    /// Appends the verbatim source `start..end` to the pending text.
    #[inline]
    pub(crate) fn text_src(&mut self, start: usize, end: usize) {
        if self.text.is_empty() {
            self.text_start = self.last_token_end;
        }
        self.text.push_src(self.input, start, end);
    }

    /// Appends a string that differs from the source to the pending text.
    #[inline]
    pub(crate) fn text_str(&mut self, s: &str) {
        if self.text.is_empty() {
            self.text_start = self.last_token_end;
        }
        self.text.push_str(self.input, s);
    }

    /// Emits the character at `pos` as text and advances past it: a CR (or
    /// CRLF) becomes LF, anything else is copied verbatim.
    #[inline]
    pub(crate) fn text_current(&mut self) {
        let b = self.bytes[self.pos];
        if b == b'\r' {
            self.text_str("\n");
            self.skip_cr();
        } else {
            let end = self.pos + utf8_width(b);
            self.text_src(self.pos, end);
            self.pos = end;
        }
    }

    /// Emits U+FFFD as text for the NUL at `pos` (with its parse error).
    #[inline]
    pub(crate) fn text_replacement_for_nul(&mut self) {
        self.error(ErrorCode::UnexpectedNullCharacter, self.pos);
        self.text_str("\u{FFFD}");
        self.pos += 1;
    }

    /// Appends the character at `pos` to `buf` and advances: CR becomes LF,
    /// NUL becomes U+FFFD (callers report the error), anything else is
    /// copied verbatim.
    #[inline]
    pub(crate) fn append_current(input: &str, bytes: &[u8], pos: &mut usize, buf: &mut StrBuf) {
        let b = bytes[*pos];
        match b {
            b'\r' => {
                buf.push_char(input, '\n');
                *pos += 1;
                if bytes.get(*pos) == Some(&b'\n') {
                    *pos += 1;
                }
            }
            0 => {
                buf.push_char(input, char::REPLACEMENT_CHARACTER);
                *pos += 1;
            }
            _ => {
                let end = *pos + utf8_width(b);
                buf.push_src(input, *pos, end);
                *pos = end;
            }
        }
    }

    /// Queues a finished token, preceded by the pending text if there is any.
    #[inline(always)]
    pub(crate) fn emit(&mut self, token: Token<'a>) {
        self.emit_then::<false, _>(token, &mut |_| true);
    }

    /// [`Self::emit`] for the states outside the data state (`PUSH` false:
    /// the tokens wait in `out` and `stash` for the push loop to hand them
    /// over) or for the data state's own paths (`PUSH` true: they go to
    /// `sink` at once, which returns whether to go on; see `push.rs`).
    #[inline(always)]
    pub(crate) fn emit_then<const PUSH: bool, F: FnMut(Token<'a>) -> bool>(
        &mut self,
        token: Token<'a>,
        sink: &mut F,
    ) {
        // (At the call sites that emit tags this test folds away.)
        if self.opts.auto_switch && matches!(token, Token::Comment(_) | Token::Doctype(_)) {
            self.watch_text();
        }
        let span = token.span();
        self.last_token_end = span.end;
        if !self.text.is_empty() {
            let text = self.take_text(span.start - self.base);
            if !PUSH {
                self.out = Some(text);
                self.stash = Some(token);
                return;
            }
            if !sink(text) {
                // The token waits where the iterator keeps the second of
                // two, and is handed out first whichever way goes on.
                self.stash = Some(token);
                self.paused = true;
                return;
            }
        }
        if !PUSH {
            self.out = Some(token);
        } else if !sink(token) {
            self.paused = true;
        }
    }

    #[inline(always)]
    fn take_text(&mut self, end: usize) -> Token<'a> {
        let data = self.text.take(self.input, self.arena);
        Token::Text(Text {
            data,
            span: Span::new(self.text_start, (end + self.base).max(self.text_start)),
        })
    }

    /// Handles the end-of-file token: flushes pending text, whose span ends
    /// at `text_end`, and stops.
    pub(crate) fn emit_eof(&mut self, text_end: usize) {
        if self.suspend() {
            return;
        }
        self.eof_text_end = Some(text_end + self.base);
        self.flush_stream_errors(usize::MAX);
        let errors_over = match self.opts.memory_limit {
            Some(limit) if self.next_stream_error.0 != usize::MAX => Some(limit),
            _ => None,
        };
        if let Some(limit) = errors_over {
            // The errors alone passed the limit: the tokens are all out (the
            // last, below, too), the errors from here on are not.
            self.limit_error = Some(MemoryLimitError {
                limit,
                used: self.errors.len() * core::mem::size_of::<ParseError>(),
                offset: self.next_stream_error.0 + self.base,
            });
        }
        if !self.text.is_empty() {
            let text = self.take_text(text_end);
            self.out = Some(text);
        }
        self.done = true;
    }

    /// Once the end of the input is reached: where a text token running to
    /// it ends (in the whole stream), the input's end or the start of what
    /// the end cut short.
    pub(crate) fn eof_text_end(&self) -> Option<usize> {
        self.eof_text_end
    }

    // ----- tags: shared by the tag states and the end tag name states -----

    /// Starts a new start or end tag whose `<` is at `tok_start`.
    #[inline]
    pub(crate) fn new_tag(&mut self, is_end: bool) {
        // The name buffer and the value being read are always left empty:
        // emitting a tag takes both, and a tag the end of input drops ends
        // the tokenizer.
        debug_assert!(self.tag_name.is_empty() && self.attr_value_span.is_none());
        self.is_end_tag = is_end;
        self.tag_name_span = Span::new(self.pos, self.pos);
        self.self_closing = false;
        self.attrs.clear();
        if !self.attr_keys.is_empty() {
            self.attr_keys.clear();
        }
    }

    /// Starts a new attribute whose name begins at `pos`.
    #[inline]
    pub(crate) fn new_attr(&mut self) {
        self.finish_attr();
        self.attr_name.clear();
        self.attr_name_start = self.pos;
    }

    /// Called when leaving the attribute name state: fixes the name,
    /// checks it against the tag's other attributes and adds the attribute
    /// to the tag, with no value yet.
    #[inline(always)]
    pub(crate) fn finish_attr_name(&mut self) {
        let (name, duplicate) = if self.attr_name.owned {
            // A name unlike its source (lowered, or with a NUL replaced)
            // is copied into the arena, unless it is a duplicate of a name
            // already there: then it is that one (a tag that never ends
            // may repeat one such name a million times). A name that is
            // a slice of the input is not shared: a borrowed name is the
            // text at its own span.
            let first = duplicate_of(
                &self.attrs,
                &mut self.attr_keys,
                &self.name_keys,
                &self.attr_name.scratch,
            );
            match first {
                Some(name)
                    if !self
                        .input
                        .as_bytes()
                        .as_ptr_range()
                        .contains(&name.as_ptr()) =>
                {
                    self.attr_name.clear();
                    (name, true)
                }
                _ => (self.attr_name.take(self.input, self.arena), first.is_some()),
            }
        } else {
            let name = self.attr_name.take(self.input, self.arena);
            (name, self.is_duplicate(name))
        };
        if duplicate {
            self.error(ErrorCode::DuplicateAttribute, self.pos);
        }
        self.attrs.push(Attribute {
            name,
            value: "",
            name_span: self.sp(self.attr_name_start, self.pos),
            value_span: None,
            duplicate,
        });
    }

    /// Whether an attribute named `name` is already on the current tag. The
    /// attribute is then added to the tag (every caller pushes it next).
    #[inline(always)]
    pub(crate) fn is_duplicate(&mut self, name: &str) -> bool {
        duplicate_of(&self.attrs, &mut self.attr_keys, &self.name_keys, name).is_some()
    }

    /// Marks the start of the current attribute's raw value.
    #[inline]
    pub(crate) fn start_attr_value(&mut self, start: usize) {
        self.attr_value_span = Some(Span::new(start, start));
    }

    /// Marks the end of the current attribute's raw value.
    #[inline]
    pub(crate) fn end_attr_value(&mut self, end: usize) {
        if let Some(span) = &mut self.attr_value_span {
            span.end = end;
        }
    }

    /// Sets the value of the last attribute, if the states read one for
    /// it (a value is only ever started after its attribute's name is
    /// finished, so that attribute is the last one).
    #[inline]
    pub(crate) fn finish_attr(&mut self) {
        if let Some(span) = self.attr_value_span.take() {
            let value = self.attr_value.take(self.input, self.arena);
            let value_span = self.sp(span.start, span.end);
            if let Some(last) = self.attrs.last_mut() {
                last.value = value;
                last.value_span = Some(value_span);
            }
        }
    }

    /// Emits the current tag, whose `>` ends just before `pos`.
    #[inline]
    pub(crate) fn emit_tag(&mut self) {
        self.finish_attr();
        let name = self.tag_name.take(self.input, self.arena);
        self.emit_tag_named(name, Element::from_name(name));
    }

    /// Emits the current tag with the finished `name`, which names
    /// `element`, and the attributes gathered so far; the tag ends just
    /// before `pos`. (The states' way; the fast paths of `tag.rs` know
    /// which kind of tag they have.)
    #[inline(never)]
    pub(crate) fn emit_tag_named(&mut self, name: &'a str, element: Element) {
        if self.is_end_tag {
            let attributes = self.take_attrs();
            self.emit_end_tag(name, element, attributes, self.self_closing);
        } else {
            self.emit_start_tag(name, element);
        }
    }

    /// The attributes gathered for the current tag, moved to the arena.
    #[inline(always)]
    fn take_attrs(&mut self) -> Attributes<'a> {
        match self.attrs.as_slice() {
            [] => &[],
            // Most tags with attributes have one: a plain store is
            // cheaper than the call into memcpy a slice copy makes.
            [one] => core::slice::from_ref(self.arena.alloc(*one)),
            many => self.arena.alloc_slice_copy(many),
        }
    }

    /// The current tag as a token's [`Tag`].
    #[inline(always)]
    fn finish_tag(
        &mut self,
        name: &'a str,
        element: Element,
        attributes: Attributes<'a>,
        self_closing: bool,
    ) -> Tag<'a> {
        self.state = S::Data;
        Tag {
            name,
            element,
            name_span: self.sp(self.tag_name_span.start, self.tag_name_span.end),
            attributes,
            self_closing,
            span: self.sp(self.tok_start, self.pos),
        }
    }

    /// [`Self::emit_tag_named`] for a start tag. (Inlined into the fast
    /// path, which emits most tags: the call cost more than the rest.)
    #[inline(always)]
    pub(crate) fn emit_start_tag(&mut self, name: &'a str, element: Element) {
        self.emit_start_tag_then::<false, _>(name, element, &mut |_| true);
    }

    /// [`Self::emit_start_tag`] through [`Self::emit_then`].
    #[inline(always)]
    pub(crate) fn emit_start_tag_then<const PUSH: bool, F: FnMut(Token<'a>) -> bool>(
        &mut self,
        name: &'a str,
        element: Element,
        sink: &mut F,
    ) {
        let attributes = self.take_attrs();
        let tag = self.finish_tag(name, element, attributes, self.self_closing);
        self.last_start_tag = Some(name);
        if self.opts.auto_switch {
            self.auto_start_tag(&tag);
        }
        self.emit_then::<PUSH, F>(Token::StartTag(tag), sink);
    }

    /// [`Self::emit_tag_named`] for an end tag with these attributes
    /// (which the fast path knows to have none, and no `/`).
    #[inline(always)]
    pub(crate) fn emit_end_tag(
        &mut self,
        name: &'a str,
        element: Element,
        attributes: Attributes<'a>,
        self_closing: bool,
    ) {
        self.emit_end_tag_then::<false, _>(name, element, attributes, self_closing, &mut |_| true);
    }

    /// [`Self::emit_end_tag`] through [`Self::emit_then`].
    #[inline(always)]
    pub(crate) fn emit_end_tag_then<const PUSH: bool, F: FnMut(Token<'a>) -> bool>(
        &mut self,
        name: &'a str,
        element: Element,
        attributes: Attributes<'a>,
        self_closing: bool,
        sink: &mut F,
    ) {
        let tag = self.finish_tag(name, element, attributes, self_closing);
        if self.opts.errors && (!tag.attributes.is_empty() || tag.self_closing) {
            self.end_tag_errors(&tag);
        }
        if self.opts.auto_switch {
            self.auto_end_tag(&tag);
        }
        self.emit_then::<PUSH, F>(Token::EndTag(tag), sink);
    }

    /// The parse errors of an end tag with attributes or a `/`.
    #[cold]
    fn end_tag_errors(&mut self, tag: &Tag<'a>) {
        if !tag.attributes.is_empty() {
            self.error(ErrorCode::EndTagWithAttributes, self.pos - 1);
        }
        if tag.self_closing {
            self.error(ErrorCode::EndTagWithTrailingSolidus, self.pos - 1);
        }
    }

    /// Whether the end tag being matched in an RCDATA, RAWTEXT or script
    /// state (its name is `input[temp_start..pos]`) is an appropriate end
    /// tag token: its name is that of the last start tag emitted.
    #[inline]
    pub(crate) fn is_appropriate_end_tag(&self) -> bool {
        match self.last_start_tag {
            Some(last) => self.input[self.temp_start..self.pos].eq_ignore_ascii_case(last),
            None => false,
        }
    }

    /// Runs the states other than the data state's push loop until one of
    /// them has a token ready, the data state is back or the input is done.
    /// A comment or a DOCTYPE passes through several states; looping here,
    /// with the dispatch inlined, costs far less than a round trip through
    /// the push loop for each.
    fn run_states(&mut self) {
        loop {
            self.step();
            if self.out.is_some() || self.done || self.state == S::Data {
                return;
            }
        }
    }

    /// Runs one state.
    #[inline(always)]
    fn step(&mut self) {
        if self.limit_hit() {
            return;
        }
        // The content states (data to PLAINTEXT) start with a text run,
        // which records the safe point itself and suspends at the end of
        // the buffer through `emit_eof`.
        if self.partial && !self.state.starts_with_text_run() {
            if self.state.is_resumable() {
                self.mark_safe();
            }
            if self.pos >= self.bytes.len() {
                if self.state == S::EndOfBuffer {
                    self.end_of_buffer();
                } else {
                    self.suspend_now();
                }
                return;
            }
        }
        match self.state {
            // The push loop runs the data state itself, and `run_states`
            // hands back to it as soon as the state is data again.
            S::Data => {}
            S::Rcdata => self.rcdata_state(),
            S::Rawtext => self.rawtext_state(),
            S::ScriptData => self.script_data_state(),
            S::Plaintext => self.plaintext_state(),
            S::TagOpen => self.tag_open_state(),
            S::EndTagOpen => self.end_tag_open_state(),
            S::TagName => self.tag_name_state(),
            S::RcdataLessThanSign => self.rcdata_less_than_sign_state(),
            S::RcdataEndTagOpen => self.rcdata_end_tag_open_state(),
            S::RcdataEndTagName => self.rcdata_end_tag_name_state(),
            S::RawtextLessThanSign => self.rawtext_less_than_sign_state(),
            S::RawtextEndTagOpen => self.rawtext_end_tag_open_state(),
            S::RawtextEndTagName => self.rawtext_end_tag_name_state(),
            S::ScriptDataLessThanSign => self.script_data_less_than_sign_state(),
            S::ScriptDataEndTagOpen => self.script_data_end_tag_open_state(),
            S::ScriptDataEndTagName => self.script_data_end_tag_name_state(),
            S::ScriptDataEscapeStart => self.script_data_escape_start_state(),
            S::ScriptDataEscapeStartDash => self.script_data_escape_start_dash_state(),
            S::ScriptDataEscaped => self.script_data_escaped_state(),
            S::ScriptDataEscapedDash => self.script_data_escaped_dash_state(),
            S::ScriptDataEscapedDashDash => self.script_data_escaped_dash_dash_state(),
            S::ScriptDataEscapedLessThanSign => self.script_data_escaped_less_than_sign_state(),
            S::ScriptDataEscapedEndTagOpen => self.script_data_escaped_end_tag_open_state(),
            S::ScriptDataEscapedEndTagName => self.script_data_escaped_end_tag_name_state(),
            S::ScriptDataDoubleEscapeStart => self.script_data_double_escape_start_state(),
            S::ScriptDataDoubleEscaped => self.script_data_double_escaped_state(),
            S::ScriptDataDoubleEscapedDash => self.script_data_double_escaped_dash_state(),
            S::ScriptDataDoubleEscapedDashDash => self.script_data_double_escaped_dash_dash_state(),
            S::ScriptDataDoubleEscapedLessThanSign => {
                self.script_data_double_escaped_less_than_sign_state()
            }
            S::ScriptDataDoubleEscapeEnd => self.script_data_double_escape_end_state(),
            S::BeforeAttributeName => self.before_attribute_name_state(),
            S::AttributeName => self.attribute_name_state(),
            S::AfterAttributeName => self.after_attribute_name_state(),
            S::BeforeAttributeValue => self.before_attribute_value_state(),
            S::AttributeValueDoubleQuoted => self.attribute_value_quoted_state(b'"'),
            S::AttributeValueSingleQuoted => self.attribute_value_quoted_state(b'\''),
            S::AttributeValueUnquoted => self.attribute_value_unquoted_state(),
            S::AfterAttributeValueQuoted => self.after_attribute_value_quoted_state(),
            S::SelfClosingStartTag => self.self_closing_start_tag_state(),
            S::BogusComment => self.bogus_comment_state(),
            S::MarkupDeclarationOpen => self.markup_declaration_open_state(),
            S::CommentStart => self.comment_start_state(),
            S::CommentStartDash => self.comment_start_dash_state(),
            S::Comment => self.comment_state(),
            S::CommentLessThanSign => self.comment_less_than_sign_state(),
            S::CommentLessThanSignBang => self.comment_less_than_sign_bang_state(),
            S::CommentLessThanSignBangDash => self.comment_less_than_sign_bang_dash_state(),
            S::CommentLessThanSignBangDashDash => {
                self.comment_less_than_sign_bang_dash_dash_state()
            }
            S::CommentEndDash => self.comment_end_dash_state(),
            S::CommentEnd => self.comment_end_state(),
            S::CommentEndBang => self.comment_end_bang_state(),
            S::Doctype => self.doctype_state(),
            S::BeforeDoctypeName => self.before_doctype_name_state(),
            S::DoctypeName => self.doctype_name_state(),
            S::AfterDoctypeName => self.after_doctype_name_state(),
            S::AfterDoctypePublicKeyword => self.after_doctype_public_keyword_state(),
            S::BeforeDoctypePublicIdentifier => self.before_doctype_public_identifier_state(),
            S::DoctypePublicIdentifierDoubleQuoted => {
                self.doctype_identifier_quoted_state(true, b'"')
            }
            S::DoctypePublicIdentifierSingleQuoted => {
                self.doctype_identifier_quoted_state(true, b'\'')
            }
            S::AfterDoctypePublicIdentifier => self.after_doctype_public_identifier_state(),
            S::BetweenDoctypePublicAndSystemIdentifiers => {
                self.between_doctype_public_and_system_identifiers_state()
            }
            S::AfterDoctypeSystemKeyword => self.after_doctype_system_keyword_state(),
            S::BeforeDoctypeSystemIdentifier => self.before_doctype_system_identifier_state(),
            S::DoctypeSystemIdentifierDoubleQuoted => {
                self.doctype_identifier_quoted_state(false, b'"')
            }
            S::DoctypeSystemIdentifierSingleQuoted => {
                self.doctype_identifier_quoted_state(false, b'\'')
            }
            S::AfterDoctypeSystemIdentifier => self.after_doctype_system_identifier_state(),
            S::BogusDoctype => self.bogus_doctype_state(),
            S::CdataSection => self.cdata_section_state(),
            S::CdataSectionBracket => self.cdata_section_bracket_state(),
            S::CdataSectionEnd => self.cdata_section_end_state(),
            // Only in a partial buffer, at its end (above).
            S::EndOfBuffer => {}
        }
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

/// The first parse error of "preprocessing the input stream" (§13.2.3.5)
/// at or after `from` (a character boundary): a control character other
/// than ASCII whitespace and NUL, or a noncharacter (surrogates cannot occur
/// in a `&str`); its offset and code, or `usize::MAX` when there is none.
fn next_input_stream_error(input: &str, from: usize) -> (usize, ErrorCode) {
    let bytes = input.as_bytes();
    let mut i = from;
    loop {
        // Nearly every byte of a page is skipped here, a block at a time.
        i = crate::scan::find_stream_error_start(bytes, i);
        if i >= bytes.len() {
            return (usize::MAX, ErrorCode::ControlCharacterInInputStream);
        }
        let c = input[i..].chars().next().unwrap_or('\0');
        let cp = c as u32;
        if (0x01..0x20).contains(&cp) || (0x7F..=0x9F).contains(&cp) {
            return (i, ErrorCode::ControlCharacterInInputStream);
        }
        if is_noncharacter(cp) {
            return (i, ErrorCode::NoncharacterInInputStream);
        }
        i += c.len_utf8();
    }
}

/// Whether `cp` is a noncharacter (U+FDD0–U+FDEF, or U+xFFFE / U+xFFFF).
#[inline]
pub(crate) fn is_noncharacter(cp: u32) -> bool {
    (0xFDD0..=0xFDEF).contains(&cp) || (cp & 0xFFFE) == 0xFFFE
}
