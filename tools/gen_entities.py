#!/usr/bin/env python3
"""Generate src/entities/table.rs, the named character reference table.

Usage (from the crate root or anywhere):

    python3 tools/gen_entities.py          # rewrite src/entities/table.rs
    python3 tools/gen_entities.py --check  # exit 1 if the file is out of date

Data source: Python's ``html.entities.html5``, which is the WHATWG
entities.json keyed by name without the leading ``&`` (``"amp;"``, ``"amp"``,
``"notin;"``, ...). The list is frozen by the HTML Standard, so the output
never changes in practice; the script exists so that the table can be
re-derived and reviewed rather than trusted.

Structure (see src/entities/mod.rs for why):

* The 2,231 names are put in a trie, and the trie is minimised into a DAFSA
  (a DAG: states with identical futures are merged, so common endings such as
  ``arrow;`` are stored once). Each state's outgoing edges are one contiguous,
  byte-sorted run of ``EDGES``; the root's run starts at index 0, so a target
  of 0 means "no outgoing edges".
* Because merged states are shared by many names, a value cannot hang off a
  state. Instead each edge carries a ``rank``: the number of names that sort
  before every name reached through this edge but after the prefix so far.
  Summing the ranks along the path of a name gives the name's index in
  byte-sorted order, which indexes ``VALUE_SPANS``.
* Replacement strings are concatenated into one ``&str`` (a value that already
  occurs inside it is reused), and each span packs ``start << 3 | len``.

Only the standard library is used. The output is deterministic and already
rustfmt-clean (the data statics carry ``#[rustfmt::skip]``).
"""

import argparse
import html.entities
import os
import sys

from gen_common import wrap_items, write_or_check

OUT_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), os.pardir, "src", "entities", "table.rs"
)

# Edge flags; must match the constants emitted into table.rs.
LAST = 1
FINAL = 2
FLAG_NAMES = {0: "0", LAST: "L", FINAL: "F", LAST | FINAL: "LF"}

NO_ROOT_EDGE = 0xFF
SPAN_LEN_BITS = 3


class State:
    """A trie / DAFSA state."""

    __slots__ = ("final", "edges")

    def __init__(self):
        self.final = False
        # label byte -> State, kept in insertion order; sorted when laid out.
        self.edges = {}


def load_names():
    """Return the table as a list of (name bytes, value str), sorted by name."""
    entries = []
    for name, value in html.entities.html5.items():
        raw = name.encode("ascii")
        for b in raw:
            assert chr(b).isalnum() or b == ord(";"), name
        assert 1 <= len(value) <= 2, name
        entries.append((raw, value))
    entries.sort()
    return entries


def build_dafsa(names):
    """Build the trie for `names` and minimise it; return the root state."""
    root = State()
    for name in names:
        state = root
        for b in name:
            state = state.edges.setdefault(b, State())
        state.final = True

    registry = {}
    canon_id = {}

    def minimise(state):
        # Children first, so equivalence is decided on canonical children.
        for label in sorted(state.edges):
            state.edges[label] = minimise(state.edges[label])
        key = (
            state.final,
            tuple((label, canon_id[id(child)]) for label, child in sorted(state.edges.items())),
        )
        found = registry.get(key)
        if found is not None:
            return found
        registry[key] = state
        canon_id[id(state)] = len(registry)
        return state

    # The depth is at most 32 (longest name), so recursion is fine.
    return minimise(root)


def layout(root):
    """Assign each state with edges a run in the flat edge array.

    Returns (order, start, words): `order` lists states in layout order,
    `start[id(state)]` is the index of its first edge (0 when it has none,
    which is unambiguous because nothing points back at the root), and
    `words[id(state)]` is how many names end in the state's sub-DAFSA.
    """
    words = {}

    def count(state):
        if id(state) in words:
            return words[id(state)]
        total = (1 if state.final else 0) + sum(count(c) for c in state.edges.values())
        words[id(state)] = total
        return total

    count(root)

    order = []
    start = {}
    next_edge = 0

    # Depth-first preorder, children in byte order: the first child's run
    # usually sits right after its parent's, which helps locality.
    def place(state):
        nonlocal next_edge
        if id(state) in start:
            return
        if not state.edges:
            start[id(state)] = 0
            return
        start[id(state)] = next_edge
        next_edge += len(state.edges)
        order.append(state)
        for label in sorted(state.edges):
            place(state.edges[label])

    place(root)
    assert start[id(root)] == 0
    return order, start, words


