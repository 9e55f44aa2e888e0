//! The operations the generic algorithms (`generic/`) need from a vector
//! of bytes, as `memchr`'s `Vector` trait: one implementation an
//! instruction set (`x86_64/sse2.rs`, `x86_64/avx2.rs`), each method the
//! one instruction it names.

/// The operations the generic algorithms need from a vector of bytes.
///
/// Every method is an `unsafe fn` because it runs a CPU instruction
/// set the caller must have checked for (see each implementation).
pub(super) trait Vector: Copy {
    /// Bytes per vector.
    const BYTES: usize;
    /// Loads `Self::BYTES` bytes from `p`, unaligned.
    ///
    /// # Safety
    /// `p..p + BYTES` must be readable, and the CPU must support the
    /// implementation's instruction set.
    unsafe fn load(p: *const u8) -> Self;
    /// Every byte `b`. (Safety: the instruction set, as for `load`.)
    unsafe fn splat(b: u8) -> Self;
    /// 0xFF where the bytes are equal, else 0. (Safety: as `splat`.)
    unsafe fn eq(self, other: Self) -> Self;
    /// Unsigned minimum per byte. (Safety: as `splat`.)
    unsafe fn min(self, other: Self) -> Self;
    /// Wrapping subtraction per byte. (Safety: as `splat`.)
    unsafe fn sub(self, other: Self) -> Self;
    /// Bitwise or. (Safety: as `splat`.)
    unsafe fn or(self, other: Self) -> Self;
    /// `!self & other`. (Safety: as `splat`.)
    unsafe fn and_not(self, other: Self) -> Self;
    /// Bitwise and. (Safety: as `splat`.)
    #[cfg(feature = "extract")]
    unsafe fn and(self, other: Self) -> Self;
    /// The top bit of each byte, byte `i` as bit `i`. (Safety: as `splat`.)
    unsafe fn mask(self) -> u32;
}
