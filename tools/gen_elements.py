#!/usr/bin/env python3
"""Generate src/element/generated.rs, the element names and their perfect hash.

Usage (from the crate root or anywhere):

    python3 tools/gen_elements.py           # rewrite src/element/generated.rs
    python3 tools/gen_elements.py --check   # exit 1 if the file is out of date
    python3 tools/gen_elements.py --search  # find a new MULTIPLIER (after the
                                            # list changes) and print it

Data source: the lists below, copied by hand from the HTML Standard (see the
comment on each). They change rarely (an element added to the standard every
few years), and the script exists so that the tables can be re-derived and
reviewed rather than trusted.

Structure (see src/element/mod.rs for why):

* ``Element`` has one variant per name, ``Other`` first (discriminant 0),
  then the names in byte order. A variant is the name in CamelCase
  (``annotation-xml`` is ``AnnotationXml``), but for the SVG name the
  standard spells ``foreignObject``.
* Every name has a 64-bit key. A name of 1 to 7 bytes is its own key: its
  bytes little-endian (exact for names without a NUL byte, which the lookup
  turns away; the top byte is 0). A name of 8 to 16 bytes has a hashed key:
  its first 8 bytes, xor its last 8 bytes rotated by 32, xor its length,
  with the top byte set to 0xFF so that it is no short name's key (not
  exact; the lookup compares the name itself).
* ``slot = (key * MULTIPLIER mod 2^64) >> (64 - SLOT_BITS)`` puts every
  name in a slot of its own (``MULTIPLIER`` was found by ``--search``; the
  script checks that it still does). ``KEYS`` maps an element to its key,
  ``NAMES`` to its name, ``ALL`` to the element itself; ``SLOTS``, which
  maps a slot to its element (``Other`` when no name hashes there), is
  built from them at compile time, and the build fails if two keys share a
  slot. ``TABLES`` holds ``SLOTS`` and ``KEYS`` together, so that code
  inlined into another crate reaches both through one address.

Only the standard library is used. The output is deterministic and already
rustfmt-clean (the data statics carry ``#[rustfmt::skip]``).
"""

import argparse
import os
import random
import sys

from gen_common import wrap_items, write_or_check

OUT_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), os.pardir, "src", "element", "generated.rs"
)

# Every element of the HTML Standard's element index ("Index" ->
# "Elements", https://html.spec.whatwg.org/multipage/indices.html#elements-3),
# as of 2025 (with `search` and `selectedcontent`; without `param`, which
# moved to the obsolete list).
HTML = """
a abbr address area article aside audio b base bdi bdo blockquote body br
button canvas caption cite code col colgroup data datalist dd del details
dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 h2
h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label
legend li link main map mark math menu meta meter nav noscript object ol
optgroup option output p picture pre progress q rp rt ruby s samp script
search section select selectedcontent slot small source span strong style
sub summary sup svg table tbody td template textarea tfoot th thead time
title tr track u ul var video wbr
""".split()

# Obsolete and legacy names that the tree construction rules (the "in body"
# insertion mode, the breakout tags of "in foreign content":
# https://html.spec.whatwg.org/multipage/parsing.html#tree-construction), the serializer (elements that serialize as void:
# https://html.spec.whatwg.org/multipage/parsing.html#serialising-html-fragments) or the rendering section
# (https://html.spec.whatwg.org/multipage/rendering.html) still name, and the obsolete features
# (https://html.spec.whatwg.org/multipage/obsolete.html).
OBSOLETE = """
acronym applet basefont bgsound big blink center dir font frame frameset
image isindex keygen listing marquee menuitem multicol nextid nobr noembed
noframes param plaintext rb rtc spacer strike tt xmp
""".split()

# The SVG names tree construction tests for (the HTML integration points
# `foreignObject`, `desc`, `title`; the element names are lowercase here as
# the tokenizer gives them).
SVG = "foreignobject desc title".split()

# The MathML names tree construction tests for: the text integration points
# and the two names that do not leave them, and `annotation-xml`.
MATHML = "mi mo mn ms mtext mglyph malignmark annotation-xml".split()

# A variant name that is not the plain CamelCase of the name.
VARIANT_OVERRIDES = {"foreignobject": "ForeignObject"}

# Bits of a slot index: SLOTS has 2^SLOT_BITS entries. 10 is the smallest
# that a multiplier can be found for (--search); 9 has none in practice.
SLOT_BITS = 10

# Found by `--search` for the lists above.
MULTIPLIER = 0x0C09B08A30192CF9

MASK64 = (1 << 64) - 1
# Set in the key of every name of 8 bytes or more (a short name's top byte
# is 0).
LONG = 0xFF << 56
# The longest name a key is made for; longer names are never elements.
MAX_LEN = 16


