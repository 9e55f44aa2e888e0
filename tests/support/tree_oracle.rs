//! A real tree builder as the oracle for auto-switching: the tokens that
//! html5ever's tokenizer hands to html5ever's own `TreeBuilder` (scripting
//! on), against htmltok's tokens with auto-switching on. Used by
//! `tests/tree_oracle.rs`, `tests/regressions.rs` and the `tree_oracle`
//! fuzz target. It builds on [`reference`](crate::reference), whose token
//! form, conversions and
//! [`first_difference`](crate::reference::first_difference) it shares.
//!
//! The differential test drives both tokenizers with one flat table of tag
//! names. Here the tree builder decides, insertion mode by insertion mode,
//! when the tokenizer switches to RCDATA, RAWTEXT, script data or
//! PLAINTEXT, and whether `<![CDATA[` opens a CDATA section (the adjusted
//! current node is foreign): exactly what htmltok's auto-switching
//! approximates without a tree.
//!
//! [`Recorder`] is the `TokenSink` between the two halves of html5ever: it
//! records each token, then passes it on to the tree builder, whose answer
//! (`RawData`, `Plaintext`, `Script`) goes back to the tokenizer. The tree
//! builder needs a `TreeSink`; [`Dom`] is the least one that answers every
//! question the tree builder asks of its tree — an element's name and
//! namespace, whether a node has a parent, a template's contents, whether
//! a MathML `annotation-xml` is an HTML integration point — and keeps
//! nothing else (no children, no text, no attributes).
//!
//! Where html5ever's tree builder is wrong by the current standard, the
//! deviation is named and argued in [`DEVIATION`], shown by [`EXAMPLES`]
//! (checked in `tests/tree_oracle.rs`), and a difference is put down to it
//! only when htmltok made to follow it gives html5ever's tokens exactly
//! ([`judge`]).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Token as H5Token, TokenSink, TokenSinkResult, Tokenizer as H5Tokenizer,
    TokenizerOpts,
};
use html5ever::tree_builder::{
    ElementFlags, NodeOrText, QuirksMode, TreeBuilder, TreeBuilderOpts, TreeSink,
};
use html5ever::{Attribute, QualName, TokenizerResult, local_name, ns};
use htmltok::bumpalo::Bump;
use htmltok::{Options, StreamOptions, StreamTokenizer, Tokenizer};

use crate::reference::{self, Config, Mismatch, RefToken};

/// html5ever 0.40's deviations from the current standard in what drives
/// the tokenizer. Its element sets (`tree_builder/tag_sets.rs`) differ
/// from the standard's ([the stack of open elements](https://html.spec.whatwg.org/multipage/parsing.html#the-stack-of-open-elements)) in three ways:
///
/// - "has an element in scope" (and its button and list item variants):
///   the standard's boundaries include MathML `annotation-xml`, beside
///   `mi`, `mo`, `mn`, `ms`, `mtext` and SVG `foreignObject`, `desc`,
///   `title`; html5ever's leave it out;
/// - the special category: the standard's includes those nine foreign
///   elements; html5ever's `special_tag` holds HTML elements only;
/// - among HTML elements, the standard's special category has `search`
///   (added with the element in 2023) and not `isindex` (dropped with it
///   in 2016); html5ever's has `isindex` and not `search`.
///
/// And three rules (`tree_builder/rules.rs`, `mod.rs`):
///
/// - "in table body", a `caption`, `col`, `colgroup`, `tbody`, `tfoot`,
///   `thead` start tag or `</table>` closes the open section when a
///   `tbody`, `thead` or `tfoot` is in table scope (["in table body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intbody));
///   html5ever tests `table`, `tbody`, `tfoot`, so a `thead` in a template
///   is not closed (and a section is, when only a `table` is in scope);
/// - foreign content's breakout (`</p>`, `</br>` and the breakout start
///   tags, [foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)) stops at an HTML integration point; html5ever's
///   test passes an `annotation-xml` that is one;
/// - "in table", characters go to "in table text" when the current node
///   is a `table`, `tbody`, `template`, `tfoot`, `thead` or `tr`
///   (["in table"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable)); html5ever leaves out `template`.
///
/// Each decides which element is the current node (so whether
/// `<![CDATA[` opens a CDATA section) or whether a tag opens an element at
/// all. htmltok follows the standard. A difference is put down to these
/// deviations, and to nothing else, when htmltok with exact switching
/// gives the tokens htmltok gave, and htmltok with exact switching made to
/// follow html5ever in them (`Options::__html5ever_deviations`, which
/// exists for this) gives html5ever's: see [`judge`]. (Found by a review
/// of the follower against html5ever's source, 2026-11-27; the last has no
/// example that shows in the tokens.)
pub const DEVIATION: &str = "html5ever 0.40's deviations (element sets, three rules)";

