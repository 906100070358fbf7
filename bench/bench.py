"""Benchmarks ContextKit's tokenizer against the fastest tokenizers there are, side by side.

Run through bench/run, which builds the release binaries and the Python peers
first. Every measurement alternates the implementations round by round on the
same bytes. Two kinds of row, never compared with each other:

- kernel against kernel (groups peers, openmodels, adversarial, formats): the
  tokenizer's call alone, with start-up, imports and loading outside the
  clock. Each implementation is measured in two cache states:
  - first call: a fresh process per round, in which the tokenizer is loaded
    (timed apart: the load column), called once on a short text (peers.WARMUP:
    whatever a binding imports or builds on its first call, such as
    gigatoken's lazy `import numpy`, is done before the clock starts), and then
    its first call on the text is timed (ContextKit: `tokbench SPEC MODE 1
    FILE`, whose line says `"first": true`; a peer: `bench/peers.py PEER MODE
    SPEC FILE`, the same steps);
  - warm: the same text again with the same tokenizer (gigatoken keeps a piece
    cache across calls): a warm-up round is dropped and the median of the rest
    reported.
  Every implementation gets the text as UTF-8 bytes where its call takes them
  (peers.BYTES; ContextKit always), else as a `str` decoded outside the clock.
- whole process (group process): `tokcount` and Python peers' processes from
  start to exit, wall clock: process start-up, interpreter and imports,
  loading, reading and tokenizing, which is what a command-line user waits for.

Python peers run in this process for the warm rows (their Rust cores called
directly), ContextKit in `tokbench`. Everything single-threaded runs pinned to
one CPU. Each call is timed twice: wall clock, and CPU time (the whole
process's for a peer, the thread's in tokbench), which other processes on a
shared machine disturb far less; targets are judged on CPU time and the wall
figures are shown beside them. A peer whose count differs from ContextKit's on
an input is reported as disagreeing there, not timed. Writes reports/bench.md
and prints the same; `--only GROUP,...` runs some groups and prints their rows
and targets only.
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

import peers  # noqa: E402  (sets RAYON_NUM_THREADS=1 before any peer loads)
import corpora  # noqa: E402
from machine import file_refaults, load_average, pages_out_cold_memory, settle  # noqa: E402
import gguf_tokenizer_json  # noqa: E402

MB = 1_000_000
MIB = 1 << 20
ENCODINGS = ("cl100k_base", "o200k_base")
MARKOV = ("en", "cjk", "code")
REAL = tuple(corpora.REAL_SIZES)
CORPUS_NAMES = {"en": "English prose (Markov)", "cjk": "CJK text (Markov)", "code": "source code", "en-2m": "English prose (Markov), 2 MB",
                **corpora.REAL_NAMES}
GROUPS = ("peers", "openmodels", "adversarial", "process", "formats", "tekken")
GGUF = corpora.REFERENCE / "gguf"
HF = corpora.REFERENCE / "hf"
OPEN_MODELS = ("llama-bpe", "qwen2")
# Peers far slower than the rest keep no cache across calls: they get fewer
# measured rounds and no warm-up round (their figure is context, not a target).
SLOW = {"tokenizers": 1, "sentencepiece": 3, "mistral-common": 3}
# tiktoken and bpe-openai keep no cache either: one first-call process each, three warm rounds.
CACHELESS_FIRST = {"tiktoken": 1, "bpe": 1}
CACHELESS_WARM = {"tiktoken": 3, "bpe": 3}
ALL_CPUS = os.sched_getaffinity(0)
# The libraries that define the answer: ContextKit must agree with these. The
# other peers are timed only where they agree with ContextKit.
REFERENCES = ("tiktoken", "bpe", "tokenizers", "sentencepiece", "mistral-common")


def name_of(who: str, mode: str, spec: str, versions: dict) -> str:
    if who == "contextkit":
        kind = " (GGUF)" if spec.endswith(".gguf") else " (tokenizer.json)" if spec.endswith("tokenizer.json") else ""
        return f"**ContextKit {mode}**{kind}"
    return f"{'bpe-openai' if who == 'bpe' else who} {versions.get(who, '')} {mode}".replace("  ", " ")


class Runner:
    """Runs one contender (who, mode, spec) on a file, in either cache state."""

    def __init__(self, bin_dir: Path, rounds: int, first_rounds: int) -> None:
        self.tokbench = bin_dir / "tokbench"
        self.tokcount = bin_dir / "tokcount"
        self.rounds = rounds
        self.first_rounds = first_rounds
        self.loaded: dict = {}
        self.versions: dict = {}

    def peer(self, who: str, mode: str, spec: str):
        key = (who, mode, spec)
        if key not in self.loaded:
            try:
                self.loaded[key] = peers.load(who, mode, spec)
            except BaseException as error:  # a Rust panic arrives as BaseException
                if isinstance(error, KeyboardInterrupt):
                    raise
                self.loaded[key] = error
            if not isinstance(self.loaded[key], BaseException):
                self.versions[who] = self.loaded[key][1]
        if isinstance(self.loaded[key], BaseException):
            raise self.loaded[key]
        return self.loaded[key][0]

    def tokbench_runs(self, mode: str, spec: str, path: Path, repeats: int) -> list[dict]:
        out = subprocess.run([str(self.tokbench), spec, mode, str(repeats), str(path)], check=True, capture_output=True, text=True).stdout
        return [json.loads(line) for line in out.strip().splitlines()]

    def warm(self, who: str, mode: str, spec: str, path: Path, data: bytes, text: str | None, inner: int,
             pick=min) -> tuple[float, float, int]:
        """`pick` (the fastest, or statistics.median) of `inner` calls after the tokenizer has seen the text once."""
        if who == "contextkit":
            runs = [r for r in self.tokbench_runs(mode, spec, path, 1 + inner) if not r["first"]]
            return pick(r["seconds"] for r in runs), pick(r["cpuSeconds"] for r in runs), runs[-1]["tokens"]
        call = self.peer(who, mode, spec)
        given = peers.payload(who, data, text)
        runs = [peers.timed(call, given) for _ in range(inner)]
        return pick(r[0] for r in runs), pick(r[1] for r in runs), runs[-1][2]

    def first(self, who: str, mode: str, spec: str, path: Path) -> tuple[float, float, int, float, float]:
        """A fresh tokenizer's first call on the text, in a fresh process: loaded, called once on
        peers.WARMUP, then timed on the text. Seconds, CPU seconds, tokens, load and warm-up seconds."""
        if who == "contextkit":
            (run,) = self.tokbench_runs(mode, spec, path, 1)
            assert run["first"], "tokbench's only call must be its first"
        else:
            proc = subprocess.run([sys.executable, str(HERE / "peers.py"), who, mode, spec, str(path)], capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError((proc.stderr.strip().splitlines() or ["exited with status %d" % proc.returncode])[-1])
            run = json.loads(proc.stdout.strip().splitlines()[-1])
        return run["seconds"], run["cpuSeconds"], run["tokens"], run["loadSeconds"], run["warmupSeconds"]

    def measure(self, path: Path, contenders: list[tuple[str, str, str]], state: str = "warm", inner: int = 1, caps: dict | None = None,
                pick=min) -> dict:
        """Median seconds (wall and CPU) and the token counts seen, per contender.

        Rounds alternate the contenders. Warm: the first round is a warm-up
        and dropped; within a round each runs `inner` times and the fastest
        run counts (for short inputs, where one preemption would dominate),
        or with `pick=statistics.median` the median run.
        First: every round is a fresh process (`first`), and the median
        load and warm-up-call seconds are kept too. A peer that fails to load or
        on an input (tiktoken's regex overflows its stack on some adversarial
        inputs) is dropped from the later rounds and reported with its error.
        `caps` (and SLOW) limit some peers' measured rounds.
        """
        caps = {**SLOW, **(caps or {})}
        if state == "first":
            caps = {**caps, **CACHELESS_FIRST}
        data = path.read_bytes() if state == "warm" else b""
        text = data.decode("utf-8") if state == "warm" and any(c[0] not in peers.BYTES and c[0] != "contextkit" for c in contenders) else None
        rounds = self.rounds + 1 if state == "warm" else self.first_rounds
        times: dict = {c: [] for c in contenders}
        cpu_times: dict = {c: [] for c in contenders}
        loads: dict = {c: [] for c in contenders}
        warmups: dict = {c: [] for c in contenders}
        counts: dict = {c: set() for c in contenders}
        errors: dict = {}
        for r in range(rounds):
            order = contenders[r % len(contenders):] + contenders[: r % len(contenders)]
            for c in order:
                who, mode, spec = c
                if c in errors or (who in caps and r > caps[who] - (state == "first")) or (who in SLOW and r == 0 and state == "warm"):
                    continue
                try:
                    if state == "warm":
                        seconds, cpu, n = self.warm(who, mode, spec, path, data, text, inner, pick)
                    else:
                        seconds, cpu, n, load, warmup = self.first(who, mode, spec, path)
                        loads[c].append(load)
                        warmups[c].append(warmup)
                except BaseException as error:
                    if who == "contextkit" or isinstance(error, KeyboardInterrupt):
                        raise
                    errors[c] = f"n/a: {type(error).__name__}: {str(error).splitlines()[0][:90] if str(error) else ''}"
                    continue
                counts[c].add(n)
                if r > 0 or state == "first" or who in SLOW:
                    times[c].append(seconds)
                    cpu_times[c].append(cpu)
        size = path.stat().st_size
        return {c: {"error": errors[c]} if c in errors else
                {"seconds": statistics.median(times[c]), "cpu": statistics.median(cpu_times[c]), "tokens": counts[c], "bytes": size,
                 **({"load": statistics.median(loads[c]), "warmup": statistics.median(warmups[c])} if loads[c] else {})}
                for c in contenders}

    def process(self, args: list[str], env: dict | None = None, cpus: set | None = None) -> tuple[float, int, str]:
        """Wall time, peak RSS (KB) and stdout of one process run.

        The peak comes from GNU time, which starts the process from a small
        parent: a child forked straight from this Python process would count
        this process's own memory in its peak. `cpus` widens the CPUs the
        process may use (this one is pinned to one).
        """
        with tempfile.NamedTemporaryFile("r") as rss:
            start = time.perf_counter()
            proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                  preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None)
            wall = time.perf_counter() - start
            if proc.returncode != 0:
                raise RuntimeError(f"{' '.join(args[:3])} exited with status {proc.returncode}: {proc.stderr.decode(errors='replace').strip()[:200]}")
            return wall, int(rss.read().split()[-1]), proc.stdout.decode()


class Report:
    """Tables, targets and disagreements collected by the groups."""

    def __init__(self) -> None:
        self.sections: list[tuple[str, list[str]]] = []
        self.targets: list[tuple[str, str, bool]] = []
        self.disagreements: dict[str, None] = {}  # ContextKit against a reference library: a target fails
        self.peer_disagreements: dict[str, None] = {}  # a peer that is not the reference: listed, not timed

    def agree(self, label: str, results: dict, reference: tuple) -> None:
        """Marks every contender whose count differs from the reference's as disagreeing (so it is not timed)."""
        if "error" in results[reference]:
            return
        want = results[reference]["tokens"]
        if len(want) != 1:
            self.disagreements[f"{label}: ContextKit's own counts vary {sorted(want)}"] = None
        for c, r in results.items():
            if "error" not in r and r["tokens"] != want:
                got = sorted(r["tokens"])
                where = self.disagreements if c[0] in REFERENCES else self.peer_disagreements
                where[f"{label}: {c[0]} {c[1]} {', '.join(map(str, got))} tokens, ContextKit {', '.join(map(str, sorted(want)))}"] = None
                r.clear()
                r["error"] = f"disagrees: {', '.join(map(str, got))} tokens vs ContextKit's {', '.join(map(str, sorted(want)))}"

    def ratio_target(self, label: str, mine: dict, peer: dict, need: float) -> None:
        if "error" in peer:
            self.targets.append((label, f"peer {peer['error']}", False))
            return
        r = mbps(mine) / mbps(peer)
        wall = mbps(mine, "seconds") / mbps(peer, "seconds")
        self.targets.append((label, f"{r:.2f}× ({mbps(mine):.1f} vs {mbps(peer):.1f} MB/s CPU; wall clock {wall:.2f}×)", r >= need))


