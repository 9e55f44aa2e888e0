//! `htmltok` with no arguments: `htmltok stats` on a sample page built into
//! the binary, and how many of its token strings are borrowed from it.

use std::io::{self, Write};
use std::process::ExitCode;

use htmltok::bumpalo::Bump;
use htmltok::{Options, Token};

use crate::page::Page;
use crate::stats::{self, Stats};

/// The sample page: a little of everything a tokenizer meets.
pub const SAMPLE: &str = include_str!("sample.html");

/// Runs `htmltok` with no arguments.
pub fn run() -> ExitCode {
    let mut arena = Bump::new();
    let stats = Stats::measure(&Page::whole("(sample)", SAMPLE, &arena));
    arena.reset();
    let (borrowed, in_arena) = count_strings(&Page::whole("(sample)", SAMPLE, &arena));
    let mut out = crate::stdout();
    let result = write_summary(&mut out, &stats, borrowed, in_arena).and_then(|()| out.flush());
    crate::exit_status(result.map(|()| false))
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
pub fn count_strings(page: &Page<'_>) -> (usize, usize) {
    let input_bytes = page.text.as_bytes().as_ptr_range();
    let (mut borrowed, mut in_arena) = (0, 0);
    page.tokenize(Options::default(), None, &mut |token| {
        for s in strings(&token).into_iter().filter(|s| !s.is_empty()) {
            if input_bytes.contains(&s.as_ptr()) {
                borrowed += 1;
            } else {
                in_arena += 1;
            }
        }
        Ok(())
    })
    .expect("counting fails never");
    (borrowed, in_arena)
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

    #[test]
    fn sample_stats() {
        let arena = Bump::new();
        let page = Page::whole("(sample)", SAMPLE, &arena);
        let s = Stats::measure(&page);
        assert!((2048..=4096).contains(&s.bytes), "{} bytes", s.bytes);
        assert_eq!(s.kinds[0], 1);
        assert!(s.errors > 0);
        let (borrowed, in_arena) = count_strings(&page);
        assert!(borrowed > in_arena && in_arena > 0);
    }

    #[test]
    fn strings_are_classified_by_pointer() {
        let arena = Bump::new();
        // "p" x4 and "plain" are slices of the input; "a < b" is not.
        let page = Page::whole("-", "<p>plain</p><p>a &lt; b</p>", &arena);
        assert_eq!(count_strings(&page), (5, 1));
    }
}
