//! Streaming: the points the machine can be resumed from, suspending at
//! the end of a partial buffer, and what one buffer's tokenizer hands to the
//! next (see `stream/feed.rs`).

use core::cell::RefCell;
use std::rc::Rc;

use bumpalo::Bump;

use super::machine::MachineState;
use super::strbuf::StrBuf;
use super::switch::OpenElements;
use super::{Options, State, Tokenizer};
use crate::error::ErrorCode;

/// What a tokenizer stopped in a partial buffer hands to the next one: the
/// state to resume in and the context a tree builder would have set.
#[derive(Clone, Debug)]
pub(crate) struct Carry {
    pub(super) state: MachineState,
    /// Where the last token ended (the start of the next text's span).
    pub(super) last_token_end: Option<usize>,
    pub(super) last_start_tag: Option<String>,
    pub(super) foreign: bool,
    pub(super) open_elements: OpenElements,
    /// With coalescing: the text that ran up to the cut, still pending (it
    /// goes on in the next buffer), and where it starts in the stream.
    pub(super) text: String,
    pub(super) text_start: usize,
}

impl Carry {
    /// The context at the start of a stream.
    pub(crate) fn new(opts: &Options) -> Carry {
        Carry {
            state: opts.initial_state.into(),
            last_token_end: None,
            last_start_tag: None,
            foreign: false,
            open_elements: OpenElements::for_options(opts),
            text: String::new(),
            text_start: 0,
        }
    }

    /// A context that allocates nothing, left in a stream whose own is
    /// lent to a feed.
    pub(crate) fn empty() -> Carry {
        Carry {
            state: MachineState::Data,
            last_token_end: None,
            last_start_tag: None,
            foreign: false,
            open_elements: OpenElements::default(),
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

    /// Sets the state to start in.
    pub(crate) fn set_state(&mut self, state: State) {
        self.state = state.into();
    }

    /// Where the text held for the next buffer starts in the stream, if
    /// there is any.
    pub(crate) fn held_text_start(&self) -> Option<usize> {
        (!self.text.is_empty()).then_some(self.text_start)
    }

    /// Bytes this context holds, for the memory cap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.last_start_tag.as_ref().map_or(0, String::len)
            + self.open_elements.heap_bytes()
            + self.text.len()
    }
}

/// A point the machine can be resumed from (see `Tokenizer::mark_safe`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Safe {
    pos: usize,
    state: MachineState,
    text_len: usize,
    errors_len: usize,
    next_stream_error: (usize, ErrorCode),
}

impl Default for Safe {
    fn default() -> Safe {
        Safe {
            pos: 0,
            state: MachineState::Data,
            text_len: 0,
            errors_len: 0,
            next_stream_error: (usize::MAX, ErrorCode::ControlCharacterInInputStream),
        }
    }
}

/// What starts the next buffer of a stream when one ends: the stream's
/// feed (see `stream/feed.rs`), which the tokenizer calls once per buffer. The
/// tokenizer declares it, and the stream implements it, so that the
/// tokenizer need not know the stream.
pub(crate) trait BufferChain<'a> {
    /// Whether the tokenizer goes on to the next buffer by itself (false
    /// while the chain's owner holds its tokenizers at their buffers' ends).
    fn crosses(&self) -> bool;

    /// `tokenizer` has finished its buffer (or is on none yet): collects
    /// what it left, and starts the next buffer in its place. Returns false
    /// when nothing is left to tokenize.
    fn next_buffer(&mut self, tokenizer: &mut Tokenizer<'a>) -> bool;
}

/// A [`BufferChain`] as a tokenizer holds it, shared with its owner (which
/// takes back what it lent the chain when it is done).
pub(crate) type SharedChain<'a> = Rc<RefCell<dyn BufferChain<'a> + 'a>>;

