"""Seeded random texts aimed at the corners of the OpenAI pre-tokenizer patterns.

Shared by Tests/Fixtures/tiktoken/generate.py (fixed fixtures) and
scripts/tiktoken-oracle.py (live differential test), so both probe the same
ground. Only `random.Random(seed)` is used: the same seed gives the same texts
on every machine with the same Python minor version.
"""

from __future__ import annotations

import random
from pathlib import Path

MAX_CASE_CHARS = 200

CONTRACTIONS = ("s", "t", "re", "ve", "m", "ll", "d")
APOSTROPHES = ("'", "'", "'", "\u2019")  # tiktoken only knows ASCII ', the typographic one must not match

# Each alphabet is (letters, marks that attach to them, digits of its own).
ARABIC = ([chr(c) for c in range(0x0621, 0x064B)], [chr(c) for c in range(0x064B, 0x0653)], [chr(c) for c in range(0x0660, 0x066A)])
DEVANAGARI = (
    [chr(c) for c in range(0x0905, 0x093A)],
    [chr(c) for c in (*range(0x093E, 0x094E), 0x0901, 0x0902, 0x0903, 0x093C)],
    [chr(c) for c in range(0x0966, 0x0970)],
)
THAI = (
    [chr(c) for c in range(0x0E01, 0x0E2F)],
    [chr(c) for c in (0x0E31, *range(0x0E34, 0x0E3B), *range(0x0E47, 0x0E4F))],
    [chr(c) for c in range(0x0E50, 0x0E5A)],
)
CYRILLIC_UPPER = [chr(c) for c in range(0x0410, 0x0430)]
GREEK_UPPER = [chr(c) for c in (*range(0x0391, 0x03A2), *range(0x03A3, 0x03AA))]
LATIN_EXTRA_LOWER = list("àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿßşğıłőűœšžđ")
TITLECASE = ["\u01c5", "\u01c8", "\u01cb", "\u01f2", "\u1f88", "\u1fbc"]  # Lt: ǅ ǈ ǋ ǲ ᾈ ᾼ
MODIFIER_LETTERS = ["\u02b0", "\u02b2", "\u02c6", "\u02e0", "\u3005", "\uff70", "\u1d2c"]  # Lm
OTHER_LETTERS = ["\u00aa", "\u00ba", "\u01bb", "\u05d0", "\u3042", "\u4e00", "\u1100"]  # Lo
COMBINING = [chr(c) for c in (*range(0x0300, 0x0370), 0x20DD, 0x20E3, 0x1AB0, 0x1DC0, 0xFE20)]
SPACING_MARKS = ["\u0903", "\u093e", "\u0bbe", "\u0f3e", "\U0001d165"]  # Mc
ENCLOSING_MARKS = ["\u20dd", "\u20de", "\u0488"]  # Me

WHITESPACE = [
    " ", " ", " ", "\t", "\n", "\r\n", "\r", "\u000b", "\u000c", "\u0085", "\u00a0",
    "\u1680", *[chr(c) for c in range(0x2000, 0x200B)], "\u2028", "\u2029", "\u202f",
    "\u205f", "\u3000",
]
NOT_WHITESPACE_BUT_INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e"]

NON_ASCII_DIGITS = [
    *ARABIC[2], *DEVANAGARI[2], *THAI[2],
    *[chr(c) for c in range(0x06F0, 0x06FA)],  # extended Arabic-Indic
    *[chr(c) for c in range(0x09E6, 0x09F0)],  # Bengali
    *[chr(c) for c in range(0xFF10, 0xFF1A)],  # fullwidth
    *[chr(c) for c in range(0x1D7CE, 0x1D7D8)],  # mathematical bold
    *[chr(c) for c in range(0x1040, 0x104A)],  # Myanmar
]
OTHER_NUMBERS = ["\u00b2", "\u00b3", "\u00b9", "\u00bc", "\u00bd", "\u2160", "\u216b", "\u2460", "\u2469", "\u3007", "\u3021", "\U00010107"]

PUNCTUATION = list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~") + list(
    "\u00a1\u00bf\u00ab\u00bb\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2022\u00b7\u3001\u3002\u300c\u300d\u30fb"
    "\uff01\uff1f\u060c\u061f\u0964\u0965\u00a7\u00b6\u00a9\u00ae\u2122\u00b1\u00d7\u00f7\u2192\u2264\u221e\u20ac\u00a3\u00a5"
)