def mbps(r: dict, clock: str = "cpu") -> float:
    return r["bytes"] / r[clock] / MB


def cell(r: dict) -> str:
    return r["error"] if "error" in r else f"{mbps(r):.1f} ({mbps(r, 'seconds'):.1f})"


def ratio(a: dict, b: dict) -> str:
    return "" if "error" in a or "error" in b else f"{mbps(a) / mbps(b):.2f}×"


def tokcount_tokens(out: str) -> int:
    return json.loads(out)["total"]["tokens"]


def side_by_side(runner: Runner, report: Report, label: str, path: Path, contenders: list, reference: tuple, encode_reference: tuple) -> tuple[dict, dict, list[str]]:
    """First-pass and warm results for the contenders on one file, and their table rows."""
    first_contenders = [c for c in contenders if c[0] not in SLOW]
    first = runner.measure(path, first_contenders, "first")
    warm = runner.measure(path, contenders, "warm", caps=CACHELESS_WARM)
    report.agree(label, first, reference)
    report.agree(label, warm, reference)
    rows = []
    for c in contenders:
        f = first.get(c, {"error": "(not run: no cache, first ≈ warm)"})
        w = warm[c]
        mine = c[0] == "contextkit"
        rows.append(f"| {label} | {name_of(*c, runner.versions)} | {load_cell(f)} | {cell(f)} | {cell(w)} | "
                    f"{'' if mine else ratio(first[reference], f) if c in first else ''} / {'' if mine else ratio(warm[reference], w)} | "
                    f"{'' if mine else ratio(first[encode_reference], f) if c in first else ''} / {'' if mine else ratio(warm[encode_reference], w)} |")
    return first, warm, rows


