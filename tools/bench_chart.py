#!/usr/bin/env python3
"""Turn benchmark results into the tables and the chart of BENCHMARKS.md.

Reads what `cargo bench --bench throughput` left in target/criterion (per
group and implementation: the median of new/estimates.json, in ns, and the
byte throughput of new/benchmark.json) and, when present, what
`cargo bench --bench instructions -- --save-summary=json` left in target/iai
(instruction counts per page and implementation). Writes a horizontal bar
chart of MB/s per implementation for each corpus page, the aggregate and the
geometric mean (benches/chart.svg), and prints Markdown tables to paste into
BENCHMARKS.md.

Groups named `synth-*` are the synthetic inputs; every other group is a
corpus page. MB/s means 10^6 bytes per second.

    python3 tools/bench_chart.py                      # tables to stdout, chart to benches/chart.svg
    python3 tools/bench_chart.py --svg /tmp/c.svg --no-iai
    python3 tools/bench_chart.py --update BENCHMARKS.md  # also rewrite its generated section

Python 3 standard library only.
"""

import argparse
import datetime
import json
import math
import os
import re
import subprocess
import sys
from xml.sax.saxutils import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Display order, and the colour of each implementation in the chart. Any
# other implementation found in the results is appended in name order.
IMPLS = [
    "htmltok",
    "htmltok_push",
    "htmltok_errors",
    "htmltok_bytes",
    "htmltok_stream64k",
    "html5ever",
    "html5gum",
    "html5gum_minimal",
    "lol_html",
    # Reference floors, not peers. Kept last. token_floor hands out
    # htmltok's tokens with none of the standard's rules; the other two are
    # scans that build no tokens.
    "token_floor",
    "lol_html_scan",
    "memchr_floor",
]
# The reference floors, and what each is, for the chart's legend.
FLOOR_LABELS = {
    "token_floor": "naive tokens, no rules",
    "lol_html_scan": "no tokens",
    "memchr_floor": "no tokens",
}
FLOORS = set(FLOOR_LABELS)
COLORS = {
    "htmltok": "#1f6feb",
    "htmltok_push": "#003fb3",
    "htmltok_errors": "#79a8f5",
    "htmltok_bytes": "#0b3d91",
    "htmltok_stream64k": "#4a90d9",
    "html5ever": "#d9534f",
    "html5gum": "#f0ad4e",
    "html5gum_minimal": "#c98a12",
    "lol_html": "#5cb85c",
    "token_floor": "#d3d8d3",
    "lol_html_scan": "#b4bcb4",
    "memchr_floor": "#8a8a8a",
}
EXTRA_COLORS = ["#8e44ad", "#16a085", "#7f8c8d", "#2c3e50"]
BASE = "htmltok"


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def read_criterion(crit_dir):
    """{group: {impl: (median_ns, bytes)}} and the oldest/newest mtimes."""
    results = {}
    mtimes = []
    if not os.path.isdir(crit_dir):
        return results, mtimes
    for group in sorted(os.listdir(crit_dir)):
        gdir = os.path.join(crit_dir, group)
        if not os.path.isdir(gdir) or group == "report":
            continue
        for impl in sorted(os.listdir(gdir)):
            new = os.path.join(gdir, impl, "new")
            est_path = os.path.join(new, "estimates.json")
            bench_path = os.path.join(new, "benchmark.json")
            if not (os.path.isfile(est_path) and os.path.isfile(bench_path)):
                continue
            est = load_json(est_path)
            bench = load_json(bench_path)
            tp = bench.get("throughput") or {}
            nbytes = tp.get("Bytes") or tp.get("BytesDecimal")
            if not nbytes:
                continue
            # Criterion's directory names are sanitized; the ids are exact.
            gid = bench.get("group_id", group)
            fid = bench.get("function_id") or impl
            results.setdefault(gid, {})[fid] = (est["median"]["point_estimate"], nbytes)
            mtimes.append(os.path.getmtime(est_path))
    return results, mtimes


def read_iai(iai_dir, mtimes=None):
    """{page: {impl: instructions}} from iai-callgrind's summary.json files
    (their modification times appended to `mtimes`)."""
    out = {}
    if not os.path.isdir(iai_dir):
        return out
    for dirpath, _dirs, files in os.walk(iai_dir):
        if "summary.json" not in files:
            continue
        path = os.path.join(dirpath, "summary.json")
        summary = load_json(path)
        if mtimes is not None:
            mtimes.append(os.path.getmtime(path))
        impl = summary.get("function_name")
        page = summary.get("id")
        if not (impl and page):  # older layouts: the directory is "<impl>.<page>"
            impl, _, page = os.path.basename(dirpath).partition(".")
        ir = find_instructions(summary)
        if ir is not None and page:
            out.setdefault(page, {})[impl] = ir
    return out


