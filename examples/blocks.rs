//! Prints the blocks of pages as main content sees them: each block's
//! text, kind, features and the model's score, one JSON object per page.
//! `tools/main_content_train.py` trains the model on this output.
//!
//! ```text
//! cargo run --release --example blocks -- [--names] FILE...
//! ```
//!
//! A file is read as bytes and decoded as a browser would
//! ([`Document::from_bytes`]); a file ending in `.gz` is gunzipped first.
//! `--names` prints the feature names, one JSON array, and nothing else.

use std::io::{Read, Write};

use htmltok::bumpalo::Bump;
use htmltok::extract::main_content::feature_names;
use htmltok::extract::{ExtractOptions, Extractor};
use htmltok::{DecodeOptions, Document};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.first().map(String::as_str) == Some("--names") {
        writeln!(out, "{}", serde_json::to_string(&feature_names())?)?;
        return Ok(());
    }
    let options = ExtractOptions::default()
        .main_content(true)
        .links(false)
        .metadata(false);
    for path in &args {
        let mut bytes = std::fs::read(path)?;
        if path.ends_with(".gz") {
            let mut inflated = Vec::new();
            flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut inflated)?;
            bytes = inflated;
        }
        let doc = Document::from_bytes(&bytes, &DecodeOptions::default())?;
        let arena = Bump::new();
        let mut extractor = Extractor::new(&options);
        for token in doc.tokenizer_with_options(&arena, options.tokenizer_options()) {
            extractor.token_in(&token, doc.text());
        }
        let blocks: Vec<serde_json::Value> = extractor
            .finish_blocks()
            .into_iter()
            .map(|b| {
                serde_json::json!({
                    "text": b.text,
                    "kind": format!("{:?}", b.kind),
                    "features": b.features,
                    "score": b.score,
                })
            })
            .collect();
        let page = serde_json::json!({ "file": path, "blocks": blocks });
        writeln!(out, "{}", serde_json::to_string(&page)?)?;
    }
    Ok(())
}
