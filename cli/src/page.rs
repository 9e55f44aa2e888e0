//! One input as a command sees it ([`Page`]): its decoded text, and the one
//! place its tokens come from ([`Page::tokenize`]), whole or in chunks.
//!
//! How an input becomes text is the command's [`Reading`]:
//!
//! - [`Decoding::Sniff`] (every command but `tokens --format html5lib` and
//!   `encoding`): the encoding sniffing algorithm of the HTML Standard, a
//!   byte order mark, else `--encoding`, else a `<meta>` in the first 1024
//!   bytes, else UTF-8 when the input is valid UTF-8, else windows-1252,
//!   then the Encoding Standard's decoder. The text starts after a BOM.
//! - [`Decoding::Utf8`] (`tokens --format html5lib`): the bytes are the
//!   input stream as they are, UTF-8 with invalid bytes replaced by U+FFFD;
//!   a BOM stays a character.
//! - [`Decoding::Browser`] (`encoding`): what a browser ends up with, a
//!   `<meta>` past the first 1024 bytes included.
//!
//! With `--chunk-size N`, [`Page::tokenize`] feeds the input's bytes N at a
//! time to the streaming API instead (a [`SniffingStream`] when sniffing, a
//! [`StreamTokenizer`] for raw UTF-8) and hands on the same tokens, with
//! the same spans (offsets into the decoded text), in the same order. The
//! whole text is still decoded once, for what needs all of it: the content
//! checks, line and column numbers, links' spans.

use std::borrow::Cow;
use std::io;

use htmltok::bumpalo::Bump;
use htmltok::encoding_rs::Encoding;
use htmltok::{
    Confidence, DecodeOptions, Document, EncodingSource, Options, ParseError, SniffingStream,
    StreamOptions, StreamTokenizer, Token, Tokenizer,
};

/// How a command reads each input.
#[derive(Clone, Debug)]
pub struct Reading {
    /// Refuse inputs that do not look like pages ([`crate::input::check`]).
    pub check: bool,
    /// How bytes become text.
    pub decoding: Decoding,
    /// Tokenize through the streaming API, this many bytes at a time.
    pub chunk_size: Option<usize>,
}

impl Reading {
    /// Checked inputs, decoded as `decoding`, tokenized whole.
    pub fn new(decoding: Decoding) -> Reading {
        Reading {
            check: true,
            decoding,
            chunk_size: None,
        }
    }
}

/// How an input's bytes become the text the tokenizer reads.
#[derive(Clone, Debug)]
pub enum Decoding {
    /// UTF-8 as it is: invalid bytes become U+FFFD, a BOM is a character.
    Utf8,
    /// Sniffed and decoded (see [`Decoding::sniff`]).
    Sniff(DecodeOptions),
    /// Sniffed, decoded, and decoded again for a `<meta>` found while
    /// tokenizing, as a browser does ([`Document::from_bytes_resolved`]).
    /// Never tokenized in chunks.
    Browser(DecodeOptions),
}

impl Decoding {
    /// Sniffing with UTF-8 detection (a valid UTF-8 page with no BOM and
    /// no `<meta>` is UTF-8, not windows-1252), and `encoding` (`--encoding`)
    /// as the user's override when given.
    pub fn sniff(encoding: Option<&'static Encoding>) -> Decoding {
        let mut opts = DecodeOptions::default().detect_utf8(true);
        if let Some(encoding) = encoding {
            opts = opts.override_encoding(encoding);
        }
        Decoding::Sniff(opts)
    }
}

/// An input's bytes decoded.
pub struct Decoded<'b> {
    /// The text (borrowing the bytes when they already are that text).
    pub text: Cow<'b, str>,
    /// The encoding and its confidence, unless the bytes were taken as UTF-8
    /// as they are.
    pub encoding: Option<(&'static Encoding, Confidence)>,
    /// What a [`SniffingStream`] over the same bytes is to be given to
    /// decide as the whole-input decode did.
    stream_options: Option<DecodeOptions>,
}

/// Decodes `bytes` as `decoding` says; the error is for people.
pub fn decode<'b>(bytes: &'b [u8], decoding: &Decoding) -> Result<Decoded<'b>, String> {
    let document = match decoding {
        Decoding::Utf8 => {
            return Ok(Decoded {
                text: String::from_utf8_lossy(bytes),
                encoding: None,
                stream_options: None,
            });
        }
        Decoding::Sniff(opts) => Document::from_bytes(bytes, opts),
        Decoding::Browser(opts) => Document::from_bytes_resolved(bytes, opts),
    };
    let document = document.map_err(|e| format!("cannot decode: {e}"))?;
    let stream_options = match decoding {
        Decoding::Sniff(opts) => Some(stream_options(opts, &document)),
        _ => None,
    };
    Ok(Decoded {
        encoding: Some((document.encoding(), document.confidence())),
        text: document.into_text(),
        stream_options,
    })
}

