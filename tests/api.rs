//! Tests of the public API itself: what is borrowed and what goes to the
//! arena, spans, duplicate attributes, auto-switching of content models, and
//! driving the tokenizer as a tree builder would.

use htmltok::bumpalo::Bump;
use htmltok::{Element, ErrorCode, LineIndex, Options, Span, State, Tag, Token, Tokenizer};
use std::path::PathBuf;

fn tokens<'a>(input: &'a str, arena: &'a Bump) -> Vec<Token<'a>> {
    Tokenizer::new(input, arena).collect()
}

/// Each tag's kind, name and element, in order.
fn tag_elements<'a>(tokens: &[Token<'a>]) -> Vec<(bool, &'a str, Element)> {
    tokens
        .iter()
        .filter_map(|t| match t {
            Token::StartTag(tag) => Some((false, tag.name, tag.element)),
            Token::EndTag(tag) => Some((true, tag.name, tag.element)),
            _ => None,
        })
        .collect()
}

fn is_borrowed(input: &str, s: &str) -> bool {
    input.as_bytes().as_ptr_range().contains(&s.as_ptr()) || s.is_empty()
}

fn text_of(tokens: &[Token<'_>]) -> Vec<String> {
    tokens
        .iter()
        .filter_map(|t| match t {
            Token::Text(t) => Some(t.data.to_string()),
            _ => None,
        })
        .collect()
}

fn start_tag<'t, 'a>(tokens: &'t [Token<'a>], name: &str) -> &'t Tag<'a> {
    tokens
        .iter()
        .find_map(|t| match t {
            Token::StartTag(tag) if tag.name == name => Some(tag),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no <{name}> in {tokens:?}"))
}

#[test]
fn plain_text_is_a_slice_of_the_input() {
    let input = "<p>plain text here</p>";
    let arena = Bump::new();
    let toks = tokens(input, &arena);
    let Token::Text(text) = &toks[1] else {
        panic!("{toks:?}")
    };
    assert_eq!(text.data, "plain text here");
    assert_eq!(text.data.as_ptr(), input[3..].as_ptr());
    // Nothing differed from the source, so nothing was written to the arena.
    assert_eq!(arena.allocated_bytes(), 0);
}

#[test]
fn only_strings_that_differ_from_the_source_go_to_the_arena() {
    let input = r#"<DIV Class="a&amp;b" id=x>x &lt; y<!-- c --></DIV>"#;
    let arena = Bump::new();
    let toks = tokens(input, &arena);
    let div = start_tag(&toks, "div");
    // Lowercased name: not the source bytes.
    assert!(!is_borrowed(input, div.name));
    assert_eq!(&input[div.name_span.range()], "DIV");
    let class = div.attr("class").unwrap();
    assert_eq!(class.value, "a&b");
    assert!(!is_borrowed(input, class.value));
    assert!(!is_borrowed(input, class.name));
    assert_eq!(&input[class.value_span.unwrap().range()], "a&amp;b");
    let id = div.attr("id").unwrap();
    assert!(is_borrowed(input, id.name) && is_borrowed(input, id.value));
    assert_eq!(text_of(&toks), ["x < y"]);
    match &toks[2] {
        Token::Comment(c) => {
            assert_eq!(c.data, " c ");
            assert!(is_borrowed(input, c.data));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unmatched_ampersands_and_lone_less_than_signs_stay_borrowed() {
    let input = "a & b &nosuch; c < d &#; 3<4";
    let arena = Bump::new();
    let toks = tokens(input, &arena);
    assert_eq!(toks.len(), 1);
    let Token::Text(t) = &toks[0] else { panic!() };
    assert_eq!(t.data, input);
    assert_eq!(t.data.as_ptr(), input.as_ptr());
    assert_eq!(t.span, Span::new(0, input.len()));
}

#[test]
fn newlines_and_nuls_are_normalized_into_the_arena() {
    let input = "a\r\nb\rc<p title='x\r\ny'>\0";
    let arena = Bump::new();
    let toks = tokens(input, &arena);
    assert_eq!(text_of(&toks), ["a\nb\nc", "\0"]);
    assert_eq!(start_tag(&toks, "p").attr_value("title"), Some("x\ny"));
}

#[test]
fn text_tokens_are_maximal_runs() {
    let input = "a&amp;b<!---->c&lt;d<br>e";
    let arena = Bump::new();
    let toks = tokens(input, &arena);
    let kinds: Vec<&str> = toks
        .iter()
        .map(|t| match t {
            Token::Text(_) => "text",
            Token::Comment(_) => "comment",
            Token::StartTag(_) => "start",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["text", "comment", "text", "start", "text"]);
    assert_eq!(text_of(&toks), ["a&b", "c<d", "e"]);
    assert_eq!(toks[0].span(), Span::new(0, 7));
    assert_eq!(toks[2].span(), Span::new(14, 20));
}

#[test]
fn tag_and_attribute_spans() {
    let input = r#"<a HREF="/x" data-y='1' checked z=w>"#;
    let arena = Bump::new();
    let toks = tokens(input, &arena);
    let a = start_tag(&toks, "a");
    assert_eq!(a.span, Span::new(0, input.len()));
    assert_eq!(&input[a.name_span.range()], "a");
    let spans: Vec<(&str, &str, Option<&str>)> = a
        .attributes
        .iter()
        .map(|at| {
            (
                at.name,
                &input[at.name_span.range()],
                at.value_span.map(|s| &input[s.range()]),
            )
        })
        .collect();
    assert_eq!(
        spans,
        [
            ("href", "HREF", Some("/x")),
            ("data-y", "data-y", Some("1")),
            ("checked", "checked", None),
            ("z", "z", Some("w")),
        ]
    );
}

/// The attributes of `input`'s first `<p>` (name, value, whether a
/// duplicate) and the codes of its parse errors.
fn p_attributes(input: &str) -> (Vec<(String, String, bool)>, Vec<ErrorCode>) {
    let arena = Bump::new();
    let opts = Options::default().errors(true);
    let mut tok = Tokenizer::with_options(input, &arena, opts);
    let toks: Vec<Token> = tok.by_ref().collect();
    let p = start_tag(&toks, "p");
    let attributes = p
        .attributes
        .iter()
        .map(|a| (a.name.to_string(), a.value.to_string(), a.duplicate))
        .collect();
    (attributes, tok.errors().iter().map(|e| e.code).collect())
}

/// `attributes` as [`p_attributes`] gives them.
fn owned(attributes: &[(&str, &str, bool)]) -> Vec<(String, String, bool)> {
    attributes
        .iter()
        .map(|&(n, v, d)| (n.to_string(), v.to_string(), d))
        .collect()
}

#[test]
fn duplicate_attributes_are_kept_but_flagged() {
    let input = "<p a=1 b=2 A=3 a=4>";
    let (flags, codes) = p_attributes(input);
    assert_eq!(
        flags,
        owned(&[
            ("a", "1", false),
            ("b", "2", false),
            ("a", "3", true),
            ("a", "4", true)
        ])
    );
    let arena = Bump::new();
    let toks = tokens(input, &arena);
    let p = start_tag(&toks, "p");
    assert_eq!(p.attr_value("a"), Some("1"));
    assert_eq!(p.attrs().count(), 2);
    assert_eq!(
        codes,
        [ErrorCode::DuplicateAttribute, ErrorCode::DuplicateAttribute]
    );
}

#[test]
fn duplicates_of_names_unlike_their_source_are_flagged() {
    // Lowered and NUL-replaced names (copied, not slices of the input),
    // with few attributes (a scan) and with many (a table of names).
    let few = "<p Ab=1 \0x=2 aB=3 \0X=4 AB>";
    let many = format!("<p {} Ab=1 \0x=2 aB=3 \0X=4 AB>", "c d e f g h i j");
    for (input, before) in [(few.to_string(), 0), (many, 8)] {
        let (flags, codes) = p_attributes(&input);
        assert_eq!(
            flags[before..],
            owned(&[
                ("ab", "1", false),
                ("\u{FFFD}x", "2", false),
                ("ab", "3", true),
                ("\u{FFFD}x", "4", true),
                ("ab", "", true),
            ]),
            "{input}"
        );
        let duplicates = codes
            .iter()
            .filter(|&&c| c == ErrorCode::DuplicateAttribute)
            .count();
        assert_eq!(duplicates, 3, "{input}");
    }
}

#[test]
fn doctype_missing_is_distinct_from_empty() {
    let arena = Bump::new();
    let toks = tokens(r#"<!DOCTYPE html PUBLIC "" ><!doctype>"#, &arena);
    let Token::Doctype(d) = &toks[0] else {
        panic!()
    };
    assert_eq!(
        (d.name, d.public_id, d.system_id),
        (Some("html"), Some(""), None)
    );
    assert!(!d.force_quirks);
    let Token::Doctype(d) = &toks[1] else {
        panic!()
    };
    assert_eq!((d.name, d.public_id, d.force_quirks), (None, None, true));
}

#[test]
fn script_content_stays_one_text_token() {
    let input = "<script>if (a<b) { x = '</scrip' + '<!--' + \"</script \" }</script>";
    let arena = Bump::new();
    let toks = tokens(input, &arena);
    // `</script ` inside the string is an appropriate end tag (whitespace
    // after the name), exactly as in a browser.
    assert_eq!(text_of(&toks)[0], "if (a<b) { x = '</scrip' + '<!--' + \"");
    let input = "<script>var s = '<!--'; if (a</b) {} /* </scrip */</script><p>";
    let toks = tokens(input, &arena);
    assert_eq!(
        text_of(&toks),
        ["var s = '<!--'; if (a</b) {} /* </scrip */"]
    );
    let Token::Text(script) = &toks[1] else {
        panic!()
    };
    assert!(is_borrowed(input, script.data));
    assert!(matches!(&toks[2], Token::EndTag(t) if t.name == "script"));
    assert!(matches!(&toks[3], Token::StartTag(t) if t.name == "p"));
}

#[test]
fn escaped_script_keeps_script_end_tags_inside_comment_like_text() {
    let input = "<script><!--<script>x</script>y--></script>z";
    let arena = Bump::new();
    let toks = tokens(input, &arena);
    assert_eq!(text_of(&toks), ["<!--<script>x</script>y-->", "z"]);
}

#[test]
fn auto_switching_follows_the_content_models() {
    let arena = Bump::new();
    let cases: &[(&str, &[&str])] = &[
        ("<title>&amp;<b></title>", &["&<b>"]),
        ("<textarea>a<b>&lt;</textarea>", &["a<b><"]),
        ("<style>a<b>&amp;</style>", &["a<b>&amp;"]),
        ("<xmp><b></xmp>", &["<b>"]),
        ("<iframe><b></iframe>", &["<b>"]),
        ("<noembed><b></noembed>", &["<b>"]),
        ("<noframes><b></noframes>", &["<b>"]),
        ("<noscript><b></noscript>", &["<b>"]),
        ("<plaintext></plaintext><b>", &["</plaintext><b>"]),
        ("<svg><![CDATA[x]]></svg>", &["x"]),
        ("<math><![CDATA[a<b]]></math>", &["a<b"]),
        // Foreign content: <style> inside SVG is an SVG element, not RAWTEXT.
        ("<svg><style><b>x</b></style></svg>", &["x"]),
        // An HTML integration point makes <style> HTML again.
        (
            "<svg><foreignObject><style><b></style></foreignObject></svg>",
            &["<b>"],
        ),
        // A breakout tag ends foreign content: CDATA is a bogus comment again.
        ("<svg><p><![CDATA[x]]>", &[]),
        ("<svg></svg><![CDATA[x]]>", &[]),
        ("<math><mi><![CDATA[x]]></mi></math>", &["x"]),
        // Long element names (eight bytes and more) are held apart.
        (
            "<svg><clipPath><foreignObject><style><b></style></foreignObject></clipPath><![CDATA[x]]>",
            &["<b>", "x"],
        ),
        (
            "<math><annotation-xml encoding=text/html><style><b></style></annotation-xml><![CDATA[x]]>",
            &["<b>", "x"],
        ),
    ];
    for (input, want) in cases {
        let toks = tokens(input, &arena);
        assert_eq!(&text_of(&toks), want, "{input}");
        if want.is_empty() {
            assert!(
                toks.iter()
                    .any(|t| matches!(t, Token::Comment(c) if c.data == "[CDATA[x]]")),
                "{input}: {toks:?}"
            );
        }
    }
}

/// An end tag closes its element at any depth (the tree builder's stack of
/// open elements has no limit), and end tags for elements that are not open
/// change nothing.
#[test]
fn end_tags_in_foreign_content_find_their_element_at_any_depth() {
    let arena = Bump::new();
    let deep = format!("<svg>{}{}", "<g>".repeat(2000), "</x>".repeat(2000));
    let closed = format!("{deep}</svg><![CDATA[x]]>");
    let toks = tokens(&closed, &arena);
    assert!(
        text_of(&toks).is_empty(),
        "CDATA is a bogus comment in HTML"
    );
    let open = format!("{deep}<![CDATA[x]]>");
    assert_eq!(text_of(&tokens(&open, &arena)), ["x"]);
}

#[test]
fn noscript_is_data_when_scripting_is_off() {
    let arena = Bump::new();
    let opts = Options::default().scripting(false);
    let toks: Vec<Token> =
        Tokenizer::with_options("<noscript><b>x</b></noscript>", &arena, opts).collect();
    assert!(
        toks.iter()
            .any(|t| matches!(t, Token::StartTag(t) if t.name == "b"))
    );
}

#[test]
fn auto_switching_can_be_turned_off_and_driven_by_hand() {
    let input = "<script>a<b>c</script><svg><![CDATA[x]]>";
    let arena = Bump::new();
    let off = Options::default().auto_switch(false);
    let toks: Vec<Token> = Tokenizer::with_options(input, &arena, off.clone()).collect();
    assert!(
        toks.iter()
            .any(|t| matches!(t, Token::StartTag(t) if t.name == "b"))
    );
    assert!(
        toks.iter()
            .any(|t| matches!(t, Token::Comment(c) if c.data == "[CDATA[x]]"))
    );

    // A tree builder switches state after the start tags that need it.
    let mut tok = Tokenizer::with_options(input, &arena, off);
    let mut out = Vec::new();
    while let Some(t) = tok.next() {
        if let Token::StartTag(tag) = &t {
            match tag.name {
                "script" => tok.set_state(State::ScriptData),
                "svg" => tok.set_foreign(true),
                _ => {}
            }
        }
        out.push(t);
    }
    assert_eq!(text_of(&out), ["a<b>c", "x"]);
}

#[test]
fn initial_state_and_last_start_tag() {
    let arena = Bump::new();
    let opts = Options::default()
        .auto_switch(false)
        .initial_state(State::Rawtext);
    let mut tok = Tokenizer::with_options("a<b></xmp>c", &arena, opts);
    tok.set_last_start_tag(Some("XMP"));
    let toks: Vec<Token> = tok.collect();
    assert_eq!(text_of(&toks), ["a<b>", "c"]);
    assert!(matches!(&toks[1], Token::EndTag(t) if t.name == "xmp"));
}

#[test]
fn errors_are_off_by_default_and_positioned_when_on() {
    let input = "<p>\n  <a b='1'c>&amp</a>\n</p>\u{1}";
    let arena = Bump::new();
    let mut tok = Tokenizer::new(input, &arena);
    tok.by_ref().for_each(drop);
    assert!(tok.errors().is_empty());

    let mut tok = Tokenizer::with_options(input, &arena, Options::default().errors(true));
    tok.by_ref().for_each(drop);
    let index = LineIndex::new(input);
    let got: Vec<(&str, (usize, usize))> = tok
        .errors()
        .iter()
        .map(|e| (e.code.as_str(), index.line_col(e.offset)))
        .collect();
    assert_eq!(
        got,
        [
            ("missing-whitespace-between-attributes", (2, 11)),
            ("missing-semicolon-after-character-reference", (2, 17)),
            ("control-character-in-input-stream", (3, 5)),
        ]
    );
}

// ----- real pages -----

fn corpus() -> Vec<(String, String)> {
    let dir = std::env::var_os("HTMLTOK_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let mut pages = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "corpus not found at {} (set HTMLTOK_CORPUS_DIR)",
            dir.display()
        );
        eprintln!(
            "corpus not found at {}: corpus tests skipped",
            dir.display()
        );
        return pages;
    };
    for e in entries {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "html") {
            let bytes = std::fs::read(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            pages.push((name, String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
    pages.sort();
    assert!(
        pages.len() >= 7,
        "expected the 7 corpus pages in {}",
        dir.display()
    );
    pages
}

#[test]
fn spans_on_real_pages() {
    for (name, input) in corpus() {
        let arena = Bump::new();
        let toks = tokens(&input, &arena);
        assert!(toks.len() > 100, "{name}");
        let mut prev_end = 0;
        let mut prev_text = false;
        let mut covered = 0;
        for t in &toks {
            let span = t.span();
            assert!(
                span.start >= prev_end && span.end <= input.len(),
                "{name}: {t:?}"
            );
            assert!(span.start < span.end, "{name}: empty span {t:?}");
            covered += span.len();
            prev_end = span.end;
            let is_text = matches!(t, Token::Text(_));
            assert!(!(is_text && prev_text), "{name}: two text tokens in a row");
            prev_text = is_text;
            match t {
                Token::StartTag(tag) | Token::EndTag(tag) => {
                    let src = &input[tag.span.range()];
                    assert!(src.starts_with('<') && src.ends_with('>'), "{name}: {src}");
                    assert!(tag.name_span.start > span.start && tag.name_span.end < span.end);
                    assert_eq!(
                        input[tag.name_span.range()].to_ascii_lowercase(),
                        tag.name,
                        "{name}"
                    );
                    for a in tag.attributes {
                        assert!(a.name_span.start > span.start && a.name_span.end < span.end);
                        assert_eq!(
                            input[a.name_span.range()].to_ascii_lowercase(),
                            a.name,
                            "{name}"
                        );
                        if let Some(v) = a.value_span {
                            assert!(v.start >= a.name_span.end && v.end < span.end, "{name}");
                            let raw = &input[v.range()];
                            if is_borrowed(&input, a.value) {
                                assert_eq!(raw, a.value, "{name}");
                            } else {
                                assert!(raw.contains(['&', '\r', '\0']), "{name}: {raw:?} copied");
                            }
                        } else {
                            assert_eq!(a.value, "");
                        }
                    }
                }
                Token::Text(text) => {
                    if is_borrowed(&input, text.data) {
                        assert_eq!(&input[span.range()], text.data, "{name}");
                    }
                }
                Token::Comment(c) => {
                    let src = &input[span.range()];
                    assert!(
                        src.starts_with("<!") || src.starts_with("</") || src.starts_with("<?")
                    );
                    if is_borrowed(&input, c.data) {
                        assert!(src.contains(c.data));
                    }
                }
                Token::Doctype(_) => {
                    assert!(
                        input[span.range()]
                            .to_ascii_lowercase()
                            .starts_with("<!doctype")
                    )
                }
            }
        }
        // Real pages drop nothing: the spans tile the whole input.
        assert_eq!(covered, input.len(), "{name}");
    }
}

#[test]
fn real_pages_borrow_nearly_everything() {
    for (name, input) in corpus() {
        let arena = Bump::new();
        let mut strings = 0usize;
        let mut borrowed = 0usize;
        for t in tokens(&input, &arena) {
            let mut note = |s: &str| {
                strings += 1;
                borrowed += usize::from(is_borrowed(&input, s));
            };
            match &t {
                Token::StartTag(tag) | Token::EndTag(tag) => {
                    note(tag.name);
                    for a in tag.attributes {
                        note(a.name);
                        note(a.value);
                    }
                }
                Token::Text(x) => note(x.data),
                Token::Comment(c) => note(c.data),
                Token::Doctype(_) => {}
            }
        }
        assert!(
            borrowed * 100 >= strings * 90,
            "{name}: only {borrowed} of {strings} borrowed"
        );
    }
}

#[test]
fn any_bytes_tokenize_without_panicking() {
    // A deterministic sweep of awkward inputs; the fuzzers go further.
    let pieces = [
        "<",
        "</",
        "<!",
        "<!--",
        "-->",
        "--!>",
        "<![CDATA[",
        "]]>",
        "&",
        "&#",
        "&#x",
        "&amp",
        "&notin",
        ";",
        "=",
        "\"",
        "'",
        "\r",
        "\n",
        "\0",
        "<svg>",
        "<math>",
        "<script>",
        "</script>",
        "<!--<script>",
        "a",
        "é",
        "\u{1F600}",
        "<!DOCTYPE",
        " PUBLIC",
        " SYSTEM",
        "/",
        ">",
        "<title>",
        "<plaintext>",
    ];
    let mut seed = 0x2545F4914F6CDD1Du64;
    for _ in 0..3000 {
        let mut input = String::new();
        for _ in 0..(seed % 12) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            input.push_str(pieces[(seed % pieces.len() as u64) as usize]);
        }
        for opts in [
            Options::default(),
            Options::default().errors(true).auto_switch(false),
        ] {
            let arena = Bump::new();
            let toks: Vec<Token> = Tokenizer::with_options(&input, &arena, opts).collect();
            let mut prev = 0;
            for t in &toks {
                assert!(
                    t.span().start >= prev && t.span().end <= input.len(),
                    "{input:?}"
                );
                prev = t.span().end;
            }
        }
    }
}

#[test]
fn memory_limit_stops_with_an_error_after_the_tokens_before() {
    // 100 KB of decoded references; a 64 KB limit stops it.
    let mut input = String::from("<p>start</p><p title=\"x\">");
    for _ in 0..100_000 {
        input.push_str("&amp;");
    }
    let arena = Bump::new();
    let opts = Options::default().memory_limit(Some(64 << 10));
    let mut tok = Tokenizer::with_options(&input, &arena, opts);
    let got: Vec<Token> = tok.by_ref().collect();
    // <p>, start, </p>, <p title>, and the text read when the limit was
    // passed, up to where it was: produced, so not dropped.
    assert_eq!(got.len(), 5);
    let err = tok.limit_error().expect("limit error");
    assert_eq!(err.limit, 64 << 10);
    let offset = err.offset.expect("the tokenizer knows where");
    assert!(offset > 25 && offset < input.len(), "{err:?}");
    assert!(err.to_string().contains("memory limit of 65536 bytes"));
    let Token::Text(text) = &got[4] else {
        panic!("text last, not {:?}", got[4]);
    };
    assert_eq!(text.span, htmltok::Span::new(25, offset));
    assert_eq!(text.data, "&".repeat((offset - 25) / 5));
    // Under a generous limit the same input goes through.
    let opts = Options::default().memory_limit(Some(1 << 20));
    let mut tok = Tokenizer::with_options(&input, &arena, opts);
    assert_eq!(tok.by_ref().count(), 5);
    assert!(tok.limit_error().is_none());
}

/// The text before a construct that passes the memory limit was finished
/// before it: it comes out, through the iterator and the push interface
/// alike, and the construct does not.
#[test]
fn memory_limit_keeps_the_text_before_the_construct_it_stops_in() {
    let arena = Bump::new();
    let opts = Options::default().memory_limit(Some(64 << 10));
    for construct in ["<!--", "<a title='", "<a "] {
        // Each NUL becomes U+FFFD in a copy: the construct grows in memory.
        let input = format!(
            "<b>x</b>hello &amp; bye {construct}{}",
            "\0".repeat(100_000)
        );
        let mut tok = Tokenizer::with_options(&input, &arena, opts.clone());
        let got: Vec<Token> = tok.by_ref().collect();
        let err = tok.limit_error().expect("limit error");
        let start = input.find(construct).unwrap();
        assert!(err.offset > Some(start), "{construct}: {err:?}");
        assert_eq!(got.len(), 4, "{construct}: {got:?}");
        let Token::Text(text) = &got[3] else {
            panic!("{construct}: text last, not {:?}", got[3]);
        };
        assert_eq!(text.data, "hello & bye ", "{construct}");
        assert_eq!(text.span, htmltok::Span::new(8, start), "{construct}");
        let mut pushed = Vec::new();
        Tokenizer::with_options(&input, &arena, opts.clone()).for_each_token(|t| pushed.push(t));
        assert_eq!(pushed, got, "{construct}");
    }
}

/// `"`, `'` and `<` are characters of an attribute name and parse errors,
/// reported where they stand and before the name's duplicate-attribute,
/// on the tag fast path as in the states.
#[test]
fn error_characters_in_attribute_names() {
    let arena = Bump::new();
    for (input, want) in [
        (
            "<a b<c=\"1\" b<c d>",
            &[
                (4, "unexpected-character-in-attribute-name"),
                (12, "unexpected-character-in-attribute-name"),
                (14, "duplicate-attribute"),
            ][..],
        ),
        (
            "<A B<C=1 b<c>",
            &[
                (4, "unexpected-character-in-attribute-name"),
                (10, "unexpected-character-in-attribute-name"),
                (12, "duplicate-attribute"),
            ],
        ),
        (
            "<a x'\"y>",
            &[
                (4, "unexpected-character-in-attribute-name"),
                (5, "unexpected-character-in-attribute-name"),
            ],
        ),
        // Handed over to the states after the name (a value with a
        // reference, a value missing): its errors once, not twice.
        (
            "<a b\"c=d&amp;>",
            &[(4, "unexpected-character-in-attribute-name")],
        ),
        (
            "<a b\"c= >x",
            &[
                (4, "unexpected-character-in-attribute-name"),
                (8, "missing-attribute-value"),
            ],
        ),
        // After a value the states take over: the same errors.
        (
            "<a v=\"1\"x<y b<c>",
            &[
                (8, "missing-whitespace-between-attributes"),
                (9, "unexpected-character-in-attribute-name"),
                (13, "unexpected-character-in-attribute-name"),
            ],
        ),
    ] {
        let mut tok = Tokenizer::with_options(input, &arena, Options::default().errors(true));
        let tokens: Vec<Token> = tok.by_ref().collect();
        let got: Vec<(usize, &str)> = tok
            .errors()
            .iter()
            .map(|e| (e.offset, e.code.as_str()))
            .collect();
        assert_eq!(got, want, "{input}");
        let Token::StartTag(tag) = &tokens[0] else {
            panic!("{tokens:?}")
        };
        assert!(
            tag.attributes
                .iter()
                .any(|a| a.name.contains(['<', '\'', '"'])),
            "{tag:?}"
        );
    }
}

/// Parse errors count against the memory limit: a comment of four million
/// control characters (one input-stream error each, 64 MB of errors) stops
/// at the limit, all its tokens out, with errors kept up to the limit.
#[test]
fn parse_errors_count_against_the_memory_limit() {
    let input = format!("<p>x</p><!--{}-->", "\u{1}".repeat(4 << 20));
    let arena = Bump::new();
    let opts = Options::default().errors(true).memory_limit(Some(1 << 20));
    let mut tok = Tokenizer::with_options(&input, &arena, opts);
    let tokens: Vec<Token> = tok.by_ref().collect();
    assert_eq!(tokens.len(), 4, "{:?}", &tokens[..3]);
    let err = tok.limit_error().expect("limit error");
    let offset = err.offset.expect("the tokenizer knows where");
    assert!(offset > 12 && offset < input.len(), "{err:?}");
    let held = std::mem::size_of_val(tok.errors());
    assert!(held > 1 << 19 && held <= (1 << 20) + (4096 << 4), "{held}");
    // Without a limit every error is there.
    let mut tok = Tokenizer::with_options(&input, &arena, Options::default().errors(true));
    tok.by_ref().for_each(drop);
    assert_eq!(tok.errors().len(), 4 << 20);
}

/// One tag with a million attributes (80 MB of attribute records for 4 MB of
/// input) is stopped by the limit while it is being read, not after.
#[test]
fn memory_limit_stops_a_tag_with_too_many_attributes() {
    let input = format!("<p>x</p><a{}>", " a=1".repeat(1_000_000));
    let arena = Bump::new();
    let opts = Options::default().memory_limit(Some(1 << 20));
    let mut tok = Tokenizer::with_options(&input, &arena, opts);
    assert_eq!(tok.by_ref().count(), 3);
    let err = tok.limit_error().expect("limit error");
    assert!(err.needed < 2 << 20, "{err:?}");
    assert!(arena.allocated_bytes() < 4 << 20);
}

/// Every way a tag can be read (the fast paths, uppercase names, the tag
/// states, the end tag of RCDATA) names its element the same way; unknown
/// names are `Element::Other`.
#[test]
fn tags_carry_their_element() {
    let arena = Bump::new();
    let input = "<DIV><svg><foreignObject></foreignObject></svg><textarea>x</TEXTAREA>\
                 <my-widget a=1></my-widget><p/><br x='1'\0><h1 class=a\"b></H1 x>\
                 <selectedcontent><annotation-xml><x\0y><blockquote \r>";
    let got = tag_elements(&tokens(input, &arena));
    assert_eq!(
        got,
        [
            (false, "div", Element::Div),
            (false, "svg", Element::Svg),
            (false, "foreignobject", Element::ForeignObject),
            (true, "foreignobject", Element::ForeignObject),
            (true, "svg", Element::Svg),
            (false, "textarea", Element::Textarea),
            (true, "textarea", Element::Textarea),
            (false, "my-widget", Element::Other),
            (true, "my-widget", Element::Other),
            (false, "p", Element::P),
            (false, "br", Element::Br),
            (false, "h1", Element::H1),
            (true, "h1", Element::H1),
            (false, "selectedcontent", Element::Selectedcontent),
            (false, "annotation-xml", Element::AnnotationXml),
            (false, "x\u{fffd}y", Element::Other),
            (false, "blockquote", Element::Blockquote),
        ]
    );
    // The same through the stream tokenizer, one byte at a time.
    let mut stream = htmltok::StreamTokenizer::new(Default::default());
    let mut streamed = Vec::new();
    for b in input.as_bytes() {
        let arena = Bump::new();
        for t in stream.feed(std::slice::from_ref(b), &arena).unwrap() {
            if let Token::StartTag(tag) | Token::EndTag(tag) = t {
                streamed.push((tag.name.to_owned(), tag.element));
            }
        }
    }
    let arena = Bump::new();
    for t in stream.finish(&arena).unwrap() {
        if let Token::StartTag(tag) | Token::EndTag(tag) = t {
            streamed.push((tag.name.to_owned(), tag.element));
        }
    }
    let whole: Vec<(String, Element)> = got.iter().map(|&(_, n, e)| (n.to_owned(), e)).collect();
    assert_eq!(streamed, whole);
}

/// The element id fits in the padding `Tag` had: tokens stay 80 bytes.
#[test]
fn tokens_stay_80_bytes() {
    assert_eq!(std::mem::size_of::<Tag<'_>>(), 72);
    assert_eq!(std::mem::size_of::<Token<'_>>(), 80);
    assert_eq!(std::mem::size_of::<Option<Token<'_>>>(), 80);
    assert_eq!(std::mem::size_of::<Element>(), 1);
}

/// Only an `annotation-xml` with an HTML `encoding` is an HTML
/// integration point: not a MathML element with another name, whatever it
/// is (`annotation-xml+html` was the name the stack kept the integration
/// point under, and was taken for one), so `<style>` inside it is foreign
/// and its text is data, not raw text.
#[test]
fn only_annotation_xml_is_an_integration_point() {
    let arena = Bump::new();
    for name in ["annotation-xml+html", "annotation-xmlhtml", "annotation-xm"] {
        let input = format!(
            "<math><{name} encoding=text/html><style>&amp;</style></math><style>&amp;</style>"
        );
        assert_eq!(text_of(&tokens(&input, &arena)), ["&", "&amp;"], "{name}");
    }
    let input = "<math><annotation-xml encoding=text/html><style>&amp;</style>";
    assert_eq!(text_of(&tokens(input, &arena)), ["&amp;"]);
}
