"""The Dask distributed example (python/examples/dask_warc.py) on a
LocalCluster of two worker processes, over the corpus pages as a WARC.gz
and the warcio fixtures: its outputs equal the single-process run's
record for record, and damaged records are reported, not dropped."""

import gzip
import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, WARC_FIXTURES, corpus_pages

EXAMPLE = REPO / "python" / "examples" / "dask_warc.py"


def write_corpus_warc(path):
    """The corpus pages as `response` records, one gzip member each."""
    with open(path, "wb") as out:
        for i, page in enumerate(corpus_pages()):
            body = page.read_bytes()
            http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(body) + body
            head = (
                "WARC/1.0\r\nWARC-Type: response\r\n"
                f"WARC-Target-URI: https://example.com/{page.name}\r\n"
                f"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{i:012d}>\r\n"
                "WARC-Date: 2026-11-26T00:00:00Z\r\n"
                "Content-Type: application/http; msgtype=response\r\n"
                f"Content-Length: {len(http)}\r\n\r\n"
            ).encode()
            out.write(gzip.compress(head + http + b"\r\n\r\n", mtime=0))


def read_rows(directory):
    return {name: [json.loads(l) for l in (directory / name).read_text().splitlines()]
            for name in sorted(os.listdir(directory))}


def test_dask_local_cluster_equals_a_single_process(tmp_path):
    pytest.importorskip("dask.distributed")
    archives = tmp_path / "in"
    archives.mkdir()
    write_corpus_warc(archives / "corpus.warc.gz")
    for name in ["good.warc.gz", "good-whole.warc.gz", "bad-records.warc"]:
        shutil.copy(WARC_FIXTURES / name, archives / name)
    inputs = sorted(str(p) for p in archives.iterdir())

    def run(out, *extra):
        return subprocess.run([sys.executable, str(EXAMPLE), str(out), *inputs, *extra],
                              capture_output=True, text=True, timeout=600)

    dask = run(tmp_path / "dask", "--workers", "2")
    single = run(tmp_path / "single", "--single")
    # bad-records.warc has three damaged records: reported, exit status 1.
    for result in (dask, single):
        assert result.returncode == 1, result.stderr
        assert result.stderr.count("htmltok: ") == 3, result.stderr
        assert "no WARC-Target-URI in a response or resource record" in result.stderr
    got, want = read_rows(tmp_path / "dask"), read_rows(tmp_path / "single")
    assert sorted(got) == ["bad-records.jsonl", "corpus.jsonl", "good-whole.jsonl", "good.jsonl"]
    assert got == want
    assert len(got["corpus.jsonl"]) == len(corpus_pages())
    assert len(got["good.jsonl"]) == 9 and len(got["bad-records.jsonl"]) == 4
    assert all(row["text"] for row in got["corpus.jsonl"])
    summaries = [json.loads(l) for l in dask.stdout.splitlines()]
    assert sum(s["written"] for s in summaries) == sum(len(v) for v in got.values())
