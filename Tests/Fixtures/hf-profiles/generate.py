#!/usr/bin/env python3
"""Writes expected.json: the profile numbers of each model folder here, by the
reference libraries (jinja2 renders the chat template, Hugging Face
`tokenizers` counts the prompt with special tokens parsed), for
ModelProfileHuggingFaceTests.

    PY=$(scripts/python-env | tail -1); $PY Tests/Fixtures/hf-profiles/generate.py

A folder holds config.json and tokenizer_config.json (written for these
tests); its tokenizer.json comes from elsewhere, named in FOLDERS:
qwen3-chat uses the reference data's hf/qwen3.tokenizer.json (Qwen3's, Apache-2.0),
all-minilm-l6-v2 is Tests/Fixtures/wordpiece/all-minilm-l6-v2 itself.
perMessage is what a second, empty message adds; perRequest the rest of one
empty user message's framing (as ModelProfile.measuredOverheads defines them).
"""
from __future__ import annotations

import os
import json
from pathlib import Path

import jinja2
from tokenizers import Tokenizer

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
# The reference data scripts/reference-data fetches (gguf/, hf/).
REFERENCE = Path(os.environ.get("CONTEXTKIT_REFERENCE_DATA")
                 or Path(os.environ.get("CONTEXTKIT_CACHE") or Path.home() / ".cache/contextkit") / "reference-data")
FOLDERS = {
    "qwen3-chat": (HERE / "qwen3-chat", REFERENCE / "hf/qwen3.tokenizer.json"),
    "all-minilm-l6-v2": (REPO / "Tests/Fixtures/wordpiece/all-minilm-l6-v2", REPO / "Tests/Fixtures/wordpiece/all-minilm-l6-v2/tokenizer.json"),
}


def main() -> None:
    out = {}
    for name, (folder, tokenizer_path) in FOLDERS.items():
        config = json.loads((folder / "config.json").read_text())
        tok_config = json.loads((folder / "tokenizer_config.json").read_text())
        tok = Tokenizer.from_file(str(tokenizer_path))
        tok.no_padding()
        tok.no_truncation()
        entry = {"contextWindow": config["max_position_embeddings"]}
        template = tok_config.get("chat_template")
        if template:
            t = jinja2.Environment().from_string(template)

            def count(messages):
                text = t.render(messages=messages, add_generation_prompt=True,
                                bos_token=tok_config.get("bos_token") or "", eos_token=tok_config.get("eos_token") or "")
                return len(tok.encode(text, add_special_tokens=False).ids)

            one = count([{"role": "user", "content": ""}])
            two = count([{"role": "user", "content": ""}, {"role": "assistant", "content": ""}])
            entry.update(perRequest=one - (two - one), perMessage=two - one)
        else:
            # No template: what the post-processor adds around one input.
            entry.update(perRequest=len(tok.encode("", add_special_tokens=True).ids), perMessage=0)
        out[name] = entry
    (HERE / "expected.json").write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
