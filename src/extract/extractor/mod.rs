//! [`Extractor`]: the token dispatch, which hands each token to what the
//! options want of it (the text, the links, the metadata), and the calls
//! that take what it gathered.

mod budget; // `ExtractOptions::memory_limit`: what is held, measured as it grows
mod taking; // what a caller takes: text, runs, links, the page once read

use crate::element::Element;
use crate::token::{Span, Tag, Text, Token};

use super::held::{AnchorState, HeldLinks};
use super::kinds::{
    self, END_CALL_CLOSED, END_CALL_OPEN, END_LINE, Follow, KindsOf, MARKDOWN_INLINE, START_MORE,
    TagKinds,
};
use super::links;
use super::main_content::Segmenter;
use super::markdown::{self, Markdown};
use super::meta::{self, MetaCollector};
use super::text::{GATHERED, Placed, TextMode, TextOut};
use super::visible::{self, Boundary, ElementSet, Visible};
use super::{ExtractOptions, TextFormat};
use budget::{Budget, PIECE};

/// The most blocks of gathered text that await their place (their text
/// is collapsed then): they are placed when it is collapsed, 16 KiB at a
/// time, and this bounds what they hold when that is less often.
const MARKS_HELD: usize = 4096;

/// How many bytes of a page [`Extractor::reserve_page`] reserves one link
/// for.
pub const PAGE_BYTES_PER_LINK: usize = 256;

/// The most links [`Extractor::reserve_page`] reserves room for.
pub const LINKS_RESERVED_MAX: usize = 1 << 16;

/// The end tags that need more than a boundary while text is shown: they
/// hide or show text, end an anchor, or are read by the metadata.
const END_TAGS: ElementSet = visible::END_NOT_PLAIN
    .union(ElementSet::of(&[Element::A]))
    .union(meta::END_ELEMENTS);

/// The end tags worth a call to [`Extractor::end_tag`] while text is
/// shown: those of [`END_TAGS`], and those that make a boundary when it
/// goes to the text (but for the text alone, whose dispatch writes a
/// block's line break itself) or to the anchor text being read.
fn end_calls(follow: Follow, text: TextMode, anchor: AnchorState) -> ElementSet {
    if follow == Follow::TextAlone {
        visible::END_NOT_PLAIN
    } else if text != TextMode::Off || anchor == AnchorState::Open {
        END_TAGS.union(visible::BOUNDARY)
    } else {
        END_TAGS
    }
}

/// What the options want besides the text (whose [`TextMode`] the text
/// holds).
#[derive(Clone, Copy, Debug)]
struct Wants {
    links: bool,
    metadata: bool,
    /// Whether image `alt` text goes to the text.
    alt_text: bool,
    /// Whether the text's runs are handed out ([`ExtractOptions::offsets`]:
    /// main content records them for itself too).
    offsets: bool,
}

