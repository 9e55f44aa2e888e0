//! The `extract` module on hand-written pages: the exact text, links and
//! metadata for every rule, broken markup included; the same through a
//! stream at every chunk size; offsets checked against the source over
//! the corpus; arbitrary bytes never panic.

use extract_stream::{extracted, streamed};
use htmltok::bumpalo::Bump;
use htmltok::extract::{
    ANCHOR_TEXT_LIMIT, Alternate, ExtractOptions, Extracted, MetaKey, Rel, extract, extract_in,
};
use htmltok::url::Url;
use htmltok::{Token, Tokenizer};
use htmltok_test_support::{corpus, extract_stream};

fn text(html: &str) -> String {
    extracted(html, &ExtractOptions::default()).text
}

fn text_with(html: &str, options: ExtractOptions) -> String {
    extracted(html, &options).text
}

#[test]
fn collapses_whitespace_and_breaks_blocks() {
    assert_eq!(
        text(
            "<p>  Fish &amp;\n\t chips </p><p>Peas</p>a<br>b<span>c</span> d&nbsp;&nbsp;e<p>&nbsp;"
        ),
        "Fish & chips\nPeas\na\nbc d e"
    );
    assert_eq!(text("<ul>\n <li>one</li>\n <li>two\n</ul>"), "one\ntwo");
    assert_eq!(
        text("<table><tr><td>a</td><td>b</td></tr><tr><th>c</table>"),
        "a b\nc"
    );
    assert_eq!(text(""), "");
    assert_eq!(text("   \n "), "");
    assert_eq!(text("a\0b \0 c"), "ab c");
}

#[test]
fn leaves_out_what_is_not_shown() {
    let html = "<html><head><title>T</title><style>p{}</style>\
        <script>var a = '<p>x</p>';</script></head>\
        <body><noscript>enable JS</noscript><template><p>t<template>u</template>v</template>\
        <p>shown<!-- not --></p><textarea>typed</textarea><iframe>f</iframe>\
        <select><option>o</select><datalist><option>d</datalist>\
        <svg><title>tip</title><desc>d</desc><text>drawn</text></svg>\
        <audio src=a.ogg>Your browser cannot play this</audio><video><p>nor this</video>\
        <canvas>a chart</canvas></body></html>";
    assert_eq!(text(html), "shown\no\ndrawn");
    // Without scripting, <noscript> is markup and shown.
    let no_js = ExtractOptions::default().scripting(false);
    assert_eq!(
        text_with(
            "<noscript><p>enable JS</p></noscript>x<canvas>c</canvas>",
            no_js
        ),
        "enable JS\nxc"
    );
}

#[test]
fn self_closing_and_nested_hidden_elements() {
    // In HTML `/>` does not close <script>; in SVG it does.
    assert_eq!(text("a<script/>x</script>b"), "ab");
    assert_eq!(text("<svg><title/><text>a</text></svg>b"), "ab");
    // <noscript> is raw text with scripting on: a nested one is text, and
    // the first </noscript> ends it.
    assert_eq!(text("<noscript><noscript>x</noscript>y</noscript>z"), "yz");
    // An unclosed <template> hides the rest, as in a browser.
    assert_eq!(text("a<p>b<template>c<p>d"), "a\nb");
}

#[test]
fn broken_markup() {
    // Unclosed tags, stray end tags.
    assert_eq!(
        text("<div>a<div>b</span></div></div></div>c</p>d"),
        "a\nb\nc\nd"
    );
    assert_eq!(text("</script>a</style>b</title>c"), "abc");
    // <p> inside <pre> keeps the pre's line breaks and breaks the line.
    assert_eq!(
        text("<pre>a\n  b<p>c\nd</p>e</pre>f\ng"),
        "a\nb\nc\nd\ne\nf g"
    );
    // An unterminated tag at the end is no text.
    assert_eq!(text("a<b c=\"d"), "a");
}

#[test]
fn pre_keeps_line_breaks() {
    assert_eq!(
        text("<p>a\nb</p><pre>\nfn main() {\n    x\n}</pre>c\nd"),
        "a b\nfn main() {\nx\n}\nc d"
    );
    assert_eq!(
        text("<listing>a\nb</listing><xmp>c\n<p>d</xmp>"),
        "a\nb\nc\n<p>d"
    );
}

