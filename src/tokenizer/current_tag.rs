//! The current tag token: starting it, its attributes (with the duplicate
//! check that stays linear for a hostile tag), and emitting it.

use std::collections::HashMap;

use smallvec::SmallVec;

use super::Tokenizer;
use super::budget::Budget;
use super::machine::MachineState;
use super::name_key::{self, KeyHasher, NameKey, NameKeys};
use super::strbuf::StrBuf;
use crate::element::Element;
use crate::error::ErrorCode;
use crate::token::{Attribute, Attributes, Span, Tag, Token};

/// The name of the attribute of `attrs` (the current tag's) named `name`,
/// if there is one (equal to `name`, but borrowed as long as the tag); when
/// there is none, the attribute is taken to be added next, at index
/// `attrs.len()` (every caller pushes it).
///
/// A scan is fastest for the few attributes real tags have; past 8, the
/// last two names are tried (a hostile tag repeats one or two), then a
/// table of the names so far (`attr_keys`, keyed by `name_keys`; see
/// `name_key.rs`) makes each check one lookup, so a tag with a million
/// attributes (or a million copies of one) stays linear.
#[inline(always)]
fn duplicate_of<'a>(
    attrs: &mut SmallVec<[Attribute<'a>; 8]>,
    attr_keys: &mut HashMap<NameKey, u32, KeyHasher>,
    name_keys: &NameKeys,
    name: &str,
    budget: &mut Budget,
) -> Option<&'a str> {
    let same = |a: &&Attribute<'a>| same_name(a.name.as_bytes(), name.as_bytes());
    // One look at where the list is (inline or on the heap), not one per use.
    let list = attrs.as_slice();
    let n = list.len();
    if n < 8 {
        return list.iter().find(same).map(|a| a.name);
    }
    // Past the eight inline attributes, where the list can grow: room for
    // the one every caller pushes next, checked here, off the common path.
    if n == attrs.capacity() {
        grow_attrs(attrs, attr_keys, budget);
    }
    // A tag that repeats one name or two in turn (as a page made to cost
    // does, a million times) finds it among the last two: two compares
    // instead of a hash and a probe. Any earlier equal name will do.
    if let Some(a) = attrs[n - 2..].iter().rev().find(same) {
        return Some(a.name);
    }
    duplicate_in_table(attrs, attr_keys, name_keys, name)
}

/// Grows the attribute list (as a `SmallVec` would) and, to as many names,
/// its key table (so that the table never grows on its own), charging the
/// budget with both: a tag of a million attributes is stopped as it grows.
#[cold]
#[inline(never)]
fn grow_attrs(
    attrs: &mut SmallVec<[Attribute<'_>; 8]>,
    attr_keys: &mut HashMap<NameKey, u32, KeyHasher>,
    budget: &mut Budget,
) {
    let heap = |attrs: &SmallVec<[Attribute<'_>; 8]>| {
        if attrs.spilled() {
            attrs.capacity() * core::mem::size_of::<Attribute<'_>>()
        } else {
            0
        }
    };
    let (attrs_before, keys_before) = (heap(attrs), attr_keys.capacity());
    attrs.reserve(1);
    attr_keys.reserve(attrs.capacity() - attr_keys.len());
    let keys_grown = attr_keys.capacity() - keys_before;
    budget.grew(heap(attrs) - attrs_before + keys_grown * core::mem::size_of::<(NameKey, u32)>());
}

/// [`duplicate_of`] by the table, for a tag of 8 attributes or more: rare
/// on real pages, and out of line so that the common case stays small
/// where it is inlined.
#[inline(never)]
fn duplicate_in_table<'a>(
    attrs: &[Attribute<'a>],
    attr_keys: &mut HashMap<NameKey, u32, KeyHasher>,
    name_keys: &NameKeys,
    name: &str,
) -> Option<&'a str> {
    let n = attrs.len();
    if attr_keys.is_empty() {
        for (i, a) in attrs.iter().enumerate() {
            attr_keys.entry(name_keys.key(a.name)).or_insert(i as u32);
        }
    }
    let key = name_keys.key(name);
    match attr_keys.get(&key) {
        None => {
            attr_keys.insert(key, n as u32);
            None
        }
        // A short name is its own key; a long one is checked.
        Some(&first) if !name_key::is_long(key) || attrs[first as usize].name == name => {
            Some(attrs[first as usize].name)
        }
        // Two long names with one key: rare, and only by chance.
        Some(_) => attrs.iter().find(|a| a.name == name).map(|a| a.name),
    }
}

