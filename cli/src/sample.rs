//! `htmltok` with no arguments: tokenizes a sample page built into the
//! binary and prints a short summary of what it found.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use htmltok::bumpalo::Bump;
use htmltok::{ErrorCode, Options, ParseError, Token, Tokenizer};

/// The sample page: a little of everything a tokenizer meets.
pub const SAMPLE: &str = include_str!("sample.html");

/// The token kinds, in the order the summary lists them.
const KINDS: [&str; 5] = ["doctype", "start_tag", "end_tag", "comment", "text"];

/// What the summary reports about one page.
#[derive(Debug, Default)]
pub struct Summary<'a> {
    /// Size of the input in bytes.
    pub bytes: usize,
    /// Number of tokens of each kind, in the order of [`KINDS`].
    pub counts: [usize; KINDS.len()],
    /// The distinct parse error codes, in order of first occurrence, with
    /// how often each occurred.
    pub errors: Vec<(ErrorCode, usize)>,
    /// The text of the first `<title>`.
    pub title: Option<&'a str>,
    /// The `href` of the first `<a>`.
    pub first_href: Option<&'a str>,
    /// The data of the first comment.
    pub comment: Option<&'a str>,
    /// Non-empty token strings that are slices of the input.
    pub borrowed: usize,
    /// Non-empty token strings that were written to the arena.
    pub in_arena: usize,
}

/// Runs `htmltok` with no arguments.
pub fn run() -> ExitCode {
    let arena = Bump::new();
    let summary = summarize(SAMPLE, &arena);
    let mut out = BufWriter::new(io::stdout().lock());
    let result = write_summary(&mut out, &summary).and_then(|()| out.flush());
    crate::exit_status(result, false)
}

/// Tokenizes `input` as a browser would (auto-switching on, errors on) and
/// summarizes the result.
pub fn summarize<'a>(input: &'a str, arena: &'a Bump) -> Summary<'a> {
    let mut tok = Tokenizer::with_options(input, arena, Options::default().errors(true));
    let tokens: Vec<Token<'a>> = tok.by_ref().collect();
    let mut summary = Summary {
        bytes: input.len(),
        ..Summary::default()
    };
    for (i, token) in tokens.iter().enumerate() {
        count(&mut summary, input, token);
        find_examples(&mut summary, token, tokens.get(i + 1));
    }
    summary.errors = count_errors(tok.errors());
    summary
}

/// The distinct error codes in order of first occurrence, with how often
/// each occurred.
fn count_errors(errors: &[ParseError]) -> Vec<(ErrorCode, usize)> {
    let mut counts: Vec<(ErrorCode, usize)> = Vec::new();
    for error in errors {
        match counts.iter_mut().find(|(code, _)| *code == error.code) {
            Some((_, n)) => *n += 1,
            None => counts.push((error.code, 1)),
        }
    }
    counts
}

/// Counts the token by kind, and its strings by where they live.
fn count(summary: &mut Summary<'_>, input: &str, token: &Token<'_>) {
    let kind = crate::tokens::kind(token);
    if let Some(i) = KINDS.iter().position(|k| *k == kind) {
        summary.counts[i] += 1;
    }
    let input_bytes = input.as_bytes().as_ptr_range();
    for s in strings(token).into_iter().filter(|s| !s.is_empty()) {
        if input_bytes.contains(&s.as_ptr()) {
            summary.borrowed += 1;
        } else {
            summary.in_arena += 1;
        }
    }
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

/// Notes the first title, link and comment.
fn find_examples<'a>(summary: &mut Summary<'a>, token: &Token<'a>, next: Option<&Token<'a>>) {
    match token {
        Token::StartTag(t) if t.name == "title" && summary.title.is_none() => {
            if let Some(Token::Text(text)) = next {
                summary.title = Some(text.data);
            }
        }
        Token::StartTag(t) if t.name == "a" && summary.first_href.is_none() => {
            summary.first_href = t.attr_value("href");
        }
        Token::Comment(c) if summary.comment.is_none() => summary.comment = Some(c.data),
        _ => {}
    }
}

/// Prints the summary for people.
pub fn write_summary(out: &mut impl Write, s: &Summary<'_>) -> io::Result<()> {
    let total: usize = s.counts.iter().sum();
    writeln!(out, "htmltok: the sample page built into this binary")?;
    writeln!(out, "  {} bytes, {total} tokens", s.bytes)?;
    for (kind, n) in KINDS.iter().zip(s.counts) {
        writeln!(out, "    {kind:<10} {n:>4}")?;
    }
    write_errors(out, &s.errors)?;
    writeln!(out, "examples:")?;
    let show = |v: Option<&str>| v.map_or_else(|| "(none)".to_owned(), |v| format!("{v:?}"));
    writeln!(out, "  <title> text     {}", show(s.title))?;
    writeln!(out, "  first link href  {}", show(s.first_href))?;
    writeln!(out, "  first comment    {}", show(s.comment))?;
    let strings = s.borrowed + s.in_arena;
    writeln!(
        out,
        "strings: {} of {strings} borrowed from the input (zero-copy), {} written to the arena",
        s.borrowed, s.in_arena
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "hint: run `htmltok tokens FILE` to see every token of your own page (`htmltok --help` for more)"
    )
}

fn write_errors(out: &mut impl Write, errors: &[(ErrorCode, usize)]) -> io::Result<()> {
    let total: usize = errors.iter().map(|(_, n)| n).sum();
    writeln!(out, "  {total} parse errors")?;
    for (code, n) in errors {
        writeln!(out, "    {code} ({n})")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_summary() {
        let arena = Bump::new();
        let s = summarize(SAMPLE, &arena);
        assert!((2048..=4096).contains(&s.bytes), "{} bytes", s.bytes);
        assert_eq!(s.counts[0], 1);
        assert_eq!(s.title, Some("The Harbour Café — Fish & Chips"));
        assert_eq!(s.first_href, Some("/menu?lang=en&sort=price"));
        assert!(s.borrowed > s.in_arena && s.in_arena > 0);
    }

    #[test]
    fn strings_are_classified_by_pointer() {
        let arena = Bump::new();
        let s = summarize("<p>plain</p><p>a &lt; b</p>", &arena);
        // "p" x4 and "plain" are slices of the input; "a < b" is not.
        assert_eq!((s.borrowed, s.in_arena), (5, 1));
    }
}
