#!/usr/bin/env python3
"""Verify the ContextKit corpora against the rules in corpora/README.md.

Run from anywhere: python3 corpora/check.py
Prints one line per file with its character count, then every problem found.
Exits 1 if there is any problem, so it can gate CI.
"""

from __future__ import annotations

import html.parser
import json
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent

# tag -> (English name, ISO 15924 script)
PROSE = {
    "en": ("English", "Latn"),
    "zh-Hans": ("Chinese (Simplified)", "Hans"),
    "zh-Hant": ("Chinese (Traditional)", "Hant"),
    "ja": ("Japanese", "Jpan"),
    "ko": ("Korean", "Kore"),
    "ar": ("Arabic", "Arab"),
    "hi": ("Hindi", "Deva"),
    "bn": ("Bengali", "Beng"),
    "ru": ("Russian", "Cyrl"),
    "uk": ("Ukrainian", "Cyrl"),
    "de": ("German", "Latn"),
    "fr": ("French", "Latn"),
    "es": ("Spanish", "Latn"),
    "pt": ("Portuguese", "Latn"),
    "it": ("Italian", "Latn"),
    "tr": ("Turkish", "Latn"),
    "vi": ("Vietnamese", "Latn"),
    "th": ("Thai", "Thai"),
    "he": ("Hebrew", "Hebr"),
    "el": ("Greek", "Grek"),
    "fa": ("Persian", "Arab"),
    "id": ("Indonesian", "Latn"),
    "sw": ("Swahili", "Latn"),
    "pl": ("Polish", "Latn"),
}

# file -> (language, tag)
CODE = {
    "sample.swift": ("Swift", "swift"),
    "sample.py": ("Python", "python"),
    "sample.json": ("JSON", "json"),
    "sample.html": ("HTML", "html"),
    "sample.md": ("Markdown", "markdown"),
}

# Unicode character-name prefixes of the letters each script is written in.
SCRIPT_LETTERS = {
    "Latn": ("LATIN",),
    "Cyrl": ("CYRILLIC",),
    "Grek": ("GREEK",),
    "Arab": ("ARABIC",),
    "Hebr": ("HEBREW",),
    "Deva": ("DEVANAGARI",),
    "Beng": ("BENGALI",),
    "Thai": ("THAI",),
    "Hans": ("CJK UNIFIED",),
    "Hant": ("CJK UNIFIED",),
    "Jpan": ("HIRAGANA", "KATAKANA", "CJK UNIFIED"),
    "Kore": ("HANGUL", "CJK UNIFIED"),
}

ORIGIN = "original for ContextKit"
AUTHOR = "ContextKit contributors"
EN_PROSE_CHARS = range(3200, 3801)
CODE_CHARS = range(2000, 5001)
CHAT_CHARS = range(2500, 4001)
# A translation far shorter or longer than English has probably lost or
# duplicated a passage; CJK text legitimately runs near a third of English.
TRANSLATION_RATIO = (0.25, 2.0)
# Digits, optionally grouped or split by the separators the locales use.
NUMBER = re.compile(r"\d+(?:[.,\u066b\u066c\u00a0\u202f]\d+)*")
FULL_WIDTH_SCRIPTS = {"Hans", "Hant", "Jpan"}

problems: list[str] = []
sizes: dict[Path, int] = {}


def problem(path: Path, message: str) -> None:
    problems.append(f"{path.relative_to(ROOT)}: {message}")


def read_text(path: Path) -> str | None:
    """Read a file and check the encoding rules shared by every text file."""
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        problem(path, "starts with a byte order mark")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        problem(path, f"not UTF-8 ({error})")
        return None
    sizes[path] = len(text)
    if "\r" in text:
        problem(path, "contains CR; line endings must be LF")
    if not unicodedata.is_normalized("NFC", text):
        problem(path, "not NFC-normalised")
    if not text.endswith("\n") or text.endswith("\n\n"):
        problem(path, "must end with exactly one newline")
    ragged = [n for n, line in enumerate(text.replace("\r", "").split("\n"), 1) if line != line.rstrip()]
    if ragged:
        problem(path, f"trailing whitespace on line(s) {ragged[:5]}")
    return text


def check_sidecar(sidecar: Path, expected: dict[str, str]) -> None:
    if not sidecar.exists():
        return  # reported by check_layout
    text = read_text(sidecar)
    if text is None:
        return
    try:
        meta = json.loads(text)
    except json.JSONDecodeError as error:
        problem(sidecar, f"invalid JSON ({error})")
        return
    wanted = {**expected, "origin": ORIGIN, "author": AUTHOR}
    if meta != wanted:
        problem(sidecar, f"expected {wanted}, found {meta}")


def numbers(text: str) -> Counter[str]:
    """Numbers as plain ASCII digit strings, whatever digits and separators a locale uses."""
    found = Counter()
    for match in NUMBER.finditer(text):
        found["".join(str(unicodedata.digit(c)) for c in match.group() if c.isdigit())] += 1
    return found


def script_share(text: str, script: str) -> float:
    letters = [c for c in text if c.isalpha()]
    prefixes = SCRIPT_LETTERS[script]
    native = sum(1 for c in letters if unicodedata.name(c, "").startswith(prefixes))
    return native / len(letters) if letters else 0.0


def blocks(text: str) -> list[list[str]]:
    """Paragraphs (headings and lists included) as lists of lines."""
    return [block.split("\n") for block in text.rstrip("\n").split("\n\n")]