/// An input showing [`DEVIATION`]: htmltok must give the standard's
/// tokens, html5ever's tree builder others, which htmltok gives when made
/// to follow html5ever.
pub struct Example {
    /// Which of the differences it shows.
    pub name: &'static str,
    /// The whole document, exactly.
    pub input: &'static str,
    /// The tokens the standard gives (text coalesced).
    pub standard: fn() -> Vec<RefToken>,
}

/// The examples of [`DEVIATION`], each checked in `tests/tree_oracle.rs`
/// (a check that fails once html5ever changes).
pub const EXAMPLES: &[Example] = &[
    Example {
        name: "annotation-xml bounds the scope of a select",
        input: "<svg><foreignObject><select><math><annotation-xml encoding=text/html><select><![CDATA[x]]>",
        // The outer `select` is not in scope past the `annotation-xml`, so
        // the inner one is inserted, the current node is HTML and
        // `<![CDATA[` opens a bogus comment. html5ever closes the outer
        // `select` and all above it: `foreignObject` is the current node
        // and `<![CDATA[` opens a CDATA section.
        standard: || {
            vec![
                start("svg", &[]),
                start("foreignobject", &[]),
                start("select", &[]),
                start("math", &[]),
                start("annotation-xml", &[("encoding", "text/html")]),
                start("select", &[]),
                RefToken::Comment("[CDATA[x]]".into()),
            ]
        },
    },
    Example {
        name: "annotation-xml bounds the button scope of a p",
        input: "<p><math><annotation-xml encoding=text/html><div></div><![CDATA[x]]>",
        // The `p` is not in button scope past the `annotation-xml`, so the
        // `div` opens inside it and `</div>` leaves the `annotation-xml`
        // the current node: `<![CDATA[` opens a CDATA section. html5ever
        // closes the `p` with the `math` inside it before the `div`, and
        // reads a bogus comment after `</div>`.
        standard: || {
            vec![
                start("p", &[]),
                start("math", &[]),
                start("annotation-xml", &[("encoding", "text/html")]),
                start("div", &[]),
                end("div"),
                RefToken::Text("x".into()),
            ]
        },
    },
    Example {
        name: "foreignObject is special: an li inside it does not close one outside",
        input: "<li><svg><foreignObject><li></li><![CDATA[x]]>",
        // The list item loop stops at the special `foreignObject`, so the
        // inner `li` opens inside it and `</li>` leaves `foreignObject`
        // the current node: a CDATA section. html5ever walks on to the
        // outer `li` and closes it with the `svg`.
        standard: || {
            vec![
                start("li", &[]),
                start("svg", &[]),
                start("foreignobject", &[]),
                start("li", &[]),
                end("li"),
                RefToken::Text("x".into()),
            ]
        },
    },
    Example {
        name: "search is special: an end tag does not close past it",
        input: "<svg><foreignObject><span><search></span><![CDATA[x]]>",
        // "Any other end tag" stops at the special `search`: `</span>` is
        // ignored and `search` stays the current node, so `<![CDATA[`
        // opens a bogus comment. html5ever closes `search` and `span`.
        standard: || {
            vec![
                start("svg", &[]),
                start("foreignobject", &[]),
                start("span", &[]),
                start("search", &[]),
                end("span"),
                RefToken::Comment("[CDATA[x]]".into()),
            ]
        },
    },
    Example {
        name: "a thead in a template is closed by </table> (html5ever: only table, tbody, tfoot)",
        input: "<template><thead><svg></table><![CDATA[y]]>",
        // "In table body", `</table>` closes the `thead` (in table scope,
        // bounded by the `template`) with the `svg` in it: the template is
        // the current node, `<![CDATA[` a bogus comment. html5ever finds
        // no `table`, `tbody` or `tfoot` and ignores `</table>`: the `svg`
        // stays, a CDATA section.
        standard: || {
            vec![
                start("template", &[]),
                start("thead", &[]),
                start("svg", &[]),
                end("table"),
                RefToken::Comment("[CDATA[y]]".into()),
            ]
        },
    },
    Example {
        name: "breakout stops at an annotation-xml that is an HTML integration point",
        input: "<math><annotation-xml encoding=\"text/html\"></p><![CDATA[x]]>",
        // `</p>` in foreign content pops to the `annotation-xml` (an HTML
        // integration point) and closes nothing more: it stays the current
        // node, foreign, and `<![CDATA[` opens a CDATA section. html5ever
        // pops it and the `math`.
        standard: || {
            vec![
                start("math", &[]),
                start("annotation-xml", &[("encoding", "text/html")]),
                end("p"),
                RefToken::Text("x".into()),
            ]
        },
    },
    Example {
        name: "isindex is not special: an end tag closes past it",
        input: "<svg><foreignObject><span><isindex></span><![CDATA[x]]>",
        // `isindex` is an ordinary element now: `</span>` closes it and
        // the `span`, so `foreignObject` is the current node and
        // `<![CDATA[` opens a CDATA section. html5ever stops at it.
        standard: || {
            vec![
                start("svg", &[]),
                start("foreignobject", &[]),
                start("span", &[]),
                start("isindex", &[]),
                end("span"),
                RefToken::Text("x".into()),
            ]
        },
    },
];

