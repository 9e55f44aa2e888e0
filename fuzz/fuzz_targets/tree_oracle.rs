//! htmltok's exact switching against a real tree builder: htmltok's tokens
//! with `Options::exact_switching` (whole, and streamed in chunks of 7
//! bytes) must be the tokens html5ever's tokenizer hands to html5ever's
//! own tree builder, which switches that tokenizer's content model as tree
//! construction does (`tests/support/tree_oracle.rs`). A difference that
//! html5ever's known deviations from the standard explain
//! (`tree_oracle::DEVIATION`: htmltok following html5ever's deviations gives
//! html5ever's tokens) is not a find.
#![no_main]

use htmltok_test_support::tree_oracle;
use libfuzzer_sys::fuzz_target;

use tree_oracle::{Judgement, Switching};

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let theirs = tree_oracle::tree_builder_tokens(&input);
    for chunk in [None, Some(7)] {
        let ours = tree_oracle::htmltok_tokens(&input, chunk, Switching::Exact);
        if let Judgement::Differs(m) = tree_oracle::judge(&input, chunk, Switching::Exact, &ours, &theirs) {
            panic!(
                "htmltok and html5ever's tree builder differ on {input:?} (chunks {chunk:?}): {m}"
            );
        }
    }
});
