//! The `chunked` fuzz target's check (`support/chunked.rs`), run over
//! generated cases: documents pieced together from markup fragments (CRLF,
//! character references, multi-byte and invalid UTF-8 among them), random
//! options and random cuts, each as a fuzz input would encode it. Plus
//! every two-piece split and byte-at-a-time for a few byte-level inputs.

use chunked::{ChunkConfig, STATES, check_fuzz_input, check_splits, from_fuzz};
use generate::Rng;
use htmltok_test_support::{chunked, generate};

/// A fuzz input: a random header, then a document of random fragments.
fn case(rng: &mut Rng) -> Vec<u8> {
    let flags = rng.next_u64() as u8;
    let n = rng.below(16);
    let state = rng.below(STATES.len());
    let mut data = vec![flags, (state << 4 | n) as u8];
    for _ in 0..n {
        let len = match rng.below(4) {
            0 => 0,
            1 | 2 => 1 + rng.below(8),
            _ => rng.below(256),
        };
        data.push(len as u8);
    }
    data.extend(generate::document(rng, 39));
    data
}

#[test]
fn generated_cases() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut cut_inside_a_char = 0;
    for _ in 0..600 {
        let data = case(&mut rng);
        let (config, doc) = from_fuzz(&data);
        // Count the cases where a cut falls inside a UTF-8 sequence.
        let chunks = config.chunks(doc.len());
        if chunks[..chunks.len() - 1]
            .iter()
            .any(|&(_, end)| doc.get(end).is_some_and(|b| b & 0xC0 == 0x80))
        {
            cut_inside_a_char += 1;
        }
        check_fuzz_input(&data);
    }
    assert!(cut_inside_a_char > 50, "only {cut_inside_a_char} cases");
}

#[test]
fn byte_level_splits() {
    for doc in [
        &b"a\r\nb\r\r\nc\rd<p title='x\r\ny'>\r"[..],
        b"a\xffb\xe2\x82c\xed\xa0\x80d\xc0\x80e\xf0\x9f\x98f\x80",
        "<p>caf\u{e9} \u{1F600} \u{20AC}</p>".as_bytes(),
        b"<svg><![CDATA[x]]y]]]>z</svg>&amp&notin;&#x41&#65;&#",
        b"<script><!--<script>x</script>y--></script><!--a--!>-->",
        b"<title>a&lt;b</title></>x<!DOCTYPE html SYSTEM 'a'",
    ] {
        check_splits(doc);
    }
}

#[test]
fn header_round_trip() {
    let config = ChunkConfig {
        auto_switch: false,
        foreign: true,
        initial_state: htmltok::State::CdataSection,
        last_start_tag: true,
        feed_str: true,
        cycle: true,
        ..ChunkConfig::new(&[3, 0, 255])
    };
    let mut data = config.header();
    data.extend_from_slice(b"<x>");
    assert_eq!(from_fuzz(&data), (config, &b"<x>"[..]));
    // Short inputs are the default configuration and an empty document.
    assert_eq!(from_fuzz(b""), (ChunkConfig::default(), &b""[..]));
}

#[test]
fn chunk_plans() {
    let plan = |lengths: &[usize], cycle: bool, len: usize| {
        ChunkConfig {
            cycle,
            ..ChunkConfig::new(lengths)
        }
        .chunks(len)
    };
    assert_eq!(plan(&[], false, 5), [(0, 5)]);
    assert_eq!(plan(&[], false, 0), [(0, 0)]);
    assert_eq!(plan(&[2, 0], false, 5), [(0, 2), (2, 2), (2, 5)]);
    assert_eq!(plan(&[9, 0], false, 5), [(0, 5), (5, 5)]);
    assert_eq!(
        plan(&[2, 0], true, 5),
        [(0, 2), (2, 2), (2, 4), (4, 4), (4, 5)]
    );
    assert_eq!(plan(&[0], true, 3), [(0, 0), (0, 3)]);
}