/// A start tag with these attributes.
fn start(name: &str, attrs: &[(&str, &str)]) -> RefToken {
    RefToken::Tag {
        end: false,
        name: name.into(),
        attrs: attrs
            .iter()
            .map(|&(n, v)| (n.to_owned(), v.to_owned()))
            .collect(),
        self_closing: false,
    }
}

/// An end tag.
fn end(name: &str) -> RefToken {
    RefToken::Tag {
        end: true,
        name: name.into(),
        attrs: Vec::new(),
        self_closing: false,
    }
}

// ---------------------------------------------------------------------------
// The tree the tree builder builds, as little of it as it asks about
// ---------------------------------------------------------------------------

/// A node: the document, an element, a comment, a template's contents.
/// Only what the tree builder reads back is kept.
#[derive(Debug)]
pub struct Node {
    /// The element's name (empty for the other kinds, whose name the tree
    /// builder never asks).
    name: QualName,
    /// Whether the node is in the tree (foster parenting asks).
    has_parent: Cell<bool>,
    /// A template's contents.
    contents: Option<Handle>,
    /// A MathML `annotation-xml` that is an HTML integration point.
    integration_point: bool,
}

/// A node as the tree builder holds it.
pub type Handle = Rc<Node>;

fn node(name: QualName) -> Handle {
    Rc::new(Node {
        name,
        has_parent: Cell::new(false),
        contents: None,
        integration_point: false,
    })
}

fn no_name() -> QualName {
    QualName::new(None, ns!(), local_name!(""))
}

/// The least `TreeSink`: see the module docs.
pub struct Dom {
    document: Handle,
}

impl Default for Dom {
    fn default() -> Dom {
        Dom {
            document: node(no_name()),
        }
    }
}

