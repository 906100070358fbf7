#!/usr/bin/env python3
"""Expected renderings of chat templates, from Jinja2 configured as Hugging
Face's apply_chat_template configures it (sandboxed, trim_blocks,
lstrip_blocks, raise_exception). Writes expected.json beside this script.

Templates: templates/*.jinja (written for this project) and the chat template
inside the reference data's gguf/ggml-vocab-qwen2.gguf (read from its GGUF header).
Run: "$(scripts/python-env | tail -n1)" Tests/Fixtures/chat-templates/generate.py
"""
import os
import json
import struct
import sys
from pathlib import Path

from jinja2.exceptions import TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = Path(__file__).resolve().parent
# The reference data scripts/reference-data fetches (gguf/, hf/).
REFERENCE = Path(os.environ.get("CONTEXTKIT_REFERENCE_DATA")
                 or Path(os.environ.get("CONTEXTKIT_CACHE") or Path.home() / ".cache/contextkit") / "reference-data")


def gguf_string(path: Path, key: str):
    """The string value of `key` in a GGUF file's key/value header, or None."""
    data = path.read_bytes()
    off = 8
    version = struct.unpack_from("<I", data, 4)[0]
    assert data[:4] == b"GGUF" and version in (2, 3)
    _, n_kv = struct.unpack_from("<QQ", data, off)
    off += 16
    sizes = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}

    def read_str(o):
        (n,) = struct.unpack_from("<Q", data, o)
        return data[o + 8:o + 8 + n].decode("utf-8"), o + 8 + n

    def skip(t, o):
        if t == 8:
            return read_str(o)[1]
        if t == 9:
            et, n = struct.unpack_from("<IQ", data, o)
            o += 12
            for _ in range(n):
                o = skip(et, o)
            return o
        return o + sizes[t]

    for _ in range(n_kv):
        k, off = read_str(off)
        (t,) = struct.unpack_from("<I", data, off)
        off += 4
        if k == key and t == 8:
            return read_str(off)[0]
        off = skip(t, off)
    return None


def raise_exception(message):
    raise TemplateError(message)


CONVERSATIONS = {
    "user-only": [{"role": "user", "content": "Hello"}],
    "system-user": [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Summarise: cats sleep a lot."}],
    "three-turns": [
        {"role": "user", "content": "Hi there"},
        {"role": "assistant", "content": "Hello! How can I help?"},
        {"role": "user", "content": "  Tell me a joke.  "},
    ],
    "system-multiline": [
        {"role": "system", "content": "Rules:\n- be brief\n- no lists"},
        {"role": "user", "content": "日本語で答えてください。"},
        {"role": "assistant", "content": "はい、わかりました。"},
        {"role": "user", "content": "emoji 👩‍💻 and \"quotes\" and {braces}"},
    ],
    "assistant-first": [{"role": "assistant", "content": "I start."}, {"role": "user", "content": "ok"}],
    "empty-content": [{"role": "user", "content": ""}],
}


def main():
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    env.globals["raise_exception"] = raise_exception
    templates = {p.stem: p.read_text(encoding="utf-8") for p in sorted((HERE / "templates").glob("*.jinja"))}
    qwen = gguf_string(REFERENCE / "gguf/ggml-vocab-qwen2.gguf", "tokenizer.chat_template")
    if qwen is None:
        sys.exit("no chat template in the qwen2 GGUF")
    templates["gguf:qwen2"] = qwen
    cases = []
    for name, source in templates.items():
        template = env.from_string(source)
        for conversation, messages in CONVERSATIONS.items():
            for generation in (True, False):
                try:
                    expected = {"text": template.render(messages=messages, add_generation_prompt=generation,
                                                        bos_token="<s>", eos_token="</s>")}
                except TemplateError as error:
                    expected = {"error": str(error)}
                cases.append({"template": name, "conversation": conversation, "add_generation_prompt": generation,
                              "messages": messages, **expected})
    out = HERE / "expected.json"
    out.write_text(json.dumps(cases, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{out.name}: {len(cases)} cases from {len(templates)} templates")


if __name__ == "__main__":
    main()
