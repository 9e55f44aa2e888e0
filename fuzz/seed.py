#!/usr/bin/env python3
"""Builds the seed corpora of the fuzz targets in fuzz/corpus/<target>/.

Seeds (the same for every target, since each takes raw input):
- every input of the html5lib-tests tokenizer suite (tokenizer/*.test;
  doubleEscaped inputs unescaped; inputs with lone surrogates skipped),
- every #data of its tree-construction tests (tree-construction/*.dat,
  found where the suite is found but with that folder: the submodule's
  commit lacks it, ../../shared/html5lib-tests has it),
- the pages of the shared corpus, cut into pieces of at most 4 KB (cut
  before a `<` where one is near, always on a character boundary).

The `resolve` target takes a base choice and a URL: its seeds are the
values of the URL attributes (href, src, action) of the corpus pages, each
behind a base choice byte from its hash.

The `chunked` target reads options and chunk lengths from its first bytes
(tests/support/chunked.rs): its seeds are the same documents behind a
header drawn from each seed's hash (random flags, initial state and up to
15 chunk lengths, mostly short).

The suite is found at $HTML5LIB_TESTS_DIR, then ../tests/html5lib-tests,
then ../../shared/html5lib-tests; the pages at $HTMLTOK_CORPUS_DIR, then
../../shared/corpus (paths relative to this folder). fuzz/corpus is
gitignored: run this script again on a new machine.

Usage: python3 fuzz/seed.py [--max-piece BYTES] [TARGET...]
"""

import argparse
import hashlib
import json
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGETS = [
    "tokenize",
    "differential",
    "roundtrip",
    "chunked",
    "tree_oracle",
    "resolve",
    "extract",
    "main_content",
    "markdown",
]

# A URL attribute's value, quoted or not (the seeds of `resolve`).
URL_ATTRIBUTE = re.compile(rb"""\s(?:href|src|action)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))""", re.I)


def find_dir(env, candidates, marker, required=True):
    if os.environ.get(env):
        d = Path(os.environ[env])
        if (d / marker).exists():
            return d
        if required:
            sys.exit(f"{env}={d} has no {marker}")
    for d in candidates:
        if (d / marker).exists():
            return d
    return None


def unescape_double(s):
    """Undoes one more level of \\uXXXX escapes (surrogate pairs combine)."""
    data = bytearray()
    i = 0
    while i < len(s):
        m = re.match(r"\\u([0-9A-Fa-f]{4})", s[i:])
        if m:
            data += int(m.group(1), 16).to_bytes(2, "little")
            i += 6
        else:
            data += s[i].encode("utf-16-le", errors="surrogatepass")
            i += 1
    return bytes(data).decode("utf-16-le")  # raises on a lone surrogate


def html5lib_inputs(suite):
    for path in sorted((suite / "tokenizer").glob("*.test")):
        tests = json.loads(path.read_text(encoding="utf-8"))
        for t in tests.get("tests", tests.get("xmlViolationTests", [])):
            s = t["input"]
            try:
                if t.get("doubleEscaped"):
                    s = unescape_double(s)
                yield s.encode("utf-8")
            except (UnicodeDecodeError, UnicodeEncodeError):
                continue  # a lone surrogate: not representable as UTF-8


def tree_construction_inputs(suite):
    """The #data of every tree-construction test: the lines up to #errors,
    less the final newline."""
    for path in sorted((suite / "tree-construction").glob("*.dat")):
        data = None
        for line in path.read_bytes().split(b"\n"):
            if line == b"#data":
                data = []
            elif line == b"#errors" and data is not None:
                yield b"\n".join(data)
                data = None
            elif data is not None:
                data.append(line)


def pieces(text, max_bytes):
    """Cuts `text` into pieces of at most max_bytes UTF-8 bytes."""
    out = []
    start = 0
    while start < len(text):
        # Largest end (in characters) whose piece fits.
        end = min(len(text), start + max_bytes)
        while len(text[start:end].encode("utf-8")) > max_bytes:
            end -= max(1, (len(text[start:end].encode("utf-8")) - max_bytes) // 4)
        if end < len(text):
            lt = text.rfind("<", start + 1, end)
            if lt > start + max_bytes // 2:
                end = lt
        out.append(text[start:end].encode("utf-8"))
        start = end
    return out


def chunked_header(seed):
    """A header for the `chunked` target (see tests/support/chunked.rs),
    derived from the seed's hash so that runs are reproducible."""
    h = hashlib.sha256(seed).digest()
    flags = h[0] & 0x7F
    n = h[1] % 16
    state = h[2] % 6
    lengths = []
    for b in h[3 : 3 + n]:
        # Mostly short chunks (a cut inside every construct), some empty,
        # some long.
        lengths.append(b % 9 if b < 192 else b)
    return bytes([flags, state << 4 | n] + lengths)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-piece", type=int, default=4096)
    ap.add_argument("targets", nargs="*", default=TARGETS)
    args = ap.parse_args()

    seeds = []
    suite = find_dir(
        "HTML5LIB_TESTS_DIR",
        [HERE.parent / "tests" / "html5lib-tests", HERE.parent.parent / "shared" / "html5lib-tests"],
        "tokenizer",
    )
    if suite:
        seeds += list(html5lib_inputs(suite))
        print(f"html5lib-tests: {len(seeds)} inputs from {suite}")
    else:
        print("html5lib-tests not found; skipped", file=sys.stderr)
    trees = find_dir(
        "HTML5LIB_TESTS_DIR",
        [HERE.parent / "tests" / "html5lib-tests", HERE.parent.parent / "shared" / "html5lib-tests"],
        "tree-construction",
        required=False,
    )
    if trees:
        n = len(seeds)
        seeds += list(tree_construction_inputs(trees))
        print(f"tree-construction: {len(seeds) - n} inputs from {trees}")
    else:
        print("tree-construction tests not found; skipped", file=sys.stderr)
    corpus = find_dir("HTMLTOK_CORPUS_DIR", [HERE.parent.parent / "shared" / "corpus"], ".")
    if corpus:
        n = len(seeds)
        for page in sorted(corpus.glob("*.html")):
            text = page.read_bytes().decode("utf-8", errors="replace")
            seeds += pieces(text, args.max_piece)
        print(f"corpus: {len(seeds) - n} pieces from {corpus}")
    else:
        print("corpus not found; skipped", file=sys.stderr)

    unique = {hashlib.sha1(s).hexdigest(): s for s in seeds}
    urls = set()
    if corpus:
        for page in sorted(corpus.glob("*.html")):
            for m in URL_ATTRIBUTE.finditer(page.read_bytes()):
                urls.add(m.group(1) or m.group(2) or m.group(3) or b"")
    for target in args.targets:
        d = HERE / "corpus" / target
        d.mkdir(parents=True, exist_ok=True)
        if target == "resolve":
            for url in sorted(urls):
                data = hashlib.sha1(url).digest()[:1] + url
                (d / hashlib.sha1(data).hexdigest()).write_bytes(data)
            print(f"{d}: {len(urls)} seeds")
            continue
        for name, data in unique.items():
            if target == "chunked":
                data = chunked_header(data) + data
                name = hashlib.sha1(data).hexdigest()
            (d / name).write_bytes(data)
        print(f"{d}: {len(unique)} seeds")


if __name__ == "__main__":
    main()
