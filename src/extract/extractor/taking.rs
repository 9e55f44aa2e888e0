//! What a caller takes from an [`Extractor`]: the text (as it goes, or
//! at the end), its runs, the links, and the page's [`Extracted`] once
//! the last token is in.

use crate::extract::extracted::MainContent;
use crate::extract::link::Link;
use crate::extract::main_content;
use crate::extract::markdown::Markdown;
use crate::extract::resolve::Resolved;
use crate::extract::{Extracted, TextRun};

use super::{Extractor, LINKS_RESERVED_MAX, PAGE_BYTES_PER_LINK};

impl Extractor {
    /// Makes room for `bytes` more of text (no more than
    /// [`ExtractOptions::text_limit`](crate::extract::ExtractOptions::text_limit) lets through), as
    /// [`String::reserve`] does: a hint for a caller who knows the page's
    /// length.
    ///
    /// The text of a page is shorter than the page (each byte of it comes
    /// from a byte of text or of an attribute, each separator from a tag),
    /// and on real pages about a third of it; room for half the page spares
    /// the regrowing of the text as it comes, each of which copies the text
    /// so far. [`extract`](crate::extract::extract) does this.
    ///
    /// ```
    /// use htmltok::extract::{ExtractOptions, Extractor};
    /// use htmltok::Tokenizer;
    /// use bumpalo::Bump;
    ///
    /// let html = "<p>One<p>Two";
    /// let mut extractor = Extractor::new(&ExtractOptions::default());
    /// extractor.reserve_text(html.len() / 2);
    /// let arena = Bump::new();
    /// for token in Tokenizer::new(html, &arena) {
    ///     extractor.token_in(&token, html);
    /// }
    /// assert_eq!(extractor.finish().text, "One\nTwo");
    /// ```
    pub fn reserve_text(&mut self, bytes: usize) {
        self.reserve_text_and_markdown(bytes, bytes);
    }

    /// [`Extractor::reserve_text`], `text` bytes for the text and
    /// `markdown` for the Markdown.
    fn reserve_text_and_markdown(&mut self, text: usize, markdown: usize) {
        // Under a memory limit, no more than a quarter of it: the rest is
        // for the blocks, the links and the Markdown, and for the text to
        // grow into.
        let most = self.budget.limit() / 4;
        self.text.reserve(text.min(most));
        if let Some(segmenter) = &mut self.segmenter {
            segmenter.reserve(text.min(most));
        }
        if let Some(out) = &mut self.markdown {
            out.reserve(markdown.min(most));
        }
    }

    /// Makes room for what a page of `page_bytes` bytes usually yields,
    /// for a caller who knows its length: text for half of it (see
    /// [`Extractor::reserve_text`]), Markdown for three quarters, and,
    /// when links are wanted, one link
    /// for every [`PAGE_BYTES_PER_LINK`] bytes (at most
    /// [`LINKS_RESERVED_MAX`]). [`extract`](crate::extract::extract) does this.
    ///
    /// Links wait in the extractor for the page's `<base>` (or its end),
    /// in a list that otherwise grows by doubling, copying what it holds
    /// each time. The pages of the corpus hold one link for every 208 to
    /// 3,400 bytes; room reserved and not used is not touched.
    ///
    /// ```
    /// use htmltok::extract::{ExtractOptions, Extractor};
    /// use htmltok::Tokenizer;
    /// use bumpalo::Bump;
    ///
    /// let html = "<a href=/a>A</a> <a href=/b>B</a>";
    /// let mut extractor = Extractor::new(&ExtractOptions::default());
    /// extractor.reserve_page(html.len());
    /// let arena = Bump::new();
    /// for token in Tokenizer::new(html, &arena) {
    ///     extractor.token_in(&token, html);
    /// }
    /// assert_eq!(extractor.finish().links.len(), 2);
    /// ```
    pub fn reserve_page(&mut self, page_bytes: usize) {
        // Markdown is longer than the text (its markup, the links'
        // URLs): up to two thirds of the corpus's largest pages, where
        // half of them made it grow once, copying what it held.
        self.reserve_text_and_markdown(page_bytes / 2, page_bytes / 4 * 3);
        if self.wants.links {
            self.links
                .reserve((page_bytes / PAGE_BYTES_PER_LINK).min(LINKS_RESERVED_MAX));
        }
    }

