//! [`Chunks`]: an input handed out `--chunk-size` bytes at a time, its
//! head read first (what sniffing looks at), and the last chunk known as
//! such when it is handed out.

use std::borrow::Cow;
use std::io::{self, Read};

use crate::input::Reader;
use crate::spill::Spill;

/// How many bytes of an input are read before anything is tokenized, at
/// least: the MIME Sniffing Standard's resource header (`--skip-binary`),
/// which holds the 1024 bytes encoding sniffing looks at.
pub(super) const HEAD_LEN: usize = htmltok::mime::RESOURCE_HEADER_LEN;

/// An input handed out a chunk at a time, read a chunk ahead so that the
/// last chunk is known as such when it is handed out. Its head (at least
/// [`HEAD_LEN`] bytes, or a chunk if that is more) is read first, so that
/// what sniffing needs is there whatever the chunk size. An input already
/// in memory (a record's page) is all "held" from the start, and handed
/// out in slices of it: the same chunks, with no copy.
pub(super) struct Chunks<'r> {
    reader: Reader,
    size: usize,
    /// The bytes held from the start: the head as read, or the whole input
    /// when it was in memory. `held[..taken]` has been handed out.
    held: Cow<'r, [u8]>,
    taken: usize,
    /// The chunk to hand out after what is held.
    next: Vec<u8>,
    /// The chunk handed out last, when it came from `next`.
    current: Vec<u8>,
    /// Whether `reader` has ended.
    eof: bool,
    /// The read error that ended it early, if one did.
    error: Option<io::Error>,
    /// Whether a chunk has been handed out.
    started: bool,
}