/// What the token dispatch tests on every token, worked out from the
/// options once and kept up to date where a tag changes it: each is one
/// load where it stood for several.
#[derive(Debug)]
struct Dispatch {
    follow: Follow,
    /// Whether [`Extractor::text_alone`] takes a text token: the text
    /// alone is wanted, gathered (no offsets).
    text_alone: bool,
    /// What takes a text token otherwise: [`Extractor::text_and_more`],
    /// or with main content [`Extractor::text_main`]. Called through a
    /// pointer so that the inlined token dispatch stays the size it was
    /// without main content: a third branch there made the compiler stop
    /// inlining a caller's token loop (BENCHMARKS.md, "Main content").
    text_more: fn(&mut Extractor, &Text<'_>),
    /// Whether a text token is worth a call ([`Extractor::takes_text`]).
    takes_text: bool,
    /// What each element's tags ask of this extractor, given its options.
    kinds: TagKinds,
    /// The bit of `kinds` that says an end tag is worth a call to
    /// [`Extractor::end_tag`] while text is shown ([`END_CALL_OPEN`] while
    /// an anchor is open, else [`END_CALL_CLOSED`]), kept up to date with
    /// `takes_text`: the rest are at most the line break the token
    /// dispatch writes for the text alone.
    end_call: u8,
    /// The elements whose start tags matter past what is visible, for
    /// what is wanted: [`links::ELEMENTS`], [`meta::ELEMENTS`], and the
    /// images whose `alt` text is anchor text.
    start_tags: ElementSet,
}

/// Extracts text, links and metadata from tokens fed in order.
///
/// ```
/// use htmltok::{Tokenizer, bumpalo::Bump};
/// use htmltok::extract::{ExtractOptions, Extractor};
///
/// let html = "<ul><li>one<li>two</ul><a href=http://x.example/>x</a>";
/// let arena = Bump::new();
/// let mut extractor = Extractor::new(&ExtractOptions::default());
/// for token in Tokenizer::new(html, &arena) {
///     extractor.token_in(&token, html);
/// }
/// let found = extractor.finish();
/// assert_eq!(found.text, "one\ntwo\nx");
/// assert_eq!(found.links[0].url(), "http://x.example/");
/// ```
#[derive(Debug)]
pub struct Extractor {
    wants: Wants,
    dispatch: Dispatch,
    visible: Visible,
    text: TextOut,
    links: HeldLinks,
    meta: MetaCollector,
    /// With [`ExtractOptions::main_content`], the page's blocks.
    segmenter: Option<Box<Segmenter>>,
    /// With [`TextFormat::Markdown`], the text as Markdown.
    markdown: Option<Box<Markdown>>,
    /// [`ExtractOptions::memory_limit`].
    budget: Budget,
}

impl Extractor {
    /// An extractor at the start of a page.
    pub fn new(options: &ExtractOptions) -> Extractor {
        let main_content = options.text && options.main_content;
        let markdown = options.text && options.format == TextFormat::Markdown;
        // Markdown is written by its own writer; the plain text is still
        // written for main content, which cuts it into blocks.
        let mode = match (options.text, options.offsets) {
            (true, _) if markdown && !main_content => TextMode::Off,
            (true, _) if markdown => TextMode::Gathered,
            (false, _) => TextMode::Off,
            (true, false) => TextMode::Gathered,
            (true, true) => TextMode::Offsets,
        };
        // Main content follows every tag (the elements open around the
        // text), Markdown the elements it writes as markup; the text alone
        // neither.
        let every_tag = main_content;
        let memory_limit = options.memory_limit.unwrap_or(usize::MAX);
        // With Markdown, the elements that make a boundary too: Markdown
        // takes theirs past the fast path (`Extractor::markdown_boundary`).
        let markdown_tags = if markdown {
            markdown::ELEMENTS.union(visible::BOUNDARY)
        } else {
            ElementSet::of(&[])
        };
        // How the text is written, as far as boundaries go: Markdown takes
        // them as the text does.
        let written = if markdown { TextMode::Gathered } else { mode };
        let follow =
            if options.text && !options.links && !options.metadata && !every_tag && !markdown {
                Follow::TextAlone
            } else if options.text || options.links {
                Follow::Visible
            } else {
                Follow::Invisible
            };
        let start_tags = [
            (options.links, links::ELEMENTS),
            (options.metadata, meta::ELEMENTS),
            (follow.visible(), visible::IMAGES),
            // A link's target is resolved against the `<base>` before it.
            (markdown, ElementSet::of(&[Element::Base])),
        ]
        .into_iter()
        .filter(|(wanted, _)| *wanted)
        .fold(ElementSet::of(&[]), |set, (_, elements)| {
            set.union(elements)
        });
        // Nothing but the text read from a text token: its routes without
        // the links' and the metadata's steps.
        let text_only = !options.links && !options.metadata;
        Extractor {
            wants: Wants {
                links: options.links,
                metadata: options.metadata,
                alt_text: options.alt_text,
                offsets: options.offsets,
            },
            dispatch: Dispatch {
                follow,
                text_alone: follow == Follow::TextAlone && mode == TextMode::Gathered,
                text_more: if markdown && !main_content && text_only {
                    Extractor::text_markdown_alone
                } else if markdown {
                    Extractor::text_markdown
                } else if main_content && mode == TextMode::Gathered && text_only {
                    Extractor::text_main_alone
                } else if main_content {
                    Extractor::text_main
                } else {
                    Extractor::text_and_more
                },
                takes_text: options.text,
                kinds: TagKinds::new(&KindsOf {
                    start_tags: start_tags.union(markdown_tags),
                    follow,
                    every_tag,
                    // Main content follows every tag, and links and the
                    // metadata read theirs.
                    markdown_inline: if markdown && !main_content {
                        markdown_inline(options.links, start_tags)
                    } else {
                        ElementSet::of(&[])
                    },
                    end_calls_closed: end_calls(follow, written, AnchorState::Closed)
                        .union(markdown_tags),
                    end_calls_open: end_calls(follow, written, AnchorState::Open)
                        .union(markdown_tags),
                }),
                end_call: END_CALL_CLOSED,
                start_tags,
            },
            visible: Visible::new(options.scripting_on(), options.hidden),
            text: TextOut::new(mode, options.text_limit, memory_limit),
            links: HeldLinks::new(options.url.as_ref()),
            meta: MetaCollector::new(options.metadata_limit),
            segmenter: main_content.then(|| Box::new(Segmenter::new(mode == TextMode::Gathered))),
            markdown: markdown.then(|| new_markdown(options)),
            budget: Budget::new(options.memory_limit),
        }
    }

