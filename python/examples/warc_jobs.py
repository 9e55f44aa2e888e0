"""What one worker does with one archive, shared by the Dask and Spark
examples (and shipped to their workers: `Client.upload_file`,
`SparkContext.addPyFile`).

One archive in, one JSON Lines file out: a line per HTML record with the
record's metadata and its text, links and metadata. Damaged records are
counted and listed in the returned summary, never dropped silently."""

import json
import os
import sys

import htmltok


def output_name(archive):
    """The output file of `archive`: its base name with `.jsonl`."""
    base = os.path.basename(archive)
    for ext in (".gz", ".warc"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    return base + ".jsonl"


def rows(archive):
    """The results of the HTML records of `archive`, in archive order, and
    the iterator (for its counts and errors once exhausted)."""
    records = htmltok.warc_records(archive, on_error="ignore")

    def generate():
        for record in records:
            row = {
                "archive": os.path.basename(archive),
                "number": record.number,
                "offset": record.offset,
                "uri": record.target_uri,
                "record_id": record.record_id,
                "date": record.date,
                "status": record.status,
            }
            row.update(record.extract())
            yield row

    return generate(), records


def process_archive(archive, out_dir):
    """Writes `out_dir/<archive>.jsonl` and returns a summary: records
    written, the archive's counts, and its errors as `record N (offset
    O): ...` lines."""
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, output_name(archive))
    generated, records = rows(archive)
    n = 0
    with open(out + ".part", "w", encoding="utf-8") as f:
        for row in generated:
            f.write(json.dumps(row))
            f.write("\n")
            n += 1
    os.replace(out + ".part", out)
    return {
        "archive": archive,
        "output": out,
        "written": n,
        "counts": records.counts,
        "errors": [str(e) for e in records.errors],
    }


def report(summaries):
    """Prints a JSON line per archive and its errors (`htmltok: ...` on
    standard error); returns the exit status: 1 if any archive had damaged
    records."""
    failed = False
    for s in summaries:
        print(json.dumps({k: s[k] for k in ("archive", "output", "written", "counts")}))
        for e in s["errors"]:
            print(f"htmltok: {e}", file=sys.stderr)
            failed = True
    return 1 if failed else 0
