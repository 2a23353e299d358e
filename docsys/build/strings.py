"""The words the build writes on pages, per language, from strings.yml beside this module."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

STRINGS_FILE = Path(__file__).with_name("strings.yml")


@functools.cache
def _all() -> dict[str, dict[str, str]]:
    return yaml.safe_load(STRINGS_FILE.read_text(encoding="utf-8"))


def strings(lang: str) -> dict[str, str]:
    """The strings of one language (English for a language the file does not have)."""
    table = _all()
    return table.get(lang, table["en"])


def languages() -> list[str]:
    return list(_all())