def build_edges(order, start, words):
    """Return the flat edge list as (label, flags, target, rank) tuples."""
    edges = []
    for state in order:
        assert len(edges) == start[id(state)]
        rank = 1 if state.final else 0
        labels = sorted(state.edges)
        for i, label in enumerate(labels):
            child = state.edges[label]
            flags = (LAST if i == len(labels) - 1 else 0) | (FINAL if child.final else 0)
            edges.append((label, flags, start[id(child)], rank))
            rank += words[id(child)]
    assert len(edges) < 0x10000
    for _label, _flags, target, rank in edges:
        assert target < 0x10000 and rank < 0x10000
    return edges


def build_values(entries):
    """Concatenate the values; return (data str, list of packed spans)."""
    distinct = sorted({value for _name, value in entries}, key=lambda v: (-len(v.encode()), v))
    data = ""
    data_bytes = b""
    where = {}
    for value in distinct:
        encoded = value.encode()
        # Reuse an earlier occurrence (code-point aligned, since both sides
        # are whole UTF-8 sequences and UTF-8 is self-synchronising).
        at = data_bytes.find(encoded)
        if at < 0:
            at = len(data_bytes)
            data += value
            data_bytes += encoded
        where[value] = (at, len(encoded))
    spans = []
    for _name, value in entries:
        at, length = where[value]
        assert 1 <= length < (1 << SPAN_LEN_BITS), value
        packed = (at << SPAN_LEN_BITS) | length
        assert packed < 0x10000
        spans.append(packed)
    return data, data_bytes, spans


def root_index(edges):
    """Map each first byte < 128 to its edge index in the root run."""
    index = [NO_ROOT_EDGE] * 128
    i = 0
    while True:
        label, flags, _target, _rank = edges[i]
        assert label < 128 and i < NO_ROOT_EDGE
        index[label] = i
        if flags & LAST:
            break
        i += 1
    return index


def simulate_lookup(edges, root, spans, data_bytes, inp):
    """Python model of `lookup` in mod.rs, run over the emitted arrays."""
    matched = None
    run = 0
    rank = 0
    for i, b in enumerate(inp):
        if run == 0:
            e = root[b] if b < 128 else NO_ROOT_EDGE
            if e == NO_ROOT_EDGE:
                return matched, False
        else:
            e = run
            while True:
                if edges[e][0] == b:
                    break
                if edges[e][0] > b or edges[e][1] & LAST:
                    return matched, False
                e += 1
        label, flags, target, r = edges[e]
        rank += r
        if flags & FINAL:
            span = spans[rank]
            at, length = span >> SPAN_LEN_BITS, span & ((1 << SPAN_LEN_BITS) - 1)
            matched = (i + 1, data_bytes[at : at + length].decode())
        if target == 0:
            return matched, False
        run = target
    return matched, True


def verify(entries, edges, root, spans, data_bytes):
    """Check the emitted arrays against the source table."""
    table = dict(entries)
    names = set(table)
    prefixes = {n[:k] for n in names for k in range(len(n))}
    for name, value in entries:
        for suffix in (b"", b"zz", b"\x00", b"\x80", b"\xff"):
            got, ran_out = simulate_lookup(edges, root, spans, data_bytes, name + suffix)
            assert got == (len(name), value), (name, suffix, got)
            if suffix == b"":
                assert ran_out == (name in prefixes), name
        for k in range(len(name)):
            inp = name[:k]
            got, ran_out = simulate_lookup(edges, root, spans, data_bytes, inp)
            assert ran_out, inp
            best = max((j for j in range(k + 1) if inp[:j] in names), default=None)
            assert got == (None if best is None else (best, table[inp[:best]])), inp


def rust_str_literal(s):
    """Escape `s` as the body of a Rust string literal (ASCII only output)."""
    out = []
    for ch in s:
        cp = ord(ch)
        if 0x21 <= cp <= 0x7E and ch not in '"\\':
            out.append(ch)
        else:
            out.append("\\u{%x}" % cp)
    return "".join(out)


def describe_value(value):
    return " ".join("U+%04X" % ord(c) for c in value)


