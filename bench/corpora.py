"""The benchmark corpora, made deterministically from text found on the machine.

Nothing here is downloaded: English prose is a word-level Markov chain over
the project's English corpus, the UDHR, the licence texts Debian ships and
Python's own documentation (pydoc_data); CJK text is a character-level chain
over the project's Chinese, Japanese and Korean corpora and the UDHR in those
languages; code is Python's standard library followed by C headers. The
chains make text with the statistics of real prose without repeating it, so no
tokenizer can win by caching pieces. Adversarial inputs are one letter
repeated, spaces, and seeded random base64. Files are cached in
`<cache>/corpora-v<VERSION>` and made again only when missing.
"""

from __future__ import annotations

import base64
import gzip
import json
import random
import os
import re
import subprocess
import sysconfig
from collections import defaultdict
from pathlib import Path

VERSION = 1
MB = 1_000_000
REPO = Path(__file__).resolve().parent.parent
UDHR = REPO / "Tests" / "Fixtures" / "udhr"
# The reference data scripts/reference-data fetches (gguf/, hf/).
REFERENCE = Path(os.environ.get("CONTEXTKIT_REFERENCE_DATA")
                 or Path(os.environ.get("CONTEXTKIT_CACHE") or Path.home() / ".cache/contextkit") / "reference-data")

SIZES = {"en": 10 * MB, "cjk": 2 * MB, "code": 5 * MB}
ADVERSARIAL_SIZES = (1 << 20, 2 << 20, 4 << 20, 8 << 20)
ADVERSARIAL_KINDS = ("letter", "spaces", "base64")
BIG_SIZE = 100 * MB
MID_SIZE = 40 * MB  # English four times, for `tokcount -j 1` against the in-process count
DISTINCT_PIECES = 10_000_000
SMALL_FILES = 10_000  # the English corpus cut into this many files, for the folder run


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _english_sources() -> list[str]:
    texts = [_read(REPO / "corpora" / "prose" / "en.txt"), _read(UDHR / "eng.txt")]
    licenses = Path("/usr/share/common-licenses")
    for name in ("GPL-3", "LGPL-2.1", "Apache-2.0", "GFDL-1.3", "MPL-2.0", "Artistic", "CC0-1.0"):
        texts.append(_read(licenses / name))
    try:
        from pydoc_data.topics import topics

        texts.extend(topics[k] for k in sorted(topics))
    except ImportError:
        pass
    return [t for t in texts if t]


