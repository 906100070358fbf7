#!/usr/bin/env python3
"""Writes small, valid model files for the gguf, tokenizer-json and tekken fuzz
targets to start from (the real ones are megabytes; the fuzzer works best on a few KB),
and the templates the chat-template target starts from.

    scripts/fuzz/seeds.py gguf DIR
    scripts/fuzz/seeds.py tokenizer-json DIR
    scripts/fuzz/seeds.py tekken DIR
    scripts/fuzz/seeds.py sentencepiece-model DIR
    scripts/fuzz/seeds.py precompiled-charsmap DIR
    scripts/fuzz/seeds.py chat-template DIR
"""
import base64
import json
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from byte_level import byte_level_alphabet  # noqa: E402


def merges():
    """A few merges over the byte-level alphabet, each producing a new token."""
    pairs = [("Ġ", "t"), ("h", "e"), ("Ġt", "he"), ("i", "n"), ("Ġ", "w"), ("o", "r"), ("Ġw", "or"), ("l", "d"), ("Ġwor", "ld"),
             ("e", "l"), ("el", "l"), ("H", "ell"), ("Hell", "o")]
    return pairs


def gguf_string(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def gguf(path, model, tokens, scores=None, types=None, extra=()):
    kv = []

    def put(key, type_id, payload):
        kv.append(gguf_string(key) + struct.pack("<I", type_id) + payload)

    put("general.architecture", 8, gguf_string("llama"))
    put("llama.context_length", 4, struct.pack("<I", 2048))
    put("tokenizer.ggml.model", 8, gguf_string(model))
    put("tokenizer.ggml.tokens", 9, struct.pack("<IQ", 8, len(tokens)) + b"".join(gguf_string(t) for t in tokens))
    if scores is not None:
        put("tokenizer.ggml.scores", 9, struct.pack("<IQ", 6, len(scores)) + b"".join(struct.pack("<f", s) for s in scores))
    if types is not None:
        put("tokenizer.ggml.token_type", 9, struct.pack("<IQ", 5, len(types)) + b"".join(struct.pack("<i", t) for t in types))
    for key, type_id, payload in extra:
        put(key, type_id, payload)
    header = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kv))
    path.write_bytes(header + b"".join(kv))


def write_gguf(folder):
    alphabet = byte_level_alphabet()
    tokens = [alphabet[b] for b in range(256)] + ["".join(p) for p in merges()]
    merge_list = [f"{a} {b}" for a, b in merges()]
    extra = [("tokenizer.ggml.merges", 9, struct.pack("<IQ", 8, len(merge_list)) + b"".join(gguf_string(m) for m in merge_list)),
             ("tokenizer.ggml.pre", 8, gguf_string("gpt-2"))]
    gguf(folder / "byte-level-bpe.gguf", "gpt2", tokens, types=[1] * len(tokens), extra=extra)

    pieces = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)] + ["▁", "▁the", "▁world", "he", "llo", "▁he", "▁hello"]
    scores = [0.0] * 259 + [-1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0]
    types = [2, 3, 3] + [6] * 256 + [1] * 7
    gguf(folder / "sentencepiece.gguf", "llama", pieces, scores=scores, types=types,
         extra=[("tokenizer.ggml.bos_token_id", 4, struct.pack("<I", 1)), ("tokenizer.ggml.eos_token_id", 4, struct.pack("<I", 2))])