#[test]
fn the_hidden_attribute() {
    assert_eq!(text("<div hidden>x<div>y</div>z</div>w"), "w");
    assert_eq!(text("a<span hidden=hidden>x</span>b"), "ab");
    assert_eq!(text("<p hidden=until-found>found</p>"), "found");
    assert_eq!(text("<my-el hidden>x<my-el>y</my-el>z</my-el>w"), "w");
    // Elements whose end tag may be left out end where the tree builder
    // would close them.
    assert_eq!(text("<ul><li hidden>a<li>b</ul>"), "b");
    assert_eq!(text("<ul><li hidden>a<ul><li>b</ul>c<li>d</ul>"), "d");
    assert_eq!(text("<p hidden>a<div>b</div>"), "b");
    assert_eq!(text("<div><p hidden>a</div>b"), "b");
    assert_eq!(text("<dl><dt hidden>a<dd>b</dl>"), "b");
    assert_eq!(text("<table><tr><td hidden>a<td>b</table>"), "b");
    assert_eq!(text("<select><option hidden>a<option>b</select>"), "b");
    // A void element with `hidden` has nothing to hide.
    assert_eq!(text("a<img hidden>b<br hidden>c"), "ab\nc");
    let off = ExtractOptions::default().hidden(false);
    assert_eq!(text_with("<div hidden>x</div>y", off), "x\ny");
}

#[test]
fn alt_text() {
    let html = "<p>A <img alt='grey  cat' src=c.png>sat <input type=image alt=go> \
                <input alt=no><img hidden alt=gone><span hidden><img alt=inside></span>";
    assert_eq!(text(html), "A sat");
    assert_eq!(
        text_with(html, ExtractOptions::default().alt_text(true)),
        "A grey cat sat go"
    );
}

#[test]
fn text_limit() {
    let html = "<p>one two</p><p>three";
    let cut = |n| {
        let found = extracted(html, &ExtractOptions::default().text_limit(n));
        (found.text, found.text_truncated)
    };
    assert_eq!(cut(100), ("one two\nthree".into(), false));
    assert_eq!(cut(13), ("one two\nthree".into(), false));
    assert_eq!(cut(12), ("one two\nthre".into(), true));
    assert_eq!(cut(8), ("one two".into(), true));
    assert_eq!(cut(0), ("".into(), true));
    assert_eq!(
        text_with("é\u{1F600}", ExtractOptions::default().text_limit(4)),
        "é"
    );
}

#[test]
fn offsets_map_text_to_its_source() {
    let html = "<p>  Fish &amp;\n chips</p><script>x</script>a<b>b</b>";
    let found = extract(html, &ExtractOptions::default().offsets(true));
    let runs: Vec<(&str, &str)> = found
        .runs
        .iter()
        .map(|r| (&found.text[r.text.clone()], &html[r.source.range()]))
        .collect();
    assert_eq!(
        runs,
        [
            ("Fish & chips", "  Fish &amp;\n chips"),
            ("a", "a"),
            ("b", "b")
        ]
    );
    assert_eq!(found.text, "Fish & chips\nab");
}

fn link_tuples(found: &Extracted) -> Vec<(&str, &str, &str)> {
    found
        .links
        .iter()
        .map(|l| (l.tag, l.attr, l.url()))
        .collect()
}

fn page_url() -> Url {
    Url::parse("https://example.com/dir/page.html").unwrap()
}

