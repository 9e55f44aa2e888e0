"""The package as a user gets it: its docstring examples run, and a built
wheel installs into a fresh virtual environment and imports."""

import doctest
import os
import pathlib
import subprocess
import sys

import pytest

import htmltok

DOCUMENTED = ["tokenize", "extract", "text", "links"]


@pytest.mark.parametrize("name", ["htmltok", *DOCUMENTED])
def test_docstring_examples_run(name):
    obj = htmltok if name == "htmltok" else getattr(htmltok, name)
    tests = doctest.DocTestFinder(exclude_empty=False).find(obj, name, globs=vars(htmltok).copy())
    examples = sum(len(t.examples) for t in tests)
    assert examples > 0, f"{name} has no examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0


def test_every_public_name_has_a_docstring_and_a_stub():
    stubs = (pathlib.Path(htmltok.__file__).parent / "_htmltok.pyi").read_text()
    for name in htmltok.__all__:
        if name == "__version__":
            continue
        assert getattr(htmltok, name).__doc__, name
        assert f"def {name}(" in stubs or f"class {name}:" in stubs or f"class {name}(" in stubs, name
    assert (pathlib.Path(htmltok.__file__).parent / "py.typed").is_file()


def test_the_wheel_installs_into_a_fresh_virtual_environment(tmp_path):
    wheel = os.environ.get("HTMLTOK_WHEEL")
    if not wheel:
        pytest.skip("HTMLTOK_WHEEL not set (python/test.sh builds the wheel and sets it)")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-index", "--no-deps", wheel], check=True)
    script = (
        "import htmltok, pathlib, pickle;"
        "assert htmltok.text(b'<p>caf\\xe9') == 'café';"
        "t = list(htmltok.tokenize('<a href=x>'));"
        "assert pickle.loads(pickle.dumps(t)) == t;"
        "p = pathlib.Path(htmltok.__file__).parent;"
        "assert (p / 'py.typed').is_file() and (p / '_htmltok.pyi').is_file();"
        "print(htmltok.__version__)"
    )
    out = subprocess.run([str(python), "-c", script], cwd=tmp_path, check=True, capture_output=True, text=True)
    assert out.stdout.strip() == htmltok.__version__
