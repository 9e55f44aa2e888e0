//! The memory budget: [`Options::memory_limit`](crate::Options::memory_limit)
//! checked as the input advances, and the error that says where the tokenizer
//! stopped.

use super::Tokenizer;
use crate::error::ParseError;
use crate::token::Attribute;

/// The tokenizer stopped because of
/// [`Options::memory_limit`](crate::Options::memory_limit).
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

/// How far the input advances between two checks of the memory limit (see
/// `Tokenizer::limit_hit_at`).
const LIMIT_CHECK_EVERY: usize = 4096;

impl<'a> Tokenizer<'a> {
    /// Whether the parse errors alone take more than the memory limit.
    pub(super) fn errors_over_limit(&self) -> bool {
        self.opts
            .memory_limit
            .is_some_and(|limit| self.errors.len() * core::mem::size_of::<ParseError>() > limit)
    }

    /// Whether [`Options::memory_limit`](crate::Options::memory_limit) is
    /// exceeded; if so the tokenizer stops (no further token is handed out).
    #[inline(always)]
    pub(super) fn limit_hit(&mut self) -> bool {
        self.limit_hit_at(self.pos)
    }

    /// [`limit_hit`](Self::limit_hit) for a state that keeps its position
    /// in a local (the tag fast path). The usage is added up only once the
    /// input has advanced [`LIMIT_CHECK_EVERY`] bytes since the last time:
    /// adding it up at every run cost a fifth of the run time, and what
    /// 4 KiB of input can make is bounded.
    #[inline(always)]
    pub(super) fn limit_hit_at(&mut self, pos: usize) -> bool {
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
}
