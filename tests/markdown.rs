//! Markdown (`ExtractOptions::format(TextFormat::Markdown)`): what each
//! construct becomes, on hand-written pages; escaping; links, images and
//! the cap; main content; and, on the corpus and on generated pages, that
//! the Markdown rendered by a CommonMark implementation and read back as
//! plain text has the page's words in the page's order, and the same
//! headings, list items, table cells and code blocks.

use htmltok::extract::{ExtractOptions, MainContent, TextFormat, extract};
use htmltok::url::Url;
use htmltok_test_support::corpus;
use htmltok_test_support::markdown::{elements, markdown_keeps_the_words, render, words};

fn options() -> ExtractOptions {
    ExtractOptions::default().format(TextFormat::Markdown)
}

fn markdown(html: &str) -> String {
    extract(html, &options()).text
}

/// Checks each page's Markdown against what was written by hand for it,
/// and hands both to `more`; prints the counts.
fn check(cases: &[(&str, &str)], more: impl Fn(&str, &str)) {
    let (mut passed, mut failed) = (0, 0);
    for (html, want) in cases {
        let got = markdown(html);
        if got == *want {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("{html:?}\n  want {want:?}\n  got  {got:?}");
        }
        more(html, &got);
    }
    println!("{passed} passed, {failed} failed, 0 skipped");
    assert_eq!(failed, 0);
}

