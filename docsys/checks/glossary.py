"""Terminology: the pages use the glossary's terms (docsys/core/glossary.toml), and every term is
used where the glossary says it is explained.

- A rendering the glossary refuses for a language (`zh_avoid`, `en_avoid`) found in the prose of
  a page of that language, or of the notebook's Markdown cells in it, is a finding naming the
  term to use. Code (fenced blocks and inline `code`), HTML comments and the glossary pages
  themselves are not checked, and a variant that is part of a glossary term (微批 inside 微批次)
  is not a finding.
- A term whose `see` section does not exist, or does not use the term, in either language, is a
  problem: a glossary entry must describe the site's own words.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

from docsys.core import glossary
from docsys.core.paths import DOCS_DIR, LANGS, NOTEBOOKS_DIR
from docsys.core.text import outside_fences, section_text

GLOSSARY_PAGE = "glossary.md"
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_COMMENT = re.compile(r"<!--.*?-->")
_CELL_RE = re.compile(r"^# %%(?P<rest>.*)$")


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


def _pattern(words: str) -> re.Pattern[str]:
    """Words in any case, with or without a space between CJK and Latin text ('GPU 内存' is also
    'GPU内存'), but with one between two Latin words ('data parallel' is not 'DataParallel')."""
    parts = words.split()
    pattern = re.escape(parts[0]) if parts else ""
    for before, after in itertools.pairwise(parts):
        latin = before[-1].isascii() and after[0].isascii()
        pattern += (r"\s+" if latin else r"\s*") + re.escape(after)
    return re.compile(pattern, re.IGNORECASE)


def _prose(line: str) -> str:
    """The line with inline code and comments blanked out (same length, so columns hold)."""
    for pattern in (_INLINE_CODE, _COMMENT):
        line = pattern.sub(lambda m: " " * len(m.group()), line)
    return line


def check_lines(lines: list[tuple[int, str]], label: str, terms: tuple[glossary.Term, ...], lang: str) -> list[Finding]:
    """Refused variants in numbered prose lines of one language."""
    words = [_pattern(t.word(lang)) for t in terms]
    findings = []
    for number, raw in lines:
        line = _prose(raw)
        covered = {i for w in words for m in w.finditer(line) for i in range(m.start(), m.end())}
        for term in terms:
            for variant in term.avoid.get(lang, ()):
                for m in _pattern(variant).finditer(line):
                    if not set(range(m.start(), m.end())) <= covered:
                        findings.append(Finding(label, number, m.group(), term.word(lang), term.en))
    return findings


def check_text(text: str, label: str, terms: tuple[glossary.Term, ...], lang: str = "zh") -> list[Finding]:
    """Refused variants in the prose of one page."""
    return check_lines([(i + 1, line) for i, line in outside_fences(text.splitlines())], label, terms, lang)


def notebook_lines(source: Path, lang: str) -> list[tuple[int, str]]:
    """The numbered lines of a jupytext notebook's Markdown cells in `lang` (`# ` prefix removed)."""
    found, inside = [], False
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1):
        cell = _CELL_RE.match(line)
        if cell:
            inside = "[markdown]" in cell["rest"] and f'lang="{lang}"' in cell["rest"]
        elif inside and line.startswith("#"):
            found.append((number, line[2:] if line.startswith("# ") else line[1:]))
    return found


def check_tree(docs_dir: Path = DOCS_DIR, notebooks_dir: Path | None = NOTEBOOKS_DIR,
               terms: tuple[glossary.Term, ...] | None = None) -> list[Finding]:
    """Refused variants on every page (glossary pages excepted) and in every notebook, per language."""
    terms = glossary.load() if terms is None else terms
    findings = []
    for lang in LANGS:
        for page in sorted((docs_dir / lang).rglob("*.md")):
            if page.name != GLOSSARY_PAGE:
                label = page.relative_to(docs_dir).as_posix()
                findings += check_text(page.read_text(encoding="utf-8"), label, terms, lang)
        for source in sorted(notebooks_dir.glob("*.py")) if notebooks_dir else []:
            findings += check_lines(notebook_lines(source, lang), f"{source.name} ({lang})", terms, lang)
    return findings


def unexplained_terms(docs_dir: Path = DOCS_DIR, terms: tuple[glossary.Term, ...] | None = None) -> list[str]:
    """Terms whose `see` section is missing, or does not use the term, in some language."""
    terms = glossary.load() if terms is None else terms
    problems = []
    for term in terms:
        for lang in LANGS:
            page = docs_dir / lang / term.page
            text = section_text(page.read_text(encoding="utf-8"), term.anchor) if page.is_file() else None
            if text is None:
                problems.append(f"glossary term '{term.en}': {lang}/{term.see} does not exist")
            elif not _pattern(term.word(lang)).search(text):
                problems.append(f"glossary term '{term.en}': {lang}/{term.see} never says '{term.word(lang)}'; "
                                f"point `see` to the section that explains it, or drop the term")
    return problems
