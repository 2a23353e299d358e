"""Which version of its English page a translation follows: a hash per section (per anchor).

A zh page records, in its front matter, the hash of each section of the en page it translates
and of its own matching section, as it was when a person last brought the two in step:

    translation:
      sections:
        autograd: {en: 3f1c0a9b2d, zh: 8e2b7c4d1a}
        requires-grad: {en: ..., zh: ...}
      pending: true          # optional: en changed, the translation is behind, and says so

A section is an anchored heading and everything up to the next anchored heading; the page's
front matter (without this record) counts as part of its first section. docsys.translations
compares and updates the record; docsys.build.translations shows a notice on a pending page.
Standard library only.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from docsys.core.text import sections, split_front_matter

KEY = "translation"
HASH_CHARS = 10


def _digest(lines: list[str]) -> str:
    text = "\n".join(line.rstrip() for line in lines).strip("\n")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_CHARS]


def without_record(front: list[str]) -> list[str]:
    """Front-matter lines without the `translation:` block (the key's line and the lines indented under it)."""
    kept, inside = [], False
    for line in front:
        if line.startswith(f"{KEY}:"):
            inside = True
        elif inside and (not line.strip() or line[:1] in " \t#"):
            continue
        else:
            inside = False
            kept.append(line)
    return kept


def section_hashes(markdown: str) -> dict[str, str]:
    """anchor -> hash of that section's text, in page order (the front matter joins the first section)."""
    front, _ = split_front_matter(markdown)
    found = sections(markdown)
    hashes = {}
    for i, section in enumerate(found):
        lines = [*without_record(front), *section.lines] if i == 0 else list(section.lines)
        hashes[section.anchor] = _digest(lines)
    return hashes


@dataclass(frozen=True)
class Record:
    """What a translation's front matter says it follows."""

    en: dict[str, str] = field(default_factory=dict)  # anchor -> en section hash
    zh: dict[str, str] = field(default_factory=dict)  # anchor -> this page's section hash, when recorded
    pending: bool = False


def record_of(meta: dict) -> Record | None:
    """The record in a page's parsed front matter, or None when it has none (a new translation)."""
    raw = meta.get(KEY) if isinstance(meta, dict) else None
    if not isinstance(raw, dict):
        return None
    pairs = raw.get("sections") or {}
    en = {anchor: str(h.get("en")) for anchor, h in pairs.items() if isinstance(h, dict)}
    zh = {anchor: str(h.get("zh")) for anchor, h in pairs.items() if isinstance(h, dict)}
    return Record(en, zh, bool(raw.get("pending", False)))


def changed_sections(en_hashes: dict[str, str], record: Record) -> list[str]:
    """Anchors of en sections that differ from the recorded version (new and removed ones included)."""
    changed = [anchor for anchor, digest in en_hashes.items() if record.en.get(anchor) != digest]
    return changed + [anchor for anchor in record.en if anchor not in en_hashes]


def render_record(en_hashes: dict[str, str], zh_hashes: dict[str, str], pending: bool = False) -> list[str]:
    """The `translation:` front-matter block for a page whose sections are in step with en."""
    lines = [f"{KEY}:", "  sections:"]
    for anchor, digest in en_hashes.items():
        lines.append(f"    {anchor}: {{en: {digest}, zh: {zh_hashes.get(anchor, '-')}}}")
    return lines + (["  pending: true"] if pending else [])


def with_record(markdown: str, block: list[str]) -> str:
    """The page with its `translation:` block replaced by `block` (appended to the front matter)."""
    front, body = split_front_matter(markdown)
    return "\n".join(["---", *without_record(front), *block, "---", *body])