    /// Takes in the next token. Each URL of a `srcset` (or a `ping`, or a
    /// refresh) gets the span of the whole attribute value; see
    /// [`Extractor::token_in`] for spans of their own.
    #[inline]
    pub fn token(&mut self, token: &Token<'_>) {
        self.token_with_source(token, &|_| None);
    }

    /// Takes in the next token of `input` (the text its spans index).
    #[inline]
    pub fn token_in(&mut self, token: &Token<'_>, input: &str) {
        self.token_with_source(token, &|span: Span| input.get(span.range()));
    }

    /// Takes in the next token; `source` gives the input text of a span
    /// of it, when the caller has it (a stream may not, for a span that
    /// began in an earlier chunk).
    #[inline]
    pub fn token_with_source<'s>(
        &mut self,
        token: &Token<'_>,
        source: &dyn Fn(Span) -> Option<&'s str>,
    ) {
        match token {
            // Metadata alone takes only the text of a few elements, links
            // alone only that of an `<a>`: the rest is not worth a call
            // (`text` tests the same).
            Token::Text(text) if self.takes_text() => self.text(text),
            Token::Text(_) => {}
            Token::StartTag(tag) => self.start_tag(tag, source),
            Token::EndTag(tag) => {
                // Most end tags while text is shown: a line break for the
                // text alone, nothing for the rest (see `end_calls`).
                let kind = self.dispatch.kinds.of(tag.element);
                if self.visible.shows_text() && kind & self.dispatch.end_call == 0 {
                    if kind & END_LINE != 0 {
                        self.text.collapse.line_break();
                    }
                } else {
                    self.end_tag(tag);
                }
            }
            Token::Comment(_) | Token::Doctype(_) => {}
        }
    }

    /// Takes in a text token, or a piece of one (a stream that does not
    /// join text hands out pieces; fed in order, they give what the
    /// whole token gives).
    #[inline]
    pub fn text(&mut self, text: &Text<'_>) {
        // Inlined into the token dispatch, which then calls one of the
        // two straight away; each is out of line, so that neither pays for
        // what the other keeps in registers.
        if self.dispatch.text_alone {
            self.text_alone(text);
        } else if self.takes_text() {
            (self.dispatch.text_more)(self, text);
        }
    }

    /// [`Extractor::text`] when only the text is wanted, without offsets:
    /// the most frequent token of a page. A short text outside `<pre>`
    /// that fills nothing up (most text tokens) is copied here, with no
    /// call, so that this function saves no registers; the rest goes on
    /// in a call in tail position.
    #[inline(never)]
    fn text_alone(&mut self, text: &Text<'_>) {
        if !self.visible.shows_text() || self.text.is_full() {
            return;
        }
        if self.visible.in_pre() || !self.text.gather_short(text.data) {
            self.gather_out_of_line(text);
        }
    }

    /// [`TextOut::gather`], for [`Extractor::text_alone`]'s text that is
    /// long, in `<pre>`, or fills the gathered text up. Only here is the
    /// text alone collapsed, so only here does it grow: counted for the
    /// memory limit as the gathered text it may collapse, and this.
    #[inline(never)]
    fn gather_out_of_line(&mut self, text: &Text<'_>) {
        let taken = text.data.len() + GATHERED;
        if self.budget.spend(taken) && self.over_limit(taken, Some(text.span.start)) {
            return;
        }
        self.text.gather(text.data, self.visible.in_pre());
    }

    /// Whether a text token here is worth a call: the text is wanted, or
    /// the anchor text of an open link (an anchor is only open when links
    /// are wanted, and then what is visible is followed), or the metadata
    /// reads this element's text.
    #[inline(always)]
    fn takes_text(&self) -> bool {
        debug_assert_eq!(self.dispatch.takes_text, self.takes_text_now());
        self.dispatch.takes_text
    }

    /// Works out again what the token dispatch tests (`takes_text`,
    /// `end_call`) after a tag that may have changed it.
    #[inline(always)]
    fn refresh(&mut self) {
        self.dispatch.takes_text = self.takes_text_now();
        self.dispatch.end_call = match self.links.anchor_state() {
            AnchorState::Open => END_CALL_OPEN,
            AnchorState::Closed => END_CALL_CLOSED,
        };
    }

    /// [`Extractor::takes_text`] worked out from the three things it
    /// stands for, which only the tags that open or close a link or that
    /// the metadata reads change ([`Extractor::start_tag_rest`],
    /// [`Extractor::end_tag`], [`Extractor::end_tag_rest`]: each ends with
    /// [`Extractor::refresh`]).
    fn takes_text_now(&self) -> bool {
        self.text.mode() != TextMode::Off
            || self.markdown.is_some()
            || self.links.anchor_state() == AnchorState::Open
            || self.meta.takes_text()
    }

