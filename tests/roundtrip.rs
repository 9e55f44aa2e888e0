//! Round trips through `htmltok::serialize`: tokens written back as HTML and
//! tokenized again give the same tokens, as far as the module promises (the
//! check is `tests/support/roundtrip.rs`, shared with the `roundtrip` fuzz
//! target); and the edges of that promise.

use htmltok::bumpalo::Bump;
use htmltok::serialize::{
    Serializer, escape_attribute_value, escape_text, serialize_comment, serialize_doctype,
    serialize_tokens,
};
use htmltok::{Comment, Doctype, Element, Span, State, Tag, Text, Token, Tokenizer};
use htmltok_test_support::{corpus, html5lib, roundtrip};
use roundtrip::RoundtripConfig;

fn serialized(html: &str) -> String {
    let arena = Bump::new();
    let mut out = String::new();
    serialize_tokens(Tokenizer::new(html, &arena), &mut out);
    out
}

fn assert_round_trips(input: &str) {
    roundtrip::check_all(input);
}

// ----- the promise, on many inputs -----

#[test]
fn html5lib_inputs_round_trip() {
    let dir = html5lib::find_html5lib_tests_dir().unwrap_or_else(|e| panic!("{e}"));
    let mut runs = 0;
    for entry in std::fs::read_dir(dir.join("tokenizer")).expect("tokenizer folder") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_none_or(|x| x != "test") {
            continue;
        }
        for test in html5lib::load_tokenizer_file(&path).unwrap_or_else(|e| panic!("{e}")) {
            let Ok(input) = &test.input else { continue };
            let mut configs = roundtrip::configs(input);
            for state in &test.initial_states {
                let Some(state) = html5lib::state_from_html5lib_name(state) else {
                    continue;
                };
                configs.push(RoundtripConfig {
                    initial_state: state,
                    last_start_tag: test.last_start_tag.clone(),
                    scripting: true,
                });
            }
            for config in configs {
                runs += 1;
                if let Err(e) = roundtrip::check(input, &config) {
                    panic!(
                        "{} #{} {input:?} with {config:?}: {e}",
                        test.file, test.index
                    );
                }
            }
        }
    }
    assert!(runs > 10_000, "only {runs} runs");
}

#[test]
fn corpus_pages_round_trip() {
    let Some(paths) = corpus::corpus_page_paths() else {
        return;
    };
    let mut pages = 0;
    for path in paths {
        let input = String::from_utf8_lossy(&std::fs::read(&path).expect("page")).into_owned();
        for scripting in [true, false] {
            let config = RoundtripConfig {
                scripting,
                ..RoundtripConfig::default()
            };
            if let Err(e) = roundtrip::check(&input, &config) {
                let e: String = e.chars().take(2000).collect();
                panic!("{}: {e}", path.display());
            }
        }
        pages += 1;
    }
    assert!(pages >= 7, "expected the 7 corpus pages, found {pages}");
}

/// Every string of up to 6 characters over the characters that matter to
/// comments, tags and end tags, in every configuration.
#[test]
fn short_markup_round_trips_exhaustively() {
    const ALPHABET: &[char] = &['<', '!', '-', '>', '/', 'a', '?'];
    let mut input = String::new();
    let mut digits = Vec::new();
    loop {
        input.clear();
        input.extend(digits.iter().map(|&d: &usize| ALPHABET[d]));
        let config = RoundtripConfig::default();
        if let Err(e) = roundtrip::check(&input, &config) {
            panic!("{input:?}: {e}");
        }
        // Next string: increment the digits, growing the length.
        let mut i = 0;
        loop {
            if i == digits.len() {
                digits.push(0);
                break;
            }
            digits[i] += 1;
            if digits[i] < ALPHABET.len() {
                break;
            }
            digits[i] = 0;
            i += 1;
        }
        if digits.len() > 6 {
            break;
        }
    }
}