def find_instructions(summary):
    """The callgrind `Ir` (instructions) of the new run in a summary.json.

    The schema nests the metrics a few levels deep and changes between
    iai-callgrind versions, so look for the first mapping with an "Ir" key
    whose value holds the new run's count."""

    def metric_value(v):
        # {"Both": [{"Int": new}, {"Int": old}]} / {"Left": {"Int": new}} / {"Int": n}
        if isinstance(v, (int, float)):
            return v
        if isinstance(v, dict):
            for key in ("Both", "Left", "Int", "Float"):
                if key in v:
                    inner = v[key]
                    if isinstance(inner, list):
                        inner = inner[0]
                    return metric_value(inner)
            if "metrics" in v:
                return metric_value(v["metrics"])
        if isinstance(v, list) and v:
            return metric_value(v[0])
        return None

    try:
        total = summary["profiles"][0]["summaries"]["total"]["summary"]["Callgrind"]["Ir"]
        val = metric_value(total)
        if val is not None:
            return int(val)
    except (KeyError, IndexError, TypeError):
        pass
    stack = [summary]
    while stack:
        node = stack.pop(0)
        if isinstance(node, dict):
            if "Ir" in node:
                val = metric_value(node["Ir"])
                if val is not None:
                    return int(val)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


MARK_START = "<!-- bench-tables:start (generated by tools/bench_chart.py --update; do not edit) -->"
MARK_END = "<!-- bench-tables:end -->"
PEERS = ["html5ever", "html5gum", "lol_html", "criterion", "iai-callgrind"]


def run(cmd):
    try:
        return subprocess.run(
            cmd, cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        return ""


def locked_versions():
    """{crate: version} for the peers, from Cargo.lock."""
    out = {}
    try:
        with open(os.path.join(ROOT, "Cargo.lock"), encoding="utf-8") as f:
            lock = f.read()
    except OSError:
        return out
    for m in re.finditer(r'name = "([^"]+)"\nversion = "([^"]+)"', lock):
        if m.group(1) in PEERS:
            out[m.group(1)] = m.group(2)
    return out


def utc(ts):
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def environment(mtimes, iai_mtimes):
    """A Markdown list: when, what and where the numbers were measured."""
    when = utc(max(mtimes)) if mtimes else "?"
    if iai_mtimes:
        when += f" (throughput), {utc(max(iai_mtimes))} (instructions)"
    # tools/bench.sh records the commit before building ("+": uncommitted
    # changes to src/); otherwise take it now.
    commit = os.environ.get("HTMLTOK_BENCH_COMMIT", "")
    if commit:
        dirty = commit.endswith("+")
        commit = commit.rstrip("+")
    else:
        commit = run(["git", "rev-parse", "--short", "HEAD"]) or "?"
        dirty = commit != "?" and subprocess.run(
            ["git", "diff", "--quiet", "HEAD", "--", "src"], cwd=ROOT, check=False
        ).returncode != 0
    model = ""
    for line in run(["lscpu"]).splitlines():
        if line.startswith("Model name:"):
            model = line.split(":", 1)[1].strip()
    cores = run(["nproc"]) or "?"
    rustc = run(["rustc", "--version"]) or "?"
    vers = locked_versions()
    peers = ", ".join(f"{k} {vers[k]}" for k in PEERS if k in vers)
    return "\n".join(
        [
            f"- measured: {when}; htmltok commit `{commit}`"
            + (" plus uncommitted changes to `src/`" if dirty else ""),
            f"- machine: {model or '?'}, {cores} cores; {rustc}"
            + (
                f"; load average {os.environ['HTMLTOK_BENCH_LOAD']} when the run started"
                if os.environ.get("HTMLTOK_BENCH_LOAD")
                else ""
            ),
            f"- crates: {peers}",
        ]
    )


def update_file(path, text):
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    start, end = doc.find(MARK_START), doc.find(MARK_END)
    if start < 0 or end < start:
        sys.exit(f"{path}: markers not found; add\n{MARK_START}\n{MARK_END}")
    doc = doc[: start + len(MARK_START)] + "\n\n" + text.strip() + "\n\n" + doc[end:]
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc)


