#!/usr/bin/env python3
"""Which words `htmltok text` and resiliparse's plain-text extraction disagree on.

For each page, the text of ``htmltok text FILE`` (the CLI) and of
resiliparse's ``extract_plain_text(tree, main_content=False)`` are split into
words (on whitespace), and this prints:

* the word count of each;
* the words only in htmltok and the words only in resiliparse, as multiset
  differences (a word twice in one and once in the other counts once), most
  frequent first (``--top``, 40 by default);
* the differing stretches ("hunks") of the two word sequences, aligned with
  GNU ``diff`` on one word a line, sorted into rough classes: ``boundary``
  (the same characters cut into words differently: ``a<img alt=X>b`` gives
  htmltok ``a b`` and resiliparse ``aXb``), ``bullet`` (resiliparse's list
  bullets and numbers, ``•`` and ``1.``), ``htmltok only``, ``resiliparse
  only`` and ``changed``; with word totals per class, and the first
  ``--hunks`` of them (10 by default; bullets only with ``--bullets``) with a
  few words of context, so that a human can find the rule that makes each
  difference.

resiliparse runs with its defaults otherwise, which are (resiliparse 2.0):
``preserve_formatting=True`` (block-level line breaks, list bullets),
``list_bullets=True`` (``•``/``1.`` before list items), ``alt_texts=True``
(the ``alt`` of <img> and <area> is text), ``links=False`` (no link URLs),
``form_fields=False`` (<input>, <textarea>, <button>, <select>, <option>
and <label> are left out whole), ``noscript=False`` (<noscript> left out),
``skip_elements=None`` (only script, style, iframe, frame and template are
left out besides those), and ``hidden_elements=False``, which matters only
with ``main_content=True``: without it, nothing is left out for being
hidden (``hidden``, ``aria-hidden``, inline ``display:none``). The text
comes from <body> only. The page is decoded as resiliparse recommends:
``bytes_to_str(html, detect_encoding(html))``, then ``HTMLTree.parse``.

Words are split with Python's ``str.split()`` (any Unicode whitespace, so
U+00A0 splits words, as htmltok's own collapsing does); ``--split ascii``
splits on HTML's ASCII whitespace only, which shows where the two treat
U+00A0 differently (resiliparse keeps it, htmltok makes it a space).

How to run it (from the repository root):

    cargo build --release -p htmltok-cli
    python3 -m venv /tmp/peers-venv && /tmp/peers-venv/bin/pip install resiliparse
    /tmp/peers-venv/bin/python tools/text_words_diff.py
    /tmp/peers-venv/bin/python tools/text_words_diff.py --hunks 100 --top 20 wikipedia.html

Files: the HTML files given as arguments, else ``*.html`` of
``$HTMLTOK_CORPUS_DIR``, else of ``../shared/corpus`` beside the repository
root, else of ``/work/shared/corpus``. The binary: ``--htmltok PATH``, else
``$CARGO_TARGET_DIR/release/htmltok``, else ``target/release/htmltok``.
Needs only resiliparse besides the standard library, and GNU diff for the
hunks.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUILD_HINT = "cargo build --release -p htmltok-cli"
INSTALL_HINT = (
    "python3 -m venv /tmp/peers-venv && /tmp/peers-venv/bin/pip install resiliparse\n"
    "then run this script with /tmp/peers-venv/bin/python"
)
ASCII_SPACE = re.compile(r"[ \t\n\f\r]+")
BULLET = re.compile(r"^(?:•|\d+\.)$")
CONTEXT = 4


def import_resiliparse():
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
        from resiliparse.parse.html import HTMLTree
    except ImportError as err:
        sys.exit(f"error: {err.name or err} is not installed. Install it with:\n  {INSTALL_HINT}")
    return extract_plain_text, bytes_to_str, detect_encoding, HTMLTree


def default_files() -> list[Path]:
    candidates = []
    if os.environ.get("HTMLTOK_CORPUS_DIR"):
        candidates.append(Path(os.environ["HTMLTOK_CORPUS_DIR"]))
    candidates += [REPO.parent / "shared" / "corpus", Path("/work/shared/corpus")]
    for directory in candidates:
        files = sorted(directory.glob("*.html"))
        if files:
            return files
    sys.exit("error: no corpus found (tried " + ", ".join(map(str, candidates))
             + "); give HTML files as arguments")


def default_binary() -> Path:
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    if not target.is_absolute():
        target = REPO / target
    return target / "release" / "htmltok"


def htmltok_text(binary: Path, path: Path) -> str:
    done = subprocess.run([str(binary), "text", str(path)], capture_output=True)
    if done.returncode != 0:
        sys.exit(f"error: htmltok text {path} exited with {done.returncode}:\n"
                 + done.stderr.decode(errors="replace"))
    return done.stdout.decode("utf-8")


def diff_hunks(left: list[str], right: list[str]):
    """The differing stretches of two word lists: (l_start, l_end, r_start, r_end)."""
    with tempfile.TemporaryDirectory(prefix="words-diff-") as tmp:
        paths = []
        for name, words in (("htmltok", left), ("resiliparse", right)):
            path = Path(tmp) / name
            # One word a line; a word cannot hold a newline.
            path.write_text("".join(w + "\n" for w in words), encoding="utf-8")
            paths.append(str(path))
        out = subprocess.run(["diff", "--minimal", "-U0", *paths],
                             capture_output=True, text=True, encoding="utf-8").stdout
    hunks = []
    for m in re.finditer(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", out, re.M):
        ls, ln, rs, rn = int(m[1]), int(m[2] or 1), int(m[3]), int(m[4] or 1)
        # -U0: an empty side's start is the line before the gap.
        l0 = ls if ln == 0 else ls - 1
        r0 = rs if rn == 0 else rs - 1
        hunks.append((l0, l0 + ln, r0, r0 + rn))
    return hunks


def classify(h: list[str], r: list[str]) -> str:
    if h and r and "".join(h) == "".join(r):
        return "boundary"
    if not h and r and all(BULLET.match(w) for w in r):
        return "bullet"
    # Bullets mixed into another difference do not make it another class.
    r_core = [w for w in r if not BULLET.match(w)]
    if h and r_core and "".join(h) == "".join(r_core):
        return "boundary"
    if not r_core:
        return "htmltok only"
    if not h:
        return "resiliparse only"
    return "changed"


def shorten(words: list[str], limit: int = 24) -> str:
    text = " ".join(words)
    return text if len(words) <= limit else " ".join(words[:limit]) + f" ... (+{len(words) - limit} words)"


def report(name: str, h_words: list[str], r_words: list[str], args) -> None:
    h_count, r_count = Counter(h_words), Counter(r_words)
    only_h, only_r = h_count - r_count, r_count - h_count
    print(f"## {name}\n")
    print(f"words: htmltok {len(h_words):,}, resiliparse {len(r_words):,}; "
          f"only in htmltok {sum(only_h.values()):,} ({len(only_h):,} distinct), "
          f"only in resiliparse {sum(only_r.values()):,} ({len(only_r):,} distinct)\n")
    for label, only in (("only in htmltok", only_h), ("only in resiliparse", only_r)):
        top = only.most_common(args.top)
        print(f"{label} (top {len(top)}): "
              + (", ".join(f"{w!r}×{n}" for w, n in top) if top else "none") + "\n")
    if not shutil.which("diff"):
        print("(GNU diff not found: no hunks)\n")
        return
    hunks = diff_hunks(h_words, r_words)
    classes: dict[str, list] = {}
    for hunk in hunks:
        l0, l1, r0, r1 = hunk
        classes.setdefault(classify(h_words[l0:l1], r_words[r0:r1]), []).append(hunk)
    print(f"hunks: {len(hunks):,}; by class (hunks; words htmltok/resiliparse):")
    for cls, members in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        hw = sum(l1 - l0 for l0, l1, _, _ in members)
        rw = sum(r1 - r0 for _, _, r0, r1 in members)
        print(f"- {cls}: {len(members):,}; {hw:,}/{rw:,}")
    print()
    listed = [hk for hk in hunks
              if args.bullets or classify(h_words[hk[0]:hk[1]], r_words[hk[2]:hk[3]]) != "bullet"]
    shown = listed[:args.hunks] if args.hunks >= 0 else listed
    for l0, l1, r0, r1 in shown:
        cls = classify(h_words[l0:l1], r_words[r0:r1])
        before = " ".join(h_words[max(0, l0 - CONTEXT):l0])
        after = " ".join(h_words[l1:l1 + CONTEXT])
        print(f"- [{cls}] word {l0 + 1}: …{before} ⟦htmltok: {shorten(h_words[l0:l1])} ‖ "
              f"resiliparse: {shorten(r_words[r0:r1])}⟧ {after}…")
    if len(shown) < len(listed):
        print(f"- ... {len(listed) - len(shown):,} more hunks (--hunks -1 shows all)")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Compare the words of htmltok text and resiliparse's "
                    "extract_plain_text (see the module docstring).")
    parser.add_argument("files", nargs="*", help="HTML files (default: the shared corpus)")
    parser.add_argument("--htmltok", metavar="PATH",
                        help=f"the htmltok binary (default: target/release/htmltok; "
                             f"build it with `{BUILD_HINT}`)")
    parser.add_argument("--top", type=int, default=40,
                        help="most frequent differing words to list (default 40)")
    parser.add_argument("--hunks", type=int, default=10,
                        help="differing stretches to print per page (default 10; -1: all)")
    parser.add_argument("--bullets", action="store_true",
                        help="list the hunks of class bullet too (counted always)")
    parser.add_argument("--split", choices=("unicode", "ascii"), default="unicode",
                        help="split on any Unicode whitespace (str.split, default) "
                             "or on HTML's ASCII whitespace only")
    parser.add_argument("--save", metavar="DIR",
                        help="also write each page's two texts to DIR/PAGE.htmltok.txt "
                             "and DIR/PAGE.resiliparse.txt")
    args = parser.parse_args()

    extract_plain_text, bytes_to_str, detect_encoding, HTMLTree = import_resiliparse()
    binary = Path(args.htmltok) if args.htmltok else default_binary()
    if not binary.is_file():
        sys.exit(f"error: no htmltok binary at {binary}. Build it with:\n  {BUILD_HINT}\n"
                 "(or give one with --htmltok PATH)")
    files = [Path(f) for f in args.files] if args.files else default_files()
    split = str.split if args.split == "unicode" else (lambda s: ASCII_SPACE.split(s.strip()))

    for path in files:
        html = path.read_bytes()
        h_text = htmltok_text(binary, path)
        tree = HTMLTree.parse(bytes_to_str(html, detect_encoding(html)))
        r_text = extract_plain_text(tree, main_content=False)
        if args.save:
            out = Path(args.save)
            out.mkdir(parents=True, exist_ok=True)
            (out / f"{path.stem}.htmltok.txt").write_text(h_text, encoding="utf-8")
            (out / f"{path.stem}.resiliparse.txt").write_text(r_text, encoding="utf-8")
        report(path.name, [w for w in split(h_text) if w], [w for w in split(r_text) if w], args)


if __name__ == "__main__":
    main()