#[test]
fn every_url_attribute() {
    let html = r#"<a href="/a">a</a><area href=b><link rel=stylesheet href=c.css>
        <img src=d.png srcset="e.png 2x, f.png 100w"><iframe src=g></iframe><frame src=h>
        <embed src=i><video src=j poster=k></video><audio src=l></audio>
        <picture><source srcset="m.webp" src=n></picture><script src=o.js></script>
        <form action=p></form><meta http-equiv=refresh content="5; url=q">
        <blockquote cite=r></blockquote><object data=s></object><a ping="t u">"#;
    let options = ExtractOptions::default().url(Some(page_url()));
    let found = extracted(html, &options);
    let e = |s: &str| format!("https://example.com/dir/{s}");
    let want = [
        ("a", "href", "https://example.com/a".to_string()),
        ("area", "href", e("b")),
        ("link", "href", e("c.css")),
        ("img", "src", e("d.png")),
        ("img", "srcset", e("e.png")),
        ("img", "srcset", e("f.png")),
        ("iframe", "src", e("g")),
        ("frame", "src", e("h")),
        ("embed", "src", e("i")),
        ("video", "src", e("j")),
        ("video", "poster", e("k")),
        ("audio", "src", e("l")),
        ("source", "srcset", e("m.webp")),
        ("source", "src", e("n")),
        ("script", "src", e("o.js")),
        ("form", "action", e("p")),
        ("meta", "content", e("q")),
        ("blockquote", "cite", e("r")),
        ("object", "data", e("s")),
        ("a", "ping", e("t")),
        ("a", "ping", e("u")),
    ];
    let got = link_tuples(&found);
    let want: Vec<(&str, &str, &str)> = want.iter().map(|(t, a, u)| (*t, *a, u.as_str())).collect();
    assert_eq!(got, want);
    // Each srcset candidate has its own span.
    let srcset: Vec<&str> = found.links[4..6]
        .iter()
        .map(|l| &html[l.span.range()])
        .collect();
    assert_eq!(srcset, ["e.png", "f.png"]);
}

#[test]
fn base_applies_to_links_before_it() {
    let html =
        r#"<a href="x">1</a><base href="/base/sub/"><base href="/ignored/"><a href="../y">2</a>"#;
    let found = extracted(html, &ExtractOptions::default().url(Some(page_url())));
    assert_eq!(
        link_tuples(&found),
        [
            ("a", "href", "https://example.com/base/sub/x"),
            ("base", "href", "https://example.com/base/sub/"),
            ("base", "href", "https://example.com/ignored/"),
            ("a", "href", "https://example.com/base/y"),
        ]
    );
    assert_eq!(
        found.metadata.base.as_deref(),
        Some("https://example.com/base/sub/")
    );
    // Without the page's address a relative base cannot be resolved:
    // relative URLs stay as written.
    let found = extracted(html, &ExtractOptions::default());
    assert_eq!(found.links[0].url(), "x");
    assert_eq!(found.links[0].error, None);
}

#[test]
fn odd_urls() {
    let html = "<a href='javascript:void(0)'>j</a><img src='data:image/png;base64,AAAA'>\
        <a href='http://exa mple.com/'>bad</a><a href='  ../../../up  '>up</a>\
        <a href=''>empty</a><a>none</a><a href='http://[::1'>v6</a>";
    let found = extracted(html, &ExtractOptions::default().url(Some(page_url())));
    let got: Vec<(&str, Option<&str>)> = found
        .links
        .iter()
        .map(|l| (l.url(), l.error.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("javascript:void(0)", None),
            ("data:image/png;base64,AAAA", None),
            (
                "http://exa mple.com/",
                Some("invalid international domain name")
            ),
            ("https://example.com/up", None),
            ("http://[::1", Some("invalid IPv6 address")),
        ]
    );
    assert_eq!(found.links[3].raw(), "../../../up");
}

