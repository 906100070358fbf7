#!/usr/bin/env python3
"""ContextKit's chunk planner against its peers, on the same inputs and budgets.

Peers (pinned in scripts/requirements-test.txt): semantic-text-splitter (the
Python package of text-splitter; MarkdownSplitter for .md inputs, TextSplitter
otherwise, with trim=False so chunks tile the text as ContextKit's do) and
semchunk, both sized with tiktoken's cl100k_base. ContextKit runs as
`ctxkit plan --json` with a profile of exactly BUDGET tokens (cl100k_base, no
overheads, --reserve 0), so all three fill the same number of tokens.

Every chunk of every tool is recounted here with tiktoken (encode_ordinary):
chunks, mean fill (tokens / budget), chunks over budget, the smallest chunk,
and time (the peers timed in-process around the split call, wall and CPU; ContextKit's planningSeconds, its own
in-process time around ChunkPlanner.plan, with the CPU time of that call and
the wall time of the whole process beside it: on a busy machine the CPU time
is the figure other processes do not inflate).

Inputs: corpora/prose/en.txt, corpora/code/sample.md, the UDHR in English,
the 24 translations of corpora/prose joined, and generated English (a
word-bigram chain over en.txt and the UDHR, fixed seed) of 1 MB and 10 MB; the
10 MB text is also the speed goal (under a second for 4,096-token chunks).

Usage:
  py="$(scripts/python-env | tail -n1)"
  swift build -c release --product ctxkit
  "$py" bench/plan-peers.py --ctxkit "$(swift build -c release --show-bin-path)/ctxkit"
Options: --budgets 256,1024,4096  --skip-peers-above BYTES  --json FILE
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

from tiktoken_encodings import load as load_encoding  # noqa: E402

import semchunk  # noqa: E402
import semantic_text_splitter  # noqa: E402

CACHE = Path(os.environ.get("CONTEXTKIT_CACHE", Path.home() / ".cache" / "contextkit")) / "bench-plan"
UDHR_ENGLISH = REPO / "Tests" / "Fixtures" / "udhr" / "eng.txt"


def generated_english(size: int) -> Path:
    """English-like prose from a word-bigram chain over the project's English texts."""
    path = CACHE / f"english-{size}.txt"
    if path.exists() and path.stat().st_size == size:
        return path
    sources = [(REPO / "corpora" / "prose" / "en.txt").read_text(encoding="utf-8")]
    if UDHR_ENGLISH.exists():
        sources.append(UDHR_ENGLISH.read_text(encoding="utf-8"))
    words = " ".join(sources).split()
    following: dict[str, list[str]] = {}
    for a, b in zip(words, words[1:]):
        following.setdefault(a, []).append(b)
    starts = [w for w in words if w[:1].isupper()]
    rng = random.Random(20251129)
    out: list[str] = []
    length = 0
    while length < size:
        paragraph: list[str] = []
        for _ in range(rng.randint(3, 8)):
            word = rng.choice(starts)
            sentence = [word]
            while not word.endswith((".", "!", "?")) and len(sentence) < 40:
                word = rng.choice(following.get(word) or starts)
                sentence.append(word)
            if not sentence[-1].endswith((".", "!", "?")):
                sentence[-1] += "."
            paragraph.append(" ".join(sentence))
        text = " ".join(paragraph) + "\n\n"
        out.append(text)
        length += len(text.encode("utf-8"))
    data = "".join(out).encode("utf-8")[:size]
    while data and (data[-1] & 0xC0) == 0x80:  # never end inside a character
        data = data[:-1]
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def joined_translations() -> Path:
    path = CACHE / "prose-24-languages.txt"
    parts = [p.read_text(encoding="utf-8") for p in sorted((REPO / "corpora" / "prose").glob("*.txt"))]
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n".join(parts), encoding="utf-8")
    return path


def inputs() -> list[Path]:
    files = [REPO / "corpora" / "prose" / "en.txt", REPO / "corpora" / "code" / "sample.md"]
    if UDHR_ENGLISH.exists():
        files.append(UDHR_ENGLISH)
    files += [joined_translations(), generated_english(1_000_000), generated_english(10_000_000)]
    return files


def measure(chunks: list[str], budget: int, enc) -> dict:
    counts = [len(enc.encode_ordinary(c)) for c in chunks]
    return {
        "chunks": len(counts),
        "meanFill": sum(counts) / (len(counts) * budget) if counts else 0.0,
        "overBudget": sum(1 for c in counts if c > budget),
        "minTokens": min(counts) if counts else 0,
    }


