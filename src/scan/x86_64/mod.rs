//! The x86-64 implementations, one file an instruction set, and the choice
//! among them.
//!
//! Two kinds of choice, by how often a scan is called:
//! - per token (`find2`'s first blocks, and extraction's `skip_collapsed`,
//!   `TextMasks::of`, `UrlMasks::of`, `MarkdownMasks::of`): SSE2, the
//!   x86-64 baseline, chosen at compile time (this module is compiled only
//!   where the target has SSE2) and inlined into the caller. A choice at
//!   run time would cost each call a load and an indirect call, and the
//!   per-token scans are a few blocks long, too short for wider vectors to
//!   win that back.
//! - per buffer (the input-stream error starts over the whole input, and
//!   squeezing 16 KiB of gathered text): the widest instruction set the CPU
//!   has, AVX2 or SSSE3, chosen at the first call and kept in an atomic
//!   function pointer, as `memchr` does for its searches (`choose_once!`):
//!   every later call is a load and an indirect call, where a feature check
//!   inside each call cost a few instructions more (BENCHMARKS.md,
//!   "Scanning").
//!
//! Each `unsafe fn` of the instruction-set files needs only that the CPU
//! has its instruction sets: the choice here is what guarantees it.

mod avx2;
mod sse2;
#[cfg(feature = "extract")]
mod ssse3;

use core::arch::x86_64::__m128i;

use super::generic;
#[cfg(feature = "extract")]
use super::squeeze::{Marks, SqueezeBlocks, SqueezeMarkedBlocks};

/// How far `find::find2` searches by itself, in SSE2 blocks, before
/// handing over to memchr, whose start-up only pays on longer runs (the
/// length was measured: BENCHMARKS.md, "Scanning").
pub(super) const FIND2_SHORT: usize = 128;

/// Defines a function that calls the implementation `$choose` gives (an
/// expression of the function's pointer type, run once), memchr's way:
/// the pointer is kept in an atomic, which first holds a function that
/// makes the choice, stores it, and calls through; from then on a call is
/// a load and an indirect call.
///
/// `$choose` must give only implementations whose instruction sets the
/// CPU has (it checks them): that is what the defined function guarantees
/// the `unsafe fn`s it calls. Defined as a safe `fn`, it also guarantees
/// them everything else, so it is for implementations that need nothing
/// but their instruction sets; as an `unsafe fn`, its callers guarantee
/// the rest of their contract.
macro_rules! choose_once {
    (
        $(#[$attr:meta])*
        $vis:vis unsafe fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = $choose:expr;
    ) => {
        $(#[$attr])*
        $vis unsafe fn $name($($arg: $ty),*) -> $ret {
            choose_once!(@call ($($arg: $ty),*) -> $ret = $choose)
        }
    };
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = $choose:expr;
    ) => {
        $(#[$attr])*
        $vis fn $name($($arg: $ty),*) -> $ret {
            choose_once!(@call ($($arg: $ty),*) -> $ret = $choose)
        }
    };
    (@call ($($arg:ident: $ty:ty),*) -> $ret:ty = $choose:expr) => {{
        use core::sync::atomic::{AtomicPtr, Ordering};
        type Chosen = unsafe fn($($ty),*) -> $ret;
        static CHOSEN: AtomicPtr<()> = AtomicPtr::new(choose as Chosen as *mut ());
        /// Makes the choice, keeps it for the calls after, and calls it.
        ///
        /// # Safety
        /// That of the defined function: nothing for a safe `fn`, its
        /// `# Safety` section for an `unsafe fn` (the instruction sets
        /// are this function's to check, through `$choose`).
        unsafe fn choose($($arg: $ty),*) -> $ret {
            let chosen: Chosen = $choose;
            CHOSEN.store(chosen as *mut (), Ordering::Relaxed);
            // SAFETY: `$choose` gave an implementation whose instruction
            // sets the CPU has; the rest of its contract is this
            // function's caller's (see the macro).
            unsafe { chosen($($arg),*) }
        }
        let chosen = CHOSEN.load(Ordering::Relaxed);
        // SAFETY: `CHOSEN` only ever holds a `Chosen` cast to a pointer
        // (`choose`, or what `$choose` gave), and a function pointer comes
        // back whole from `*mut ()`; the CPU has the instruction sets of
        // what it points to, and the rest of its contract is the caller's
        // (see the macro).
        unsafe { core::mem::transmute::<*mut (), Chosen>(chosen)($($arg),*) }
    }};
}

choose_once! {
    /// The first byte that may begin an input-stream error at or after
    /// `from` in whole vector blocks (AVX2's 32 bytes where the CPU has
    /// them, else SSE2's 16), or else where the tail too short for a block
    /// starts (unchecked: the caller walks it). Every byte before the
    /// returned offset is outside the set.
    #[inline]
    pub(super) fn skip_stream_error_free(hay: &[u8], from: usize) -> usize =
        if std::is_x86_feature_detected!("avx2") {
            avx2::skip_stream_error_free
        } else {
            sse2::skip_stream_error_free
        };
}

/// The first `a` or `b` at or after `from` in the whole 16-byte blocks that
/// end by `limit` (`Ok`), or where those blocks stop (`Err`, the bytes
/// before it hold neither). SSE2, chosen at compile time.
#[inline(always)]
pub(super) fn find2_blocks(
    a: u8,
    b: u8,
    hay: &[u8],
    from: usize,
    limit: usize,
) -> Result<usize, usize> {
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    unsafe { generic::find2_blocks::<__m128i>(a, b, hay, from, limit) }
}

/// See `text::skip_collapsed`: whole 16-byte blocks with a byte after
/// them. SSE2, chosen at compile time.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn skip_collapsed(hay: &[u8], from: usize) -> usize {
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    unsafe { generic::text::skip_collapsed::<__m128i>(hay, from) }
}

/// See `TextMasks::of`: 16-byte blocks (SSE2, chosen at compile time), the
/// last one overlapping the one before it rather than reading past the
/// text; a text shorter than a block is copied into one first.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn text_masks(text: &[u8]) -> Option<[u64; 3]> {
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    Some(unsafe { generic::text::short_masks::<__m128i, 3>(text, generic::text::text_block_masks) })
}

