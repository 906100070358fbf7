#!/usr/bin/env python3
"""Writes a GGUF of a chosen size from a vocabulary-only GGUF: the same
key/value header, then tensor descriptors and real tensor bytes, as a model
file has. For timing how long opening a multi-gigabyte model takes.

Usage: python3 Tests/Fixtures/openmodels/make-large-gguf.py VOCAB.gguf OUT.gguf SIZE_GIB
"""

import struct
import sys

ALIGN = 32
CHUNK = 64 << 20


def kv_end(data: bytes) -> tuple[int, int]:
    """Offset after the key/value section of a GGUF v2/v3 file, and its key count."""
    assert data[:4] == b"GGUF"
    _, n_tensors, n_kv = struct.unpack_from("<IQQ", data, 4)
    assert n_tensors == 0, "expects a vocabulary-only file"
    sizes = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
    at = 24

    def skip(kind: int) -> None:
        nonlocal at
        if kind == 8:
            (n,) = struct.unpack_from("<Q", data, at)
            at += 8 + n
        elif kind == 9:
            sub, count = struct.unpack_from("<IQ", data, at)
            at += 12
            if sub == 8:
                for _ in range(count):
                    skip(8)
            else:
                at += sizes[sub] * count
        else:
            at += sizes[kind]

    for _ in range(n_kv):
        skip(8)
        (kind,) = struct.unpack_from("<I", data, at)
        at += 4
        skip(kind)
    return at, n_kv


def main() -> None:
    vocab, out, gib = sys.argv[1], sys.argv[2], float(sys.argv[3])
    data = open(vocab, "rb").read()
    end, n_kv = kv_end(data)
    tensor_bytes = 256 << 20
    n_tensors = max(1, int(gib * (1 << 30)) // tensor_bytes)
    infos = b""
    for i in range(n_tensors):
        name = f"blk.{i}.ffn_down.weight".encode()
        # name, 2 dims, dims, type F16 (1), offset into the data section
        infos += struct.pack("<Q", len(name)) + name + struct.pack("<IQQIQ", 2, 8192, tensor_bytes // 2 // 8192, 1, i * tensor_bytes)
    header = b"GGUF" + struct.pack("<IQQ", 3, n_tensors, n_kv) + data[24:end] + infos
    header += b"\0" * (-len(header) % ALIGN)
    pattern = bytes(range(256)) * (CHUNK // 256)
    with open(out, "wb") as f:
        f.write(header)
        for _ in range(n_tensors * tensor_bytes // CHUNK):
            f.write(pattern)
    print(f"{out}: {n_tensors} tensors, {len(header) + n_tensors * tensor_bytes} bytes")


if __name__ == "__main__":
    main()