/// Streaming: how this buffer's tokenizer stops at its end, and what it
/// hands to the next buffer's.
#[derive(Default)]
pub(super) struct ResumeState<'a> {
    /// More input may follow this buffer.
    pub(super) partial: bool,
    /// With coalescing, text cut by the end of a partial buffer stays
    /// pending and goes to the next buffer (see `take_carry`) instead of
    /// being handed out as a piece.
    pub(super) keep_cut_text: bool,
    /// The last point the machine can be resumed from in a later buffer.
    pub(super) safe: Safe,
    /// Where a partial run stopped: the offset the next buffer must start
    /// at.
    pub(super) suspended_at: Option<usize>,
    /// Where text running to the end of the input ends (see `emit_eof`).
    pub(super) eof_text_end: Option<usize>,
    /// What starts the next buffer in this tokenizer's place when this
    /// buffer ends (a stream's feed; see `next_buffer`); `None` for a whole
    /// input.
    pub(super) chain: Option<SharedChain<'a>>,
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over one buffer of a stream (see `stream/feed.rs`): `input`
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
        let open_elements = core::mem::take(&mut carry.open_elements);
        let mut tok = Tokenizer::with_stack(input, arena, opts, open_elements);
        tok.state = carry.state;
        tok.context.last_start_tag = carry.last_start_tag.as_deref().map(|n| {
            tok.budget.wrote(n.len());
            &*arena.alloc_str(n)
        });
        tok.context.foreign = carry.foreign;
        tok.cursor.base = base;
        tok.text.last_token_end = carry.last_token_end.unwrap_or(base);
        tok.resume.partial = partial;
        tok.resume.keep_cut_text = keep_cut_text;
        tok.resume.safe.state = carry.state;
        if !carry.text.is_empty() {
            tok.text.buf = StrBuf::from_string(core::mem::take(&mut carry.text), &mut tok.budget);
            tok.text.start = carry.text_start;
        }
        tok
    }

    /// A stream's tokenizer over no buffer yet, chained to what starts its
    /// buffers: a buffer that has ended ([`MachineState::EndOfBuffer`]), so
    /// the first call for a token starts the first buffer. It answers no
    /// span (its base is past every offset).
    pub(crate) fn chained(arena: &'a Bump, chain: SharedChain<'a>) -> Tokenizer<'a> {
        // Never tokenizes: the options only keep it from allocating.
        let opts = Options::default().auto_switch(false);
        let mut tok = Tokenizer::with_stack("", arena, opts, OpenElements::default());
        tok.cursor.base = usize::MAX;
        tok.resume.partial = true;
        tok.state = MachineState::EndOfBuffer;
        tok.resume.chain = Some(chain);
        tok
    }

    /// Whether the tokenizer has stopped for good: its input ended, or the
    /// memory limit stopped it.
    pub(crate) fn is_done(&self) -> bool {
        self.output.done
    }

    /// Takes the tokenizer off its chain (whose owner is being dropped).
    pub(crate) fn unchain(&mut self) {
        self.resume.chain = None;
    }

    /// This buffer has ended: when the tokenizer is on a chain (a
    /// stream's), the chain collects what the buffer left and starts the
    /// next buffer in this tokenizer's place. Returns whether it did (false
    /// at the end of the chunk, or for a whole input). Once per buffer, so
    /// out of line.
    #[cold]
    #[inline(never)]
    pub(crate) fn next_buffer(&mut self) -> bool {
        let Some(chain) = self.resume.chain.take() else {
            return false;
        };
        let started = chain.borrow_mut().next_buffer(self);
        self.resume.chain = Some(chain);
        started
    }

    /// Where this buffer starts in the whole stream (0 for a whole input).
    pub(crate) fn base(&self) -> usize {
        self.cursor.base
    }

    /// After a partial run has ended: the offset (in this buffer) the next
    /// buffer must start at, or `None` if the input was finished.
    pub(crate) fn suspended_at(&self) -> Option<usize> {
        self.resume.suspended_at
    }

    /// What the next buffer needs to carry on from where this one stopped
    /// (moving out the pending text, if the buffer kept some).
    pub(crate) fn take_carry(&mut self) -> Carry {
        let text_start = self.text.start;
        let text = self
            .text
            .buf
            .take_string(self.cursor.input, &mut self.budget);
        Carry {
            text,
            text_start,
            // Stopped at the end of a buffer, the machine resumes in the
            // state of its last safe point.
            state: if self.state == MachineState::EndOfBuffer {
                self.resume.safe.state
            } else {
                self.state
            },
            last_token_end: Some(self.text.last_token_end),
            last_start_tag: self.context.last_start_tag.map(str::to_owned),
            foreign: self.context.foreign,
            open_elements: core::mem::take(&mut self.context.open_elements),
        }
    }

    /// Records the current position as one the machine can be resumed from
    /// in another buffer (only when more input may follow).
    #[inline(always)]
    pub(super) fn mark_safe(&mut self) {
        if self.resume.partial {
            self.resume.safe.pos = self.cursor.pos;
            self.resume.safe.state = self.state;
            self.resume.safe.text_len = self.text.buf.len();
            // Without parse errors both counts stay 0.
            if self.opts.errors {
                self.resume.safe.errors_len = self.errors.found.len();
                self.resume.safe.next_stream_error = self.errors.next_stream_error;
            }
        }
    }

    /// In a partial buffer, stops at the last safe point: everything after it
    /// is undone and will be tokenized again with the next buffer. The text
    /// before it is handed out as a piece. Returns whether it stopped (false
    /// when this buffer is the end of the input and EOF rules apply).
    #[inline]
    pub(super) fn suspend(&mut self) -> bool {
        if !self.resume.partial {
            return false;
        }
        self.suspend_now();
        true
    }

    #[cold]
    pub(super) fn suspend_now(&mut self) {
        let safe = self.resume.safe;
        self.cursor.pos = safe.pos;
        self.state = safe.state;
        self.text.buf.truncate(safe.text_len);
        self.context.open_elements.cut_text(safe.text_len);
        self.errors.found.truncate(safe.errors_len);
        self.errors.next_stream_error = safe.next_stream_error;
        self.flush_stream_errors(safe.pos);
        if !self.text.buf.is_empty() && !self.resume.keep_cut_text {
            if self.opts.auto_switch {
                self.watch_text();
            }
            let text = self.take_text(safe.pos);
            self.output.ready = Some(text);
            self.text.last_token_end = safe.pos + self.cursor.base;
        }
        self.resume.suspended_at = Some(safe.pos);
        // The next step starts the next buffer (`step` runs it at the end
        // of the input); no more checks of the memory limit here, where
        // nothing more is tokenized.
        self.state = MachineState::EndOfBuffer;
        self.cursor.pos = self.cursor.bytes.len();
        self.budget.stop_polling();
    }

    /// The step of [`MachineState::EndOfBuffer`]: the chain starts the next
    /// buffer in this tokenizer's place, unless it holds its tokenizers at
    /// their buffers' ends (`Feed::try_for_each_token_in`) or the chunk is
    /// done.
    #[cold]
    #[inline(never)]
    pub(super) fn end_of_buffer(&mut self) {
        let crosses = self
            .resume
            .chain
            .as_ref()
            .is_some_and(|c| c.borrow().crosses());
        if !crosses || !self.next_buffer() {
            self.output.done = true;
        }
    }

    /// In a partial buffer, whether the input ends at `pos` (so a state that
    /// needs the next character must suspend).
    #[inline(always)]
    pub(super) fn out_of_input_at(&self, pos: usize) -> bool {
        self.resume.partial && pos >= self.cursor.bytes.len()
    }
}
