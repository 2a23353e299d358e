"""zh/en parity: every page in both languages, same anchors, same includes in the same order,
the same benchmark tables and tokens (docsys.benchtables)."""

from __future__ import annotations

from pathlib import Path

from docsys.benchtables import references
from docsys.pages import headings, includes
from docsys.paths import DEFAULT_LANG, DOCS_DIR, LANGS


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


def compare(en_text: str, other_text: str, label: str) -> list[str]:
    """Differences between a page and its translation that break parity."""
    problems = []
    en_anchors = [h.anchor for h in headings(en_text)]
    other_anchors = [h.anchor for h in headings(other_text)]
    if en_anchors != other_anchors:
        problems.append(f"{label}: anchors differ from en:\n  en: {en_anchors}\n  tr: {other_anchors}")
    en_bench, other_bench = references(en_text), references(other_text)
    if en_bench != other_bench:
        problems.append(
            f"{label}: benchmark tables or tokens differ from en (same <!-- bench: --> lines in order, "
            f"same {{{{ ratio/value: }}}} tokens):\n  en: {en_bench}\n  tr: {other_bench}"
        )
    en_includes, other_includes = includes(en_text), includes(other_text)
    if en_includes != other_includes:
        problems.append(
            f"{label}: snippet includes differ from en (same files, same order):\n"
            f"  en: {en_includes}\n  tr: {other_includes}"
        )
    return problems


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
