//! Finding the next byte that matters, and what a byte is.
//!
//! Every long-run state of the tokenizer (data, RCDATA, RAWTEXT, script data,
//! comments, attribute values, CDATA) spends its time skipping bytes that need
//! no work and stopping at the few that do. This module holds that search so
//! that the state machine stays a transcription of the spec and speed work
//! (SIMD, runtime feature detection) has one place to happen. It is the
//! crate's one place of `unsafe` (the crate denies it elsewhere).
//!
//! Three tools: `memchr` for the data state, where runs are long and the
//! delimiters are few (after their first 128 bytes, searched in SSE2 blocks
//! on x86-64: most runs end sooner, and memchr's start-up costs more than a
//! block); a 256-entry byte-class table for everything else, where runs
//! are short and a call into memchr costs more than it saves; and vector
//! classification for the pass over the whole input that looks for
//! input-stream errors, where the set of interesting bytes is too large for
//! memchr. Text extraction's whitespace collapsing has its vector loops here
//! too, for the same reason: one place for `unsafe`.
//!
//! The tag path also takes its names and values from here as string slices
//! ([`Run`]): a scan that stops at an ASCII byte has found a character
//! boundary, so the slice needs no further check.
//!
//! # Layout
//!
//! As the `memchr` crate lays out its architectures: each vector algorithm
//! written once over a [`vector::Vector`] trait (`generic/`), one file an
//! instruction set implementing it (`x86_64/`), and the choice among them
//! in `x86_64/mod.rs`, at compile time for the per-token scans and at each
//! call (from the features std detected once) for the whole-buffer ones.
//!
//! | file | what | `unsafe` |
//! |---|---|---|
//! | `class.rs` | ASCII whitespace, UTF-8 width, byte sets, the tag path's class table | no |
//! | `find.rs` | the tokenizer's scans: to a class, to one or two bytes, to an input-stream error | no |
//! | `run.rs` | the runs a scan skipped, as `&str` without a second check | slicing |
//! | `vector.rs` | the vector operations the algorithms need | trait |
//! | `generic/` | the vector algorithms, each once (`squeeze.rs`, `text.rs`: extraction's) | loads |
//! | `x86_64/` | the algorithms per instruction set (`sse2.rs`, `avx2.rs`, `ssse3.rs`), and the choice | intrinsics |
//! | `fallback.rs` | the same entry points elsewhere: no vector blocks | no |
//! | `text.rs` | extraction's per-token scans: `TextMasks`, `UrlMasks`, `MarkdownMasks`, `skip_collapsed`; main content's `count_classes_at` | no |
//! | `gathered.rs` | extraction's gathered text, and its squeezing | writes |
//! | `append.rs` | appending a short string to a `String` without `memcpy` (the Markdown writer's words) | writes |
//! | `squeeze.rs` | squeezing's byte step, line-break marker and vector blocks' shape, shared by `gathered.rs`, `generic/` and the architectures | writes |
//!
//! The last four, `generic/{squeeze,text}.rs` and `x86_64/ssse3.rs` serve the
//! `extract` feature and are compiled only with it.
//!
//! Every `unsafe` block says why it is sound (`SAFETY:`, checked by clippy
//! below), and every `unsafe fn` its contract (`# Safety`); the contracts a
//! type or a `cfg` can carry are carried there: the instruction set of the
//! x86-64 baseline by `cfg(target_feature = "sse2")`, the character
//! boundaries a scan stops on by the class table's const check (no byte from
//! 0x80 up has a class). The tests compare every vector path with its byte
//! loop; README.md says how to run them under Miri.
#![deny(clippy::undocumented_unsafe_blocks)]

pub(crate) mod class;
mod find;
#[allow(unsafe_code)]
mod run;

#[cfg(feature = "extract")]
#[allow(unsafe_code)]
mod append;
#[cfg(feature = "extract")]
#[allow(unsafe_code)]
mod gathered;
#[cfg(feature = "extract")]
#[allow(unsafe_code)]
mod squeeze;
#[cfg(feature = "extract")]
mod text;

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
mod generic;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
mod vector;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
mod x86_64;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use x86_64 as arch;

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
mod fallback;
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
use fallback as arch;

#[cfg(feature = "extract")]
pub(crate) use append::push_short;
#[cfg(feature = "extract")]
pub(crate) use class::is_ascii_whitespace_char;
pub(crate) use class::{ByteSet, is_ascii_whitespace, skip_whitespace, utf8_width};
pub(crate) use find::{find_stream_error_start, find1, find2, has_cr_or_nul};
#[cfg(feature = "extract")]
pub(crate) use gathered::Gathered;
pub(crate) use run::{
    Run, class_run, class_run_seen, class_run_seen_past_first, class_run_upper, run2,
};
#[cfg(feature = "extract")]
pub(crate) use squeeze::LINE_BREAK;
#[cfg(feature = "extract")]
pub(crate) use text::{
    MarkdownMasks, TextMasks, UrlMasks, count_classes_at, destination_changes, skip_collapsed,
};
