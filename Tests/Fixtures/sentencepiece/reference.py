#!/usr/bin/env python3
"""Expected ids for ContextKit's SentencePiece tests, from the reference libraries.

    reference.py sentencepiece MODEL FILE...   SentencePieceProcessor(model_file=MODEL).encode(text)
    reference.py tokenizers TOKENIZER_JSON FILE...   Tokenizer.from_file(...).encode(text, add_special_tokens=False).ids,
                                                     truncation and padding off
    reference.py mistral-data                  the folder of mistral-common's tokenizer files

Each FILE is read as bytes and decoded as strict UTF-8 (a BOM stays a
character). After the files come the edge cases below. One JSON line per case:
{"case": name, "path": FILE} or {"case": name, "text": TEXT}, and "ids".
The tests (Tests/TokenKitTests/Formats/SentencePieceModelTests.swift) run this
through CONTEXTKIT_PYTHON and compare every id.
"""
import json
import sys

EDGE_CASES = [
    "", " ", "  ", "\t", "\n", "Hello world", " Hello  world ", "Hello\tworld\n\nagain",
    "   leading and trailing   ", "multiple     spaces     inside", "a\u3000b\u00a0c\u2003d",
    "naïve café Ｆｕｌｌｗｉｄｔｈ ﬁ ½ ① ㈱", "東京都 日本語のテキスト。", "한국어 텍스트", "ภาษาไทย",
    "🙂👍🏽👨‍👩‍👧 🇫🇷", "\u0000\u0001\u007f", "\ufeffBOM", "<s> </s> <unk> <pad> [INST]", "▁ ▁▁ x▁y",
    "e\u0301 \u1100\u1161\u11a8", "\ufffd", "x" * 3000, "ab " * 2000, "unknown ☃ ☃☃ 𝄞𝄞 characters",
    "Mixed123 numbers 4567.89 and dates 2024-01-01", "Ωμέγα Ελληνικά Русский текст עברית العربية",
    # Blocks where characters with charsmap rules (and characters that compose
    # with the next one) sit beside characters without: the normalizer copies
    # the latter through tables without looking for a rule.
    "".join(map(chr, [*range(0xA0, 0x180), *range(0x3000, 0x3100), *range(0xFF00, 0xFFF0), *range(0x2460, 0x2500)]))
    + " か\u3099 ｶﾞ A\u030a a\u0301e\u0308 \u1100\u1161 ﬀ ℃ ㌀",
    # Longer than UnigramEncoder.window (8,192 bytes): one run of characters an
    # English model does not know, and runs in which every position starts a
    # piece of two characters (botchan's "er" and "re", kyoto's "11"), so that
    # the lattice finds no point to start again from and grows.
    "日本語のテキスト" * 2000, "er" * 6000, ("er" * 5000 + " 東京 ") * 3, "1" * 20000,
]


def main():
    if sys.argv[1] == "mistral-data":
        import os
        import mistral_common
        print(os.path.join(os.path.dirname(mistral_common.__file__), "data"))
        return
    kind, model, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    if kind == "sentencepiece":
        import sentencepiece
        processor = sentencepiece.SentencePieceProcessor(model_file=model)
        encode = lambda text: processor.encode(text)
    elif kind == "tokenizers":
        import tokenizers
        tokenizer = tokenizers.Tokenizer.from_file(model)
        tokenizer.no_truncation()  # all-MiniLM's file truncates to 128 tokens
        tokenizer.no_padding()
        encode = lambda text: tokenizer.encode(text, add_special_tokens=False).ids
    else:
        sys.exit(f"unknown reference {kind}")
    out = sys.stdout
    for path in files:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
        out.write(json.dumps({"case": path, "path": path, "ids": encode(text)}) + "\n")
    for i, text in enumerate(EDGE_CASES):
        out.write(json.dumps({"case": f"edge {i}", "text": text, "ids": encode(text)}) + "\n")


if __name__ == "__main__":
    main()