fn adopt(child: &NodeOrText<Handle>) {
    if let NodeOrText::AppendNode(n) = child {
        n.has_parent.set(true);
    }
}

impl TreeSink for Dom {
    type Handle = Handle;
    type Output = ();
    type ElemName<'a> = &'a QualName;

    fn finish(self) {}

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        self.document.clone()
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> &'a QualName {
        &target.name
    }

    fn create_element(
        &self,
        name: QualName,
        _attrs: Vec<Attribute>,
        flags: ElementFlags,
    ) -> Handle {
        Rc::new(Node {
            name,
            has_parent: Cell::new(false),
            contents: flags.template.then(|| node(no_name())),
            integration_point: flags.mathml_annotation_xml_integration_point,
        })
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        node(no_name())
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        node(no_name())
    }

    fn append(&self, _parent: &Handle, child: NodeOrText<Handle>) {
        adopt(&child);
    }

    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        if element.has_parent.get() {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, target: &Handle) -> Handle {
        target
            .contents
            .clone()
            .expect("template contents asked of a template")
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        Rc::ptr_eq(x, y)
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, _sibling: &Handle, new_node: NodeOrText<Handle>) {
        adopt(&new_node);
    }

    fn add_attrs_if_missing(&self, _target: &Handle, _attrs: Vec<Attribute>) {}

    fn remove_from_parent(&self, target: &Handle) {
        target.has_parent.set(false);
    }

    /// The children keep having a parent: nothing the tree builder asks
    /// changes.
    fn reparent_children(&self, _node: &Handle, _new_parent: &Handle) {}

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        handle.integration_point
    }
}

// ---------------------------------------------------------------------------
// The recorder between html5ever's tokenizer and its tree builder
// ---------------------------------------------------------------------------

/// Records each token html5ever's tokenizer hands over, then passes it on
/// to the tree builder, whose answer goes back to the tokenizer.
pub struct Recorder {
    tokens: RefCell<Vec<RefToken>>,
    builder: TreeBuilder<Handle, Dom>,
}

impl TokenSink for Recorder {
    type Handle = Handle;

    fn process_token(&self, token: H5Token, line: u64) -> TokenSinkResult<Handle> {
        reference::record_html5ever(&mut self.tokens.borrow_mut(), &token);
        self.builder.process_token(token, line)
    }

