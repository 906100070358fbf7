#!/usr/bin/env python3
"""Summarises a JSON Lines dataset on Apache Spark: each partition is piped
through `tokcount --jsonl --summary` (one mergeable line per partition), and
the driver adds the lines up with `tokcount --merge` into the totals one
process would have printed: records, tokens, characters, bytes, failed, a
token-length histogram and the longest records' ids.

    summarise_tokens.py DATASET.jsonl [--master local[2]] [--partitions N]
                        [--tokcount PATH] [--driver-tokcount PATH]
                        [--tokcount-args "-e o200k_base"] [--results FILE]

--tokcount is the binary as the executors see it (./tokcount when shipped
with spark-submit --files); --driver-tokcount the one on the driver
(default: the same path).
"""

import argparse
import json
import shlex
import subprocess
import sys
import time

from pyspark import SparkConf, SparkContext


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset")
    parser.add_argument("--master", default=None)
    parser.add_argument("--partitions", type=int, default=None)
    parser.add_argument("--tokcount", default="tokcount")
    parser.add_argument("--driver-tokcount", default=None)
    parser.add_argument("--tokcount-args", default="")
    parser.add_argument("--results", default=None, help="write the merged line and the partitions' lines here")
    args = parser.parse_args()

    conf = SparkConf().setAppName("tokcount-summary")
    if args.master:
        conf = conf.setMaster(args.master)
    if (args.master or "").startswith("local"):
        # One machine: listen on the loopback only, and no web UI.
        conf = conf.set("spark.driver.bindAddress", "127.0.0.1").set("spark.driver.host", "127.0.0.1").set("spark.ui.enabled", "false")
    sc = SparkContext(conf=conf)
    sc.setLogLevel("WARN")
    started = time.monotonic()
    lines = sc.textFile(args.dataset, minPartitions=args.partitions)
    extra = shlex.split(args.tokcount_args)
    command = [args.tokcount, "--jsonl", "--summary", *extra]
    # Exit 1 means some record failed: the summary still holds it (under "failed").
    parts = lines.pipe(shlex.join(command), checkCode=False).collect()
    partitions = lines.getNumPartitions()
    sc.stop()

    merge = subprocess.run([args.driver_tokcount or args.tokcount, "--merge"], input="".join(p + "\n" for p in parts),
                           capture_output=True, text=True)
    if merge.returncode != 0:
        print(f"summarise_tokens: tokcount --merge failed ({merge.returncode}): {merge.stderr}", file=sys.stderr)
        return 1
    elapsed = time.monotonic() - started
    merged = merge.stdout.strip()
    total = json.loads(merged)
    if args.results:
        with open(args.results, "w", encoding="utf-8") as out:
            out.write(json.dumps({"merged": total, "parts": [json.loads(p) for p in parts]}, ensure_ascii=False) + "\n")
    print(merged)
    print(f"summarise_tokens: {total['records']} records, {total['failed']} failed, {total['tokens']} tokens, "
          f"{partitions} partitions merged, {elapsed:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