def load_names():
    """Return the names in byte order, and each name's kind for the docs."""
    kinds = {}
    for kind, names in (("HTML", HTML), ("obsolete HTML", OBSOLETE), ("SVG", SVG), ("MathML", MATHML)):
        for name in names:
            kinds.setdefault(name, []).append(kind)
    names = sorted(kinds, key=lambda n: n.encode())
    for name in names:
        raw = name.encode("ascii")
        assert 1 <= len(raw) <= MAX_LEN, name
        assert all(chr(b).islower() or chr(b).isdigit() or b == ord("-") for b in raw), name
    return names, kinds


def variant(name):
    """The enum variant for `name`."""
    if name in VARIANT_OVERRIDES:
        return VARIANT_OVERRIDES[name]
    return "".join(part[:1].upper() + part[1:] for part in name.split("-"))


def word(raw):
    """Up to 8 bytes as a little-endian integer."""
    return int.from_bytes(raw, "little")


def key(name):
    """The key of a name (see the module docstring); mirrors mod.rs."""
    raw = name.encode()
    n = len(raw)
    if n < 8:
        return word(raw)
    return long_key(word(raw[:8]), word(raw[-8:]), n)


def long_key(first, last, n):
    """The key of a name of `n` bytes (8 to 16) from its first and last 8."""
    rotated = ((last << 32) | (last >> 32)) & MASK64
    return (first ^ rotated ^ n) | LONG


def slot(k, multiplier):
    """The slot of key `k`; mirrors `slot` in mod.rs."""
    return ((k * multiplier) & MASK64) >> (64 - SLOT_BITS)


def collision_free(keys, multiplier):
    """Whether `multiplier` gives every key a slot of its own."""
    seen = set()
    for k in keys:
        s = slot(k, multiplier)
        if s in seen:
            return False
        seen.add(s)
    return True


def search(keys):
    """Try odd multipliers from a fixed seed until one separates `keys`."""
    rng = random.Random(0x656C656D)
    tries = 0
    while True:
        tries += 1
        multiplier = rng.getrandbits(64) | 1
        if collision_free(keys, multiplier):
            return multiplier, tries


def simulate_from_name(raw, slots, keys, names):
    """Python model of `Element::from_name` in mod.rs, over the tables."""
    n = len(raw)
    if n == 0 or n > MAX_LEN:
        return 0
    if n < 8:
        if 0 in raw:
            return 0
        k = word(raw)
        e = slots[slot(k, MULTIPLIER)]
        return e if keys[e] == k else 0
    first, last = word(raw[:8]), word(raw[-8:])
    k = long_key(first, last, n)
    e = slots[slot(k, MULTIPLIER)]
    stored = names[e].encode()
    if len(stored) == n and word(stored[:8]) == first and word(stored[-8:]) == last:
        return e
    return 0


def verify(names, slots, keys):
    """Check the tables: every name finds itself, near misses find nothing."""
    table = [""] + names
    index = {name.encode(): i + 1 for i, name in enumerate(names)}
    probes = set()
    for name in names:
        raw = name.encode()
        probes.add(raw)
        for k in range(len(raw)):
            probes.add(raw[:k])
            probes.add(raw[k + 1 :])
        for extra in (b"x", b"-", b"\x00", b"\xc3\xa9", raw):
            probes.add(raw + extra)
            probes.add(extra + raw)
        probes.add(raw.upper())
    for raw in probes:
        got = simulate_from_name(raw, slots, keys, table)
        assert got == index.get(raw, 0), (raw, got)


def build(names, multiplier):
    """Return (slots, keys): slot -> element index, element index -> key."""
    keys = [MASK64] + [key(name) for name in names]
    slots = [0] * (1 << SLOT_BITS)
    for i, name in enumerate(names):
        s = slot(key(name), multiplier)
        assert slots[s] == 0, ("collision", name)
        slots[s] = i + 1
    return slots, keys


