//! The memory budget: [`Options::memory_limit`](crate::Options::memory_limit)
//! checked as the input advances; past it the tokenizer stops with a
//! [`MemoryLimitError`] that says where.

use bumpalo::Bump;

use super::{Options, Tokenizer};
use crate::error::ParseError;
use crate::memory_limit::{MemoryLimitError, MemoryLimitKind};
use crate::token::Attribute;

/// How far the input advances between two checks of the memory limit (see
/// `Tokenizer::limit_hit_at`).
const LIMIT_CHECK_EVERY: usize = 4096;

/// Where the tokenizer stands with its memory limit.
#[derive(Debug)]
pub(super) struct Budget {
    /// The arena's size when the tokenizer started.
    pub(super) arena_base: usize,
    /// Why the tokenizer stopped early, if it did.
    pub(super) error: Option<MemoryLimitError>,
    /// The position from which the limit is checked again (`usize::MAX`
    /// without a limit).
    pub(super) next_check: usize,
}

impl Budget {
    /// The budget for these options, over an arena that may hold other
    /// documents' strings already.
    pub(super) fn new(opts: &Options, arena: &Bump) -> Budget {
        let (arena_base, next_check) = if opts.memory_limit.is_some() {
            (arena.allocated_bytes(), 0)
        } else {
            (0, usize::MAX)
        };
        Budget {
            arena_base,
            error: None,
            next_check,
        }
    }
}

impl<'a> Tokenizer<'a> {
    /// Whether the parse errors alone take more than the memory limit.
    pub(super) fn errors_over_limit(&self) -> bool {
        self.opts.memory_limit.is_some_and(|limit| {
            self.errors.found.len() * core::mem::size_of::<ParseError>() > limit
        })
    }

    /// Whether [`Options::memory_limit`](crate::Options::memory_limit) is
    /// exceeded; if so the tokenizer stops (no further token is handed out).
    #[inline(always)]
    pub(super) fn limit_hit(&mut self) -> bool {
        self.limit_hit_at(self.cursor.pos)
    }

    /// [`limit_hit`](Self::limit_hit) for a state that keeps its position
    /// in a local (the tag fast path). The usage is added up only once the
    /// input has advanced [`LIMIT_CHECK_EVERY`] bytes since the last time:
    /// adding it up at every run cost a fifth of the run time, and what
    /// 4 KiB of input can make is bounded.
    #[inline(always)]
    pub(super) fn limit_hit_at(&mut self, pos: usize) -> bool {
        // Never true without a limit (`next_check` is then the end).
        pos >= self.budget.next_check && self.check_limit(pos)
    }

    #[cold]
    #[inline(never)]
    fn check_limit(&mut self, pos: usize) -> bool {
        let Some(limit) = self.opts.memory_limit else {
            self.budget.next_check = usize::MAX;
            return false;
        };
        self.budget.next_check = pos.saturating_add(LIMIT_CHECK_EVERY);
        let used = self
            .arena
            .allocated_bytes()
            .saturating_sub(self.budget.arena_base)
            + self.text.buf.heap_bytes()
            + self.tag.name.heap_bytes()
            + self.tag.attr_name.heap_bytes()
            + self.tag.attr_value.heap_bytes()
            + self.comment.heap_bytes()
            + self.tag.attrs.capacity() * core::mem::size_of::<Attribute<'_>>()
            + self.tag.attr_keys.capacity() * 16
            + self.context.open_elements.heap_bytes()
            + self.errors.found.capacity() * core::mem::size_of::<ParseError>();
        if used <= limit {
            return false;
        }
        self.budget.error = Some(MemoryLimitError {
            kind: MemoryLimitKind::Tokenizer,
            limit,
            needed: used,
            offset: Some(pos + self.cursor.base),
        });
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
}
