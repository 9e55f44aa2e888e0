//! `htmltok text`: the visible text of pages, as the library's
//! [`htmltok::extract`] gives it, written out as it is found.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use htmltok::Token;
use htmltok::extract::{ExtractOptions, Extractor, MainContent, TextFormat};
use htmltok::url::Url;

use crate::args::TextArgs;
use crate::extracting::{Feeding, feed};
use crate::job::Job;
use crate::json::write_str_contents;
use crate::label::Label;
use crate::page::{Context, Event, Page, Reading, Sink, TextDelivery, Tokenizing};
use crate::{exit, stdio};

/// Runs `htmltok text`.
pub fn run(args: &TextArgs) -> ExitCode {
    let inputs = args.input.inputs();
    let output = if args.offsets {
        TextOutput::Runs
    } else if inputs.len() > 1 {
        TextOutput::Headed
    } else {
        TextOutput::Plain
    };
    let held = args.text.main_content || args.text.format == TextFormat::Markdown;
    let reading = args.input.reading(args.read.decoding());
    // A page held until its end is held under the memory limit; text
    // written out as it goes needs none.
    let limit = held.then(|| reading.held_limit());
    let job = TextJob {
        options: args
            .text
            .extract_options()
            .offsets(args.offsets)
            .memory_limit(limit),
        held,
        main_content: args.text.main_content,
        output,
        reading,
    };
    let mut out = stdio::stdout();
    let result = crate::run::run(&job, &inputs, &args.input.settings(), &mut out, |_, ()| {});
    exit::status(result)
}

/// How `htmltok text` writes each page's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TextOutput {
    /// The text, its lines as they are (a record's page's as a JSON line).
    Plain,
    /// The same, each input's after a `==> FILE <==` header and a blank
    /// line between inputs (as `tail` does): for several inputs.
    Headed,
    /// JSON Lines of the text's runs with their offsets (`--offsets`).
    Runs,
}

/// `htmltok text` as a [`Job`]: the library's [`Extractor`], text only,
/// written out as it is found.
struct TextJob {
    /// The extraction, as the arguments ask.
    options: ExtractOptions,
    /// Whether the text is known only once the page is read (main
    /// content, Markdown).
    held: bool,
    /// Main content only (a record's line says which case applied).
    main_content: bool,
    output: TextOutput,
    reading: Reading,
}

impl Job for TextJob {
    type Summary = ();

    fn reading(&self) -> &Reading {
        &self.reading
    }

    /// A blank line between the texts of two inputs (as `tail` does).
    fn separator(&self) -> &[u8] {
        match self.output {
            TextOutput::Headed => b"\n",
            TextOutput::Plain | TextOutput::Runs => b"",
        }
    }

