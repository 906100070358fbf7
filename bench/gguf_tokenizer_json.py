"""A Hugging Face tokenizer.json made from a byte-level BPE GGUF vocabulary
(llama.cpp's ggml-vocab-llama-bpe.gguf, ggml-vocab-qwen2.gguf), for the
open-model rows of bench/bench.py: the peers that read only tokenizer.json
(gigatoken, tokenizers, fastokens, tokie) then run the very vocabulary and
merges ContextKit reads from the GGUF. The pre-tokenizer is the one the model
family's own tokenizer.json carries (Llama 3: Split on its regex, then
ByteLevel without a regex, ignore_merges; Qwen2: NFC, Split on its regex,
ByteLevel). Tokens of type control (3) or user-defined (4) become added
tokens, as in the original files. The result goes to the bench cache, never
into the repository.

Usage: python bench/gguf_tokenizer_json.py VOCAB.gguf OUT.json
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tiktoken_tokenizer_json import write_atomically  # noqa: E402

LLAMA3_PATTERN = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
QWEN2_PATTERN = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
# pre type: (pattern, normalizer, ignore_merges), as the families' tokenizer.json files have them
PRE_TYPES = {"llama-bpe": (LLAMA3_PATTERN, None, True), "qwen2": (QWEN2_PATTERN, {"type": "NFC"}, False)}
SCALAR = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}


def read_gguf_metadata(data: bytes) -> dict:
    """The key/value section of a GGUF v2/v3 file."""
    if data[:4] != b"GGUF":
        raise ValueError("not a GGUF file")
    _, _, n_kv = struct.unpack_from("<IQQ", data, 4)
    at = 24

    def string() -> str:
        nonlocal at
        (n,) = struct.unpack_from("<Q", data, at)
        at += 8 + n
        return data[at - n : at].decode("utf-8", errors="surrogateescape")

    def value(kind: int):
        nonlocal at
        if kind == 8:
            return string()
        if kind == 9:
            sub, count = struct.unpack_from("<IQ", data, at)
            at += 12
            return [value(sub) for _ in range(count)]
        (v,) = struct.unpack_from(SCALAR[kind], data, at)
        at += struct.calcsize(SCALAR[kind])
        return v

    metadata = {}
    for _ in range(n_kv):
        key = string()
        (kind,) = struct.unpack_from("<I", data, at)
        at += 4
        metadata[key] = value(kind)
    return metadata


def tokenizer_json(gguf: Path) -> dict:
    meta = read_gguf_metadata(gguf.read_bytes())
    if meta.get("tokenizer.ggml.model") != "gpt2":
        raise ValueError(f"{gguf}: tokenizer.ggml.model is {meta.get('tokenizer.ggml.model')!r}, only byte-level BPE (gpt2) is converted")
    pre = meta.get("tokenizer.ggml.pre")
    if pre not in PRE_TYPES:
        raise ValueError(f"{gguf}: pre type {pre!r}; converted: {', '.join(PRE_TYPES)}")
    pattern, normalizer, ignore_merges = PRE_TYPES[pre]
    tokens, types = meta["tokenizer.ggml.tokens"], meta.get("tokenizer.ggml.token_type", [])
    added = [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
             for i, (t, kind) in enumerate(zip(tokens, types)) if kind in (3, 4)]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added, "normalizer": normalizer,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}, byte_level]},
        "post_processor": byte_level, "decoder": byte_level,
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": False, "byte_fallback": False, "ignore_merges": ignore_merges,
                  "vocab": {t: i for i, t in enumerate(tokens)},
                  "merges": [m.split(" ", 1) for m in meta["tokenizer.ggml.merges"]]},
    }


def ensure(gguf: Path, out: Path) -> Path:
    """`out`, written from `gguf` unless it is already there and newer."""
    if not out.exists() or out.stat().st_mtime < gguf.stat().st_mtime:
        write_atomically(out, tokenizer_json(gguf))
    return out


if __name__ == "__main__":
    ensure(Path(sys.argv[1]), Path(sys.argv[2]))
