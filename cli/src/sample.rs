//! `htmltok` with no arguments: `htmltok stats` on a sample page built into
//! the binary, and how many of its token strings are borrowed from it.

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::Token;

use crate::page::{Context, Decoding, Event, Page, Reading, Tokenizing};
use crate::stats::{self, Stats};
use crate::{exit, stdio};

/// The sample page: a little of everything a tokenizer meets.
pub const SAMPLE: &str = include_str!("sample.html");

/// The sample as an input.
fn sample_page(reading: &Reading) -> Page<'_> {
    Page::in_memory("(sample)", SAMPLE.as_bytes(), reading)
}

/// Runs `htmltok` with no arguments.
pub fn run() -> ExitCode {
    let reading = Reading::new(Decoding::sniff(None));
    let result = (|| {
        let stats = Stats::measure(&mut sample_page(&reading))?;
        let (borrowed, in_arena) = count_strings(&mut sample_page(&reading))?;
        let mut out = stdio::stdout();
        write_summary(&mut out, &stats, borrowed, in_arena)?;
        out.flush()?;
        Ok(crate::run::Report::default())
    })();
    exit::status(result)
}

/// Prints the stats of the sample, the strings line and a hint.
fn write_summary(
    out: &mut impl Write,
    stats: &Stats,
    borrowed: usize,
    in_arena: usize,
) -> io::Result<()> {
    writeln!(
        out,
        "htmltok stats of the sample page built into this binary:"
    )?;
    writeln!(out, "{}", stats::table_header())?;
    writeln!(out, "{}", stats::table_row(stats, "(sample)"))?;
    writeln!(
        out,
        "strings: {borrowed} of {} borrowed from the input (zero-copy), {in_arena} written to the arena",
        borrowed + in_arena
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "hint: run `htmltok stats DIR` on your own pages, or \
         `htmltok text|links|meta|errors|tokens FILE`\n      (`htmltok --help` for more)"
    )
}

/// How many non-empty token strings of a page are slices of its text, and
/// how many were written to the arena.
pub fn count_strings(page: &mut Page<'_>) -> io::Result<(usize, usize)> {
    let (mut borrowed, mut in_arena) = (0, 0);
    let mut count = |strings: &[&str], input: &str| {
        let input_bytes = input.as_bytes().as_ptr_range();
        for s in strings.iter().filter(|s| !s.is_empty()) {
            if input_bytes.contains(&s.as_ptr()) {
                borrowed += 1;
            } else {
                in_arena += 1;
            }
        }
    };
    page.tokenize(
        &Tokenizing::default(),
        &mut |event: Event<'_, '_>, context: &Context| {
            match event {
                Event::Token(token) => count(&strings(token), context.decoded()),
                Event::Text { text, .. } => count(&[text.data], context.decoded()),
                _ => {}
            }
            Ok(())
        },
    )?;
    Ok((borrowed, in_arena))
}

/// Every string a token carries.
fn strings<'a>(token: &Token<'a>) -> Vec<&'a str> {
    match token {
        Token::Doctype(d) => [d.name, d.public_id, d.system_id]
            .into_iter()
            .flatten()
            .collect(),
        Token::StartTag(t) | Token::EndTag(t) => std::iter::once(t.name)
            .chain(t.attributes.iter().flat_map(|a| [a.name, a.value]))
            .collect(),
        Token::Comment(c) => vec![c.data],
        Token::Text(t) => vec![t.data],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_page<'r>(text: &'static str, reading: &'r Reading) -> Page<'r> {
        let reader = Box::new(io::Cursor::new(text.as_bytes()));
        Page::open("-", reader, None, reading).unwrap()
    }

    #[test]
    fn sample_stats() {
        let reading = Reading::new(Decoding::sniff(None));
        let s = Stats::measure(&mut open_page(SAMPLE, &reading)).unwrap();
        assert!((2048..=4096).contains(&s.bytes), "{} bytes", s.bytes);
        assert_eq!(s.kinds[0], 1);
        assert!(s.errors > 0);
        let (borrowed, in_arena) = count_strings(&mut open_page(SAMPLE, &reading)).unwrap();
        assert!(borrowed > in_arena && in_arena > 0);
    }

    #[test]
    fn strings_are_classified_by_pointer() {
        let reading = Reading::new(Decoding::sniff(None));
        // "p" x4 and "plain" are slices of the input; "a < b" is not.
        let mut page = open_page("<p>plain</p><p>a &lt; b</p>", &reading);
        assert_eq!(count_strings(&mut page).unwrap(), (5, 1));
    }
}
