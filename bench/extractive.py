#!/usr/bin/env python3
"""The extractive summariser against its offline peers, on the same documents,
written to reports/extractive.md.

Peers (bench/requirements-bench.txt, in the bench venv): summa's TextRank and
sumy's LexRank and TextRank. sumy's default sentence splitter downloads NLTK
data, so it is given this script's own (`split_sentences`); summa splits by
itself. Each peer runs twice: on the raw Markdown file (what a user would pass
it) and on this script's own preparation of the document's prose (code,
tables, HTML, front matter and link references removed, paragraphs reflowed,
one sentence per line), so the comparison separates the ranking from the
reading of Markdown. ContextKit runs as a user runs it: `ctxkit summarise
--json FILE`, whose points are the summary.

Coverage (see reports/extractive.md for the reasoning): ROUGE-1 and ROUGE-L
recall of a summary's points against the document's own section leads, the
first sentence of each section's first prose paragraph (each paragraph's, in a
document without headings). Every system gives three sentences.

Clean sentences (`--debian`): on documents Debian ships on this machine
(DEBIAN_DOCUMENTS: Node.js's README and API docs, the licences in
/usr/share/common-licenses, package READMEs; those missing are listed and
skipped), says for each document whether ContextKit's headline and each
system's points read as clean: a point is a clean sentence
(`clean_sentence`), the headline a clean headline (`clean_headline`). The
peers give sentences and no headline. Printed as a Markdown table, and
written to --out when given.

Usage: py="$(bench/python-env-bench | tail -n1)"; swift build --product ctxkit
       "$py" bench/extractive.py [--bin .build/debug] [--rounds 5]
       "$py" bench/extractive.py --debian [--bin .build/debug] [--out FILE]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POINTS = 3
DOCUMENTS = [
    "Tests/Fixtures/summaries/linereader-api.md",
    "Tests/Fixtures/summaries/streaming-summary-blog.md",
    "Tests/Fixtures/summaries/backup-notes.md",
    "README.md",
    "RELIABILITY.md",
    "Sources/Summariser/README.md",
    "scripts/README-llama-server.md",
    "corpora/code/sample.md",
]

DEBIAN_DOCUMENTS = [
    "/usr/share/doc/nodejs/README.md",
    "/usr/share/doc/nodejs/CONTRIBUTING.md",
    "/usr/share/doc/nodejs/GOVERNANCE.md",
    "/usr/share/doc/nodejs/SECURITY.md",
    "/usr/share/doc/nodejs/api/path.md",
    "/usr/share/doc/nodejs/api/string_decoder.md",
    "/usr/share/doc/nodejs/api/querystring.md",
    "/usr/share/doc/nodejs/api/corepack.md",
    "/usr/share/doc/nodejs/api/punycode.md",
    "/usr/share/doc/nodejs/api/documentation.md",
    "/usr/share/doc/nodejs/api/debugger.md",
    "/usr/share/doc/nodejs/api/tty.md",
    "/usr/share/doc/nodejs/api/timers.md",
    "/usr/share/doc/nodejs/api/events.md",
    "/usr/share/common-licenses/GPL-3",
    "/usr/share/common-licenses/GPL-2",
    "/usr/share/common-licenses/LGPL-2.1",
    "/usr/share/common-licenses/Apache-2.0",
    "/usr/share/common-licenses/MPL-2.0",
    "/usr/share/common-licenses/Artistic",
    "/usr/share/common-licenses/BSD",
    "/usr/share/common-licenses/CC0-1.0",
    "/usr/share/common-licenses/GFDL-1.3",
    "/usr/share/doc/base-files/README",
    "/usr/share/doc/bc/README",
    "/usr/share/doc/e2fsprogs/README",
    "/usr/share/doc/gettext/README",
    "/usr/share/doc/fonts-dejavu-core/README.md",
    "/usr/share/doc/debian-archive-keyring/README",
    "/usr/share/doc/cscope/README",
]

# ---------------------------------------------------------------- prose


def prose_paragraphs(markdown):
    """(section, kind, text) for each prose paragraph: kind is 'p' or 'li'.
    Written independently of the Swift segmenter, deliberately simple."""
    lines = markdown.split("\n")
    i = 0
    if lines and lines[0].strip() in ("---", "+++"):
        for j in range(1, len(lines)):
            if lines[j].strip() in ("---", "...", "+++"):
                i = j + 1
                break
    out, section, current, kind = [], 0, [], "p"
    fence = None
    html = False

    def flush():
        nonlocal current
        if current:
            text = " ".join(" ".join(current).split())
            if text:
                out.append((section, kind, text))
        current = []

    while i < len(lines):
        raw = lines[i]
        i += 1
        line = raw.strip()
        while line.startswith(">"):
            line = line[1:].strip()
        if fence:
            if line.startswith(fence):
                fence = None
            continue
        if html:
            if "-->" in line or not line:
                html = False
            continue
        if line.startswith("```") or line.startswith("~~~"):
            flush()
            fence = line[:3]
            continue
        if not line:
            flush()
            continue
        if line.startswith("<!--"):
            flush()
            html = "-->" not in line
            continue
        if line.startswith("<") or line.startswith("|") or re.match(r"^\[[^\]]+\]:", line) \
                or re.match(r"^[-*_ ]{3,}$", line) or re.match(r"^=+$", line):
            flush()
            continue
        if raw.startswith("    ") and not current:
            continue  # indented code
        if i < len(lines) and "|" in line and re.match(r"^\s*\|?\s*:?-+", lines[i]):
            flush()
            while i < len(lines) and "|" in lines[i]:
                i += 1
            continue
        if line.startswith("#"):
            flush()
            section += 1
            continue
        if i < len(lines) and re.match(r"^(=+|-{2,})\s*$", lines[i]) and not current:
            section += 1
            i += 1
            continue
        item = re.match(r"^([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?", line)
        if item:
            flush()
            kind = "li"
            current = [line[item.end():]]
            continue
        if not current:
            kind = "p"
        current.append(line)
    flush()
    return out


ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "cf.", "etc.", "Mr.", "Dr.")


def split_sentences(paragraph):
    """Sentences of a reflowed paragraph: a break after . ! ? before an
    upper-case letter, a digit, a quote, a bracket or a code span."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(\[*_])", paragraph)
    sentences = []
    for part in parts:
        if sentences and sentences[-1].endswith(ABBREVIATIONS):
            sentences[-1] += " " + part
        else:
            sentences.append(part)
    return [s.strip() for s in sentences if s.strip()]


