"""htmltok over WARC files on Dask distributed: one JSON Lines file per
archive, written by the worker that read it.

    python dask_warc.py OUT_DIR ARCHIVE...                 # a LocalCluster on this machine
    python dask_warc.py OUT_DIR ARCHIVE... --workers 8
    python dask_warc.py OUT_DIR ARCHIVE... --scheduler tcp://10.0.0.1:8786

With `--scheduler` the same code runs on a real cluster; the archives and
OUT_DIR must then be paths every worker can read and write (a shared file
system), and every worker needs `pip install htmltok`. `--single` runs
the same job in this process, without Dask, to compare.

Prints one summary line per archive (records written, errors) and exits
with status 1 when some archive had damaged records or failed."""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import warc_jobs  # noqa: E402


def run_on_dask(archives, out_dir, scheduler=None, workers=2):
    from dask.distributed import Client, LocalCluster

    if scheduler:
        client = Client(scheduler)
        cluster = None
    else:
        # One thread per worker process: htmltok releases the GIL, but a
        # process per core is what a cluster of machines looks like.
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        client.upload_file(os.path.join(HERE, "warc_jobs.py"))
        futures = client.map(warc_jobs.process_archive, archives, out_dir=out_dir, pure=False)
        return client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_single(archives, out_dir):
    return [warc_jobs.process_archive(a, out_dir) for a in archives]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("archives", nargs="+")
    parser.add_argument("--scheduler", help="address of a Dask scheduler (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the LocalCluster")
    parser.add_argument("--single", action="store_true", help="run in this process, without Dask")
    args = parser.parse_args(argv)
    archives = [os.path.abspath(a) for a in args.archives]
    out_dir = os.path.abspath(args.out_dir)
    if args.single:
        summaries = run_single(archives, out_dir)
    else:
        summaries = run_on_dask(archives, out_dir, args.scheduler, args.workers)
    return warc_jobs.report(summaries)


if __name__ == "__main__":
    sys.exit(main())