#[test]
fn tricky_inputs_round_trip() {
    for input in [
        "",
        "<!---->",
        "<!----->",
        "<!-- a -- b --!> c -->",
        "<!--a<!--b--><!--a<!---><!--<!-- -->",
        "<!a--!><!--a--!-->",
        "</ ><?><!><!->",
        "<a =b ==c \"d='e' <f g/>",
        "<a b='\"' c=\"'\" d=&amp;&nbsp;\u{a0}>",
        "<br/><br /><a/b>",
        "</a b=c/>",
        "<title>&lt;/title&gt;</title>",
        "<textarea>\u{a0}&</textarea>",
        "<script><!--<script></script>--></script>",
        "<script><!--<script>x",
        "<style>a > b & c</style>",
        "<xmp><b>&amp;</b></xmp>",
        "<noscript><b>&amp;</b></noscript>",
        "<plaintext></plaintext><b>&amp;",
        "<svg><![CDATA[<a>&amp;]]><style>&lt;</style><script>x&lt;</script></svg><script>x<y</script>",
        "<math><mi><style>a<b</style></mi><annotation-xml encoding=text/html><style>a<b</style>",
        "<svg><p><style>a<b</style>",
        "<svg><font color=red><style>a<b</style>",
        "<svg><desc><title>&lt;</title></desc></svg>",
        "a\0b<a\0 b\0=\0>\0<![CDATA[\0]]>",
        "<!DOCTYPE html><!doctype><!DOCTYPE html PUBLIC><!DOCTYPE a PUBLIC 'x\"'>",
        "<!DOCTYPE a SYSTEM \"x'\" junk><!DOCTYPE a PUBLIC \"p\" \"s><!DOCTYPE a SYSTEM 's><!DOCTYPE a PUBLIC \"p>",
        "<!DOCTYPE a PUBLIC \"p\" x><!DOCTYPE public public \"\" ''>",
        "a\r\nb\rc&#13;d&#13;\ne<a b='&#13;\r\n'>",
        "<a href=\"?a=1&b=2&amp;c\">&notin &notit; &#x110000; &#0;</a>",
        "<!DOCTYPE html PUBLIC \"a\" \"b",
        "<a b='c",
        "<!-- x",
    ] {
        assert_round_trips(input);
    }
}

// ----- the exact output -----

#[test]
fn escaping_follows_the_standard() {
    let mut out = String::new();
    escape_text("&<>\"'\u{a0}=`", &mut out);
    assert_eq!(out, "&amp;&lt;&gt;\"'&nbsp;=`");
    out.clear();
    escape_attribute_value("&<>\"'\u{a0}=`", &mut out);
    assert_eq!(out, "&amp;<>&quot;'&nbsp;=`");
}

#[test]
fn tokens_are_written_as_the_standard_writes_them() {
    assert_eq!(
        serialized("<DIV Class=a&amp;b id='x\"y' hidden>1 &lt; 2</DIV>"),
        r#"<div class="a&amp;b" id="x&quot;y" hidden="">1 &lt; 2</div>"#
    );
    assert_eq!(serialized("<!-- c --><?pi?>"), "<!-- c --><!--?pi?-->");
    assert_eq!(serialized("<!doctype HTML>"), "<!DOCTYPE html>");
    // Raw text is written literally, RCDATA escaped.
    assert_eq!(
        serialized("<script>a<b&amp;</script><title>a<b&amp;</title>"),
        "<script>a<b&amp;</script><title>a&lt;b&amp;</title>"
    );
    // Text from a CDATA section in foreign content is plain (escaped) text.
    assert_eq!(
        serialized("<svg><![CDATA[a<b]]></svg>"),
        "<svg>a&lt;b</svg>"
    );
}

fn doctype_html(d: Doctype<'_>) -> String {
    let mut out = String::new();
    serialize_doctype(&d, &mut out);
    out
}

#[test]
fn doctypes_keep_identifiers_and_force_quirks() {
    let d = |name, public_id, system_id, force_quirks| Doctype {
        name,
        public_id,
        system_id,
        force_quirks,
        span: Span::default(),
    };
    let cases = [
        (d(Some("html"), None, None, false), "<!DOCTYPE html>"),
        (d(None, None, None, true), "<!DOCTYPE>"),
        (d(Some("html"), None, None, true), "<!DOCTYPE html PUBLIC>"),
        (
            d(Some("a"), Some("p"), None, false),
            r#"<!DOCTYPE a PUBLIC "p">"#,
        ),
        (
            d(Some("a"), Some("p"), None, true),
            r#"<!DOCTYPE a PUBLIC "p>"#,
        ),
        (
            d(Some("a"), Some("p"), Some("s"), false),
            r#"<!DOCTYPE a PUBLIC "p" "s">"#,
        ),
        (
            d(Some("a"), Some("p"), Some("s"), true),
            r#"<!DOCTYPE a PUBLIC "p" "s>"#,
        ),
        (
            d(Some("a"), None, Some("s"), false),
            r#"<!DOCTYPE a SYSTEM "s">"#,
        ),
        (
            d(Some("a"), None, Some("s"), true),
            r#"<!DOCTYPE a SYSTEM "s>"#,
        ),
        (
            d(Some("a"), Some("\""), Some(""), false),
            r#"<!DOCTYPE a PUBLIC '"' "">"#,
        ),
    ];
    for (doctype, html) in cases {
        assert_eq!(doctype_html(doctype.clone()), html);
        // And it reads back as the same DOCTYPE.
        let arena = Bump::new();
        let tokens: Vec<Token> = Tokenizer::new(html, &arena).collect();
        match tokens.as_slice() {
            [Token::Doctype(back)] => assert_eq!(
                (back.name, back.public_id, back.system_id, back.force_quirks),
                (
                    doctype.name,
                    doctype.public_id,
                    doctype.system_id,
                    doctype.force_quirks
                ),
                "{html}"
            ),
            other => panic!("{html}: {other:?}"),
        }
    }
}

