#!/usr/bin/env python3
"""Trains htmltok's main-content model on the dev split of WCXB.

    python3 tools/wcxb.py layout SNAPSHOT          # lays the dev split out in target/wcxb/dev (once)
    cargo build --release --example blocks
    python3 tools/main_content_train.py            # cross-validates, trains, writes the model
    python3 tools/main_content.py generate         # tools/main_content_model.json -> model.rs

Data: the dev split of WCXB, the Web Content Extraction Benchmark
(github.com/Murrough-Foley/web-content-extraction-benchmark, CC-BY-4.0):
1,497 pages of 7 page types, each with its main content as plain text.
Only dev/ is read; the test split is held out and never opened.

What it does:

1. Runs `examples/blocks` over every page: the blocks htmltok cuts the page
   into, with the features the model sees (src/extract/main_content/
   features.rs computes them; this script never computes a feature itself).
2. Labels each block with how much of it is in the page's ground truth:
   the share of its word 3-grams found in the ground truth's (words as
   WCXB's evaluate.py splits them: `\\w+`, lowercased); a block of one or two
   words, by whether its words are in the ground truth and its neighbours
   are labelled content.
3. Cross-validates (K folds of pages, stratified by page type): a logistic
   regression on the blocks of K-1 folds, weighted by words, scores the
   blocks of the held fold; the selection pass (select.rs, written again
   here as `select`) picks blocks with each candidate setting of its three
   numbers; the setting with the best mean word F1 over the out-of-fold
   pages wins. The F1 of every fold, per page type, is printed and saved.
4. Trains on all pages with the regularisation the folds chose and writes
   tools/main_content_model.json (weights, intercept, selection numbers,
   and what it was trained on and how the folds scored).

Needs numpy and scikit-learn (`python3 -m venv /tmp/train && /tmp/train/bin/pip
install numpy scikit-learn`).
"""

import argparse
import collections
import gzip
import json
import math
import pathlib
import random
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODEL_JSON = ROOT / "tools" / "main_content_model.json"
WORD = re.compile(r"\w+")


def words(text):
    """The words of `text` as WCXB's evaluate.py counts them."""
    return WORD.findall(text.lower())


def word_prf(predicted, reference):
    """Word precision, recall and F1 as WCXB's evaluate.py computes them."""
    pred, ref = words(predicted), words(reference)
    if not ref:
        return (1.0, 1.0, 1.0) if not pred else (0.0, 0.0, 0.0)
    if not pred:
        return (0.0, 0.0, 0.0)
    overlap = sum((collections.Counter(pred) & collections.Counter(ref)).values())
    p, r = overlap / len(pred), overlap / len(ref)
    return (p, r, 2 * p * r / (p + r) if p + r else 0.0)


def load_pages(data_dir, blocks_file, blocks_bin):
    """The dev pages: id, page type, ground truth text, and blocks (page
    types and ground truth read as tools/wcxb.py reads them)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import wcxb

    dev = {p.id: p for p in wcxb.load_pages(data_dir, with_html=False)}
    ids = sorted(dev)
    if blocks_file and pathlib.Path(blocks_file).exists():
        lines = pathlib.Path(blocks_file).read_text().split("\n")
    else:
        files = [str(data_dir / "html" / f"{i}.html.gz") for i in ids]
        out = subprocess.run([blocks_bin, *files], check=True, capture_output=True, text=True).stdout
        lines = out.split("\n")
        if blocks_file:
            pathlib.Path(blocks_file).write_text(out)
    pages = []
    for line in lines:
        if not line:
            continue
        page = json.loads(line)
        i = pathlib.Path(page["file"]).name.split(".")[0]
        pages.append({
            "id": i,
            "type": dev[i].page_type,
            "truth": dev[i].reference,
            "blocks": page["blocks"],
        })
    return pages


def shingles(ws, n=3):
    return {tuple(ws[k:k + n]) for k in range(len(ws) - n + 1)}


def label(page):
    """How much of each block is in the ground truth, 0 to 1."""
    gt = words(page["truth"])
    gt_set = set(gt)
    gt_sh = shingles(gt)
    blocks = page["blocks"]
    raw = []
    for b in blocks:
        ws = words(b["text"])
        if len(ws) >= 3:
            sh = [tuple(ws[k:k + 3]) for k in range(len(ws) - 2)]
            raw.append(sum(s in gt_sh for s in sh) / len(sh))
        elif ws:
            raw.append(None if all(w in gt_set for w in ws) else 0.0)
        else:
            raw.append(0.0)
    # A short block whose words are all in the ground truth is content
    # when a neighbour is.
    out = []
    for k, r in enumerate(raw):
        if r is None:
            near = [raw[j] for j in (k - 1, k + 1) if 0 <= j < len(raw) and raw[j] is not None]
            r = 1.0 if any(x >= 0.5 for x in near) else 0.0
        out.append(r)
    return out


def select(scores, nwords, threshold, switch_cost, words_bias):
    """select.rs's keep(), written again: which blocks to keep."""
    n = len(scores)
    if n == 0:
        return []
    def gain(i):
        p = 1.0 / (1.0 + math.exp(-max(min(scores[i], 50.0), -50.0)))
        return (p - threshold) * (nwords[i] + words_bias)
    frm = [(0, 0)] * n
    best = [0.0, gain(0) - switch_cost]
    for i in range(1, n):
        g = gain(i)
        ds, dw = best[0], best[1] - switch_cost
        ks, kw = best[1] + g, best[0] - switch_cost + g
        d, df = (ds, 0) if ds >= dw else (dw, 1)
        k, kf = (ks, 1) if ks >= kw else (kw, 0)
        best = [d, k]
        frm[i] = (df, kf)
    state = 1 if best[1] - switch_cost > best[0] else 0
    keep = [False] * n
    for i in range(n - 1, -1, -1):
        keep[i] = state == 1
        state = frm[i][state]
    return keep