def order_impls(found):
    known = [i for i in IMPLS if i in found]
    return known + sorted(i for i in found if i not in IMPLS)


def mbps(ns, nbytes):
    return nbytes / ns * 1e3  # bytes/ns * 1e9 / 1e6


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def fmt_rate(x):
    if x != x:  # NaN
        return "–"
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def fmt_ratio(x):
    return "–" if x != x else f"{x:.2f}×"


def summarize(groups, results, impls):
    """Per-page MB/s, aggregate (total bytes / total time) and per-page
    geomean, each {impl: MB/s}; an implementation missing on some page gets
    no aggregate/geomean."""
    rates = {g: {i: mbps(*results[g][i]) for i in impls if i in results[g]} for g in groups}
    agg, geo = {}, {}
    for i in impls:
        if all(i in results[g] for g in groups) and groups:
            total_b = sum(results[g][i][1] for g in groups)
            total_ns = sum(results[g][i][0] for g in groups)
            agg[i] = mbps(total_ns, total_b)
            geo[i] = geomean([rates[g][i] for g in groups])
    return rates, agg, geo


def floor_note(impls):
    """The line under a table that says which of its columns are reference
    floors, or None when it has none."""
    notes = []
    if "token_floor" in impls:
        notes.append(
            "`token_floor` is a reference floor, not a peer: a naive splitter that"
            " hands out htmltok's tokens with none of the standard's rules."
        )
    scans = [f"`{i}`" for i in impls if i in FLOORS and i != "token_floor"]
    if len(scans) > 1:
        notes.append(
            " and ".join(scans) + " are reference floors, not peers: scans that build no tokens."
        )
    elif scans:
        notes.append(f"{scans[0]} is a reference floor, not a peer: a scan that builds no tokens.")
    if "memchr_floor" in impls:
        notes.append("No tokenizer that finds its tags can do less than `memchr_floor`.")
    return " ".join(notes) or None


def rate_table(title, groups, results, impls):
    rates, agg, geo = summarize(groups, results, impls)
    lines = [f"**{title}** (MB/s, median of the criterion samples; higher is better)", ""]
    lines.append("| input | bytes | " + " | ".join(f"`{i}`" for i in impls) + " |")
    lines.append("|---|--:|" + "--:|" * len(impls))
    for g in groups:
        nbytes = next(iter(results[g].values()))[1]
        cells = [fmt_rate(rates[g].get(i, float("nan"))) for i in impls]
        lines.append(f"| {g} | {nbytes:,} | " + " | ".join(cells) + " |")
    if len(groups) > 1:
        total = sum(next(iter(results[g].values()))[1] for g in groups)
        lines.append(
            f"| **aggregate** (total bytes / total time) | {total:,} | "
            + " | ".join(fmt_rate(agg.get(i, float("nan"))) for i in impls)
            + " |"
        )
        lines.append(
            "| **geometric mean** of the per-input MB/s | | "
            + " | ".join(fmt_rate(geo.get(i, float("nan"))) for i in impls)
            + " |"
        )
        if BASE in impls:
            for label, d in (("aggregate", agg), ("geomean", geo)):
                cells = [
                    fmt_ratio(d[BASE] / d[i]) if BASE in d and i in d else "–" for i in impls
                ]
                lines.append(f"| `{BASE}` ÷ this, {label} | | " + " | ".join(cells) + " |")
    elif BASE in impls:
        r = rates[groups[0]]
        cells = [fmt_ratio(r[BASE] / r[i]) if BASE in r and i in r else "–" for i in impls]
        lines.append(f"| `{BASE}` ÷ this | | " + " | ".join(cells) + " |")
    note = floor_note(impls)
    if note:
        lines += ["", note]
    return "\n".join(lines), rates, agg, geo