/// Whether two attribute names are equal. Length and first byte rule out
/// nearly every other name first; a short name is compared a byte at a
/// time, where a call into memcmp would cost more.
#[inline(always)]
fn same_name(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() || a.first() != b.first() {
        return false;
    }
    if a.len() <= 8 {
        a.iter().zip(b).all(|(x, y)| x == y)
    } else {
        a == b
    }
}

/// The tag token being built.
#[derive(Default)]
pub(super) struct CurrentTag<'a> {
    pub(super) is_end: bool,
    pub(super) name: StrBuf,
    pub(super) name_span: Span,
    pub(super) self_closing: bool,
    /// The tag's attributes so far; inline up to eight, so most documents
    /// never allocate for them.
    ///
    /// The state path pushes an attribute as soon as its name is finished;
    /// its value, if it has one, is set when the next attribute starts or
    /// the tag ends (`finish_attr`).
    pub(super) attrs: SmallVec<[Attribute<'a>; 8]>,
    /// Once a tag has more than a few attributes (see `duplicate_of`): the
    /// index of the first attribute with each name key.
    pub(super) attr_keys: HashMap<NameKey, u32, KeyHasher>,
    pub(super) name_keys: NameKeys,
    /// The name of the attribute being read, and where it starts.
    pub(super) attr_name: StrBuf,
    pub(super) attr_name_start: usize,
    /// The value of the attribute being read, and its raw span (`None`
    /// while no value was started for it).
    pub(super) attr_value: StrBuf,
    pub(super) attr_value_span: Option<Span>,
    /// Where the errors of `"`, `'` and `<` in attribute names have been
    /// reported up to (see `attribute_name_char_errors`).
    pub(super) name_errors_until: usize,
}

impl<'a> Tokenizer<'a> {
    /// Starts a new start or end tag whose `<` is at `markup_start`.
    #[inline]
    pub(super) fn new_tag(&mut self, is_end: bool) {
        // The name buffer and the value being read are always left empty:
        // emitting a tag takes both, and a tag the end of input drops ends
        // the tokenizer.
        debug_assert!(self.tag.name.is_empty() && self.tag.attr_value_span.is_none());
        self.tag.is_end = is_end;
        self.tag.name_span = Span::new(self.cursor.pos, self.cursor.pos);
        self.tag.self_closing = false;
        self.tag.attrs.clear();
        if !self.tag.attr_keys.is_empty() {
            self.tag.attr_keys.clear();
        }
    }

    /// Starts a new attribute whose name begins at `pos`.
    #[inline]
    pub(super) fn new_attr(&mut self) {
        self.finish_attr();
        self.tag.attr_name.clear();
        self.tag.attr_name_start = self.cursor.pos;
    }