def render(names, kinds, keys):
    count = len(names) + 1
    variants = ["Other"] + [variant(n) for n in names]
    assert len(set(variants)) == count
    out = []
    w = out.append
    w("// @generated by tools/gen_elements.py from the lists in it (the HTML")
    w("// Standard's element index and the names its parser tests for). Do not")
    w("// edit; rerun the generator instead.")
    w("")
    w("//! The [`Element`] enum and the tables of its perfect hash. See the parent")
    w("//! module for the lookup and why it is built so.")
    w("")
    w("use super::slot;")
    w("")
    w("/// An element name the crate knows, as an integer: see the")
    w("/// [module docs](crate::element).")
    w("///")
    w("/// %d names: every element of the HTML Standard's element index, the" % len(names))
    w("/// obsolete ones its parser and rendering still name, and the SVG and")
    w("/// MathML names the tree construction rules test for. Names are the")
    w("/// lowercase ones the tokenizer gives (`foreignobject` for SVG's")
    w("/// `foreignObject`). Every other name is [`Element::Other`].")
    w("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]")
    w("#[repr(u8)]")
    w("#[non_exhaustive]")
    w("pub enum Element {")
    w("    /// Any name not below (a custom element, most SVG and MathML names,")
    w("    /// a typo): the tag's `name` says which.")
    w("    Other = 0,")
    for i, name in enumerate(names):
        w("    /// `%s` (%s)." % (name, ", ".join(kinds[name])))
        w("    %s = %d," % (variants[i + 1], i + 1))
    w("}")
    w("")
    w("/// Number of [`Element`]s, [`Element::Other`] included.")
    w("pub(crate) const COUNT: usize = %d;" % count)
    w("")
    w("/// Bits of a slot index: [`SLOTS`] has `1 << SLOT_BITS` entries.")
    w("pub(crate) const SLOT_BITS: u32 = %d;" % SLOT_BITS)
    w("")
    w("/// The multiplier of the hash: a key's slot is the top [`SLOT_BITS`]")
    w("/// bits of `key * MULTIPLIER`. It gives each name a slot of its own.")
    w("pub(crate) const MULTIPLIER: u64 = 0x%016X;" % MULTIPLIER)
    w("")
    w("/// Every element, in discriminant order.")
    w("#[rustfmt::skip]")
    w("pub(crate) static ALL: [Element; COUNT] = [")
    out.extend(wrap_items(["Element::" + v for v in variants], "    "))
    w("];")
    w("")
    w("/// For each slot, the element whose key lands there, or")
    w("/// [`Element::Other`]. Built at compile time from [`KEYS`], which fails")
    w("/// if two keys share a slot.")
    w("const SLOTS: [Element; 1 << SLOT_BITS] = {")
    w("    let mut slots = [Element::Other; 1 << SLOT_BITS];")
    w("    let mut e = 1;")
    w("    while e < COUNT {")
    w("        let s = slot(KEYS[e]);")
    w("        assert!(matches!(slots[s], Element::Other), \"two names share a slot\");")
    w("        slots[s] = ALL[e];")
    w("        e += 1;")
    w("    }")
    w("    slots")
    w("};")
    w("")
    w("/// For each element, its key (`u64::MAX`, which is no name's key, for")
    w("/// [`Element::Other`]).")
    w("#[rustfmt::skip]")
    w("const KEYS: [u64; COUNT] = [")
    for i, k in enumerate(keys):
        w("    0x%016X, // %s" % (k, "Other" if i == 0 else names[i - 1]))
    w("];")
    w("")
    w("/// The two tables a lookup reads, side by side (see the module docstring")
    w("/// of `tools/gen_elements.py`).")
    w("pub(crate) struct Tables {")
    w("    /// For each slot, the element whose key lands there, or")
    w("    /// [`Element::Other`].")
    w("    pub(crate) slots: [Element; 1 << SLOT_BITS],")
    w("    /// For each element, its key.")
    w("    pub(crate) keys: [u64; COUNT],")
    w("}")
    w("")
    w("/// [`SLOTS`] and [`KEYS`].")
    w("pub(crate) static TABLES: Tables = Tables {")
    w("    slots: SLOTS,")
    w("    keys: KEYS,")
    w("};")
    w("")
    w("/// For each element, its name (empty for [`Element::Other`]).")
    w("#[rustfmt::skip]")
    w("pub(crate) static NAMES: [&str; COUNT] = [")
    out.extend(wrap_items(['""'] + ['"%s"' % n for n in names], "    "))
    w("];")
    w("")
    return "\n".join(out)


def generate():
    names, kinds = load_names()
    keys = [key(n) for n in names]
    assert len(set(keys)) == len(keys)
    assert collision_free(keys, MULTIPLIER), "MULTIPLIER collides: run with --search"
    slots, table_keys = build(names, MULTIPLIER)
    verify(names, slots, table_keys)
    assert len(names) + 1 <= 256
    return render(names, kinds, table_keys)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="fail if the committed generated.rs is out of date"
    )
    parser.add_argument(
        "--search", action="store_true", help="find and print a MULTIPLIER for the lists"
    )
    args = parser.parse_args()
    if args.search:
        names, _kinds = load_names()
        multiplier, tries = search([key(n) for n in names])
        print("MULTIPLIER = 0x%016X  # %d tries" % (multiplier, tries))
        return 0
    return write_or_check(OUT_PATH, generate(), args.check, "gen_elements.py")


if __name__ == "__main__":
    sys.exit(main())
