//! What the crate's unit tests share.

/// A small deterministic random number generator (xorshift64) started from
/// `seed` (not zero): each call gives a number below its argument.
pub(crate) fn below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}