def check_prose() -> None:
    folder = ROOT / "prose"
    texts: dict[str, str] = {}
    for tag, (language, script) in PROSE.items():
        path = folder / f"{tag}.txt"
        if not path.exists():
            continue  # reported by check_layout
        expected = {"language": language, "tag": tag, "script": script}
        if tag != "en":
            expected["translated_from"] = "en"
        check_sidecar(folder / f"{tag}.json", expected)
        text = read_text(path)
        if text is None:
            continue
        texts[tag] = text
        share = script_share(text, script)
        if share < 0.8:
            problem(path, f"only {share:.0%} of letters are in script {script}")
        if script in FULL_WIDTH_SCRIPTS:
            # ASCII punctuation is fine only inside numbers (1.84, 1,000) and list markers.
            stray = re.findall(r"(?<!\d)[,.?!:;()]|[,.?!:;()](?!\d)", text)
            if stray:
                problem(path, f"ASCII punctuation instead of full-width: {''.join(stray)}")

    english = texts.get("en")
    if english is None:
        return
    if len(english) not in EN_PROSE_CHARS:
        problem(folder / "en.txt", f"{len(english)} characters, want 3,200–3,800")
    shape = [len(block) for block in blocks(english)]
    en_numbers = numbers(english)
    for tag, text in texts.items():
        path = folder / f"{tag}.txt"
        other = [len(block) for block in blocks(text)]
        if other != shape:
            problem(path, f"paragraph shape {other} differs from English {shape}")
        items = sum(line.startswith("- ") for block in blocks(text) for line in block)
        if items != sum(line.startswith("- ") for block in blocks(english) for line in block):
            problem(path, "list items differ from English")
        found = numbers(text)
        if found != en_numbers:
            missing = sorted((en_numbers - found).elements())
            extra = sorted((found - en_numbers).elements())
            problem(path, f"numbers differ from English: missing {missing}, extra {extra}")
        ratio = len(text) / len(english)
        if not TRANSLATION_RATIO[0] <= ratio <= TRANSLATION_RATIO[1]:
            problem(path, f"length is {ratio:.2f}× English; a passage may be missing")


class TagCollector(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)


def check_code() -> None:
    folder = ROOT / "code"
    for name, (language, tag) in CODE.items():
        path = folder / name
        if not path.exists():
            continue  # reported by check_layout
        check_sidecar(folder / f"{name}.json", {"language": language, "tag": tag, "script": "Zyyy"})
        text = read_text(path)
        if text is None:
            continue
        if len(text) not in CODE_CHARS:
            problem(path, f"{len(text)} characters, want 2,000–5,000")
        required: tuple[str, ...] = ()  # regular expressions, matched per line
        if name.endswith(".py"):
            try:
                compile(text, name, "exec")
            except SyntaxError as error:
                problem(path, f"does not compile: {error}")
            required = (r"^@dataclass", r"\byield\b", r'"""', r"\) -> ")
        elif name.endswith(".json"):
            try:
                pretty = json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
                if text != pretty:
                    problem(path, "not pretty-printed with 2-space indent")
            except json.JSONDecodeError as error:
                problem(path, f"invalid JSON ({error})")
        elif name.endswith(".html"):
            collector = TagCollector()
            collector.feed(text)
            absent = {"head", "meta", "nav", "article", "footer"} - collector.tags
            if absent:
                problem(path, f"missing elements: {sorted(absent)}")
        elif name.endswith(".swift"):
            required = (r"^ *///", r"^public protocol ", r"^extension ", r"\bthrows\b", r"\bthrow ")
        elif name.endswith(".md"):
            required = (r"^# ", r"^## ", r"^- ", r"^\|.*\|$", r"^```")
        for pattern in required:
            if not re.search(pattern, text, re.MULTILINE):
                problem(path, f"expected a line matching {pattern!r}")


def check_chat() -> None:
    folder = ROOT / "chat"
    path = folder / "transcript.txt"
    if not path.exists():
        return  # reported by check_layout
    check_sidecar(folder / "transcript.json", {"language": "English", "tag": "en", "script": "Latn"})
    text = read_text(path)
    if text is None:
        return
    if len(text) not in CHAT_CHARS:
        problem(path, f"{len(text)} characters, want 2,500–4,000")
    speakers = []
    for line in text.splitlines():
        if not line:
            continue
        speaker, _, said = line.partition(": ")
        if speaker not in ("User", "Assistant") or not said:
            problem(path, f"line does not start with 'User: ' or 'Assistant: ': {line[:40]!r}")
        speakers.append(speaker)
    if speakers[:1] != ["User"] or any(a == b for a, b in zip(speakers, speakers[1:])):
        problem(path, "turns must start with User and alternate")


def check_layout() -> None:
    """Every file is one the README describes, and every text file follows the shared rules."""
    expected = {ROOT / "README.md", ROOT / "check.py", ROOT / "chat/transcript.txt", ROOT / "chat/transcript.json"}
    expected |= {ROOT / "prose" / f"{tag}.{ext}" for tag in PROSE for ext in ("txt", "json")}
    expected |= {ROOT / "code" / f"{name}{suffix}" for name in CODE for suffix in ("", ".json")}
    present = {p for p in ROOT.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    for stray in sorted(present - expected):
        problem(stray, "not part of the corpus layout")
    for absent in sorted(expected - present):
        problem(absent, "missing")
    for path in (ROOT / "README.md", ROOT / "check.py"):
        if path.exists():
            read_text(path)


def main() -> int:
    check_layout()
    check_prose()
    check_code()
    check_chat()
    for path, chars in sorted(sizes.items()):
        print(f"{chars:6d}  {path.relative_to(ROOT)}")
    for line in problems:
        print(f"FAIL {line}", file=sys.stderr)
    print(f"{len(problems)} problem(s)", file=sys.stderr if problems else sys.stdout)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
