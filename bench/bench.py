"""Benchmarks ContextKit's tokenizer against tiktoken and bpe-openai, side by side.

Run through bench/run, which builds the release binaries and the Python peers
first. Every measurement alternates the implementations round by round on the
same bytes; the first round is a warm-up and is dropped, the median of the
rest is reported. tiktoken and bpe-openai run in this process (their Rust
cores called directly), ContextKit in `tokbench`, which times the call itself
after an in-process warm-up. Each call is timed twice: wall clock, and the
calling thread's CPU time, which other processes on a shared machine disturb
far less; targets are judged on CPU time (the code's own speed) and the wall
figures are shown beside them. Writes reports/bench.md and prints the same.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "scripts"))

import corpora  # noqa: E402

MB = 1_000_000
ENCODINGS = ("cl100k_base", "o200k_base")
CORPORA = ("en", "cjk", "code")
CORPUS_NAMES = {"en": "English prose", "cjk": "CJK text", "code": "source code"}


class Peers:
    """tiktoken and bpe-openai, loaded once per encoding."""

    def __init__(self) -> None:
        import tiktoken
        import tiktoken_encodings
        from bpe_openai import _bindings as bpe

        import bpe_openai

        self.tiktoken_version = tiktoken.__version__
        self.bpe_version = bpe_openai.__version__
        self._tiktoken = {name: tiktoken_encodings.load(name) for name in ENCODINGS}
        self._bpe = {name: bpe.tokenizer_for_encoding(name) for name in ENCODINGS}
        self._huggingface: dict = {}

    def huggingface(self, path: str):
        """Hugging Face `tokenizers` for a tokenizer.json, padding and truncation off, loaded once."""
        if path not in self._huggingface:
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(path)
            tokenizer.no_padding()
            tokenizer.no_truncation()
            self._huggingface[path] = tokenizer
        return self._huggingface[path]
        self._sentencepiece: dict = {}

    def sentencepiece(self, model: str):
        """A SentencePieceProcessor for a .model file, loaded once."""
        if model not in self._sentencepiece:
            import sentencepiece
            self.sentencepiece_version = sentencepiece.__version__
            self._sentencepiece[model] = sentencepiece.SentencePieceProcessor(model_file=model)
        return self._sentencepiece[model]

    def run(self, peer: str, mode: str, encoding: str, text: str) -> tuple[float, float, int]:
        """Wall seconds, CPU seconds and tokens of one call."""
        if peer == "tokenizers":
            tokenizer = self.huggingface(encoding)
            call = lambda t: tokenizer.encode(t, add_special_tokens=False).ids  # noqa: E731
        elif peer == "tiktoken":
            call = self._tiktoken[encoding].encode_ordinary
        elif peer == "sentencepiece":
            call = self.sentencepiece(encoding).encode
        else:
            tokenizer = self._bpe[encoding]
            call = tokenizer.count if mode == "count" else tokenizer.encode
        start, cpu_start = time.perf_counter(), time.thread_time()
        result = call(text)
        wall, cpu = time.perf_counter() - start, time.thread_time() - cpu_start
        return wall, cpu, result if isinstance(result, int) else len(result)


class TekkenPeer:
    """mistral-common's Tekkenizer on the tekken file it ships, for the tekken rows."""

    def __init__(self) -> None:
        import mistral_common
        from mistral_common.tokens.tokenizers.tekken import Tekkenizer

        self.version = mistral_common.__version__
        self.path = Path(mistral_common.__file__).parent / "data" / "tekken_240911.json"
        self._tekken = Tekkenizer.from_file(self.path)

    def run(self, peer: str, mode: str, encoding: str, text: str) -> tuple[float, float, int]:
        """Wall seconds, CPU seconds and tokens of one `encode(text, bos=False, eos=False)`."""
        start, cpu_start = time.perf_counter(), time.thread_time()
        ids = self._tekken.encode(text, bos=False, eos=False)
        return time.perf_counter() - start, time.thread_time() - cpu_start, len(ids)