def section_leads(paragraphs):
    """The first sentence of each section's first prose paragraph; each
    paragraph's first sentence when the document has no headings."""
    has_sections = any(section > 0 for section, _, _ in paragraphs)
    leads, seen = [], set()
    for section, kind, text in paragraphs:
        if kind != "p":
            continue
        key = section if has_sections else len(leads)
        if key in seen:
            continue
        sentence = split_sentences(text)[0]
        if len(words(sentence)) >= 4:
            seen.add(key)
            leads.append(sentence)
    return leads


# ---------------------------------------------------------------- ROUGE

STOP = None


def words(text):
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP]


def rouge1(candidates, references):
    cand = Counter(w for c in candidates for w in words(c))
    ref = Counter(w for r in references for w in words(r))
    overlap = sum(min(n, cand[w]) for w, n in ref.items())
    recall = overlap / max(1, sum(ref.values()))
    precision = overlap / max(1, sum(cand.values()))
    f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0
    return recall, f1


def lcs_positions(a, b):
    """Indices of a in one longest common subsequence of a and b."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n):
        for j in range(m):
            table[i + 1][j + 1] = table[i][j] + 1 if a[i] == b[j] else max(table[i][j + 1], table[i + 1][j])
    hits, i, j = set(), n, m
    while i and j:
        if a[i - 1] == b[j - 1]:
            hits.add(i - 1)
            i, j = i - 1, j - 1
        elif table[i - 1][j] >= table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return hits


def rouge_l(candidates, references):
    """Summary-level ROUGE-L recall (Lin 2004): each reference sentence's
    union LCS with the candidate sentences, over the reference's words."""
    cands = [words(c) for c in candidates]
    total = hit = 0
    for r in references:
        rw = words(r)
        total += len(rw)
        union = set()
        for c in cands:
            union |= lcs_positions(rw, c)
        hit += len(union)
    return hit / max(1, total)