    /// Called when leaving the attribute name state: fixes the name,
    /// checks it against the tag's other attributes and adds the attribute
    /// to the tag, with no value yet.
    #[inline(always)]
    pub(super) fn finish_attr_name(&mut self) {
        let (name, duplicate) = if let Some(scratch) = self.tag.attr_name.scratch_if_owned() {
            // A name unlike its source (lowered, or with a NUL replaced)
            // is copied into the arena, unless it is a duplicate of a name
            // already there: then it is that one (a tag that never ends
            // may repeat one such name a million times). A name that is
            // a slice of the input is not shared: a borrowed name is the
            // text at its own span.
            let first = duplicate_of(
                &mut self.tag.attrs,
                &mut self.tag.attr_keys,
                &self.tag.name_keys,
                scratch,
                &mut self.budget,
            );
            match first {
                Some(name)
                    if !self
                        .cursor
                        .input
                        .as_bytes()
                        .as_ptr_range()
                        .contains(&name.as_ptr()) =>
                {
                    self.tag.attr_name.clear();
                    (name, true)
                }
                _ => (
                    self.tag
                        .attr_name
                        .take(self.cursor.input, self.arena, &mut self.budget),
                    first.is_some(),
                ),
            }
        } else {
            let name = self
                .tag
                .attr_name
                .take(self.cursor.input, self.arena, &mut self.budget);
            (name, self.is_duplicate(name))
        };
        if duplicate {
            self.error(ErrorCode::DuplicateAttribute, self.cursor.pos);
        }
        self.tag.attrs.push(Attribute {
            name,
            value: "",
            name_span: self.span(self.tag.attr_name_start, self.cursor.pos),
            value_span: None,
            duplicate,
        });
    }

    /// Whether an attribute named `name` is already on the current tag. The
    /// attribute is then added to the tag (every caller pushes it next).
    #[inline(always)]
    pub(super) fn is_duplicate(&mut self, name: &str) -> bool {
        duplicate_of(
            &mut self.tag.attrs,
            &mut self.tag.attr_keys,
            &self.tag.name_keys,
            name,
            &mut self.budget,
        )
        .is_some()
    }

    /// Marks the start of the current attribute's raw value.
    #[inline]
    pub(super) fn start_attr_value(&mut self, start: usize) {
        self.tag.attr_value_span = Some(Span::new(start, start));
    }

    /// Marks the end of the current attribute's raw value.
    #[inline]
    pub(super) fn end_attr_value(&mut self, end: usize) {
        if let Some(span) = &mut self.tag.attr_value_span {
            span.end = end;
        }
    }

    /// Sets the value of the last attribute, if the states read one for
    /// it (a value is only ever started after its attribute's name is
    /// finished, so that attribute is the last one).
    #[inline]
    pub(super) fn finish_attr(&mut self) {
        if let Some(span) = self.tag.attr_value_span.take() {
            let value = self
                .tag
                .attr_value
                .take(self.cursor.input, self.arena, &mut self.budget);
            let value_span = self.span(span.start, span.end);
            if let Some(last) = self.tag.attrs.last_mut() {
                last.value = value;
                last.value_span = Some(value_span);
            }
        }
    }

    /// Emits the current tag, whose `>` ends just before `pos`.
    #[inline]
    pub(super) fn emit_tag(&mut self) {
        self.finish_attr();
        let name = self
            .tag
            .name
            .take(self.cursor.input, self.arena, &mut self.budget);
        self.emit_tag_named(name, Element::from_name(name));
    }

    /// Emits the current tag with the finished `name`, which names
    /// `element`, and the attributes gathered so far; the tag ends just
    /// before `pos`. (The states' way; the fast paths of `tag.rs` know
    /// which kind of tag they have.)
    #[inline(never)]
    pub(super) fn emit_tag_named(&mut self, name: &'a str, element: Element) {
        if self.tag.is_end {
            let attributes = self.take_attrs();
            self.emit_end_tag(name, element, attributes, self.tag.self_closing);
        } else {
            self.emit_start_tag(name, element);
        }
    }

    /// The attributes gathered for the current tag, moved to the arena.
    #[inline(always)]
    fn take_attrs(&mut self) -> Attributes<'a> {
        match self.tag.attrs.as_slice() {
            [] => &[],
            // Most tags with attributes have one: a plain store is
            // cheaper than the call into memcpy a slice copy makes.
            [one] => {
                self.budget.wrote(core::mem::size_of::<Attribute<'a>>());
                core::slice::from_ref(self.arena.alloc(*one))
            }
            many => {
                self.budget.wrote(core::mem::size_of_val(many));
                self.arena.alloc_slice_copy(many)
            }
        }
    }