/// Each construct, written by hand.
#[test]
fn constructs() {
    let cases: &[(&str, &str)] = &[
        // Headings, paragraphs, breaks.
        (
            "<h1>One</h1><p>Text</p><h3>Three</h3>",
            "# One\n\nText\n\n### Three",
        ),
        ("<h2>A <div>B</div> C</h2>", "## A B C"),
        ("<h2></h2><p>x", "x"),
        (
            "<p>a</p>\n\n<p>b</p><div><div><p>c</p></div></div>",
            "a\n\nb\n\nc",
        ),
        ("<p>one<br>two</p>", "one\\\ntwo"),
        ("<p>end<br></p><p>next", "end\n\nnext"),
        ("<p>a</p><hr><p>b", "a\n\n---\n\nb"),
        // Lists.
        ("<ul><li>a<li>b</ul>", "- a\n- b"),
        ("<ol><li>a<li>b</ol>", "1. a\n2. b"),
        (
            "<ol start=7><li>a<li value=10>b<li>c</ol>",
            "7. a\n10. b\n11. c",
        ),
        (
            "<ul><li>a<ul><li>b<ol><li>c</ol></ul><li>d</ul>",
            "- a\n  - b\n    1. c\n- d",
        ),
        ("<ul><li><p>a</p><p>b</p></ul>", "- a\n\n  b"),
        ("<ol><li><h2>T</h2></ol>", "1. ## T"),
        ("<p>x</p><ul><li></ul><p>y", "x\n\ny"),
        ("<li>alone</li>", "alone"),
        // Block quotes.
        (
            "<blockquote><p>a</p><p>b</p></blockquote><blockquote>c</blockquote>",
            "> a\n>\n> b\n\n> c",
        ),
        ("<blockquote><ul><li>x</ul></blockquote>", "> - x"),
        // Code.
        (
            "<pre class=language-rust>fn main() {\n    x\n}</pre>",
            "```rust\nfn main() {\n    x\n}\n```",
        ),
        (
            "<pre><code class=lang-js>a ``` b</code></pre>",
            "````js\na ``` b\n````",
        ),
        ("<pre>\nfirst</pre>", "```\nfirst\n```"),
        (
            "<ul><li>x<pre>a\nb</pre></ul>",
            "- x\n\n  ```\n  a\n  b\n  ```",
        ),
        ("<p>Run <code>ls -l</code> now", "Run `ls -l` now"),
        ("<code>a`b</code>", "``a`b``"),
        ("<code>`x</code>", "`` `x ``"),
        ("<kbd>*x*</kbd>", "`*x*`"),
        // Emphasis.
        (
            "<b>bold</b> <i>it</i> <strong>s</strong><em>e</em>",
            "**bold** *it* **s**e",
        ),
        ("a<b> b </b>c", "a **b** c"),
        ("<b><i>x</i></b>", "***x***"),
        ("<b>Note:</b> x", "**Note:** x"),
        ("<b>Note:</b>x", "Note:x"),
        ("x<b>\"q\"</b>", "x\"q\""),
        ("<b>a<b>b</b>c</b>", "**abc**"),
        ("<b><p>a</p><p>b</p></b>", "**a**\n\n**b**"),
        ("<b></b>x", "x"),
        // A line tabulation is whitespace to CommonMark, not to HTML (the
        // markdown fuzz target's finds): emphasis beside it is left out.
        ("<b>x\u{b}</b>", "x\u{b}"),
        ("<b>\u{b}x</b>", "\u{b}x"),
        // Links and images.
        ("<a href=/x>to <b>x</b></a>", "[to **x**](/x)"),
        ("<a href='a b(c)'>l</a>", "[l](a%20b\\(c\\))"),
        ("<a href=javascript:void(0)>js</a>", "js"),
        ("<a>no href</a>", "no href"),
        (
            "<a href=/x><div><h3>T</h3><p>d</p></div></a>",
            "### [T](/x)\n\n[d](/x)",
        ),
        ("<a href=/a>a<a href=/b>b</a>", "[a](/a)[b](/b)"),
        ("<img src=c.png alt=cat>", ""),
        // Tables.
        (
            "<table><tr><th>A<th>B<tr><td>1<td>2</table>",
            "| A | B |\n| --- | --- |\n| 1 | 2 |",
        ),
        (
            "<table><tr><td>1<td>2<tr><td>3<td>4<td>5</table>",
            "| 1 | 2 |  |\n| --- | --- | --- |\n| 3 | 4 | 5 |",
        ),
        (
            "<table><tr><td>a|b<td><p>x</p><ul><li>y</ul></table>",
            "| a\\|b | x y |\n| --- | --- |",
        ),
        (
            "<table><caption>Cap</caption><tr><td>1</table>",
            "Cap\n\n| 1 |\n| --- |",
        ),
        (
            "<table><tr><td>a<table><tr><td>b<td>c</table></td><td>d</table>",
            "| a b c | d |\n| --- | --- |",
        ),
        (
            "<ul><li><table><tr><td>a<tr><td>b</table></ul>",
            "- | a |\n  | --- |\n  | b |",
        ),
        (
            "<table><tr><td><code>a|b</code></table>",
            "| `a\\|b` |\n| --- |",
        ),
        ("<table></table><p>x", "x"),
        // Math.
        (
            r#"<p>So <math><semantics><mi>x</mi><annotation encoding="application/x-tex">x^2 + 1</annotation></semantics></math> is</p>"#,
            "So $x^2 + 1$ is",
        ),
        (
            r#"<math display=block><semantics><mi>y</mi><annotation encoding="application/x-tex">\frac{1}{2}</annotation></semantics></math>"#,
            "$$\\frac{1}{2}$$",
        ),
        ("<p><math><mi>x</mi><mo>+</mo><mn>1</mn></math>", "x+1"),
        // What is not shown is not written.
        (
            "<p>a<script>b</script><span hidden>c</span><template>d</template>e",
            "ae",
        ),
        ("<p>a&nbsp;b\0c", "a bc"),
    ];
    check(cases, |_, _| {});
}

/// Text that CommonMark would read as markup is escaped, and nothing else.
#[test]
fn escaping() {
    let cases: &[(&str, &str)] = &[
        ("<p># not a heading", "\\# not a heading"),
        ("<p>#hashtag", "#hashtag"),
        (
            "<p>- not an item<p>+ nor this<p>* nor this",
            "\\- not an item\n\n\\+ nor this\n\n\\* nor this",
        ),
        (
            "<p>1. not a list<p>2) nor this<p>1.5 stays",
            "1\\. not a list\n\n2\\) nor this\n\n1.5 stays",
        ),
        ("<p>> no quote", "\\> no quote"),
        ("<p>---<p>===<p>~~~", "\\---\n\n\\===\n\n\\~~~"),
        ("<p>a - b + c > d 1. e", "a - b + c > d 1. e"),
        (
            "<p>`code` *em* _em_ snake_case",
            "\\`code\\` \\*em\\* \\_em\\_ snake_case",
        ),
        ("<p>[link](x) ![img](y)", "\\[link\\](x) !\\[img\\](y)"),
        ("<p>&lt;div&gt; a &lt; b", "\\<div> a < b"),
        ("<p>&amp;amp; &amp; AT&amp;T", "\\&amp; & AT\\&T"),
        ("<p>C:\\dir \\* end\\", "C:\\dir \\\\\\* end\\\\"),
        ("<p>a|b", "a|b"),
        ("<h1>C #", "# C \\#"),
        ("<h1>C#", "# C#"),
        // A line tabulation ends a marker for CommonMark, not for HTML (the
        // markdown fuzz target's find).
        ("<p>#\u{b}~&lt;", "\\#\u{b}~\\<"),
    ];
    check(cases, |html, got| {
        // Rendered back, the text is the page's.
        let back = extract(&render(got), &ExtractOptions::default()).text;
        let plain = extract(html, &ExtractOptions::default()).text;
        assert_eq!(words(&back), words(&plain), "{html:?} -> {got:?}");
    });
}