def write_tokenizer_json(folder):
    alphabet = byte_level_alphabet()
    vocab = {alphabet[b]: b for b in range(256)}
    for a, b in merges():
        vocab[a + b] = len(vocab)
    byte_level = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": len(vocab), "content": "<|endoftext|>", "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True}],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": False, "byte_fallback": False, "ignore_merges": False, "vocab": vocab,
                  "merges": [f"{a} {b}" for a, b in merges()]},
    }
    (folder / "byte-level.tokenizer.json").write_text(json.dumps(byte_level, ensure_ascii=False, indent=1))

    pieces = {"<unk>": 0, "<s>": 1, "</s>": 2}
    for b in range(256):
        pieces[f"<0x{b:02X}>"] = len(pieces)
    for p in ["▁", "h", "e", "l", "o", "he", "ll", "▁he", "llo", "▁hello"]:
        pieces[p] = len(pieces)
    sentencepiece = {
        "version": "1.0", "added_tokens": [],
        "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"}, {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
        "pre_tokenizer": None,
        "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"}, {"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        "model": {"type": "BPE", "unk_token": "<unk>", "byte_fallback": True, "fuse_unk": True, "vocab": pieces,
                  "merges": ["h e", "l l", "▁ he", "ll o", "▁he llo"]},
    }
    (folder / "sentencepiece.tokenizer.json").write_text(json.dumps(sentencepiece, ensure_ascii=False, indent=1))

    # Pipelines nested as deep as real ones never are: Sequences in Sequences,
    # and Split regexes that backtrack (nested quantifiers) or match nothing.
    nested = dict(byte_level)
    nested["normalizer"] = {"type": "Sequence", "normalizers": [
        {"type": "Sequence", "normalizers": [{"type": "NFKC"}, {"type": "Sequence", "normalizers": [{"type": "Lowercase"}, {"type": "Strip"}]}]},
        {"type": "Replace", "pattern": {"Regex": "(a*)*b"}, "content": "ab"}, {"type": "Replace", "pattern": {"String": ""}, "content": "x"}]}
    nested["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": "(a*)*b"}, "behavior": "Isolated", "invert": False},
            {"type": "Split", "pattern": {"Regex": "(x+x+)+y"}, "behavior": "MergedWithPrevious", "invert": True},
            {"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"Regex": "(?=a)|\\b"}, "behavior": "Removed"},
                                                    {"type": "Split", "pattern": {"String": ""}, "behavior": "Contiguous"}]}]},
        {"type": "Digits", "individual_digits": True}, {"type": "Punctuation", "behavior": "MergedWithNext"},
        {"type": "ByteLevel", "add_prefix_space": False, "use_regex": True}]}
    (folder / "nested-sequences.tokenizer.json").write_text(json.dumps(nested, ensure_ascii=False, indent=1))


TEKKEN_PATTERN = "|".join([
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*",
    r"\p{N}", r" ?[^\s\p{L}\p{N}]+[\r\n/]*", r"\s*[\r\n]+", r"\s+(?!\S)", r"\s+",
])


def tekken(version, specials, num_special=4, cut=0, pattern=TEKKEN_PATTERN):
    """A tekken file: the 256 bytes and a few merges, compact (the real ones are 15-19 MB)."""
    merges = [b"he", b"ll", b"hell", b"hello", b" w", b"or", b" wor", b" world", b"\xc3\xa9"]
    vocab = [{"rank": i, "token_bytes": base64.b64encode(t).decode(), "token_str": None}
             for i, t in enumerate([bytes([b]) for b in range(256)] + merges)]
    root = {"config": {"pattern": pattern, "num_vocab_tokens": len(vocab), "default_vocab_size": len(vocab) + num_special - cut,
                       "default_num_special_tokens": num_special, "version": version}, "vocab": vocab}
    if specials is not None:
        root["special_tokens"] = [{"rank": i, "token_str": s, "is_control": True} for i, s in enumerate(specials)]
    return json.dumps(root, separators=(",", ":"))


