//! One gzip member ([RFC 1952](https://www.rfc-editor.org/rfc/rfc1952))
//! per record, as Common Crawl writes its archives, so that a record can
//! be read alone from its offset.
//!
//! One deflate state serves every member, reset between them: a new
//! `GzEncoder` a record would allocate and clear the compressor's window
//! and tables (some 300 KB with zlib-rs) for every record, a cost that
//! grows with the records rather than with the bytes.

use std::io::{self, Write};

use flate2::{Compress, Compression, Crc, FlushCompress, Status};

/// The gzip header: magic, deflate, no flags, no time (so the same records
/// give the same bytes), no extra flags, operating system unknown.
const HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];

/// Writes gzip members, reusing one compressor.
pub(crate) struct GzipMembers {
    compress: Compress,
    crc: Crc,
    /// The member being made.
    buf: Vec<u8>,
}

impl GzipMembers {
    /// Members compressed at `level` (0–9).
    pub(crate) fn new(level: u32) -> GzipMembers {
        GzipMembers {
            compress: Compress::new(Compression::new(level.min(9)), false),
            crc: Crc::new(),
            buf: Vec::new(),
        }
    }

    /// Writes `parts`, one after the other, as one gzip member to `out`
    /// (in one `write_all`); returns its length.
    pub(crate) fn write(&mut self, parts: &[&[u8]], out: &mut impl Write) -> io::Result<u64> {
        self.buf.clear();
        self.buf.extend_from_slice(&HEADER);
        self.compress.reset();
        self.crc.reset();
        for part in parts {
            self.crc.update(part);
            self.deflate(part, FlushCompress::None)?;
        }
        self.deflate(&[], FlushCompress::Finish)?;
        self.buf.extend_from_slice(&self.crc.sum().to_le_bytes());
        self.buf.extend_from_slice(&self.crc.amount().to_le_bytes());
        out.write_all(&self.buf)?;
        Ok(self.buf.len() as u64)
    }

    fn deflate(&mut self, mut input: &[u8], flush: FlushCompress) -> io::Result<()> {
        loop {
            // Room for what deflate may write, which is at most a little
            // more than its input.
            self.buf.reserve(input.len() / 2 + 1024);
            let before = self.compress.total_in();
            let status = self
                .compress
                .compress_vec(input, &mut self.buf, flush)
                .map_err(io::Error::other)?;
            input = &input[(self.compress.total_in() - before) as usize..];
            let done = match flush {
                FlushCompress::Finish => status == Status::StreamEnd,
                _ => input.is_empty(),
            };
            if done {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn members_inflate_to_their_parts_and_stand_alone() {
        let mut members = GzipMembers::new(6);
        let mut out = Vec::new();
        let big: Vec<u8> = (0..300_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let first = members.write(&[b"hello, ", b"world"], &mut out).unwrap();
        let second = members.write(&[&big, b"", b"end"], &mut out).unwrap();
        let third = members.write(&[], &mut out).unwrap();
        assert_eq!(first + second + third, out.len() as u64);
        let inflate = |bytes: &[u8]| {
            let mut text = Vec::new();
            flate2::read::GzDecoder::new(bytes)
                .read_to_end(&mut text)
                .unwrap();
            text
        };
        assert_eq!(inflate(&out[..first as usize]), b"hello, world");
        let second_member = &out[first as usize..(first + second) as usize];
        let mut want = big.clone();
        want.extend_from_slice(b"end");
        assert_eq!(inflate(second_member), want);
        assert_eq!(inflate(&out[(first + second) as usize..]), b"");
        // All of them, as one stream of members.
        let mut all = Vec::new();
        flate2::read::MultiGzDecoder::new(&out[..])
            .read_to_end(&mut all)
            .unwrap();
        assert_eq!(all.len(), 12 + want.len());
    }
}
