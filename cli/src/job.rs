//! [`Job`]: what a command does with each input, the one thing the driver
//! (`run.rs`) and the archive reader (`archive.rs`) ask of a command.

use std::io::{self, Write};

use crate::page::{Page, Reading};

/// What a command does with each input.
pub trait Job: Sync {
    /// What processing one input tells the command's final summary.
    type Summary: Send;

    /// How inputs are read: decoded how, in what chunks, within what
    /// limits.
    fn reading(&self) -> &Reading;

    /// What to write between the outputs of two inputs (after an input
    /// that was processed, before the next one that is): nothing by
    /// default.
    fn separator(&self) -> &[u8] {
        b""
    }

    /// Processes one input, writing its output to `out`. An input that
    /// ends early (see [`Page::failure`]) is processed as if it ended there.
    fn process<W: Write>(&self, page: &mut Page<'_>, out: &mut W) -> io::Result<Self::Summary>;
}

/// What the job `job(reading)` writes for `html` (named `f`, encoding
/// sniffed) read in chunks of each of `sizes`: the same for every size
/// (asserted), returned once.
#[cfg(test)]
pub fn output_at_sizes<J: Job>(html: &str, sizes: &[usize], job: impl Fn(Reading) -> J) -> String {
    let mut outputs = Vec::new();
    for &size in sizes {
        let reading = Reading {
            chunk_size: size,
            ..Reading::new(crate::page::Decoding::sniff(None))
        };
        let reader = Box::new(io::Cursor::new(html.as_bytes().to_vec()));
        let mut page = Page::open("f", reader, None, &reading).expect("a page");
        let mut out = Vec::new();
        job(reading.clone())
            .process(&mut page, &mut out)
            .expect("processed");
        outputs.push(String::from_utf8(out).expect("UTF-8"));
    }
    assert!(
        outputs.iter().all(|o| *o == outputs[0]),
        "{html:?}: {outputs:#?}"
    );
    outputs.swap_remove(0)
}