def write_tekken(folder):
    (folder / "v3-default-specials.json").write_text(tekken("v3", None, num_special=24))
    (folder / "v7-listed-specials.json").write_text(tekken("v7", ["<unk>", "<s>", "</s>"]))
    (folder / "v13-cut.json").write_text(tekken("v13", ["<unk>", "<s>", "</s>", "[INST]"], cut=3))
    (folder / "v3-other-pattern.json").write_text(tekken("v3", [], pattern=r"\p{L}+|\p{N}|\s+|[^\p{L}\p{N}\s]+"))
    (folder / "v2-refused.json").write_text(tekken("v2", []))


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def proto_fields(data):
    """(field number, wire type, value) of one protobuf message: ints for varints, bytes otherwise."""
    i = 0
    while i < len(data):
        tag, shift = 0, 0
        while True:
            b = data[i]; i += 1
            tag |= (b & 0x7F) << shift; shift += 7
            if b < 0x80:
                break
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            v, shift = 0, 0
            while True:
                b = data[i]; i += 1
                v |= (b & 0x7F) << shift; shift += 7
                if b < 0x80:
                    break
            yield number, wire, v
        elif wire == 5:
            yield number, wire, data[i:i + 4]; i += 4
        elif wire == 1:
            yield number, wire, data[i:i + 8]; i += 8
        else:
            n, shift = 0, 0
            while True:
                b = data[i]; i += 1
                n |= (b & 0x7F) << shift; shift += 7
                if b < 0x80:
                    break
            yield number, wire, data[i:i + n]; i += n


def field(number, payload):
    if isinstance(payload, int):
        return varint(number << 3) + varint(payload)
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def piece(text, score, kind=1):
    return field(1, field(1, text.encode()) + varint(2 << 3 | 5) + struct.pack("<f", score) + (field(3, kind) if kind != 1 else b""))


def small_model(model_type, byte_fallback, texts, dummy_prefix=True, extra=b""):
    pieces = piece("<unk>", 0, 2) + piece("<s>", 0, 3) + piece("</s>", 0, 3)
    if byte_fallback:
        pieces += b"".join(piece(f"<0x{b:02X}>", 0, 6) for b in range(256))
    pieces += b"".join(piece(t, -1.0 - i * 0.5, 1) for i, t in enumerate(texts)) + piece("<user>", 0, 4)
    trainer = field(3, model_type) + (field(35, 1) if byte_fallback else b"")
    normalizer = field(1, b"identity") + field(3, 1 if dummy_prefix else 0) + extra
    return pieces + field(2, trainer) + field(3, normalizer)


def real_charsmap():
    """The nmt_nfkc charsmap of a shipped test model."""
    model = Path(__file__).resolve().parents[2] / "Tests/Fixtures/sentencepiece/botchan_en_unigram_1000.model"
    for number, _, value in proto_fields(model.read_bytes()):
        if number == 3:
            for n, _, v in proto_fields(value):
                if n == 2:
                    return v
    return b""


def write_sentencepiece_model(folder):
    texts = ["▁", "e", "t", "h", "▁t", "he", "▁the", "l", "o", "ll", "llo", "▁he", "▁hello", "w", "r", "d", "▁w", "or", "ld", "▁world", "東", "京"]
    (folder / "unigram.model").write_bytes(small_model(1, False, texts))
    (folder / "bpe.model").write_bytes(small_model(2, False, texts))
    (folder / "bpe-bytes.model").write_bytes(small_model(2, True, texts, dummy_prefix=False))
    (folder / "unigram-bytes.model").write_bytes(small_model(1, True, texts, extra=field(4, 0)))
    (folder / "word.model").write_bytes(small_model(3, False, texts))


def write_precompiled_charsmap(folder):
    blob = real_charsmap()
    size = struct.unpack("<I", blob[:4])[0]
    strings = blob[4 + size:]
    # The first 1,024 bytes of the real trie (its root and first branches) with a few replacement strings.
    (folder / "trie-head").write_bytes(struct.pack("<I", 1024) + blob[4:4 + 1024] + strings[:512] + b"\0")
    (folder / "trie-head-2k").write_bytes(struct.pack("<I", 2048) + blob[4:4 + 2048] + strings[:1024] + b"\0")


