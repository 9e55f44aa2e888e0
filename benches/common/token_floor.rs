//! A reference floor for the *token API*: the cheapest producer of
//! htmltok's own [`Token`] values we could write, ignoring the standard.
//!
//! It splits the page at `<` (memchr), and hands out what it finds as the
//! same borrowed tokens htmltok yields — text slices, tags with name,
//! attributes (collected in a `SmallVec`, copied to the `Bump` arena), spans
//! — through an `Iterator` whose `next` returns one `Token` at a time, text
//! before a tag first. A tag's `element` is looked up as htmltok does
//! (`Element::from_name`): it is part of the token. It does none of what the standard asks beyond that:
//! no character references, no lowercasing, no content models, no NUL or
//! CR handling, no duplicate attributes, no errors. Every `<` starts a tag
//! (`a < b`, `<3`, a `<` in a script); a doctype, `<!…>` and `<?…>` are
//! comments, and `<!-->` or `--!>` does not end one; a `/` anywhere in a
//! tag sets `self_closing`; names end at whitespace, `/`, `=` or `>`, and
//! unquoted values too (`href=/a` is an empty value and an attribute `a`);
//! no whitespace is allowed around `=`; a quote left open runs to the end
//! of the input.
//!
//! So it is not a peer, and not a proof that nothing can be cheaper; it is
//! a measurement of what handing out these tokens costs before any rule of
//! [tokenization](https://html.spec.whatwg.org/multipage/parsing.html#tokenization) is applied, for sizing the throughput
//! targets against.

use htmltok::bumpalo::Bump;
use htmltok::{Attribute, Comment, Element, Span, Tag, Text, Token};
use smallvec::SmallVec;

/// `true` for ASCII whitespace.
static WS: [bool; 256] = {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t[0x0c] = true;
    t
};

/// `true` for the bytes that end a tag or attribute name: ASCII whitespace,
/// `/`, `=` and `>`.
static NAME_STOP: [bool; 256] = {
    let mut t = WS;
    t[b'/' as usize] = true;
    t[b'=' as usize] = true;
    t[b'>' as usize] = true;
    t
};

/// The naive splitter (see the module docs).
pub struct TokenFloor<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    arena: &'a Bump,
    /// The tag found after a text, handed out on the next call.
    stash: Option<Token<'a>>,
    attrs: SmallVec<[Attribute<'a>; 8]>,
}

impl<'a> TokenFloor<'a> {
    /// A splitter over `src`, copying attribute lists into `arena`.
    pub fn new(src: &'a str, arena: &'a Bump) -> TokenFloor<'a> {
        TokenFloor {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            arena,
            stash: None,
            attrs: SmallVec::new(),
        }
    }

    fn name_end(&self, mut p: usize) -> usize {
        while p < self.bytes.len() && !NAME_STOP[self.bytes[p] as usize] {
            p += 1;
        }
        p
    }

    fn skip_ws(&self, mut p: usize) -> usize {
        while p < self.bytes.len() && WS[self.bytes[p] as usize] {
            p += 1;
        }
        p
    }

    /// The markup starting at the `<` at `lt`.
    fn markup(&mut self, lt: usize) -> Token<'a> {
        let b = self.bytes;
        let after = lt + 1;
        if let Some(b'!' | b'?') = b.get(after) {
            // `<!--…-->` is a comment; `<!…>` and `<?…>` are taken as one.
            let (open, close): (usize, &[u8]) = if b[after..].starts_with(b"!--") {
                (3, b"-->")
            } else {
                (1, b">")
            };
            let data_start = (after + open).min(b.len());
            let (data_end, end) = match memchr::memmem::find(&b[data_start..], close) {
                Some(i) => (data_start + i, data_start + i + close.len()),
                None => (b.len(), b.len()),
            };
            self.pos = end;
            return Token::Comment(Comment {
                data: &self.src[data_start..data_end],
                span: Span::new(lt, end),
            });
        }
        let is_end = b.get(after) == Some(&b'/');
        let name_start = after + is_end as usize;
        let name_end = self.name_end(name_start);
        self.attrs.clear();
        let mut self_closing = false;
        let mut p = name_end;
        loop {
            p = self.skip_ws(p);
            match b.get(p) {
                None => break,
                Some(b'>') => {
                    p += 1;
                    break;
                }
                Some(b'/') => {
                    self_closing = true;
                    p += 1;
                    continue;
                }
                _ => {}
            }
            let attr_start = p;
            let attr_end = self.name_end(attr_start + 1);
            p = attr_end;
            let mut value = "";
            let mut value_span = None;
            if b.get(p) == Some(&b'=') {
                p += 1;
                let (start, end) = match b.get(p) {
                    Some(&q @ (b'"' | b'\'')) => {
                        let end = memchr::memchr(q, &b[p + 1..]).map_or(b.len(), |i| p + 1 + i);
                        (p + 1, end)
                    }
                    _ => (p, self.name_end(p)),
                };
                value = &self.src[start..end];
                value_span = Some(Span::new(start, end));
                p = if start > p {
                    (end + 1).min(b.len())
                } else {
                    end
                };
            }
            self.attrs.push(Attribute {
                name: &self.src[attr_start..attr_end],
                value,
                name_span: Span::new(attr_start, attr_end),
                value_span,
                duplicate: false,
            });
        }
        self.pos = p;
        let name = &self.src[name_start..name_end];
        let tag = Tag {
            name,
            element: Element::from_name(name),
            name_span: Span::new(name_start, name_end),
            attributes: match self.attrs.as_slice() {
                [] => &[],
                [one] => core::slice::from_ref(self.arena.alloc(*one)),
                many => self.arena.alloc_slice_copy(many),
            },
            self_closing,
            span: Span::new(lt, p),
        };
        if is_end {
            Token::EndTag(tag)
        } else {
            Token::StartTag(tag)
        }
    }
}

impl<'a> Iterator for TokenFloor<'a> {
    type Item = Token<'a>;

    #[inline]
    fn next(&mut self) -> Option<Token<'a>> {
        if self.stash.is_some() {
            return self.stash.take();
        }
        let start = self.pos;
        if start >= self.bytes.len() {
            return None;
        }
        let Some(lt) = memchr::memchr(b'<', &self.bytes[start..]).map(|i| start + i) else {
            self.pos = self.bytes.len();
            return Some(Token::Text(Text {
                data: &self.src[start..],
                span: Span::new(start, self.bytes.len()),
            }));
        };
        let markup = self.markup(lt);
        if lt == start {
            return Some(markup);
        }
        self.stash = Some(markup);
        Some(Token::Text(Text {
            data: &self.src[start..lt],
            span: Span::new(start, lt),
        }))
    }
}
