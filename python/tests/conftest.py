"""Where the tests find their data, and the summary line every harness of
the project ends with (`N passed, N failed, N skipped`)."""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def html5lib_tests_dir():
    """The html5lib-tests checkout: $HTML5LIB_TESTS_DIR, the submodule, or
    ../shared/html5lib-tests beside the repository (as the Rust tests)."""
    candidates = []
    if os.environ.get("HTML5LIB_TESTS_DIR"):
        candidates.append(pathlib.Path(os.environ["HTML5LIB_TESTS_DIR"]))
    candidates.append(REPO / "tests" / "html5lib-tests")
    candidates.append(REPO.parent / "shared" / "html5lib-tests")
    for c in candidates:
        if (c / "tokenizer").is_dir():
            return c
    raise RuntimeError(
        "html5lib-tests not found: run `git submodule update --init` or set HTML5LIB_TESTS_DIR "
        f"(looked in {', '.join(map(str, candidates))})"
    )


def corpus_pages():
    """The real pages of ../shared/corpus (or $HTMLTOK_CORPUS_DIR)."""
    d = pathlib.Path(os.environ.get("HTMLTOK_CORPUS_DIR", REPO.parent / "shared" / "corpus"))
    pages = sorted(p for p in d.glob("*.html"))
    if not pages:
        raise RuntimeError(f"no corpus pages in {d} (set HTMLTOK_CORPUS_DIR)")
    return pages


WARC_FIXTURES = REPO / "tests" / "warc"


def pytest_terminal_summary(terminalreporter):
    stats = terminalreporter.stats
    count = lambda key: len([r for r in stats.get(key, []) if getattr(r, "when", "call") != "teardown" or key == "error"])
    passed, failed, skipped = count("passed"), count("failed") + count("error"), count("skipped")
    terminalreporter.write_line(f"{passed} passed, {failed} failed, {skipped} skipped")