def is_clean(point, prose):
    """A whole sentence of the document's prose: found in it, ending like a
    sentence, with no table, HTML or fence markup."""
    p = " ".join(point.split())
    return p in prose and p[-1:] in ".!?" and not any(m in p for m in ("|", "<", "```", "\n"))


# Markdown a reader should not see: links and images, reference links,
# code-span backticks, emphasis marks touching a word, HTML tags and
# autolinks, heading, list and quote marks at the start, table pipes.
MARKUP = re.compile(
    r"\]\(|\]\[|`|\*\*|__|~~|(?:^|\s)[*_][^\s*_]|[^\s*_][*_](?:\s|$|[.,;:!?)])|</?[A-Za-z][^<>]*>|<[^<>\s]+@[^<>\s]+>"
    r"|^#|^(?:[-*+>]|\d+[.)])\s|\|")
CLOSERS = "\"')]\u201d\u2019"
CONNECTIVES = {
    "by contrast", "in contrast", "however", "for example", "for instance", "in addition", "also", "moreover",
    "therefore", "thus", "finally", "first", "second", "in short", "of course", "on the other hand", "as a result",
    "similarly", "furthermore", "instead", "otherwise", "meanwhile", "then", "still", "likewise", "consequently",
    "nevertheless", "indeed", "in particular", "in practice", "that said", "to that end", "as such",
}
DANGLING = {"a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "for", "with", "by", "from", "as", "at",
            "is", "are", "that", "which", "this", "its", "your", "if", "when", "than"}


def clean_sentence(text):
    """(ok, reason): a sentence a person can read as a point: starts with a
    capital or a digit, ends with terminal punctuation, no Markdown markup,
    and no dangling fragment (a name's initial or a list's enumerator at
    its end, an enumerator at its start, brackets or quotes left open, a
    `term - description` list entry, a `{type}` signature, under four
    words)."""
    t = " ".join(text.split())
    if len(t.split()) < 4:
        return False, "fragment: under four words"
    if not (t[0].isupper() or t[0].isdigit()):
        return False, "starts with " + repr(t[0])
    if t.rstrip(CLOSERS)[-1:] not in (".", "!", "?"):
        return False, "no terminal punctuation"
    if MARKUP.search(t):
        return False, "markup " + repr(MARKUP.search(t).group(0))
    if re.search(r"(?:^|\s)(?:[A-Z]\.)+$|\s[a-z]\.$", t):
        return False, "fragment: ends on an initial or an enumerator"
    if re.match(r"(?:[A-Za-z]\.|\([A-Za-z]\))\s", t):
        return False, "fragment: starts with a list's enumerator"
    if t.count("(") != t.count(")") or t.count("[") != t.count("]") or t.count('"') % 2:
        return False, "fragment: brackets or quotes left open"
    if re.search(r"\s[-\u2013]\s", " ".join(t.split()[:6])):
        return False, "fragment: a list's term - description"
    if re.search(r"\{[^}]*\}", t):
        return False, "parameter signature"
    return True, ""


def clean_headline(text):
    """(ok, reason): a headline a person can read: a short noun phrase or a
    sentence (then a clean one), starting with a capital or a digit, no
    markup, at most 80 characters, not a bare connective (`By contrast`) and
    not ending on a word that leaves it hanging (`of`, `the`, a comma)."""
    t = " ".join(text.split())
    if not t:
        return False, "empty"
    if len(t) > 80:
        return False, "over 80 characters"
    if not (t[0].isupper() or t[0].isdigit()):
        return False, "starts with " + repr(t[0])
    if MARKUP.search(t):
        return False, "markup " + repr(MARKUP.search(t).group(0))
    bare = t.rstrip("\u2026.").rstrip()
    if bare.lower().strip(",;:") in CONNECTIVES:
        return False, "a sentence opener"
    if bare[-1:] in ",;:-(" or bare.split()[-1].lower() in DANGLING:
        return False, "dangling end " + repr(bare.split()[-1])
    if t.rstrip(CLOSERS)[-1:] in (".", "!", "?") and not t.endswith("\u2026") and len(t.split()) >= 4:
        return clean_sentence(t)
    return True, ""


