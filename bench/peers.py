"""The Python tokenizers bench/bench.py races ContextKit against, behind one call.

`load(peer, mode, spec)` returns `(call, version)` where `call(data)` returns
the token count (every peer's own count or encode call, as named in CALLS)
and `spec` is an OpenAI encoding name (cl100k_base, o200k_base) or a
tokenizer file (tokenizer.json, SentencePiece .model, tekken .json).
`payload(peer, data)` is what the peer is given for the UTF-8 bytes `data`:
the bytes themselves where its call accepts them (BYTES), else the decoded
`str`, made outside the clock. Single thread: RAYON_NUM_THREADS=1 is set
before any import, and `pin()` keeps the process on one CPU (tokie splits a
long text across std threads, as many as the CPUs it may use). CPU time is
the whole process's, so work a peer hands to a helper thread is counted.

Run as a script it times a first call in a fresh process, by the rule every
implementation follows (ContextKit's `tokbench` too): the peer is imported
and its tokenizer loaded (loadSeconds), the binding is called once on
WARMUP, a short text (warmupSeconds: what a binding sets up on its first
call, such as gigatoken's lazy `import numpy`), the file is read, and then
exactly one call on the file's text is timed. It prints one JSON line
{"seconds", "cpuSeconds", "tokens", "bytes", "loadSeconds", "warmupSeconds",
"first": true}.
    python bench/peers.py PEER MODE SPEC FILE
The process's own start-up (the interpreter, imports) is not in any of these
figures: bench/bench.py times whole processes separately, as whole processes.
"""

from __future__ import annotations

import os

os.environ["RAYON_NUM_THREADS"] = "1"  # before gigatoken, fastokens, tokie or tokenizers start a pool
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scripts"))
sys.path.insert(0, str(HERE))

OPENAI = ("cl100k_base", "o200k_base")

# The short text each implementation is called on once before its clock
# starts: ASCII prose, Latin, Chinese, Japanese and Korean letters, digits and
# code, so that whatever a binding imports or builds on its first call (for
# any script) is done. The same text as `warmUpText` in bench/tokbench.
WARMUP = "Hello, world! It's 2026: café, naïve. 你好，世界。こんにちは、世界。안녕하세요.\n    def f(x): return x + 1\n"

# Peers whose call takes the UTF-8 bytes themselves (`bytes`, same tokens as
# for the `str`): they get them, as ContextKit does. The others refuse `bytes`
# (tiktoken, bpe-openai, fastokens, tokie, tokenizers and mistral-common raise
# TypeError) and get the text decoded before the clock starts.
BYTES = {"gigatoken", "sentencepiece"}

# What each (peer, mode) calls: shown in the report's method. `text` is a
# `str`, `data` the UTF-8 bytes (BYTES).
CALLS = {
    ("tiktoken", "encode"): "Encoding.encode_ordinary(text)",
    ("bpe", "count"): "bpe_openai tokenizer.count(text)",
    ("bpe", "encode"): "bpe_openai tokenizer.encode(text)",
    ("gigatoken", "encode"): "Tokenizer.encode(data), given bytes (from_tiktoken(path, special_tokens={}) / from_json(contents)); it has no count call",
    ("fastokens", "encode"): "Tokenizer.encode_ordinary(text) (from_tiktoken(path, encoding=NAME)) / encode(text, add_special_tokens=False) (from_file)",
    ("tokie", "encode"): "Tokenizer.encode(text, add_special_tokens=False) (from_json(path); for cl100k/o200k a tokenizer.json made from the ranks by bench/tiktoken_tokenizer_json.py)",
    ("tokie", "count"): "Tokenizer.count_tokens(text)",
    ("tokenizers", "encode"): "Tokenizer.encode(text, add_special_tokens=False) (no_padding, no_truncation)",
    ("sentencepiece", "encode"): "SentencePieceProcessor.encode(data), given bytes",
    ("mistral-common", "encode"): "Tekkenizer.encode(text, bos=False, eos=False)",
}


def rank_file(name: str) -> Path:
    import tiktoken_encodings

    for folder in tiktoken_encodings.VOCAB_DIRS:
        if (folder / f"{name}.tiktoken").exists():
            return folder / f"{name}.tiktoken"
    raise FileNotFoundError(f"{name}.tiktoken in none of {tiktoken_encodings.VOCAB_DIRS}")


