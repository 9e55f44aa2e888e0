//! Appending a short string to a `String` without a call to `memcpy`: the
//! Markdown writer appends a word or two at a time, where the call (and
//! the registers saved around it) cost more than the copy. `unsafe` for
//! writing into the string's spare capacity.

/// The longest string [`push_short`] copies itself; longer ones go
/// through `String::push_str`.
pub(crate) const SHORT: usize = 32;

/// Appends `text` to `out`: up to [`SHORT`] bytes as two overlapping
/// pieces of the largest fixed length that fits (a few moves, no call),
/// as `Gathered::push_str` copies its text.
#[inline(always)]
pub(crate) fn push_short(out: &mut String, text: &str) {
    let n = text.len();
    if n > SHORT {
        return out.push_str(text);
    }
    out.reserve(n);
    let len = out.len();
    let from = text.as_ptr();
    // SAFETY: `reserve` made room for `n` bytes past `len`, so every write
    // below is inside the allocation, and each read is inside `text`
    // (`n` bytes): the pieces are chosen by `n`, each of at most `n`
    // bytes, at `0` and at `n` less its length. They write exactly the
    // `n` bytes of `text` (the second piece overlaps the first with the
    // same bytes), so the `n` bytes past `len` are initialised when the
    // length is set, and they are a whole `str`'s: `out` stays UTF-8.
    // `text` is borrowed apart from `out`, so the pieces do not overlap.
    unsafe {
        let bytes = out.as_mut_vec();
        let to = bytes.as_mut_ptr().add(len);
        if n >= 16 {
            copy::<16>(from, to);
            copy::<16>(from.add(n - 16), to.add(n - 16));
        } else if n >= 8 {
            copy::<8>(from, to);
            copy::<8>(from.add(n - 8), to.add(n - 8));
        } else if n >= 4 {
            copy::<4>(from, to);
            copy::<4>(from.add(n - 4), to.add(n - 4));
        } else if n > 0 {
            *to = *from;
            *to.add(n / 2) = *from.add(n / 2);
            *to.add(n - 1) = *from.add(n - 1);
        }
        bytes.set_len(len + n);
    }
}

/// Copies `N` bytes from `from` to `to`, of a length the compiler knows
/// (a move or two, not a call).
///
/// # Safety
/// `from..from + N` must be readable, `to..to + N` writable, and the two
/// must not overlap.
#[inline(always)]
unsafe fn copy<const N: usize>(from: *const u8, to: *mut u8) {
    // SAFETY: the caller's contract.
    unsafe { core::ptr::copy_nonoverlapping(from, to, N) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to past [`SHORT`], after every length of string
    /// (so at every alignment, and with the capacity full or not).
    #[test]
    fn appends_as_push_str_does() {
        let source: String = ('a'..='z').chain('A'..='Z').chain('0'..='9').collect();
        for before in 0..20 {
            for n in 0..=SHORT + 8 {
                let text = &source[..n];
                let mut got = "x".repeat(before);
                got.shrink_to_fit();
                let mut want = got.clone();
                push_short(&mut got, text);
                want.push_str(text);
                assert_eq!(got, want, "{before} {n}");
            }
        }
        let mut got = String::from("é");
        push_short(&mut got, "ü€ x");
        assert_eq!(got, "éü€ x");
    }
}
