//! Helpers on raw inputs shared by the other support modules.
#![allow(dead_code)]

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
