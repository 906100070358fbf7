"""GPT-2's byte-level alphabet: the map from bytes to the printable characters
that byte-level BPE tokenizer.json files spell their tokens in (printable
bytes map to themselves, the rest to U+0100 onwards in byte order)."""

from __future__ import annotations


def byte_level_alphabet() -> dict[int, str]:
    """Each byte's character."""
    keep = list(range(0x21, 0x7F)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    mapping, extra = {}, 0
    for b in range(256):
        if b in keep:
            mapping[b] = chr(b)
        else:
            mapping[b] = chr(256 + extra)
            extra += 1
    return mapping