# Kernel against kernel: no column holds a process start-up or an import.
SIDE_HEADER = ["| input | implementation | load ms (then one call on a short text, ms), outside the clock | first call MB/s CPU (wall) | warm MB/s CPU (wall) | ContextKit count / this: first / warm | ContextKit encode / this: first / warm |",
               "|---|---|---:|---:|---:|---:|---:|"]


def load_cell(r: dict) -> str:
    return f"{r['load'] * 1e3:.0f} ({r['warmup'] * 1e3:.1f})" if "load" in r else ""


def gigatoken_targets(report: Report, label: str, first: dict, warm: dict, count: tuple, encode: tuple, giga: tuple) -> None:
    for state, results in (("first call", first), ("warm", warm)):
        report.ratio_target(f"{label}, {state}: count ≥ 1.2× gigatoken", results[count], results[giga], 1.2)
        report.ratio_target(f"{label}, {state}: encode ≥ 1.0× gigatoken", results[encode], results[giga], 1.0)


def group_peers(runner: Runner, report: Report, paths: dict) -> None:
    """The OpenAI encodings on the Markov and the real corpora, every peer side by side."""
    rows = list(SIDE_HEADER)
    for encoding in ENCODINGS:
        contenders = [("tiktoken", "encode", encoding), ("bpe", "count", encoding), ("bpe", "encode", encoding),
                      ("gigatoken", "encode", encoding), ("fastokens", "encode", encoding), ("tokie", "encode", encoding),
                      ("contextkit", "count", encoding), ("contextkit", "encode", encoding)]
        count, encode = contenders[-2], contenders[-1]
        for corpus in MARKOV + REAL:
            label = f"{encoding}, {CORPUS_NAMES[corpus]}"
            print(f"peers {label} ...", flush=True)
            first, warm, table = side_by_side(runner, report, label, paths[corpus], contenders, count, encode)
            rows += table
            gigatoken_targets(report, label, first, warm, count, encode, contenders[3])
            if corpus in MARKOV:
                need = 2.0 if corpus == "en" else 1.5
                report.ratio_target(f"{label}, warm: count ≥ {need}× bpe-openai count", warm[count], warm[contenders[1]], need)
                if corpus == "en":
                    report.ratio_target(f"{label}, warm: count ≥ 5× tiktoken", warm[count], warm[contenders[0]], 5)
                report.ratio_target(f"{label}, warm: encode ≥ bpe-openai encode", warm[encode], warm[contenders[2]], 1)
    report.sections.append(("OpenAI encodings: every peer, kernel against kernel (first call and warm)", rows))


def open_model_files(cache: Path) -> list[tuple[str, str, str]]:
    """(label, ContextKit's first file, the tokenizer.json the peers read): each GGUF with the tokenizer.json
    made from it (ContextKit reads both), and Qwen3's own tokenizer.json (qwen2's family)."""
    out = []
    for model in OPEN_MODELS:
        gguf = GGUF / f"ggml-vocab-{model}.gguf"
        converted = gguf_tokenizer_json.ensure(gguf, cache / "tokenizer-json" / f"{model}.tokenizer.json")
        out.append((model, str(gguf), str(converted)))
    out.append(("Qwen3", str(HF / "qwen3.tokenizer.json"), str(HF / "qwen3.tokenizer.json")))
    return out


def group_openmodels(runner: Runner, report: Report, paths: dict, cache: Path) -> None:
    """llama-bpe (Llama 3) and qwen2 through GGUF and tokenizer.json, Qwen3's tokenizer.json, on the real corpora."""
    rows = list(SIDE_HEADER)
    for label, mine, theirs in open_model_files(cache):
        contenders = [("gigatoken", "encode", theirs), ("fastokens", "encode", theirs), ("tokie", "encode", theirs),
                      ("tokenizers", "encode", theirs), ("contextkit", "count", mine), ("contextkit", "encode", mine)]
        if mine != theirs:
            contenders += [("contextkit", "count", theirs), ("contextkit", "encode", theirs)]
        count, encode = contenders[4], contenders[5]
        # Qwen3 shares qwen2's pre-tokenizer: English alone, to keep the run short.
        for corpus in REAL if mine != theirs else REAL[:1]:
            row = f"{label}, {CORPUS_NAMES[corpus]}"
            print(f"openmodels {row} ...", flush=True)
            first, warm, table = side_by_side(runner, report, row, paths[corpus], contenders, count, encode)
            rows += table
            for at in range(4, len(contenders), 2):
                kind = "GGUF" if contenders[at][2].endswith(".gguf") else "tokenizer.json"
                gigatoken_targets(report, f"{label} {kind}, {CORPUS_NAMES[corpus]}", first, warm, contenders[at], contenders[at + 1], contenders[0])
    report.sections.append(("Open models (GGUF and tokenizer.json, no BOS) against gigatoken, fastokens, tokie and tokenizers, kernel against kernel", rows))


