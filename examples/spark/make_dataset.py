#!/usr/bin/env python3
"""Builds a JSON Lines dataset of UDHR paragraphs in many languages.

    make_dataset.py OUT.jsonl [--records N] [--malformed-at K] [--udhr DIR]

Each record is {"id": "<file>-<n>", "lang": "<file>", "text": "<paragraph>"}:
the non-blank lines of Tests/Fixtures/udhr/*.txt (the Universal Declaration
of Human Rights, public domain, from nltk_data's udhr2), trimmed, taken
round-robin over the files (sorted by name) so that any prefix of the
dataset mixes every language. Every third record is written with
ensure_ascii=True, so the reader also meets \\uXXXX escapes and surrogate
pairs. --malformed-at K puts one line that is not JSON before record K.
The output depends only on the UDHR files and the arguments.
"""

import argparse
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def paragraphs(udhr: Path) -> list[tuple[str, list[str]]]:
    out = []
    for path in sorted(udhr.glob("*.txt")):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # not UTF-8: not a text a JSON string can hold as is
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if lines:
            out.append((path.stem, lines))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--records", type=int, default=None, help="stop after this many records (default: every paragraph)")
    parser.add_argument("--malformed-at", type=int, default=None)
    parser.add_argument("--udhr", default=str(REPO / "Tests" / "Fixtures" / "udhr"))
    args = parser.parse_args()

    files = paragraphs(Path(args.udhr))
    records = []
    depth = 0
    while any(depth < len(lines) for _, lines in files):
        for name, lines in files:
            if depth < len(lines):
                records.append((f"{name}-{depth:04d}", name, lines[depth]))
        depth += 1
    if args.records is not None:
        if args.records > len(records):
            raise SystemExit(f"make_dataset: only {len(records)} paragraphs, {args.records} asked for")
        records = records[: args.records]

    with open(args.out, "w", encoding="utf-8", newline="\n") as out:
        for n, (rid, lang, text) in enumerate(records):
            if n == args.malformed_at:
                out.write('{"id": "malformed", "text": "this line is cut short\n')
            record = {"id": rid, "lang": lang, "text": text}
            out.write(json.dumps(record, ensure_ascii=(n % 3 == 2)) + "\n")
    languages = len({lang for _, lang, _ in records})
    print(f"make_dataset: {len(records)} records in {languages} languages -> {args.out}")


if __name__ == "__main__":
    main()