# ---------------------------------------------------------------- systems


class BenchTokenizer:
    """sumy's tokenizer interface with this script's splitter (sumy's own
    needs NLTK data downloaded)."""
    language = "english"

    def to_sentences(self, paragraph):
        return split_sentences(" ".join(paragraph.split()))

    def to_words(self, sentence):
        return re.findall(r"\w+", sentence)


def prepared_text(paragraphs):
    return "\n".join(s for _, _, text in paragraphs for s in split_sentences(text))


def run_summa(text):
    from summa import summarizer
    scored = summarizer.summarize(text, ratio=1.0, scores=True)
    top = sorted(range(len(scored)), key=lambda k: -scored[k][1])[:POINTS]
    return [scored[k][0] for k in sorted(top)]


def run_sumy(kind, text):
    from sumy.nlp.stemmers import Stemmer
    from sumy.parsers.plaintext import PlaintextParser
    from sumy.summarizers.lex_rank import LexRankSummarizer
    from sumy.summarizers.text_rank import TextRankSummarizer
    from sumy.utils import get_stop_words
    parser = PlaintextParser.from_string(text, BenchTokenizer())
    summariser = (LexRankSummarizer if kind == "lexrank" else TextRankSummarizer)(Stemmer("english"))
    summariser.stop_words = get_stop_words("english")
    return [str(s) for s in summariser(parser.document, POINTS)]


def peer(name, raw, paragraphs):
    """The peer's points, from the raw file or from the prepared prose."""
    system, _, source = name.partition(" ")
    if source == "(prepared)":
        text = prepared_text(paragraphs) if system == "summa" else "\n\n".join(t for _, _, t in paragraphs)
    else:
        text = raw
    return run_summa(text) if system == "summa" else run_sumy(system, text)


PEERS = ["summa (raw)", "summa (prepared)", "lexrank (raw)", "lexrank (prepared)", "textrank (raw)", "textrank (prepared)"]
PEER_LABELS = {"summa": "summa 1.2.0 TextRank", "lexrank": "sumy 0.13.0 LexRank", "textrank": "sumy 0.13.0 TextRank"}

# The same peer in a fresh process: what `python -c` costs a user per document.
PROCESS_SNIPPET = """
import sys, importlib.util
spec = importlib.util.spec_from_file_location("bench", sys.argv[1]); bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench); bench.STOP = set()
raw = open(sys.argv[3], encoding="utf-8").read()
bench.peer(sys.argv[2], raw, bench.prose_paragraphs(raw))
"""


