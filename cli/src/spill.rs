//! [`Spill`]: bytes kept in memory up to a budget, then in a temporary file.
//!
//! Whatever a command must hold back for a while (an input's output until
//! its turn comes with `--jobs`, parse errors that are printed after the
//! tokens, links waiting for the page's `<base>`, the `<meta>`s of a page
//! whose JSON object is written at its end) can grow with the input. A
//! spill keeps the common case in memory and moves the rest to an
//! anonymous temporary file, deleted when the spill is dropped, so memory
//! stays bounded for any input.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};

/// How many bytes a spill keeps in memory before it moves to a file.
pub const SPILL_BUDGET: usize = 1 << 20;

/// Bytes written in order and read back in order (see the module docs).
#[derive(Debug)]
pub struct Spill {
    memory: Vec<u8>,
    /// The temporary file, once the budget is passed (written through a
    /// buffer: spills are written a few bytes at a time).
    file: Option<BufWriter<File>>,
    budget: usize,
    len: u64,
}

impl Default for Spill {
    fn default() -> Spill {
        Spill::new(SPILL_BUDGET)
    }
}

impl Spill {
    /// An empty spill that keeps up to `budget` bytes in memory.
    pub fn new(budget: usize) -> Spill {
        Spill {
            memory: Vec::new(),
            file: None,
            budget,
            len: 0,
        }
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Copies everything written to `out`, in order, and empties the spill.
    pub fn drain_to(&mut self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        if let Some(file) = self.file.take() {
            let mut file = file.into_inner().map_err(|e| e.into_error())?;
            file.seek(SeekFrom::Start(0))?;
            io::copy(&mut file, out)?;
        }
        out.write_all(&self.memory)?;
        self.memory.clear();
        self.len = 0;
        Ok(())
    }

    /// A reader of everything written, in order.
    pub fn into_reader(mut self) -> io::Result<Box<dyn Read + Send>> {
        let memory = io::Cursor::new(core::mem::take(&mut self.memory));
        match self.file.take() {
            Some(file) => {
                let mut file = file.into_inner().map_err(|e| e.into_error())?;
                file.seek(SeekFrom::Start(0))?;
                Ok(Box::new(io::BufReader::new(file).chain(memory)))
            }
            None => Ok(Box::new(memory)),
        }
    }
}

impl Write for Spill {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.file.is_none() && self.memory.len() + bytes.len() > self.budget {
            let mut file = tempfile::tempfile().map_err(|e| {
                io::Error::new(e.kind(), format!("cannot create a temporary file: {e}"))
            })?;
            file.write_all(&self.memory)?;
            self.memory = Vec::new();
            self.file = Some(BufWriter::with_capacity(64 * 1024, file));
        }
        match &mut self.file {
            Some(file) => file.write_all(bytes)?,
            None => self.memory.extend_from_slice(bytes),
        }
        self.len += bytes.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_across_the_budget() {
        let mut spill = Spill::new(10);
        spill.write_all(b"hello ").unwrap();
        assert!(spill.file.is_none());
        spill.write_all(b"world, ").unwrap();
        assert!(spill.file.is_some() && spill.memory.is_empty());
        spill.write_all(b"again").unwrap();
        assert_eq!(spill.len, 18);
        let mut out = Vec::new();
        spill.drain_to(&mut out).unwrap();
        assert_eq!(out, b"hello world, again");
        assert!(spill.is_empty());
        // Reused after draining: memory first again, and read as a stream.
        spill.write_all(b"abc").unwrap();
        assert!(spill.file.is_none());
        spill.write_all(b"0123456789abcdef").unwrap();
        let mut back = String::new();
        spill
            .into_reader()
            .unwrap()
            .read_to_string(&mut back)
            .unwrap();
        assert_eq!(back, "abc0123456789abcdef");
    }

    #[test]
    fn large_spills_read_back_whole() {
        let mut spill = Spill::new(100);
        let data: Vec<u8> = (0..3 * SPILL_BUDGET + 17)
            .map(|i| (i % 251) as u8)
            .collect();
        for piece in data.chunks(999) {
            spill.write_all(piece).unwrap();
        }
        let mut back = Vec::new();
        spill.drain_to(&mut back).unwrap();
        assert_eq!(back, data);
    }
}