    /// The current tag as a token's [`Tag`].
    #[inline(always)]
    fn finish_tag(
        &mut self,
        name: &'a str,
        element: Element,
        attributes: Attributes<'a>,
        self_closing: bool,
    ) -> Tag<'a> {
        self.state = MachineState::Data;
        Tag {
            name,
            element,
            name_span: self.span(self.tag.name_span.start, self.tag.name_span.end),
            attributes,
            self_closing,
            span: self.span(self.cursor.markup_start, self.cursor.pos),
        }
    }

    /// [`Self::emit_tag_named`] for a start tag. (Inlined into the fast
    /// path, which emits most tags: the call cost more than the rest.)
    #[inline(always)]
    pub(super) fn emit_start_tag(&mut self, name: &'a str, element: Element) {
        self.emit_start_tag_then::<false, _>(name, element, &mut |_| true);
    }

    /// [`Self::emit_start_tag`] through [`Self::emit_then`].
    #[inline(always)]
    pub(super) fn emit_start_tag_then<const PUSH: bool, F: FnMut(Token<'a>) -> bool>(
        &mut self,
        name: &'a str,
        element: Element,
        sink: &mut F,
    ) {
        let attributes = self.take_attrs();
        let tag = self.finish_tag(name, element, attributes, self.tag.self_closing);
        self.context.last_start_tag = Some(name);
        if self.opts.auto_switch {
            self.auto_start_tag(&tag);
        }
        self.emit_then::<PUSH, F>(Token::StartTag(tag), sink);
    }

    /// [`Self::emit_tag_named`] for an end tag with these attributes
    /// (which the fast path knows to have none, and no `/`).
    #[inline(always)]
    pub(super) fn emit_end_tag(
        &mut self,
        name: &'a str,
        element: Element,
        attributes: Attributes<'a>,
        self_closing: bool,
    ) {
        self.emit_end_tag_then::<false, _>(name, element, attributes, self_closing, &mut |_| true);
    }

    /// [`Self::emit_end_tag`] through [`Self::emit_then`].
    #[inline(always)]
    pub(super) fn emit_end_tag_then<const PUSH: bool, F: FnMut(Token<'a>) -> bool>(
        &mut self,
        name: &'a str,
        element: Element,
        attributes: Attributes<'a>,
        self_closing: bool,
        sink: &mut F,
    ) {
        let tag = self.finish_tag(name, element, attributes, self_closing);
        if self.opts.errors && (!tag.attributes.is_empty() || tag.self_closing) {
            self.end_tag_errors(&tag);
        }
        if self.opts.auto_switch {
            self.auto_end_tag(&tag);
        }
        self.emit_then::<PUSH, F>(Token::EndTag(tag), sink);
    }

    /// The parse errors of an end tag with attributes or a `/`.
    #[cold]
    fn end_tag_errors(&mut self, tag: &Tag<'a>) {
        if !tag.attributes.is_empty() {
            self.error(ErrorCode::EndTagWithAttributes, self.cursor.pos - 1);
        }
        if tag.self_closing {
            self.error(ErrorCode::EndTagWithTrailingSolidus, self.cursor.pos - 1);
        }
    }

    /// Whether the end tag being matched in an RCDATA, RAWTEXT or script
    /// state (its name is `input[temp_start..pos]`) is an appropriate end
    /// tag token: its name is that of the last start tag emitted.
    #[inline]
    pub(super) fn is_appropriate_end_tag(&self) -> bool {
        match self.context.last_start_tag {
            Some(last) => self.cursor.input[self.cursor.temp_start..self.cursor.pos]
                .eq_ignore_ascii_case(last),
            None => false,
        }
    }
}