def iai_table(iai, sizes, impls):
    pages = sorted(p for p in iai if p in sizes)
    if not pages:
        return None
    impls = [i for i in impls if any(i in iai[p] for p in pages)] or order_impls(
        {i for p in pages for i in iai[p]}
    )
    lines = [
        "**Instructions per byte** (callgrind, one run over the page, setup not counted; lower is better)",
        "",
        "| page | bytes | " + " | ".join(f"`{i}`" for i in impls) + " |",
        "|---|--:|" + "--:|" * len(impls),
    ]
    for p in pages:
        cells = [f"{iai[p][i] / sizes[p]:.1f}" if i in iai[p] else "–" for i in impls]
        lines.append(f"| {p} | {sizes[p]:,} | " + " | ".join(cells) + " |")
    total_b = sum(sizes[p] for p in pages)
    overall = {}
    for i in impls:
        if all(i in iai[p] for p in pages):
            overall[i] = sum(iai[p][i] for p in pages) / total_b
    lines.append(
        f"| **overall** (total instructions / total bytes) | {total_b:,} | "
        + " | ".join(f"{overall[i]:.1f}" if i in overall else "–" for i in impls)
        + " |"
    )
    if BASE in overall:
        lines.append(
            f"| this ÷ `{BASE}`, overall | | "
            + " | ".join(fmt_ratio(overall[i] / overall[BASE]) if i in overall else "–" for i in impls)
            + " |"
        )
    note = floor_note(impls)
    if note:
        lines += ["", note]
    total_ir = {i: sum(iai[p][i] for p in pages) for i in overall}
    lines.append("")
    lines.append(
        "Total instructions over the pages: "
        + ", ".join(f"`{i}` {total_ir[i]:,}" for i in impls if i in total_ir)
        + "."
    )
    return "\n".join(lines)