def version(package: str) -> str:
    from importlib.metadata import version as v

    return v(package)


def load(peer: str, mode: str, spec: str):
    """(call, version): call(text) -> token count."""
    openai = spec in OPENAI
    if peer == "tiktoken":
        import tiktoken_encodings

        encoding = tiktoken_encodings.load(spec)
        return (lambda t: len(encoding.encode_ordinary(t))), version("tiktoken")
    if peer == "bpe":
        from bpe_openai import _bindings as bpe

        tokenizer = bpe.tokenizer_for_encoding(spec)
        return (tokenizer.count if mode == "count" else lambda t: len(tokenizer.encode(t))), version("bpe-openai")
    if peer == "gigatoken":
        import gigatoken

        tokenizer = (gigatoken.Tokenizer.from_tiktoken(str(rank_file(spec)), special_tokens={}) if openai
                     else gigatoken.Tokenizer.from_json(Path(spec).read_text(encoding="utf-8")))
        return (lambda t: len(tokenizer.encode(t))), version("gigatoken")
    if peer == "fastokens":
        import fastokens

        if openai:
            tokenizer = fastokens.Tokenizer.from_tiktoken(str(rank_file(spec)), encoding=spec)
            return (lambda t: len(tokenizer.encode_ordinary(t))), version("fastokens")
        tokenizer = fastokens.Tokenizer.from_file(spec)
        tokenizer.no_padding()
        tokenizer.no_truncation()
        return (lambda t: len(tokenizer.encode(t, add_special_tokens=False))), version("fastokens")
    if peer == "tokie":
        import tokie

        if openai:  # tokie reads tokenizer.json (and its own .tkz), not .tiktoken ranks: convert them once
            import tiktoken_tokenizer_json

            cache = Path(os.environ.get("CONTEXTKIT_CACHE") or Path.home() / ".cache" / "contextkit")
            spec = str(tiktoken_tokenizer_json.ensure(spec, cache / "bench" / "tokenizer-json" / f"{spec}.tokenizer.json"))
        tokenizer = tokie.Tokenizer.from_json(spec)
        tokenizer.no_padding()
        tokenizer.no_truncation()
        if mode == "count":
            return tokenizer.count_tokens, version("tokie")
        return (lambda t: len(tokenizer.encode(t, add_special_tokens=False))), version("tokie")
    if peer == "tokenizers":
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(spec)
        tokenizer.no_padding()
        tokenizer.no_truncation()
        return (lambda t: len(tokenizer.encode(t, add_special_tokens=False).ids)), version("tokenizers")
    if peer == "sentencepiece":
        import sentencepiece

        processor = sentencepiece.SentencePieceProcessor(model_file=spec)
        return (lambda t: len(processor.encode(t))), version("sentencepiece")
    if peer == "mistral-common":
        from mistral_common.tokens.tokenizers.tekken import Tekkenizer

        tekken = Tekkenizer.from_file(spec)
        return (lambda t: len(tekken.encode(t, bos=False, eos=False))), version("mistral-common")
    raise ValueError(f"unknown peer {peer}")


def pin() -> None:
    """This process (and what it starts) on one CPU, the lowest it may use."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def payload(peer: str, data: bytes, text: str | None = None):
    """What `peer` is given for the UTF-8 bytes `data`: the bytes where it takes them, else the text (`text` if already decoded)."""
    if peer in BYTES:
        return data
    return text if text is not None else data.decode("utf-8")


def timed(call, data) -> tuple[float, float, int]:
    """Wall seconds, the process's CPU seconds and tokens of one call."""
    start, cpu_start = time.perf_counter(), time.process_time()
    tokens = call(data)
    return time.perf_counter() - start, time.process_time() - cpu_start, tokens


def main() -> int:
    peer, mode, spec, file = sys.argv[1:5]
    pin()
    start = time.perf_counter()
    call, _ = load(peer, mode, spec)
    load_seconds = time.perf_counter() - start
    start = time.perf_counter()
    call(payload(peer, WARMUP.encode()))
    warmup_seconds = time.perf_counter() - start
    data = Path(file).read_bytes()
    given = payload(peer, data)
    seconds, cpu, tokens = timed(call, given)
    print(json.dumps({"seconds": seconds, "cpuSeconds": cpu, "tokens": tokens, "bytes": len(data),
                      "loadSeconds": load_seconds, "warmupSeconds": warmup_seconds, "first": True}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
