//! What main content must keep of the whole text, checked by
//! `tests/main_content.rs` and the `main_content` fuzz target: its runs are
//! runs of the all-text output at the same source offsets with the same
//! text, and its lines are lines of the all-text output; with offsets on
//! or off, the same text from the same blocks.

use std::collections::{HashMap, HashSet};

use htmltok::Tokenizer;
use htmltok::bumpalo::Bump;
use htmltok::extract::main_content::BlockFeatures;
use htmltok::extract::{ExtractOptions, Extractor, extract};

/// Checks that the main content of `html` (with `options`, offsets and
/// main content turned on) is made of runs and lines of the whole text,
/// and that it is the same text, from the same blocks with the same
/// features, with offsets off; the first difference as an error.
pub fn main_content_is_whole_text_runs(html: &str, options: &ExtractOptions) -> Result<(), String> {
    let with = options.clone().offsets(true).main_content(true);
    let found = extract(html, &with);
    // Main content reads `noscript` with scripting off, so the whole text
    // it is compared with does too.
    let all = extract(html, &with.clone().main_content(false).scripting(false));
    let whole: HashMap<(usize, usize), &str> = all
        .runs
        .iter()
        .map(|r| ((r.source.start, r.source.end), &all.text[r.text.clone()]))
        .collect();
    for run in &found.runs {
        let text = found
            .text
            .get(run.text.clone())
            .ok_or_else(|| format!("run {:?} is outside the text", run.text))?;
        let same = whole
            .get(&(run.source.start, run.source.end))
            .ok_or_else(|| format!("no run of the whole text at {:?}", run.source))?;
        if same != &text {
            return Err(format!("run {:?}: {text:?} against {same:?}", run.source));
        }
    }
    let lines: HashSet<&str> = all.text.lines().collect();
    if let Some(line) = found.text.lines().find(|l| !lines.contains(l)) {
        return Err(format!("{line:?} is no line of the whole text"));
    }
    // Without offsets (the text gathered in bulk), the same text.
    let gathered = extract(html, &with.clone().offsets(false));
    if gathered.text != found.text {
        return Err("the text differs with offsets off".to_string());
    }
    let (on, off) = (blocks(html, &with), blocks(html, &with.offsets(false)));
    if on.len() != off.len() {
        return Err(format!(
            "{} blocks with offsets, {} without",
            on.len(),
            off.len()
        ));
    }
    for (i, (a, b)) in on.iter().zip(&off).enumerate() {
        let bits = |b: &BlockFeatures| b.features.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        if a.text != b.text || a.kind != b.kind || bits(a) != bits(b) {
            return Err(format!(
                "block {i} differs with offsets off: {:?} {:?} against {:?} {:?}",
                a.text, a.features, b.text, b.features
            ));
        }
    }
    Ok(())
}

/// The blocks of `html` as main content sees them, with their features.
fn blocks(html: &str, options: &ExtractOptions) -> Vec<BlockFeatures> {
    let arena = Bump::new();
    let mut extractor = Extractor::new(options);
    for token in Tokenizer::with_options(html, &arena, options.tokenizer_options()) {
        extractor.token_in(&token, html);
    }
    extractor.finish_blocks()
}
