#!/usr/bin/env python3
"""Writes <encoding>.jsonl beside this file: tiktoken's ids for the Swift parity tests.

Run from anywhere:  "$(scripts/python-env | tail -n1)" Tests/Fixtures/tiktoken/generate.py

One JSON object per line:
  {"case", "input", ["allowed_special": "all",] "count", "fnv1a64", "ids"}
input is one of {"text"}, {"repo": path in
the repo} or {"repeat", "times"}. ids holds every id when count <= 4096, else
the first 256; fnv1a64 hashes all of them (FNV-1a 64 over each id as 4 bytes,
little-endian), so big cases stay small on disk. Deterministic: a rerun with
the same inputs writes the same bytes.
"""

from __future__ import annotations

import base64
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
UDHR = REPO / "Tests" / "Fixtures" / "udhr"
sys.dont_write_bytecode = True  # no __pycache__ inside the repo
sys.path.insert(0, str(REPO / "scripts"))

import fuzz_text  # noqa: E402
import tiktoken_encodings  # noqa: E402

FULL_IDS_LIMIT = 4096
PREFIX_IDS = 256
FUZZ_SEED = 20251129
FUZZ_CASES = 3000
SPECIAL_SEED = 4242
SPECIAL_RANDOM_CASES = 26
MIB = 1 << 20

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK64 = (1 << 64) - 1


def fnv1a64_ids(ids: list[int]) -> str:
    h = FNV_OFFSET
    for token in ids:
        for shift in (0, 8, 16, 24):
            h = ((h ^ ((token >> shift) & 0xFF)) * FNV_PRIME) & MASK64
    return f"{h:016x}"


class Case:
    def __init__(self, name: str, input: dict, text: str, allowed_special: str | None = None) -> None:
        self.name, self.input, self.text, self.allowed_special = name, input, text, allowed_special


def read_exactly(path: Path) -> str:
    """UTF-8 as on disk: no newline translation, no normalisation, BOM kept."""
    return path.read_bytes().decode("utf-8")


def inline(name: str, text: str) -> Case:
    return Case(name, {"text": text}, text)


def repeat(name: str, unit: str, times: int) -> Case:
    return Case(name, {"repeat": unit, "times": times}, unit * times)


def repo_file(name: str, path: Path) -> Case:
    return Case(name, {"repo": path.relative_to(REPO).as_posix()}, read_exactly(path))


def udhr_cases() -> list[Case]:
    udhr = UDHR
    paths = sorted(udhr.glob("*.txt"))
    if not paths:
        raise SystemExit(f"no UDHR files in {udhr}")
    return [Case(f"udhr/{p.stem}", {"repo": p.relative_to(REPO).as_posix()}, read_exactly(p)) for p in paths]


def corpora_cases() -> list[Case]:
    corpora = REPO / "corpora"
    return [repo_file(f"corpora/{p.relative_to(corpora).with_suffix('').as_posix()}", p) for p in sorted(corpora.rglob("*.txt"))]


