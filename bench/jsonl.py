#!/usr/bin/env python3
"""Throughput of `tokcount --jsonl` on records of 100 B, 5 KB and 1 MB, single
process and under Spark local[2], against Python tiktoken's
encode_ordinary_batch on the same texts; and the per-record overhead of the
JSON Lines path (parse each line, write each result) against counting the
same texts as one plain file.

    bench/jsonl.py --tokcount PATH [--rounds 3] [--scale 1] [--no-spark] [--out reports/jsonl-bench.md]

bench/run runs it on the release build.

Texts are UDHR paragraphs (Tests/Fixtures/udhr, many languages) joined and cut
to each size at a character boundary. Every figure is the median of the
rounds after a warm-up; each run is timed by the wall clock and by the CPU
time it used (the child's user + system time; tiktoken's whole process), and
the CPU figure is what per-core rates and the 1 TB estimate use, since other
work on a shared machine disturbs it far less than the wall clock. The load
average is recorded before and after, once the builds' load has settled.
gigatoken (the bench venv's) counts the same records one call each, on one
thread, beside tiktoken.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "scripts"))
import tiktoken_encodings  # noqa: E402
import peers  # noqa: E402  (sets RAYON_NUM_THREADS=1 before gigatoken loads)
from machine import load_average, settle  # noqa: E402

MB = 1_000_000
SIZES = {"100 B": (100, 20_000), "5 KB": (5_000, 2_000), "1 MB": (1_000_000, 10)}
ENCODING = "o200k_base"


def udhr_text() -> str:
    parts = []
    for path in sorted((REPO / "Tests" / "Fixtures" / "udhr").glob("*.txt")):
        try:
            parts.append(" ".join(line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()))
        except UnicodeDecodeError:
            continue
    return "\n".join(parts)


def cut(text: str, start: int, size: int) -> str:
    """About `size` UTF-8 bytes of `text` from character `start` (wrapping), ending at a character."""
    out, used, i = [], 0, start
    while used < size:
        ch = text[i % len(text)]
        n = len(ch.encode("utf-8"))
        if used + n > size:
            break
        out.append(ch)
        used += n
        i += 1
    return "".join(out)


def timed_child(command: list[str], stdin_path: str | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one run of `command` (its output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(stdin_path or os.devnull, "rb") as stdin:
        result = subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1):
        raise SystemExit(f"bench: {' '.join(command)} exited {result.returncode}: {result.stderr.decode()[:500]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_runs(rounds: int, run) -> tuple[float, float]:
    run()  # warm-up: page cache, vocabulary load
    walls, cpus = zip(*(run() for _ in range(rounds)))
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokcount", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-spark", action="store_true")
    parser.add_argument("--scale", type=float, default=1.0, help="fewer records (e.g. 0.3) for a slow build; at least 2 of each size")
    parser.add_argument("--out", default=str(REPO / "reports" / "jsonl-bench.md"))
    args = parser.parse_args()

    waited = settle()
    load_before = load_average()
    text = udhr_text()
    enc = tiktoken_encodings.load(ENCODING)
    gigatoken_count, gigatoken_version = peers.load("gigatoken", "encode", ENCODING)
    version = subprocess.run([args.tokcount, "--version"], capture_output=True, text=True).stdout.strip()
    rows, overhead, spark_rows = [], None, []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (size, count) in SIZES.items():
            count = max(2, round(count * args.scale))
            texts = [cut(text, (k * 7919) % len(text), size) for k in range(count)]
            dataset = Path(tmp) / f"{size}.jsonl"
            with open(dataset, "w", encoding="utf-8") as f:
                for k, t in enumerate(texts):
                    f.write(json.dumps({"id": k, "text": t}, ensure_ascii=False) + "\n")
            file_mb = dataset.stat().st_size / MB
            text_mb = sum(len(t.encode("utf-8")) for t in texts) / MB
            expected = sum(len(ids) for ids in enc.encode_ordinary_batch(texts))

            # The same records, counted: the sums must agree before any timing counts.
            out = subprocess.run([args.tokcount, "--jsonl", "--summary", "-e", ENCODING, str(dataset)], capture_output=True, text=True)
            got = json.loads(out.stdout)["tokens"]
            if got != expected:
                raise SystemExit(f"bench: {name}: tokcount counts {got} tokens, tiktoken {expected}")

            for jobs in (1, 2):
                wall, cpu = median_runs(args.rounds, lambda: timed_child([args.tokcount, "--jsonl", "-j", str(jobs), "-e", ENCODING, str(dataset)]))
                rows.append((name, f"tokcount --jsonl -j {jobs}", count, text_mb, file_mb, wall, cpu))

            def tiktoken_run(threads):
                def run():
                    start, cpu0 = time.perf_counter(), time.process_time()
                    enc.encode_ordinary_batch(texts, num_threads=threads)
                    return time.perf_counter() - start, time.process_time() - cpu0
                return run
            for threads in (1, 2):
                wall, cpu = median_runs(args.rounds, tiktoken_run(threads))
                rows.append((name, f"tiktoken encode_ordinary_batch, {threads} thread{'s' if threads > 1 else ''}", count, text_mb, file_mb, wall, cpu))

            # gigatoken keeps its piece cache across calls: the warm-up round fills it, as a long job's first records would.
            if sum(gigatoken_count(t) for t in texts) != expected:
                raise SystemExit(f"bench: {name}: gigatoken's count differs from tiktoken's {expected}")
            def gigatoken_run():
                start, cpu0 = time.perf_counter(), time.process_time()
                for t in texts:
                    gigatoken_count(t)
                return time.perf_counter() - start, time.process_time() - cpu0
            wall, cpu = median_runs(args.rounds, gigatoken_run)
            rows.append((name, f"gigatoken {gigatoken_version} encode, a call per record, 1 thread", count, text_mb, file_mb, wall, cpu))

            if name == "5 KB":
                # The same texts as one plain file (joined by line feeds): counting alone, no JSON.
                plain = Path(tmp) / "plain.txt"
                plain.write_text("\n".join(texts), encoding="utf-8")
                _, cpu_jsonl = median_runs(args.rounds, lambda: timed_child([args.tokcount, "--jsonl", "-j", "1", "-e", ENCODING, str(dataset)]))
                _, cpu_plain = median_runs(args.rounds, lambda: timed_child([args.tokcount, "-j", "1", "-e", ENCODING, str(plain)]))
                _, cpu_start = median_runs(args.rounds, lambda: timed_child([args.tokcount, "--jsonl", "-e", ENCODING], os.devnull))
                overhead = (cpu_jsonl, cpu_plain, cpu_start)

            if not args.no_spark:
                spark = subprocess.run(
                    [sys.executable, str(REPO / "examples" / "spark" / "count_tokens.py"), str(dataset), "--master", "local[2]",
                     "--partitions", "2", "--tokcount", args.tokcount, "--tokcount-args", f"-e {ENCODING}",
                     "--output", str(Path(tmp) / f"spark-{size}")],
                    capture_output=True, text=True, env={**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable})
                line = next((l for l in spark.stdout.splitlines() if l.startswith("count_tokens:")), "")
                seconds = float(line.rsplit(", ", 1)[-1].split()[0]) if "partitions," in line else None
                spark_rows.append((name, count, text_mb, seconds, spark.returncode))
    load_after = load_average()

    def rate(n, seconds):
        if not seconds:
            return "–"
        r = n / seconds
        return f"{r:,.0f}" if r >= 100 else f"{r:.2f}"

    build = "a DEBUG build (unoptimised: its rates are far below a release build's; rerun with bench/run for release figures)" \
        if "/debug/" in os.path.realpath(args.tokcount) else "a release build"
    lines = ["# JSON Lines throughput (`bench/jsonl.py`)", "",
             f"Command: `bench/jsonl.py --tokcount {args.tokcount} --rounds {args.rounds} --scale {args.scale}`{' --no-spark' if args.no_spark else ''}; "
             f"tokcount is {build}.", "",
             f"tokcount: `{version}` ({args.tokcount}); tiktoken {tiktoken_encodings.tiktoken.__version__}; encoding {ENCODING}; "
             f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}); load average {load_before} before (after waiting {waited:.0f} s for it to settle), {load_after} after"
             f"{' (the machine was busy: wall figures are disturbed, CPU figures much less)' if float(load_before.split()[0]) > 0.3 else ''}.",
             "Texts are UDHR paragraphs in many languages; MB are of the texts' UTF-8 (the JSONL files are a little larger).",
             "",
             "| size | counter | records | text MB | wall s | CPU s | records/s (wall) | MB/s (wall) | MB per CPU-second |",
             "|---|---|--:|--:|--:|--:|--:|--:|--:|"]
    for name, who, count, text_mb, file_mb, wall, cpu in rows:
        lines.append(f"| {name} | {who} | {count:,} | {text_mb:.2f} | {wall:.2f} | {cpu:.2f} | {rate(count, wall)} | {text_mb / wall:.2f} | {text_mb / cpu:.2f} |")
    if spark_rows:
        lines += ["", "Spark local[2] (`examples/spark/count_tokens.py`, 2 partitions, saveAsTextFile; the job's time after the "
                  "SparkContext started, which is JVM and Python-worker start-up for small inputs):", "",
                  "| size | records | text MB | job s | records/s | MB/s |", "|---|--:|--:|--:|--:|--:|"]
        for name, count, text_mb, seconds, code in spark_rows:
            if seconds is None:
                lines.append(f"| {name} | {count:,} | {text_mb:.2f} | failed (exit {code}) | | |")
            else:
                lines.append(f"| {name} | {count:,} | {text_mb:.2f} | {seconds:.1f} | {rate(count, seconds)} | {text_mb / seconds:.3f} |")
    if overhead:
        cpu_jsonl, cpu_plain, cpu_start = overhead
        share = (cpu_jsonl - cpu_plain) / max(cpu_plain - cpu_start, 1e-9)
        lines += ["", "Per-record overhead, 5 KB records, -j 1, CPU seconds (median): "
                  f"--jsonl {cpu_jsonl:.3f}, the same texts as one plain file {cpu_plain:.3f}, start-up alone (empty input) {cpu_start:.3f}. "
                  f"JSON parse + write cost {share * 100:.1f}% of the counting time "
                  f"(({cpu_jsonl:.3f} − {cpu_plain:.3f}) / ({cpu_plain:.3f} − {cpu_start:.3f})); target ≤ 15%."]
    report = "\n".join(lines) + "\n"
    Path(args.out).write_text(report, encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()
