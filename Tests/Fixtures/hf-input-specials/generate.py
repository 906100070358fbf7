#!/usr/bin/env python3
"""Writes expected.json beside this script: the special tokens Hugging Face
`tokenizers` puts around one input (`encode(text, add_special_tokens=True)`)
for each post-processor below, set on the tiny tokenizer of
Tests/Fixtures/hf-chat-model (this project's own), for InputSpecialsTests.

    PY=$(scripts/python-env | tail -1); $PY Tests/Fixtures/hf-input-specials/generate.py

Each entry holds the `post_processor` object (the test writes it into a copy
of that tokenizer.json) and the tokens before and after the input, read from
the encoding's `special_tokens_mask`.
"""
from __future__ import annotations

import json
from pathlib import Path

from tokenizers import Tokenizer

HERE = Path(__file__).resolve().parent
BASE = HERE.parent / "hf-chat-model" / "tokenizer.json"
TEXT = "hello world"


def special(token: str, ids: list[int], tokens: list[str] | None = None) -> dict:
    return {"id": token, "ids": ids, "tokens": tokens or [token]}


def template(single: list, specials: dict) -> dict:
    return {"type": "TemplateProcessing", "single": single, "pair": single + [{"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": specials}


A = {"Sequence": {"id": "A", "type_id": 0}}


def tok(name: str) -> dict:
    return {"SpecialToken": {"id": name, "type_id": 0}}


CASES = {
    "none": None,
    "byte-level": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
    "bos": template([tok("<|im_start|>"), A], {"<|im_start|>": special("<|im_start|>", [1])}),
    "bos-and-eos": template([tok("<|im_start|>"), A, tok("<|im_end|>")],
                            {"<|im_start|>": special("<|im_start|>", [1]), "<|im_end|>": special("<|im_end|>", [2])}),
    "eos-only": template([A, tok("<|endoftext|>")], {"<|endoftext|>": special("<|endoftext|>", [0])}),
    "one-name-two-tokens": template([tok("[BOTH]"), A],
                                    {"[BOTH]": special("[BOTH]", [1, 2], ["<|im_start|>", "<|im_end|>"])}),
    "bert": {"type": "BertProcessing", "sep": ["<|im_end|>", 2], "cls": ["<|im_start|>", 1]},
    "roberta": {"type": "RobertaProcessing", "sep": ["<|im_end|>", 2], "cls": ["<|im_start|>", 1],
                "trim_offsets": True, "add_prefix_space": False},
    "sequence": {"type": "Sequence", "processors": [
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        template([tok("<|im_start|>"), A, tok("<|endoftext|>")],
                 {"<|im_start|>": special("<|im_start|>", [1]), "<|endoftext|>": special("<|endoftext|>", [0])})]},
}


def main() -> None:
    base = json.loads(BASE.read_text())
    out = {}
    for name, processor in CASES.items():
        base["post_processor"] = processor
        t = Tokenizer.from_str(json.dumps(base))
        enc = t.encode(TEXT, add_special_tokens=True)
        mask = enc.special_tokens_mask
        first = mask.index(0)
        last = len(mask) - 1 - mask[::-1].index(0)
        out[name] = {"post_processor": processor, "leading": enc.tokens[:first], "trailing": enc.tokens[last + 1:]}
    (HERE / "expected.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps({k: (v["leading"], v["trailing"]) for k, v in out.items()}))


if __name__ == "__main__":
    main()