/// The options a [`SniffingStream`] needs to decide what the whole-input
/// sniffing decided. Every step of the algorithm looks at the first 1024
/// bytes at most, which the stream holds back to sniff, except UTF-8
/// detection, which needs every byte: the stream sees only the bytes it
/// has held (the first 1024 and what came with them), where a page is often
/// still ASCII and a character may be cut in two. So the stream does not
/// detect; the whole input's answer becomes its default encoding.
fn stream_options(opts: &DecodeOptions, document: &Document<'_>) -> DecodeOptions {
    let opts = opts.clone().detect_utf8(false);
    if document.source() == EncodingSource::Utf8Detection {
        opts.default_encoding(document.encoding())
    } else {
        opts
    }
}

/// One input, loaded and decoded, as a command processes it.
pub struct Page<'a> {
    /// Its name as shown: the path, or `-` for stdin.
    pub name: &'a str,
    /// Its decoded text, whole: what spans are offsets into.
    pub text: &'a str,
    /// The encoding it was decoded from and how sure that is, when it was
    /// sniffed.
    pub encoding: Option<(&'static Encoding, Confidence)>,
    /// An arena for the tokenizer, reset for each input (one per thread).
    pub arena: &'a Bump,
    /// Where tokens come from in chunked mode.
    chunks: Option<Chunks<'a>>,
}

/// The input's bytes, to be fed to the streaming API in pieces.
struct Chunks<'a> {
    bytes: &'a [u8],
    size: usize,
    /// What to sniff with, or `None` for raw UTF-8.
    sniff: Option<&'a DecodeOptions>,
}

impl<'a> Page<'a> {
    /// A page tokenized whole from `text`.
    pub fn whole(name: &'a str, text: &'a str, arena: &'a Bump) -> Page<'a> {
        Page {
            name,
            text,
            encoding: None,
            arena,
            chunks: None,
        }
    }

    /// The page of an input: `bytes` decoded as `decoded`, tokenized whole,
    /// or from `bytes` `chunk_size` bytes at a time.
    pub fn new(
        name: &'a str,
        bytes: &'a [u8],
        decoded: &'a Decoded<'_>,
        chunk_size: Option<usize>,
        arena: &'a Bump,
    ) -> Page<'a> {
        Page {
            name,
            text: &decoded.text,
            encoding: decoded.encoding,
            arena,
            chunks: chunk_size.map(|size| Chunks {
                bytes,
                size: size.max(1),
                sniff: decoded.stream_options.as_ref(),
            }),
        }
    }