def page_text(page, keep):
    """The text htmltok gives for `keep` (all the text when nothing is kept)."""
    blocks = page["blocks"]
    if not any(keep):
        return "\n".join(b["text"] for b in blocks)
    return "\n".join(b["text"] for b, k in zip(blocks, keep) if k)


def folds_of(pages, k, seed):
    """Page indices in k folds, stratified by page type."""
    by_type = collections.defaultdict(list)
    for i, p in enumerate(pages):
        by_type[p["type"]].append(i)
    rng = random.Random(seed)
    folds = [[] for _ in range(k)]
    for t in sorted(by_type):
        idx = by_type[t]
        rng.shuffle(idx)
        for j, i in enumerate(idx):
            folds[j % k].append(i)
    return folds


def matrix(pages, idx, np):
    X, y, w = [], [], []
    for i in idx:
        labels = pages[i]["labels"]
        for b, lab in zip(pages[i]["blocks"], labels):
            X.append(b["features"])
            y.append(1 if lab >= 0.5 else 0)
            w.append(1.0 + len(words(b["text"])))
    return np.array(X, dtype=np.float64), np.array(y), np.array(w)


def fit(X, y, w, c):
    from sklearn.linear_model import LogisticRegression
    model = LogisticRegression(C=c, max_iter=3000)
    # Weights by words, capped so that one huge block does not decide a page.
    model.fit(X, y, sample_weight=np.minimum(w, 200.0))
    return model


def prepare(page):
    """What scoring a page needs, worked out once: each block's words as
    counts over the page's vocabulary (a sparse matrix), the ground
    truth's counts, and each block's number of words."""
    from scipy.sparse import csr_matrix
    vocab = {}
    rows, cols = [], []
    nwords = []
    for k, b in enumerate(page["blocks"]):
        ws = words(b["text"])
        nwords.append(len(ws))
        for w in ws:
            rows.append(k)
            cols.append(vocab.setdefault(w, len(vocab)))
    ref = collections.Counter(words(page["truth"]))
    for w in ref:
        vocab.setdefault(w, len(vocab))
    m = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(page["blocks"]), len(vocab)))
    ref_counts = np.zeros(len(vocab))
    for w, n in ref.items():
        ref_counts[vocab[w]] = n
    page["matrix"], page["ref"], page["nwords"] = m, ref_counts, nwords


def prf_of_keep(page, keep):
    """Word P/R/F1 of the text `keep` gives, as WCXB's evaluate.py computes it."""
    if not any(keep):
        keep = [True] * len(keep)  # nothing kept: all the text
    pred = page["matrix"].T @ np.array(keep, dtype=np.float64) if keep else np.zeros(len(page["ref"]))
    ref = page["ref"]
    npred, nref = pred.sum(), ref.sum()
    if nref == 0:
        return (1.0, 1.0, 1.0) if npred == 0 else (0.0, 0.0, 0.0)
    if npred == 0:
        return (0.0, 0.0, 0.0)
    overlap = np.minimum(pred, ref).sum()
    p, r = overlap / npred, overlap / nref
    return (p, r, 2 * p * r / (p + r) if p + r else 0.0)


