//! htmltok's auto-switching against a real tree builder: htmltok's tokens
//! with default options (whole, and streamed in chunks of 7 bytes) must be
//! the tokens html5ever's tokenizer hands to html5ever's own tree builder,
//! which switches that tokenizer's content model as tree construction does
//! (`tests/support/tree_oracle.rs`). The inputs named in
//! `tree_oracle::EXCEPTIONS` (html5ever deviating from the standard) are
//! left out.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/reference.rs"]
mod reference;
#[path = "../../tests/support/tree_oracle.rs"]
mod tree_oracle;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    if tree_oracle::exception(&input).is_some() {
        return;
    }
    let theirs = tree_oracle::tree_builder_tokens(&input);
    for chunk in [None, Some(7)] {
        let ours = tree_oracle::htmltok_tokens(&input, chunk);
        if let Some(m) = reference::first_difference(&ours, &theirs) {
            panic!(
                "htmltok and html5ever's tree builder differ on {input:?} (chunks {chunk:?}): {m}"
            );
        }
    }
});
