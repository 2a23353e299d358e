"""The languages search indexes: where each one's pages live, and its glossary terms of several words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from mkdocs.exceptions import PluginError

from docsys.core import glossary
from docsys.core.paths import DEFAULT_LANG

SEGMENTED = {"zh": "x-zh"}  # languages segmented here -> their index key (see the package docstring)

_LATIN_TERM_RE = re.compile(r"[a-z]+(?:[ -][a-z]+)+")
_HAN_TERM_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")


@dataclass(frozen=True)
class Language:
    code: str  # "en", "zh"
    terms: tuple[str, ...] = ()  # glossary terms of more than one word, longest first

    @property
    def segmented(self) -> bool:
        return self.code in SEGMENTED


def language_root(lang: str) -> str:
    """Where a language's pages live in the site: "" for the default language, "zh/" for zh."""
    return "" if lang == DEFAULT_LANG else f"{lang}/"


def glossary_terms(docs_dir: Path, lang: str, data: Path = glossary.GLOSSARY_FILE) -> tuple[str, ...]:
    """The glossary's terms of more than one word in `lang` (lowercase), longest first, from the glossary
    data file (docsys.core.glossary); none for a site without a glossary page in that language."""
    if not (docs_dir / lang / "glossary.md").is_file():
        return ()
    try:
        terms = glossary.load(data)
    except (OSError, glossary.GlossaryError) as error:
        raise PluginError(f"search: the {lang} glossary cannot be read: {error}") from None
    names = (term.word(lang).lower() for term in terms)
    shape = _HAN_TERM_RE if lang in SEGMENTED else _LATIN_TERM_RE
    return tuple(sorted({n for n in names if shape.fullmatch(n)}, key=lambda n: (-len(n), n)))