#[test]
fn links_resolve_against_the_page_and_its_base() {
    let page = Url::parse("https://example.com/dir/page.html").unwrap();
    let html = r##"<a href="a.html">A</a> <base href="/root/"><a href="b.html">B</a> <a href="#top">T</a>"##;
    let found = extract(html, &options().url(Some(page.clone())));
    assert_eq!(
        found.text,
        "[A](https://example.com/dir/a.html) [B](https://example.com/root/b.html) [T](https://example.com/root/#top)"
    );
    // Without targets, the text alone.
    let plain_links = extract(html, &options().url(Some(page)).link_targets(false));
    assert_eq!(plain_links.text, "A B T");
}

/// Without links wanted, `<a>` goes to the Markdown writer on the inline
/// markup's path (past the start tags' general one): the Markdown is
/// what it is with links wanted, which take the general path, on
/// hand-written pages and the corpus.
#[test]
fn anchors_the_same_with_links_wanted_or_not() {
    let mut pages: Vec<String> = [
        "<p>a <a href=/x>x <b>y</a> z</b> <a href='#f'>f <a href=g>g</a>",
        "<a hidden href=h>h</a> <a style=display:none href=s>s</a> <a href=t><p>block</p></a>",
        "<pre><a href=p>p</a></pre><math><a href=m>m</a></math><code><a href=c>c</a></code>",
        "<table><tr><td><a href=t>t<td>u</a></table><h1><a href=h>h</a></h1><a>no href</a>",
        "<noscript><a href=n>n</a></noscript><template><a href=t>t</a></template>x</a>",
    ]
    .map(String::from)
    .to_vec();
    if let Some(paths) = corpus::corpus_page_paths() {
        for path in paths {
            pages.push(String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned());
        }
    }
    for html in &pages {
        for targets in [true, false] {
            let with = extract(html, &options().links(true).link_targets(targets));
            let without = extract(html, &options().links(false).link_targets(targets));
            assert_eq!(with.text, without.text, "{}", &html[..html.len().min(80)]);
        }
    }
}

#[test]
fn images_only_when_asked() {
    let page = Url::parse("https://example.com/").unwrap();
    let html = r#"<p>A <img src="cat.png" alt="a [cat]"> sat <a href="/x"><img src="i.png" alt="icon"></a> <img src=d.png alt="">"#;
    assert_eq!(extract(html, &options()).text, "A sat");
    let with = extract(html, &options().alt_text(true).url(Some(page)));
    assert_eq!(
        with.text,
        "A ![a \\[cat\\]](https://example.com/cat.png) sat [![icon](https://example.com/i.png)](https://example.com/x)"
    );
}

#[test]
fn the_cap_cuts_the_markdown() {
    let html = "<h1>Title</h1><p>Some text that goes on.</p>";
    let found = extract(html, &options().text_limit(12));
    assert_eq!(found.text, "# Title\n\nSom");
    assert!(found.text_truncated);
    let whole = extract(html, &options());
    assert!(!whole.text_truncated);
    // Metadata and links are still read past the cap.
    let found = extract("<p>é<a href=/x>y</a>", &options().text_limit(1));
    assert_eq!(found.text, "");
    assert_eq!(found.links.len(), 1);
}

