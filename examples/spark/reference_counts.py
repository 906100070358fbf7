#!/usr/bin/env python3
"""tiktoken's counts of a JSON Lines dataset's "text" fields: the reference
the Spark test compares tokcount's with.

    reference_counts.py DATASET.jsonl ENCODING OUT.jsonl

Writes one line per record, {"id": ..., "tokens": N}, in dataset order,
counted with tiktoken's encode_ordinary_batch (special-token text counted
as plain text, as tokcount does by default); a line that is not JSON is
left out, with a note on standard error.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import tiktoken_encodings  # noqa: E402


def main() -> None:
    path, encoding, out_path = sys.argv[1], sys.argv[2], sys.argv[3]
    enc = tiktoken_encodings.load(encoding)
    ids, texts = [], []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                print(f"reference_counts: line {number}: not JSON ({error})", file=sys.stderr)
                continue
            ids.append(record["id"])
            texts.append(record["text"])
    with open(out_path, "w", encoding="utf-8") as out:
        for rid, tokens in zip(ids, enc.encode_ordinary_batch(texts)):
            out.write(json.dumps({"id": rid, "tokens": len(tokens)}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
