"""The prose of a page as the prose lints read it (docsys.checks.comparatives, docsys.checks.behaviour).

A paragraph is a blank-line separated block — a paragraph, a list, a table — without fences,
headings or the front matter; its prose leaves out HTML comments and inline code. A lint looks for
words in the prose of each paragraph, and passes a paragraph that carries what binds them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from docsys.core.text import inside_fences

_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


@dataclass(frozen=True)
class Finding:
    page: str
    line: int
    words: tuple[str, ...]
    text: str
    problem: str  # what is missing and how to add it, one line

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {', '.join(self.words)}: {self.problem}\n    {self.text[:140]}"


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


def lint(text: str, label: str, words: re.Pattern, bound: Callable[[str], bool], problem: str,
         fold: Callable[[str], str] = str) -> list[Finding]:
    """A Finding per paragraph whose prose has `words` and which `bound` does not accept."""
    findings = []
    for line, block in paragraphs(text):
        if bound(block):
            continue
        prose = _INLINE_CODE.sub(" ", _COMMENT.sub(" ", block))
        found = tuple(dict.fromkeys(fold(m[0]) for m in words.finditer(prose)))
        if found:
            findings.append(Finding(label, line, found, " ".join(block.split()), problem))
    return findings


def lint_tree(docs_dir: Path, check_text: Callable[[str, str], list[Finding]]) -> list[Finding]:
    findings = []
    for page in sorted(docs_dir.rglob("*.md")):
        findings += check_text(page.read_text(encoding="utf-8"), page.relative_to(docs_dir).as_posix())
    return findings
