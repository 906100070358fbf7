#!/usr/bin/env python3
"""Writes all-minilm-l6-v2.jsonl beside this script: Hugging Face `tokenizers`'
ids for all-minilm-l6-v2/tokenizer.json (WordPiece, BERT normalizer and
pre-tokenizer), for the Swift parity test.

    PY=$(scripts/python-env | tail -1); $PY Tests/Fixtures/wordpiece/generate.py

Cases: every UDHR translation (Tests/Fixtures/udhr), every file of corpora/,
llama.cpp's tokenizer cases, BERT's corner cases (accents, CJK, controls,
words past max_input_chars_per_word, unknown characters, special tokens),
long repeats and seeded fuzz text. One JSON object per line, in the format of
Tests/Fixtures/openmodels (see TokenFixture.swift). Ids are
`encode(text, add_special_tokens=False)` with padding and truncation off;
special tokens in the text are parsed (the Swift side allows all).
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
import tokenizers  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402

FULL_IDS_LIMIT = 4096
PREFIX_IDS = 256
FUZZ_SEED = 20251201
FUZZ_CASES = 1500
MASK64 = (1 << 64) - 1
LINE_BREAKS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}

CORNERS = [
    "Hello, World! HELLO world.",
    "Café naïve résumé Ångström ÉCOLE façade",
    "İstanbul ǅemal ΣΊΣΥΦΟΣ ß ﬁ ẞ",
    "中文分词测试：我爱北京天安门。日本語のテキスト、한국어 텍스트",
    "𠀀𪜀𫝀𫠠𬺰 丽 龥 〇",
    "tab\there\nnew\r\nline\u000bvt\u000cff\u0085nel\u2028ls\u00a0nbsp\u3000ideo",
    "zero\u200bwidth\u200djoin\u00adsoft\ufeffbom\u0000nul\ufffdrepl\ue000private",
    "a" * 100, "a" * 101, "x" * 99 + "é", "supercalifragilisticexpialidocious" * 3,
    "unaffable unbelievably tokenization WordPiece ##ing ## #",
    "[CLS] hello [SEP] [MASK] [UNK] [PAD] [cls]",
    "$100 + 200 = 300; x^2 | y~z `code` <tag> @user #hash",
    "\u2e43\u2e44 \u2e4f \u166d \u061d \u0f00 \u2010\u2011\u2012 \u00bf\u00a1",
    "e\u0301 o\u0308 a\u0300\u0301\u0302 \u0344 \u11938 \U00011938",
    "\U0001f600\U0001f44d\U0001f3fd emoji 🇫🇷 ❤️",
    "ǉ ǈ Ǉ ᲐᲑ Ꭰ ꭰ Ⓐ ⓐ ＡＢＣ ａｂｃ",
    "",
    " ",
    "\u0301",
    "ab\u0301c",
    "गुरु हिन्दी ภาษาไทย العربية עברית",
]


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
    for p in sorted((REPO / "corpora").rglob("*")):
        if p.is_file() and p.suffix in (".txt", ".json", ".md", ".py", ".swift", ".html"):
            out.append((f"corpora/{p.relative_to(REPO / 'corpora').as_posix()}", {"repo": p.relative_to(REPO).as_posix()},
                        p.read_bytes().decode("utf-8")))
    inp = (REFERENCE / "gguf" / "ggml-vocab-llama-bpe.gguf.inp").read_bytes().decode("utf-8")
    for i, text in enumerate(inp.split("\n__ggml_vocab_test__\n")[:-1]):
        out.append((f"llama.cpp/{i:02d}", {"text": text}, text))
    for i, text in enumerate(CORNERS):
        out.append((f"corner/{i:02d}", {"text": text}, text))
    for unit, times in [("a", 100_000), ("a ", 50_000), (" ", 100_000), ("\n", 10_000), ("9", 10_000), ("\u4e2d", 10_000),
                        ("\u0301", 10_000), ("É", 10_000), ("'s", 10_000), ("\U0001f44d\U0001f3fd", 5_000), ("\ufb01", 1_000)]:
        out.append((f"repeat/U+{ord(unit[0]):04X}x{times}", {"repeat": unit, "times": times}, unit * times))
    fuzz = fuzz_text.FuzzText(FUZZ_SEED)
    for i in range(FUZZ_CASES):
        text = fuzz.case()
        out.append((f"fuzz/{i:04d}", {"text": text}, text))
    return out


def main() -> None:
    tok = Tokenizer.from_file(str(HERE / "all-minilm-l6-v2" / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    lines = []
    for case, source, text in cases():
        ids = tok.encode(text, add_special_tokens=False).ids
        obj = {"case": case, "input": source, "count": len(ids), "fnv1a64": fnv1a64_ids(ids),
               "ids": ids if len(ids) <= FULL_IDS_LIMIT else ids[:PREFIX_IDS]}
        line = json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))
        for raw, escaped in LINE_BREAKS.items():
            line = line.replace(raw, escaped)
        lines.append(line)
    path = HERE / "all-minilm-l6-v2.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    print(f"{path.relative_to(REPO)}: {len(lines)} cases, {path.stat().st_size} bytes (tokenizers {tokenizers.__version__})")


if __name__ == "__main__":
    main()
