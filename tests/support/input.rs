//! Helpers shared by the other support modules: on raw inputs, and for
//! reporting where two results part.

use htmltok::State;

/// The states a tokenizer can start in (`Options::initial_state`), in the
/// order the fuzz inputs' header bytes pick them.
pub const STATES: [State; 6] = [
    State::Data,
    State::Rcdata,
    State::Rawtext,
    State::ScriptData,
    State::Plaintext,
    State::CdataSection,
];

/// The ASCII-lowercased name of the first `</name` in `input` (letters
/// only), if any: the last start tag the harnesses give the states that
/// look for an appropriate end tag, so that one can occur.
pub fn first_end_tag_name(input: &str) -> Option<String> {
    let bytes = input.as_bytes();
    let mut from = 0;
    while let Some(i) = input[from..].find("</") {
        let start = from + i + 2;
        let len = bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        if len > 0 {
            return Some(input[start..start + len].to_ascii_lowercase());
        }
        from = start;
    }
    None
}

/// The index of the first element where `a` and `b` differ (the shorter
/// length when one is a prefix of the other).
pub fn first_mismatch<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}