    /// Whether nothing more can be extracted: only text was asked for, and
    /// its cap is reached, or the memory limit stopped the extractor
    /// ([`Extractor::limit_error`]). A caller may stop tokenizing.
    pub fn is_done(&self) -> bool {
        self.budget.stopped() || (!self.wants.links && !self.wants.metadata && self.text.is_full())
    }

    /// The text written since it was last taken (the whole text so far,
    /// the first time), to write out as the page goes by. Runs
    /// ([`TextRun`]) keep their offsets in the whole text.
    pub fn take_text(&mut self) -> String {
        if self.holds_text() {
            return String::new();
        }
        self.text.take()
    }

    /// The text written since it was last taken or cleared, without taking
    /// it: with [`Extractor::clear_text`], a caller that writes the text
    /// out as it goes reuses one buffer (and asks
    /// [`Extractor::held_text_len`] when to).
    pub fn pending_text(&mut self) -> &str {
        if self.holds_text() {
            return "";
        }
        self.text.pending()
    }

    /// Forgets the text written since it was last taken or cleared (see
    /// [`Extractor::pending_text`]).
    pub fn clear_text(&mut self) {
        if !self.holds_text() {
            self.text.clear();
        }
    }

    /// The length of the whole text written so far, taken or not.
    pub fn text_len(&mut self) -> usize {
        match &self.markdown {
            Some(markdown) => markdown.len(),
            None => self.text.len(),
        }
    }

    /// Whether the text is held until the page ends (main content
    /// chooses blocks when it has seen them all; Markdown rewrites a
    /// table or a code block at its end).
    fn holds_text(&self) -> bool {
        self.segmenter.is_some() || self.markdown.is_some()
    }

    /// How many bytes of text the extractor holds, collapsed or not yet:
    /// at least the length of [`Extractor::pending_text`], and cheap to
    /// ask after every token (it collapses nothing).
    ///
    /// ```
    /// use htmltok::extract::{ExtractOptions, Extractor};
    /// use htmltok::{Tokenizer, bumpalo::Bump};
    ///
    /// let arena = Bump::new();
    /// let mut extractor = Extractor::new(&ExtractOptions::default());
    /// let mut written = String::new();
    /// for token in Tokenizer::new("<p>one <b>two</b><p>three", &arena) {
    ///     extractor.token(&token);
    ///     if extractor.held_text_len() >= 4 {
    ///         written.push_str(extractor.pending_text());
    ///         extractor.clear_text();
    ///     }
    /// }
    /// written.push_str(extractor.pending_text());
    /// assert_eq!(written, "one two\nthree");
    /// ```
    pub fn held_text_len(&self) -> usize {
        match &self.markdown {
            Some(markdown) => markdown.len(),
            None => self.text.held_len(),
        }
    }

    /// The text runs recorded since they were last taken.
    pub fn take_runs(&mut self) -> Vec<TextRun> {
        if self.holds_text() || !self.wants.offsets {
            return Vec::new();
        }
        self.text.take_runs()
    }

    /// How many links the extractor holds, not yet taken (a caller that
    /// bounds its memory takes them with
    /// [`Extractor::take_links_unresolved`] past some number).
    pub fn links_held(&self) -> usize {
        self.links.len()
    }

    /// About how many bytes the links not yet taken hold (their strings
    /// and what the extractor keeps of each): what a caller that bounds
    /// its memory compares with its budget, as `htmltok links` does for
    /// the links that wait for a page's `<base>`.
    ///
    /// ```
    /// use htmltok::extract::{ExtractOptions, Extractor};
    /// use htmltok::{Tokenizer, bumpalo::Bump};
    ///
    /// let html = "<a href=/one>1</a><a href=/two>2</a>";
    /// let arena = Bump::new();
    /// let mut extractor = Extractor::new(&ExtractOptions::default());
    /// for token in Tokenizer::new(html, &arena) {
    ///     extractor.token(&token);
    /// }
    /// assert_eq!(extractor.links_held(), 2);
    /// assert!(extractor.links_held_bytes() >= "/one1/two2".len());
    /// let links = extractor.take_links_unresolved();
    /// assert_eq!(extractor.links_held_bytes(), 0);
    /// ```
    pub fn links_held_bytes(&self) -> usize {
        self.links.bytes()
    }

