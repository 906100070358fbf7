#!/usr/bin/env python3
"""Converts the shipped SentencePiece Unigram models into Hugging Face tokenizer.json
files, as `tokenizers`' own converter (SentencePieceUnigramTokenizer.from_spm)
does, without the protobuf package it needs: the .model is read with the
small wire-format reader of scripts/fuzz/seeds.py.

    make-tokenizer-json.py      writes <model>.tokenizer.json beside each Unigram model

Run with the test venv's Python (tokenizers 0.23.3).
"""
import struct
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parents[2] / "scripts/fuzz"))
from seeds import proto_fields  # noqa: E402
from tokenizers import Regex, Tokenizer, decoders, normalizers, pre_tokenizers  # noqa: E402
from tokenizers.models import Unigram  # noqa: E402


def read_model(path):
    vocab, unk_id, byte_fallback, charsmap, model_type = [], 0, False, b"", 1
    for number, _, value in proto_fields(path.read_bytes()):
        if number == 1:
            text, score = "", 0.0
            for n, _, v in proto_fields(value):
                if n == 1:
                    text = v.decode()
                elif n == 2:
                    score = struct.unpack("<f", v)[0]
            vocab.append((text, score))
        elif number == 2:
            for n, _, v in proto_fields(value):
                if n == 3:
                    model_type = v
                elif n == 35:
                    byte_fallback = bool(v)
                elif n == 40:
                    unk_id = v
        elif number == 3:
            for n, _, v in proto_fields(value):
                if n == 2:
                    charsmap = v
    assert model_type == 1, f"{path} is not a Unigram model"
    return vocab, unk_id, byte_fallback, charsmap


def convert(path):
    vocab, unk_id, byte_fallback, charsmap = read_model(path)
    tokenizer = Tokenizer(Unigram(vocab, unk_id, byte_fallback))
    collapse = normalizers.Replace(Regex(" {2,}"), " ")
    tokenizer.normalizer = normalizers.Sequence([normalizers.Precompiled(charsmap), collapse] if charsmap else [collapse])
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tokenizer.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    out = path.with_suffix(".tokenizer.json")
    tokenizer.save(str(out))
    print(out.name)


if __name__ == "__main__":
    for model in ["botchan_en_unigram_1000.model", "kyoto_ja_unigram_8000.model"]:
        convert(here / model)