    /// [`Extractor::text`] when links or metadata are wanted too, or
    /// offsets.
    #[inline(never)]
    fn text_and_more(&mut self, text: &Text<'_>) {
        if self.spend_on(text) {
            return;
        }
        if self.wants.metadata {
            self.meta.text(text);
        }
        if !self.visible.shows_text() {
            return;
        }
        if self.text.mode() != TextMode::Off && !self.text.is_full() {
            self.text.push(text.data, text.span, self.visible.in_pre());
        }
        self.links.push_anchor_text(text.data);
    }

    /// [`Extractor::text`] with main content: [`Extractor::text_and_more`],
    /// and main content told of the text.
    #[inline(never)]
    fn text_main(&mut self, text: &Text<'_>) {
        if self.spend_on(text) {
            return;
        }
        if self.wants.metadata {
            self.meta.text(text);
        }
        if !self.visible.shows_text() {
            return;
        }
        if !self.text.is_full() {
            if let Some(segmenter) = &mut self.segmenter {
                segmenter.note_text(text.data.len());
            }
            let placed = self.text.push(text.data, text.span, self.visible.in_pre());
            self.place(placed);
        }
        self.links.push_anchor_text(text.data);
    }

    /// [`Extractor::text_main`] when only the text is wanted, gathered:
    /// as [`Extractor::text_alone`] gathers it (most text tokens copied
    /// with no call), main content told of it first.
    #[inline(never)]
    fn text_main_alone(&mut self, text: &Text<'_>) {
        // A measure due goes out of line, so that this function makes no
        // call but in tail position and saves no registers.
        let taken = text.data.len() + PIECE;
        if self.budget.spend(taken) {
            return self.text_main_alone_measured(text, taken);
        }
        self.text_main_alone_spent(text);
    }

    /// [`Extractor::text_main_alone`] when a measure is due: the text,
    /// unless the memory limit stops the extractor.
    #[cold]
    #[inline(never)]
    fn text_main_alone_measured(&mut self, text: &Text<'_>, taken: usize) {
        if self.over_limit(taken, Some(text.span.start)) {
            return;
        }
        self.text_main_alone_spent(text);
    }

    /// [`Extractor::text_main_alone`] once the text is counted.
    #[inline(always)]
    fn text_main_alone_spent(&mut self, text: &Text<'_>) {
        if !self.visible.shows_text() || self.text.is_full() {
            return;
        }
        if let Some(segmenter) = &mut self.segmenter {
            segmenter.note_text(text.data.len());
        }
        if self.visible.in_pre() || !self.text.gather_short(text.data) {
            self.gather_main(text.data);
        }
    }

    /// [`TextOut::gather`], for [`Extractor::text_main_alone`]'s text that
    /// is long, in `<pre>`, or fills the gathered text up (counted for the
    /// memory limit as it came).
    #[inline(never)]
    fn gather_main(&mut self, text: &str) {
        self.text.gather(text, self.visible.in_pre());
    }

    /// [`Extractor::text`] with Markdown: the Markdown written, and with
    /// main content the plain text too (which main content reads).
    #[inline(never)]
    fn text_markdown(&mut self, text: &Text<'_>) {
        if self.spend_on(text) {
            return;
        }
        if self.wants.metadata {
            self.meta.text(text);
        }
        if !self.visible.shows_text() {
            return;
        }
        if let Some(markdown) = &mut self.markdown {
            markdown.text(text.data);
        }
        if let Some(segmenter) = &mut self.segmenter {
            if !self.text.is_full() {
                segmenter.note_text(text.data.len());
                let placed = self.text.push(text.data, text.span, self.visible.in_pre());
                self.place(placed);
            }
        }
        self.links.push_anchor_text(text.data);
    }

    /// [`Extractor::text_markdown`] when only the Markdown is wanted:
    /// nothing else to tell, so a tail call that saves no registers.
    #[inline(never)]
    fn text_markdown_alone(&mut self, text: &Text<'_>) {
        if self.spend_on(text) {
            return;
        }
        if let Some(markdown) = &mut self.markdown {
            if self.visible.shows_text() {
                markdown.text(text.data);
            }
        }
    }

    /// Tells main content where text went (with offsets, as it is
    /// written).
    #[inline(always)]
    fn place(&mut self, placed: Option<Placed>) {
        if let (Some(segmenter), Some(p)) = (&mut self.segmenter, placed) {
            segmenter.placed(p.at, p.end, p.run);
        }
    }

