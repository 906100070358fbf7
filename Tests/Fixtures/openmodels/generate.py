#!/usr/bin/env python3
"""Writes <name>.jsonl beside this file: Hugging Face `tokenizers`' ids for the
tokenizer.json files in the reference data's hf/, for the Swift parity tests.

Run from anywhere, with a Python that has `tokenizers` 0.23.3 (only this
generator needs it, so the test venv does not carry it):
    python3 -m venv /tmp/hf && /tmp/hf/bin/pip install tokenizers==0.23.3
    /tmp/hf/bin/python Tests/Fixtures/openmodels/generate.py

One JSON object per line: {"case", "input", "count", "fnv1a64", "ids"}, in the
same format as Tests/Fixtures/tiktoken (input is {"text"}, {"repo": path} or
{"repeat", "times"}; ids complete up to 4096, else the first 256; fnv1a64
over all of them). Ids are `encode(text, add_special_tokens=False)`: special
tokens in the text are parsed, so the Swift side encodes with allowedSpecial
.all. Deterministic: the same inputs give the same bytes.
"""

from __future__ import annotations

import os
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
UDHR = REPO / "Tests" / "Fixtures" / "udhr"
# The reference data scripts/reference-data fetches (gguf/, hf/).
REFERENCE = Path(os.environ.get("CONTEXTKIT_REFERENCE_DATA")
                 or Path(os.environ.get("CONTEXTKIT_CACHE") or Path.home() / ".cache/contextkit") / "reference-data")
sys.dont_write_bytecode = True
sys.path.insert(0, str(REPO / "scripts"))

import fuzz_text  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402

TOKENIZERS = {"qwen3": "qwen3.tokenizer.json", "claude-legacy": "claude-legacy.tokenizer.json"}
FULL_IDS_LIMIT = 4096
PREFIX_IDS = 256
FUZZ_SEED = 20251130
FUZZ_CASES = 1500
MASK64 = (1 << 64) - 1
LINE_BREAKS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def fnv1a64_ids(ids: list[int]) -> str:
    h = 0xCBF29CE484222325
    for token in ids:
        for shift in (0, 8, 16, 24):
            h = ((h ^ ((token >> shift) & 0xFF)) * 0x100000001B3) & MASK64
    return f"{h:016x}"


def cases() -> list[tuple[str, dict, str]]:
    out = []
    for p in sorted((UDHR).glob("*.txt")):
        out.append((f"udhr/{p.stem}", {"repo": p.relative_to(REPO).as_posix()}, p.read_bytes().decode("utf-8")))
    inp = (REFERENCE / "gguf" / "ggml-vocab-qwen2.gguf.inp").read_bytes().decode("utf-8")
    for i, text in enumerate(inp.split("\n__ggml_vocab_test__\n")[:-1]):
        out.append((f"llama.cpp/{i:02d}", {"text": text}, text))
    for unit, times in [("a", 100_000), (" ", 100_000), ("\n", 10_000), ("9", 10_000), ("\u4e2d", 10_000),
                        ("\u0301", 10_000), ("'s", 10_000), ("\U0001f44d\U0001f3fd", 5_000), ("\ufb01", 1_000), ("\u2460", 1_000)]:
        out.append((f"repeat/U+{ord(unit[0]):04X}x{times}", {"repeat": unit, "times": times}, unit * times))
    fuzz = fuzz_text.FuzzText(FUZZ_SEED)
    for i in range(FUZZ_CASES):
        text = fuzz.case()
        out.append((f"fuzz/{i:04d}", {"text": text}, text))
    return out


def main() -> None:
    all_cases = cases()
    for name, file in TOKENIZERS.items():
        tok = Tokenizer.from_file(str(REFERENCE / "hf" / file))
        lines = []
        for case, source, text in all_cases:
            ids = tok.encode(text, add_special_tokens=False).ids
            obj = {"case": case, "input": source, "count": len(ids), "fnv1a64": fnv1a64_ids(ids),
                   "ids": ids if len(ids) <= FULL_IDS_LIMIT else ids[:PREFIX_IDS]}
            line = json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))
            for raw, escaped in LINE_BREAKS.items():
                line = line.replace(raw, escaped)
            lines.append(line)
        path = HERE / f"{name}.jsonl"
        path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
        print(f"{path.relative_to(REPO)}: {len(lines)} cases, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