def evaluate(pages, idx, scores_of, params):
    """Mean word P/R/F1 of pages `idx`, overall and per type."""
    per_type = collections.defaultdict(list)
    every = []
    for i in idx:
        p = pages[i]
        keep = select(scores_of[i], p["nwords"], *params)
        prf = prf_of_keep(p, keep)
        per_type[p["type"]].append(prf)
        every.append(prf)
    mean = lambda xs: tuple(sum(x[j] for x in xs) / len(xs) for j in range(3))
    return mean(every), {t: (mean(v), len(v)) for t, v in sorted(per_type.items())}


PARAM_GRID = [
    (t, s, b)
    for t in (0.35, 0.4, 0.45, 0.5)
    for s in (0.25, 0.5, 1.0, 2.0, 4.0)
    for b in (3.0,)
]


def main():
    global np
    import numpy as np  # noqa: F811
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wcxb", default=str(ROOT / "target" / "wcxb" / "dev"), help="the dev split as tools/wcxb.py lays it out")
    parser.add_argument("--blocks", help="cache of the blocks dump (read if it exists, else written)")
    parser.add_argument("--blocks-bin", default=str(ROOT / "target" / "release" / "examples" / "blocks"))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--c", type=float, nargs="+", default=[0.1, 1.0])
    parser.add_argument("--no-write", action="store_true", help="report the folds, write nothing")
    args = parser.parse_args()

    pages = load_pages(pathlib.Path(args.wcxb), args.blocks, args.blocks_bin)
    names = json.loads(subprocess.run([args.blocks_bin, "--names"], check=True, capture_output=True, text=True).stdout)
    for p in pages:
        p["labels"] = label(p)
        prepare(p)
    print(f"{len(pages)} pages, {sum(len(p['blocks']) for p in pages)} blocks", file=sys.stderr)

    folds = folds_of(pages, args.folds, args.seed)
    best = None
    for c in args.c:
        oof = {}
        for k, held in enumerate(folds):
            train = [i for j, f in enumerate(folds) if j != k for i in f]
            X, y, w = matrix(pages, train, np)
            model = fit(X, y, w, c)
            for i in held:
                Xi = np.array([b["features"] for b in pages[i]["blocks"]], dtype=np.float64)
                oof[i] = list(model.decision_function(Xi)) if len(Xi) else []
        every = list(range(len(pages)))
        for params in PARAM_GRID:
            (p, r, f1), _ = evaluate(pages, every, oof, params)
            if best is None or f1 > best[0]:
                best = (f1, c, params, oof)
        print(f"C={c}: best out-of-fold F1 so far {best[0]:.4f} with {best[2]}", file=sys.stderr)

    f1, c, params, oof = best
    report = {"folds": [], "per_type": {}, "overall": None}
    for k, held in enumerate(folds):
        (p, r, f), _ = evaluate(pages, held, oof, params)
        report["folds"].append({"pages": len(held), "precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)})
    (p, r, f), per_type = evaluate(pages, list(range(len(pages))), oof, params)
    report["overall"] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)}
    for t, ((tp, tr, tf), n) in per_type.items():
        report["per_type"][t] = {"pages": n, "precision": round(tp, 4), "recall": round(tr, 4), "f1": round(tf, 4)}
    print(json.dumps(report, indent=1))
    if args.no_write:
        return 0

    X, y, w = matrix(pages, list(range(len(pages))), np)
    model = fit(X, y, w, c)
    out = {
        "about": (
            "Logistic regression over htmltok's block features, trained by tools/main_content_train.py on the dev "
            "split of WCXB (github.com/Murrough-Foley/web-content-extraction-benchmark, CC-BY-4.0; test split held "
            f"out). {args.folds}-fold cross-validation by page (stratified by page type, seed {args.seed}); "
            f"C={c} and the selection numbers chosen on the out-of-fold F1."
        ),
        "cross_validation": report,
        "bias": float(model.intercept_[0]),
        "threshold": params[0],
        "switch_cost": params[1],
        "words_bias": params[2],
        "names": names,
        "weights": [float(x) for x in model.coef_[0]],
    }
    MODEL_JSON.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {MODEL_JSON.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