    /// The boundary a tag makes in the text.
    #[inline(always)]
    fn boundary(&mut self, boundary: Option<Boundary>) {
        match boundary {
            Some(Boundary::Block) => self.text.collapse.line_break(),
            Some(Boundary::Cell) => self.text.collapse.space(),
            None => return,
        }
        self.links.anchor_space();
    }

    /// The boundary a tag makes, for Markdown. Only the paths
    /// past the start tags' fast path call it: with Markdown every
    /// element that makes a boundary takes them (see `Extractor::new`), so
    /// that the fast path saves no registers for a call it never makes.
    #[inline(never)]
    fn markdown_boundary(&mut self, boundary: Option<Boundary>, tag: &Tag<'_>) {
        // Block and cell boundaries come with the markup written without
        // text (`---`, a table's pipes): measured here too, out of line.
        if self.budget.spend(PIECE) {
            return self.markdown_boundary_measured(boundary, tag);
        }
        if let Some(markdown) = &mut self.markdown {
            markdown.boundary(boundary, tag.element);
        }
    }

    /// [`Extractor::markdown_boundary`] when a measure is due: the
    /// boundary, unless the memory limit stops the extractor.
    #[cold]
    #[inline(never)]
    fn markdown_boundary_measured(&mut self, boundary: Option<Boundary>, tag: &Tag<'_>) {
        if self.over_limit(PIECE, Some(tag.span.start)) {
            return;
        }
        if let Some(markdown) = &mut self.markdown {
            markdown.boundary(boundary, tag.element);
        }
    }

    /// [`Extractor::boundary`] for a tag in the paths that main content
    /// takes (every tag does, with it): a block boundary (not a `<br>`,
    /// which breaks a line inside a block) ends a block.
    fn boundary_of(&mut self, boundary: Option<Boundary>, tag: &Tag<'_>) {
        // Markdown first: the markup it closes there ends the block that
        // main content is told of next.
        if self.markdown.is_some() && boundary.is_some() {
            self.markdown_boundary(boundary, tag);
        }
        if boundary == Some(Boundary::Block)
            && tag.element != Element::Br
            && self.segmenter.is_some()
        {
            self.end_block();
        }
        self.boundary(boundary);
    }

    /// Ends the block being written, for main content. With offsets, each
    /// piece of its text was placed as it was written; gathered, its text
    /// is marked where it ends and awaits its place, which is known once
    /// the text is collapsed (16 KiB at a time, or at the end), where it
    /// was collapsed at each block's end (BENCHMARKS.md, "Main content").
    fn end_block(&mut self) {
        let Some(segmenter) = &mut self.segmenter else {
            return;
        };
        if self.text.mode() == TextMode::Gathered {
            // Text of whitespace alone between two blocks makes no block:
            // forgotten, where it was marked and placed to be found so.
            if segmenter.has_pending() && self.text.blank_since_mark() {
                segmenter.forget_pending();
            } else if segmenter.has_pending() {
                self.text.mark();
                segmenter.await_place();
                // Markdown marks each block as it ends, so it must be known
                // at once; and the marks held are few.
                if self.markdown.is_some() || self.text.marks_held() >= MARKS_HELD {
                    self.text.collapse_gathered();
                }
            }
            place(segmenter, &mut self.text);
        } else {
            segmenter.boundary();
        }
        if let Some(markdown) = &mut self.markdown {
            markdown.mark(segmenter.block_count());
        }
    }

    /// Ends the last block, for main content, and places every block: at
    /// the end of the page.
    pub(super) fn place_blocks(&mut self) {
        self.end_block();
        if let Some(segmenter) = &mut self.segmenter {
            if self.text.mode() == TextMode::Gathered {
                self.text.collapse_gathered();
                place(segmenter, &mut self.text);
            }
        }
    }