impl<'r> Chunks<'r> {
    /// The input `reader` gives, in chunks of `size` bytes: its head is
    /// read now (an error is returned only when not a byte could be read).
    pub(super) fn new(reader: Reader, size: usize) -> io::Result<Chunks<'r>> {
        let mut chunks = Chunks::holding(reader, size, Cow::Borrowed(&[]));
        let mut head = Vec::new();
        chunks.fill(&mut head, size.max(HEAD_LEN));
        chunks.held = Cow::Owned(head);
        if let Some(e) = chunks.error.take() {
            if chunks.held().is_empty() {
                return Err(e);
            }
            chunks.error = Some(e);
        }
        // Read a chunk ahead, so that an input that fills the head exactly
        // is known to end there.
        chunks.refill();
        Ok(chunks)
    }

    /// An input that is `bytes`, all in memory.
    pub(super) fn in_memory(bytes: &'r [u8], size: usize) -> Chunks<'r> {
        let mut chunks = Chunks::holding(Box::new(io::empty()), size, Cow::Borrowed(bytes));
        chunks.eof = true;
        chunks
    }

    /// Chunks holding `held`, then what `reader` gives.
    fn holding(reader: Reader, size: usize, held: Cow<'r, [u8]>) -> Chunks<'r> {
        Chunks {
            reader,
            size,
            held,
            taken: 0,
            next: Vec::new(),
            current: Vec::new(),
            eof: false,
            error: None,
            started: false,
        }
    }

    /// The bytes held from the start (handed out or not).
    fn held(&self) -> &[u8] {
        &self.held
    }

    /// Where the head ends in what is held.
    fn head_end(&self) -> usize {
        self.held().len().min(self.size.max(HEAD_LEN))
    }

    /// The input's first bytes, before anything is handed out.
    pub(super) fn head(&self) -> &[u8] {
        let end = self.head_end();
        &self.held()[self.taken.min(end)..end]
    }

    /// The whole input, when it is all held and nothing has been handed
    /// out.
    pub(super) fn all(&self) -> Option<&[u8]> {
        let all = !self.started && self.next.is_empty() && self.eof && self.error.is_none();
        all.then(|| self.held())
    }

    /// Whether the whole input is one chunk.
    pub(super) fn whole(&self) -> bool {
        self.all().is_some_and(|all| all.len() <= self.size)
    }

    /// The read error that ended the input early, if one did (once).
    pub(super) fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// Reads into `buf` up to `size` bytes, or to the end.
    fn fill(&mut self, buf: &mut Vec<u8>, size: usize) {
        buf.clear();
        if self.eof {
            return;
        }
        buf.reserve_exact(size);
        // `read_to_end` reads into the spare capacity: a file's bytes
        // land there without the buffer being zero-filled first.
        match (&mut self.reader).take(size as u64).read_to_end(buf) {
            Ok(_) => self.eof = buf.len() < size,
            Err(e) => {
                self.error = Some(e);
                self.eof = true;
            }
        }
    }

    /// Reads the chunk after the one handed out last.
    fn refill(&mut self) {
        let mut next = core::mem::take(&mut self.next);
        self.fill(&mut next, self.size);
        self.next = next;
    }

    /// The next chunk, and whether it is the last.
    pub(super) fn take(&mut self) -> (&[u8], bool) {
        self.started = true;
        let held = self.held().len();
        if self.taken < held {
            // Pieces of the head end where it ends, as read.
            let end = if self.taken < self.head_end() {
                self.head_end()
            } else {
                held
            };
            let start = self.taken;
            self.taken = end.min(start + self.size);
            let last = self.taken == held && self.next.is_empty();
            return (&self.held()[start..self.taken], last);
        }
        core::mem::swap(&mut self.current, &mut self.next);
        self.refill();
        (&self.current, self.next.is_empty())
    }

    /// Reads the rest of the input now, before anything is handed out,
    /// showing `look` every byte in order (what is held, the chunk read
    /// ahead, the rest), and keeps what it read in a spill (memory, then a
    /// temporary file) to hand out later: for an input that cannot be read
    /// again (standard input) but must be looked at whole before it is
    /// tokenized. A read error ends the input there, now as it would have
    /// later. The error returned is the spill's.
    pub(super) fn read_rest(&mut self, mut look: impl FnMut(&[u8])) -> io::Result<()> {
        look(self.held());
        look(&self.next);
        let mut buf = vec![0; 64 * 1024];
        let mut spool = Spill::default();
        let ended = loop {
            match read_some(&mut self.reader, &mut buf) {
                Ok(0) => break None,
                Ok(n) => {
                    look(&buf[..n]);
                    io::Write::write_all(&mut spool, &buf[..n])?;
                }
                Err(e) => break Some(e),
            }
        };
        // What was read, then the error that ended it, if one did.
        let rest = spool.into_reader()?;
        self.reader = Box::new(rest.chain(Failing(ended)));
        Ok(())
    }
}

/// Reads into `buf`, again when interrupted.
pub(super) fn read_some(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => return other,
        }
    }
}

/// A reader that fails once with the error it holds, then is empty.
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An input in memory is handed out in the chunks a reader over the
    /// same bytes gives, the head's end included, each known as the last
    /// or not alike.
    #[test]
    fn chunks_from_memory_are_the_chunks_read() {
        let chunks = |mut chunks: Chunks| {
            let mut out = Vec::new();
            loop {
                let (chunk, last) = chunks.take();
                out.push((chunk.to_vec(), last));
                if last {
                    return out;
                }
            }
        };
        for len in [
            0,
            1,
            999,
            1000,
            1001,
            HEAD_LEN - 1,
            HEAD_LEN,
            HEAD_LEN + 1,
            5000,
        ] {
            let input: Vec<u8> = (0..len).map(|i| i as u8).collect();
            for size in [1, 7, 1000, HEAD_LEN, 2048, 1 << 20] {
                let read = Chunks::new(Box::new(io::Cursor::new(input.clone())), size).unwrap();
                let memory = Chunks::in_memory(&input, size);
                assert_eq!(read.head(), memory.head(), "{len} in {size}");
                assert_eq!(read.whole(), memory.whole(), "{len} in {size}");
                assert_eq!(chunks(read), chunks(memory), "{len} in {size}");
            }
        }
    }
}
