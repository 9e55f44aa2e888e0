//! Tokenizes one adversarial input shape of a given size, for measuring that
//! the cost per byte does not grow with the input (`tools/linearity.sh` runs
//! this under callgrind at 1 MB and 16 MB and compares instructions/byte).
//!
//! ```text
//! cargo run --release --example adversarial -- SHAPE MEGABYTES [errors] [exact] [main-content]
//! ```
//!
//! With `main-content`, the input's main content is extracted instead
//! (`ExtractOptions::main_content`: tokenizing, extraction and the block
//! pass), which the last shapes aim at.
//!
//! With `errors`, parse errors are collected too (as `htmltok errors` and
//! `htmltok stats` do); with `exact`, switching follows tree construction
//! exactly (`Options::exact_switching`), whose cost the `exact-` shapes
//! aim at.
//!
//! Shapes: the names in `SHAPES` (run with no arguments to list them), or
//! `file:PATH`, the bytes of a file (a fuzzer's find, fuzz/README.md)
//! repeated to the size.

use htmltok::bumpalo::Bump;
use htmltok::extract::{ExtractOptions, extract};
use htmltok::{Options, Token, Tokenizer};

/// A named shape and the function that makes about `len` bytes of it.
type Shape = (&'static str, fn(usize) -> String);

/// The shapes.
const SHAPES: &[Shape] = &[
    ("huge-attribute", |len| {
        format!("<p title=\"{}\">", "x".repeat(len))
    }),
    ("many-attributes", |len| {
        let mut s = String::from("<p");
        let mut i = 0;
        while s.len() < len {
            s.push_str(&format!(" a{i}={i}"));
            i += 1;
        }
        s + ">"
    }),
    ("open-comment", |len| {
        format!("<!--{}", "a-b<!".repeat(len / 5))
    }),
    ("amp-storm", |len| "&".repeat(len)),
    ("amp-no-semicolon", |len| "&amp".repeat(len / 4)),
    ("end-tag-open-runs", |len| "</".repeat(len / 2)),
    ("deep-nesting", |len| "<div>".repeat(len / 5)),
    ("deep-svg", |len| {
        format!("<svg>{}{}", "<g>".repeat(len / 7), "</x>".repeat(len / 7))
    }),
    ("script-games", |len| {
        format!(
            "<script>{}</script>",
            "<!--<script>a</script>--><!-- </scr --><".repeat(len / 41)
        )
    }),
    ("nul-cr", |len| "a\0\r\r\nb<p\0 x=\r\0>".repeat(len / 16)),
    ("duplicate-attribute-storm", |len| {
        format!("<a{}>", " a".repeat(len / 2))
    }),
    ("duplicate-attribute-pairs", |len| {
        format!("<a{}>", " a b".repeat(len / 4))
    }),
    ("duplicate-attribute-tags", |len| {
        "<a a a a a a a a a a a a a a a a a a b b b b>".repeat(len / 46)
    }),
    ("foreign-alternation", |len| {
        "<svg><foreignObject><math><mi><svg><desc><math><annotation-xml encoding=text/html>"
            .repeat(len / 83)
    }),
    ("foreign-breakout", |len| {
        "<svg><g><p><math><mi>".repeat(len / 21)
    }),
    ("end-tag-flood", |len| "</x>".repeat(len / 4)),
    ("end-tag-flood-in-foreign", |len| {
        format!("<svg><foreignObject><div>{}", "</x>".repeat(len / 4))
    }),
    ("form-removal-in-foreign", |len| {
        format!(
            "<svg><foreignObject>{}",
            "<form><div></form>".repeat(len / 18)
        )
    }),
    ("special-end-tags-in-foreign", |len| {
        format!(
            "<svg><foreignObject><span>{}{}",
            "<div>".repeat(len / 13),
            "</span>".repeat(len / 13)
        )
    }),
    ("template-column-groups", |len| {
        "<template><col><iframe>".repeat(len / 23)
    }),
    ("bang-storm", |len| "<!x>".repeat(len / 4)),
    ("question-storm", |len| "<?x>".repeat(len / 4)),
    ("numeric-reference-digits", |len| {
        format!("&#{}", "0".repeat(len))
    }),
    ("numeric-reference-storm", |len| "&#".repeat(len / 2)),
    ("named-reference-prefixes", |len| {
        "&notinvaz".repeat(len / 9)
    }),
    ("named-reference-long-run", |len| {
        format!("&notinva{}", "z".repeat(len))
    }),
    ("cr-nul-attribute-value", |len| {
        format!("<a b=\"{}\">", "\r\0\r\n".repeat(len / 4))
    }),
    ("long-comment", |len| {
        format!("<!--{}-->", "a-b".repeat(len / 3))
    }),
    ("comment-dashes", |len| format!("<!--{}", "-".repeat(len))),
    ("comment-bangs", |len| {
        format!("<!--{}", "--!".repeat(len / 3))
    }),
    ("cdata-brackets", |len| {
        format!("<svg><![CDATA[{}", "]".repeat(len))
    }),
    ("long-named-prefix-storm", |len| {
        "&CounterClockwiseContourIntegra".repeat(len / 31)
    }),
    ("unquoted-amp-values", |len| {
        format!("<a b={}>", "&amp&#x&".repeat(len / 8))
    }),
    ("slash-storm", |len| format!("<a{}>", "/".repeat(len))),
    // `<` repeated: each one text, with a parse error (found by the `cost`
    // fuzz target: 176 instructions a byte while each `<` went round the
    // state machine's tag open state).
    ("lt-storm", |len| "<".repeat(len)),
    ("rcdata-end-tag-names", |len| {
        format!("<title>{}", "</titl".repeat(len / 6))
    }),
    ("doctype-storm", |len| {
        "<!DOCTYPE a PUBLIC '' ''>".repeat(len / 25)
    }),
    // Found by fuzz/fuzz_targets/cost.rs: one tag that never ends, whose
    // attribute names are made of characters that are errors in a name,
    // with a control character and an uppercase letter in each.
    ("fuzz-attribute-errors", |len| "<\u{12}<F/".repeat(len / 5)),
    // Found by the same target: one end tag whose attributes are each
    // one character after a `/` (`unexpected-solidus-in-tag`), named
    // alternately `<` and `n`, so every second one is a duplicate.
    ("fuzz-solidus-attributes", |len| "</n/".repeat(len / 4)),
    // End tags and attributes among NULs and other controls.
    ("fuzz-nul-attributes", |len| {
        "x h\0|</x x h^\0\0\0 \0 x h`\0".repeat(len / 24)
    }),
    // Attribute values, quoted and not, full of NULs and references.
    ("fuzz-nul-values", |len| {
        "<a =&\tB\0 ' \u{1}\0lO i\0\0' \u{1}' ".repeat(len / 24)
    }),
    // `<` as attribute names, with a control character.
    ("fuzz-lt-attributes", |len| "h< \u{4}</".repeat(len / 6)),
    // One end tag whose attributes are `<o` after a NUL, a space or a
    // Exact switching's walks (`Options::exact_switching`): the stack of
    // open elements grows to its bound, then the follower stops.
    ("exact-deep-formatting", |len| "<b>".repeat(len / 3)),
    // Each `</p>` walks the whole stack of `div`s looking for a `p` in
    // button scope; half the input opens, half closes.
    ("exact-deep-end-tags", |len| {
        "<div>".repeat(len / 10) + &"</p>".repeat(len / 8)
    }),
    // Formatting elements closed by `</p>` and reopened by the text after
    // the next: each reconstruction reopens all of them (distinct
    // attributes keep the Noah's Ark clause out).
    ("exact-reconstruct", |len| {
        let mut s = String::with_capacity(len + 32);
        let mut i = 0;
        while s.len() < len {
            s.push_str(&format!("<p><b id={i}></p>x"));
            i += 1;
        }
        s
    }),
    // The adoption agency at its limits: a formatting element under many
    // special elements, closed again and again.
    ("exact-adoption", |len| {
        let unit = "<a><div><div><div><div><div></a>";
        unit.repeat(len / unit.len())
    }),
    // `/`, all but the first duplicates (2026-11-26).
    ("fuzz-end-tag-duplicates", |len| "O \0</".repeat(len / 5)),
    // The same after `/` (`unexpected-solidus-in-tag`) alone.
    ("fuzz-solidus-duplicates", |len| "Q/</".repeat(len / 4)),
    // Aimed at main content's block pass (with `main-content`): a block
    // per few bytes, elements nested past what it holds, one block of
    // the whole input, lists in lists, and every tag with words to look
    // up.
    ("tiny-blocks", |len| "<p>a".repeat(len / 4)),
    ("nested-divs", |len| {
        "<div>".repeat(len / 10) + "text" + &"</div>".repeat(len / 10)
    }),
    ("huge-block", |len| {
        format!("<p>{}", "word, word. ".repeat(len / 12))
    }),
    ("deep-lists", |len| "<ul><li>item ".repeat(len / 13)),
    ("class-words", |len| {
        "<span class=\"nav menu-item sidebarContent post-body\">w</span>".repeat(len / 61)
    }),
];

/// Tokenizes `input` (collecting parse errors when `errors`) and touches
/// every token (kept out of line so callgrind can count just this).
#[inline(never)]
#[unsafe(no_mangle)]
pub fn tokenize_all(input: &str, arena: &Bump, errors: bool, exact: bool) -> usize {
    let mut n = 0;
    let opts = Options::default().errors(errors).exact_switching(exact);
    let mut tokenizer = Tokenizer::with_options(input, arena, opts);
    for token in tokenizer.by_ref() {
        n += match token {
            Token::StartTag(t) => t.attributes.len() + t.name.len(),
            Token::Text(t) => t.data.len(),
            _ => 1,
        };
    }
    n + tokenizer.errors().len()
}

/// The main content of `input` (kept out of line so callgrind can count
/// just this): tokenizing, the extraction and the block pass.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn extract_main_content(input: &str) -> usize {
    let options = ExtractOptions::default().main_content(true);
    extract(input, &options).text.len()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(shape), Some(mb)) = (args.next(), args.next()) else {
        eprintln!("usage: adversarial SHAPE|file:PATH MEGABYTES [errors] [exact] [main-content]");
        eprintln!(
            "shapes: {}",
            SHAPES.iter().map(|s| s.0).collect::<Vec<_>>().join(", ")
        );
        std::process::exit(2);
    };
    let flags: Vec<String> = args.collect();
    let errors = flags.iter().any(|a| a == "errors");
    let exact = flags.iter().any(|a| a == "exact");
    let mb: usize = mb.parse().expect("MEGABYTES is a number");
    let input = match shape.strip_prefix("file:") {
        // A pattern from a file (a fuzzer's find), repeated.
        Some(path) => {
            let bytes = std::fs::read(path).expect("a readable pattern file");
            let pattern = String::from_utf8_lossy(&bytes);
            pattern.repeat((mb << 20) / pattern.len().max(1) + 1)
        }
        None => {
            let Some((_, make)) = SHAPES.iter().find(|s| s.0 == shape) else {
                eprintln!("unknown shape {shape}");
                std::process::exit(2);
            };
            make(mb << 20)
        }
    };
    if flags.iter().any(|a| a == "main-content") {
        let n = extract_main_content(&input);
        println!("{shape} {} bytes {n}", input.len());
        return;
    }
    let arena = Bump::new();
    let n = tokenize_all(&input, &arena, errors, exact);
    println!("{shape} {} bytes {n}", input.len());
}