    /// Whether the page's base URL is known: its `<base href>` was seen.
    /// Until then (or the end of the page) [`Extractor::take_links`] holds
    /// links back, since a `<base>` applies to the links before it too.
    pub fn base_known(&self) -> bool {
        self.links.base_known()
    }

    /// The links found and resolved since they were last taken, in page
    /// order: none until the base URL is known (see
    /// [`Extractor::base_known`]); an `<a>` whose anchor text is still
    /// being read and the links after it stay.
    pub fn take_links(&mut self) -> Vec<Link> {
        if !self.links.base_known() || self.segmenter.is_some() {
            return Vec::new();
        }
        self.links.take_resolved()
    }

    /// The links found since they were last taken, with `url` as written
    /// whatever the base: for a caller that keeps them elsewhere (a page
    /// with a million links before its `<base>`, or none) and resolves
    /// them at the end with [`Extractor::resolve`].
    pub fn take_links_unresolved(&mut self) -> Vec<Link> {
        if self.segmenter.is_some() {
            return Vec::new();
        }
        self.links.take_unresolved()
    }

    /// Resolves a link taken with [`Extractor::take_links_unresolved`],
    /// against the page's base URL as far as the page has been read (its
    /// final base URL, once the whole page has been).
    pub fn resolve(&self, link: &mut Link) {
        self.links.resolve(link);
    }

    /// Resolves `raw` as a URL of a `tag` element (`<base href>` against
    /// the page's address, anything else against its base URL), as far as
    /// the page has been read.
    pub fn resolve_url(&self, tag: &str, raw: &str) -> Resolved {
        self.links.resolve_url(tag, raw)
    }

    /// Ends the page with its blocks as main content sees them (with
    /// [`ExtractOptions::main_content`](crate::extract::ExtractOptions::main_content); none without): what
    /// `examples/blocks.rs` dumps for training the model.
    #[doc(hidden)]
    pub fn finish_blocks(mut self) -> Vec<main_content::BlockFeatures> {
        if self.segmenter.is_some() {
            self.place_blocks();
        }
        let (text, _, _) = self.text.finish();
        self.segmenter
            .map_or_else(Vec::new, |segmenter| segmenter.dump(&text))
    }

    /// Ends the page: everything not yet taken.
    pub fn finish(mut self) -> Extracted {
        if self.segmenter.is_some() {
            self.place_blocks();
        }
        self.links.close_anchor();
        let mut links = self.links.take_resolved();
        let (mut text, mut text_truncated, mut runs) = self.text.finish();
        let mut main_content = MainContent::NotAsked;
        let markdown = self.markdown.take();
        if let Some(segmenter) = self.segmenter {
            let decision = segmenter.finish(&text);
            if let Some(markdown) = markdown {
                let kept = (decision.outcome == MainContent::Found).then_some(&decision.kept[..]);
                (text, text_truncated) = markdown_text(markdown, kept);
                runs = Vec::new();
            } else if decision.outcome == MainContent::Found {
                (text, runs) = main_content::assemble(&text, &runs, &decision.kept);
            }
            for (link, kept) in links.iter_mut().zip(decision.links) {
                link.in_main_content = kept;
            }
            main_content = decision.outcome;
        } else if let Some(markdown) = markdown {
            (text, text_truncated) = markdown_text(markdown, None);
        }
        if !self.wants.offsets {
            runs = Vec::new();
        }
        let (document, base) = self.links.resolvers();
        Extracted {
            text,
            runs,
            text_truncated,
            links,
            metadata: self.meta.finish(document, base),
            main_content,
            memory_limit: self.budget.error,
        }
    }
}

/// The Markdown of a page once it is read: all of it, or the `kept`
/// blocks' (main content); and whether the cap cut it. Out of line, so
/// that [`Extractor::finish`], which a caller's token loop may inline,
/// stays the size it is without Markdown.
#[inline(never)]
fn markdown_text(
    mut markdown: Box<Markdown>,
    kept: Option<&[main_content::Kept]>,
) -> (String, bool) {
    markdown.finish();
    match kept {
        Some(kept) => {
            let blocks: Vec<usize> = kept.iter().map(|k| k.block).collect();
            markdown.take_blocks(&blocks)
        }
        None => markdown.take(),
    }
}
