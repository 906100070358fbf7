#!/usr/bin/env python3
"""tiktoken's model-name table, as the Swift tests compare it (at test time).

Prints one JSON object: "exact" (MODEL_TO_ENCODING) and "prefixes"
(MODEL_PREFIX_TO_ENCODING) as [name, encoding] pairs in tiktoken's order, and
"probes": encoding_name_for_model(name) (null where tiktoken raises KeyError)
for every name of both tables, each with a date and a fine-tune suffix
appended, and a few names tiktoken does not know.

Run with the test venv:  "$(scripts/python-env | tail -n1)" scripts/tiktoken-models.py
"""

import json

import tiktoken
from tiktoken.model import MODEL_PREFIX_TO_ENCODING, MODEL_TO_ENCODING, encoding_name_for_model

UNKNOWN = ["", "gpt4o", "GPT-4o", "claude-3-opus", "o2", "gpt-3", "text-embedding-4", "ft:", "llama-3"]


def probe(name: str):
    try:
        return encoding_name_for_model(name)
    except KeyError:
        return None


names = [*MODEL_TO_ENCODING, *MODEL_PREFIX_TO_ENCODING]
names += [n + suffix for n in list(names) for suffix in ("-2024-08-06", "2025", ":acme::x1")] + UNKNOWN
print(json.dumps({
    "tiktoken": tiktoken.__version__,
    "exact": list(MODEL_TO_ENCODING.items()),
    "prefixes": list(MODEL_PREFIX_TO_ENCODING.items()),
    "probes": {n: probe(n) for n in names},
}))