def tekken_rows(runner: "Runner", peer: TekkenPeer, paths: dict, targets: list, check_counts) -> list[str]:
    """ContextKit reading the same tekken file against mistral-common, on the three corpora."""
    lines = ["| corpus | implementation | MB/s CPU | MB/s wall | ContextKit count / this, CPU (wall) |", "|---|---|---:|---:|---:|"]
    contenders = [("mistral-common", "encode"), ("contextkit", "count"), ("contextkit", "encode")]
    names = {("mistral-common", "encode"): f"mistral-common {peer.version} Tekkenizer.encode",
             ("contextkit", "count"): "**ContextKit count**", ("contextkit", "encode"): "**ContextKit encode**"}
    for corpus in CORPORA:
        print(f"tekken {corpus} ...", flush=True)
        results = runner.measure(str(peer.path), paths[corpus], contenders)
        check_counts(f"tekken {corpus}", results)
        mine, theirs = results[("contextkit", "count")], results[("mistral-common", "encode")]
        for c in contenders:
            r = results[c]
            ratio = "" if c[0] == "contextkit" else f"{mbps(mine) / mbps(r):.2f}× ({mbps(mine, 'seconds') / mbps(r, 'seconds'):.2f}×)"
            lines.append(f"| {CORPUS_NAMES[corpus]} | {names[c]} | {mbps(r):.1f} | {mbps(r, 'seconds'):.1f} | {ratio} |")
        r = mbps(mine) / mbps(theirs)
        targets.append((f"tekken, {CORPUS_NAMES[corpus]}: count ≥ mistral-common", f"{r:.2f}× ({mbps(mine):.1f} vs {mbps(theirs):.1f} MB/s CPU)", r >= 1))
    return lines


class Runner:
    def __init__(self, bin_dir: Path, rounds: int, peers: Peers) -> None:
        self.tokbench = bin_dir / "tokbench"
        self.tokcount = bin_dir / "tokcount"
        self.rounds = rounds
        self.peers = peers

    def contextkit(self, mode: str, encoding: str, path: Path, inner: int = 1) -> tuple[float, float, int]:
        """Fastest wall and CPU seconds of `inner` calls after a warm-up call, and the tokens."""
        out = subprocess.run([str(self.tokbench), encoding, mode, str(1 + inner), str(path)], check=True, capture_output=True, text=True).stdout
        runs = [json.loads(line) for line in out.strip().splitlines()[1:]]
        return min(r["seconds"] for r in runs), min(r["cpuSeconds"] for r in runs), runs[-1]["tokens"]

    def measure(self, encoding: str, path: Path, contenders: list[tuple[str, str]], inner: int = 1) -> dict[tuple[str, str], dict]:
        """Median seconds (wall and CPU) and the token counts seen, per (implementation, mode).

        Rounds alternate the implementations; within a round each runs `inner`
        times and its fastest run counts (for short inputs, where one
        preemption would dominate). A peer that fails on an input (tiktoken's
        regex overflows its stack on some adversarial inputs) is dropped from
        the later rounds and reported with its error instead of a time.
        """
        text = path.read_text(encoding="utf-8")
        times: dict = {c: [] for c in contenders}
        cpu_times: dict = {c: [] for c in contenders}
        counts: dict = {c: set() for c in contenders}
        errors: dict = {}
        for r in range(self.rounds + 1):
            order = contenders[r % len(contenders):] + contenders[: r % len(contenders)]
            for who, mode in order:
                if (who, mode) in errors:
                    continue
                try:
                    if who == "contextkit":
                        seconds, cpu, n = self.contextkit(mode, encoding, path, inner)
                    else:
                        runs = [self.peers.run(who, mode, encoding, text) for _ in range(inner)]
                        seconds, cpu, n = min(r[0] for r in runs), min(r[1] for r in runs), runs[-1][2]
                except BaseException as error:  # a Rust panic arrives as BaseException
                    if who == "contextkit" or isinstance(error, KeyboardInterrupt):
                        raise
                    errors[(who, mode)] = f"failed: {type(error).__name__}: {str(error).splitlines()[0][:80] if str(error) else ''}"
                    continue
                counts[(who, mode)].add(n)
                if r > 0:
                    times[(who, mode)].append(seconds)
                    cpu_times[(who, mode)].append(cpu)
        size = path.stat().st_size
        return {c: {"error": errors[c]} if c in errors else
                {"seconds": statistics.median(times[c]), "cpu": statistics.median(cpu_times[c]), "tokens": counts[c], "bytes": size}
                for c in contenders}

    def process(self, args: list[str], env: dict | None = None) -> tuple[float, int, str]:
        """Wall time, peak RSS (KB) and stdout of one process run.

        The peak comes from GNU time, which starts the process from a small
        parent: a child forked straight from this Python process would count
        this process's own memory in its peak.
        """
        with tempfile.NamedTemporaryFile("r") as rss:
            start = time.perf_counter()
            proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
            wall = time.perf_counter() - start
            if proc.returncode != 0:
                raise RuntimeError(f"{args[0]} exited with status {proc.returncode}")
            return wall, int(rss.read().split()[-1]), proc.stdout.decode()


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def tokcount_tokens(out: str) -> int:
    return json.loads(out)["total"]["tokens"]


