//! Every input a fuzz target found failing, minimized, kept as a test that
//! runs it through all three checks: the `tokenize` invariants
//! (`support/invariants.rs`), the `differential` comparison with html5ever
//! (`support/reference.rs`) and the `roundtrip` promise
//! (`support/roundtrip.rs`).
//!
//! To add one: minimize the artifact (`cargo +nightly fuzz tmin TARGET
//! ARTIFACT`, see fuzz/README.md), paste the input here as a literal with
//! the target that found it and what was wrong, and fix the cause (or, for
//! an html5ever deviation, normalize that construct in `reference.rs` and
//! show it in `tests/differential.rs`).

// The support files each include `support/input.rs`, so that each stands
// alone in a fuzz target; here all three are loaded.
#![allow(clippy::duplicate_mod)]

#[path = "support/invariants.rs"]
mod invariants;
#[path = "support/reference.rs"]
mod reference;
#[path = "support/roundtrip.rs"]
mod roundtrip;

/// Runs `input` through the checks of every fuzz target.
fn check(input: &str) {
    invariants::check_all(input);
    for config in reference::configs_for(input) {
        if let Err(m) = reference::compare(input, &config) {
            panic!("htmltok and html5ever differ on {input:?} ({config}): {m}");
        }
    }
    roundtrip::check_all(input);
}

/// `differential`, first seconds (crash-da39a3ee…, the empty input): in the
/// CDATA section state, html5ever emits its empty temporary buffer at EOF as
/// a character token with no characters. An html5ever deviation, normalized
/// in `reference::normalize` (shown in `tests/differential.rs`).
#[test]
fn empty_input_in_the_cdata_section_state() {
    check("");
}

/// The same deviation in the middle of foreign content and at EOF.
#[test]
fn empty_cdata_sections() {
    check("<svg><![CDATA[]]><![CDATA[");
    check("<a><![CDATA[]]><b>");
}
