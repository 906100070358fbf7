#!/usr/bin/env python3
"""Expected prompts for conversations with tools, rendered by Jinja2 as Hugging
Face's apply_chat_template renders them (sandboxed, trim_blocks, lstrip_blocks,
its own tojson: json.dumps with ensure_ascii=False), with the tools passed as
`tools` and the assistant's turn opened. Writes expected.json beside this script.

Template: tools-chatml.jinja, written for this project in the shape of the
tool-calling ChatML templates (a <tools> block in the system turn, <tool_call>
and <tool_response> blocks). Conversations: conversations.json (written for
this project). Run: "$(scripts/python-env | tail -n1)" Tests/Fixtures/conversations/generate.py
"""
import json
from pathlib import Path

from jinja2.exceptions import TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = Path(__file__).resolve().parent


def raise_exception(message):
    raise TemplateError(message)


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def main():
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    env.globals["raise_exception"] = raise_exception
    env.filters["tojson"] = tojson
    template = env.from_string((HERE / "tools-chatml.jinja").read_text(encoding="utf-8"))
    cases = []
    for case in json.loads((HERE / "conversations.json").read_text(encoding="utf-8")):
        body = case["body"]
        messages = body["messages"] if isinstance(body, dict) else body
        tools = body.get("tools") if isinstance(body, dict) else None
        # The reader gives a null content as "", as the counted conversation holds it.
        messages = [{**m, "content": m.get("content") or ""} for m in messages]
        prompt = template.render(messages=messages, tools=tools, add_generation_prompt=True, bos_token="", eos_token="")
        cases.append({"name": case["name"], "prompt": prompt})
    out = HERE / "expected.json"
    out.write_text(json.dumps(cases, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{out.name}: {len(cases)} cases")


if __name__ == "__main__":
    main()