def _paragraphs(text: str) -> list[str]:
    return [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


def english(size: int, seed: int = 1) -> str:
    """Paragraphs from an order-2 word chain, one paragraph a line, blank line between."""
    chain: dict[tuple[str, str], list[str]] = defaultdict(list)
    starts: list[tuple[str, str]] = []
    for text in _english_sources():
        for paragraph in _paragraphs(text):
            words = paragraph.split(" ")
            if len(words) < 3:
                continue
            starts.append((words[0], words[1]))
            for a, b, c in zip(words, words[1:], words[2:] + ["\n"]):
                chain[(a, b)].append(c)
    rng = random.Random(seed)
    out: list[str] = []
    total = 0
    while total < size:
        a, b = rng.choice(starts)
        words = [a, b]
        while len(words) < 400:
            nxt = rng.choice(chain.get((a, b), ["\n"]))
            if nxt == "\n":
                break
            words.append(nxt)
            a, b = b, nxt
        paragraph = " ".join(words) + "\n\n"
        out.append(paragraph)
        total += len(paragraph.encode())
    return "".join(out)


CJK_LANGUAGES = {  # language: (project corpus, UDHR file, share of paragraphs)
    "zh-Hans": ("zh-Hans.txt", "cmn_hans.txt", 4),
    "zh-Hant": ("zh-Hant.txt", "cmn_hant.txt", 2),
    "ja": ("ja.txt", "jpn.txt", 3),
    "ko": ("ko.txt", "kor.txt", 1),
}


def cjk(size: int, seed: int = 2) -> str:
    """Paragraphs from an order-3 character chain per language, languages mixed by share."""
    order = 3
    models = {}
    for language, (corpus, udhr, _) in CJK_LANGUAGES.items():
        paragraphs = _paragraphs(_read(REPO / "corpora" / "prose" / corpus)) + _paragraphs(_read(UDHR / udhr))
        chain: dict[str, list[str]] = defaultdict(list)
        starts, lengths = [], []
        for p in paragraphs:
            if len(p) <= order:
                continue
            starts.append(p[:order])
            lengths.append(len(p))
            for i in range(len(p) - order):
                chain[p[i : i + order]].append(p[i + order])
        models[language] = (chain, starts, lengths)
    rng = random.Random(seed)
    weighted = [language for language, (_, _, share) in CJK_LANGUAGES.items() for _ in range(share)]
    out: list[str] = []
    total = 0
    while total < size:
        chain, starts, lengths = models[rng.choice(weighted)]
        text = rng.choice(starts)
        target = rng.choice(lengths)
        while len(text) < target:
            options = chain.get(text[-order:])
            if not options:
                break
            text += rng.choice(options)
        paragraph = text + "\n\n"
        out.append(paragraph)
        total += len(paragraph.encode())
    return "".join(out)


def code(size: int) -> str:
    """Python's standard library (about 70%), then C headers, whole files in name order."""
    files = sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))
    headers = sorted(Path("/usr/include").glob("*.h"))
    out: list[str] = []
    total = 0
    for group, share in ((files, 0.7), (headers, 1.0), (sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")), 1.0)):
        for path in group:
            if total >= size * share:
                break
            text = _read(path)
            if text:
                out.append(text)
                total += len(text.encode())
    return "".join(out)


def adversarial(kind: str, size: int) -> str:
    if kind == "letter":
        return "a" * size
    if kind == "spaces":
        return " " * size
    rng = random.Random(3)
    return base64.b64encode(rng.randbytes(size * 3 // 4 + 3)).decode()[:size]


def _trim(text: str, size: int) -> bytes:
    """The text's first `size` bytes, cut back to a character boundary."""
    data = text.encode()[:size]
    return data.decode("utf-8", errors="ignore").encode()


def make(cache: Path) -> dict[str, Path]:
    """Every corpus file, made if missing: en, cjk, code, adv-<kind>-<size>, en-1k, en-2m, big,
    mid, distinct, distinct-half; and small-files, a folder."""
    folder = cache / f"corpora-v{VERSION}"
    folder.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}

    def ensure(name: str, build) -> Path:
        path = folder / f"{name}.txt"
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(build())
            tmp.rename(path)
        paths[name] = path
        return path

    ensure("en", lambda: _trim(english(SIZES["en"] + 4096), SIZES["en"]))
    ensure("cjk", lambda: _trim(cjk(SIZES["cjk"] + 4096), SIZES["cjk"]))
    ensure("code", lambda: _trim(code(SIZES["code"] + 4096), SIZES["code"]))
    for kind in ADVERSARIAL_KINDS:
        for size in ADVERSARIAL_SIZES:
            ensure(f"adv-{kind}-{size >> 20}m", lambda kind=kind, size=size: _trim(adversarial(kind, size), size))
    ensure("en-1k", lambda: _trim(paths["en"].read_text(encoding="utf-8")[:2000], 1000))
    ensure("en-2m", lambda: _trim(paths["en"].read_text(encoding="utf-8")[: 2 * MB], 2 * MB))
    ensure("big", lambda: (paths["en"].read_bytes() * (BIG_SIZE // SIZES["en"]))[:BIG_SIZE])
    ensure("mid", lambda: paths["big"].read_bytes()[:MID_SIZE])
    ensure("distinct", lambda: distinct_pieces(DISTINCT_PIECES))
    ensure("distinct-half", lambda: distinct_pieces(DISTINCT_PIECES // 2))
    paths["small-files"] = small_files(paths["en"], folder / f"en-in-{SMALL_FILES}-files")
    return paths


def distinct_pieces(n: int) -> bytes:
    """`n` different words of seven lowercase letters, each after a space: as
    many distinct pre-tokenizer pieces as words, so a piece cache only fills.
    Word i is i times an odd multiplier modulo 26^7 written in base 26, so no
    two repeat; the first n/2 words are those of the file of n/2."""
    space = 26**7
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = bytearray()
    for i in range(n):
        v = (i * 1_000_003 + 12345) % space
        word = []
        for _ in range(7):
            v, d = divmod(v, 26)
            word.append(letters[d])
        out += (" " + "".join(word)).encode()
    return bytes(out)


def small_files(source: Path, folder: Path) -> Path:
    """The source cut after a space into SMALL_FILES files of about equal size (same total bytes)."""
    if folder.exists():
        return folder
    data = source.read_bytes()
    tmp = folder.with_name(folder.name + ".tmp")
    tmp.mkdir(parents=True, exist_ok=True)
    start = 0
    for i in range(SMALL_FILES):
        at = (i + 1) * len(data) // SMALL_FILES
        end = len(data) if i == SMALL_FILES - 1 else max(start, data.find(b" ", at) + 1 or len(data))
        (tmp / f"{i:05d}.txt").write_bytes(data[start:end])
        start = end
    tmp.rename(folder)
    return folder


# Real text, as Debian ships it (bench/run installs manpages-zh and
# manpages-ja; bookworm has no Korean manual pages). Whole files, in sorted
# order, until the size is reached; the files used are recorded beside the
# corpus so the report can say where its bytes came from.
REAL_VERSION = 1
REAL_SIZES = {"real-en": 10 * MB, "real-cjk": 3 * MB, "real-code": 5 * MB}
MAN_SECTIONS = ("man1", "man5", "man7", "man8")
CJK_MAN_SHARES = (("zh_CN", 0.4), ("zh_TW", 0.2), ("ja", 0.4))  # of real-cjk's size


def render_man(path: Path) -> str:
    """A manual page as plain UTF-8 text: groff -Tutf8 without overstriking or
    colour, no hyphenation; the spaces groff puts in to justify a line are
    folded back to one, indentation kept."""
    try:
        source = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    except OSError:
        return ""
    if source.startswith(b".so "):  # a link to another page: counted there
        return ""
    result = subprocess.run(["groff", "-k", "-Tutf8", "-mandoc", "-P-cbou", "-rHY=0", "-rLL=100n"],
                            input=source, capture_output=True, timeout=60)
    text = result.stdout.decode("utf-8", errors="ignore")
    lines = (re.sub(r"(?<=\S) {2,}(?=\S)", " ", line.rstrip()) for line in text.splitlines())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n\n"


def _plain_docs() -> list[Path]:
    """Debian's licence texts, then the uncompressed README and .txt files of /usr/share/doc."""
    licenses = sorted(p for p in Path("/usr/share/common-licenses").iterdir() if p.is_file())
    docs = sorted(p for p in Path("/usr/share/doc").rglob("*")
                  if p.is_file() and not p.is_symlink() and (p.name.startswith("README") or p.suffix == ".txt") and p.suffix != ".gz")
    return licenses + docs


def _take(sources, size: int, render) -> tuple[str, list[dict]]:
    """Whole texts from `sources` in order until `size` UTF-8 bytes are reached."""
    out, used, total = [], [], 0
    for path in sources:
        if total >= size:
            break
        text = render(path)
        if not text.strip():
            continue
        n = len(text.encode())
        out.append(text)
        used.append({"path": str(path), "bytes": n})
        total += n
    return "".join(out), used


def _plain(path: Path) -> str:
    text = _read(path)
    return text if text.endswith("\n") else text + "\n"


def real_english(size: int) -> tuple[str, list[dict]]:
    """Licences and READMEs from /usr/share, then English manual pages rendered, sections 1, 5, 7, 8."""
    text, used = _take(_plain_docs(), size // 4, _plain)
    pages = [p for section in MAN_SECTIONS for p in sorted(Path("/usr/share/man", section).glob("*"))]
    more, more_used = _take(pages, size - len(text.encode()), render_man)
    return text + more, used + more_used


def real_cjk(size: int) -> tuple[str, list[dict]]:
    """Debian's Chinese (simplified, traditional) and Japanese manual pages, rendered."""
    out, used = [], []
    for language, share in CJK_MAN_SHARES:
        pages = sorted(Path("/usr/share/man", language).rglob("*.gz"))
        text, u = _take(pages, int(size * share), render_man)
        out.append(text)
        used.extend(u)
    return "".join(out), used


def real_code(size: int) -> tuple[str, list[dict]]:
    """The base interpreter's Python standard library (60%), then C and C++ headers of /usr/include."""
    stdlib = sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py"))
    text, used = _take(stdlib, int(size * 0.6), _plain)
    headers = sorted(p for p in Path("/usr/include").rglob("*") if p.suffix in (".h", ".hpp") and p.is_file())
    more, more_used = _take(headers, size - len(text.encode()), _plain)
    return text + more, used + more_used


REAL_MAKERS = {"real-en": real_english, "real-cjk": real_cjk, "real-code": real_code}
REAL_NAMES = {"real-en": "Debian English docs", "real-cjk": "Debian zh/ja man pages", "real-code": "Python stdlib and /usr/include code"}


def make_real(cache: Path) -> tuple[dict[str, Path], dict[str, dict]]:
    """The real corpora (made if missing) and, per corpus, its sources: files, bytes and folders."""
    folder = cache / f"real-v{REAL_VERSION}"
    folder.mkdir(parents=True, exist_ok=True)
    paths, sources = {}, {}
    for name, maker in REAL_MAKERS.items():
        path, manifest = folder / f"{name}.txt", folder / f"{name}.json"
        if not (path.exists() and manifest.exists()):
            print(f"making {name} from Debian's files ...", flush=True)
            text, used = maker(REAL_SIZES[name] + 4096)
            if len(text.encode()) < REAL_SIZES[name]:
                raise SystemExit(f"bench/corpora: {name} found only {len(text.encode()):,} of {REAL_SIZES[name]:,} bytes in "
                                 f"{len(used)} files: are groff, manpages-zh and manpages-ja installed (apt-get install groff-base manpages-zh manpages-ja)?")
            data = _trim(text, REAL_SIZES[name])
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            tmp.rename(path)
            roots = [sysconfig.get_paths()["stdlib"], "/usr/share/common-licenses", "/usr/share/doc", "/usr/include",
                     *(f"/usr/share/man/{s}" for s in MAN_SECTIONS), *(f"/usr/share/man/{lang}" for lang, _ in CJK_MAN_SHARES)]
            folders: dict[str, int] = {}
            for u in used:
                top = next((r for r in roots if u["path"].startswith(r + "/")), str(Path(u["path"]).parent))
                folders[top] = folders.get(top, 0) + u["bytes"]
            manifest.write_text(json.dumps({"bytes": len(data), "files": len(used), "first": used[0]["path"] if used else "",
                                            "last": used[-1]["path"] if used else "", "folders": folders}, indent=1))
        paths[name] = path
        sources[name] = json.loads(manifest.read_text())
    return paths, sources
