"""What the table generators (gen_entities.py, gen_elements.py) share: the
layout of their data lines, and writing or checking their output file."""

import os
import sys


def wrap_items(items, indent, width=100):
    """Join `items` with ', ' into lines no wider than `width`."""
    lines = []
    line = ""
    for item in items:
        piece = item + ","
        if line and len(indent) + len(line) + 1 + len(piece) > width:
            lines.append(indent + line)
            line = piece
        else:
            line = piece if not line else line + " " + piece
    if line:
        lines.append(indent + line)
    return lines


def write_or_check(path, text, check, script):
    """Write `text` to `path`, or with `check` only compare them: return 1
    (after saying so and how to fix it) when the file is out of date."""
    path = os.path.normpath(path)
    if check:
        try:
            with open(path, encoding="utf-8", newline="") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            print("%s is out of date; run python3 tools/%s" % (path, script), file=sys.stderr)
            return 1
        return 0
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return 0