# Calls a round at every adversarial point: each point (1 to 8 MiB) and each
# implementation is the median of this many warm calls a round, then the median
# of the rounds. One method for every point: when the 1 MiB point alone was the
# fastest of 3 calls and the others one call, the first doubling looked steeper
# than the later ones for every implementation, ContextKit's and the peers'.
ADVERSARIAL_CALLS = 5


def group_adversarial(runner: Runner, report: Report, paths: dict) -> None:
    """One letter, spaces and random base64 at 1, 2, 4 and 8 MiB: every doubling at most 2.1× the time."""
    sizes = [s >> 20 for s in corpora.ADVERSARIAL_SIZES]
    rows = ["| encoding | input | implementation | " + " | ".join(f"{s} MiB ms CPU" for s in sizes) + " | " +
            " | ".join(f"{b}/{a} MiB CPU (wall)" for a, b in zip(sizes, sizes[1:])) + " |",
            "|---|---|---|" + "---:|" * (2 * len(sizes) - 1)]
    for encoding in ENCODINGS:
        contenders = [("tiktoken", "encode", encoding), ("bpe", "count", encoding), ("gigatoken", "encode", encoding),
                      ("contextkit", "count", encoding), ("contextkit", "encode", encoding)]
        for kind in corpora.ADVERSARIAL_KINDS:
            print(f"adversarial {encoding} {kind} ...", flush=True)
            results = {}
            for size in sizes:
                # tiktoken's time grows with the square of a piece's length: it stops at 2 MiB.
                here = [c for c in contenders if c[0] != "tiktoken" or size <= 2]
                # Every implementation the same rounds and calls (no caps for the peers here).
                results[size] = runner.measure(paths[f"adv-{kind}-{size}m"], here, inner=ADVERSARIAL_CALLS, pick=statistics.median)
                report.agree(f"{encoding} {kind} {size} MiB", results[size], contenders[3])
            for c in contenders:
                got = [results[s].get(c, {"error": "not run"}) for s in sizes]
                times = [g["error"] if "error" in g else f"{g['cpu'] * 1e3:.1f}" for g in got]
                growth = []
                for a, b in zip(got, got[1:]):
                    if "error" in a or "error" in b:
                        growth.append("")
                        continue
                    growth.append(f"{b['cpu'] / a['cpu']:.2f}× ({b['seconds'] / a['seconds']:.2f}×)")
                rows.append(f"| {encoding} | {kind} | {name_of(*c, runner.versions)} | {' | '.join(times)} | {' | '.join(growth)} |")
                if c[0] == "contextkit":
                    ratios = [b["cpu"] / a["cpu"] for a, b in zip(got, got[1:])]
                    report.targets.append((f"{encoding}, {kind}: {c[1]} linear, every doubling 1→8 MiB ≤ 2.1× the time",
                                           " → ".join(f"{x:.2f}×" for x in ratios) + " CPU", max(ratios) <= 2.1))
    # Ten million distinct pieces: a piece cache only fills; memory stays bounded, time linear.
    distinct_rows = ["| input | count s CPU | MB/s CPU | peak RSS (tokbench) | peak RSS − file size |", "|---|---:|---:|---:|---:|"]
    if runner.tokbench.exists():
        print("adversarial distinct pieces ...", flush=True)
        seen = {}
        for name in ("distinct-half", "distinct"):
            path = paths[name]
            cpus, rss = [], []
            for _ in range(max(1, min(runner.rounds, 3))):
                _, peak, stdout = runner.process([str(runner.tokbench), "cl100k_base", "count", "1", str(path)])
                run = json.loads(stdout.strip().splitlines()[-1])
                cpus.append(run["cpuSeconds"])
                rss.append(peak)
            size = path.stat().st_size
            # tokbench holds the file twice (Data and [UInt8]): the rest is the tokenizer's own.
            seen[name] = (statistics.median(cpus), max(rss) / 1024, size)
            cpu, peak_mb, _ = seen[name]
            pieces = corpora.DISTINCT_PIECES // (2 if name == "distinct-half" else 1)
            distinct_rows.append(f"| {pieces:,} distinct words, {size / MB:.0f} MB, cl100k count | {cpu:.2f} | {size / cpu / MB:.1f} | {peak_mb:.0f} MB | {peak_mb - 2 * size / MIB:.0f} MB |")
        (h_cpu, h_rss, h_size), (f_cpu, f_rss, f_size) = seen["distinct-half"], seen["distinct"]
        report.targets.append(("10 million distinct pieces: time linear (full ≤ 2.1× half)", f"{f_cpu / h_cpu:.2f}× ({f_cpu:.2f} s vs {h_cpu:.2f} s CPU)", f_cpu / h_cpu <= 2.1))
        growth = (f_rss - 2 * f_size / MIB) - (h_rss - 2 * h_size / MIB)
        report.targets.append(("10 million distinct pieces: memory bounded (beyond the file, full ≤ half + 16 MB)",
                               f"{f_rss - 2 * f_size / MIB:.0f} MB vs {h_rss - 2 * h_size / MIB:.0f} MB beyond the file", growth <= 16))
    report.sections.append((f"Adversarial inputs (kernel against kernel, warm; every point, 1 to 8 MiB, and every implementation: the median of {ADVERSARIAL_CALLS} calls a round, the median of {runner.rounds} rounds after a warm-up round; the distinct-pieces rows: one `tokbench` first call, peak RSS of its whole process)", rows + ["", *distinct_rows]))