HOSTILE_TEMPLATES = [
    "{{ 9223372036854775807 + 1 }}", "{{ -9223372036854775807 - 2 }}", "{{ 9223372036854775807 * 2 }}", "{{ 3037000500 * 3037000500 }}",
    "{{ -(-9223372036854775807 - 1) }}", "{{ (-9223372036854775807 - 1) // -1 }}", "{{ (-9223372036854775807 - 1) % -1 }}",
    "{{ 7 // 0 }}{{ 7 % 0 }}", "{{ range(0, 10, 0) }}", "{{ range(-9223372036854775807, 9223372036854775807, 3) | length }}",
    "{{ 'abc'[::0] }}", "{{ 'abc'[::-9223372036854775807] }}{{ messages[-9223372036854775807:9223372036854775807:2] }}",
    "{% for i in range(1000000000) %}x{% endfor %}", "{{ 'x' * 100000000 }}", "{{ 'x' * -1 }}{{ 'ab' * 9223372036854775807 }}",
    "{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s.replace('a', ns.s) %}{% endfor %}{{ ns.s }}",
    "{% set ns = namespace(s='a') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}",
    "{{ 'aaaa' | replace('', 'xx') | replace('x', 'yyyy') }}",
    "{% set ns = namespace(l=[]) %}{% for i in range(100000) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}{{ ns.l | tojson }}",
    "{% for a in range(1000) %}{% for b in range(1000) %}{% for c in range(1000) %}{{ a }}{% endfor %}{% endfor %}{% endfor %}",
    "{% for m in messages %}{% for n in messages %}{{ m.content ~ n['content'] | upper }}{% endfor %}{% endfor %}",
    "{{ " + "(" * 300 + "1" + ")" * 300 + " }}", "{% if true %}" * 300 + "x" + "{% endif %}" * 300,
    "{{ [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]] | tojson }}{{ {'a': {'b': {'c': messages}}} | tojson }}",
    "{{ messages[0]['content'][1:-1] }}{{ (messages | last).role }}{{ messages | length }}{{ loop }}{{ undefined.x.y }}",
    "{{ raise_exception('no') }}", "{{ tools | tojson }}{% for t in tools %}{{ t.function.parameters | items | list }}{% endfor %}",
]


def write_chat_template(folder):
    """The repository's templates, the reference data's GGUF templates when present, and the hostile constructs of issue 44."""
    root = Path(__file__).resolve().parents[2]
    for path in sorted((root / "Tests/Fixtures/chat-templates/templates").glob("*.jinja")) + [root / "Tests/Fixtures/conversations/tools-chatml.jinja"]:
        (folder / path.name).write_bytes(path.read_bytes()[:16384])
    config = root / "Tests/Fixtures/hf-chat-model/tokenizer_config.json"
    if config.exists():
        template = json.loads(config.read_text()).get("chat_template")
        if isinstance(template, str):
            (folder / "hf-chat-model.jinja").write_text(template)
    import os
    gguf_dir = Path(os.environ.get("CONTEXTKIT_REFERENCE_DATA") or Path.home() / ".cache/contextkit/reference-data") / "gguf"
    for path in sorted(gguf_dir.glob("*.gguf")):
        data = path.read_bytes()
        key = b"tokenizer.chat_template"
        at = data.find(key)
        if at < 0 or struct.unpack("<I", data[at + len(key):at + len(key) + 4])[0] != 8:
            continue
        n = struct.unpack("<Q", data[at + len(key) + 4:at + len(key) + 12])[0]
        (folder / (path.stem + ".jinja")).write_bytes(data[at + len(key) + 12:at + len(key) + 12 + min(n, 16384)])
    for k, template in enumerate(HOSTILE_TEMPLATES):
        (folder / f"hostile-{k:02d}.jinja").write_text(template)


if __name__ == "__main__":
    kind, folder = sys.argv[1], Path(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    {"gguf": write_gguf, "tokenizer-json": write_tokenizer_json, "tekken": write_tekken, "sentencepiece-model": write_sentencepiece_model,
     "precompiled-charsmap": write_precompiled_charsmap, "chat-template": write_chat_template}[kind](folder)