    #[inline(never)]
    fn start_tag<'s>(&mut self, tag: &Tag<'_>, source: &dyn Fn(Span) -> Option<&'s str>) {
        // Most tags: nothing is wanted of them past what is visible, and
        // they plainly change nothing of that; at most a boundary. Tested
        // without a call, so that they do not pay for the registers the
        // rest needs saved.
        let kind = self.dispatch.kinds.of(tag.element);
        // `START_MORE` covers the elements `is_plainly_shown_start` asks
        // to be ruled out; the boundary bits are clear unless what is
        // visible is followed.
        if kind & START_MORE == 0
            && (!self.dispatch.follow.visible() || self.visible.is_plainly_shown_start(tag))
        {
            // On the bits themselves, not through an `Option<Boundary>`,
            // which the compiler was seen to build branch-free and then
            // test again (BENCHMARKS.md, "Markdown").
            if kind & kinds::BLOCK != 0 {
                self.boundary(Some(Boundary::Block));
            } else if kind & kinds::CELL != 0 {
                self.boundary(Some(Boundary::Cell));
            }
            if kind & kinds::MAIN != 0 {
                self.start_tag_main(tag, kind);
            }
            return;
        }
        if kind & MARKDOWN_INLINE != 0 {
            return self.markdown_inline_start(tag, source, kind);
        }
        self.start_tag_slow(tag, source);
    }

    /// [`Extractor::start_tag`] for the tags of [`MARKDOWN_INLINE`]:
    /// straight to the Markdown writer while the element is plainly shown
    /// (then nothing else is asked of its tag: it hides or shows nothing,
    /// and it makes at most its boundary, which `kind` tells).
    #[inline(never)]
    fn markdown_inline_start<'s>(
        &mut self,
        tag: &Tag<'_>,
        source: &dyn Fn(Span) -> Option<&'s str>,
        kind: u8,
    ) {
        if let Some(markdown) = &mut self.markdown {
            if self.visible.is_plainly_shown_start(tag) {
                // Counted as `start_tag_slow` counts Markdown's tags.
                self.budget.spend(PIECE);
                let links = &self.links;
                let url = &|raw: &str, out: &mut String| links.resolve_url_into(tag.name, raw, out);
                if kind & (kinds::BLOCK | kinds::CELL) == 0 {
                    return markdown.inline_start(tag, url);
                }
                // A block or a cell: what `start_tag_slow` does with it.
                if markdown.takes_tag(tag.element) {
                    markdown.start_tag(tag, url);
                }
                let boundary = if kind & kinds::BLOCK != 0 {
                    Boundary::Block
                } else {
                    Boundary::Cell
                };
                return self.boundary_of(Some(boundary), tag);
            }
        }
        self.start_tag_slow(tag, source);
    }

    /// [`Extractor::start_tag`]'s fast path for main content: a block
    /// boundary (not a `<br>`) ends a block, and the element opens.
    #[inline(never)]
    fn start_tag_main(&mut self, tag: &Tag<'_>, kind: u8) {
        if kind & kinds::BLOCK != 0 && tag.element != Element::Br {
            self.end_block();
        }
        if let Some(segmenter) = &mut self.segmenter {
            segmenter.start_tag(tag);
        }
    }

    /// [`Extractor::start_tag`] for the tags that may change what is
    /// visible, or that something past that is wanted of.
    #[inline(never)]
    fn start_tag_slow<'s>(&mut self, tag: &Tag<'_>, source: &dyn Fn(Span) -> Option<&'s str>) {
        if self.dispatch.follow.visible() {
            let boundary = self.visible.start_tag(tag);
            if let Some(markdown) = &mut self.markdown {
                if self.visible.shows_text() {
                    // Counted, and measured at the next boundary or text.
                    self.budget.spend(PIECE);
                    if markdown.takes_tag(tag.element) {
                        let links = &self.links;
                        markdown
                            .start_tag(tag, &|raw, out| links.resolve_url_into(tag.name, raw, out));
                    }
                }
            }
            self.boundary_of(boundary, tag);
        }
        if let Some(segmenter) = &mut self.segmenter {
            segmenter.start_tag(tag);
        }
        if self.dispatch.follow == Follow::TextAlone {
            // Only images (alt text) matter past what is visible.
            if visible::IMAGES.contains(tag.element) && self.visible.shows_text() {
                self.alt(tag);
            }
            return;
        }
        if self.dispatch.start_tags.contains(tag.element) {
            self.start_tag_rest(tag, source);
        }
    }

    /// [`Extractor::start_tag_slow`] past what is visible, when links or
    /// metadata are wanted, for the elements of `start_tags`.
    #[inline(always)]
    fn start_tag_rest<'s>(&mut self, tag: &Tag<'_>, source: &dyn Fn(Span) -> Option<&'s str>) {
        match tag.element {
            Element::Img | Element::Input
                if self.dispatch.follow.visible() && self.visible.shows_text() =>
            {
                self.alt(tag)
            }
            Element::A => self.links.close_anchor(),
            Element::Base => self.links.base_tag(tag),
            _ => {}
        }
        let wanted = if self.wants.links {
            links::url_attributes_of(tag)
        } else {
            None
        };
        if let Some(wanted) = wanted {
            if self.spend_on_tag(tag) {
                return;
            }
            let before = self.links.len();
            self.links.tag(tag, wanted, source);
            if let Some(segmenter) = &mut self.segmenter {
                segmenter.links_found(self.links.len() - before);
            }
        }
        if self.wants.metadata {
            self.meta.start_tag(tag);
        }
        self.refresh();
    }

    /// Writes the `alt` text of an image, when asked to (and to the anchor
    /// text of the link it is in, always).
    fn alt(&mut self, tag: &Tag<'_>) {
        if tag.element == Element::Input
            && !tag
                .attr_value("type")
                .is_some_and(|t| t.eq_ignore_ascii_case("image"))
        {
            return;
        }
        let Some(alt) = tag.attr("alt") else {
            return;
        };
        if self.visible.honours_hidden() && visible::has_hidden_attribute(tag) {
            return;
        }
        if self.wants.alt_text && self.spend_on_tag(tag) {
            return;
        }
        self.links.anchor_space();
        self.links.push_anchor_text(alt.value);
        self.links.anchor_space();
        if self.wants.alt_text {
            if let Some(markdown) = &mut self.markdown {
                let links = &self.links;
                let src = tag
                    .attr_value("src")
                    .map(|src| links.resolve_url(tag.name, src).url);
                markdown.image(alt.value, src);
            }
        }
        if self.wants.alt_text && self.text.mode() != TextMode::Off {
            if let Some(segmenter) = &mut self.segmenter {
                segmenter.note_text(alt.value.len());
            }
            let placed = self
                .text
                .push_alt(alt.value, alt.value_span.unwrap_or(alt.name_span));
            self.place(placed);
        }
    }

    #[inline(never)]
    fn end_tag(&mut self, tag: &Tag<'_>) {
        // Main content without Markdown: the element closed, and most end
        // tags while text is shown are at most a boundary, from the bits
        // as the start tags' fast path takes it; a block's end out of
        // line, so that the rest save no register.
        if self.markdown.is_none() {
            if let Some(segmenter) = &mut self.segmenter {
                segmenter.end_tag(tag);
                if self.visible.shows_text() && !END_TAGS.contains(tag.element) {
                    let kind = self.dispatch.kinds.of(tag.element);
                    if kind & kinds::BLOCK != 0 {
                        return self.end_tag_block(tag);
                    } else if kind & kinds::CELL != 0 {
                        self.boundary(Some(Boundary::Cell));
                    }
                    return;
                }
                return self.end_tag_past_text(tag);
            }
        }
        if self.markdown.is_some() && self.visible.shows_text() {
            // Inline markup that only Markdown reads: nothing else to do
            // (see `markdown_inline_start`).
            // (The blocks and cells of `MARKDOWN_INLINE` take that path
            // for their start tags only.)
            let kind = self.dispatch.kinds.of(tag.element);
            if kind & (MARKDOWN_INLINE | kinds::BLOCK | kinds::CELL) == MARKDOWN_INLINE {
                if let Some(markdown) = &mut self.markdown {
                    return markdown.inline_end(tag);
                }
            }
            // Most end tags (`</div>`, `</p>`) are only their boundary to
            // the writer, which comes below.
            if self
                .markdown
                .as_ref()
                .is_some_and(|m| m.takes_tag(tag.element))
            {
                self.markdown_end_tag(tag);
            }
        }
        if let Some(segmenter) = &mut self.segmenter {
            segmenter.end_tag(tag);
        }
        // Most end tags while text is shown are at most a boundary: of the
        // text and the anchor text, if they are wanted.
        if self.visible.shows_text() && !END_TAGS.contains(tag.element) {
            if self.text.mode() != TextMode::Off
                || self.markdown.is_some()
                || self.links.anchor_state() == AnchorState::Open
            {
                self.boundary_of(visible::boundary(tag.element), tag);
            }
            return;
        }
        self.end_tag_past_text(tag);
    }

    /// [`Extractor::end_tag`] of a block element while text is shown, with
    /// main content and without Markdown: the line breaks, and the block
    /// ends (but at a `<br>`), in a call in tail position. The line break
    /// first: it is only due (written before the next word), and the
    /// block's end reads none of it.
    #[inline(never)]
    fn end_tag_block(&mut self, tag: &Tag<'_>) {
        self.boundary(Some(Boundary::Block));
        if tag.element != Element::Br {
            self.end_block();
        }
    }

    /// [`Extractor::end_tag`] past the boundaries while text is shown.
    #[inline(always)]
    fn end_tag_past_text(&mut self, tag: &Tag<'_>) {
        if tag.element == Element::A && self.visible.shows_text() {
            // Neither a boundary nor read by the metadata: it ends the
            // anchor text, if any (with none open, as with main content
            // and no links wanted, nothing changes).
            if self.links.anchor_state() == AnchorState::Open {
                self.links.close_anchor();
                self.refresh();
            }
            return;
        }
        self.end_tag_rest(tag);
    }

    /// An end tag of what is shown, for Markdown (out of line, as
    /// [`Extractor::markdown_boundary`] is).
    #[inline(never)]
    fn markdown_end_tag(&mut self, tag: &Tag<'_>) {
        if let Some(markdown) = &mut self.markdown {
            markdown.end_tag(tag);
        }
    }

    /// [`Extractor::end_tag`] for the end tags of `END_TAGS`, and any
    /// while text is hidden.
    #[inline(never)]
    fn end_tag_rest(&mut self, tag: &Tag<'_>) {
        if self.dispatch.follow.visible() {
            let boundary = self.visible.end_tag(tag);
            self.boundary_of(boundary, tag);
        }
        if tag.element == Element::A {
            self.links.close_anchor();
        }
        if self.wants.metadata {
            self.meta.end_tag(tag);
        }
        self.refresh();
    }
}

