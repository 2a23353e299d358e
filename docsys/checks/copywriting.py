"""Chinese copywriting lint of the zh pages, with AutoCorrect (PyPI `autocorrect-py`).

AutoCorrect checks spacing between CJK and Latin letters or digits, full-width punctuation in
Chinese sentences, and half-width punctuation in English ones. Its rules are set in
`.autocorrectrc` at the repository root (the same file its command-line tool reads); a line it
must not touch can be fenced with `<!-- autocorrect-disable -->` / `<!-- autocorrect-enable -->`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import autocorrect_py

from docsys.core.glossary import GLOSSARY_FILE
from docsys.core.paths import MKDOCS_YML, ROOT, lang_dir

CONFIG = ROOT / ".autocorrectrc"

# An admonition (`!!! note`), a collapsible block (`??? note`, `???+ note`) or a content tab (`=== "A"`).
_BLOCK_OPENER = re.compile(r"^( *)(?:!!!|\?\?\?\+?|===)\s")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    col: int
    old: str
    new: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}\n  - {self.old}\n  + {self.new}"


@cache
def _load_config() -> None:
    if CONFIG.exists():
        autocorrect_py.load_config(CONFIG.read_text(encoding="utf-8"))


def visible_markdown(text: str) -> str:
    """The page with the bodies of admonitions, collapsible blocks and tabs un-indented.

    AutoCorrect's Markdown grammar reads a body indented by four spaces as an indented code block
    and skips it, so the prose inside `!!! note` would never be checked. Lines are only
    un-indented, never added or removed: findings keep the page's line numbers.
    """
    out, openers = [], []  # openers: indentation of each enclosing block opener
    for line in text.splitlines(keepends=True):
        if line.strip():
            indent = len(line) - len(line.lstrip(" "))
            while openers and indent <= openers[-1]:
                openers.pop()
            strip = min(indent, 4 * len(openers))
            opener = _BLOCK_OPENER.match(line)
            line = line[strip:]
            if opener:
                openers.append(len(opener.group(1)))
        out.append(line)
    return "".join(out)


_SWITCH = re.compile(r"autocorrect[-:]\s*(disable|enable|false|true)")


def switch_problems(text: str, label: str) -> list[Finding]:
    """AutoCorrect's off/on comments that would silence more than their block.

    `<!-- autocorrect-disable -->` without a blank line before and after it turns the check off
    for the rest of the page, and so does one that is never followed by `<!-- autocorrect-enable -->`.
    """
    lines = text.splitlines()
    problems, disabled_at = [], None
    for i, line in enumerate(lines):
        switch = _SWITCH.search(line)
        if not switch:
            continue
        alone = line.strip() == f"<!-- {switch.group(0)} -->"
        spaced = (i == 0 or not lines[i - 1].strip()) and (i + 1 == len(lines) or not lines[i + 1].strip())
        if not (alone and spaced):
            want = "<!-- autocorrect-disable --> or <!-- autocorrect-enable -->, alone, with a blank line around it"
            problems.append(Finding(label, i + 1, 1, line, want))
        disabled_at = i if switch.group(1) in ("disable", "false") else None
    if disabled_at is not None:
        problems.append(Finding(label, disabled_at + 1, 1, lines[disabled_at], "add <!-- autocorrect-enable --> after"))
    return problems


def lint_text(text: str, label: str) -> list[Finding]:
    """AutoCorrect's findings (errors and warnings alike) in one Markdown page."""
    _load_config()
    result = autocorrect_py.lint_for(visible_markdown(text), "page.md")
    findings = [Finding(label, r.line, r.col, r.old, r.new) for r in result.lines]
    return switch_problems(text, label) + findings


def lint_config(config: Path = MKDOCS_YML) -> list[Finding]:
    """Findings in mkdocs.yml, whose zh site name, description and nav titles readers see."""
    _load_config()
    result = autocorrect_py.lint_for(config.read_text(encoding="utf-8"), "mkdocs.yml")
    return [Finding(config.name, r.line, r.col, r.old, r.new) for r in result.lines]


def lint_glossary(path: Path = GLOSSARY_FILE) -> list[Finding]:
    """Findings in the glossary data file, whose Chinese terms and definitions the zh glossary page shows
    (AutoCorrect has no TOML grammar: the file is read as plain text, line for line)."""
    _load_config()
    result = autocorrect_py.lint_for(path.read_text(encoding="utf-8"), "glossary.txt")
    return [Finding(path.name, r.line, r.col, r.old, r.new) for r in result.lines]


def lint_pages(pages_dir: Path | None = None) -> list[Finding]:
    """Findings in every Markdown page under pages_dir (default: docs/zh)."""
    pages_dir = pages_dir or lang_dir("zh")
    findings = []
    for page in sorted(pages_dir.rglob("*.md")):
        label = page.relative_to(pages_dir.parent).as_posix()
        findings += lint_text(page.read_text(encoding="utf-8"), label)
    return findings