def ctxkit(binary, path):
    started = time.perf_counter()
    result = subprocess.run([binary, "summarise", "--json", str(path)], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    report = json.loads(result.stdout)
    return report["summary"], report["totals"]["totalSeconds"], wall


# ---------------------------------------------------------------- report


def debian(args, binary):
    """The clean-sentence table over DEBIAN_DOCUMENTS (see the module's doc)."""
    present = [Path(p) for p in DEBIAN_DOCUMENTS if Path(p).is_file()]
    missing = [p for p in DEBIAN_DOCUMENTS if not Path(p).is_file()]
    systems = ["ctxkit"] + PEERS
    short = {"ctxkit": "ContextKit"} | {s: s for s in PEERS}
    lines = [
        "| document | bytes | ContextKit headline | " + " | ".join(f"{short[s]} points" for s in systems) + " |",
        "|---|---:|---|" + "---:|" * len(systems),
    ]
    totals = Counter()
    details = []
    for path in present:
        raw = path.read_text(encoding="utf-8", errors="replace")
        paragraphs = prose_paragraphs(raw)
        cells = []
        summary = ctxkit(binary, path)[0]
        ok, why = clean_headline(summary["headline"])
        totals["headline"] += ok
        details.append(f"{path}: headline {summary['headline']!r}" + ("" if ok else f" NOT CLEAN ({why})"))
        for s in systems:
            points = summary["points"] if s == "ctxkit" else peer(s, raw, paragraphs)
            verdicts = [clean_sentence(p) for p in points]
            clean = sum(v[0] for v in verdicts)
            totals[s] += clean
            totals[s + " points"] += len(points)
            cells.append(f"{clean}/{len(points)}")
            for p, (good, reason) in zip(points, verdicts):
                if not good or s == "ctxkit":
                    details.append(f"  {short[s]}: {'clean' if good else 'NOT CLEAN (' + reason + ')'}: {' '.join(p.split())[:160]}")
        lines.append(f"| `{path}` | {len(raw.encode()):,} | {'clean' if ok else 'NOT: ' + why} | " + " | ".join(cells) + " |")
    lines.append(f"| **{len(present)} documents** | | **{totals['headline']}/{len(present)} clean** | " +
                 " | ".join(f"**{totals[s]}/{totals[s + ' points']}**" for s in systems) + " |")
    text = "\n".join(lines) + "\n"
    if missing:
        text += "\nNot on this machine, skipped: " + ", ".join(missing) + "\n"
    print(text)
    print("\n".join(details), file=sys.stderr)
    if args.out:
        Path(args.out).write_text(text + "\n## Each headline and point\n\n```\n" + "\n".join(details) + "\n```\n", encoding="utf-8")


def main():
    global STOP
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=str(ROOT / ".build/debug"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=None)
    parser.add_argument("--debian", action="store_true", help="the clean-sentence table on documents Debian ships")
    args = parser.parse_args()
    from sumy.utils import get_stop_words
    STOP = set(get_stop_words("english"))
    binary = str(Path(args.bin) / "ctxkit")
    if args.debian:
        return debian(args, binary)
    args.out = args.out or str(ROOT / "reports/extractive.md")
    load_before = os.getloadavg()

    rows = []   # per document: {system: metrics}
    for relative in DOCUMENTS:
        path = ROOT / relative
        raw = path.read_text(encoding="utf-8")
        paragraphs = prose_paragraphs(raw)
        prose = " ".join(text for _, _, text in paragraphs)
        leads = section_leads(paragraphs)
        results = {}
        summary, _, _ = ctxkit(binary, path)
        inproc = [ctxkit(binary, path)[1:] for _ in range(args.rounds)]
        results["ctxkit"] = dict(points=summary["points"], headline=summary["headline"],
                                 seconds=statistics.median(t for t, _ in inproc),
                                 process=statistics.median(w for _, w in inproc))
        for name in PEERS:
            points = peer(name, raw, paragraphs)
            times = []
            for _ in range(args.rounds):
                started = time.perf_counter()
                peer(name, raw, paragraphs)
                times.append(time.perf_counter() - started)
            walls = []
            for _ in range(max(1, args.rounds // 2)):
                started = time.perf_counter()
                subprocess.run([sys.executable, "-c", PROCESS_SNIPPET, __file__, name, str(path)], check=True, capture_output=True)
                walls.append(time.perf_counter() - started)
            results[name] = dict(points=points, seconds=statistics.median(times), process=statistics.median(walls))
        for r in results.values():
            r["r1"], r["f1"] = rouge1(r["points"], leads)
            r["rl"] = rouge_l(r["points"], leads)
            r["clean"] = sum(is_clean(p, prose) for p in r["points"])
            r["words"] = sum(len(p.split()) for p in r["points"])
        rows.append(dict(path=relative, bytes=len(raw.encode()), leads=len(leads), results=results))
        print(f"{relative}: ctxkit R1 {results['ctxkit']['r1']:.3f}", file=sys.stderr)
    load_after = os.getloadavg()
    write_report(args, rows, load_before, load_after)


def write_report(args, rows, load_before, load_after):
    systems = ["ctxkit"] + PEERS
    label = lambda s: "ContextKit extractive" if s == "ctxkit" else PEER_LABELS[s.split()[0]] + " " + s.split()[1]
    mean = lambda s, k: statistics.mean(r["results"][s][k] for r in rows)
    total = lambda s, k: sum(r["results"][s][k] for r in rows)
    n = len(rows)
    lines = [
        "# The extractive summariser against its offline peers",
        "",
        "Generated by `bench/extractive.py` (run it with the bench venv: "
        "`\"$(bench/python-env-bench | tail -n1)\" bench/extractive.py`). "
        f"{n} documents, {POINTS} points each, {args.rounds} rounds; "
        f"ContextKit from `{os.path.relpath(args.bin, ROOT)}` (a debug build: the repository's rule for a shared machine; "
        "a release build is faster).",
        "",
        f"Machine: {os.cpu_count()} cores, shared with other jobs; load average {load_before[0]:.2f} / {load_before[1]:.2f} / "
        f"{load_before[2]:.2f} at the start and {load_after[0]:.2f} / {load_after[1]:.2f} / {load_after[2]:.2f} at the end "
        "(1 / 5 / 15 min). Times are medians, and move with the load; the coverage figures do not.",
        "",
        "## Coverage measure",
        "",
        "A document's **section leads** are the first sentence of each section's first prose paragraph "
        "(each paragraph's, for a document without headings), found by this script's own Markdown reading, "
        "independent of ContextKit's. Technical writing puts what a section is about in its first sentence, "
        "so the leads are the document's own short account of everything it covers, written by its author; a "
        "summary whose words cover more of them covers more of the document. **ROUGE-1 recall** is the share of "
        "the leads' words (lower case, stop words removed, counts clipped) that the summary's points contain; "
        "**ROUGE-L recall** the summary-level union longest common subsequence (Lin 2004), which also rewards "
        "word order. **F1** adds ROUGE-1 precision, so a summary does not score by being long: a peer's raw "
        "\"sentence\" can be a whole table or code block. No system is told where the leads are: ContextKit's "
        "ranking does not use position at all. **Clean** counts the points that are a whole sentence of the "
        "document's prose (found in the prepared prose, ending in `.`, `!` or `?`, no table, HTML or fence markup).",
        "",
        "In-sample, said plainly: ContextKit's two rank weights (`topicWeight` 0.5, `longSentenceWords` 40) were "
        "picked on these same documents from a small grid (0, 0.3, 0.5, 1, 2 and 25, 35, 40, 45, 60 words); with "
        "neither (0 and no limit) its mean ROUGE-1 recall was 0.394 and F1 0.415. The peers run with their "
        "defaults. Eight documents are few: read the per-document rows, not only the means.",
        "",
        "## Results (means over the documents)",
        "",
        "| system | ROUGE-1 R | ROUGE-L R | ROUGE-1 F1 | clean points | words per summary | time per document, in process | per process |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in systems:
        lines.append(f"| {label(s)} | {mean(s, 'r1'):.3f} | {mean(s, 'rl'):.3f} | {mean(s, 'f1'):.3f} | "
                     f"{total(s, 'clean')} of {POINTS * n} | {mean(s, 'words'):.0f} | "
                     f"{1000 * statistics.median(r['results'][s]['seconds'] for r in rows):.1f} ms | "
                     f"{1000 * statistics.median(r['results'][s]['process'] for r in rows):.0f} ms |")
    lines += [
        "",
        "In process: ContextKit's own `totalSeconds` from `--json` (the whole engine: planning with the "
        "tokenizer, the calls, the summary); a peer's parse and summarise call in this Python process. Per "
        "process: the wall time of one `ctxkit summarise --json FILE`, or of one `python -c` that imports the "
        "peer and summarises the file (median over the documents).",
        "",
        "## Per document: ROUGE-1 recall",
        "",
        "| document | bytes | leads | " + " | ".join(label(s) for s in systems) + " |",
        "|---|---:|---:|" + "---:|" * len(systems),
    ]
    for r in rows:
        best = max(r["results"][s]["r1"] for s in systems)
        cells = [(f"**{r['results'][s]['r1']:.3f}**" if r["results"][s]["r1"] == best else f"{r['results'][s]['r1']:.3f}") for s in systems]
        lines.append(f"| `{r['path']}` | {r['bytes']:,} | {r['leads']} | " + " | ".join(cells) + " |")
    lines += ["", "## ContextKit's summaries", ""]
    for r in rows:
        c = r["results"]["ctxkit"]
        lines += [f"`{r['path']}`: **{c['headline']}**", ""] + [f"- {p}" for p in c["points"]] + [""]
    lines += ["## The peers' points on the raw files (the first document)", ""]
    first = rows[0]
    for s in PEERS:
        if s.endswith("(raw)"):
            lines += [f"{label(s)}:", ""] + [f"- {' '.join(p.split())[:200]}" for p in first["results"][s]["points"]] + [""]
    Path(args.out).write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