    fn end(&self) {
        self.builder.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// The tokens html5ever's tree builder (scripting on) drives html5ever's
/// tokenizer to for the whole document `input`, after
/// [`reference::normalize`] (html5ever's tokenizer deviations). A leading
/// BOM is kept, as htmltok's tokenizer keeps it.
pub fn tree_builder_tokens(input: &str) -> Vec<RefToken> {
    let recorder = Recorder {
        tokens: RefCell::new(Vec::new()),
        builder: TreeBuilder::new(
            Dom::default(),
            TreeBuilderOpts {
                scripting_enabled: true,
                ..TreeBuilderOpts::default()
            },
        ),
    };
    let opts = TokenizerOpts {
        discard_bom: false,
        ..TokenizerOpts::default()
    };
    let tok = H5Tokenizer::new(recorder, opts);
    let queue = BufferQueue::default();
    if !input.is_empty() {
        queue.push_back(StrTendril::from_slice(input));
    }
    // The tokenizer stops early for `Script` (a `</script>` was handed
    // over; a browser would run it here) and `EncodingIndicator` (a
    // `<meta>` named an encoding; the input is text already): go on.
    while !matches!(tok.feed(&queue), TokenizerResult::Done) {}
    tok.end();
    let tokens = tok.sink.tokens.take();
    reference::normalize(input, &Config::default(), tokens)
}

// ---------------------------------------------------------------------------
// htmltok, auto-switching on
// ---------------------------------------------------------------------------

/// How htmltok switches content models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switching {
    /// Default options: auto-switching's approximation.
    Approximate,
    /// `Options::exact_switching`.
    Exact,
    /// `Options::exact_switching` following html5ever where it deviates
    /// from the standard ([`DEVIATION`]).
    Html5ever,
}

impl Switching {
    /// The tokenizer options.
    pub fn options(self) -> Options {
        let opts = Options::default();
        match self {
            Switching::Approximate => opts,
            Switching::Exact => opts.exact_switching(true),
            Switching::Html5ever => opts.exact_switching(true).__html5ever_deviations(true),
        }
    }
}

/// htmltok's tokens for `input` with default options (auto-switching and
/// scripting on) and `switching`: the whole input at once (`chunk`
/// `None`), or fed to a `StreamTokenizer` `chunk` bytes at a time, the
/// arena reset after every chunk.
///
/// # Panics
///
/// If the tokenizer yields implausibly many tokens (a runaway loop).
pub fn htmltok_tokens(input: &str, chunk: Option<usize>, switching: Switching) -> Vec<RefToken> {
    let opts = switching.options();
    let cap = 2 * input.len() + 16;
    let mut out = Vec::new();
    let mut count = 0;
    let mut push = |token: &htmltok::Token<'_>| {
        count += 1;
        assert!(count <= cap, "runaway tokenizer: more than {cap} tokens");
        reference::push_coalesced(&mut out, reference::from_htmltok(token));
    };
    let mut arena = Bump::new();
    match chunk {
        None => Tokenizer::with_options(input, &arena, opts).for_each(|t| push(&t)),
        Some(size) => {
            let mut stream = StreamTokenizer::new(StreamOptions::default().tokenizer(opts));
            for piece in input.as_bytes().chunks(size.max(1)) {
                stream
                    .feed(piece, &arena)
                    .expect("no memory limit")
                    .for_each(|t| push(&t));
                arena.reset();
            }
            stream
                .finish(&arena)
                .expect("not finished before")
                .for_each(|t| push(&t));
        }
    }
    out
}

/// How htmltok's tokens compare with html5ever's tree builder's.
#[derive(Debug)]
pub enum Judgement {
    /// The same tokens.
    Same,
    /// Different, and [`DEVIATION`] is why: htmltok's tokens are those
    /// of exact switching, and exact switching following html5ever's
    /// deviations gives html5ever's.
    Deviation,
    /// Different for another reason.
    Differs(Mismatch),
}

/// Judges htmltok's tokens `ours` for `input` (read in chunks of `chunk`
/// bytes, with `switching`) against `theirs`, html5ever's tree builder's.
pub fn judge(
    input: &str,
    chunk: Option<usize>,
    switching: Switching,
    ours: &[RefToken],
    theirs: &[RefToken],
) -> Judgement {
    let Some(mismatch) = reference::first_difference(ours, theirs) else {
        return Judgement::Same;
    };
    let exact = if switching == Switching::Exact {
        None
    } else {
        Some(htmltok_tokens(input, chunk, Switching::Exact))
    };
    let exact_is_ours = exact.as_deref().is_none_or(|exact| exact == ours);
    if exact_is_ours && htmltok_tokens(input, chunk, Switching::Html5ever) == theirs {
        Judgement::Deviation
    } else {
        Judgement::Differs(mismatch)
    }
}

/// htmltok's tokens for `input` (whole, or in chunks of `chunk` bytes;
/// with `switching`) against those html5ever's tree builder drives: `Ok`
/// when they are the same or [`DEVIATION`] makes the difference.
pub fn compare(
    input: &str,
    chunk: Option<usize>,
    switching: Switching,
) -> Result<(), Box<Mismatch>> {
    let ours = htmltok_tokens(input, chunk, switching);
    let theirs = tree_builder_tokens(input);
    match judge(input, chunk, switching, &ours, &theirs) {
        Judgement::Same | Judgement::Deviation => Ok(()),
        Judgement::Differs(m) => Err(Box::new(m)),
    }
}