def mbps(r: dict, clock: str = "cpu") -> float:
    return r["bytes"] / r[clock] / MB


def tps(r: dict) -> float:
    return next(iter(r["tokens"])) / r["cpu"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", type=Path, required=True, help="folder with the release tokbench and tokcount")
    parser.add_argument("--cache", type=Path, required=True, help="folder for the generated corpora")
    parser.add_argument("--rounds", type=int, default=5, help="measured rounds after the warm-up (at least 5)")
    parser.add_argument("--report", type=Path, default=REPO / "reports" / "bench.md")
    parser.add_argument("--only", choices=["tekken"], help="run only these rows and print them (the report is not written)")
    args = parser.parse_args()
    rounds = max(5, args.rounds)
    if args.only == "tekken":
        print(f"load average before: {load_average()}", flush=True)
        paths = corpora.make(args.cache)
        targets: list = []
        disagreements: list[str] = []

        def check_only(label: str, results: dict) -> None:
            seen = set().union(*(r["tokens"] for r in results.values()))
            if len(seen) != 1:
                disagreements.append(f"{label}: " + ", ".join(f"{w} {m} {sorted(r['tokens'])}" for (w, m), r in results.items()))

        peer = TekkenPeer()
        table = tekken_rows(Runner(args.bin, rounds, peer), peer, paths, targets, check_only)
        print("\n".join(table))
        for t, m, ok in targets:
            print(f"{t}: {m} {'met' if ok else 'SHORTFALL'}")
        print(f"counts: {'all agree' if not disagreements else '; '.join(disagreements)}; load average after: {load_average()}")
        return 0 if not disagreements else 1

    load_before = load_average()
    print(f"load average before: {load_before}", flush=True)
    paths = corpora.make(args.cache)
    peers = Peers()
    runner = Runner(args.bin, rounds, peers)
    targets: list[tuple[str, str, bool]] = []
    disagreements: list[str] = []

    def check_counts(label: str, results: dict) -> None:
        ran = {c: r for c, r in results.items() if "error" not in r}
        seen = set().union(*(r["tokens"] for r in ran.values()))
        if len(seen) != 1:
            disagreements.append(f"{label}: " + ", ".join(f"{w} {m} {sorted(r['tokens'])}" for (w, m), r in ran.items()))

    def ratio(a: dict, b: dict) -> str:
        return f"{mbps(a) / mbps(b):.2f}× ({mbps(a, 'seconds') / mbps(b, 'seconds'):.2f}×)" if "error" not in b else ""

    # Throughput on the three corpora.
    lines = ["| encoding | corpus | implementation | MB/s CPU | MB/s wall | Mtokens/s CPU | ContextKit count / this, CPU (wall) | ContextKit encode / this, CPU (wall) |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    throughput_contenders = [("tiktoken", "encode"), ("bpe", "count"), ("bpe", "encode"), ("contextkit", "count"), ("contextkit", "encode")]
    names = {("tiktoken", "encode"): f"tiktoken {peers.tiktoken_version} encode_ordinary",
             ("bpe", "count"): f"bpe-openai {peers.bpe_version} count",
             ("bpe", "encode"): f"bpe-openai {peers.bpe_version} encode",
             ("contextkit", "count"): "**ContextKit count**", ("contextkit", "encode"): "**ContextKit encode**"}
    for encoding in ENCODINGS:
        for corpus in CORPORA:
            print(f"throughput {encoding} {corpus} ...", flush=True)
            results = runner.measure(encoding, paths[corpus], throughput_contenders)
            check_counts(f"{encoding} {corpus}", results)
            ck_count, ck_encode = results[("contextkit", "count")], results[("contextkit", "encode")]
            for c in throughput_contenders:
                r = results[c]
                if "error" in r:
                    lines.append(f"| {encoding} | {CORPUS_NAMES[corpus]} | {names[c]} | {r['error']} | | | | |")
                    continue
                mine = c[0] == "contextkit"
                lines.append(f"| {encoding} | {CORPUS_NAMES[corpus]} | {names[c]} | {mbps(r):.1f} | {mbps(r, 'seconds'):.1f} | {tps(r) / 1e6:.2f} | "
                             f"{'' if mine else ratio(ck_count, r)} | {'' if mine else ratio(ck_encode, r)} |")

            def target(label: str, mine: dict, peer: dict, need: float) -> None:
                if "error" in peer:
                    targets.append((label, f"peer {peer['error']}", False))
                    return
                r = mbps(mine) / mbps(peer)
                wall = mbps(mine, "seconds") / mbps(peer, "seconds")
                targets.append((label, f"{r:.2f}× ({mbps(mine):.1f} vs {mbps(peer):.1f} MB/s CPU; wall clock {wall:.2f}×)", r >= need))

            need = 2.0 if corpus == "en" else 1.5
            target(f"{encoding}, {CORPUS_NAMES[corpus]}: count ≥ {need}× bpe-openai count", ck_count, results[("bpe", "count")], need)
            if corpus == "en":
                target(f"{encoding}, {CORPUS_NAMES[corpus]}: count ≥ 5× tiktoken", ck_count, results[("tiktoken", "encode")], 5)
            target(f"{encoding}, {CORPUS_NAMES[corpus]}: encode ≥ bpe-openai encode", ck_encode, results[("bpe", "encode")], 1)
    throughput_table = lines

    # Model-file formats against their own reference library, same bytes, same run.
    import tokenizers as hf_tokenizers

    lines = ["| format | corpus | implementation | MB/s CPU | MB/s wall | ContextKit / this, CPU (wall) |", "|---|---|---|---:|---:|---:|"]
    formats = [("WordPiece tokenizer.json (all-MiniLM-L6-v2)", REPO / "Tests/Fixtures/wordpiece/all-minilm-l6-v2/tokenizer.json",
                ("tokenizers", "encode"), f"tokenizers {hf_tokenizers.__version__} encode")]
    for label, file, peer, peer_name in formats:
        contenders = [peer, ("contextkit", "count"), ("contextkit", "encode")]
        for corpus in CORPORA:
            print(f"format {label} {corpus} ...", flush=True)
            results = runner.measure(str(file), paths[corpus], contenders)
            check_counts(f"{label} {corpus}", results)
            for c in contenders:
                r = results[c]
                if "error" in r:
                    lines.append(f"| {label} | {CORPUS_NAMES[corpus]} | {peer_name} | {r['error']} | | |")
                    continue
                name = peer_name if c == peer else f"**ContextKit {c[1]}**"
                lines.append(f"| {label} | {CORPUS_NAMES[corpus]} | {name} | {mbps(r):.1f} | {mbps(r, 'seconds'):.1f} | "
                             f"{ratio(r, results[peer]) if c != peer else ''} |")
            if "error" not in results[peer]:
                mine = results[("contextkit", "count")]
                r = mbps(mine) / mbps(results[peer])
                targets.append((f"{label}, {CORPUS_NAMES[corpus]}: count ≥ {peer_name}", f"{r:.2f}× ({mbps(mine):.1f} vs {mbps(results[peer]):.1f} MB/s CPU)", r >= 1))
    formats_table = lines

    # SentencePiece .model files against sentencepiece's encode (default options).
    lines = ["| model | corpus | implementation | MB/s CPU | MB/s wall | ContextKit / this, CPU (wall) |", "|---|---|---|---:|---:|---:|"]
    spm_fixtures = REPO / "Tests/Fixtures/sentencepiece"
    import mistral_common
    spm_models = [("SentencePiece BPE, byte fallback (mistral-common tokenizer.model.v1)", Path(mistral_common.__file__).parent / "data/tokenizer.model.v1"),
                  ("SentencePiece Unigram (sentencepiece's botchan_en_unigram_1000)", spm_fixtures / "botchan_en_unigram_1000.model"),
                  ("SentencePiece Unigram (sentencepiece's kyoto_ja_unigram_8000)", spm_fixtures / "kyoto_ja_unigram_8000.model")]
    spm_contenders = [("sentencepiece", "encode"), ("contextkit", "count"), ("contextkit", "encode")]
    for label, model in spm_models:
        for corpus in ("en", "cjk"):
            print(f"sentencepiece {model.name} {corpus} ...", flush=True)
            results = runner.measure(str(model), paths[corpus], spm_contenders)
            check_counts(f"{model.name} {corpus}", results)
            peer = results[("sentencepiece", "encode")]
            for c in spm_contenders:
                r = results[c]
                if "error" in r:
                    lines.append(f"| {label} | {CORPUS_NAMES[corpus]} | {c[0]} {c[1]} | {r['error']} | | |")
                    continue
                who = f"sentencepiece {peers.sentencepiece_version} encode" if c[0] == "sentencepiece" else f"**ContextKit {c[1]}**"
                lines.append(f"| {label} | {CORPUS_NAMES[corpus]} | {who} | {mbps(r):.1f} | {mbps(r, 'seconds'):.1f} | {ratio(r, peer) if c[0] == 'contextkit' else ''} |")
            ck = results[("contextkit", "count")]
            if "error" not in peer:
                targets.append((f"{model.name}, {CORPUS_NAMES[corpus]}: count ≥ sentencepiece encode", f"{mbps(ck) / mbps(peer):.2f}× ({mbps(ck):.1f} vs {mbps(peer):.1f} MB/s CPU)", mbps(ck) >= mbps(peer)))
    sentencepiece_table = lines

    # Adversarial inputs: does doubling the input at most double the time?
    lines = ["| encoding | input | implementation | 1 MiB (ms CPU) | 2 MiB (ms CPU) | 2 MiB / 1 MiB, CPU (wall) |", "|---|---|---|---:|---:|---:|"]
    adversarial_contenders = [("tiktoken", "encode"), ("bpe", "count"), ("contextkit", "count"), ("contextkit", "encode")]
    for encoding in ENCODINGS:
        for kind in corpora.ADVERSARIAL_KINDS:
            print(f"adversarial {encoding} {kind} ...", flush=True)
            small = runner.measure(encoding, paths[f"adv-{kind}-1m"], adversarial_contenders, inner=5)
            large = runner.measure(encoding, paths[f"adv-{kind}-2m"], adversarial_contenders, inner=5)
            check_counts(f"{encoding} {kind} 1 MiB", small)
            check_counts(f"{encoding} {kind} 2 MiB", large)
            for c in adversarial_contenders:
                if "error" in small[c] or "error" in large[c]:
                    lines.append(f"| {encoding} | {kind} | {names[c]} | {small[c].get('error', '')} | {large[c].get('error', '')} | |")
                    continue
                growth = large[c]["cpu"] / small[c]["cpu"]
                wall = large[c]["seconds"] / small[c]["seconds"]
                lines.append(f"| {encoding} | {kind} | {names[c]} | {small[c]['cpu'] * 1e3:.1f} | {large[c]['cpu'] * 1e3:.1f} | {growth:.2f}× ({wall:.2f}×) |")
                if c[0] == "contextkit":
                    targets.append((f"{encoding}, {kind}: {c[1]} linear (2 MiB ≤ 2.2× the time of 1 MiB)", f"{growth:.2f}× CPU (wall clock {wall:.2f}×)", growth <= 2.2))
    adversarial_table = lines

    # Process start to exit on a 1 KB file, and peak memory.
    print("start-up ...", flush=True)
    small_file = str(paths["en-1k"])
    lines = []
    if runner.tokcount.exists():
        command = [str(runner.tokcount), "-e", "cl100k_base", small_file]
        with tempfile.TemporaryDirectory() as empty:
            cold, cold_rss, _ = runner.process(command, env={**os.environ, "CONTEXTKIT_CACHE": empty})
        for _ in range(3):
            runner.process(command)
        walls, rss = [], []
        for _ in range(max(20, rounds)):
            wall, peak, _ = runner.process(command)
            walls.append(wall)
            rss.append(peak)
        wall = statistics.median(walls)
        lines.append(f"| `tokcount -e cl100k_base` on 1 KB, prepared vocabulary cached | {wall * 1e3:.1f} ms | {max(rss) / 1024:.1f} MB |")
        lines.append(f"| the same, first run on a machine (builds the cache) | {cold * 1e3:.1f} ms | {cold_rss / 1024:.1f} MB |")
        targets.append(("`tokcount` on a 1 KB file, process start to exit < 50 ms", f"{wall * 1e3:.1f} ms (median of {len(walls)})", wall < 0.050))
        targets.append(("peak RSS < 64 MB with cl100k loaded", f"{max(rss) / 1024:.1f} MB (largest of {len(walls)} runs)", max(rss) < 64 * 1024))
    else:
        targets.append(("`tokcount` on a 1 KB file, process start to exit < 50 ms", "tokcount was not built", False))
        targets.append(("peak RSS < 64 MB with cl100k loaded", "tokcount was not built", False))
    script = ("import sys; sys.path.insert(0, sys.argv[2]); import tiktoken_encodings as t; "
              "print(len(t.load('cl100k_base').encode_ordinary(open(sys.argv[1], encoding='utf-8').read())))")
    command = [sys.executable, "-c", script, small_file, str(REPO / "scripts")]
    runner.process(command)
    samples = [runner.process(command) for _ in range(5)]
    lines.append(f"| tiktoken {peers.tiktoken_version}: python, import, load cl100k, encode 1 KB | {statistics.median(s[0] for s in samples) * 1e3:.1f} ms | {max(s[1] for s in samples) / 1024:.1f} MB |")
    startup_table = ["| what | wall time (median) | peak RSS |", "|---|---:|---:|"] + lines

    # Multi-core: one 100 MB file on one and on two threads.
    print("multi-core ...", flush=True)
    lines = ["| threads | seconds (median) | MB/s | tokens |", "|---:|---:|---:|---:|"]
    if runner.tokcount.exists():
        big = str(paths["big"])
        results: dict[int, list] = {1: [], 2: []}
        counts: dict[int, set] = {1: set(), 2: set()}
        for r in range(min(rounds, 5) + 1):
            for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
                wall, _, out = runner.process([str(runner.tokcount), "-e", "cl100k_base", "-j", str(jobs), "--json", big])
                counts[jobs].add(tokcount_tokens(out))
                if r > 0:
                    results[jobs].append(wall)
        one, two = statistics.median(results[1]), statistics.median(results[2])
        for jobs, seconds in ((1, one), (2, two)):
            lines.append(f"| {jobs} | {seconds:.3f} | {corpora.BIG_SIZE / seconds / MB:.1f} | {', '.join(map(str, sorted(counts[jobs])))} |")
        _, _, reference = runner.contextkit("count", "cl100k_base", paths["big"])
        same = counts[1] == counts[2] == {reference}
        targets.append(("100 MB on 2 cores ≥ 1.8× one core, identical count", f"{one / two:.2f}× ({one:.2f} s → {two:.2f} s), counts {'identical' if same else 'DIFFER'}", one / two >= 1.8 and same))
    else:
        targets.append(("100 MB on 2 cores ≥ 1.8× one core, identical count", "tokcount was not built", False))
    multicore_table = lines

    tekken_peer = TekkenPeer()
    tekken_table = tekken_rows(Runner(args.bin, rounds, tekken_peer), tekken_peer, paths, targets, check_counts)

    targets.append(("token counts agree across implementations on every input", "all agree" if not disagreements else "; ".join(disagreements), not disagreements))
    load_after = load_average()

    report = [
        "# Tokenizer speed: ContextKit against tiktoken and bpe-openai",
        "",
        "Generated by `bench/run` (do not edit by hand). Single thread unless said otherwise; MB = 10^6 bytes;",
        f"each figure is the median of {rounds} rounds after a warm-up round, the implementations alternating",
        "round by round on the same bytes. tiktoken and bpe-openai run in-process from Python (their Rust cores",
        "called directly); ContextKit runs in `tokbench`, which times `count(utf8:)` / `encodeOrdinary(utf8:)`",
        "after an in-process warm-up. Speeds are given by the calling thread's CPU time, which the other",
        "processes of a shared machine disturb far less than the wall clock; the wall-clock figures follow in",
        "parentheses and equal the CPU ones on an idle machine. Adversarial inputs take the fastest of 5 calls",
        "per round. Start-up and multi-core are wall clock, whole processes, and need an idle machine.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {cpu_model()}; {platform.platform()}.",
        f"Load average (1, 5, 15 min) before: {load_before}; after: {load_after}.",
        f"Corpora (`bench/corpora.py`, cached under `{args.cache}`): English prose {corpora.SIZES['en'] // MB} MB, CJK text",
        f"{corpora.SIZES['cjk'] // MB} MB, source code {corpora.SIZES['code'] // MB} MB; adversarial one letter, spaces and random base64 at 1 and 2 MiB;",
        f"{corpora.BIG_SIZE // MB} MB of English for the multi-core run.",
        "",
        "## Targets",
        "",
        "| target | measured | |",
        "|---|---|---|",
        *[f"| {t} | {m} | {'met' if ok else '**shortfall**'} |" for t, m, ok in targets],
        "",
        "## Throughput",
        "",
        *throughput_table,
        "",
        "## Model-file formats against their reference",
        "",
        *formats_table,
        "",
        "## SentencePiece `.model`",
        "",
        *sentencepiece_table,
        "",
        "## Adversarial inputs",
        "",
        *adversarial_table,
        "",
        "## Start-up and memory",
        "",
        *startup_table,
        "",
        "## Multi-core (`tokcount -j N`)",
        "",
        *multicore_table,
        "",
        "## tekken (Mistral) against mistral-common",
        "",
        "ContextKit reads mistral-common's own `tekken_240911.json`; mistral-common runs `Tekkenizer.encode(text, bos=False, eos=False)` in-process.",
        "",
        *tekken_table,
        "",
    ]
    text = "\n".join(report)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(text)
    print(text)
    print(f"wrote {args.report}")
    return 0


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
