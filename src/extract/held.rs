//! The links found and not yet taken: the anchor text of the `<a href>`
//! being read, the page's address and base URL they resolve against, and
//! how they are handed out (resolved when the base URL is known, or as
//! written for a caller that resolves them later).

use url::Url;

use crate::element::Element;
use crate::token::{Span, Tag};

use super::collapse::{Collapse, Out};
use super::link::{ANCHOR_TEXT_LIMIT, Link};
use super::links::{self, Attrs, Found};
use super::resolve::{Resolved, Resolver, Written};

/// The anchor text of the `<a href>` being read, if one is, and the
/// strings of the links not yet taken: the anchor text is collapsed
/// straight into the buffer that holds them (`out`), after them, where it
/// was collapsed into a buffer of its own and copied over at `</a>`.
#[derive(Debug)]
struct Anchor {
    /// The open link's index in the links not yet taken, if one is open.
    link: Option<usize>,
    collapse: Collapse,
    /// Its buffer holds the strings of the links not yet taken (their
    /// ranges index it), then the anchor text being read.
    out: Out,
    /// Where the anchor text being read starts in `out`.
    start: usize,
}

/// Whether an `<a href>`'s anchor text is being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AnchorState {
    /// No link is open.
    Closed,
    /// An `<a href>` is open: its text is anchor text.
    Open,
}

/// The links found and not yet taken, and what resolves them.
#[derive(Debug)]
pub(super) struct HeldLinks {
    /// Links found and not yet taken (nor resolved), their strings in
    /// `anchor.out`.
    found: Vec<Found>,
    anchor: Anchor,
    /// Resolves against the page's address.
    document: Resolver,
    /// Resolves against the page's base URL, once its `<base href>` is
    /// seen (until then, links wait).
    base: Option<Resolver>,
    address: Option<Url>,
}

impl HeldLinks {
    /// None yet, on a page at `address`.
    pub(super) fn new(address: Option<&Url>) -> HeldLinks {
        HeldLinks {
            found: Vec::new(),
            anchor: Anchor {
                link: None,
                collapse: Collapse::default(),
                out: Out::new(ANCHOR_TEXT_LIMIT),
                start: 0,
            },
            document: Resolver::new(address, None),
            base: None,
            address: address.cloned(),
        }
    }

    /// Whether an `<a href>` is open.
    #[inline(always)]
    pub(super) fn anchor_state(&self) -> AnchorState {
        if self.anchor.link.is_some() {
            AnchorState::Open
        } else {
            AnchorState::Closed
        }
    }

    /// Collapses `text` into the anchor text, if a link is open.
    #[inline(always)]
    pub(super) fn push_anchor_text(&mut self, text: &str) {
        if self.anchor.link.is_some() {
            self.anchor.collapse.push(&mut self.anchor.out, text, false);
        }
    }

    /// A space is due in the anchor text, if a link is open.
    #[inline(always)]
    pub(super) fn anchor_space(&mut self) {
        if self.anchor.link.is_some() {
            self.anchor.collapse.space();
        }
    }

    /// Takes in a `<base href>`: the first one is the page's base URL.
    pub(super) fn base_tag(&mut self, tag: &Tag<'_>) {
        if self.base.is_none() && tag.attr("href").is_some() {
            self.base = Some(Resolver::new(self.address.as_ref(), tag.attr_value("href")));
        }
    }