EMOJI = [
    "\U0001f600", "\U0001f602", "\U0001f44d", "\U0001f44b", "\u2764\ufe0f", "\U0001f525", "\U0001f680",
    "\U0001f389", "\u2705", "\U0001f914", "\U0001f9d1", "\U0001f468", "\U0001f469", "\U0001f467",
    "\u263a", "\u2b50", "\U0001fae0", "\U0001f3f3\ufe0f",
]
SKIN_TONES = [chr(c) for c in range(0x1F3FB, 0x1F400)]
ZWJ_SEQUENCES = [
    "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466",
    "\U0001f469\u200d\U0001f4bb",
    "\U0001f3f3\ufe0f\u200d\U0001f308",
    "\U0001f9d1\U0001f3fd\u200d\U0001f91d\u200d\U0001f9d1\U0001f3ff",
    "\U0001f441\ufe0f\u200d\U0001f5e8\ufe0f",
    "\u2764\ufe0f\u200d\U0001f525",
]
FLAGS = ["\U0001f1fa\U0001f1f8", "\U0001f1ef\U0001f1f5", "\U0001f1e9\U0001f1ea", "\U0001f1fa"]
KEYCAPS = ["1\ufe0f\u20e3", "#\ufe0f\u20e3", "*\u20e3"]

SPECIAL_TOKENS = ["<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endofprompt|>"]
SPECIAL_LOOKALIKES = [
    *SPECIAL_TOKENS,
    "<|endoftext", "endoftext|>", "<|endoftext|", "|endoftext|>", "<| endoftext |>", "<|ENDOFTEXT|>",
    "<|endoftext|>>", "<<|endoftext|>", "<|endo ftext|>", "<|im_start|>", "<|im_end|>", "<|startoftext|>",
    "<|reserved_200000|>", "<|", "|>", "<||>", "<|fim_prefix", "<|endofprompt",
]

COMMON_WORDS = ["the", "of", "and", "hello", "world", "don", "it", "we", "they", "token", "count", "naïve", "über", "straße"]


