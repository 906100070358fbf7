"""A Hugging Face tokenizer.json made from an OpenAI .tiktoken rank file, for
the peers of bench/bench.py that read only tokenizer.json (tokie): byte-level
BPE with the encoding's split pattern (from scripts/tiktoken_encodings.py),
ignore_merges (a piece that is a token is that token, as in tiktoken), and
the merges recovered from the ranks the way tiktoken's own ranks were built:
each token of two or more bytes is the merge of the two parts that BPE over
the lower ranks leaves it in. No special tokens (the bench counts ordinary
text). The result goes to the bench cache, never into the repository.

Usage: python bench/tiktoken_tokenizer_json.py ENCODING OUT.json
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scripts"))

from byte_level import byte_level_alphabet  # noqa: E402


def split_in_two(ranks: dict[bytes, int], token: bytes, rank: int) -> tuple[bytes, bytes]:
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        best = None
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and r < rank and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            break
        i = best[1]
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    if len(parts) != 2:
        raise ValueError(f"token of rank {rank} is no merge of two lower-ranked tokens")
    return parts[0], parts[1]


def tokenizer_json(encoding: str) -> dict:
    import tiktoken_encodings

    pattern = tiktoken_encodings.SPECS[encoding][0]
    ranks: dict[bytes, int] = {}
    for folder in tiktoken_encodings.VOCAB_DIRS:
        path = folder / f"{encoding}.tiktoken"
        if path.exists():
            for line in path.read_text().splitlines():
                if line:
                    token, rank = line.split()
                    ranks[base64.b64decode(token)] = int(rank)
            break
    alphabet = byte_level_alphabet()
    spell = lambda b: "".join(alphabet[x] for x in b)  # noqa: E731
    merges = [[spell(a), spell(b)] for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]) if len(token) > 1
              for a, b in [split_in_two(ranks, token, rank)]]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}, byte_level]},
        "post_processor": None, "decoder": byte_level,
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": False, "byte_fallback": False, "ignore_merges": True,
                  "vocab": {spell(t): r for t, r in ranks.items()}, "merges": merges},
    }


def write_atomically(out: Path, tokenizer: dict) -> None:
    """Writes a tokenizer.json through a temporary file, so a reader never sees half of one."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(tokenizer, ensure_ascii=False))
    tmp.rename(out)


def ensure(encoding: str, out: Path) -> Path:
    if not out.exists():
        write_atomically(out, tokenizer_json(encoding))
    return out


if __name__ == "__main__":
    ensure(sys.argv[1], Path(sys.argv[2]))