#[cfg(feature = "extract")]
choose_once! {
    /// See `text::count_classes_at`: AVX2's 32-byte blocks where the CPU
    /// has AVX2 and POPCNT, SSSE3's 16 where it has SSSE3 and POPCNT;
    /// `false` (not counted) where it has neither, for the caller's byte
    /// loop.
    #[inline]
    pub(super) fn count_classes_at(text: &[u8], marks: &[usize], at: &mut Vec<[u32; 8]>) -> bool =
        if !std::is_x86_feature_detected!("popcnt") {
            no_count
        } else if std::is_x86_feature_detected!("avx2") {
            avx2::count_classes_at
        } else if std::is_x86_feature_detected!("ssse3") {
            ssse3::count_classes_at
        } else {
            no_count
        };
}

/// Counts nothing: the CPU has no POPCNT, or no SSSE3.
///
/// # Safety
/// None: `unsafe` for the type of the choice only.
#[cfg(feature = "extract")]
unsafe fn no_count(_: &[u8], _: &[usize], _: &mut Vec<[u32; 8]>) -> bool {
    false
}

/// A counting of `text::count_classes_at`'s classes, for the tests.
#[cfg(all(test, feature = "extract"))]
type ClassCounter = fn(&[u8], &[usize], &mut Vec<[u32; 8]>) -> bool;

/// Every vector counting the CPU has, for the tests to compare each with
/// the byte loop.
#[cfg(all(test, feature = "extract"))]
pub(super) fn class_counters() -> Vec<ClassCounter> {
    fn ssse3(text: &[u8], marks: &[usize], at: &mut Vec<[u32; 8]>) -> bool {
        // SAFETY: listed only where the CPU has SSSE3 and POPCNT.
        unsafe { ssse3::count_classes_at(text, marks, at) }
    }
    fn avx2(text: &[u8], marks: &[usize], at: &mut Vec<[u32; 8]>) -> bool {
        // SAFETY: listed only where the CPU has AVX2 and POPCNT.
        unsafe { avx2::count_classes_at(text, marks, at) }
    }
    let mut all: Vec<ClassCounter> = Vec::new();
    if std::is_x86_feature_detected!("popcnt") {
        if std::is_x86_feature_detected!("ssse3") {
            all.push(ssse3);
        }
        if std::is_x86_feature_detected!("avx2") {
            all.push(avx2);
        }
    }
    all
}

/// See `UrlMasks::of`: as [`text_masks`].
#[cfg(feature = "extract")]
#[inline]
pub(super) fn url_masks(url: &[u8]) -> Option<[u64; 4]> {
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    Some(unsafe { generic::text::short_masks::<__m128i, 4>(url, generic::text::url_block_masks) })
}

/// See `MarkdownMasks::of`: as [`text_masks`].
#[cfg(feature = "extract")]
#[inline]
pub(super) fn markdown_masks(text: &[u8]) -> Option<[u64; 5]> {
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    Some(unsafe {
        generic::text::short_masks::<__m128i, 5>(text, generic::text::markdown_block_masks)
    })
}

/// See `text::destination_changes`: 16-byte blocks (SSE2, chosen at
/// compile time), the last one overlapping the one before it.
#[cfg(feature = "extract")]
#[inline]
pub(super) fn destination_changes(url: &[u8]) -> Option<bool> {
    // SAFETY: SSE2 is enabled at compile time (this module's `cfg`).
    Some(unsafe { generic::text::any_in_blocks::<__m128i>(url, generic::text::destination_block) })
}

