"""The glossary (docs/<lang>/glossary.md) as data, and the check that zh pages use its terms.

The zh glossary's table is the one source of the Chinese terms: each row names the term, the
English term, and the variants the site does not use ("避免的译法", separated by "、"). A variant
found in the prose of another zh page is reported with the term to use instead. Code (fenced
blocks and inline `code`), HTML comments and the glossary page itself are not checked, and a
variant that is part of a glossary term (微批 inside 微批次) is not a finding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from docsys.core.paths import lang_dir
from docsys.core.text import outside_fences

GLOSSARY_PAGE = "glossary.md"
TABLE_ANCHOR = "terms"
_NONE = {"", "—", "-"}
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_COMMENT = re.compile(r"<!--.*?-->")


@dataclass(frozen=True)
class Entry:
    term: str  # the term in the page's language (the zh table: Chinese)
    english: str
    variants: tuple[str, ...]


@dataclass(frozen=True)
class Finding:
    page: str
    line: int
    variant: str
    term: str
    english: str

    def __str__(self) -> str:
        return (
            f"{self.page}:{self.line}: '{self.variant}' is not the site's term; "
            f"use '{self.term}' ({self.english}), as in the glossary"
        )


def _table_rows(text: str) -> list[list[str]]:
    """The cells of the first Markdown table after the `{ #terms }` heading, header first."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("#") and f"#{TABLE_ANCHOR} " in line + " "]
    if not starts:
        raise ValueError(f"the glossary has no heading with {{ #{TABLE_ANCHOR} }} followed by the term table")
    start = starts[0]
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    return [row for row in rows if not all(set(cell) <= set("-: ") for cell in row)]


def entries(text: str, term_col: str, english_col: str, variants_col: str | None = None) -> list[Entry]:
    """The glossary rows of one language's page, by column header."""
    header, *body = _table_rows(text)
    col = {name: header.index(name) for name in (term_col, english_col, variants_col) if name}
    found = []
    for row in body:
        raw = row[col[variants_col]] if variants_col else ""
        variants = tuple(v.strip() for v in raw.split("、") if v.strip() not in _NONE)
        found.append(Entry(_plain(row[col[term_col]]), _plain(row[col[english_col]]), variants))
    return found


def _plain(cell: str) -> str:
    """A table cell without Markdown emphasis, code ticks or a link around it."""
    cell = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cell)
    return cell.replace("**", "").replace("`", "").strip()


def zh_entries(docs_dir: Path | None = None) -> list[Entry]:
    page = (docs_dir / "zh" if docs_dir else lang_dir("zh")) / GLOSSARY_PAGE
    return entries(page.read_text(encoding="utf-8"), "术语", "英文", "避免的译法")


def en_entries(docs_dir: Path | None = None) -> list[Entry]:
    page = (docs_dir / "en" if docs_dir else lang_dir("en")) / GLOSSARY_PAGE
    return entries(page.read_text(encoding="utf-8"), "中文", "Term")


def _pattern(variant: str) -> re.Pattern[str]:
    """A variant matches with or without the space between CJK and Latin text."""
    return re.compile(r"\s*".join(re.escape(part) for part in variant.split()))


def _prose(line: str) -> str:
    """The line with inline code and comments blanked out (same length, so columns hold)."""
    for pattern in (_INLINE_CODE, _COMMENT):
        line = pattern.sub(lambda m: " " * len(m.group()), line)
    return line


def check_text(text: str, label: str, glossary: list[Entry]) -> list[Finding]:
    """Variants of glossary terms in the prose of one zh page."""
    terms = [re.compile(re.escape(e.term)) for e in glossary]
    findings = []
    for index, raw in outside_fences(text.splitlines()):
        line = _prose(raw)
        covered = {i for t in terms for m in t.finditer(line) for i in range(m.start(), m.end())}
        for entry in glossary:
            for variant in entry.variants:
                for m in _pattern(variant).finditer(line):
                    if not set(range(m.start(), m.end())) <= covered:
                        findings.append(Finding(label, index + 1, m.group(), entry.term, entry.english))
    return findings


def check_tree(docs_dir: Path | None = None) -> list[Finding]:
    """Variants of glossary terms on every zh page except the glossary itself."""
    zh_dir = docs_dir / "zh" if docs_dir else lang_dir("zh")
    glossary = zh_entries(docs_dir)
    findings = []
    for page in sorted(zh_dir.rglob("*.md")):
        if page.name != GLOSSARY_PAGE:
            label = page.relative_to(zh_dir.parent).as_posix()
            findings += check_text(page.read_text(encoding="utf-8"), label, glossary)
    return findings
