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