class FuzzText:
    """One seeded stream of short texts (1-200 code points) and mixed documents."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.pieces = [
            (6, self.latin_word),
            (3, self.contraction),
            (2, self.cased_word),
            (2, self.marked_word),
            (2, self.cjk),
            (1, self.kana),
            (1, self.hangul),
            (1, lambda: self.script_word(ARABIC)),
            (1, lambda: self.script_word(DEVANAGARI)),
            (1, lambda: self.script_word(THAI)),
            (2, self.emoji),
            (2, self.combining),
            (4, self.whitespace),
            (3, self.digits),
            (1, self.other_digits),
            (3, self.punctuation),
            (2, self.special_lookalike),
            (2, self.random_scalars),
            (1, lambda: self.rng.choice(NOT_WHITESPACE_BUT_INVISIBLE)),
        ]
        self.weights = [w for w, _ in self.pieces]

    def case(self) -> str:
        """A short text: random pieces, sometimes glued, sometimes spaced."""
        rng = self.rng
        target = rng.choice((rng.randint(1, 12), rng.randint(1, 60), rng.randint(1, MAX_CASE_CHARS)))
        text = ""
        while len(text) < target:
            _, make = rng.choices(self.pieces, self.weights)[0]
            glue = rng.choices(("", " ", None), (5, 4, 1))[0]
            text += (glue if glue is not None else self.whitespace()) + make()
        return text[:target]

    def document(self, udhr_paragraphs: list[str]) -> str:
        """1-20 KB of UTF-8 mixing fuzz cases with real UDHR paragraphs."""
        rng = self.rng
        target = rng.randint(1024, 20 * 1024)
        parts: list[str] = []
        size = 0
        while size < target:
            part = rng.choice(udhr_paragraphs) if udhr_paragraphs and rng.random() < 0.5 else self.case()
            part += rng.choice(("\n\n", "\n", " ", "", "\r\n", "\n\n\n", "\t"))
            parts.append(part)
            size += len(part.encode("utf-8"))
        return "".join(parts)

    # Pieces. Each returns a short string; case() glues them.

    def latin_word(self) -> str:
        rng = self.rng
        if rng.random() < 0.3:
            word = rng.choice(COMMON_WORDS)
        else:
            alphabet = "abcdefghijklmnopqrstuvwxyz"
            word = "".join(rng.choice(alphabet) if rng.random() < 0.9 else rng.choice(LATIN_EXTRA_LOWER) for _ in range(rng.randint(1, 12)))
        word = self.recase(word)
        if rng.random() < 0.3:
            word += self.contraction()
        return word

    def contraction(self) -> str:
        rng = self.rng
        suffix = rng.choice(CONTRACTIONS + ("S", "T", "LL", "Re", "rE", "VE", "Ve", "M", "D", "lL", "x", ""))
        if rng.random() < 0.3:
            suffix = "".join(c.upper() if rng.random() < 0.5 else c for c in suffix)
        return rng.choice(APOSTROPHES) + suffix

    def recase(self, word: str) -> str:
        mode = self.rng.randrange(5)
        if mode == 0:
            return word.upper()
        if mode == 1:
            return word.title()
        if mode == 2:
            return "".join(c.upper() if self.rng.random() < 0.4 else c for c in word)
        return word

    def cased_word(self) -> str:
        """Words that walk o200k's two letter-class alternatives (Lu Lt Lm Lo M vs Ll Lm Lo M)."""
        rng = self.rng
        pools = [
            list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), list("abcdefghijklmnopqrstuvwxyz"),
            CYRILLIC_UPPER, [c.lower() for c in CYRILLIC_UPPER], GREEK_UPPER, [c.lower() for c in GREEK_UPPER],
            TITLECASE, MODIFIER_LETTERS, OTHER_LETTERS, COMBINING, LATIN_EXTRA_LOWER,
        ]
        return "".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(1, 10))) + (self.contraction() if rng.random() < 0.3 else "")

    def marked_word(self) -> str:
        rng = self.rng
        letters = list("aeiouncsyzAEIOUNC") + LATIN_EXTRA_LOWER + CYRILLIC_UPPER[:5]
        out = ""
        for _ in range(rng.randint(1, 8)):
            out += rng.choice(letters)
            while rng.random() < 0.4:
                out += rng.choice(COMBINING + SPACING_MARKS + ENCLOSING_MARKS)
        return out

    def cjk(self) -> str:
        rng = self.rng
        out = "".join(chr(rng.randint(0x4E00, 0x9FFF)) if rng.random() < 0.9 else chr(rng.randint(0x20000, 0x2A6DF)) for _ in range(rng.randint(1, 10)))
        if rng.random() < 0.3:
            out += rng.choice("\u3002\u3001\uff0c\uff01\uff1f\u300c\u300d")
        return out

    def kana(self) -> str:
        rng = self.rng
        return "".join(chr(rng.randint(0x3041, 0x3096) if rng.random() < 0.5 else rng.randint(0x30A1, 0x30FC)) for _ in range(rng.randint(1, 10)))

    def hangul(self) -> str:
        rng = self.rng
        if rng.random() < 0.15:  # conjoining jamo, not precomposed syllables
            return "".join(chr(rng.randint(0x1100, 0x11FF)) for _ in range(rng.randint(1, 6)))
        return "".join(chr(rng.randint(0xAC00, 0xD7A3)) for _ in range(rng.randint(1, 8)))

    def script_word(self, script: tuple[list[str], list[str], list[str]]) -> str:
        rng = self.rng
        letters, marks, digits = script
        out = ""
        for _ in range(rng.randint(1, 10)):
            out += rng.choice(letters)
            if rng.random() < 0.4:
                out += rng.choice(marks)
        if rng.random() < 0.15:
            out += "".join(rng.choice(digits) for _ in range(rng.randint(1, 5)))
        return out

    def emoji(self) -> str:
        rng = self.rng
        out = ""
        for _ in range(rng.randint(1, 4)):
            kind = rng.randrange(5)
            if kind == 0:
                out += rng.choice(EMOJI)
            elif kind == 1:
                out += rng.choice(["\U0001f44d", "\U0001f44b", "\U0001f9d1", "\U0001f468", "\u270c"]) + rng.choice(SKIN_TONES)
            elif kind == 2:
                out += rng.choice(ZWJ_SEQUENCES)
            elif kind == 3:
                out += rng.choice(FLAGS)
            else:
                out += rng.choice(KEYCAPS + SKIN_TONES + ["\u200d", "\ufe0f"])
        return out

    def combining(self) -> str:
        """Marks alone, after spaces, at the start of a text, or stacked."""
        rng = self.rng
        marks = "".join(rng.choice(COMBINING + SPACING_MARKS + ENCLOSING_MARKS) for _ in range(rng.randint(1, 4)))
        return rng.choice(("", " ", "  ", "\n", "a", "'", "1")) + marks

    def whitespace(self) -> str:
        rng = self.rng
        return "".join(rng.choice(WHITESPACE) for _ in range(rng.randint(1, 12)))

    def digits(self) -> str:
        rng = self.rng
        return "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 12)))

    def other_digits(self) -> str:
        rng = self.rng
        return "".join(rng.choice(NON_ASCII_DIGITS + OTHER_NUMBERS + list("0123456789")) for _ in range(rng.randint(1, 8)))

    def punctuation(self) -> str:
        rng = self.rng
        out = "".join(rng.choice(PUNCTUATION) for _ in range(rng.randint(1, 10)))
        if rng.random() < 0.3:  # o200k lets [\r\n/]* follow a punctuation run
            out += "".join(rng.choice(("\r", "\n", "/", "\r\n")) for _ in range(rng.randint(1, 4)))
        return out

    def special_lookalike(self) -> str:
        return self.rng.choice(SPECIAL_LOOKALIKES)

    def random_scalars(self) -> str:
        """Any Unicode scalar value from any plane, assigned or not (never a surrogate)."""
        rng = self.rng
        out = ""
        for _ in range(rng.randint(1, 4)):
            plane = rng.randrange(17)
            while True:
                code = (plane << 16) | rng.randrange(0x10000)
                if not 0xD800 <= code <= 0xDFFF:
                    break
            out += chr(code)
        return out


def udhr_paragraphs(udhr_dir: Path) -> list[str]:
    """Non-empty lines of every UDHR file, exactly as on disk (sorted by file)."""
    paragraphs: list[str] = []
    for path in sorted(udhr_dir.glob("*.txt")):
        paragraphs.extend(line for line in path.read_bytes().decode("utf-8").split("\n") if line.strip())
    return paragraphs
