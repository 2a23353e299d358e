"""The page pairs, the translation record each zh page holds, and which pairs fail the suite: a zh
page behind its en page without saying so (`pending: true`), or without a record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from docsys.core.paths import DEFAULT_LANG, DOCS_DIR
from docsys.core.text import split_front_matter
from docsys.translations.records import Record, changed_sections, record_of, section_hashes

LANG = "zh"  # the translated language (en is the source)


class TranslationError(Exception):
    """Refused: one line (or one line per section) saying why and what to do."""


@dataclass(frozen=True)
class Pair:
    slug: str
    en: Path
    zh: Path

    @property
    def label(self) -> str:
        return f"{LANG}/{self.slug}.md"


def pair(slug: str, docs_dir: Path = DOCS_DIR) -> Pair:
    slug = slug.removesuffix(".md").removeprefix(f"{LANG}/").removeprefix(f"{DEFAULT_LANG}/")
    found = Pair(slug, docs_dir / DEFAULT_LANG / f"{slug}.md", docs_dir / LANG / f"{slug}.md")
    for path in (found.en, found.zh):
        if not path.is_file():
            raise TranslationError(f"{path.relative_to(docs_dir).as_posix()} does not exist")
    return found


def pairs(docs_dir: Path = DOCS_DIR) -> list[Pair]:
    """Every page that exists in both languages."""
    zh_dir = docs_dir / LANG
    slugs = [p.relative_to(zh_dir).with_suffix("").as_posix() for p in sorted(zh_dir.rglob("*.md"))]
    return [pair(s, docs_dir) for s in slugs if (docs_dir / DEFAULT_LANG / f"{s}.md").is_file()]


def read_record(text: str, label: str) -> Record | None:
    front, _ = split_front_matter(text)
    try:
        meta = yaml.safe_load("\n".join(front)) or {}
    except yaml.YAMLError as error:
        raise TranslationError(f"{label}: front matter is not valid YAML ({error})") from None
    return record_of(meta)


def problem(p: Pair) -> str | None:
    """Why a page pair fails the suite, or None."""
    record = read_record(p.zh.read_text(encoding="utf-8"), p.label)
    if record is None:
        return (f"{p.label} has no translation record: once it translates en/{p.slug}.md, record it with "
                f"`make translation` (python -m docsys.translations new)")
    changed = changed_sections(section_hashes(p.en.read_text(encoding="utf-8")), record)
    if changed and not record.pending:
        return (f"{p.label} is behind en/{p.slug}.md: en changed in {anchor_list(changed)}; update the translation "
                f"and run `make translation PAGE={p.slug}`, or mark it `pending: true` under `translation:` "
                f"to publish it with a notice")
    if record.pending and not changed:
        return f"{p.label} is marked pending but follows en/{p.slug}.md; run `make translation PAGE={p.slug}`"
    return None


def check_tree(docs_dir: Path = DOCS_DIR) -> list[str]:
    """Every page pair whose translation is behind without saying so, or has no record."""
    found = []
    for p in pairs(docs_dir):
        try:
            found += [why] if (why := problem(p)) else []
        except TranslationError as error:
            found.append(str(error))
    return found


def anchor_list(anchors: list[str]) -> str:
    return ", ".join(f"#{a}" for a in anchors)


def status(docs_dir: Path = DOCS_DIR) -> list[str]:
    lines = []
    for p in pairs(docs_dir):
        record = read_record(p.zh.read_text(encoding="utf-8"), p.label)
        changed = changed_sections(section_hashes(p.en.read_text(encoding="utf-8")), record) if record else []
        state = "new (no record)" if record is None else (
            ("pending: " if record.pending else "behind: ") + anchor_list(changed) if changed else "current")
        lines.append(f"{p.label:40} {state}")
    return lines
