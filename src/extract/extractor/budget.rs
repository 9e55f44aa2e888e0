//! [`ExtractOptions::memory_limit`](crate::extract::ExtractOptions::memory_limit):
//! what an extractor holds, measured against the limit as it grows, and
//! what it does past it.
//!
//! What an extractor holds grows with what it takes in: the text (and its
//! runs), main content's blocks (one per text token at most), the links,
//! the Markdown (its text and markup). Each of those paths counts what it
//! takes in ([`Budget::spend`]: a subtraction and a sign test, on paths
//! already out of line), and every [`MEASURE_EVERY`] of it (or an eighth of
//! a smaller limit) the extractor
//! measures what it holds, the piece about to be taken included, as the
//! tokenizer compares its arena every 4 KiB of input: what one interval
//! adds is bounded, and measuring at every token would cost more than the
//! growth it watches. A text longer than the interval is measured before
//! it is taken, so that one huge text token is refused, not copied.
//!
//! Past the limit the extractor takes nothing more
//! ([`Extractor::stop_taking`]): it changes its dispatch, not the hot
//! path, so that stopping costs nothing on the pages that never do.

use crate::extract::kinds::Follow;
use crate::extract::visible::ElementSet;
use crate::memory_limit::{MemoryLimitError, MemoryLimitKind, MemoryLimiter};
use crate::token::{Tag, Text};

use super::Extractor;

/// How much is taken in between two measures, in bytes of text and
/// [`PIECE`]s, at most: an eighth of the limit when that is less, so that
/// what one interval adds stays small beside the limit.
pub(super) const MEASURE_EVERY: isize = 64 << 10;

/// What each text token, Markdown tag and tag with links counts for
/// besides its bytes: no less than what it adds to what is held without
/// them (a text run, a block, a Markdown block's mark and markup, a
/// link's entry).
pub(super) const PIECE: usize = 64;

/// The extractor's memory budget.
#[derive(Debug)]
pub(super) struct Budget {
    /// How much may still be taken in before the next measure:
    /// `isize::MAX` without a limit, or once stopped (never reached: it
    /// counts bytes of the page).
    measure_in: isize,
    /// [`MEASURE_EVERY`], or an eighth of the limit.
    every: isize,
    limiter: MemoryLimiter,
    /// Where the extractor stopped, once it did.
    pub(super) error: Option<MemoryLimitError>,
}

impl Budget {
    /// A budget of `limit` bytes (`None`: unlimited, never measured).
    pub(super) fn new(limit: Option<usize>) -> Budget {
        let limiter = MemoryLimiter::new(MemoryLimitKind::Extract, limit);
        let every = limit.map_or(isize::MAX, |limit| {
            isize::try_from(limit / 8)
                .map_or(MEASURE_EVERY, |eighth| eighth.clamp(1, MEASURE_EVERY))
        });
        Budget {
            measure_in: every,
            every,
            limiter,
            error: None,
        }
    }

    /// Counts `units` taken in; whether it is time to measure.
    #[inline(always)]
    pub(super) fn spend(&mut self, units: usize) -> bool {
        self.measure_in = self.measure_in.wrapping_sub(units as isize);
        self.measure_in < 0
    }

    /// The limit in bytes (`usize::MAX` for none).
    #[inline]
    pub(super) fn limit(&self) -> usize {
        self.limiter.limit()
    }

    /// Whether a limit stopped the extractor.
    #[inline]
    pub(super) fn stopped(&self) -> bool {
        self.error.is_some()
    }

    /// Measures `held` bytes (what the extractor holds, and what it is
    /// about to take) at `offset`: past the limit, the error is kept and
    /// nothing is measured again. Returns whether it stopped.
    #[cold]
    pub(super) fn measure(&mut self, held: usize, offset: Option<usize>) -> bool {
        self.measure_in = self.every;
        if let Err(error) = self.limiter.check(held, offset) {
            self.error = Some(error);
            self.measure_in = isize::MAX;
        }
        self.stopped()
    }
}

