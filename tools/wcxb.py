#!/usr/bin/env python3
"""Main-content extraction accuracy on the WCXB benchmark, dev split only.

WCXB (Web Content eXtraction Benchmark, Murrough Foley, CC-BY-4.0) pairs
1,497 dev pages of 7 page types (article, forum, product, collection,
listing, documentation, service) with a hand-reviewed plain-text
`main_content` and short `with` / `without` snippets.  This script

* ``layout``: copies ONLY ``dev/html/*.html.gz`` and
  ``dev/ground-truth/*.json`` out of a snapshot of the benchmark's
  repository (a bare git directory, a clone, or a plain checkout) into a
  cache directory, and checks the page count and the page types;
* ``eval``: runs extractors over the cached dev pages (or reads a directory
  of ``<page-id>.txt`` predictions) and prints, per page type and overall,
  the mean per-page word precision, recall and F1 and the snippet rates,
  computed the way the benchmark's own evaluate.py computes them.

The held-out test split (``test/``) is never listed, read or scored:
``layout`` asks git for the two dev paths only and checks every path it
copies against a dev-only pattern, and ``eval`` reads only the cache.

The metric (re-implemented here from the description of evaluate.py):

* words: ``re.findall(r"\\w+", text.lower())`` (Unicode ``\\w``), counted
  as a multiset;
* overlap: the size of the multiset intersection of predicted and
  reference words; precision = overlap / predicted words, recall =
  overlap / reference words, F1 their harmonic mean (0 when both are 0);
* an empty reference scores 1/1/1 for an empty prediction and 0/0/0
  otherwise; an empty prediction (or a failed / missing one) scores 0/0/0
  against a non-empty reference;
* snippets: the fraction of a page's ``with`` (resp. ``without``) snippets
  that occur as substrings of the lowercased prediction (lowercased
  snippet, no whitespace normalisation); a page with an empty list scores
  1.0 on that list (for ``without`` that reads as "all boilerplate
  present": evaluate.py's convention, kept so the numbers match);
* every figure is the plain mean over pages (macro average), per page type
  and over all pages.  The page type is ``_internal.page_type.primary`` of
  the ground-truth file (``category`` counted as ``collection``).

Examples::

    python3 wcxb.py layout PATH/TO/web-content-extraction-benchmark   # bare git dir or clone
    python3 wcxb.py eval --tools trafilatura,resiliparse,htmltok-all \\
        --json per-page.json --save-predictions preds/
    python3 wcxb.py eval --predictions mytool=path/to/txt/dir

Standard library only; the extractors (trafilatura, resiliparse, htmltok)
are imported only when selected.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

# --------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------

#: Page counts of the dev split, per page type, as the benchmark's README states.
EXPECTED_DEV_TYPES = {
    "article": 793,
    "service": 165,
    "product": 119,
    "collection": 117,
    "forum": 113,
    "listing": 99,
    "documentation": 91,
}
EXPECTED_DEV_PAGES = sum(EXPECTED_DEV_TYPES.values())  # 1,497

#: Row order of the tables (evaluate.py's order).
TYPE_ORDER = ["article", "forum", "product", "collection", "listing",
              "documentation", "service"]

#: The only repository paths ``layout`` ever copies.
DEV_PATH = re.compile(r"^dev/(html/[0-9A-Za-z_-]+\.html\.gz|ground-truth/[0-9A-Za-z_-]+\.json)$")

#: Extractors that ``eval --tools`` knows.
KNOWN_TOOLS = ["trafilatura", "resiliparse", "htmltok-all", "htmltok-main"]

WORD = re.compile(r"\w+")

# --------------------------------------------------------------------------
# Paths
# --------------------------------------------------------------------------


def repository_root(start: Path) -> Path:
    """The root of the git work tree containing ``start``, else ``start``."""
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=start,
                             capture_output=True, text=True, check=True)
        return Path(out.stdout.strip())
    except (subprocess.CalledProcessError, FileNotFoundError):
        return start


def default_cache_dir() -> Path:
    """``target/wcxb/dev`` under the repository root of the current directory."""
    return repository_root(Path.cwd()) / "target" / "wcxb" / "dev"


# --------------------------------------------------------------------------
# layout
# --------------------------------------------------------------------------


def git(git_dir: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    """Run ``git --git-dir=GIT_DIR ARGS`` and return the completed process."""
    return subprocess.run(["git", f"--git-dir={git_dir}", *args],
                          capture_output=True, check=True, **kw)


def find_git_dir(snapshot: Path) -> Optional[Path]:
    """The git directory of ``snapshot`` (bare, or a clone's ``.git``), if any."""
    for candidate in (snapshot, snapshot / ".git"):
        try:
            git(candidate, "rev-parse", "--git-dir")
            return candidate
        except (subprocess.CalledProcessError, FileNotFoundError, NotADirectoryError):
            continue
    return None


def dev_files_from_git(git_dir: Path, rev: str) -> Iterable[tuple[str, bytes]]:
    """Yield ``(path, content)`` for every dev file in commit ``rev``.

    Only the two dev folders are named to ``git ls-tree``, so no other path
    (in particular nothing under ``test/``) is listed or read.
    """
    listing = git(git_dir, "ls-tree", "-r", "-z", rev, "--",
                  "dev/html/", "dev/ground-truth/").stdout
    entries = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        mode, kind, sha = meta.split()
        path_s = path.decode()
        if kind == b"blob" and DEV_PATH.match(path_s):
            entries.append((path_s, sha.decode()))
    # One `cat-file --batch` process for all blobs.
    proc = subprocess.Popen(["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin and proc.stdout
    try:
        for path_s, sha in entries:
            proc.stdin.write(sha.encode() + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline().split()
            if len(header) != 3 or header[1] != b"blob":
                raise RuntimeError(f"git cat-file: unexpected answer {header!r} for {path_s}")
            size = int(header[2])
            data = proc.stdout.read(size)
            proc.stdout.read(1)  # the newline after each object
            yield path_s, data
    finally:
        proc.stdin.close()
        proc.wait()


def dev_files_from_tree(root: Path) -> Iterable[tuple[str, bytes]]:
    """Yield ``(path, content)`` for the dev files of a plain checkout."""
    for sub, pattern in (("html", "*.html.gz"), ("ground-truth", "*.json")):
        for f in sorted((root / "dev" / sub).glob(pattern)):
            rel = f"dev/{sub}/{f.name}"
            if DEV_PATH.match(rel):
                yield rel, f.read_bytes()


def verify_cache(out: Path, expect_pages: int, expect_types: bool) -> dict:
    """Check a cache directory: matching ids, page count and page types.

    Returns ``{"pages": N, "types": {type: n}}``; raises ``SystemExit`` on a
    mismatch.
    """
    html_ids = {p.name[:-len(".html.gz")] for p in (out / "html").glob("*.html.gz")}
    gt_ids = {p.stem for p in (out / "ground-truth").glob("*.json")}
    problems = []
    if html_ids != gt_ids:
        problems.append(f"{len(html_ids ^ gt_ids)} ids have an HTML file or a ground "
                        f"truth but not both (e.g. {sorted(html_ids ^ gt_ids)[:5]})")
    if len(gt_ids) != expect_pages:
        problems.append(f"{len(gt_ids)} pages, expected {expect_pages}")
    types = Counter(p.page_type for p in load_pages(out, with_html=False))
    if expect_types and dict(types) != EXPECTED_DEV_TYPES:
        problems.append(f"page types {dict(types)} differ from the README's {EXPECTED_DEV_TYPES}")
    if problems:
        raise SystemExit("wcxb layout: " + "; ".join(problems))
    return {"pages": len(gt_ids), "types": {t: types[t] for t in TYPE_ORDER if t in types}}


def cmd_layout(args: argparse.Namespace) -> int:
    """``layout``: copy the dev split out of a snapshot into the cache."""
    snapshot = Path(args.snapshot).resolve()
    out = Path(args.out).resolve() if args.out else default_cache_dir()
    if out.name == "test" or (out / "..").resolve().name == "test":
        raise SystemExit("wcxb layout: refusing an output path named test")
    git_dir = None if (snapshot / "dev" / "html").is_dir() and not args.from_git \
        else find_git_dir(snapshot)
    if git_dir is not None:
        commit = git(git_dir, "rev-parse", f"{args.rev}^{{commit}}", text=True).stdout.strip()
        files = dev_files_from_git(git_dir, commit)
        source = {"snapshot": str(snapshot), "read_from": "git objects", "commit": commit}
    elif (snapshot / "dev" / "html").is_dir():
        commit = None
        gd = find_git_dir(snapshot)
        if gd is not None:
            commit = git(gd, "rev-parse", "HEAD", text=True).stdout.strip()
        files = dev_files_from_tree(snapshot)
        source = {"snapshot": str(snapshot), "read_from": "work tree", "commit": commit}
    else:
        raise SystemExit(f"wcxb layout: {snapshot} is neither a git directory nor a "
                         "checkout with dev/html/")

    for sub in ("html", "ground-truth"):
        d = out / sub
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
    n = 0
    for path, data in files:
        assert DEV_PATH.match(path), path  # never anything but dev/html, dev/ground-truth
        target = out / path[len("dev/"):]
        target.write_bytes(data)
        n += 1
    counts = verify_cache(out, args.expect, not args.no_type_check)
    manifest = {"benchmark": "WCXB", "split": "dev", "license": "CC-BY-4.0",
                "source": source, **counts}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {n} files to {out} (commit {source['commit']})")
    print(f"{counts['pages']} dev pages: " +
          ", ".join(f"{t} {c}" for t, c in counts["types"].items()))
    return 0


# --------------------------------------------------------------------------
# Pages and ground truth
# --------------------------------------------------------------------------


@dataclass
class Page:
    """One dev page: its id, page type, reference text and snippets."""
    id: str
    page_type: str
    reference: str
    with_snippets: list[str]
    without_snippets: list[str]
    html_path: Path
    html: Optional[bytes] = field(default=None, repr=False)


def page_type_of(doc: dict) -> str:
    """The page type of a ground-truth document (``category`` -> ``collection``).

    ``_internal.page_type`` is either ``{"primary": TYPE, ...}`` or a string;
    a missing one counts as ``article``, as the benchmark's evaluator does.
    """
    label = (doc.get("_internal") or {}).get("page_type", {})
    if isinstance(label, dict):
        label = label.get("primary", "article")
    elif not isinstance(label, str):
        label = "article"
    return "collection" if label == "category" else label


def load_pages(data_dir: Path, with_html: bool = True) -> list[Page]:
    """Load the cached dev pages, sorted by id.

    Ground-truth files whose ``ground_truth`` is not an object are skipped
    (as evaluate.py skips them); none are in WCXB v1.0's dev split.
    """
    pages = []
    for gt_file in sorted((data_dir / "ground-truth").glob("*.json")):
        doc = json.loads(gt_file.read_text(encoding="utf-8"))
        gt = doc.get("ground_truth", {})
        if not isinstance(gt, dict):
            continue
        html_path = data_dir / "html" / f"{gt_file.stem}.html.gz"
        pages.append(Page(
            id=gt_file.stem,
            page_type=page_type_of(doc),
            reference=gt.get("main_content", "") or "",
            with_snippets=gt.get("with", []) or [],
            without_snippets=gt.get("without", []) or [],
            html_path=html_path,
            html=gzip.decompress(html_path.read_bytes()) if with_html else None,
        ))
    return pages


def check_data_dir(data_dir: Path) -> dict:
    """Refuse anything but a dev cache; return its manifest (or ``{}``)."""
    if not (data_dir / "ground-truth").is_dir():
        raise SystemExit(f"wcxb eval: no {data_dir}/ground-truth; run `wcxb.py layout` first")
    manifest_file = data_dir / "manifest.json"
    manifest = json.loads(manifest_file.read_text()) if manifest_file.exists() else {}
    split = manifest.get("split", data_dir.name)
    if split != "dev":
        raise SystemExit(f"wcxb eval: {data_dir} is not the dev split (split={split!r}); "
                         "only the dev split is evaluated")
    return manifest


# --------------------------------------------------------------------------
# The metric
# --------------------------------------------------------------------------


def words(text: Optional[str]) -> list[str]:
    """The lowercased ``\\w+`` words of ``text`` (none for ``None`` or "")."""
    return WORD.findall(text.lower()) if text else []


def word_scores(predicted: Optional[str], reference: str) -> tuple[float, float, float]:
    """Word-level (precision, recall, F1) of one page, multiset overlap."""
    pred, ref = words(predicted), words(reference)
    if not ref:
        return (1.0, 1.0, 1.0) if not pred else (0.0, 0.0, 0.0)
    if not pred:
        return (0.0, 0.0, 0.0)
    overlap = sum((Counter(pred) & Counter(ref)).values())
    p, r = overlap / len(pred), overlap / len(ref)
    return p, r, (2 * p * r / (p + r) if p + r > 0 else 0.0)


def snippets_found(predicted: Optional[str], snippets: list[str]) -> int:
    """How many ``snippets`` occur (case-insensitively) in ``predicted``."""
    text = (predicted or "").lower()
    return sum(1 for s in snippets if s.lower() in text)


def snippet_rate(predicted: Optional[str], snippets: list[str]) -> float:
    """The fraction of ``snippets`` found in ``predicted`` (1.0 for no snippets)."""
    return snippets_found(predicted, snippets) / len(snippets) if snippets else 1.0


def score_page(predicted: Optional[str], page: Page) -> dict:
    """All per-page figures for one prediction of ``page``."""
    p, r, f1 = word_scores(predicted, page.reference)
    return {
        "page_type": page.page_type,
        "precision": p, "recall": r, "f1": f1,
        "with_rate": snippet_rate(predicted, page.with_snippets),
        "without_rate": snippet_rate(predicted, page.without_snippets),
        "with_found": snippets_found(predicted, page.with_snippets),
        "with_total": len(page.with_snippets),
        "without_found": snippets_found(predicted, page.without_snippets),
        "without_total": len(page.without_snippets),
        "pred_words": len(words(predicted)),
        "ref_words": len(words(page.reference)),
    }


METRICS = ("precision", "recall", "f1", "with_rate", "without_rate")


def summarize(page_scores: dict[str, dict], ids: Optional[Iterable[str]] = None) -> dict:
    """Mean per-page figures, per page type and overall (``"all"``).

    ``ids`` restricts the summary to a subset of page ids: the boundary for
    cross-validation folds (score each fold's held-out ids separately).
    Pages are summed in sorted id order, as evaluate.py does, so the means
    match it to the last bit.
    """
    chosen = sorted(page_scores if ids is None else set(ids) & page_scores.keys())
    groups: dict[str, list[dict]] = {"all": []}
    for pid in chosen:
        s = page_scores[pid]
        groups.setdefault(s["page_type"], []).append(s)
        groups["all"].append(s)
    summary = {}
    for name, rows in groups.items():
        if rows:
            summary[name] = {"n": len(rows), **{m: sum(r[m] for r in rows) / len(rows)
                                                  for m in METRICS}}
    return summary


# --------------------------------------------------------------------------
# Extractors
# --------------------------------------------------------------------------


@dataclass
class Extractor:
    """A named extractor: ``run(html_bytes) -> text`` and its version."""
    name: str
    run: Optional[Callable[[bytes], Optional[str]]]
    version: str = ""
    note: str = ""  # why it is unavailable, or how it was run


def pkg_version(dist: str) -> str:
    """The installed version of distribution ``dist``, or ``"?"``."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def make_trafilatura() -> Extractor:
    """trafilatura with its default settings, fed the page's bytes."""
    try:
        import trafilatura
    except ImportError as e:
        return Extractor("trafilatura", None, note=f"not importable: {e}")
    return Extractor("trafilatura", lambda b: trafilatura.extract(b),
                     pkg_version("trafilatura"), "trafilatura.extract(html_bytes)")


def make_resiliparse() -> Extractor:
    """resiliparse's main-content plain-text extraction."""
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import detect_encoding
        from resiliparse.parse.html import HTMLTree
    except ImportError as e:
        return Extractor("resiliparse", None, note=f"not importable: {e}")

    def run(b: bytes) -> str:
        return extract_plain_text(HTMLTree.parse_from_bytes(b, detect_encoding(b)),
                                  main_content=True)
    return Extractor("resiliparse", run, pkg_version("resiliparse"),
                     "extract_plain_text(HTMLTree.parse_from_bytes(b, detect_encoding(b)), "
                     "main_content=True)")


def cli_runner(binary: str, extra: list[str]) -> Callable[[bytes], str]:
    """A runner piping a page into ``BINARY text EXTRA -`` (one process a page)."""
    def run(b: bytes) -> str:
        out = subprocess.run([binary, "text", *extra, "-"], input=b, capture_output=True,
                             timeout=120)
        if out.returncode != 0:
            raise RuntimeError(out.stderr.decode(errors="replace").strip()[:200])
        return out.stdout.decode("utf-8", errors="replace")
    return run


def cli_version(binary: str) -> str:
    """``BINARY --version``, or ``"?"``."""
    try:
        return subprocess.run([binary, "--version"], capture_output=True,
                              text=True).stdout.strip() or "?"
    except OSError:
        return "?"


def make_htmltok(main_content: bool, binary: Optional[str]) -> Extractor:
    """htmltok's text: all visible text, or (once it exists) the main content.

    The Python package wins; the command line (``--htmltok-bin``) is the
    fallback.  ``main_content=True`` is probed with a tiny page: an htmltok
    without it makes an unavailable extractor with a note instead of failing.
    """
    name = "htmltok-main" if main_content else "htmltok-all"
    kwargs = {"main_content": True} if main_content else {}
    try:
        import htmltok
        try:
            htmltok.text(b"<p>probe</p>", **kwargs)
        except TypeError as e:
            return Extractor(name, None, pkg_version("htmltok"),
                             f"skipped: this htmltok has no main_content option ({e})")
        return Extractor(name, lambda b: htmltok.text(b, **kwargs), pkg_version("htmltok"),
                         f"htmltok.text(page_bytes{', main_content=True' if main_content else ''})"
                         " (Python package)")
    except ImportError:
        pass
    if not binary:
        return Extractor(name, None, note="skipped: no htmltok Python package and no --htmltok-bin")
    extra = ["--main-content"] if main_content else []
    if main_content:
        helptext = subprocess.run([binary, "text", "--help"], capture_output=True,
                                  text=True).stdout
        if "--main-content" not in helptext:
            return Extractor(name, None, cli_version(binary),
                             f"skipped: {binary} text has no --main-content option")
    return Extractor(name, cli_runner(binary, extra), cli_version(binary),
                     f"{binary} text {' '.join(extra + ['-'])} (one process a page)")


def make_extractor(name: str, args: argparse.Namespace) -> Extractor:
    """The extractor called ``name`` (one of ``KNOWN_TOOLS``)."""
    if name == "trafilatura":
        return make_trafilatura()
    if name == "resiliparse":
        return make_resiliparse()
    if name in ("htmltok-all", "htmltok-main"):
        return make_htmltok(name == "htmltok-main", args.htmltok_bin)
    raise SystemExit(f"wcxb eval: unknown tool {name!r} (known: {', '.join(KNOWN_TOOLS)})")


@dataclass
class Run:
    """The outcome of one tool over the pages."""
    name: str
    version: str
    note: str
    predictions: dict[str, Optional[str]]
    failed: dict[str, str]          # page id -> error
    seconds: dict[str, float]       # page id -> extraction time
    html_bytes: int = 0


def run_extractor(ext: Extractor, pages: list[Page], progress: bool) -> Run:
    """Run ``ext`` over ``pages``, timing each call; an exception fails that page.

    A ``None`` result (trafilatura's "nothing found") is an empty prediction,
    not a failure.  A failed page is scored as an empty prediction.
    """
    assert ext.run is not None
    run = Run(ext.name, ext.version, ext.note, {}, {}, {})
    for i, page in enumerate(pages, 1):
        assert page.html is not None
        run.html_bytes += len(page.html)
        t0 = time.perf_counter()
        try:
            text = ext.run(page.html)
        except Exception as e:  # noqa: BLE001 - any extractor error fails the page only
            text, run.failed[page.id] = None, f"{type(e).__name__}: {e}"
        run.seconds[page.id] = time.perf_counter() - t0
        if page.id not in run.failed:
            run.predictions[page.id] = text or ""
        if progress and i % 100 == 0:
            print(f"  {ext.name}: {i}/{len(pages)}", file=sys.stderr, flush=True)
    return run


def read_predictions(name: str, directory: Path, pages: list[Page]) -> Run:
    """Read ``<page-id>.txt`` (UTF-8) predictions; a missing file fails its page."""
    run = Run(name, "", f"predictions read from {directory}", {}, {}, {})
    for page in pages:
        f = directory / f"{page.id}.txt"
        if f.exists():
            run.predictions[page.id] = f.read_bytes().decode("utf-8", errors="replace")
        else:
            run.failed[page.id] = "no prediction file"
    return run


def score_run(run: Run, pages: list[Page]) -> dict[str, dict]:
    """Per-page scores of a run (failed pages scored as empty predictions)."""
    scores = {}
    for page in pages:
        s = score_page(run.predictions.get(page.id, ""), page)
        s["status"] = "failed" if page.id in run.failed else "ok"
        if page.id in run.failed:
            s["error"] = run.failed[page.id]
        if page.id in run.seconds:
            s["seconds"] = run.seconds[page.id]
        scores[page.id] = s
    return scores


# --------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------


def format_table(summary: dict) -> str:
    """A Markdown table: page types then overall, N, P, R, F1 and snippet rates."""
    lines = ["| page type | N | precision | recall | F1 | with | without (lower is better) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for t in [*TYPE_ORDER, *sorted(set(summary) - set(TYPE_ORDER) - {"all"}), "all"]:
        if t in summary:
            s = summary[t]
            label = "**overall**" if t == "all" else t
            lines.append(f"| {label} | {s['n']} | {s['precision']:.3f} | {s['recall']:.3f} | "
                         f"{s['f1']:.3f} | {s['with_rate']:.1%} | {s['without_rate']:.1%} |")
    return "\n".join(lines)


def format_comparison(summaries: dict[str, dict], metric: str = "f1") -> str:
    """A Markdown table of one metric per page type (rows) and tool (columns)."""
    tools = list(summaries)
    lines = [f"| {metric} | " + " | ".join(tools) + " |",
             "|---|" + "---:|" * len(tools)]
    for t in [*TYPE_ORDER, "all"]:
        if any(t in s for s in summaries.values()):
            cells = [f"{summaries[k][t][metric]:.3f}" if t in summaries[k] else "-" for k in tools]
            lines.append(f"| {'**overall**' if t == 'all' else t} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def timing_note(run: Run) -> str:
    """Pages/s and MB/s (uncompressed HTML) of a run's extraction calls."""
    total = sum(run.seconds.values())
    if not run.seconds or total <= 0:
        return ""
    return (f"timing: {total:.1f} s in extraction calls, {len(run.seconds) / total:.1f} pages/s, "
            f"{run.html_bytes / total / 1e6:.2f} MB/s of uncompressed HTML")


def cmd_eval(args: argparse.Namespace) -> int:
    """``eval``: run or read every selected tool, score it, print tables."""
    data_dir = Path(args.data).resolve() if args.data else default_cache_dir()
    manifest = check_data_dir(data_dir)
    tools = [t.strip() for t in args.tools.split(",") if t.strip()] if args.tools else []
    if not tools and not args.predictions:
        tools = ["trafilatura", "resiliparse", "htmltok-all", "htmltok-main"]
    need_html = bool(tools)
    pages = load_pages(data_dir, with_html=need_html)
    if args.ids:
        wanted = set(args.ids.split(","))
        pages = [p for p in pages if p.id in wanted]
    if args.limit:
        pages = pages[:args.limit]
    commit = (manifest.get("source") or {}).get("commit")
    print(f"WCXB dev split: {len(pages)} pages from {data_dir} (commit {commit})")

    runs: list[Run] = []
    for name in tools:
        ext = make_extractor(name, args)
        if ext.run is None:
            print(f"\n## {name}: {ext.note}")
            continue
        print(f"\nrunning {name} {ext.version} ...", file=sys.stderr, flush=True)
        runs.append(run_extractor(ext, pages, progress=not args.quiet))
    for spec in args.predictions or []:
        name, _, directory = spec.rpartition("=")
        directory_p = Path(directory)
        runs.append(read_predictions(name or directory_p.name, directory_p, pages))

    summaries: dict[str, dict] = {}
    report: dict = {"benchmark": "WCXB", "split": "dev", "commit": commit,
                    "data_dir": str(data_dir), "tools": {}}
    for run in runs:
        scores = score_run(run, pages)
        summary = summarize(scores)
        summaries[run.name] = summary
        print(f"\n## {run.name} {run.version}".rstrip())
        print(f"{run.note}")
        print(f"{len(pages)} pages, {len(pages) - len(run.failed)} scored, "
              f"{len(run.failed)} failed (failed pages count as empty predictions)")
        if run.failed:
            for pid, err in list(run.failed.items())[:5]:
                print(f"  failed {pid}: {err}")
        tn = timing_note(run)
        if tn:
            print(tn)
        print()
        print(format_table(summary))
        report["tools"][run.name] = {"version": run.version, "how": run.note,
                                     "failed": len(run.failed), "summary": summary,
                                     "pages": scores}
        if args.save_predictions:
            save_predictions(Path(args.save_predictions), run, pages)
    if len(summaries) > 1:
        for metric in ("f1", "precision", "recall"):
            print(f"\n### {metric} by page type\n")
            print(format_comparison(summaries, metric))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
        print(f"\nper-page scores written to {args.json}")
    return 0


def save_predictions(root: Path, run: Run, pages: list[Page]) -> None:
    """Write ``ROOT/TOOL/<id>.txt`` and ``ROOT/TOOL.results.json`` ({id: text}).

    The JSON is the ``--results`` format of the benchmark's evaluate.py, for
    cross-checking; a failed page is left out of both (so it scores as empty).
    """
    d = root / run.name
    d.mkdir(parents=True, exist_ok=True)
    for page in pages:
        if page.id in run.predictions:
            (d / f"{page.id}.txt").write_text(run.predictions[page.id] or "", encoding="utf-8")
    (root / f"{run.name}.results.json").write_text(
        json.dumps({k: v or "" for k, v in run.predictions.items()}, ensure_ascii=False))


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def main(argv: Optional[list[str]] = None) -> int:
    """Parse the command line and run ``layout`` or ``eval``."""
    ap = argparse.ArgumentParser(
        description="WCXB (dev split only) main-content extraction accuracy: "
                    "word precision/recall/F1 per page type, as the benchmark's evaluate.py.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog="examples:" + __doc__.split("Examples::")[1])
    sub = ap.add_subparsers(dest="command", required=True)

    lay = sub.add_parser("layout", help="copy dev/html and dev/ground-truth out of a snapshot")
    lay.add_argument("snapshot", help="the benchmark repository: a bare git dir, a clone or a "
                                      "plain checkout")
    lay.add_argument("--out", help="cache directory (default: target/wcxb/dev under the "
                                   "current repository root)")
    lay.add_argument("--rev", default="HEAD", help="commit to read from a git snapshot "
                                                   "(default HEAD)")
    lay.add_argument("--from-git", action="store_true",
                     help="read a clone's git objects even where it has a work tree")
    lay.add_argument("--expect", type=int, default=EXPECTED_DEV_PAGES,
                     help=f"expected page count (default {EXPECTED_DEV_PAGES})")
    lay.add_argument("--no-type-check", action="store_true",
                     help="do not require the README's per-type counts")
    lay.set_defaults(func=cmd_layout)

    ev = sub.add_parser("eval", help="score extractors or prediction directories")
    ev.add_argument("--data", help="the dev cache written by `layout` (default: "
                                   "target/wcxb/dev under the current repository root)")
    ev.add_argument("--tools", help=f"comma-separated, of {', '.join(KNOWN_TOOLS)} "
                                    "(default: all, unless --predictions is given)")
    ev.add_argument("--predictions", action="append", metavar="[NAME=]DIR",
                    help="score a directory of <page-id>.txt outputs (repeatable)")
    ev.add_argument("--htmltok-bin", metavar="PATH",
                    help="the htmltok command, used when the Python package is not importable")
    ev.add_argument("--json", metavar="OUT", help="write per-page scores of every tool to OUT")
    ev.add_argument("--save-predictions", metavar="DIR",
                    help="write each tool's outputs as DIR/TOOL/<id>.txt and DIR/TOOL.results.json")
    ev.add_argument("--ids", help="comma-separated page ids to evaluate (default: all)")
    ev.add_argument("--limit", type=int, help="evaluate only the first N pages")
    ev.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ev.set_defaults(func=cmd_eval)

    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
