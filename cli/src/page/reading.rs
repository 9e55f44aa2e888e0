//! [`Reading`]: how a command reads each input — how its bytes become text
//! ([`Decoding`]), in what chunks, within what limits.
//!
//! How bytes become text is the command's [`Decoding`]:
//!
//! - [`Decoding::Sniff`] (every command but `tokens --format html5lib` and
//!   `encoding`): the HTML Standard's encoding sniffing: a byte order mark,
//!   else `--encoding`, else a `<meta>` in the first 1024 bytes, else UTF-8
//!   when the whole input is valid UTF-8, else windows-1252. UTF-8
//!   detection looks at the whole input: for an input longer than a chunk
//!   whose encoding nothing else decides, the input is read once more to
//!   check (from the file; standard input is kept in a temporary file).
//! - [`Decoding::Utf8`] (`tokens --format html5lib`): the bytes are the
//!   input stream as they are, UTF-8 with invalid bytes replaced by U+FFFD;
//!   a BOM stays a character.
//! - [`Decoding::Browser`] (`encoding`): what a browser ends up with, a
//!   `<meta>` met while parsing included
//!   ([`Page::browser_encoding`](super::Page::browser_encoding)).

use htmltok::DecodeOptions;
use htmltok::encoding_rs::Encoding;

use crate::input;

use super::stream::HELD_COPIES;

/// The default `--chunk-size`: inputs up to this size are tokenized whole.
pub const CHUNK_SIZE: usize = 1 << 20;

/// The default `--memory-limit`.
pub const MEMORY_LIMIT: usize = 64 << 20;

/// How a command reads each input.
#[derive(Clone, Debug)]
pub struct Reading {
    /// How bytes become text.
    pub decoding: Decoding,
    /// How many bytes are read and tokenized at a time.
    pub chunk_size: usize,
    /// The most the tokenizer may hold for one input (a construct a chunk
    /// boundary cut, the strings of one chunk's tokens).
    pub memory_limit: usize,
    /// The most a gzip input may inflate to.
    pub gunzip_limit: u64,
    /// What becomes of inputs whose first bytes are binary.
    pub binary: BinaryInputs,
}

impl Reading {
    /// What of `--memory-limit` an extractor that holds a page until its
    /// end (`text --main-content`, `--format markdown`) may hold of it
    /// (`ExtractOptions::memory_limit`): a quarter, as the stream's and
    /// the tokenizer's share: its text grows by doubling, and the text
    /// kept is copied out at the end.
    pub fn held_limit(&self) -> usize {
        self.memory_limit / HELD_COPIES
    }

    /// Inputs decoded as `decoding`, with the default sizes and limits.
    pub fn new(decoding: Decoding) -> Reading {
        Reading {
            decoding,
            chunk_size: CHUNK_SIZE,
            memory_limit: MEMORY_LIMIT,
            gunzip_limit: input::GUNZIP_LIMIT,
            binary: BinaryInputs::Read,
        }
    }
}

/// What becomes of an input whose first bytes are binary (a file is
/// tokenized whatever it holds unless asked otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryInputs {
    /// Tokenized as any input is.
    Read,
    /// Skipped and counted (`--skip-binary`).
    Skip,
}

/// How an input's bytes become the text the tokenizer reads.
#[derive(Clone, Debug)]
pub enum Decoding {
    /// UTF-8 as it is: invalid bytes become U+FFFD, a BOM is a character.
    Utf8,
    /// Sniffed and decoded (see [`Decoding::sniff`]).
    Sniff(DecodeOptions),
    /// Sniffed, and changed by a `<meta>` met while tokenizing, as a
    /// browser does: only for
    /// [`Page::browser_encoding`](super::Page::browser_encoding).
    Browser(DecodeOptions),
}

impl Decoding {
    /// Sniffing with UTF-8 detection (a valid UTF-8 page with no BOM and
    /// no `<meta>` is UTF-8, not windows-1252), and `encoding` (`--encoding`)
    /// as the user's override when given.
    pub fn sniff(encoding: Option<&'static Encoding>) -> Decoding {
        let mut options = DecodeOptions::default().detect_utf8(true);
        if let Some(encoding) = encoding {
            options = options.override_encoding(encoding);
        }
        Decoding::Sniff(options)
    }
}
