"""The OpenAI encodings as tiktoken.Encoding objects, built offline.

tiktoken would fetch its vocabularies over the network; we build each Encoding
from the .tiktoken file the project ships, with the pattern and special tokens
copied from tiktoken 0.14.0's tiktoken_ext/openai_public.py, and check the
file's sha256 against the hash tiktoken itself expects. The encodings that
only add special tokens to one of those ranks (o200k_harmony, p50k_edit) are
built by tiktoken's own constructors, reading the ranks from the same files.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path

# tiktoken copies every file it loads into a cache folder (a temp dir by
# default); ours are local already. An empty value turns the copy off.
os.environ.setdefault("TIKTOKEN_CACHE_DIR", "")

import tiktoken  # noqa: E402
from tiktoken.load import load_tiktoken_bpe  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
VOCAB_DIRS = (REPO / "Sources" / "TokenKit" / "Resources",)

# The patterns below are this version's; another version may differ.
TIKTOKEN_VERSION = "0.14.0"
if tiktoken.__version__ != TIKTOKEN_VERSION:
    raise ImportError(f"tiktoken {tiktoken.__version__} installed, {TIKTOKEN_VERSION} expected: run scripts/python-env")

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

R50K_PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
CL100K_PAT = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
O200K_PAT = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

# name: (pat_str, special tokens, explicit vocabulary size or None, sha256)
SPECS = {
    "r50k_base": (
        R50K_PAT,
        {ENDOFTEXT: 50256},
        50257,
        "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    ),
    "p50k_base": (
        R50K_PAT,
        {ENDOFTEXT: 50256},
        50281,
        "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
    ),
    "cl100k_base": (
        CL100K_PAT,
        {ENDOFTEXT: 100257, FIM_PREFIX: 100258, FIM_MIDDLE: 100259, FIM_SUFFIX: 100260, ENDOFPROMPT: 100276},
        None,
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
    "o200k_base": (
        O200K_PAT,
        {ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
        None,
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
}
ALIASES = {"gpt2": "r50k_base"}
NAMES = ("cl100k_base", "o200k_base", "r50k_base", "p50k_base")
# Built by tiktoken_ext.openai_public's constructor of the same name.
DERIVED = ("o200k_harmony", "p50k_edit")


def vocab_path(name: str) -> Path:
    for folder in VOCAB_DIRS:
        path = folder / f"{name}.tiktoken"
        if path.is_file():
            return path
    raise FileNotFoundError(f"{name}.tiktoken is in none of: " + ", ".join(map(str, VOCAB_DIRS)))


def load(name: str) -> tiktoken.Encoding:
    canonical = ALIASES.get(name, name)
    if canonical in DERIVED:
        return _build_derived(canonical)
    if canonical not in SPECS:
        raise ValueError(f"unknown encoding {name!r}; known: {', '.join([*SPECS, *DERIVED, *ALIASES])}")
    return _build(canonical)


@functools.cache
def _build_derived(name: str) -> tiktoken.Encoding:
    """tiktoken's own definition of `name`, its ranks read from the shipped file."""
    import tiktoken_ext.openai_public as public

    def local(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        base = url.rsplit("/", 1)[-1].removesuffix(".tiktoken")
        path = vocab_path(base)
        if expected_hash and hashlib.sha256(path.read_bytes()).hexdigest() != expected_hash:
            raise ValueError(f"{path} is not the official {base} (sha256 differs from {expected_hash})")
        return load_tiktoken_bpe(str(path))

    original = public.load_tiktoken_bpe
    public.load_tiktoken_bpe = local
    try:
        return tiktoken.Encoding(**getattr(public, name)())
    finally:
        public.load_tiktoken_bpe = original


@functools.cache
def _build(canonical: str) -> tiktoken.Encoding:
    pat_str, special_tokens, n_vocab, sha256 = SPECS[canonical]
    path = vocab_path(canonical)
    # With the cache off, tiktoken skips its own hash check: do it here.
    if hashlib.sha256(path.read_bytes()).hexdigest() != sha256:
        raise ValueError(f"{path} is not the official {canonical} (sha256 differs from {sha256})")
    return tiktoken.Encoding(
        name=canonical,
        pat_str=pat_str,
        mergeable_ranks=load_tiktoken_bpe(str(path)),
        special_tokens=special_tokens,
        explicit_n_vocab=n_vocab,
    )


def encode(enc: tiktoken.Encoding, text: str, allowed_special: str | None = None) -> list[int]:
    """tiktoken's ids for text; encode_ordinary unless allowed_special == "all".

    tiktoken's regex engine overflows its backtracking stack on some very long
    runs (o200k on a megabyte of spaces) and panics. The pieces themselves are
    well defined, so then we use tiktoken's own slow path, which splits with
    the `regex` module (same syntax) and BPE-encodes each piece natively.
    """
    try:
        if allowed_special == "all":
            return enc.encode(text, allowed_special="all")
        return enc.encode_ordinary(text)
    except BaseException as error:  # pyo3's PanicException is not an Exception
        if type(error).__name__ != "PanicException" or allowed_special is not None:
            raise
    print(f"{enc.name}: tiktoken panicked on a {len(text)}-char text (message above); used its regex-module path", file=sys.stderr)
    return enc._encode_only_native_bpe(text)