def group_formats(runner: Runner, report: Report, paths: dict) -> None:
    """Issue 17's formats against their reference library: no new format slower than its reference."""
    import mistral_common

    spm = REPO / "Tests/Fixtures/sentencepiece"
    data = Path(mistral_common.__file__).parent / "data"
    formats = [
        ("tekken (mistral-common tekken_240911.json)", data / "tekken_240911.json", "mistral-common"),
        ("SentencePiece BPE, byte fallback (mistral-common tokenizer.model.v1)", data / "tokenizer.model.v1", "sentencepiece"),
        ("SentencePiece BPE (sentencepiece's botchan_en_bpe_1000)", spm / "botchan_en_bpe_1000.model", "sentencepiece"),
        ("SentencePiece Unigram (sentencepiece's botchan_en_unigram_1000)", spm / "botchan_en_unigram_1000.model", "sentencepiece"),
        ("SentencePiece Unigram (sentencepiece's kyoto_ja_unigram_8000)", spm / "kyoto_ja_unigram_8000.model", "sentencepiece"),
        ("tokenizer.json Unigram (botchan_en_unigram_1000)", spm / "botchan_en_unigram_1000.tokenizer.json", "tokenizers"),
        ("tokenizer.json Unigram (kyoto_ja_unigram_8000)", spm / "kyoto_ja_unigram_8000.tokenizer.json", "tokenizers"),
        ("tokenizer.json WordPiece (all-MiniLM-L6-v2)", REPO / "Tests/Fixtures/wordpiece/all-minilm-l6-v2/tokenizer.json", "tokenizers"),
    ]
    rows = ["| format | corpus | implementation | MB/s CPU (wall) | ContextKit / this, CPU |", "|---|---|---|---:|---:|"]
    for label, file, reference in formats:
        contenders = [(reference, "encode", str(file)), ("contextkit", "count", str(file)), ("contextkit", "encode", str(file))]
        for corpus in ("en-2m", "cjk"):
            print(f"formats {label} {corpus} ...", flush=True)
            results = runner.measure(paths[corpus], contenders)
            report.agree(f"{label} {corpus}", results, contenders[1])
            peer = results[contenders[0]]
            for c in contenders:
                rows.append(f"| {label} | {CORPUS_NAMES[corpus]} | {name_of(*c, runner.versions)} | {cell(results[c])} | {ratio(results[c], peer) if c[0] == 'contextkit' else ''} |")
            report.ratio_target(f"{label}, {CORPUS_NAMES[corpus]}: count ≥ {reference}", results[contenders[1]], peer, 1.0)
    report.sections.append(("Issue 17's formats against their reference library (kernel against kernel, warm)", rows))