def write_input(name: str, text: str) -> Path:
    path = HERE / "inputs" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def adversarial_cases() -> list[Case]:
    rng = random.Random(1)
    # Base64 splits into short letter/digit/punctuation pieces; lowercase
    # letters give one megabyte-long piece, the BPE merge loop's worst case.
    base64_text = base64.b64encode(rng.randbytes(MIB * 3 // 4)).decode("ascii")
    letters = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=MIB // 4))
    return [
        repeat("adversarial/a-1m", "a", MIB),
        repeat("adversarial/space-1m", " ", MIB),
        repeat("adversarial/newline-100k", "\n", 100_000),
        repeat("adversarial/crlf-100k", "\r\n", 100_000),
        repeat("adversarial/space-crlf-50k", " \r\n", 50_000),
        repeat("adversarial/tab-100k", "\t", 100_000),
        repeat("adversarial/nbsp-100k", "\u00a0", 100_000),
        repeat("adversarial/ideographic-space-50k", "\u3000", 50_000),
        repo_file("adversarial/base64-1m", write_input("base64-1m.txt", base64_text)),
        repo_file("adversarial/lowercase-256k", write_input("lowercase-256k.txt", letters)),
        repeat("adversarial/digit-9-100k", "9", 100_000),
        repeat("adversarial/digits-0-9-10k", "0123456789", 10_000),
        repeat("adversarial/arabic-indic-digits-10k", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669", 10_000),
        repeat("adversarial/cjk-zhong-100k", "\u4e2d", 100_000),
        repeat("adversarial/cjk-rare-100k", "\u9f98", 100_000),
        repeat("adversarial/hangul-100k", "\ud55c", 100_000),
        repeat("adversarial/combining-acute-100k", "\u0301", 100_000),
        repeat("adversarial/emoji-skin-tone-50k", "\U0001f44d\U0001f3fd", 50_000),
        repeat("adversarial/zwj-family-20k", "\U0001f468\u200d\U0001f469\u200d\U0001f467", 20_000),
        repeat("adversarial/aB-100k", "aB", 100_000),
        repeat("adversarial/apostrophe-s-100k", "'s", 100_000),
        repeat("adversarial/exclamation-100k", "!", 100_000),
        repeat("adversarial/endoftext-10k", "<|endoftext|>", 10_000),
        inline("adversarial/spaces-4095-then-word", " " * 4095 + "word"),
        inline("adversarial/spaces-then-newline", " " * 3000 + "\n"),
        inline("adversarial/newlines-then-spaces", "\n" * 2000 + " " * 2000 + "x"),
        *[inline(f"adversarial/digits-{n}", "1234567890" * (n // 10) + "1234567890"[: n % 10]) for n in range(1, 13)],
        *[inline(f"adversarial/space-digits-{n}", " " + "9" * n) for n in range(1, 13)],
        inline("adversarial/empty", ""),
    ]


def fuzz_cases() -> list[Case]:
    fuzz = fuzz_text.FuzzText(FUZZ_SEED)
    return [inline(f"fuzz/{i:04d}", fuzz.case()) for i in range(FUZZ_CASES)]


def special_cases() -> list[Case]:
    eot, fim_pre, fim_mid, fim_suf, eop = fuzz_text.SPECIAL_TOKENS
    texts = {
        **{f"alone-{t.strip('<|>')}": t for t in fuzz_text.SPECIAL_TOKENS},
        "all-adjacent": "".join(fuzz_text.SPECIAL_TOKENS),
        "twice": eot + eot,
        "hundred": eot * 100,
        "between-words": "Hello" + eot + "world",
        "spaced": " " + eot + " ",
        "many-spaces": "   " + eot + "   ",
        "newlines": "\n" + eot + "\n",
        "crlf": "\r\n" + eop + "\r\n",
        "fim": fim_pre + "def f():\n" + fim_suf + "\n    return 1" + fim_mid,
        "prompt-completion": "Question: 2+2?" + eop + " 4",
        "inside-broken": "<|endoftext" + eot + "|>",
        "double-angle": "<" + eot + ">",
        "upper-lookalike": "<|ENDOFTEXT|>" + eot,
        "contractions": "'s" + eot + "'S" + eop + "'ll",
        "digits": "123" + eot + "456",
        "cjk": "\u4f60\u597d" + eot + "\u4e16\u754c",
        "emoji": "\U0001f44d\U0001f3fd" + eot + "\U0001f468\u200d\U0001f469\u200d\U0001f467",
        "chatml-lookalikes": "<|im_start|>user\nhi<|im_end|>" + eot,
        "startoftext": "<|startoftext|>x" + eot,
        "combining-around": "a\u0301" + eot + "\u0301",
        "after-prose": "The quick brown fox jumps over the lazy dog. " * 20 + eot,
        "before-prose": eot + "The quick brown fox jumps over the lazy dog. " * 20,
        "split-crlf": "\r" + eot + "\n",
        "tab-and-nbsp": "\t" + eot + "\u00a0" + eop,
    }
    cases = [Case(f"special/{name}", {"text": text}, text, "all") for name, text in texts.items()]
    fuzz = fuzz_text.FuzzText(SPECIAL_SEED)
    for i in range(SPECIAL_RANDOM_CASES):
        text = fuzz.case()
        for _ in range(fuzz.rng.randint(1, 3)):
            at = fuzz.rng.randint(0, len(text))
            text = text[:at] + fuzz.rng.choice(fuzz_text.SPECIAL_TOKENS) + text[at:]
        cases.append(Case(f"special/random-{i:02d}", {"text": text}, text, "all"))
    return cases


# Some line readers split on these even inside a JSON string; escaping them keeps one case per line.
LINE_BREAKS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def record(case: Case, ids: list[int]) -> str:
    obj = {"case": case.name, "input": case.input}
    if case.allowed_special:
        obj["allowed_special"] = case.allowed_special
    obj["count"] = len(ids)
    obj["fnv1a64"] = fnv1a64_ids(ids)
    obj["ids"] = ids if len(ids) <= FULL_IDS_LIMIT else ids[:PREFIX_IDS]
    line = json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))
    for raw, escaped in LINE_BREAKS.items():
        line = line.replace(raw, escaped)
    return line


def main() -> None:
    cases = udhr_cases() + corpora_cases() + adversarial_cases() + fuzz_cases() + special_cases()
    names = [c.name for c in cases]
    if len(set(names)) != len(names):
        raise SystemExit("case names are not unique")
    for name in tiktoken_encodings.NAMES:
        enc = tiktoken_encodings.load(name)
        total = 0
        lines = []
        for case in cases:
            ids = tiktoken_encodings.encode(enc, case.text, case.allowed_special)
            total += len(ids)
            lines.append(record(case, ids))
        out = HERE / f"{name}.jsonl"
        out.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
        print(f"{out.relative_to(REPO)}: {len(cases)} cases, {total} tokens, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
