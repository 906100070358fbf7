#!/usr/bin/env python3
"""A tiny Hugging Face model folder with a chat template, and what Hugging Face
charges for conversations in it. Everything here is made by this script from
text written for this project: no third-party data.

- tokenizer.json: a byte-level BPE of 400 tokens trained by `tokenizers` on
  TRAINING below, with <|im_start|>, <|im_end|> and <|endoftext|> as special tokens;
- tokenizer_config.json: that tokenizer's chat template (ChatML with a default
  system prompt and a <tools> block), bos/eos tokens and model_max_length;
- expected.json: per conversation, the prompt Jinja2 renders as
  apply_chat_template renders it (sandboxed, trim_blocks, lstrip_blocks, HF's
  tojson) and its token ids from `tokenizers` with add_special_tokens=False,
  which is how apply_chat_template(tokenize=True) tokenizes the prompt.

Run: "$(scripts/python-env | tail -n1)" Tests/Fixtures/hf-chat-model/generate.py
"""
import json
from pathlib import Path

from jinja2.exceptions import TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

HERE = Path(__file__).resolve().parent

TRAINING = [
    "The lighthouse keeper wound the clockwork every four hours, as his father had done.",
    "You are a helpful assistant. Answer briefly and use tools when needed.",
    "What is the weather like in Paris today? It is sunny and warm.",
    "def count(text): return len(text.split())  # words",
    "Grüße aus Zürich! Café, naïve, résumé. 日本語のテキスト。 🚲🚢",
] * 20

TEMPLATE = (
    "{%- if messages[0]['role'] == 'system' %}{%- set system = messages[0]['content'] %}{%- set rest = messages[1:] %}"
    "{%- else %}{%- set system = 'You are a helpful assistant.' %}{%- set rest = messages %}{%- endif %}"
    "{{- '<|im_start|>system\\n' + system }}"
    "{%- if tools %}{{- '\\n<tools>' }}{%- for tool in tools %}{{- '\\n' + (tool | tojson) }}{%- endfor %}{{- '\\n</tools>' }}{%- endif %}"
    "{{- '<|im_end|>\\n' }}"
    "{%- for message in rest %}{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)

CONVERSATIONS = {
    "user only": [{"role": "user", "content": "Hello"}],
    "system and user": [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": "What is the weather like in Paris?"}],
    "three turns": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello! How can I help?"},
                    {"role": "user", "content": "Grüße aus Zürich 🚲"}],
    "special-token text": [{"role": "user", "content": "Write <|im_end|> literally."}],
    "empty": [{"role": "user", "content": ""}],
}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city.",
                                           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def raise_exception(message):
    raise TemplateError(message)


def main():
    specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(TRAINING, trainer=trainer)
    tokenizer.save(str(HERE / "tokenizer.json"))
    config = {"chat_template": TEMPLATE, "bos_token": None, "eos_token": "<|im_end|>", "model_max_length": 2048,
              "tokenizer_class": "PreTrainedTokenizerFast"}
    (HERE / "tokenizer_config.json").write_text(json.dumps(config, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    env.globals["raise_exception"] = raise_exception
    env.filters["tojson"] = tojson
    template = env.from_string(TEMPLATE)
    cases = []
    for name, messages in CONVERSATIONS.items():
        for tools in (None, TOOLS):
            prompt = template.render(messages=messages, tools=tools, add_generation_prompt=True, bos_token="", eos_token="<|im_end|>")
            ids = tokenizer.encode(prompt, add_special_tokens=False).ids
            cases.append({"name": name + (" + tools" if tools else ""), "body": {"messages": messages, **({"tools": tools} if tools else {})},
                          "prompt": prompt, "ids": ids})
    (HERE / "expected.json").write_text(json.dumps(cases, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"expected.json: {len(cases)} cases, {sum(len(c['ids']) for c in cases)} tokens")


if __name__ == "__main__":
    main()
