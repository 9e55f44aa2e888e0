//! The approximation against plain models of the tree builder's rules.

use super::stack::{Approximation, NONE};
use crate::element::Element;
use crate::element::categories::Namespace;
use crate::token::Tag;

/// An end tag named `name`.
fn end_tag(name: &str) -> Tag<'_> {
    Tag {
        name,
        element: Element::from_name(name),
        name_span: Default::default(),
        attributes: &[],
        self_closing: false,
        span: Default::default(),
    }
}

/// The stack as a list of (namespace, name), bottom first.
fn list(stack: &Approximation) -> Vec<(Namespace, String)> {
    (0..stack.stack.len())
        .map(|i| (stack.stack[i].ns, stack.name(i)))
        .collect()
}

/// Random pushes, end tags and breakouts over short and long names
/// give the stack a plain list gives: an end tag closes the nearest
/// element of its name and everything above it, at any depth, as the
/// tree builder's walks down the stack would, and nothing when none
/// is open.
#[test]
fn end_tags_close_the_nearest_open_element_like_a_plain_list() {
    let names = [
        "g",
        "path",
        "clippath",
        "foreignobject",
        "lineargradient",
        "x",
        "mi",
        "desc",
    ];
    let mut next = crate::testing::below(0x9E37_79B9_7F4A_7C15);
    for _ in 0..200 {
        let mut stack = Approximation::default();
        let mut model: Vec<(Namespace, String)> = Vec::new();
        for _ in 0..400 {
            let name = names[next(names.len())];
            match next(4) {
                0 | 1 => {
                    let ns = [Namespace::Svg, Namespace::MathMl, Namespace::Html][next(3)];
                    stack.push(ns, Element::from_name(name), name);
                    model.push((ns, name.to_owned()));
                }
                2 => {
                    stack.end_tag(&end_tag(name));
                    // A foreign current node: the foreign elements on
                    // top close by name. Then "any other end tag": the
                    // nearest HTML element of that name, unless a
                    // special element (here an integration point) is
                    // above it.
                    let top_foreign = model.last().is_some_and(|(ns, _)| *ns != Namespace::Html);
                    let run_start = model
                        .iter()
                        .rposition(|(ns, _)| *ns == Namespace::Html)
                        .map_or(0, |j| j + 1);
                    let special = |(ns, n): &(Namespace, String)| {
                        (*ns == Namespace::Svg && matches!(n.as_str(), "foreignobject" | "desc"))
                            || (*ns == Namespace::MathMl && n == "mi")
                    };
                    if let Some(i) = model
                        .iter()
                        .rposition(|(ns, n)| *ns != Namespace::Html && n == name)
                        .filter(|&i| top_foreign && i >= run_start)
                    {
                        model.truncate(i);
                    } else if let Some(i) = model
                        .iter()
                        .rposition(|(ns, n)| *ns == Namespace::Html && n == name)
                        .filter(|&i| !model[i + 1..].iter().any(special))
                    {
                        model.truncate(i);
                    }
                }
                _ => {
                    stack.pop_to_html_content();
                    while model.last().is_some_and(|(ns, name)| {
                        *ns != Namespace::Html
                            && !(*ns == Namespace::Svg
                                && matches!(name.as_str(), "foreignobject" | "desc"))
                            && !(*ns == Namespace::MathMl && name == "mi")
                    }) {
                        model.pop();
                    }
                }
            }
            assert_eq!(list(&stack), model);
            let mut open = 0;
            for &top in stack.nearest.values() {
                let mut i = top;
                while i != NONE {
                    open += 1;
                    i = stack.stack[i as usize].below_same;
                }
            }
            assert_eq!(open, model.len(), "nearest");
        }
    }
}

/// The select parser's rules on the HTML elements open at an
/// integration point (tags given as names, `/` before an end tag's):
/// the stack as the tree builder's, whether the current node shows in
/// the tokens or not (the implied end tags closed in a `select` do
/// not: the `select` closes with all above it before an integration
/// point can be the current node again).
#[test]
fn select_rules_at_an_integration_point() {
    for (tags, want) in [
        ("select select", ""),
        ("select div span select", ""),
        ("select span input", ""),
        ("select object select", "select object select"),
        ("select object select select", "select object"),
        ("div select /div", "div select"),
        ("p select /p", "p select"),
        ("select option p hr", "select"),
        ("select li rt option", "select option"),
        ("select optgroup option optgroup", "select optgroup"),
        ("select optgroup option option", "select optgroup option"),
        ("select option span hr", "select option span"),
        ("option optgroup", "optgroup"),
        ("option p option", "option p option"),
        ("optgroup option option", "optgroup option"),
    ] {
        let mut stack = Approximation::default();
        for tag in ["svg", "foreignobject"].into_iter().chain(tags.split(' ')) {
            match tag.strip_prefix('/') {
                Some(name) => stack.end_tag(&end_tag(name)),
                // (A `Tag` is a start or an end tag alike.)
                None => _ = stack.start_tag(&end_tag(tag), true),
            }
        }
        let names: Vec<String> = list(&stack).into_iter().skip(2).map(|(_, n)| n).collect();
        assert_eq!(names.join(" "), want, "{tags}");
    }
}

#[test]
fn a_deep_stack_still_closes_its_bottom() {
    let mut stack = Approximation::default();
    stack.push(Namespace::Svg, Element::Svg, "svg");
    for _ in 0..100_000 {
        stack.push(Namespace::Svg, Element::Other, "g");
    }
    let x = end_tag("x");
    for _ in 0..100_000 {
        stack.end_tag(&x); // not open: O(1) each
    }
    assert_eq!(stack.stack.len(), 100_001);
    stack.end_tag(&end_tag("svg"));
    assert!(stack.stack.is_empty() && stack.nearest.is_empty());
    assert!(stack.long_names.is_empty());
}
