"""zh/en parity: every page in both languages, with the same anchors, the same examples in the
same order, and the same claims about measured numbers (docsys.build.claims)."""

from __future__ import annotations

from pathlib import Path

from docsys.checks.pages import examples
from docsys.core.paths import DEFAULT_LANG, DOCS_DIR, LANGS
from docsys.core.text import headings, tokens


def structure_problems(text: str, label: str) -> list[str]:
    """Headings without an explicit `{ #id }` anchor, and duplicate anchors, in one page."""
    problems = []
    seen: set[str] = set()
    for heading in headings(text):
        if heading.anchor is None:
            problems.append(f"{label}: heading '{heading.text}' has no explicit anchor; add {{ #some-id }}")
        elif heading.anchor in seen:
            problems.append(f"{label}: anchor #{heading.anchor} is used twice")
        else:
            seen.add(heading.anchor)
    return problems


def _differ(label: str, what: str, en: list, other: list) -> list[str]:
    return [] if en == other else [f"{label}: {what} differ from en:\n  en: {en}\n  tr: {other}"]


def compare(en_text: str, other_text: str, label: str) -> list[str]:
    """Differences between a page and its translation that break parity."""
    return (
        _differ(label, "anchors", [h.anchor for h in headings(en_text)], [h.anchor for h in headings(other_text)])
        + _differ(label, "examples (same snippets, same order)", examples(en_text), examples(other_text))
        + _differ(label, "claims about measured numbers ({{ ratio/value: }} tokens)", tokens(en_text),
                  tokens(other_text))
    )


def check_tree(docs_dir: Path = DOCS_DIR) -> list[str]:
    """All parity problems in a docs tree laid out as docs/<lang>/<page>.md."""
    pages = {lang: {p.relative_to(docs_dir / lang) for p in (docs_dir / lang).rglob("*.md")} for lang in LANGS}
    problems = []
    for lang in LANGS:
        for other in LANGS:
            for missing in sorted(pages[lang] - pages[other]):
                problems.append(
                    f"{other}/{missing.as_posix()} is missing (it exists in {lang}/); add the page or remove both"
                )
    for lang in LANGS:
        for page in sorted(pages[lang]):
            problems += structure_problems(
                (docs_dir / lang / page).read_text(encoding="utf-8"), f"{lang}/{page.as_posix()}"
            )
    for page in sorted(pages[DEFAULT_LANG]):
        en_text = (docs_dir / DEFAULT_LANG / page).read_text(encoding="utf-8")
        for lang in LANGS:
            if lang != DEFAULT_LANG and page in pages[lang]:
                other = (docs_dir / lang / page).read_text(encoding="utf-8")
                problems += compare(en_text, other, f"{lang}/{page.as_posix()}")
    return problems