def svg_chart(groups, rates, agg, geo, impls, title):
    rows = [(g, rates[g]) for g in groups]
    rows.append(("aggregate", agg))
    rows.append(("geomean", geo))
    colors = dict(COLORS)
    for k, i in enumerate(i for i in impls if i not in colors):
        colors[i] = EXTRA_COLORS[k % len(EXTRA_COLORS)]

    label_w, bar_w, value_w = 170, 560, 90
    bar_h, bar_gap, group_gap = 13, 2, 14
    top, legend_h = 54, 22 * ((len(impls) + 2) // 3)
    width = label_w + bar_w + value_w + 20
    group_h = len(impls) * (bar_h + bar_gap) - bar_gap
    body_top = top + legend_h + 10
    height = body_top + len(rows) * (group_h + group_gap) + 30

    # The axis is scaled to the tokenizers; a floor far beyond them (memchr
    # on a page with few tags) is cut at the axis with its value beside it.
    values = [v for _, d in rows for i, v in d.items() if i not in FLOORS]
    vmax = max((values or [v for _, d in rows for v in d.values()]) + [1.0])
    # A round axis maximum.
    mag = 10 ** math.floor(math.log10(vmax))
    axis_max = next(m * mag for m in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10) if m * mag >= vmax)

    cut_any = any(v > axis_max for _, d in rows for v in d.values())
    subtitle = "; » a floor beyond the axis" if cut_any else ""

    def x_of(v):
        return label_w + bar_w * v / axis_max

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="-apple-system,Segoe UI,Helvetica,Arial,sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">{escape(title)}</text>',
        f'<text x="{width / 2}" y="40" text-anchor="middle" fill="#555">MB/s (10^6 bytes/s), median; higher is better{subtitle}</text>',
    ]
    for k, i in enumerate(impls):
        lx = 20 + (k % 3) * ((width - 40) / 3)
        ly = top + 22 * (k // 3)
        label = f"{i} (floor: {FLOOR_LABELS[i]})" if i in FLOORS else i
        out.append(f'<rect x="{lx:.0f}" y="{ly}" width="12" height="12" fill="{colors[i]}"/>')
        out.append(f'<text x="{lx + 17:.0f}" y="{ly + 10}">{escape(label)}</text>')
    # Grid.
    steps = 5
    axis_y = body_top + len(rows) * (group_h + group_gap)
    for s in range(steps + 1):
        v = axis_max * s / steps
        x = x_of(v)
        out.append(
            f'<line x1="{x:.1f}" y1="{body_top - 4}" x2="{x:.1f}" y2="{axis_y - group_gap + 4}" stroke="#e3e3e3"/>'
        )
        out.append(f'<text x="{x:.1f}" y="{axis_y + 6}" text-anchor="middle" fill="#555">{v:,.0f}</text>')
    y = body_top
    for k, (name, d) in enumerate(rows):
        if k == len(groups):
            out.append(
                f'<line x1="10" y1="{y - group_gap / 2:.0f}" x2="{width - 10}" y2="{y - group_gap / 2:.0f}" stroke="#999"/>'
            )
        weight = ' font-weight="bold"' if k >= len(groups) else ""
        out.append(
            f'<text x="{label_w - 8}" y="{y + group_h / 2 + 4:.0f}" text-anchor="end"{weight}>{escape(name)}</text>'
        )
        for j, i in enumerate(impls):
            by = y + j * (bar_h + bar_gap)
            v = d.get(i)
            if v is None:
                continue
            cut = v > axis_max
            w = max(bar_w * min(v, axis_max) / axis_max, 1)
            out.append(
                f'<rect x="{label_w}" y="{by}" width="{w:.1f}" height="{bar_h}" fill="{colors[i]}"><title>{escape(i)}: {v:,.1f} MB/s</title></rect>'
            )
            if cut:  # a break mark near the end of the bar
                bx = label_w + w - 12
                out.append(
                    f'<path d="M{bx:.1f} {by + bar_h} l4 -{bar_h} M{bx + 4:.1f} {by + bar_h} l4 -{bar_h}" stroke="#fff" stroke-width="2"/>'
                )
            out.append(
                f'<text x="{label_w + w + 4:.1f}" y="{by + bar_h - 2}" font-size="10.5" fill="#333">{"» " if cut else ""}{fmt_rate(v)}</text>'
            )
        y += group_h + group_gap
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--criterion-dir", default=os.path.join(ROOT, "target", "criterion"))
    ap.add_argument("--iai-dir", default=os.path.join(ROOT, "target", "iai"))
    ap.add_argument(
        "--corpus-dir",
        default=os.environ.get("HTMLTOK_CORPUS_DIR") or os.path.join(ROOT, "..", "shared", "corpus"),
        help="page sizes for the iai table when criterion has none",
    )
    ap.add_argument("--svg", default=os.path.join(ROOT, "benches", "chart.svg"))
    ap.add_argument("--no-svg", action="store_true", help="don't write the chart")
    ap.add_argument("--no-iai", action="store_true", help="skip the instruction-count table")
    ap.add_argument(
        "--update",
        metavar="FILE",
        help="also replace the generated section of FILE (e.g. BENCHMARKS.md) between its markers",
    )
    args = ap.parse_args()

    results, mtimes = read_criterion(args.criterion_dir)
    if not results:
        sys.exit(f"no criterion results under {args.criterion_dir}: run `cargo bench --bench throughput` first")
    if mtimes and max(mtimes) - min(mtimes) > 3 * 3600:
        print(
            "warning: the criterion results span more than 3 hours; some may be stale "
            "(run the whole bench, or remove target/criterion first)",
            file=sys.stderr,
        )

    impls = order_impls({i for g in results.values() for i in g})
    corpus = [g for g in sorted(results) if not g.startswith("synth-")]
    synth = [g for g in sorted(results) if g.startswith("synth-")]
    iai_mtimes = []
    iai = {} if args.no_iai else read_iai(args.iai_dir, iai_mtimes)
    parts = [environment(mtimes, iai_mtimes)]

    if corpus:
        table, rates, agg, geo = rate_table("Corpus pages", corpus, results, impls)
        parts.append(table)
        if not args.no_svg:
            svg = svg_chart(corpus, rates, agg, geo, impls, "HTML tokenizer throughput on real pages")
            os.makedirs(os.path.dirname(os.path.abspath(args.svg)), exist_ok=True)
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(svg)
            print(f"(chart written to {os.path.relpath(args.svg, ROOT)})", file=sys.stderr)
    if synth:
        table, *_ = rate_table("Synthetic inputs", synth, results, impls)
        parts.append(table)

    if not args.no_iai:
        sizes = {g: next(iter(results[g].values()))[1] for g in corpus}
        corpus_dir = args.corpus_dir
        if os.path.isdir(corpus_dir):
            for name in os.listdir(corpus_dir):
                if name.endswith(".html"):
                    sizes.setdefault(name[:-5], os.path.getsize(os.path.join(corpus_dir, name)))
        table = iai_table(iai, sizes, impls) if iai else None
        if table:
            parts.append(table)
        else:
            print(
                f"(no iai summaries under {args.iai_dir}: run "
                "`cargo bench --bench instructions -- --save-summary=json`)",
                file=sys.stderr,
            )

    text = "\n\n".join(parts) + "\n"
    print(text)
    if args.update:
        update_file(args.update, text)
        print(f"(tables updated in {os.path.relpath(args.update, ROOT)})", file=sys.stderr)


if __name__ == "__main__":
    main()
