"""Comparative words in prose must be bound to a measurement, or marked as a general fact.

A paragraph (a block of prose, a list, a table) that compares or quantifies — faster, slower,
saves, speed-up, ×, %, 倍, 更快, 节省, 加速 … — passes when it also holds a claim token
(`{{ ratio: ... }}` or `{{ value: ... }}`, checked against the recording by docsys.build.claims),
or when it carries, anywhere in it, a marker with its reason:

    <!-- general: the PyTorch AMP docs state it; not a measurement of this site -->

The marker is invisible to readers and says why the comparison needs no measurement here (a
general fact, with a link to the official docs in the paragraph). Code (fences and inline), HTML
comments, headings and the front matter are not prose; names that contain a word are not
comparisons (memory-saving and saving-loading are slugs, "Saving and loading" a page title).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from docsys.core.text import inside_fences

COMPARATIVE = re.compile(
    r"\b(?:faster|slower|quicker|speed-?ups?|speeds? up|slows? down|cheaper|costlier"
    r"|(?<!-)savings?(?!-|\s+and\s+loading)|saves? (?:memory|time|\d)"
    r"|less memory|more memory|less time|more time|fraction of)\b"
    r"|\b\d+(?:\.\d+)?\s?×(?!\s?\d)|\b\d+(?:\.\d+)?\s?%|\bper ?cent\b"
    r"|\d\s*倍|更快|更慢|加速(?!器)|减速|提速|节省|省下|省去|快了|慢了|百分之|开销更",
    re.I,
)
TOKEN = re.compile(r"\{\{\s*(?:ratio|value):")
MARKER = re.compile(r"<!--\s*general:\s*\S[^>]*-->")
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


@dataclass(frozen=True)
class Finding:
    page: str
    line: int
    words: tuple[str, ...]
    text: str

    def __str__(self) -> str:
        return (f"{self.page}:{self.line}: {', '.join(self.words)} without a measurement: bind it with "
                f"{{{{ ratio: ... }}}} / {{{{ value: ... }}}}, or mark a general fact <!-- general: why -->\n"
                f"    {self.text[:140]}")


def paragraphs(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each prose block: blank-line separated, fences and headings left out."""
    body = _FRONT_MATTER.sub(lambda m: "\n" * m[0].count("\n"), text)
    lines = body.split("\n")
    fenced = inside_fences(lines)
    blocks, current, start = [], [], 0
    for i, line in enumerate([*lines, ""]):
        prose = i < len(lines) and i not in fenced and line.strip() and not line.lstrip().startswith("#")
        if prose:
            start = i if not current else start
            current.append(line)
        elif current:
            blocks.append((start + 1, "\n".join(current)))
            current = []
    return blocks


def check_text(text: str, label: str) -> list[Finding]:
    findings = []
    for line, block in paragraphs(text):
        if TOKEN.search(block) or MARKER.search(block):
            continue
        prose = _INLINE_CODE.sub(" ", _COMMENT.sub(" ", block))
        words = tuple(dict.fromkeys(m[0] for m in COMPARATIVE.finditer(prose)))
        if words:
            findings.append(Finding(label, line, words, " ".join(block.split())))
    return findings


def check_tree(docs_dir: Path) -> list[Finding]:
    findings = []
    for page in sorted(docs_dir.rglob("*.md")):
        findings += check_text(page.read_text(encoding="utf-8"), page.relative_to(docs_dir).as_posix())
    return findings