impl Extractor {
    /// Counts a text token for the memory limit, measuring when due:
    /// whether the extractor stopped before it.
    #[inline(always)]
    pub(super) fn spend_on(&mut self, text: &Text<'_>) -> bool {
        let taken = text.data.len() + PIECE;
        self.budget.spend(taken) && self.over_limit(taken, Some(text.span.start))
    }

    /// [`Extractor::spend_on`] for a tag with links (what they take is at
    /// most its length, and a piece): whether the extractor stopped
    /// before it.
    #[inline(always)]
    pub(super) fn spend_on_tag(&mut self, tag: &Tag<'_>) -> bool {
        let taken = tag.span.len() + PIECE;
        self.budget.spend(taken) && self.over_limit(taken, Some(tag.span.start))
    }

    /// Measures what the extractor holds, and `taking` bytes it is about
    /// to take at `offset`, against [`ExtractOptions::memory_limit`](crate::extract::ExtractOptions::memory_limit): past
    /// it, the extractor stops taking (and says where); whether it did.
    #[cold]
    #[inline(never)]
    pub(super) fn over_limit(&mut self, taking: usize, offset: Option<usize>) -> bool {
        let text = self.text.heap_bytes();
        let others = self.links.bytes()
            + self.segmenter.as_ref().map_or(0, |s| s.heap_bytes())
            + self.markdown.as_ref().map_or(0, |m| m.heap_bytes());
        if self.budget.measure(text + others + taking, offset) {
            self.stop_taking();
            return true;
        }
        // The text's buffer may grow into what the rest leaves.
        self.text.grow_to = self.budget.limit().saturating_sub(others);
        false
    }

    /// Past the memory limit: nothing more of the page is taken, as if it
    /// had ended. The dispatch is set as if nothing were wanted and all
    /// that follows were hidden (text goes nowhere, no tag is read past
    /// what the dispatch follows, no boundary is written), so that no test
    /// for it stands on the hot path; [`Extractor::finish`] gives what was
    /// taken before.
    #[cold]
    fn stop_taking(&mut self) {
        self.visible.hide_the_rest();
        self.dispatch.follow = Follow::Invisible;
        self.dispatch.text_alone = false;
        self.dispatch.text_more = Extractor::text_ignored;
        self.dispatch.start_tags = ElementSet::of(&[]);
        self.wants.links = false;
        self.wants.metadata = false;
    }

    /// What takes a text token once the extractor has stopped: nothing.
    fn text_ignored(&mut self, _: &Text<'_>) {}

    /// Where [`ExtractOptions::memory_limit`](crate::extract::ExtractOptions::memory_limit) stopped the extractor, if it
    /// did: everything before [`MemoryLimitError::offset`] was taken, and
    /// nothing after ([`Extracted::memory_limit`](crate::extract::Extracted::memory_limit) says the same at the
    /// end).
    pub fn limit_error(&self) -> Option<&MemoryLimitError> {
        self.budget.error.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_every_interval_and_stops_past_the_limit() {
        let mut unlimited = Budget::new(None);
        assert!(!unlimited.spend(usize::MAX >> 2));
        let mut budget = Budget::new(Some(1 << 20));
        assert!(!budget.spend(MEASURE_EVERY as usize - 1));
        assert!(budget.spend(2));
        assert!(!budget.measure(1 << 20, Some(5)));
        assert!(!budget.spend(PIECE));
        assert!(budget.measure((1 << 20) + 1, Some(7)));
        let error = budget.error.expect("stopped");
        assert_eq!(error.kind, MemoryLimitKind::Extract);
        assert_eq!(
            (error.limit, error.needed, error.offset),
            (1 << 20, (1 << 20) + 1, Some(7))
        );
        // Stopped, it measures no more.
        assert!(!budget.spend(MEASURE_EVERY as usize * 4));
        // A small limit is measured every eighth of it.
        let mut small = Budget::new(Some(800));
        assert!(!small.spend(100) && small.spend(1));
        assert!(Budget::new(Some(0)).spend(PIECE));
    }
}