    fn process<W: Write>(&self, page: &mut Page<'_>, out: &mut W) -> io::Result<()> {
        let tokenizing = Tokenizing {
            options: self.options.tokenizer_options(),
            ..Tokenizing::default()
        };
        let label = page.label();
        // A record's links resolve against its address, as in its WET
        // record (only Markdown writes them).
        let mut extractor = match label.record {
            Some(record) if self.options.text_format() == TextFormat::Markdown => {
                Extractor::new(&self.options.clone().url(Url::parse(&record.uri).ok()))
            }
            _ => Extractor::new(&self.options),
        };
        if self.held {
            let main_content = self.main_content;
            return write_held(
                page,
                &tokenizing,
                extractor,
                label,
                self.output,
                main_content,
                out,
            );
        }
        if self.output == TextOutput::Runs {
            page.tokenize(&tokenizing, &mut |event: Event<'_, '_>, _: &Context| {
                if let Event::TextEnd { start, end } = event {
                    return write_run(out, label, &mut extractor, start, end);
                }
                feed(&mut extractor, &event);
                Ok(())
            })?;
            return Ok(());
        }
        // Text is written out at the end of a chunk once `FLUSH_AT` bytes
        // are held: room for that from the start, so that a page of one
        // chunk (most) does not regrow it (each regrowing copies the text
        // held).
        extractor.reserve_text(FLUSH_AT + (32 << 10));
        if label.record.is_some() {
            // A record's text is a JSON line: its lines, and the record's
            // fields with them.
            out.write_all(b"{")?;
            label.write_json(out)?;
            out.write_all(b",\"text\":\"")?;
            write_text(page, &tokenizing, &mut extractor, out, write_str_contents)?;
            return out.write_all(b"\"}\n");
        }
        if self.output == TextOutput::Headed {
            writeln!(out, "==> {label} <==")?;
        }
        write_text(page, &tokenizing, &mut extractor, out, |out, text| {
            out.write_all(text.as_bytes())
        })?;
        if extractor.text_len() > 0 {
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// Tokenizes the page and writes its text once it is read (main content,
/// Markdown): plain text, a record's JSON line (which says which case of
/// main content applied), or the JSON lines of its runs.
fn write_held<W: Write>(
    page: &mut Page<'_>,
    tokenizing: &Tokenizing,
    mut extractor: Extractor,
    label: Label<'_>,
    output: TextOutput,
    main_content: bool,
    out: &mut W,
) -> io::Result<()> {
    // The whole text or Markdown is held: room for what the page usually
    // yields (its size when it is known, else its first chunk's), where it
    // grew by doubling, each time copying what it held.
    let size = page.size_hint().unwrap_or(page.head().len());
    extractor.reserve_page(size);
    page.tokenize(
        tokenizing,
        &mut Feeding {
            extractor: &mut extractor,
        },
    )?;
    let found = extractor.finish();
    // Past the limit: what was read is written, and the failure reported
    // after it.
    if let Some(error) = &found.memory_limit {
        page.fail_at_limit(error);
    }
    if output == TextOutput::Runs {
        for run in &found.runs {
            out.write_all(b"{")?;
            label.write_json(out)?;
            out.write_all(b",\"text\":")?;
            serde_json::to_writer(&mut *out, &found.text[run.text.clone()])?;
            writeln!(
                out,
                ",\"start\":{},\"end\":{}}}",
                run.source.start, run.source.end
            )?;
        }
        return Ok(());
    }
    if label.record.is_some() {
        out.write_all(b"{")?;
        label.write_json(out)?;
        out.write_all(b",\"text\":\"")?;
        write_str_contents(out, &found.text)?;
        if !main_content {
            return out.write_all(b"\"}\n");
        }
        return writeln!(
            out,
            "\",\"main_content\":\"{}\"}}",
            main_content_name(found.main_content)
        );
    }
    if output == TextOutput::Headed {
        writeln!(out, "==> {label} <==")?;
    }
    if !found.text.is_empty() {
        out.write_all(found.text.as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// What a record's `main_content` field says.
fn main_content_name(outcome: MainContent) -> &'static str {
    match outcome {
        MainContent::Found => "found",
        MainContent::Empty => "empty",
        MainContent::OverLimit => "over_limit",
        _ => "all_text",
    }
}

/// Tokenizes the page and writes its text with `write` as it is found, a
/// piece at a time.
fn write_text<W: Write>(
    page: &mut Page<'_>,
    tokenizing: &Tokenizing<'_>,
    extractor: &mut Extractor,
    out: &mut W,
    write: fn(&mut W, &str) -> io::Result<()>,
) -> io::Result<()> {
    let mut sink = Writing {
        extractor,
        out,
        write,
    };
    page.tokenize(tokenizing, &mut sink)?;
    write(out, extractor.pending_text())?;
    extractor.clear_text();
    Ok(())
}

/// The sink of [`write_text`]: every event to the extractor, the text
/// written out at the end of a chunk once [`FLUSH_AT`] bytes are held.
struct Writing<'e, 'w, W> {
    extractor: &'e mut Extractor,
    out: &'w mut W,
    write: fn(&mut W, &str) -> io::Result<()>,
}

impl<W: Write> Sink for Writing<'_, '_, W> {
    /// Text pieces come as tokens, which is all the extractor needs.
    const TEXT: TextDelivery = TextDelivery::Tokens;

    /// Parse errors (none: the run does not ask for them).
    fn event(&mut self, event: Event<'_, '_>, _: &Context<'_, '_>) -> io::Result<()> {
        feed(self.extractor, &event);
        Ok(())
    }

    /// Compiled into the tokenizer's loop, as the library's `extract` is.
    /// The loop never pauses for the text: what is held is checked once a
    /// chunk, not on every token (which cost 5 instructions a token, 2.7 M
    /// over the corpus).
    #[inline(always)]
    fn token(&mut self, token: &Token<'_>, _: &Context<'_, '_>) -> ControlFlow<()> {
        self.extractor.token(token);
        ControlFlow::Continue(())
    }

    /// Writes the text out once [`FLUSH_AT`] bytes are held: at most that
    /// and the text of one chunk (`--chunk-size`) are held at a time.
    fn chunk_done(&mut self) -> io::Result<()> {
        if self.extractor.held_text_len() >= FLUSH_AT {
            (self.write)(self.out, self.extractor.pending_text())?;
            self.extractor.clear_text();
        }
        Ok(())
    }
}

/// How much text is gathered before it is written out, at the end of a
/// chunk.
const FLUSH_AT: usize = 64 << 10;

/// Writes the JSON line of the text run that ended at `end` (begun at
/// `start`), if it showed any text: `{file, text, start, end}` (and a
/// record's fields after `file`).
fn write_run(
    out: &mut impl Write,
    label: Label<'_>,
    extractor: &mut Extractor,
    start: usize,
    end: usize,
) -> io::Result<()> {
    let runs = extractor.take_runs();
    if let (Some(first), Some(last)) = (runs.first(), runs.last()) {
        let taken = extractor.text_len() - extractor.pending_text().len();
        let text = &extractor.pending_text()[first.text.start - taken..last.text.end - taken];
        out.write_all(b"{")?;
        label.write_json(out)?;
        out.write_all(b",\"text\":")?;
        serde_json::to_writer(&mut *out, text)?;
        writeln!(out, ",\"start\":{start},\"end\":{end}}}")?;
    }
    extractor.clear_text();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The visible text of `html` read in chunks of `size`, and its runs
    /// with offsets.
    fn texts(html: &str, size: usize) -> (String, String) {
        let job = |output| {
            move |reading| TextJob {
                options: ExtractOptions::default()
                    .links(false)
                    .metadata(false)
                    .offsets(output == TextOutput::Runs),
                held: false,
                main_content: false,
                output,
                reading,
            }
        };
        (
            crate::job::output_at_sizes(html, &[size], job(TextOutput::Plain)),
            crate::job::output_at_sizes(html, &[size], job(TextOutput::Runs)),
        )
    }

    /// The visible text of `html`, the same in chunks of every size.
    fn text(html: &str) -> String {
        let whole = texts(html, 1 << 20);
        for size in [1, 2, 3, 7] {
            assert_eq!(texts(html, size), whole, "chunks of {size}: {html:?}");
        }
        whole.0
    }

    /// The sizes of the pieces of text [`write_text`] writes out.
    #[derive(Default)]
    struct Pieces(Vec<usize>);

    impl Write for Pieces {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn text_is_written_out_as_chunks_end() {
        // 168 KB of text in chunks of 16 KiB: written out at the end of
        // the chunk in which 64 KiB came to be held, and the rest at the
        // end; never more than 64 KiB and a chunk's text at once.
        let html = "<p>one two three four five six</p>\n".repeat(6_000);
        let chunk = 16 << 10;
        let reading = Reading {
            chunk_size: chunk,
            ..Reading::new(crate::page::Decoding::sniff(None))
        };
        let reader = Box::new(io::Cursor::new(html.clone().into_bytes()));
        let mut page = Page::open("p", reader, None, &reading).unwrap();
        let options = ExtractOptions::default().links(false).metadata(false);
        let mut extractor = Extractor::new(&options);
        let mut out = Pieces::default();
        let tokenizing = Tokenizing::default();
        write_text(
            &mut page,
            &tokenizing,
            &mut extractor,
            &mut out,
            |out, text| {
                out.0.push(text.len());
                Ok(())
            },
        )
        .unwrap();
        let pieces = &out.0;
        // Each paragraph: its 27 bytes and a line break (but the last).
        assert_eq!(pieces.iter().sum::<usize>(), 6_000 * 28 - 1);
        assert!(pieces.len() >= 3, "{pieces:?}");
        // What is held counts the gathered text before its whitespace is
        // collapsed, so a piece may come out a little under 64 KiB (here
        // by the few line breaks between paragraphs gathered last).
        let (last, before) = pieces.split_last().unwrap();
        assert!(*last < FLUSH_AT + chunk, "{pieces:?}");
        for &piece in before {
            assert!(
                (FLUSH_AT - 64..FLUSH_AT + chunk).contains(&piece),
                "{pieces:?}"
            );
        }
    }

    /// The rules are the library's (tests/extract.rs); here, what the
    /// command adds: a newline at the end of a page's text, and the runs
    /// of `--offsets` as JSON lines with their source spans.
    #[test]
    fn text_and_runs_as_the_command_writes_them() {
        let html = "<p>  Fish &amp;\n chips </p><script>x</script>a<b>b</b><pre>c\nd</pre>";
        assert_eq!(text(html), "Fish & chips\nab\nc\nd\n");
        let runs = texts(html, 1 << 20).1;
        let want = [
            r#"{"file":"f","text":"Fish & chips","start":3,"end":23}"#,
            r#"{"file":"f","text":"a","start":45,"end":46}"#,
            r#"{"file":"f","text":"b","start":49,"end":50}"#,
            r#"{"file":"f","text":"c\nd","start":59,"end":62}"#,
        ];
        assert_eq!(runs.lines().collect::<Vec<_>>(), want);
        assert_eq!(text(""), "");
        assert_eq!(text("<p> </p>"), "");
    }
}