    /// Tokenizes the page with `options` (and `last_start_tag`, the name
    /// an appropriate end tag needs), handing each token to `sink` in
    /// order, and returns the parse errors (with `options.errors`). Stops at
    /// the first error `sink` returns.
    ///
    /// Tokens live as long as the page: a command may keep them.
    pub fn tokenize(
        &self,
        options: Options,
        last_start_tag: Option<&str>,
        sink: &mut dyn FnMut(Token<'a>) -> io::Result<()>,
    ) -> io::Result<Vec<ParseError>> {
        match &self.chunks {
            None => {
                let mut tok = Tokenizer::with_options(self.text, self.arena, options);
                if last_start_tag.is_some() {
                    tok.set_last_start_tag(last_start_tag);
                }
                for token in tok.by_ref() {
                    sink(token)?;
                }
                Ok(tok.take_errors())
            }
            Some(chunks) => chunks.tokenize(self.arena, options, last_start_tag, sink),
        }
    }
}

/// A stream error is a bug here: no memory limit is set, and each stream
/// is finished once.
const STREAM_BUG: &str = "the stream has no memory limit and is finished once";

impl<'a> Chunks<'a> {
    fn tokenize(
        &self,
        arena: &'a Bump,
        options: Options,
        last_start_tag: Option<&str>,
        sink: &mut dyn FnMut(Token<'a>) -> io::Result<()>,
    ) -> io::Result<Vec<ParseError>> {
        let stream_options = StreamOptions::default().tokenizer(options);
        let pieces = self.bytes.chunks(self.size);
        match self.sniff {
            None => {
                let mut stream = StreamTokenizer::new(stream_options);
                stream.set_last_start_tag(last_start_tag);
                for piece in pieces {
                    for token in stream.feed(piece, arena).expect(STREAM_BUG) {
                        sink(token)?;
                    }
                }
                for token in stream.finish(arena).expect(STREAM_BUG) {
                    sink(token)?;
                }
                Ok(stream.take_errors())
            }
            Some(opts) => {
                let mut stream = SniffingStream::new(stream_options, opts.clone());
                // Before the first chunk, as for the raw stream: the
                // tokenizer underneath starts with it.
                stream.tokenizer_mut().set_last_start_tag(last_start_tag);
                for piece in pieces {
                    for token in stream.feed(piece, arena).expect(STREAM_BUG) {
                        sink(token)?;
                    }
                }
                for token in stream.finish(arena).expect(STREAM_BUG) {
                    sink(token)?;
                }
                Ok(stream.errors().to_vec())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use htmltok::encoding_rs::{SHIFT_JIS, UTF_8, WINDOWS_1252};

    /// The tokens (Debug form) and errors of `bytes`, whole or chunked.
    fn tokens(bytes: &[u8], decoding: &Decoding, chunk_size: Option<usize>) -> Vec<String> {
        let decoded = decode(bytes, decoding).unwrap();
        let arena = Bump::new();
        let page = Page::new("p", bytes, &decoded, chunk_size, &arena);
        let mut out = Vec::new();
        let errors = page
            .tokenize(Options::default().errors(true), None, &mut |t| {
                out.push(format!("{t:?}"));
                Ok(())
            })
            .unwrap();
        out.extend(errors.iter().map(|e| format!("{e:?}")));
        out
    }

    #[test]
    fn sniffing_decodes() {
        let sniff = Decoding::sniff(None);
        let sjis = b"<meta charset=shift_jis><p>\x93\xfa\x96\x7b\x8c\xea</p>";
        let d = decode(sjis, &sniff).unwrap();
        assert_eq!(d.encoding, Some((SHIFT_JIS, Confidence::Tentative)));
        assert!(d.text.ends_with("<p>\u{65e5}\u{672c}\u{8a9e}</p>"));
        // Valid UTF-8 stays UTF-8, without a copy; anything else is
        // windows-1252.
        let utf8 = "<p>caf\u{e9}".as_bytes();
        let d = decode(utf8, &sniff).unwrap();
        assert_eq!(d.encoding, Some((UTF_8, Confidence::Tentative)));
        assert!(matches!(d.text, Cow::Borrowed(_)));
        let d = decode(b"<p>caf\xe9", &sniff).unwrap();
        assert_eq!(d.encoding, Some((WINDOWS_1252, Confidence::Tentative)));
        assert_eq!(d.text, "<p>caf\u{e9}");
        // The override is certain; a BOM still wins, and is not text.
        let over = Decoding::sniff(Some(SHIFT_JIS));
        let d = decode(utf8, &over).unwrap();
        assert_eq!(d.encoding, Some((SHIFT_JIS, Confidence::Certain)));
        let d = decode(b"\xEF\xBB\xBF<p>\xc3\xa9", &over).unwrap();
        assert_eq!(d.encoding, Some((UTF_8, Confidence::Certain)));
        assert_eq!(d.text, "<p>\u{e9}");
        // Raw UTF-8: a BOM is a character, valid input is not copied, and
        // each maximal invalid subpart is one U+FFFD (a truncated 3-byte
        // sequence is one), as the Encoding Standard's decoder does.
        let d = decode(b"\xEF\xBB\xBF<p>\xff", &Decoding::Utf8).unwrap();
        assert_eq!((d.text.as_ref(), d.encoding), ("\u{FEFF}<p>\u{FFFD}", None));
        let valid = b"<p>ok";
        let d = decode(valid, &Decoding::Utf8).unwrap();
        assert_eq!(d.text.as_ptr(), valid.as_ptr());
        let d = decode(b"\xE2\x82x\xF0\x80", &Decoding::Utf8).unwrap();
        assert_eq!(d.text, "\u{FFFD}x\u{FFFD}\u{FFFD}");
    }

    #[test]
    fn chunks_give_the_whole_inputs_tokens() {
        // Non-ASCII only past the first 1024 bytes: the stream alone would
        // sniff windows-1252 there.
        let mut late_utf8 = "<p>".repeat(400).into_bytes();
        late_utf8.extend_from_slice("<b title=\u{e9}t\u{e9}>\u{65e5}\u{672c}</b>".as_bytes());
        let cases: [(&[u8], Decoding); 5] = [
            (&late_utf8, Decoding::sniff(None)),
            (b"<p a=1 a=2>caf\xe9 &amp", Decoding::sniff(None)),
            (
                b"<meta charset=shift_jis><p>\x93\xfa\x96\x7b</p>",
                Decoding::sniff(None),
            ),
            (b"\xFF\xFE<\0p\0>\0\xe9\0", Decoding::sniff(None)),
            (b"\xEF\xBB\xBF<p>\xff</p", Decoding::Utf8),
        ];
        for (bytes, decoding) in &cases {
            let want = tokens(bytes, decoding, None);
            assert!(want.len() > 1, "{want:?}");
            for size in [1, 2, 3, 7, 1000, 4096] {
                let got = tokens(bytes, decoding, Some(size));
                // The first difference, not two long lists.
                let at = (0..want.len().max(got.len())).find(|&i| got.get(i) != want.get(i));
                if let Some(i) = at {
                    panic!(
                        "chunks of {size}, token {i}: {:?} instead of {:?}",
                        got.get(i),
                        want.get(i)
                    );
                }
            }
        }
    }
}
