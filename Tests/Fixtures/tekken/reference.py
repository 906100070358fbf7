#!/usr/bin/env python3
"""mistral-common's Tekkenizer as the reference for TokenKit's tekken reader.

Run by the Swift tests at test time (nothing is stored: the tekken files are
read from the installed mistral-common package, Apache-2.0, 15-19 MB each):

    reference.py --list          the tekken files mistral-common ships, one path a line
    reference.py --specials F    F's special tokens by rank, as one JSON list
    reference.py F               one line per case, ids of Tekkenizer.encode(text, bos=False, eos=False)

A case line is what Tests/Fixtures/tiktoken/generate.py writes (its case
builders are reused): {"case", "input", "count", "fnv1a64", "ids"}, ids in
full up to 4,096 tokens, else the first 256, with an FNV-1a hash of all.
Cases: every UDHR file, every file under corpora/, the adversarial inputs,
1,000 seeded fuzz texts, and texts full of Mistral's control-token strings
(which Tekkenizer.encode treats as plain text).

tiktoken's regex engine overflows its backtracking stack on a few
megabyte-long runs (an error or a panic); for those cases (reported on stderr) the ids come from the same
Tekkenizer's tiktoken model through tiktoken's `regex`-module path, plus the
special-token offset.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.dont_write_bytecode = True  # no __pycache__ inside the repo
sys.path.insert(0, str(REPO / "Tests" / "Fixtures" / "tiktoken"))
sys.path.insert(0, str(REPO / "scripts"))

import generate  # noqa: E402  (the tiktoken fixtures' case builders)
import fuzz_text  # noqa: E402
import mistral_common  # noqa: E402
from mistral_common.tokens.tokenizers.tekken import Tekkenizer  # noqa: E402

FUZZ_SEED = 20261201
FUZZ_CASES = 1000
# The adversarial inputs stored as files are committed beside generate.py; read them, never rewrite them.
generate.write_input = lambda name, text: generate.HERE / "inputs" / name


def tekken_files() -> list[Path]:
    return sorted((Path(mistral_common.__file__).parent / "data").glob("tekken*.json"))


def corpora_cases() -> list[generate.Case]:
    corpora = REPO / "corpora"
    return [generate.repo_file(f"corpora/{p.relative_to(corpora).as_posix()}", p) for p in sorted(corpora.rglob("*")) if p.is_file()]


def control_token_cases(tekken: Tekkenizer) -> list[generate.Case]:
    specials = [t["token_str"] for t in tekken._all_special_tokens]
    texts = {
        "instruct": "<s>[INST] What is 2+2? [/INST]4</s>",
        "system-and-tools": "[SYSTEM_PROMPT]Be brief.[/SYSTEM_PROMPT][AVAILABLE_TOOLS][{\"name\": \"f\"}][/AVAILABLE_TOOLS][TOOL_CALLS]",
        "image": "[IMG][IMG][IMG_BREAK][IMG][IMG_END]",
        "fillers": "<SPECIAL_20><SPECIAL_999> <SPECIAL_1000>",
        "all-named": "".join(specials[:40]),
        "lookalikes": "<s ></ s>[inst][/INST ]<unk>x<pad>",
    }
    cases = [generate.inline(f"control/{name}", text) for name, text in texts.items()]
    cases += [generate.inline(f"control/alone-{rank}", text) for rank, text in enumerate(specials[:40])]
    return cases


def cases(tekken: Tekkenizer) -> list[generate.Case]:
    fuzz = fuzz_text.FuzzText(FUZZ_SEED)
    return (generate.udhr_cases() + corpora_cases() + generate.adversarial_cases()
            + [generate.inline(f"fuzz/{i:04d}", fuzz.case()) for i in range(FUZZ_CASES)] + control_token_cases(tekken))


def encode(tekken: Tekkenizer, case: generate.Case) -> list[int]:
    try:
        return tekken.encode(case.text, bos=False, eos=False)
    except BaseException as error:  # pyo3's PanicException is not an Exception
        overflow = type(error).__name__ == "PanicException" or "Max stack size exceeded" in str(error)
        if not overflow:
            raise
    print(f"{case.name}: tiktoken's regex overflowed its stack; used its regex-module path", file=sys.stderr)
    return [t + tekken.num_special_tokens for t in tekken._model._encode_only_native_bpe(case.text)]


def main() -> None:
    if sys.argv[1:] == ["--list"]:
        for path in tekken_files():
            print(path)
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--specials":
        tekken = Tekkenizer.from_file(sys.argv[2])
        print(json.dumps([t["token_str"] for t in tekken._all_special_tokens]))
        return
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    tekken = Tekkenizer.from_file(sys.argv[1])
    out = sys.stdout.buffer
    for case in cases(tekken):
        out.write(generate.record(case, encode(tekken, case)).encode("utf-8") + b"\n")


if __name__ == "__main__":
    main()