def timed(split) -> tuple[list[str], float, float]:
    """The chunks, wall seconds and CPU seconds (all threads of this process) of one split."""
    wall, cpu = time.perf_counter(), time.process_time()
    chunks = split()
    return chunks, time.perf_counter() - wall, time.process_time() - cpu


def run_text_splitter(text: str, budget: int, markdown: bool) -> tuple[list[str], float, float]:
    kind = semantic_text_splitter.MarkdownSplitter if markdown else semantic_text_splitter.TextSplitter
    splitter = kind.from_tiktoken_model("gpt-4", budget, trim=False)
    return timed(lambda: splitter.chunks(text))


def run_semchunk(text: str, budget: int, enc) -> tuple[list[str], float, float]:
    chunker = semchunk.chunkerify(enc, budget)
    return timed(lambda: chunker(text))


def run_contextkit(ctxkit: str, path: Path, budget: int, profiles: Path) -> tuple[list[str], float, float, float]:
    start = time.perf_counter()
    done = subprocess.run(
        [ctxkit, "plan", str(path), "--profiles", str(profiles), "-m", f"bench-cl100k-{budget}", "--reserve", "0", "--json"],
        check=True, capture_output=True)
    wall = time.perf_counter() - start
    report = json.loads(done.stdout)
    data = path.read_bytes()
    chunks = [data[c["bytes"]["start"]:c["bytes"]["end"]].decode("utf-8", errors="surrogateescape") for c in report["chunks"]]
    assert b"".join(data[c["bytes"]["start"]:c["bytes"]["end"]] for c in report["chunks"]) == data, "ContextKit chunks do not tile the input"
    return chunks, report["planningSeconds"], report["planningCPUSeconds"], wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ctxkit", default=os.environ.get("CTXKIT", str(REPO / ".build" / "release" / "ctxkit")))
    parser.add_argument("--budgets", default="256,1024,4096")
    parser.add_argument("--skip-peers-above", type=int, default=20_000_000, help="bytes; larger inputs run ContextKit only")
    parser.add_argument("--json", help="also write every row to this file")
    args = parser.parse_args()
    if not Path(args.ctxkit).exists():
        print(f"plan-peers: no ctxkit at {args.ctxkit}; build it with swift build -c release --product ctxkit and pass --ctxkit", file=sys.stderr)
        return 2
    budgets = [int(b) for b in args.budgets.split(",")]
    enc = load_encoding("cl100k_base")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        profiles = Path(scratch) / "profiles.json"
        profiles.write_text(json.dumps({"profiles": [
            {"name": f"bench-cl100k-{b}", "contextWindow": b, "tokenizer": {"encoding": "cl100k_base"}} for b in budgets]}))
        print("| input | budget | tool | chunks | mean fill | over budget | smallest | time |")
        print("|---|---:|---|---:|---:|---:|---:|---:|")
        for path in inputs():
            text = path.read_text(encoding="utf-8")
            size = len(text.encode("utf-8"))
            name = path.name + (" (generated)" if path.name.startswith("english-") else "")
            for budget in budgets:
                results = []
                chunks, seconds, cpu, wall = run_contextkit(args.ctxkit, path, budget, profiles)
                results.append(("ContextKit", measure(chunks, budget, enc), f"{seconds * 1000:,.1f} ms (CPU {cpu * 1000:,.1f} ms; process {wall * 1000:,.0f} ms)", seconds))
                if size <= args.skip_peers_above:
                    chunks, seconds, cpu = run_text_splitter(text, budget, path.suffix == ".md")
                    results.append(("semantic-text-splitter", measure(chunks, budget, enc), f"{seconds * 1000:,.1f} ms (CPU {cpu * 1000:,.1f} ms)", seconds))
                    chunks, seconds, cpu = run_semchunk(text, budget, enc)
                    results.append(("semchunk", measure(chunks, budget, enc), f"{seconds * 1000:,.1f} ms (CPU {cpu * 1000:,.1f} ms)", seconds))
                for tool, m, shown, seconds in results:
                    print(f"| {name} ({size:,} B) | {budget:,} | {tool} | {m['chunks']:,} | {m['meanFill']:.1%} | {m['overBudget']} | {m['minTokens']:,} | {shown} |", flush=True)
                    rows.append({"input": name, "bytes": size, "budget": budget, "tool": tool, "seconds": seconds, **m})
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
