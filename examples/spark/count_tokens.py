#!/usr/bin/env python3
"""Counts the tokens of every record of a JSON Lines dataset on Apache Spark.

Each partition's lines are piped through `tokcount --jsonl` (RDD.pipe); its
output has one JSON line per record, in the partition's order:
{"id": ..., "tokens": N, "characters": N, "bytes": N, "fits": ...}, or
{"line": N, "error": "..."} for a record that cannot be counted (the line
number is within the partition). Counts are per record, so how the dataset
is split changes nothing.

    count_tokens.py DATASET.jsonl [--master local[2]] [--partitions N]
                    [--tokcount PATH] [--tokcount-args "-e o200k_base"]
                    [--output DIR | --results FILE]

--output writes the results with saveAsTextFile (what a big dataset wants);
--results collects them into one local file (a small one). On a cluster, ship
the binary with `spark-submit --files /path/to/tokcount` and pass
`--tokcount ./tokcount` (see README.md).
"""

import argparse
import json
import shlex
import sys
import time

from pyspark import SparkConf, SparkContext


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset")
    parser.add_argument("--master", default=None, help="e.g. local[2]; default: what spark-submit says")
    parser.add_argument("--partitions", type=int, default=None)
    parser.add_argument("--tokcount", default="tokcount", help="the binary as the executors see it")
    parser.add_argument("--tokcount-args", default="", help="more tokcount options, e.g. \"-e o200k_base\"")
    parser.add_argument("--output", default=None, help="a folder for saveAsTextFile")
    parser.add_argument("--results", default=None, help="collect the result lines into this local file")
    args = parser.parse_args()

    conf = SparkConf().setAppName("tokcount-jsonl")
    if args.master:
        conf = conf.setMaster(args.master)
    if (args.master or "").startswith("local"):
        # One machine: listen on the loopback only, and no web UI.
        conf = conf.set("spark.driver.bindAddress", "127.0.0.1").set("spark.driver.host", "127.0.0.1").set("spark.ui.enabled", "false")
    sc = SparkContext(conf=conf)
    sc.setLogLevel("WARN")
    started = time.monotonic()
    lines = sc.textFile(args.dataset, minPartitions=args.partitions)
    command = [args.tokcount, "--jsonl", *shlex.split(args.tokcount_args)]
    # tokcount exits 1 when some record failed; its error lines are results, not a crash.
    counted = lines.pipe(shlex.join(command), checkCode=False)

    if args.output:
        counted.saveAsTextFile(args.output)
        results = None
    else:
        results = counted.collect()
    elapsed = time.monotonic() - started
    partitions = lines.getNumPartitions()
    sc.stop()

    if results is None:
        print(f"count_tokens: results in {args.output} ({partitions} partitions, {elapsed:.1f} s)")
        return 0
    records = [json.loads(line) for line in results]
    failed = [r for r in records if "error" in r]
    tokens = sum(r["tokens"] for r in records if "error" not in r)
    if args.results:
        with open(args.results, "w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in results)
    print(f"count_tokens: {len(records) - len(failed)} records counted, {len(failed)} failed, "
          f"{tokens} tokens, {partitions} partitions, {elapsed:.1f} s")
    for r in failed:
        print(f"count_tokens: failed: {json.dumps(r, ensure_ascii=False)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