/// The widest vector squeezing the CPU has, of at most `widest` bytes a
/// block: AVX2's 32 where it has AVX2 and POPCNT, SSSE3's 16 where it has
/// SSSE3 and POPCNT (all past the x86-64 baseline), else none (the byte
/// loop alone); with its width.
#[cfg(feature = "extract")]
fn squeezer(widest: usize) -> (usize, SqueezeBlocks) {
    let popcnt = std::is_x86_feature_detected!("popcnt");
    if widest >= 32 && popcnt && std::is_x86_feature_detected!("avx2") {
        (32, avx2::squeeze)
    } else if widest >= 16 && popcnt && std::is_x86_feature_detected!("ssse3") {
        (16, ssse3::squeeze)
    } else {
        (0, super::squeeze::no_blocks)
    }
}

#[cfg(feature = "extract")]
choose_once! {
    /// Squeezing's vector blocks, the widest the CPU has (see
    /// `squeezer`).
    ///
    /// # Safety
    /// As for `squeeze::SqueezeBlocks`, but for the instruction sets,
    /// which the choice checks.
    #[inline]
    pub(super) unsafe fn squeeze_blocks(
        text: &[u8],
        dst: *mut u8,
        j: &mut usize,
        after_space: &mut bool,
    ) -> usize = squeezer(32).1;
}

/// [`squeezer`] with marks.
#[cfg(feature = "extract")]
fn marked_squeezer(widest: usize) -> (usize, SqueezeMarkedBlocks) {
    match squeezer(widest).0 {
        32 => (32, avx2::squeeze_marked),
        16 => (16, ssse3::squeeze_marked),
        _ => (0, super::squeeze::no_marked_blocks),
    }
}

#[cfg(feature = "extract")]
choose_once! {
    /// Squeezing's vector blocks with marks, the widest the CPU has (see
    /// `squeezer`).
    ///
    /// # Safety
    /// As for `squeeze::SqueezeBlocks`, but for the instruction sets,
    /// which the choice checks.
    #[inline]
    pub(super) unsafe fn squeeze_marked_blocks(
        text: &[u8],
        dst: *mut u8,
        j: &mut usize,
        after_space: &mut bool,
        marks: &mut Marks<'_>,
    ) -> usize = marked_squeezer(32).1;
}

/// Every squeezing the CPU has, with its width, for the tests to compare
/// each with the byte loop.
#[cfg(all(test, feature = "extract"))]
pub(super) fn squeezers() -> Vec<(usize, SqueezeBlocks)> {
    let mut all: Vec<_> = [32, 16, 0].into_iter().map(squeezer).collect();
    all.dedup_by_key(|(width, _)| *width);
    all
}

/// [`squeezers`] with marks.
#[cfg(all(test, feature = "extract"))]
pub(super) fn marked_squeezers() -> Vec<(usize, SqueezeMarkedBlocks)> {
    let mut all: Vec<_> = [32, 16, 0].into_iter().map(marked_squeezer).collect();
    all.dedup_by_key(|(width, _)| *width);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::class::STREAM_ERROR_START;

    /// Every byte value at every position of a block, through each
    /// vector width the CPU has: the same answer as the table.
    #[test]
    fn vectors_agree_with_the_table() {
        let avx2 = std::is_x86_feature_detected!("avx2");
        for b in 0..=255u8 {
            let member = STREAM_ERROR_START.contains(b);
            // Under Miri (slow), the members and their neighbours.
            let near = |d: u8| STREAM_ERROR_START.contains(b.wrapping_add(d));
            if cfg!(miri) && !(member || near(1) || near(255)) {
                continue;
            }
            for len in [16, 32, 48, 64] {
                for at in 0..len {
                    let mut hay = vec![b'a'; len];
                    hay[at] = b;
                    // Exact within whole blocks; the tail is left
                    // to the table.
                    let check = |got: usize, width: usize, name: &str| {
                        let blocks = len / width * width;
                        let want = if member && at < blocks { at } else { blocks };
                        assert_eq!(got, want, "{name}: byte {b:#04x} at {at} of {len}");
                    };
                    // SAFETY: SSE2 is part of the x86-64 baseline.
                    check(unsafe { sse2::skip_stream_error_free(&hay, 0) }, 16, "sse2");
                    if avx2 {
                        // SAFETY: AVX2 was detected.
                        check(unsafe { avx2::skip_stream_error_free(&hay, 0) }, 32, "avx2");
                    }
                    // The chosen one, whichever it is.
                    let width = if avx2 { 32 } else { 16 };
                    check(skip_stream_error_free(&hay, 0), width, "chosen");
                }
            }
        }
    }
}
