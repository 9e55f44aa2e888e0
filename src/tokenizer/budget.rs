//! The memory budget: [`Options::memory_limit`](crate::Options::memory_limit)
//! in a [`MemoryLimiter`] that the tokenizer charges as it takes memory,
//! and the poll that stops it with a [`MemoryLimitError`] that says where.
//!
//! Who charges, who is measured, where it stops:
//! - the owned buffers charge their growth when it happens (capacity, by
//!   amortized doubling): the string buffers (`StrBuf`), the attribute list
//!   with its key table, the parse errors (which, past the limit, are
//!   refused instead). Growth is rare, so each charge is compared with the
//!   limit at once;
//! - the arena is charged for what the tokenizer writes to it (a string
//!   that differs from its source, a lowercased name, a tag's attributes),
//!   at those few places, not measured by its chunks: a chunk is shared
//!   with the caller's other documents and grows by doubling, so measuring
//!   it made the limit depend on what the arena held before. A write comes
//!   with nearly every tag, so it is only added up, and compared by the
//!   poll every [`LIMIT_CHECK_EVERY`] bytes of input;
//! - the switching context's stack or tree (a tree builder's, followed
//!   here) is measured by that poll: it grows by an entry or so per tag,
//!   and adding up the tree walks its nodes.
//!
//! A charge past the limit cannot stop the tokenizer inside a push; it
//! makes the next poll stop it. The polls stand where a state's loop can
//! run on (the data and text states, comments, attribute values, a tag's
//! attributes, and `step` for the rest): there what came before is whole,
//! so the tokens and the text before the stop are handed out.

use super::{Options, Tokenizer};
use crate::memory_limit::{MemoryLimitError, MemoryLimitKind, MemoryLimiter};

/// How far the input advances between two regular polls, which compare the
/// arena's charge and measure the switching context (see
/// `Tokenizer::limit_hit_at`).
const LIMIT_CHECK_EVERY: usize = 4096;

/// Where the tokenizer stands with its memory limit.
#[derive(Debug)]
pub(super) struct Budget {
    /// The limit, and what the tokenizer charged.
    limiter: MemoryLimiter,
    /// The growth a buffer that can do without was refused (0 for none):
    /// not charged, since the buffer did not grow, but needed.
    refused: usize,
    /// Why the tokenizer stopped early, if it did.
    pub(super) error: Option<MemoryLimitError>,
    /// The position from which the limit is polled again (`usize::MAX`
    /// without a limit, or once nothing more is tokenized; 0 once a charge
    /// passed the limit).
    next_check: usize,
}

impl Budget {
    /// The budget for these options.
    pub(super) fn new(opts: &Options) -> Budget {
        let limiter = MemoryLimiter::new(MemoryLimitKind::Tokenizer, opts.memory_limit);
        let next_check = if limiter.is_limited() { 0 } else { usize::MAX };
        Budget {
            limiter,
            refused: 0,
            error: None,
            next_check,
        }
    }

    /// An owned buffer grew by `bytes`: charged, and past the limit the
    /// next poll stops the tokenizer.
    #[inline]
    pub(super) fn grew(&mut self, bytes: usize) {
        if self.limiter.charge(bytes) {
            self.next_check = 0;
        }
    }

    /// The tokenizer wrote `bytes` to the arena: charged, and compared with
    /// the limit at the next regular poll. Writes come with tokens, many
    /// times as often as buffers grow: an addition is all they can afford
    /// (the compare cost a third of this change's instructions on the
    /// corpus), and what 4 KiB of input writes is bounded.
    #[inline(always)]
    pub(super) fn wrote(&mut self, bytes: usize) {
        self.limiter.add(bytes);
    }

    /// Whether an owned buffer that can do without (the parse errors) may
    /// grow by `bytes`: charged if so; past the limit refused, and the next
    /// poll stops the tokenizer.
    #[inline]
    pub(super) fn may_grow(&mut self, bytes: usize) -> bool {
        if self.limiter.fits(bytes) {
            self.limiter.charge(bytes);
            return true;
        }
        self.refused = self.refused.max(bytes);
        self.next_check = 0;
        false
    }

    /// An owned buffer handed `bytes` away (or dropped them).
    #[inline]
    pub(super) fn released(&mut self, bytes: usize) {
        self.limiter.release(bytes);
    }

    /// Whether a charge passed the limit or a buffer was refused.
    pub(super) fn is_over(&self) -> bool {
        self.refused > 0 || !self.limiter.fits(0)
    }

    /// No more polls: nothing more is tokenized in this buffer.
    pub(super) fn stop_polling(&mut self) {
        self.next_check = usize::MAX;
    }
}

impl<'a> Tokenizer<'a> {
    /// Whether [`Options::memory_limit`](crate::Options::memory_limit) is
    /// exceeded; if so the tokenizer stops (no further token is handed out).
    #[inline(always)]
    pub(super) fn limit_hit(&mut self) -> bool {
        self.limit_hit_at(self.cursor.pos)
    }

    /// [`limit_hit`](Self::limit_hit) for a state that keeps its position
    /// in a local (the tag fast path). The limit is looked at only once the
    /// input has advanced [`LIMIT_CHECK_EVERY`] bytes since the last time,
    /// or at once after a buffer's growth passed it: what 4 KiB of input
    /// writes to the arena and adds to the switching context is bounded,
    /// and measuring at every run cost a fifth of the run time.
    #[inline(always)]
    pub(super) fn limit_hit_at(&mut self, pos: usize) -> bool {
        // Never true without a limit (`next_check` is then the end).
        pos >= self.budget.next_check && self.check_limit(pos)
    }

    /// What the tokenizer holds that is measured, not charged: the
    /// switching context.
    fn measured_bytes(&self) -> usize {
        self.context.open_elements.heap_bytes()
    }

    #[cold]
    #[inline(never)]
    fn check_limit(&mut self, pos: usize) -> bool {
        if !self.budget.limiter.is_limited() {
            self.budget.stop_polling();
            return false;
        }
        self.budget.next_check = pos.saturating_add(LIMIT_CHECK_EVERY);
        let offset = Some(pos + self.cursor.base);
        let measured = self.measured_bytes() + self.budget.refused;
        let Err(error) = self.budget.limiter.check(measured, offset) else {
            return false;
        };
        self.budget.error = Some(error);
        self.output.ready = None;
        self.output.waiting = None;
        self.output.done = true;
        // The text before the construct being tokenized is finished, and a
        // text state's run is finished up to `pos`: handed out, not
        // dropped. (A state that keeps its position in a local, the tag
        // fast path, is inside a tag: its text ends where the tag begins.)
        if !self.text.buf.is_empty() {
            let end = if self.state.is_resumable() && pos == self.cursor.pos {
                pos
            } else {
                self.cursor.markup_start
            };
            self.output.ready = Some(self.take_text(end));
        }
        true
    }

    /// At the end of the input, when a charge passed the limit since the
    /// last poll (the parse errors refused to grow): the error, at
    /// `offset` (every token is out; what was refused is not).
    pub(super) fn limit_error_at_end(&mut self, offset: usize) {
        if self.budget.is_over() {
            let needed =
                self.budget.limiter.charged() + self.budget.refused + self.measured_bytes();
            let error = self
                .budget
                .limiter
                .error(needed, Some(offset + self.cursor.base));
            self.budget.error = Some(error);
        }
    }
}