def render(entries, order, start, edges, root, data, data_bytes, spans):
    max_len = max(len(name) for name, _value in entries)
    out = []
    w = out.append
    w("// @generated by tools/gen_entities.py from Python's html.entities.html5")
    w("// (the WHATWG entities.json). Do not edit; rerun the generator instead.")
    w("")
    w("//! Data for the named character reference table: a DAFSA flattened into")
    w("//! static arrays. See the parent module for the layout and the lookup.")
    w("")
    w("/// Number of names in the table (with and without `;`).")
    w("pub(crate) const ENTITY_COUNT: usize = %d;" % len(entries))
    w("")
    w("/// Flag on the last edge of a state's run of edges.")
    w("pub(crate) const L: u8 = %d;" % LAST)
    w("")
    w("/// Flag on an edge whose target state ends a name (the path so far is a")
    w("/// whole name, whose value is `VALUE_SPANS[sum of ranks along the path]`).")
    w("pub(crate) const F: u8 = %d;" % FINAL)
    w("")
    w("/// Both [`L`] and [`F`].")
    w("const LF: u8 = L | F;")
    w("")
    w("/// Marks a byte that starts no name in [`ROOT_INDEX`].")
    w("pub(crate) const NO_ROOT_EDGE: u8 = 0x%X;" % NO_ROOT_EDGE)
    w("")
    w("/// Bits of a [`VALUE_SPANS`] entry that hold the value's length in bytes.")
    w("pub(crate) const SPAN_LEN_BITS: u32 = %d;" % SPAN_LEN_BITS)
    w("")
    w("/// One edge of the DAFSA.")
    w("#[derive(Clone, Copy, Debug)]")
    w("pub(crate) struct Edge {")
    w("    /// The input byte this edge consumes.")
    w("    pub(crate) label: u8,")
    w("    /// [`L`] and/or [`F`].")
    w("    pub(crate) flags: u8,")
    w("    /// Index in [`EDGES`] of the target state's first edge; 0 when the")
    w("    /// target has no edges (no name continues past it).")
    w("    pub(crate) target: u16,")
    w("    /// Added to the running rank when this edge is taken.")
    w("    pub(crate) rank: u16,")
    w("}")
    w("")
    w("/// Shorthand constructor that keeps [`EDGES`] readable and small.")
    w("const fn e(label: u8, flags: u8, target: u16, rank: u16) -> Edge {")
    w("    Edge {")
    w("        label,")
    w("        flags,")
    w("        target,")
    w("        rank,")
    w("    }")
    w("}")
    w("")
    w("/// For each byte below 128, the index in [`EDGES`] of the root edge with")
    w("/// that label, or [`NO_ROOT_EDGE`]. The root's run is `EDGES[0..%d]`."
      % (max(i for i in root if i != NO_ROOT_EDGE) + 1))
    w("#[rustfmt::skip]")
    w("pub(crate) static ROOT_INDEX: [u8; 128] = [")
    for row in range(0, 128, 16):
        cells = ["0x%02X" % v for v in root[row : row + 16]]
        w("    " + ", ".join(cells) + ",")
    w("];")
    w("")
    w("/// All edges, %d states' runs back to back (%d edges). Each run is sorted" % (len(order), len(edges)))
    w("/// by label and ends with an [`L`] edge; each run starts a line, marked")
    w("/// with its index.")
    w("#[rustfmt::skip]")
    w("pub(crate) static EDGES: [Edge; %d] = [" % len(edges))
    for state in order:
        first = start[id(state)]
        items = []
        for label, flags, target, rank in edges[first : first + len(state.edges)]:
            items.append("e(b'%s', %s, %d, %d)" % (chr(label), FLAG_NAMES[flags], target, rank))
        items[0] = "/* %4d */ %s" % (first, items[0])
        out.extend(wrap_items(items, "    "))
    w("];")
    w("")
    w("/// Replacement strings, concatenated; sliced by [`VALUE_SPANS`].")
    w("#[rustfmt::skip]")
    w("pub(crate) static VALUE_DATA: &str = \"\\")
    chunk = ""
    for ch in data:
        piece = rust_str_literal(ch)
        if len(chunk) + len(piece) > 90:
            w("    " + chunk + "\\")
            chunk = ""
        chunk += piece
    w("    " + chunk + "\";")
    w("")
    w("/// For each name in byte-sorted order, `start << SPAN_LEN_BITS | len`: its")
    w("/// value is `VALUE_DATA[start..start + len]`. Names are at most %d bytes." % max_len)
    w("#[rustfmt::skip]")
    w("pub(crate) static VALUE_SPANS: [u16; ENTITY_COUNT] = [")
    for (name, value), span in zip(entries, spans):
        w("    0x%04X, // %s %s" % (span, name.decode(), describe_value(value)))
    w("];")
    w("")
    return "\n".join(out)


def generate():
    entries = load_names()
    assert len(entries) == 2231, len(entries)
    root_state = build_dafsa([name for name, _value in entries])
    order, start, words = layout(root_state)
    assert words[id(root_state)] == len(entries)
    edges = build_edges(order, start, words)
    data, data_bytes, spans = build_values(entries)
    root = root_index(edges)
    verify(entries, edges, root, spans, data_bytes)
    return render(entries, order, start, edges, root, data, data_bytes, spans)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="fail if the committed table.rs is out of date"
    )
    args = parser.parse_args()
    return write_or_check(OUT_PATH, generate(), args.check, "gen_entities.py")


if __name__ == "__main__":
    sys.exit(main())
