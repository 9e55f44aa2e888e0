//! Squeezing's parts that every implementation shares: the marker of a
//! line break in gathered text, one step of the byte loop (the whole of
//! squeezing where there are no vector blocks, and the end of each block
//! where there are), and the shape of a vector implementation, which
//! `arch` chooses. Apart from `gathered.rs` (which squeezes) and
//! `generic/squeeze.rs` (the vector algorithm), so that both and the
//! architectures import it and not each other.

use super::class::is_ascii_whitespace;

/// The byte that marks a line break in gathered text (`gathered::Gathered`): 0xFF, which
/// UTF-8 never uses.
pub(crate) const LINE_BREAK: u8 = 0xFF;

/// The vector part of squeezing: squeezes whole blocks of `text` from its
/// start, writing at `dst + *j` what it keeps (updating `*j` and
/// `*after_space` as [`squeeze_byte`] does), and returns the offset it
/// reached, from which the byte loop goes on. One a vector width (see
/// `arch`), or none (the byte loop alone).
///
/// # Safety
/// The CPU must support the instruction sets of the implementation (those
/// `arch` gives out it does); `dst` must have room for `text.len() + 16`
/// bytes past `*j`; `*j` and `*after_space` as for [`squeeze_byte`].
pub(super) type SqueezeBlocks = unsafe fn(&[u8], *mut u8, &mut usize, &mut bool) -> usize;

/// No vector blocks: the byte loop squeezes all of the text.
pub(super) fn no_blocks(_: &[u8], _: *mut u8, _: &mut usize, _: &mut bool) -> usize {
    0
}

/// One step of the byte loop of squeezing at `text[i]`: writes at
/// `dst + *j` what it keeps, and returns how many bytes it took (2 for
/// a no-break space).
///
/// # Safety
/// `dst + *j` must be writable, `i < text.len()`, and when
/// `*after_space` the byte at `dst + *j - 1` must be the one the run
/// wrote.
#[inline(always)]
pub(super) unsafe fn squeeze_byte(
    text: &[u8],
    i: usize,
    dst: *mut u8,
    j: &mut usize,
    after_space: &mut bool,
) -> usize {
    let b = text[i];
    let (kept, taken) = match b {
        0 => return 1,
        b if is_ascii_whitespace(b) => (b' ', 1),
        LINE_BREAK => (b'\n', 1),
        0xC2 if text.get(i + 1) == Some(&0xA0) => (b' ', 2),
        _ => {
            // SAFETY: the caller guarantees `dst + *j` writable.
            unsafe { dst.add(*j).write(b) };
            *j += 1;
            *after_space = false;
            return 1;
        }
    };
    if !*after_space {
        // SAFETY: as above.
        unsafe { dst.add(*j).write(kept) };
        *j += 1;
    } else if kept == b'\n' {
        // A line break in the run makes its separator one.
        // SAFETY: the caller guarantees the run wrote `dst + *j - 1`.
        unsafe { dst.add(*j - 1).write(kept) };
    }
    *after_space = true;
    taken
}

/// [`SqueezeBlocks`] that also tells `marks` where the marks it passes
/// went (`gathered::Gathered::squeeze_marked`).
///
/// # Safety
/// As for [`SqueezeBlocks`].
pub(super) type SqueezeMarkedBlocks =
    unsafe fn(&[u8], *mut u8, &mut usize, &mut bool, &mut Marks<'_>) -> usize;

/// No vector blocks: the byte loop squeezes all of the text, and passes
/// all of its marks.
pub(super) fn no_marked_blocks(
    _: &[u8],
    _: *mut u8,
    _: &mut usize,
    _: &mut bool,
    _: &mut Marks<'_>,
) -> usize {
    0
}

/// What squeezing tells of the marks it passes: nothing (`()`), or where
/// each went ([`Marks`]).
pub(super) trait MarkSink {
    /// Squeezing reached offset `to` of the text: each mark not yet
    /// passed at or before `to` went after `written` bytes plus those of
    /// the bits of `keep` below it, `keep` being what was kept of a block
    /// loaded from offset `base` (bit `k` for byte `base + k`; the marks
    /// passed are at most a block's width past `base`).
    fn reach(&mut self, to: usize, base: usize, written: usize, keep: u32);
}

impl MarkSink for () {
    #[inline(always)]
    fn reach(&mut self, _: usize, _: usize, _: usize, _: u32) {}
}

/// Offsets in a text being squeezed (in order), and where those passed
/// went: for each, how many bytes were written once the bytes before it
/// were squeezed.
pub(crate) struct Marks<'a> {
    /// The offsets, each `from` more than in the text squeezed.
    offsets: &'a [usize],
    from: usize,
    /// The next mark's offset in the text squeezed (`usize::MAX` past the
    /// last), and its index in `offsets`.
    next: usize,
    index: usize,
    /// Where each mark went, `written` more than the bytes written.
    at: &'a mut Vec<usize>,
    written: usize,
}

impl<'a> Marks<'a> {
    /// The marks at `offsets` less `from` in the text squeezed; where
    /// each went, pushed to `at`, is `written` more than the bytes written
    /// before it.
    pub(super) fn new(
        offsets: &'a [usize],
        from: usize,
        at: &'a mut Vec<usize>,
        written: usize,
    ) -> Marks<'a> {
        let mut marks = Marks {
            offsets,
            from,
            next: 0,
            index: 0,
            at,
            written,
        };
        marks.next = marks.offset(0);
        marks
    }

    /// The offset of mark `index` in the text squeezed.
    #[inline(always)]
    fn offset(&self, index: usize) -> usize {
        self.offsets
            .get(index)
            .map_or(usize::MAX, |&m| m - self.from)
    }

    /// [`MarkSink::reach`] past the next mark (inlined into the vector
    /// loops, whose instruction sets count the bits with `popcnt`).
    #[inline(always)]
    fn pass(&mut self, to: usize, base: usize, written: usize, keep: u32) {
        while self.next <= to {
            let below = ((1u64 << (self.next - base)) - 1) as u32;
            let kept = (keep & below).count_ones() as usize;
            self.at.push(self.written + written + kept);
            self.index += 1;
            self.next = self.offset(self.index);
        }
    }
}

impl MarkSink for Marks<'_> {
    #[inline(always)]
    fn reach(&mut self, to: usize, base: usize, written: usize, keep: u32) {
        if self.next <= to {
            self.pass(to, base, written, keep);
        }
    }
}