/// Main content keeps the article's Markdown, with its structure.
#[test]
fn main_content_in_markdown() {
    let prose = |topic: &str| {
        (0..3)
            .map(|i| {
                format!(
                    "The {topic} study, published in its {i}th report this spring, found that \
                     results varied widely across the regions surveyed, and the authors argue \
                     that further work is needed before firm conclusions can be drawn."
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let html = format!(
        r#"<header><nav><ul><li><a href="/">Home</a><li><a href="/news">News</a></ul></nav></header>
        <main><article><h1>Deep <em>ocean</em> mapped</h1><p>{}</p>
        <h2>Method</h2><p>{}</p><ul><li>The survey covered four thousand square kilometres.</li>
        <li>Its sonar resolved features half a metre across.</li></ul><p>{}</p></article></main>
        <footer><p>© 2026 Example News</p><a href="/privacy">Privacy</a></footer>"#,
        prose("ocean"),
        prose("sonar"),
        prose("trench")
    );
    let main = ExtractOptions::default().main_content(true);
    let plain = extract(&html, &main);
    let md = extract(&html, &main.clone().format(TextFormat::Markdown));
    assert_eq!(plain.main_content, MainContent::Found);
    assert_eq!(md.main_content, MainContent::Found);
    assert!(
        md.text
            .starts_with("# Deep *ocean* mapped\n\nThe ocean study"),
        "{}",
        md.text
    );
    assert!(md.text.contains("\n\n## Method\n\n"), "{}", md.text);
    assert!(md.text.contains("\n\n- The survey covered"), "{}", md.text);
    assert!(!md.text.contains("Home") && !md.text.contains("Privacy"));
    let back = extract(&render(&md.text), &ExtractOptions::default()).text;
    assert_eq!(words(&back), words(&plain.text));
}

/// The corpus pages and generated pages: rendered back, the same words
/// in the same order; on generated pages of well-formed blocks, the same
/// headings, list items, cells and code blocks.
#[test]
fn markdown_renders_back_to_the_text() {
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut pages: Vec<(String, String)> = Vec::new();
    match corpus::corpus_page_paths() {
        Some(paths) => {
            for path in paths {
                let html = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                pages.push((path.display().to_string(), html));
            }
        }
        None => skipped += 1,
    }
    let pieces = [
        "<p>",
        "</p>",
        "<div>",
        "</div>",
        "<ul>",
        "</ul>",
        "<ol start=3>",
        "</ol>",
        "<li>",
        "</li>",
        "<h2>",
        "</h2>",
        "<h4>",
        "<blockquote>",
        "</blockquote>",
        "<pre>",
        "a\n  b",
        "</pre>",
        "<code>",
        "</code>",
        "<b>",
        "</b>",
        "<i>",
        "</i>",
        "<em>",
        "<a href=/x>",
        "</a>",
        "<a href='(y)'>",
        "<br>",
        "<hr>",
        "<table>",
        "<tr>",
        "<td>",
        "<th>",
        "</td>",
        "</table>",
        "word ",
        "text. ",
        " # ",
        "- ",
        "1. ",
        "* ",
        "_x_ ",
        "`t` ",
        "[l] ",
        "&lt;b&gt; ",
        "a|b ",
        "\\",
        "&amp;amp; ",
        "snake_case ",
        "> ",
        "---",
        "x:",
        "\"q\"",
        "<span hidden>",
        "</span>",
        "<caption>",
        "</caption>",
        "<img alt=pic src=p.png>",
        "<kbd>",
        "</kbd>",
        "é ",
        "&nbsp;",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for n in 0..500 {
        let mut html = String::new();
        for _ in 0..(n % 80) {
            html.push_str(pieces[(next() >> 33) as usize % pieces.len()]);
        }
        pages.push((format!("generated {n}: {html:?}"), html));
    }
    for alt_text in [false, true] {
        let options = ExtractOptions::default().alt_text(alt_text);
        for (name, html) in &pages {
            match markdown_keeps_the_words(html, &options, &options) {
                Ok(_) => passed += 1,
                Err(e) => {
                    failed += 1;
                    let md = extract(html, &options.clone().format(TextFormat::Markdown)).text;
                    eprintln!("{name}: {e}\n--- markdown:\n{md}\n---");
                }
            }
        }
    }
    // Well-formed blocks: each element comes back as the same element.
    let blocks = [
        "<h1>Title</h1>",
        "<h3>Part <em>two</em></h3>",
        "<p>A paragraph with <b>bold</b> and <a href=/l>a link</a>.</p>",
        "<ul><li>one</li><li>two <ul><li>inner</li></ul></li></ul>",
        "<ol start=4><li>four</li><li>five</li></ol>",
        "<blockquote><p>quoted</p><ul><li>in quote</li></ul></blockquote>",
        "<pre><code class=language-py>def f():\n    return `x`</code></pre>",
        "<table><tr><th>H1</th><th>H2</th></tr><tr><td>a</td><td>b|c</td></tr><tr><td>d</td></tr></table>",
        "<ul><li><pre>code in item</pre></li><li><table><tr><td>cell</td></tr></table></li></ul>",
        "<p># hash - dash 1. one</p>",
    ];
    for n in 0..200 {
        let html: String = (0..1 + n % 12)
            .map(|_| blocks[(next() >> 33) as usize % blocks.len()])
            .collect();
        let result = markdown_keeps_the_words(
            &html,
            &ExtractOptions::default(),
            &ExtractOptions::default(),
        )
        .and_then(|(md, rendered)| {
            let (want, got) = (elements(&html), elements(&rendered));
            if want == got {
                Ok(())
            } else {
                Err(format!("elements {want:?} came back as {got:?}:\n{md}"))
            }
        });
        match result {
            Ok(()) => passed += 1,
            Err(e) => {
                failed += 1;
                eprintln!("blocks {n}: {e}");
            }
        }
    }
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    assert_eq!(failed, 0);
}

/// The markdown fuzz target's third find: emphasis taken out after a
/// block's end had moved the text under main content's marks, and slicing
/// the kept blocks' Markdown panicked.
#[test]
fn main_content_marks_stay_in_the_markdown() {
    let html = String::from_utf8_lossy(b"\xff$<B>7+7!$<\x0b");
    let options = ExtractOptions::default()
        .hidden(false)
        .format(TextFormat::Markdown)
        .main_content(true);
    let found = extract(&html, &options);
    assert!(found.text.len() <= markdown(&html).len() + 2);
}

/// The markdown fuzz target's finds of 2026-11-29 (each input as the
/// fuzzer's was cut down to what it needs), with alt text on: the words
/// of each come back from the rendered Markdown, and the Markdown is
/// what CommonMark needs for that.
#[test]
fn fuzz_finds_keep_the_words() {
    let cases = [
        // A block inside math ends it (the tree builder's breakout).
        ("<math><mi>foo</mi><mi>bar</mi><p>baz", "foobar\n\nbaz"),
        ("<math><mi>a</mi><br><mi>b</mi></math>", "a\\\nb"),
        // An inner `<pre>`'s end is a line break in the code.
        ("<pre>a<pre><p>b</pre>c", "```\na\nb\nc\n```"),
        // An empty item writes no marker, and text in a list outside its
        // items ends the list for CommonMark: a `2.` after either begins
        // a list again, which it may only after a blank line.
        ("<ol>-<li><c><li>e", "\\-\n\n2. e"),
        ("<ol><li>.</li><figcaption>)<li>R", "1. .\n\n)\n\n2. R"),
        // An image's alt text is a word between spaces; an empty one
        // still parts the words around it.
        ("><img alt=\"\">i", "\\> i"),
        ("<img alt=.>x", ". x"),
        ("<pre>><img alt=\"\">r", "```\n> r\n```"),
        // `|` in a link's destination would end the cell.
        ("<table><td><a href=|>n", "| [n](\\|) |\n| --- |"),
        // `!` before a link would make it an image.
        ("!<a href=s>.", "\\![.](s)"),
        // A cell's end tag with no cell open parts words.
        ("<table>r</td><", "r \\<"),
        // Digits that begin a line, then `.` or `)` from another token.
        ("<t>4<n>)", "4\\)"),
        ("<p>1<b>.</b> x", "1\\. x"),
        // An opening delimiter that can close too (after punctuation,
        // before punctuation) would close the emphasis open around it
        // (`***` is read as emphasis and strong): left out, its text
        // kept.
        ("<i><b>a</b>.<b>.", "***a**..*"),
        // ...but not one the rule of three keeps from closing it (`*`
        // and `**` sum to three).
        ("<i>(<b>x</b>)<b>.</b></i>", "*(**x**)**.***"),
    ];
    let plain = ExtractOptions::default().alt_text(true);
    let options = plain.clone().format(TextFormat::Markdown);
    let (mut passed, mut failed) = (0, 0);
    for (html, want) in cases {
        let got = extract(html, &options).text;
        let words = markdown_keeps_the_words(html, &plain, &plain);
        if got == want && words.is_ok() {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("{html:?}\n  want {want:?}\n  got  {got:?}\n  words {words:?}");
        }
    }
    println!("{passed} passed, {failed} failed, 0 skipped");
    assert_eq!(failed, 0);
}
