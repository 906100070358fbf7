#!/usr/bin/env python3
"""tiktoken as an oracle for the Swift live differential tests.

Serve (default): one JSON request per stdin line,
    {"encoding": "cl100k_base", "text": "..."}   (optional "allowed_special": "all")
answered by one stdout line, flushed at once:
    {"ids": [...]}   or   {"error": "..."}   (the oracle keeps serving).

Sample: --sample N --seed S prints, for N seeded fuzz texts (the generator of
Tests/Fixtures/tiktoken/generate.py) and then N/20 mixed documents of 1-20 KB
(fuzz pieces and UDHR paragraphs), one line per text and encoding:
    {"case": ..., "encoding": ..., "text": ..., "ids": [...]}
--encodings a,b samples those encodings instead of the four with their own
ranks. --specials puts one to four of each encoding's special-token strings
into every text and adds each special token alone; those lines carry
"allowed_special": "all" and the ids of encode(text, allowed_special="all").
--long N prints N long texts instead (cases "long/..."), each 40 documents
joined: 200 KB to 1 MB, long enough that TokenKit encodes them through its
piece memo (`PieceCache`), with many distinct pieces to evict one another.

Run with the test venv:  "$(scripts/python-env | tail -n1)" scripts/tiktoken-oracle.py
Output is plain ASCII JSON (non-ASCII escaped), whatever the locale.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # no __pycache__ inside the repo
sys.path.insert(0, str(SCRIPTS))

import fuzz_text  # noqa: E402
import tiktoken_encodings  # noqa: E402

UDHR = SCRIPTS.parent / "Tests" / "Fixtures" / "udhr"
DOCUMENTS_PER_TEXT = 1 / 20


def udhr_paragraphs() -> list[str]:
    """The UDHR paragraphs the samples mix in; the samples are only the seeded ones with them."""
    if not UDHR.is_dir():
        raise SystemExit(f"tiktoken-oracle: {UDHR} is missing; the seeded samples are made with it")
    return fuzz_text.udhr_paragraphs(UDHR)


def write(obj: dict) -> None:
    sys.stdout.buffer.write(json.dumps(obj, separators=(",", ":")).encode("ascii") + b"\n")
    sys.stdout.buffer.flush()


def answer(line: bytes) -> dict:
    try:
        request = json.loads(line)
        name, text = request["encoding"], request["text"]
        allowed_special = request.get("allowed_special")
        if not isinstance(text, str) or allowed_special not in (None, "all"):
            raise ValueError('"text" must be a string and "allowed_special" absent or "all"')
        return {"ids": tiktoken_encodings.encode(tiktoken_encodings.load(name), text, allowed_special)}
    except Exception as error:  # a bad request must not end the oracle
        return {"error": f"{type(error).__name__}: {error}"}


def serve() -> None:
    for line in sys.stdin.buffer:
        if line.strip():
            write(answer(line))


def sample(count: int, seed: int, names: list[str], specials: bool) -> None:
    fuzz = fuzz_text.FuzzText(seed)
    cases = [(f"fuzz/{i:04d}", fuzz.case()) for i in range(count)]
    paragraphs = udhr_paragraphs()
    cases += [(f"document/{i:03d}", fuzz.document(paragraphs)) for i in range(int(count * DOCUMENTS_PER_TEXT))]
    encodings = [tiktoken_encodings.load(name) for name in names]
    if not specials:
        for case, text in cases:
            for enc in encodings:
                write({"case": case, "encoding": enc.name, "text": text, "ids": tiktoken_encodings.encode(enc, text)})
        return
    for enc in encodings:
        tokens = sorted(enc.special_tokens_set)
        for token in tokens:
            write({"case": f"special/{token}", "encoding": enc.name, "text": token, "allowed_special": "all",
                   "ids": tiktoken_encodings.encode(enc, token, "all")})
        for case, text in cases:
            for _ in range(fuzz.rng.randint(1, 4)):
                at = fuzz.rng.randint(0, len(text))
                text = text[:at] + fuzz.rng.choice(tokens) + text[at:]
            write({"case": case, "encoding": enc.name, "text": text, "allowed_special": "all",
                   "ids": tiktoken_encodings.encode(enc, text, "all")})


def long_texts(count: int, seed: int, names: list[str]) -> None:
    fuzz = fuzz_text.FuzzText(seed)
    paragraphs = udhr_paragraphs()
    encodings = [tiktoken_encodings.load(name) for name in names]
    for i in range(count):
        text = "".join(fuzz.document(paragraphs) for _ in range(40))
        for enc in encodings:
            write({"case": f"long/{i:02d}", "encoding": enc.name, "text": text, "ids": tiktoken_encodings.encode(enc, text)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, metavar="N", help="print N seeded fuzz texts (+ N/20 documents) with their ids")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed for --sample (default 0)")
    parser.add_argument("--encodings", default=",".join(tiktoken_encodings.NAMES), help="comma-separated encodings for --sample")
    parser.add_argument("--long", type=int, metavar="N", help="print N seeded texts of 200 KB to 1 MB with their ids")
    parser.add_argument("--specials", action="store_true", help="--sample texts hold special-token strings, encoded with allowed_special='all'")
    args = parser.parse_args()
    try:
        if args.long is not None:
            long_texts(args.long, args.seed, args.encodings.split(","))
        elif args.sample is None:
            serve()
        else:
            sample(args.sample, args.seed, args.encodings.split(","), args.specials)
    except BrokenPipeError:  # the reader stopped early: not an error for an oracle
        sys.stderr.close()


if __name__ == "__main__":
    main()
