//! Generated test documents: a small deterministic random source and the
//! markup fragments documents are pieced together from (CRLF, character
//! references, multi-byte and invalid UTF-8, content-model switches and
//! foreign content among them). Used by `tests/chunked.rs` and
//! `tests/push.rs`.

/// xorshift64*: deterministic, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn pick<'a, T: ?Sized>(&mut self, items: &'a [&'a T]) -> &'a T {
        items[self.below(items.len())]
    }
}

pub const FRAGMENTS: &[&[u8]] = &[
    b"<p class=intro>",
    b"</p>",
    b"<a href='x&amp;y' title=\"t\">",
    b"<img src=a.png alt=x/>",
    b"<br/>",
    b"Fish &amp; chips ",
    b"&lt;&gt;&notin;&noti;&not &#65;&#x41&#0;&#x110000;&AElig",
    b"&",
    b"text ",
    b" ",
    b"\r\n",
    b"\r",
    b"\n",
    b"\0",
    b"<!-- a comment -->",
    b"<!---->",
    b"<!--x--!>",
    b"<!",
    b"<?php x ?>",
    b"</>",
    b"</ x>",
    b"<!DOCTYPE html>",
    b"<!doctype html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" 'http://x'>",
    b"<script>",
    b"if (a < b) { x = '</scr' + 'ipt>'; }",
    b"<!--<script>",
    b"-->",
    b"</script>",
    b"<style>p { color: red }</style>",
    b"<title>a &amp; b</title>",
    b"<textarea>",
    b"</textarea>",
    b"<noscript>",
    b"</noscript>",
    b"<plaintext>",
    b"<svg>",
    b"</svg>",
    b"<math><mi>",
    b"<foreignObject>",
    b"<![CDATA[",
    b"]]>",
    b"x]]y",
    b"caf\xc3\xa9 ",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x98\x80",
    b"\xc2\xa0",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xc0\x80",
    b"\xf0\x9f\x98",
    b"\x80",
    b"<",
    b">",
    b"=",
    b"\"",
    b"'",
    b"<b a=1 a=2 B=3>",
];

/// A document of up to `max` random fragments, as bytes.
pub fn document(rng: &mut Rng, max: usize) -> Vec<u8> {
    let mut data = Vec::new();
    for _ in 0..rng.below(max + 1) {
        data.extend_from_slice(rng.pick(FRAGMENTS));
    }
    data
}