#[test]
fn rel_hreflang_and_anchor_text() {
    let html = r#"<a href=/1 rel="NoFollow ugc">Fish <b>and</b>
        chips</a><a href=/2 rel=sponsored hreflang=de><img alt="Logo"> Home</a>
        <a href=/3>unclosed<a href=/4>next</a><a href=/5><div>block</div>text</a>
        <link rel="alternate" hreflang=fr href=/fr><link rel=canonical href=/c>
        <a href=/6><script>no</script><span hidden>secret</span>shown"#;
    let found = extracted(html, &ExtractOptions::default());
    type Row<'a> = (&'a str, Vec<&'a str>, Option<&'a str>, Option<&'a str>);
    let got: Vec<Row> = found
        .links
        .iter()
        .map(|l| {
            (
                l.url(),
                l.rel.keywords().collect(),
                l.hreflang(),
                l.anchor_text(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("/1", vec!["nofollow", "ugc"], None, Some("Fish and chips")),
            ("/2", vec!["sponsored"], Some("de"), Some("Logo Home")),
            ("/3", vec![], None, Some("unclosed")),
            ("/4", vec![], None, Some("next")),
            ("/5", vec![], None, Some("block text")),
            ("/fr", vec!["alternate"], Some("fr"), None),
            ("/c", vec!["canonical"], None, None),
            ("/6", vec![], None, Some("shown")),
        ]
    );
    assert!(found.links[0].rel.contains(Rel::NOFOLLOW | Rel::UGC));
}

#[test]
fn links_only_and_text_only() {
    let html = "<p>x<a href=/a>y</a>";
    let links = extracted(html, &ExtractOptions::default().text(false).metadata(false));
    assert_eq!(links.text, "");
    assert_eq!(links.links.len(), 1);
    assert_eq!(links.links[0].anchor_text(), Some("y"));
    let text = extracted(
        html,
        &ExtractOptions::default().links(false).metadata(false),
    );
    assert_eq!(text.text, "xy");
    assert!(text.links.is_empty());
}

/// End tags that make a boundary break the anchor text they are in,
/// whatever else is wanted, and change nothing outside an anchor.
#[test]
fn end_tags_break_anchor_text() {
    let html = "<a href=/e>x</p>y</li>z</td>w</a>v</div>u<a href=/f>q</h1>r</th>s</a></tr>t";
    for options in [
        ExtractOptions::default(),
        ExtractOptions::default().text(false).metadata(false),
    ] {
        let found = extracted(html, &options);
        let anchors: Vec<_> = found.links.iter().map(|l| l.anchor_text()).collect();
        assert_eq!(anchors, [Some("x y z w"), Some("q r s")]);
    }
    let text = extracted(
        html,
        &ExtractOptions::default().links(false).metadata(false),
    );
    assert_eq!(text.text, "x\ny\nz wv\nuq\nr s\nt");
}

/// Links alone are the links of a whole extraction: a text token outside
/// an `<a>` is skipped then, and anchor text goes through one buffer kept
/// from anchor to anchor. Over hand-written anchors (one past the cap,
/// then short ones, unclosed ones, hidden text) and the corpus.
#[test]
fn links_alone_are_those_of_everything() {
    let long = "word ".repeat(ANCHOR_TEXT_LIMIT);
    let pages = [
        format!("<a href=/1>{long}</a><a href=/2>x</a>t<a href=/3><b>y</b> z"),
        "<a href=/1>a<a href=/2></a>b<a href=#c><img alt=d>e</a>f<a href=/4>g</a>".into(),
        "<p>t<a href=/1><span hidden>h</span><script>s</script>v</a>w<a>no href</a>".into(),
        // What is hidden or special outside an anchor, then anchors in
        // and after it (links alone skip tags outside anchors that hold
        // no URL and change nothing shown).
        "<div hidden><a href=/h>in hidden</a><p>x</div><a href=/s>shown</a>".into(),
        "<ul><li hidden>a<li><a href=/l>b</a></ul><p hidden>c<div><a href=/d>d</a>".into(),
        "<script><a href=/no></script><a href=/yes>y</a><style>a</style><a href=/z>z</a>".into(),
        "<svg><a href=/s/>x<path/></svg><a href=/t>t</a><pre><a href=/p>  p  q </a></pre>".into(),
        "<noscript><a href=/n>n</a></noscript><template><a href=/t>t</a></template><a href=/u>u".into(),
        "<details hidden=until-found><a href=/f>found</a></details><x-y hidden><a href=/c>c</a></x-y>".into(),
        // End tags that make a boundary inside an anchor and outside one
        // (links alone skip the latter without a call).
        "<a href=/e>x</p>y</li>z</td>w</a>v</div>u<a href=/f>q</h1>r</th>s</a></tr>".into(),
    ];
    let corpus = corpus::corpus_page_paths().unwrap_or_default();
    let read =
        |p: &std::path::PathBuf| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    let all = ExtractOptions::default().url(Some(page_url()));
    let alone = all.clone().text(false).metadata(false);
    let mut anchors = 0;
    for html in pages.into_iter().chain(corpus.iter().map(read)) {
        let want = extract(&html, &all).links;
        anchors += want.iter().filter(|l| l.anchor_text().is_some()).count();
        assert_eq!(
            extract(&html, &alone).links,
            want,
            "{}",
            &html[..html.len().min(80)]
        );
    }
    assert!(anchors >= 9);
    let capped = extract(&format!("<a href=/1>{long}</a><a href=/2>x</a>"), &alone).links;
    assert!(capped[0].anchor_text().unwrap().len() <= ANCHOR_TEXT_LIMIT);
    assert_eq!(capped[1].anchor_text(), Some("x"));
}

#[test]
fn metadata() {
    let html = r#"<!DOCTYPE html><html lang=en-GB><head>
        <meta http-equiv="Content-Type" content="text/html; charset='iso-8859-1'">
        <meta charset=utf-8>
        <title>  Fish &amp;
          chips </title><title>second</title>
        <meta name=Description content="Cod &amp; more">
        <meta name=keywords content="fish, chips,,  peas ">
        <meta property="og:title" content="OG">
        <meta property="og:image" content="/i.png">
        <meta name="twitter:card" content="summary">
        <meta name=ROBOTS content="NoIndex, nofollow ,">
        <meta name=robots content="noarchive">
        <meta http-equiv=refresh content="30; url=/next">
        <meta itemprop=name content=Fish>
        <link rel="alternate Canonical" href="/c?a=1&amp;b=2">
        <link rel=alternate hreflang=de href="/de/">
        <link rel=alternate type="application/rss+xml" href="feed.xml">
        <base href="/base/">
        <script type=" application/LD+json ">{"@type": "Restaurant", "a": "<b>"}</script>
        <script>not = "json-ld"</script>
        </head><svg><title>not this</title></svg>"#;
    let options =
        ExtractOptions::default().url(Some(Url::parse("https://example.com/x/y.html").unwrap()));
    let m = extracted(html, &options).metadata;
    assert_eq!(m.title.as_deref(), Some("Fish & chips"));
    assert_eq!(m.lang.as_deref(), Some("en-GB"));
    assert_eq!(m.charset.as_deref(), Some("iso-8859-1"));
    assert_eq!(m.base.as_deref(), Some("https://example.com/base/"));
    assert_eq!(
        m.canonical.as_deref(),
        Some("https://example.com/c?a=1&b=2")
    );
    assert_eq!(m.description.as_deref(), Some("Cod & more"));
    assert_eq!(m.keywords, ["fish", "chips", "peas"]);
    assert_eq!(m.robots, ["noindex", "nofollow", "noarchive"]);
    assert_eq!(
        m.alternates,
        [
            Alternate {
                href: "https://example.com/de/".into(),
                hreflang: Some("de".into()),
                media_type: None
            },
            Alternate {
                href: "https://example.com/base/feed.xml".into(),
                hreflang: None,
                media_type: Some("application/rss+xml".into())
            },
        ]
    );
    let refresh = m.refresh.as_ref().unwrap();
    assert_eq!(refresh.seconds, 30.0);
    assert_eq!(refresh.url.as_deref(), Some("https://example.com/next"));
    assert_eq!(
        m.open_graph,
        [
            ("og:title".to_string(), "OG".to_string()),
            ("og:image".to_string(), "/i.png".to_string())
        ]
    );
    assert_eq!(
        m.twitter,
        [("twitter:card".to_string(), "summary".to_string())]
    );
    assert_eq!(m.json_ld, [r#"{"@type": "Restaurant", "a": "<b>"}"#]);
    let keys: Vec<(MetaKey, &str)> = m.meta.iter().map(|t| (t.key, t.value.as_str())).collect();
    assert_eq!(
        keys,
        [
            (MetaKey::HttpEquiv, "content-type"),
            (MetaKey::Name, "description"),
            (MetaKey::Name, "keywords"),
            (MetaKey::Property, "og:title"),
            (MetaKey::Property, "og:image"),
            (MetaKey::Name, "twitter:card"),
            (MetaKey::Name, "robots"),
            (MetaKey::Name, "robots"),
            (MetaKey::HttpEquiv, "refresh"),
            (MetaKey::Itemprop, "name"),
        ]
    );
    assert!(!m.truncated);
}

#[test]
fn metadata_of_an_empty_page_and_its_budget() {
    let m = extracted("<p>hi", &ExtractOptions::default()).metadata;
    assert_eq!(m, Default::default());
    // A title cut short by the end of the input still counts; an SVG
    // title is not the page's.
    let m = extracted(
        "<svg><title>x</title></svg><title>a  b",
        &ExtractOptions::default(),
    )
    .metadata;
    assert_eq!(m.title.as_deref(), Some("a b"));
    let html = format!(
        "<title>{}</title><meta name=a content=b>{}",
        "t".repeat(100),
        "<meta name=k content=v>".repeat(1000)
    );
    let m = extracted(&html, &ExtractOptions::default().metadata_limit(150)).metadata;
    assert!(m.truncated);
    assert_eq!(m.title.as_deref().map(str::len), Some(100));
    assert!(m.meta.len() < 50, "{}", m.meta.len());
}

/// The words of a text: whitespace (with U+00A0) separates, U+0000 goes.
fn words(text: &str) -> Vec<String> {
    text.replace('\0', "")
        .split(|c: char| c.is_ascii_whitespace() || c == '\u{a0}')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Over every corpus page: each run's source span is one text token's,
/// and the run's words are that token's words.
#[test]
fn offsets_over_the_corpus() {
    let Some(paths) = corpus::corpus_page_paths() else {
        println!("0 passed, 0 failed, 1 skipped (no corpus)");
        return;
    };
    let (mut passed, mut failed) = (0, 0);
    for path in paths {
        let html = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let found = extract(&html, &ExtractOptions::default().offsets(true));
        let arena = Bump::new();
        let texts: std::collections::HashMap<(usize, usize), &str> = Tokenizer::new(&html, &arena)
            .filter_map(|t| match t {
                Token::Text(t) => Some(((t.span.start, t.span.end), t.data)),
                _ => None,
            })
            .collect();
        let mut covered = 0;
        for run in &found.runs {
            let out = &found.text[run.text.clone()];
            let token = texts.get(&(run.source.start, run.source.end));
            match token {
                Some(data) if words(out) == words(data) => {
                    passed += 1;
                    covered += out.len();
                }
                _ => {
                    failed += 1;
                    eprintln!(
                        "{}: run {:?} {:?} source {:?}",
                        path.display(),
                        out,
                        run.source,
                        &html[run.source.range()]
                    );
                }
            }
        }
        // The runs cover the whole text but its separators.
        let separators = found.text.len() - covered;
        assert!(separators <= found.runs.len(), "{}", path.display());
    }
    println!("{passed} passed, {failed} failed, 0 skipped");
    assert_eq!(failed, 0);
}

/// Pieces of pages for generated inputs: a tag of every kind the
/// extraction treats apart, references, whitespace, and stray syntax.
const ALPHABET: &[&str] = &[
    "<a href=",
    "<base href=x>",
    "</a>",
    "<p hidden>",
    "<li hidden>",
    "<ul>",
    "</ul>",
    "<pre>",
    "</pre>",
    "<script>",
    "</script>",
    "<svg>",
    "</svg>",
    "<title>",
    "</title>",
    "<meta ",
    "name=robots ",
    "content=\"0;url=y\" ",
    "http-equiv=refresh>",
    "<img alt=z srcset=\"a 1x, b\">",
    "&amp;",
    "&nbsp;",
    " ",
    "\n",
    "\0",
    "x",
    "\u{a0}",
    "é",
    ">",
    "\"",
    "<table><td hidden>",
    "<template>",
    "</template>",
    "<noscript>",
    "</noscript>",
    "<!--",
    "-->",
    "</td>",
    "</p>",
    "</div>",
    "<b>",
    "</b>",
    "</li>",
    "<pre>a\n\n b\t c</pre>",
    "<br>",
    "<td>",
    "\r\n",
];

/// A deterministic pseudo-random `0..n`, for generated inputs.
fn generator() -> impl FnMut(usize) -> usize {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// 2,000 pages generated from [`ALPHABET`], and the corpus pages.
fn generated_and_corpus_pages() -> Vec<String> {
    let mut next = generator();
    let mut pages: Vec<String> = (0..2000)
        .map(|_| {
            let len = next(40);
            (0..len).map(|_| ALPHABET[next(ALPHABET.len())]).collect()
        })
        .collect();
    for path in corpus::corpus_page_paths().unwrap_or_default() {
        pages.push(String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned());
    }
    pages
}

/// Without offsets the text is gathered and collapsed in bulk; with
/// them, token by token. Both give the same text and the same cut, on
/// generated pages and on the corpus, with alt text, with hidden content
/// shown, and under caps of every size.
#[test]
fn gathered_text_collapses_as_token_by_token() {
    let pages = generated_and_corpus_pages();
    let mut next = generator();
    let (mut passed, mut failed) = (0, 0);
    for (i, html) in pages.iter().enumerate() {
        let limit = match i % 3 {
            0 => usize::MAX,
            _ => next(html.len() + 2),
        };
        let options = ExtractOptions::default()
            .links(false)
            .metadata(false)
            .alt_text(i % 2 == 0)
            .hidden(i % 5 != 0)
            .text_limit(limit);
        let gathered = extract(html, &options);
        let by_token = extract(html, &options.clone().offsets(true));
        if (&gathered.text, gathered.text_truncated) == (&by_token.text, by_token.text_truncated) {
            passed += 1;
        } else {
            failed += 1;
            eprintln!(
                "limit {limit}: {:?}\n  gathered {:?}\n  by token {:?}",
                head(html),
                &gathered.text[..gathered.text.len().min(200)],
                &by_token.text[..by_token.text.len().min(200)]
            );
        }
    }
    println!("{passed} passed, {failed} failed, 0 skipped");
    assert_eq!(failed, 0);
}

/// Text alone takes its own, shorter way through end tags: it gives the
/// text that extracting everything gives, on generated pages and on the
/// corpus.
#[test]
fn text_alone_is_the_text_of_everything() {
    let pages = generated_and_corpus_pages();
    let options = [(false, true), (true, false)].map(|(alt, hidden)| {
        let all = ExtractOptions::default().alt_text(alt).hidden(hidden);
        (all.clone().links(false).metadata(false), all)
    });
    let cases = options
        .iter()
        .flat_map(|options| pages.iter().map(move |html| (options, html)));
    check_each(cases, |((alone, all), html)| {
        (extract(html, alone).text == extract(html, all).text, html)
    });
}

/// The first 200 characters of a page, to show.
fn head(html: &str) -> &str {
    &html[..html.char_indices().nth(200).map_or(html.len(), |(i, _)| i)]
}

/// Checks each case (`agrees` says whether it passed, and the page, to
/// show if not), and prints and asserts the count.
fn check_each<'p, C>(cases: impl Iterator<Item = C>, mut agrees: impl FnMut(C) -> (bool, &'p str)) {
    let (mut passed, mut failed) = (0, 0);
    for case in cases {
        let (ok, html) = agrees(case);
        if ok {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("differs: {:?}", head(html));
        }
    }
    println!("{passed} passed, {failed} failed, 0 skipped");
    assert_eq!(failed, 0);
}

/// One arena kept from page to page (`extract_in`, what the Python
/// package does) gives what a fresh arena for each page gives, on
/// generated pages and the corpus, every part asked for.
#[test]
fn an_arena_reused_from_page_to_page() {
    let pages = generated_and_corpus_pages();
    let options = ExtractOptions::default()
        .offsets(true)
        .url(Some(page_url()));
    let mut arena = Bump::new();
    // Forward and back, so each page follows both of its neighbours.
    check_each(pages.iter().chain(pages.iter().rev()), |html| {
        let ok = extract_in(html, &options, &mut arena) == extract(html, &options);
        (ok, html)
    });
}

/// Arbitrary bytes (as text) never panic, and a stream agrees with the
/// whole input.
#[test]
fn arbitrary_input_never_panics() {
    let mut next = generator();
    let options = ExtractOptions::default()
        .offsets(true)
        .alt_text(true)
        .url(Some(page_url()));
    for _ in 0..300 {
        let len = next(40);
        let html: String = (0..len).map(|_| ALPHABET[next(ALPHABET.len())]).collect();
        let whole = extract(&html, &options);
        for run in &whole.runs {
            assert!(whole.text.get(run.text.clone()).is_some(), "{html:?}");
        }
        let size = 1 + next(9);
        let mut s = streamed(&html, &options, size);
        // Streams split text runs at chunk ends only in the runs list.
        s.runs = whole.runs.clone();
        assert_eq!(s, whole, "chunks of {size}: {html:?}");
    }
    println!("300 passed, 0 failed, 0 skipped");
}
