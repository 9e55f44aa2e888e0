"""The html5lib-tests encoding suite through `detect_encoding`: every case
of `encoding/*.dat` and `encoding/scripted/*.dat` gives bytes and the
encoding a browser ends up with. The one case of `scripted/tests1.dat` is
skipped, as in `tests/encoding.rs`: its `<meta>` is written by a script."""

import pytest

import htmltok
from conftest import html5lib_tests_dir


def _parse_dat(data):
    """html5lib's TestData: `#heading` lines open sections, `#data` a test,
    and each section loses the one newline that ends it."""
    tests = []
    for line in data.splitlines(keepends=True):
        if line.startswith(b"#"):
            heading = line[1:].strip().decode("utf-8", "replace")
            if heading == "data" or not tests:
                tests.append([])
            tests[-1].append([heading, b""])
        elif tests and tests[-1]:
            tests[-1][-1][1] += line
    cases = []
    for sections in tests:
        case = {}
        for heading, body in sections:
            if body.endswith(b"\n"):
                body = body[:-1]
            case[heading] = body
        cases.append((case.get("data", b""), case.get("encoding", b"").decode().strip()))
    return cases


def _cases():
    root = html5lib_tests_dir() / "encoding"
    for path in sorted(root.glob("*.dat")) + sorted((root / "scripted").glob("*.dat")):
        scripted = path.parent.name == "scripted"
        for i, (data, encoding) in enumerate(_parse_dat(path.read_bytes())):
            name = f"{'scripted/' if scripted else ''}{path.name}#{i}"
            yield pytest.param(data, encoding, scripted, id=name)


@pytest.mark.parametrize("data,expected,scripted", list(_cases()))
def test_encoding_suite(data, expected, scripted):
    if scripted:
        pytest.skip("the <meta> is built by document.write: only a parser that runs scripts finds it")
    got = htmltok.detect_encoding(data)
    assert got.name == expected.lower()
    assert htmltok.encoding_name(expected) == got.name


def test_transport_and_override():
    page = b"<meta charset=utf-8><p>\xcf\xf0\xe8\xe2\xe5\xf2"
    assert htmltok.detect_encoding(page).name == "utf-8"
    got = htmltok.detect_encoding(page, "windows-1251")
    assert (got.name, got.source, got.confidence) == ("windows-1251", "transport", "certain")
    got = htmltok.detect_encoding(page, "windows-1251", encoding="koi8-r")
    assert (got.name, got.source) == ("koi8-r", "override")
    assert htmltok.decode(page, transport_encoding="cp1251").endswith("<p>Привет")
    # A byte order mark wins over everything.
    assert htmltok.detect_encoding(b"\xef\xbb\xbf<meta charset=latin1>", "latin1").source == "bom"


def test_a_meta_past_the_prescan_is_found():
    page = b"<!--" + b"x" * 2000 + b"--><meta charset=iso-8859-2>"
    got = htmltok.detect_encoding(page)
    assert (got.name, got.source, got.confidence) == ("iso-8859-2", "meta", "certain")


def test_encoding_names():
    assert htmltok.encoding_name("latin1") == "windows-1252"
    assert htmltok.encoding_name(" UTF8 ") == "utf-8"
    assert htmltok.encoding_name("no-such-encoding") is None
