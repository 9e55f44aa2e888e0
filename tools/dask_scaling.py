#!/usr/bin/env python3
"""Dask with two workers against one, on the same archives (issue 16's
target: at least 1.6x). The job is python/examples/warc_jobs.py's
`process_archive` (every HTML record's text, links and metadata, written
as JSON Lines), as the Dask example runs it.

Each cluster (a LocalCluster of 1 and of 2 worker processes, one thread
each) is started once and warmed up with one untimed pass; then the
rounds alternate between them, each timing `client.map` over the archives
to `client.gather` (cluster start-up left out: it is paid once per job,
not per archive). Medians of ``--runs`` rounds.

    target/python-venv/bin/python tools/dask_scaling.py ARCHIVE ARCHIVE --runs 5
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "python" / "examples"))
sys.path.insert(0, str(REPO / "tools"))
import warc_jobs  # noqa: E402
from extract_peers import load  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archives", nargs="+")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster

    archives = [os.path.abspath(a) for a in args.archives]
    payload = sum(os.path.getsize(a) for a in archives)
    clients = {}
    for n in (1, 2):
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
        client.upload_file(str(REPO / "python" / "examples" / "warc_jobs.py"))
        clients[n] = (cluster, client)
    times = {1: [], 2: []}
    before = load()
    with tempfile.TemporaryDirectory(prefix="dask-scaling-") as out:
        def run(n):
            client = clients[n][1]
            start = time.perf_counter()
            summaries = client.gather(client.map(warc_jobs.process_archive, archives,
                                                 out_dir=f"{out}/{n}", pure=False))
            return time.perf_counter() - start, summaries

        for n in (1, 2):
            run(n)
        for r in range(args.runs):
            for n in (1, 2):
                t, summaries = run(n)
                times[n].append(t)
            print(f"round {r + 1}: 1 worker {times[1][-1]:.3f} s, 2 workers {times[2][-1]:.3f} s",
                  file=sys.stderr)
    after = load()
    for cluster, client in clients.values():
        client.close()
        cluster.close()
    one, two = statistics.median(times[1]), statistics.median(times[2])
    paired = statistics.median(a / b for a, b in zip(times[1], times[2]))
    records = sum(s["written"] for s in summaries)
    print(f"{len(archives)} archives, {payload / 1e6:.1f} MB on disk, {records} HTML records; "
          f"medians of {args.runs} rounds")
    print(f"| workers | median s | (min-max s) |\n|---:|---:|---:|")
    for n in (1, 2):
        print(f"| {n} | {statistics.median(times[n]):.3f} | {min(times[n]):.3f}-{max(times[n]):.3f} |")
    print(f"\nspeed-up {one / two:.2f}x (paired {paired:.2f}x); {os.cpu_count()} CPUs; "
          f"load before {before}, after {after}")


if __name__ == "__main__":
    main()