    /// Takes in the links of `tag`, in its attributes `wanted`; an `<a
    /// href>` opens its anchor text.
    pub(super) fn tag<'s>(
        &mut self,
        tag: &Tag<'_>,
        wanted: Attrs,
        source: &dyn Fn(Span) -> Option<&'s str>,
    ) {
        let first = self.found.len();
        let anchor = &mut self.anchor;
        let before = anchor.out.buf.len();
        links::tag_links(source, tag, wanted, &mut self.found, &mut anchor.out.buf);
        let after = anchor.out.buf.len();
        if anchor.link.is_some() && after != before {
            // The strings of a link inside the anchor (an `<img>`) went
            // after the anchor text so far, which moves after them (into
            // bytes left unused until the links are taken).
            if anchor.start != before {
                // (Through a copy: `String::extend_from_within` is newer
                // than the crate's MSRV; the case is rare.)
                let so_far = anchor.out.buf[anchor.start..before].to_owned();
                anchor.out.buf.push_str(&so_far);
            }
            anchor.start = after;
        }
        let href = (first..self.found.len()).find(|&i| self.found[i].head.is_href());
        if let Some(i) = href.filter(|_| tag.element == Element::A) {
            anchor.link = Some(i);
            anchor.collapse = Collapse::default();
            anchor.out.restart(ANCHOR_TEXT_LIMIT);
            anchor.start = anchor.out.buf.len();
        }
    }

    /// Ends the anchor text being read, if any.
    #[inline(never)]
    pub(super) fn close_anchor(&mut self) {
        if let Some(link) = self.anchor.link.take() {
            let text = (self.anchor.start, self.anchor.out.buf.len());
            self.found[link].set_anchor_text(text);
        }
    }

    /// Makes room for `links` links and their strings.
    pub(super) fn reserve(&mut self, links: usize) {
        self.found.reserve(links);
        // A URL and its anchor text: about 32 bytes a link.
        self.anchor.out.buf.reserve(links * 32);
    }

    /// How many links are held.
    pub(super) fn len(&self) -> usize {
        self.found.len()
    }

    /// About how many bytes the links held take.
    pub(super) fn bytes(&self) -> usize {
        self.found.len() * core::mem::size_of::<Found>() + self.anchor.out.buf.len()
    }

    /// Whether the page's base URL is known: its `<base href>` was seen.
    pub(super) fn base_known(&self) -> bool {
        self.base.is_some()
    }

    /// The finished links, resolved as far as the page has been read.
    pub(super) fn take_resolved(&mut self) -> Vec<Link> {
        let (document, base) = (&self.document, self.base.as_ref());
        let url_room = base
            .unwrap_or(document)
            .base()
            .map_or(0, |url| url.as_str().len());
        drain_ready(
            &mut self.found,
            &mut self.anchor,
            url_room,
            |found, raw, out| {
                let is_base = found.head.element == Element::Base;
                resolver_of(is_base, document, base).resolve_trimmed_into(raw, out)
            },
        )
    }

    /// The finished links not yet taken, with `url` as written.
    pub(super) fn take_unresolved(&mut self) -> Vec<Link> {
        drain_ready(&mut self.found, &mut self.anchor, 0, |_, raw, out| {
            out.push_str(raw);
            Written {
                error: None,
                ends_with_raw: true,
            }
        })
    }

    /// Resolves a link taken as written, against the base URL so far.
    pub(super) fn resolve(&self, link: &mut Link) {
        let resolver = resolver_of(link.tag == "base", &self.document, self.base.as_ref());
        *link = link.reassembled(|raw, out| resolver.resolve_into(raw, out));
    }

    /// Resolves `raw` as a URL of a `tag` element.
    pub(super) fn resolve_url(&self, tag: &str, raw: &str) -> Resolved {
        resolver_of(tag == "base", &self.document, self.base.as_ref()).resolve(raw)
    }

    /// [`HeldLinks::resolve_url`], the URL appended to `out` (the
    /// Markdown writer's, reused from link to link).
    pub(super) fn resolve_url_into(&self, tag: &str, raw: &str, out: &mut String) {
        resolver_of(tag == "base", &self.document, self.base.as_ref()).resolve_into(raw, out);
    }

    /// What resolves against the page's address, and what against its
    /// base URL (the address when it has no `<base href>`).
    pub(super) fn resolvers(&self) -> (&Resolver, &Resolver) {
        (&self.document, self.base.as_ref().unwrap_or(&self.document))
    }
}

/// What resolves a URL of an element: the page's address (`document`)
/// for `<base href>` (`is_base`), its base URL as far as the page has been
/// read for anything else.
fn resolver_of<'r>(
    is_base: bool,
    document: &'r Resolver,
    base: Option<&'r Resolver>,
) -> &'r Resolver {
    if is_base {
        document
    } else {
        base.unwrap_or(document)
    }
}

/// The finished links not yet taken (an `<a>` whose anchor text is
/// still being read, and the links after it, stay), their URLs resolved
/// by `resolve` (see [`Link::assemble_all`]).
fn drain_ready(
    links: &mut Vec<Found>,
    anchor: &mut Anchor,
    url_room: usize,
    resolve: impl Fn(&Found, &str, &mut String) -> Written,
) -> Vec<Link> {
    let (links_text, anchor) = (&mut anchor.out.buf, &mut anchor.link);
    let ready = anchor.unwrap_or(links.len());
    if let Some(link) = anchor {
        *link = 0;
    }
    let taken = Link::assemble_all(&links[..ready], links_text, url_room, resolve);
    links.drain(..ready);
    if links.is_empty() {
        links_text.clear();
    }
    taken
}
