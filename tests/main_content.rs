//! Main content (`ExtractOptions::main_content`) on hand-written pages:
//! what each rule keeps and drops, the pages with no single main content,
//! and that the main content's text and runs are lines and runs of the
//! whole text at the same source offsets (on these pages, on the corpus,
//! and on generated pages).

use htmltok::MemoryLimitKind;
use htmltok::extract::{ExtractOptions, Extracted, MainContent, TextFormat, extract};
use htmltok_test_support::corpus;
use htmltok_test_support::main_content::main_content_is_whole_text_runs;

fn main_content(html: &str) -> Extracted {
    extract(html, &ExtractOptions::default().main_content(true))
}

/// A paragraph of `n` sentences on `topic`, long enough to read as text.
fn prose(topic: &str, n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "The {topic} study, published in its {i}th report this spring, found that \
                 results varied widely across the regions surveyed, and the authors argue \
                 that further work is needed before firm conclusions can be drawn."
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A news article with every kind of boilerplate around it, and every kind
/// of block inside it.
fn article_page() -> String {
    format!(
        r#"<!doctype html><html><head><title>Ocean floor mapped | Example News</title></head><body>
<div id="cookie-banner" class="cookie-consent"><p>We use cookies to improve your experience on our site. By continuing you accept our use of cookies.</p><button>Accept all</button></div>
<header class="site-header"><a href="/" class="logo">Example News</a>
<nav class="main-nav"><ul><li><a href="/world">World</a></li><li><a href="/politics">Politics</a></li><li><a href="/science">Science</a></li><li><a href="/sport">Sport</a></li></ul></nav></header>
<main><article>
<h1>Researchers map the deep ocean floor</h1>
<p>{p1}</p>
<h2>A new method</h2>
<p>{p2}</p>
<p>Short, but part of it.</p>
<ul><li>The survey covered four thousand square kilometres of the Atlantic floor.</li><li>Its sonar resolved features as small as half a metre across.</li></ul>
<blockquote><p>We had never seen the trench in this detail before, said the lead author.</p></blockquote>
<figure><img src="ship.jpg" alt="The ship"><figcaption>The survey ship in port before the expedition.</figcaption></figure>
<pre><code>depth = survey(area, resolution=0.5)</code></pre>
<table><tr><th>Region</th><th>Deepest point</th></tr><tr><td>Atlantic</td><td>8,376 metres</td></tr></table>
<p>{p3}</p>
<div class="share-bar"><a href="https://facebook.com/share">Share on Facebook</a> <a href="https://twitter.com/share">Share on Twitter</a> <a href="mailto:?">Email</a></div>
</article>
<aside class="related"><h3>Related stories</h3><ul><li><a href="/a">Whales return to the bay</a></li><li><a href="/b">New species found in a deep reef</a></li><li><a href="/c">The tides, explained</a></li></ul></aside>
<section id="comments" class="comments"><h3>3 comments</h3>
<div class="comment"><p class="author">reader1</p><p>Great article, thanks for sharing this!</p></div>
<div class="comment"><p class="author">reader2</p><p>I wonder how they calibrated the sonar.</p></div></section>
</main>
<footer class="site-footer"><p>© 2026 Example News. All rights reserved.</p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer>
</body></html>"#,
        p1 = prose("ocean", 4),
        p2 = prose("sonar", 3),
        p3 = prose("trench", 3),
    )
}

#[test]
fn an_article_keeps_its_blocks_and_drops_the_boilerplate() {
    let page = article_page();
    let found = main_content(&page);
    assert_eq!(found.main_content, MainContent::Found);
    let text = &found.text;
    for kept in [
        "Researchers map the deep ocean floor",
        "A new method",
        "Short, but part of it.",
        "The survey covered four thousand square kilometres",
        "Its sonar resolved features",
        "We had never seen the trench",
        "The survey ship in port",
        "depth = survey(area, resolution=0.5)",
        "Atlantic 8,376 metres",
        "The trench study",
    ] {
        assert!(text.contains(kept), "{kept:?} kept in:\n{text}");
    }
    for dropped in [
        "We use cookies",
        "Politics",
        "Share on Facebook",
        "Related stories",
        "Whales return",
        "Great article",
        "All rights reserved",
        "Privacy",
    ] {
        assert!(!text.contains(dropped), "{dropped:?} dropped from:\n{text}");
    }
}

#[test]
fn the_text_keeps_the_lines_of_the_whole_text() {
    let page = article_page();
    let all = extract(&page, &ExtractOptions::default().scripting(false));
    let found = main_content(&page);
    let lines: Vec<&str> = all.text.lines().collect();
    for line in found.text.lines() {
        assert!(
            lines.contains(&line),
            "{line:?} is a line of the whole text"
        );
    }
}

#[test]
fn links_say_whether_they_lie_in_the_main_content() {
    let page = article_page();
    let found = main_content(&page);
    let link = |url: &str| {
        found
            .links
            .iter()
            .find(|l| l.url() == url)
            .unwrap_or_else(|| panic!("{url}"))
    };
    assert!(!link("/politics").in_main_content);
    assert!(!link("/privacy").in_main_content);
    assert!(!link("/a").in_main_content);
    // Without main content, no link is said to be in it.
    let all = extract(&page, &ExtractOptions::default());
    assert!(all.links.iter().all(|l| !l.in_main_content));
    assert_eq!(all.main_content, MainContent::NotAsked);
}

#[test]
fn pages_without_text_or_without_main_content() {
    assert_eq!(main_content("").main_content, MainContent::Empty);
    assert_eq!(
        main_content("<script>x()</script><img src=a.png>").main_content,
        MainContent::Empty
    );
    // A page of links only: all of its text, said so.
    let links: String = (0..30)
        .map(|i| format!(r#"<li><a href="/p{i}">Page {i}</a></li>"#))
        .collect();
    let page = format!("<nav><ul>{links}</ul></nav>");
    let found = main_content(&page);
    assert!(!found.text.is_empty());
    assert!(matches!(
        found.main_content,
        MainContent::AllText | MainContent::Found
    ));
    if found.main_content == MainContent::AllText {
        assert_eq!(found.text, extract(&page, &ExtractOptions::default()).text);
    }
}

/// `ExtractOptions::memory_limit`: a page past it is reported (the
/// extractor's kind, where it stopped), and what came before is extracted
/// as a page that ended there is, its main content decided over it; the
/// tokenizer that `extract` feeds it from is under the same limit.
#[test]
fn a_page_past_the_memory_limit_is_reported_with_what_came_before() {
    // Paragraphs of few attributes: what the extractor holds of them (the
    // text, a block, a link) passes the limit before what the tokenizer
    // holds (their attributes, in its arena for the whole page).
    let comment = r#"<p>Great article, thanks for sharing this! See <a href=/more>more</a>.</p>"#;
    let article = article_page();
    let page = format!("{article}{}", comment.repeat(20_000));
    let options = ExtractOptions::default().main_content(true);
    for options in [
        options.clone(),
        options.clone().offsets(true),
        options.clone().format(TextFormat::Markdown),
        options.clone().main_content(false),
    ] {
        let found = extract(&page, &options.clone().memory_limit(Some(1 << 20)));
        let stopped = found.memory_limit.expect("past the limit");
        assert_eq!(stopped.kind, MemoryLimitKind::Extract);
        assert_eq!(stopped.kind.name(), "extract");
        assert_eq!(stopped.limit, 1 << 20);
        assert!(stopped.needed > stopped.limit, "{stopped}");
        let offset = stopped.offset.expect("where it stopped");
        assert!(
            offset > article.len() && offset < page.len() / 2,
            "{stopped}"
        );
        let prefix = extract(&page[..offset], &options);
        assert!(prefix.memory_limit.is_none());
        assert_eq!(found.text, prefix.text);
        assert_eq!(found.runs, prefix.runs);
        assert_eq!(found.links, prefix.links);
        assert_eq!(found.metadata, prefix.metadata);
        assert_eq!(found.main_content, prefix.main_content);
        if options.text_format() == TextFormat::Plain && found.main_content != MainContent::NotAsked
        {
            assert_eq!(found.main_content, MainContent::Found);
            assert!(
                found
                    .text
                    .contains("The ocean study, published in its 0th report")
            );
        }
    }
    // Under a limit it does not reach, nothing changes.
    let whole = extract(&page, &options.clone().memory_limit(Some(1 << 30)));
    assert_eq!(whole, extract(&page, &options));
    // A value the tokenizer must copy (its character references decoded)
    // passes the limit in the tokenizer first.
    let page = format!(
        r#"{article}<p title="{}">after</p>"#,
        "&amp;".repeat(1 << 20)
    );
    let found = extract(&page, &options.memory_limit(Some(1 << 20)));
    let stopped = found.memory_limit.expect("past the limit");
    assert_eq!(stopped.kind, MemoryLimitKind::Tokenizer);
    assert!(
        found
            .text
            .starts_with("Researchers map the deep ocean floor\n")
    );
    assert!(!found.text.contains("after"));
}

#[test]
fn noscript_content_is_read() {
    // A forum page that gives its posts to readers without scripts.
    let page = format!(
        r#"<div id="app"></div><noscript><div class="topic"><h1>Sonar calibration</h1>
        <div class="post"><p>{}</p></div></div></noscript>"#,
        prose("calibration", 3)
    );
    let found = main_content(&page);
    assert!(found.text.contains("Sonar calibration"), "{}", found.text);
    assert!(found.text.contains("The calibration study"));
}

/// The corpus's pages, by name, or none if the corpus is not there.
fn corpus_pages() -> Option<Vec<(String, String)>> {
    let dir = std::fs::read_dir(corpus::corpus_dir()).ok()?;
    let mut files: Vec<_> = dir.flatten().map(|e| e.path()).collect();
    files.sort();
    Some(
        files
            .into_iter()
            .map(|path| {
                let html = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                (path.display().to_string(), html)
            })
            .collect(),
    )
}

/// Generated pages: every kind of block, nested, broken.
fn generated_pages() -> Vec<(String, String)> {
    let pieces = [
        "<p>",
        "</p>",
        "<div class=nav>",
        "</div>",
        "<li>",
        "<a href=/x>",
        "</a>",
        "<br>",
        "<pre>",
        "a\n b",
        "</pre>",
        "<h2>",
        "word ",
        "<td>",
        "<table>",
        "<noscript>",
        "</noscript>",
        "&amp; ",
        "<span hidden>",
        "</span>",
        "<footer>",
        "text text. ",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut pages = Vec::new();
    for n in 0..300 {
        let mut html = String::new();
        for _ in 0..(n % 60) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            html.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
        }
        pages.push((format!("generated {n}"), html));
    }
    pages
}

/// Checks each page with `options`; prints and counts the failures.
fn check_runs(pages: &[(String, String)], options: &ExtractOptions) -> (usize, usize) {
    let (mut passed, mut failed) = (0, 0);
    for (name, html) in pages {
        match main_content_is_whole_text_runs(html, options) {
            Ok(()) => passed += 1,
            Err(e) => {
                failed += 1;
                eprintln!("{name}: {e}");
            }
        }
    }
    (passed, failed)
}

#[test]
fn main_content_runs_are_runs_of_the_whole_text() {
    let mut pages = vec![("article".to_string(), article_page())];
    let corpus = corpus_pages();
    let skipped = usize::from(corpus.is_none());
    pages.extend(corpus.into_iter().flatten());
    pages.extend(generated_pages());
    let (passed, failed) = check_runs(&pages, &ExtractOptions::default());
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    assert_eq!(failed, 0);
}

/// With a text limit the text cut where the limit falls is the same with
/// offsets on or off, and so are the blocks main content reads: no text
/// after the token the cut falls in counts for them, whether the text is
/// written token by token (offsets) or gathered and collapsed later. The first page is the `main_content` fuzz target's find
/// (its first byte's options: no alt text, hidden text shown, 64 bytes):
/// the second block was told of text after the cut with offsets off, and
/// the page's main content lost it.
#[test]
fn a_text_limit_cuts_the_same_blocks_with_offsets_on_or_off() {
    let fuzzed = "\u{fffd}".repeat(19)
        + "@<?>q\t<P>\u{fffd}\u{fffd}\r<V\u{fffd}\u{fffd}@<?>q\t<P>\u{fffd}\u{fffd}\r\
           <V_\u{fffd}T\r_\u{10}";
    let options = ExtractOptions::default()
        .alt_text(false)
        .hidden(false)
        .text_limit(64);
    let on = extract(&fuzzed, &options.clone().main_content(true).offsets(true));
    let off = extract(&fuzzed, &options.clone().main_content(true));
    assert_eq!(on.text, off.text);
    assert_eq!(on.main_content, off.main_content);
    let (mut passed, mut failed) = check_runs(&[("fuzzed".to_string(), fuzzed)], &options);
    let mut pages = generated_pages();
    pages.push(("article".to_string(), article_page()));
    for limit in [1, 7, 64, 300, 5_000] {
        for alt_text in [false, true] {
            let options = ExtractOptions::default()
                .alt_text(alt_text)
                .text_limit(limit);
            let (p, f) = check_runs(&pages, &options);
            passed += p;
            failed += f;
        }
        // The text alone, whose extraction stops at the cut.
        let alone = ExtractOptions::default()
            .links(false)
            .metadata(false)
            .text_limit(limit);
        let (p, f) = check_runs(&pages, &alone);
        passed += p;
        failed += f;
    }
    let corpus = corpus_pages();
    let skipped = usize::from(corpus.is_none());
    for limit in [64, 5_000] {
        let options = ExtractOptions::default().alt_text(true).text_limit(limit);
        let (p, f) = check_runs(corpus.as_deref().unwrap_or_default(), &options);
        passed += p;
        failed += f;
    }
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    assert_eq!(failed, 0);
}
