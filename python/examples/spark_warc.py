"""htmltok over WARC files on Spark, in the style of Common Crawl's
cc-pyspark: the archive paths are distributed, each partition's task
reads its archives with htmltok (`mapPartitions`) and writes one JSON Lines
file per archive, and the driver collects a summary per archive.

    spark-submit spark_warc.py OUT_DIR ARCHIVE...
    python spark_warc.py OUT_DIR ARCHIVE... --master local[2]

On a cluster, the archives and OUT_DIR must be paths every executor can
read and write, and every executor needs `pip install htmltok`; this
script ships `warc_jobs.py` to them itself (`SparkContext.addPyFile`).
Exits with status 1 when some archive had damaged records."""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import warc_jobs  # noqa: E402


def process_partition(paths, out_dir):
    import warc_jobs as jobs  # on the executor, from addPyFile

    for path in paths:
        yield jobs.process_archive(path, out_dir)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("archives", nargs="+")
    parser.add_argument("--master", help="Spark master (default: what spark-submit gives, else local[2])")
    args = parser.parse_args(argv)
    archives = [os.path.abspath(a) for a in args.archives]
    out_dir = os.path.abspath(args.out_dir)

    # Executors run this interpreter unless told otherwise (on a cluster:
    # PYSPARK_PYTHON names one with htmltok installed on every node).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("htmltok-warc")
    if args.master:
        builder = builder.master(args.master)
    elif "PYSPARK_GATEWAY_PORT" not in os.environ:
        # Run as a plain script, not by spark-submit (which sets the
        # gateway port and its own --master): a local master.
        builder = builder.master("local[2]")
    spark = builder.getOrCreate()
    try:
        sc = spark.sparkContext
        sc.addPyFile(os.path.join(HERE, "warc_jobs.py"))
        # One archive per partition, as cc-pyspark does with its input list.
        summaries = (
            sc.parallelize(archives, len(archives))
            .mapPartitions(lambda paths: process_partition(paths, out_dir))
            .collect()
        )
    finally:
        spark.stop()
    return warc_jobs.report(summaries)


if __name__ == "__main__":
    sys.exit(main())