#[test]
fn the_serializer_tracks_the_content_model() {
    let arena = Bump::new();
    let mut ser = Serializer::new();
    let mut out = String::new();
    let mut models = Vec::new();
    for token in Tokenizer::new("<svg><style></style></svg><style>x</style><title>", &arena) {
        ser.write(&token, &mut out);
        models.push(ser.content_model());
    }
    use State::*;
    assert_eq!(
        models,
        [Data, Data, Data, Data, Rawtext, Rawtext, Data, Rcdata]
    );
    // Scripting off: <noscript> is not raw text.
    let mut ser = Serializer::new().scripting(false);
    for token in Tokenizer::new("<noscript>", &arena) {
        ser.write(&token, &mut out);
    }
    assert_eq!(ser.content_model(), Data);
}

/// An end tag looks at most 512 elements down the stack in foreign content
/// (see `src/tokenizer/switch.rs`), so `</svg>` under 600 `<g>`s leaves the
/// `<svg>` open and the `<style>` after it is an SVG element whose text is
/// escaped: the serializer must bound its search the same way.
#[test]
fn the_serializer_bounds_end_tag_search_like_the_tokenizer() {
    let html = format!("<svg>{}</svg><style>&lt;b&gt;</style>", "<g>".repeat(600));
    assert!(serialized(&html).ends_with("</svg><style>&lt;b&gt;</style>"));
    assert_round_trips(&html);
}

#[test]
fn initial_states_round_trip() {
    for (state, input, last) in [
        (State::Rcdata, "a<b&amp;</x></title>c<d>", Some("title")),
        (State::Rawtext, "a<b&amp;</style>c&amp;<d>", Some("style")),
        (
            State::ScriptData,
            "<!--<script></script>--></script>&amp;",
            Some("script"),
        ),
        (State::Plaintext, "a<b>&amp;", None),
        (State::CdataSection, "a<b>&amp;]]>c<d>&amp;", None),
        (State::CdataSection, "]]>", None),
        (State::CdataSection, "", None),
    ] {
        let config = RoundtripConfig {
            initial_state: state,
            last_start_tag: last.map(str::to_owned),
            scripting: true,
        };
        roundtrip::check(input, &config).unwrap_or_else(|e| panic!("{input:?} {state:?}: {e}"));
    }
    // In the CDATA section state the output starts by closing the section.
    let arena = Bump::new();
    let opts = htmltok::Options::default().initial_state(State::CdataSection);
    let mut ser = Serializer::new().initial_state(State::CdataSection);
    let mut out = String::new();
    for token in Tokenizer::with_options("a<]]>&amp;", &arena, opts) {
        ser.write(&token, &mut out);
    }
    assert_eq!(out, "]]>a&lt;&amp;");
}

// ----- the edges of the promise -----

#[test]
fn carriage_returns_from_references_come_back_as_line_feeds() {
    let html = "a&#13;b&#13;\nc<p title='&#13;'>";
    assert_eq!(serialized(html), "a\rb\r\nc<p title=\"\r\">");
    assert_eq!(serialized(&serialized(html)), "a\nb\nc<p title=\"\n\">");
    // That is the one difference the round-trip check allows.
    roundtrip::check(html, &RoundtripConfig::default()).unwrap();
}

/// Token sequences the tokenizer cannot produce are written all the same,
/// but do not read back the same: these are outside the promise.
#[test]
fn hand_made_tokens_outside_the_promise() {
    let arena = Bump::new();
    let read_back = |html: &str| Tokenizer::new(arena.alloc_str(html), &arena).count();
    // A comment whose data contains `-->` ends early.
    let mut out = String::new();
    serialize_comment(
        &Comment {
            data: "a-->b",
            span: Span::default(),
        },
        &mut out,
    );
    assert_eq!(out, "<!--a-->b-->");
    assert_eq!(read_back(&out), 2); // a comment "a", then text "b-->"
    // Raw text that contains its element's end tag closes it early.
    let script = Tag {
        name: "script",
        element: Element::Script,
        name_span: Span::default(),
        attributes: &[],
        self_closing: false,
        span: Span::default(),
    };
    let tokens = [
        Token::StartTag(script.clone()),
        Token::Text(Text {
            data: "x</script>y",
            span: Span::default(),
        }),
        Token::EndTag(script),
    ];
    let mut out = String::new();
    serialize_tokens(&tokens, &mut out);
    assert_eq!(out, "<script>x</script>y</script>");
    assert_eq!(read_back(&out), 5); // the text "y" and a second end tag
}