/// The elements of [`MARKDOWN_INLINE`]: Markdown's inline markup that
/// nothing else wants the tags of, and `<a>` when links are not wanted
/// (then no anchor text is read, so its end tag ends nothing but the
/// Markdown's link); and for their start tags, the blocks and cells that
/// nothing else wants and that hide or show nothing while plainly shown.
fn markdown_inline(links: bool, start_tags: ElementSet) -> ElementSet {
    let anchor = if links {
        ElementSet::of(&[])
    } else {
        ElementSet::of(&[Element::A])
    };
    let inline = markdown::INLINE
        .union(anchor)
        .difference(start_tags)
        .difference(END_TAGS.difference(anchor));
    let boundaries = visible::BOUNDARY
        .difference(visible::SPECIAL)
        .difference(start_tags);
    inline.union(boundaries)
}

/// Tells main content where the gathered text that awaited its place
/// went, if more of it was collapsed.
#[inline]
fn place(segmenter: &mut Segmenter, text: &mut TextOut) {
    let (places, out) = text.places();
    if !places.is_empty() {
        segmenter.place(places, out);
        places.clear();
    }
}

/// The Markdown writer the options ask for (out of line, as
/// [`markdown_text`] is).
#[inline(never)]
fn new_markdown(options: &ExtractOptions) -> Box<Markdown> {
    // With main content the cap applies to the kept blocks' Markdown, not
    // to the page's.
    let written = if options.main_content {
        usize::MAX
    } else {
        options.text_limit
    };
    Box::new(Markdown::new(
        options.link_targets,
        written,
        options.text_limit,
        options.main_content,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tokenizer;

    /// The Markdown of `html` as `extractor` writes it.
    fn markdown_of(mut extractor: Extractor, html: &str) -> String {
        let arena = crate::bumpalo::Bump::new();
        for token in Tokenizer::new(html, &arena) {
            extractor.token_in(&token, html);
        }
        extractor.finish().text
    }

    /// The tags of [`MARKDOWN_INLINE`] (inline markup, `<a>`, blocks and
    /// cells) give on their path what they give on the general one
    /// (`start_tag_slow`, `end_tag`'s tests): the same Markdown with the
    /// bit cleared, on hand-written pages and the corpus.
    #[test]
    fn markdown_tags_path_is_the_general_one() {
        let mut pages: Vec<String> = [
            "<div>a <b>b <a href=/x>x <i>y</a> z</i></b><p>p <a href='#f'>f <a href=g>g</a>",
            "<a hidden href=h>h</a> <div hidden>d</div> <p style=display:none>s</p> <a href=t><p>b</a>",
            "<pre><a href=p>p</a><div>d</div></pre><math><a href=m>m</a><p>q</math><code><p>c</code>",
            "<table><tr><td><a href=t>t<td><div>u</div></a></table><h1><p>h</p></h1><li>i<dd>d",
            "<noscript><div>n</div></noscript><template><p>t</p></template>x <section>s</section>",
        ]
        .map(String::from)
        .to_vec();
        if let Ok(dir) = std::env::var("HTMLTOK_CORPUS_DIR") {
            if let Ok(entries) = std::fs::read_dir(dir) {
                for entry in entries.flatten() {
                    if let Ok(bytes) = std::fs::read(entry.path()) {
                        pages.push(String::from_utf8_lossy(&bytes).into_owned());
                    }
                }
            }
        }
        for targets in [true, false] {
            let options = ExtractOptions::default()
                .links(false)
                .metadata(false)
                .format(TextFormat::Markdown)
                .link_targets(targets);
            for html in &pages {
                let fast = Extractor::new(&options);
                let mut general = Extractor::new(&options);
                general.dispatch.kinds = general.dispatch.kinds.without(MARKDOWN_INLINE);
                assert_eq!(
                    markdown_of(fast, html),
                    markdown_of(general, html),
                    "{}",
                    &html[..html.len().min(80)]
                );
            }
        }
    }
}
