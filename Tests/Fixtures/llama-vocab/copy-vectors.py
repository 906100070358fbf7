#!/usr/bin/env python3
"""Copies llama.cpp's vocabulary test files (vocab-only GGUF + .inp/.out) that
the reference data (scripts/reference-data) does not hold, and that are small enough to keep in the
repository (under 2 MB), from PyPI's llama-cpp-python 0.3.36 sdist
(`vendor/llama.cpp/models/`) into this folder.

    $PY Tests/Fixtures/llama-vocab/copy-vectors.py PATH/llama_cpp_python-0.3.36.tar.gz

(`pip download --no-deps --no-binary :all: llama-cpp-python==0.3.36 -d DIR`
fetches the sdist.) The larger ones (command-r, qwen35, gemma-4) stay in the
sdist: scripts/reference-data takes them into ContextKit's cache.
"""
from __future__ import annotations

import hashlib
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
KEEP = ["bert-bge", "deepseek-coder", "mpt", "phi-3", "refact"]

with tarfile.open(sys.argv[1]) as tar:
    for name in KEEP:
        for suffix in (".gguf", ".gguf.inp", ".gguf.out"):
            member = f"llama_cpp_python-0.3.36/vendor/llama.cpp/models/ggml-vocab-{name}{suffix}"
            data = tar.extractfile(member).read()
            (HERE / Path(member).name).write_bytes(data)
            print(f"{Path(member).name}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
    license = tar.extractfile("llama_cpp_python-0.3.36/vendor/llama.cpp/LICENSE").read()
    (HERE / "LICENSE-llama.cpp").write_bytes(license)
