//! The driver's tests: what a command is handed is the same at every chunk
//! size, from a reader or from memory.

use std::io;

use htmltok::{Options, Token};

use super::*;

/// What a command sees of `input` read in chunks of `size` (from a
/// reader, or from memory when `in_memory`): every event, text runs
/// joined, errors with their positions.
fn events(input: &[u8], size: usize, decoding: &Decoding, in_memory: bool) -> Vec<String> {
    let reading = Reading {
        chunk_size: size,
        ..Reading::new(decoding.clone())
    };
    let mut page = if in_memory {
        Page::in_memory("-", input, &reading)
    } else {
        let reader = Box::new(io::Cursor::new(input.to_vec()));
        Page::open("-", reader, None, &reading).unwrap()
    };
    let tokenizing = Tokenizing {
        options: Options::default().errors(true),
        error_positions: ErrorPositions::LinesAndColumns,
        ..Tokenizing::default()
    };
    let mut out = Vec::new();
    let mut text = String::new();
    page.tokenize(&tokenizing, &mut |event: Event<'_, '_>, _: &Context| {
        match event {
            Event::Token(token) => out.push(format!("{token:?}")),
            Event::Text {
                text: piece,
                piece: at,
            } => {
                assert!((at == RunPiece::Starts) == text.is_empty() && !piece.data.is_empty());
                text.push_str(piece.data);
            }
            Event::TextEnd { start, end } => {
                out.push(format!(
                    "text {:?} {start}..{end}",
                    core::mem::take(&mut text)
                ));
            }
            Event::Error(error, at) => out.push(format!("{error:?} at {at:?}")),
        }
        Ok(())
    })
    .unwrap();
    assert!(page.failure().is_none());
    out
}

/// A sink without runs ([`EachToken`]) gets every token, text pieces as
/// tokens, at every chunk size; an error of its closure stops the run
/// at that token and is the run's error.
#[test]
fn tokens_sinks_pause_on_their_errors() {
    let html = b"<p>one <b>two</b> three</p><!--c--><p>four";
    for size in [1, 3, 7, 1 << 20] {
        let reading = Reading {
            chunk_size: size,
            ..Reading::new(Decoding::Utf8)
        };
        let tokenizing = Tokenizing::default();
        let mut page = Page::in_memory("-", html, &reading);
        let mut text = String::new();
        let mut tags = 0;
        page.tokenize(
            &tokenizing,
            &mut EachToken::new(|event: Event<'_, '_>, _: &Context| {
                match event {
                    Event::Token(Token::Text(piece)) => text.push_str(piece.data),
                    Event::Token(_) => tags += 1,
                    other => panic!("{other:?}"),
                }
                Ok(())
            }),
        )
        .unwrap();
        assert_eq!(
            (text.as_str(), tags),
            ("one two threefour", 6),
            "size {size}"
        );
        let mut page = Page::in_memory("-", html, &reading);
        let mut seen = 0;
        let result = page.tokenize(
            &tokenizing,
            &mut EachToken::new(|_: Event<'_, '_>, _: &Context| {
                seen += 1;
                if seen == 3 {
                    return Err(io::Error::other("stop"));
                }
                Ok(())
            }),
        );
        assert_eq!(result.unwrap_err().to_string(), "stop", "size {size}");
        assert_eq!(seen, 3, "size {size}");
    }
}

/// Random pages from pieces that make every kind of construct and cut
/// each at every place: the same events whatever the chunk size
/// (errors in a chunk come after its tokens, so they are compared
/// apart).
#[test]
fn every_chunk_size_gives_the_same_events() {
    let pieces: &[&str] = &[
        "<p>",
        "</p>",
        "<a href='x&amp;y'>",
        "text ",
        "\r\n",
        "\r",
        "\0",
        "&amp;",
        "&notin",
        "&#x41",
        "</>",
        "<!---->",
        "<!--c-->",
        "<!DOCTYPE html>",
        "<script>",
        "</script>",
        "<svg>",
        "<![CDATA[",
        "]]>",
        "<![CDATA[]]>",
        "caf\u{e9}",
        "\u{1F600}",
        "<title>",
        "</title>",
        "<",
        "&",
        "\u{7f}",
        "<b a=1 a=2>",
        "<?x>",
    ];
    let mut seed = 0x853C_49E6_748F_EA9Bu64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let sort_errors = |mut events: Vec<String>| {
        let errors: Vec<String> = events
            .iter()
            .filter(|e| e.starts_with("ParseError"))
            .cloned()
            .collect();
        events.retain(|e| !e.starts_with("ParseError"));
        events.extend(errors);
        events
    };
    for _ in 0..600 {
        let mut page = String::new();
        for _ in 0..next(12) + 1 {
            page.push_str(pieces[next(pieces.len())]);
        }
        for decoding in [Decoding::Utf8, Decoding::sniff(None)] {
            let whole = sort_errors(events(page.as_bytes(), 1 << 20, &decoding, false));
            for size in [1, 2, 3, 5, 8] {
                for in_memory in [false, true] {
                    let got = sort_errors(events(page.as_bytes(), size, &decoding, in_memory));
                    assert_eq!(got, whole, "{page:?} in chunks of {size}, {in_memory}");
                }
            }
        }
    }
}