def group_process(runner: Runner, report: Report, paths: dict, cache: Path) -> None:
    """Whole processes, wall clock from start to exit (process start-up, loading, reading, tokenizing, output):
    `tokcount` on a file, start-up, open-model start-up, two cores, many files; Python peers' processes only beside
    `tokcount`'s, never beside a kernel row."""
    if not runner.tokcount.exists():
        report.targets.append(("tokcount rows", "tokcount was not built", False))
        return
    tokcount = str(runner.tokcount)
    n = max(3, min(runner.rounds, 5))
    rows = ["| what | wall (median) | MB/s | peak RSS | tokens |", "|---|---:|---:|---:|---:|"]

    # One 40 MB file: the whole process against the in-process count of the same bytes.
    print("process 40 MB ...", flush=True)
    mid = paths["mid"]
    walls, inproc, counts = [], [], set()
    runner.process([tokcount, "-e", "cl100k_base", "-j", "1", "--json", str(mid)])  # warm-up: the file back in the page cache
    for _ in range(n):
        wall, peak, out = runner.process([tokcount, "-e", "cl100k_base", "-j", "1", "--json", str(mid)])
        walls.append(wall)
        counts.add(tokcount_tokens(out))
        (run,) = runner.tokbench_runs("count", "cl100k_base", mid, 1)
        inproc.append(run["seconds"])
        counts.add(run["tokens"])
    whole, inside = statistics.median(walls), statistics.median(inproc)
    size = mid.stat().st_size
    rows.append(f"| `tokcount -e cl100k_base -j 1` on {size // MB} MB | {whole:.3f} s | {size / whole / MB:.1f} | {peak / 1024:.0f} MB | {', '.join(map(str, sorted(counts)))} |")
    rows.append(f"| (ContextKit's own kernel for scale: `tokbench` count of the same bytes, the tokenizer's first call on them, start-up, load and reading outside the clock; the target below measures what the whole process adds) | {inside:.3f} s | {size / inside / MB:.1f} | | |")
    report.targets.append((f"`tokcount -j 1` on {size // MB} MB within 10% of the in-process count", f"{inside / whole:.3f} of the in-process speed ({size / whole / MB:.1f} vs {size / inside / MB:.1f} MB/s wall){'' if len(counts) == 1 else ', counts DIFFER'}",
                           whole <= inside * 1.1 and len(counts) == 1))

    # Start-up on 1 KB, prepared vocabulary cached, and peak RSS per encoding.
    print("process start-up ...", flush=True)
    small = str(paths["en-1k"])
    for encoding, limit in (("cl100k_base", 64), ("o200k_base", 96)):
        command = [tokcount, "-e", encoding, small]
        with tempfile.TemporaryDirectory() as empty:
            cold, cold_rss, _ = runner.process(command, env={**os.environ, "CONTEXTKIT_CACHE": empty})
        for _ in range(3):
            runner.process(command)
        samples = [runner.process(command) for _ in range(max(20, runner.rounds))]
        wall = statistics.median(s[0] for s in samples)
        rss = max(s[1] for s in samples) / 1024
        rows.append(f"| `tokcount -e {encoding}` on 1 KB, prepared vocabulary cached | {wall * 1e3:.1f} ms | | {rss:.1f} MB | |")
        rows.append(f"| the same, first run with an empty cache (builds it) | {cold * 1e3:.1f} ms | | {cold_rss / 1024:.1f} MB | |")
        if encoding == "cl100k_base":
            report.targets.append(("`tokcount` on a 1 KB file, process start to exit < 20 ms", f"{wall * 1e3:.1f} ms (median of {len(samples)})", wall < 0.020))
        report.targets.append((f"peak RSS ≤ {limit} MB with {encoding} loaded (1 KB)", f"{rss:.1f} MB (largest of {len(samples)} runs)", rss <= limit))

    # Start-up with a large open-model tokenizer on one line: first run after clearing the cache, then the later runs.
    print("process open-model start-up ...", flush=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as line:
        line.write("The quick brown fox jumps over the lazy dog.\n")
    load_rows = ["| tokenizer file (size) | `tokcount` first run, empty cache | later runs (median) | peak RSS later / file size | gigatoken: load (whole process: Python start, imports, load, one call on a short text, encode one line) | tokenizers: the same |",
                 "|---|---:|---:|---:|---:|---:|"]
    for file in (GGUF / "ggml-vocab-llama-bpe.gguf", HF / "qwen3.tokenizer.json"):
        vocab = file.stat().st_size / MIB
        command = [tokcount, "-e", str(file), line.name]
        with tempfile.TemporaryDirectory() as fresh:
            env = {**os.environ, "CONTEXTKIT_CACHE": fresh}
            try:
                cold, _, _ = runner.process(command, env=env)
                later = [runner.process(command, env=env) for _ in range(n)]
            except RuntimeError as error:
                load_rows.append(f"| {file.name} ({vocab:.1f} MB) | failed: {error} | | | | |")
                report.targets.append((f"`tokcount -e {file.name}` start-up < 50 ms from the second run", f"failed: {error}", False))
                continue
        wall = statistics.median(s[0] for s in later)
        rss = max(s[1] for s in later) / 1024
        json_file = str(file) if file.suffix == ".json" else str(gguf_tokenizer_json.ensure(file, cache / "tokenizer-json" / f"{file.stem.removeprefix('ggml-vocab-')}.tokenizer.json"))
        peer_cells = []
        for who in ("gigatoken", "tokenizers"):
            samples = [runner.process([sys.executable, str(HERE / "peers.py"), who, "encode", json_file, line.name]) for _ in range(3)]
            loads = [json.loads(s[2].strip().splitlines()[-1])["loadSeconds"] for s in samples]
            peer_cells.append(f"{statistics.median(loads) * 1e3:.0f} ms load ({statistics.median(s[0] for s in samples) * 1e3:.0f} ms process)")
        load_rows.append(f"| {file.name} ({vocab:.1f} MB) | {cold * 1e3:.0f} ms | {wall * 1e3:.1f} ms | {rss:.0f} MB / {vocab:.1f} MB | {' | '.join(peer_cells)} |")
        report.targets.append((f"`tokcount -e {file.name}` start-up < 50 ms from the second run", f"{wall * 1e3:.1f} ms (median of {len(later)}; first run {cold * 1e3:.0f} ms)", wall < 0.050))
        report.targets.append((f"`tokcount -e {file.name}` peak RSS ≤ 2× the file ({vocab:.1f} MB)", f"{rss:.0f} MB = {rss / vocab:.2f}×", rss <= 2 * vocab))
    os.unlink(line.name)

    # 100 MB on one and two cores.
    print("process multi-core ...", flush=True)
    big = str(paths["big"])
    results: dict[int, list] = {1: [], 2: []}
    counts2: dict[int, set] = {1: set(), 2: set()}
    for r in range(min(runner.rounds, 5) + 1):
        for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
            wall, _, out = runner.process([tokcount, "-e", "cl100k_base", "-j", str(jobs), "--json", big], cpus=ALL_CPUS)
            counts2[jobs].add(tokcount_tokens(out))
            if r > 0:
                results[jobs].append(wall)
    one, two = statistics.median(results[1]), statistics.median(results[2])
    for jobs, seconds in ((1, one), (2, two)):
        rows.append(f"| `tokcount -j {jobs}` on {corpora.BIG_SIZE // MB} MB | {seconds:.3f} s | {corpora.BIG_SIZE / seconds / MB:.1f} | | {', '.join(map(str, sorted(counts2[jobs])))} |")
    same = len(counts2[1] | counts2[2]) == 1
    # The machine's own ceiling, for the same work with nothing shared: one
    # in-process count of the file, then two independent processes doing it
    # at once, one on each CPU. On a quiet machine with two real cores the
    # pair takes as long as one alone (2.00×); what it gets below that is
    # lost to the machine (shared caches, memory, neighbours), not to tokcount.
    def in_process_walls(copies: int) -> float:
        start = time.perf_counter()
        procs = [subprocess.Popen([str(runner.tokbench), "cl100k_base", "count", "1", big], stdout=subprocess.DEVNULL,
                                  preexec_fn=(lambda c=cpu: os.sched_setaffinity(0, {c}))) for cpu in sorted(ALL_CPUS)[:copies]]
        if any(p.wait() != 0 for p in procs):
            raise RuntimeError("tokbench failed in the two-process control")
        return time.perf_counter() - start
    alone, pair = [], []
    for r in range(min(runner.rounds, 5)):
        for copies in ((1, 2) if r % 2 == 0 else (2, 1)):
            (alone if copies == 1 else pair).append(in_process_walls(copies))
    ceiling = 2 * statistics.median(alone) / statistics.median(pair)
    rows.append(f"| (control: two `tokbench` processes counting {corpora.BIG_SIZE // MB} MB at once, one per CPU, against one alone: "
                f"{ceiling:.2f}× the throughput, the most this machine gave two cores in this run; not a target) | | | | |")
    # The target is the control's, not 2.00×: a virtual machine's two CPUs
    # give two processes less than twice one's throughput (issue 41, item 5).
    report.targets.append(("100 MB on 2 cores ≥ 0.95× the two-process control's speed-up, identical count",
                           f"{one / two:.2f}× ({one:.2f} s → {two:.2f} s) against the control's {ceiling:.2f}×: {one / two / ceiling:.3f} of it, counts {'identical' if same else 'DIFFER'}",
                           one / two >= 0.95 * ceiling and same))

    # 10,000 small files against the one file they were cut from: with one
    # thread on one CPU, and with the files spread across two workers on both
    # CPUs (the target: reading 10,000 files is about as much work for the
    # kernel as counting them, so one CPU cannot hide it).
    print("process 10,000 files ...", flush=True)
    folder, single = paths["small-files"], paths["en"]
    folder_bytes = sum(p.stat().st_size for p in folder.iterdir())
    files = sorted(str(p) for p in folder.iterdir())
    for jobs, cpus in ((1, None), (2, ALL_CPUS)):
        walls = {"folder": [], "file": [], "cat": []}
        for target in (folder, single):  # warm-up: the files back in the page cache
            runner.process([tokcount, "-e", "cl100k_base", "-j", str(jobs), "--json", str(target)], cpus=cpus)
        for r in range(n):
            for what in (("folder", "file") if r % 2 == 0 else ("file", "folder")):
                target = folder if what == "folder" else single
                wall, _, _ = runner.process([tokcount, "-e", "cl100k_base", "-j", str(jobs), "--json", str(target)], cpus=cpus)
                walls[what].append(wall)
            if jobs == 1:
                # Reading the files alone: `cat` of all of them, one process, to /dev/null.
                walls["cat"].append(runner.process(["sh", "-c", 'exec cat "$@" > /dev/null', "cat", *files], cpus=cpus)[0])
        many, one_file = statistics.median(walls["folder"]), statistics.median(walls["file"])
        where = "one CPU" if cpus is None else f"{len(cpus)} CPUs"
        rows.append(f"| `tokcount -j {jobs}` ({where}) on a folder of {corpora.SMALL_FILES:,} files, {folder_bytes / MB:.0f} MB in all | {many:.3f} s | {folder_bytes / many / MB:.1f} | | |")
        rows.append(f"| `tokcount -j {jobs}` ({where}) on the one {single.stat().st_size / MB:.0f} MB file they were cut from | {one_file:.3f} s | {single.stat().st_size / one_file / MB:.1f} | | |")
        share = (folder_bytes / many) / (single.stat().st_size / one_file)
        if jobs == 1:
            reading = statistics.median(walls["cat"])
            rows.append(f"| `cat` of the {corpora.SMALL_FILES:,} files (one CPU) | {reading:.3f} s | {folder_bytes / reading / MB:.1f} | | |")
            floor = reading + one_file
            report.targets.append((f"{corpora.SMALL_FILES:,} small files with `-j 1` ≤ 1.5× their floor (`cat` of the files + `tokcount -j 1` on the file they were cut from)",
                                   f"{many:.3f} s against {floor:.3f} s ({reading:.3f} + {one_file:.3f}): {many / floor:.2f}×", many <= 1.5 * floor))
        else:
            # Issue 41 restated the folder's target as the one-CPU floor above; this is context.
            rows.append(f"| (2 CPUs: the folder at {share * 100:.0f}% of the file's speed; not a target) | | | | |")
    report.sections.append(("Whole processes (wall clock from process start to exit: start-up, loading, reading, tokenizing and output; not comparable with the kernel rows above)", rows + ["", *load_rows]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", type=Path, required=True, help="folder with the release tokbench and tokcount")
    parser.add_argument("--cache", type=Path, required=True, help="folder for the generated corpora")
    parser.add_argument("--rounds", type=int, default=5, help="measured rounds after the warm-up (the report needs at least 5; --only takes fewer)")
    parser.add_argument("--report", type=Path, default=REPO / "reports" / "bench.md")
    parser.add_argument("--only", help=f"comma-separated groups of {', '.join(GROUPS)}: run those, print their rows, write no report")
    args = parser.parse_args()
    only = [g for g in (args.only or "").split(",") if g]
    unknown = [g for g in only if g not in GROUPS]
    if unknown:
        parser.error(f"unknown group {', '.join(unknown)}: the groups are {', '.join(GROUPS)}")
    rounds = max(1, args.rounds) if only else max(5, args.rounds)
    first_rounds = max(1, min(rounds, 3))
    peers.pin()  # single thread: this process and every tokbench it starts run on one CPU

    paths = corpora.make(args.cache)
    real_paths, real_sources = corpora.make_real(args.cache)
    paths.update(real_paths)
    waited = settle()
    load_before = load_average()
    print(f"load average before: {load_before} (after waiting {waited:.0f} s for it to settle)", flush=True)
    refaults_before = file_refaults()
    runner = Runner(args.bin, rounds, first_rounds)
    report = Report()
    started = time.perf_counter()
    for group in only or GROUPS:
        if group == "peers":
            group_peers(runner, report, paths)
        elif group == "openmodels":
            group_openmodels(runner, report, paths, args.cache)
        elif group == "adversarial":
            group_adversarial(runner, report, paths)
        elif group == "process":
            group_process(runner, report, paths, args.cache)
        elif group in ("formats", "tekken") and not any(title.startswith("Issue 17") for title, _ in report.sections):
            group_formats(runner, report, paths)
    report.targets.append(("ContextKit's counts equal the reference library's (tiktoken, bpe-openai, tokenizers, sentencepiece, mistral-common) on every input",
                           "all agree" if not report.disagreements else "; ".join(report.disagreements), not report.disagreements))
    if report.peer_disagreements:
        report.sections.append(("Peers that disagree (shown as disagreeing, not timed)", [f"- {d}" for d in report.peer_disagreements]))
    load_after = load_average()
    refaults = file_refaults() - refaults_before
    minutes = (time.perf_counter() - started) / 60

    targets = ["| target | measured | |", "|---|---|---|", *[f"| {t} | {m} | {'met' if ok else '**shortfall**'} |" for t, m, ok in report.targets]]
    body = []
    for title, rows in report.sections:
        body += [f"## {title}", "", *rows, ""]
    if only:
        print("\n".join(body + ["## Targets", "", *targets]))
        print(f"load average after: {load_after}; {minutes:.1f} min")
        return 0

    sources = [f"- {CORPUS_NAMES[name]} ({s['bytes'] / MB:.1f} MB, {s['files']} files, whole, in sorted order from {s['first']} to {s['last']}): "
               + ", ".join(f"{folder} {n / MB:.2f} MB" for folder, n in s["folders"].items()) for name, s in real_sources.items()]
    calls = [f"- {name_of(who, mode, '', runner.versions)}: `{call}`" for (who, mode), call in peers.CALLS.items() if who in runner.versions]
    report_text = "\n".join([
        "# Tokenizer speed: ContextKit against gigatoken, fastokens, tokie, bpe-openai and tiktoken",
        "",
        "Generated by `bench/run` (do not edit by hand). Single thread (pinned to one CPU, `RAYON_NUM_THREADS=1`) unless said",
        "otherwise; MB = 10^6 bytes. Two kinds of row, never compared with each other:",
        "",
        "- **Kernel against kernel** (the OpenAI-encoding, open-model, adversarial and format tables, and every target on them):",
        "  the tokenizer's call alone. Process start-up, the interpreter, imports and loading the tokenizer are outside the clock,",
        "  the same for every implementation. Two cache states: **first call** — in a fresh process per round the tokenizer is",
        "  loaded (the load column, timed apart), called once on a short text (`WARMUP` in `bench/peers.py`, the same text in",
        "  `tokbench`; its time is in the load column's parentheses: what a binding does on its first call, such as gigatoken's",
        f"  lazy `import numpy`, happens there), and then its first call on the text is timed (median of {first_rounds} processes);",
        f"  **warm** — the same text again with the same tokenizer (median of {rounds} rounds after a warm-up round). Each",
        "  implementation gets the text as UTF-8 bytes where its call takes them (ContextKit always; the peers in",
        "  `peers.BYTES`), else as a `str` decoded before the clock starts. Python peers' Rust cores are called directly;",
        "  ContextKit runs in `tokbench`, which times `count(utf8:)` / `encodeOrdinary(utf8:)`.",
        "- **Whole process** (the section \"Whole processes\"): `tokcount`, and beside it Python peers' processes, from start to exit, wall",
        "  clock: process start-up, the interpreter and imports, loading, reading and tokenizing. That is what a command-line",
        "  user waits for, but start-up and imports are not tokenizing, so no kernel row is compared with these.",
        "",
        "The implementations alternate round by round on the same bytes. Kernel speeds are CPU time (the peer process's,",
        "tokbench's thread's), which the other processes of a shared machine disturb far less than the wall clock; wall-clock",
        "figures follow in parentheses. A peer whose count differs from ContextKit's is shown as disagreeing, not timed. Peers",
        "that keep no cache across calls get fewer rounds: tiktoken and bpe-openai one first-call process and 3 warm rounds,",
        "`tokenizers` one call, sentencepiece and mistral-common 3, and `tokenizers` and sentencepiece no first-call row.",
        "Whole-process rows are wall clock and need an idle machine.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {cpu_model()}; {platform.platform()}.",
        f"Load average (1, 5, 15 min) before: {load_before} (the run waited {waited:.0f} s for the 1-minute figure to fall to 0.3 or less, at most 300 s); after: {load_after}. Run time {minutes:.0f} min.",
        f"Pages of files read back in after the kernel dropped them, during the run: {refaults:,}"
        + (" (this machine pages out memory it sees as cold: DAMON's pageout scheme is on, so a file left alone for a while is read from disk "
           "again; every row times its input after a warm-up round)." if pages_out_cold_memory() else "."),
        "",
        "Peers' calls:",
        *calls,
        "",
        f"Corpora (`bench/corpora.py`, cached under `{args.cache}`): Markov English prose {corpora.SIZES['en'] // MB} MB, CJK text",
        f"{corpora.SIZES['cjk'] // MB} MB, source code {corpora.SIZES['code'] // MB} MB; adversarial one letter, spaces and random base64 at 1, 2, 4 and 8 MiB;",
        f"{corpora.DISTINCT_PIECES:,} distinct words; {corpora.MID_SIZE // MB} MB and {corpora.BIG_SIZE // MB} MB of English for the whole-process runs.",
        "Real text from Debian's own files:",
        *sources,
        "",
        "## Targets",
        "",
        *targets,
        "",
        *SHORTFALLS,
        "",
        *body,
    ])
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(report_text)
    print(report_text)
    print(f"wrote {args.report}")
    return 0


# What stands behind the shortfalls above, and where each is measured in full.
SHORTFALLS = [
    "Where a target falls short, what was measured and tried (details and figures in the performance notes named):",
    "",
    "- **Kernel against gigatoken** (count ≥ 1.2×, encode ≥ 1.0×): the piece kernel (`Sources/CPieceKernel`,",
    "  `Sources/TokenKit/Models/PieceKernel.swift`) cuts ASCII text 64 bytes at a time from class masks (AVX-512BW, AVX2,",
    "  SSE2 or NEON, and portable tiers) and probes one table of pieces, their counts and ids; warm count is at or past",
    "  1.2× on every English and code row. What remains: encode writes 8-byte `Int` ids (the API's type; gigatoken's",
    "  are 4 bytes) and each piece's stores wait on its probe; text with bytes from 0x80 (the Debian zh/ja pages) goes",
    "  back to the scanner and the memo piece by piece, where gigatoken classifies code points in its blocks; and a",
    "  first call encodes each new piece once. Seeding the kernel's table with the vocabulary, as gigatoken does, was",
    "  built and measured: it saved at most 4.7 ms of English's first call and nothing of code's, for a 13-15 ms build.",
    "- **Adversarial doublings** (≤ 2.1×): base64's 1 → 2 MiB step is the memo helping a 1 MiB text that it cannot hold",
    "  at 2 MiB; the bypass brings the later steps close to 2×, not always under 2.1× (`PieceCache`, \"Adversarial text\").",
    "  One letter and spaces on cl100k cross 2.1× at a different step in each run on unchanged code: a point's time",
    "  varies by about a tenth between runs on this VM.",
    "- **`tokcount -j 1` against the in-process count**: the file is mapped, not copied (a guard turns a truncation's",
    "  SIGBUS into that file's error), and a built-in encoding loads without reading its shipped file again. What the",
    "  whole process still adds is spent before the text is tokenized: its start-up (the 1 KB row) and `TextStats`. The",
    "  count kernel (`PieceKernel`) took the in-process count from 379 to 502 MB/s and the whole process from",
    "  323 to 421 MB/s, so the ratio fell from 0.85–0.92 to about 0.84, and its windows (stop 54) to 658 and 484 MB/s",
    "  (0.74): the faster the tokenizer, the larger the share of what surrounds it.",
    "  What was tried and measured is in the performance notes of `Sources/ContextKit/Input/ChunkReader.swift` and",
    "  `TextStats.swift`.",
    "- **2 cores**: the ratio to the two-process control moves by a few hundredths from run to run (the control's own",
    "  speed-up varies most); `Sources/TokenKit/Models/PieceCache.swift` (\"The tables' pages are mapped\") and",
    "  `StreamCounter` hold what was found.",
    "- **Open-model peak RSS ≤ 2× the file**: the process alone, before any tokenizer (`tokcount --help`), peaks at",
    "  about 14 MB, 1.8× the 7.5 MB GGUF file, so the target cannot be met by the tokenizer's tables alone.",
]


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
