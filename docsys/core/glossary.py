"""The site's terms, from glossary.toml beside this module: one source for both glossary pages
(rendered by docsys.build.glossary) and for the terminology checks (docsys.checks.glossary).

Standard library only (tomllib), like the rest of docsys.core.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

GLOSSARY_FILE = Path(__file__).with_name("glossary.toml")
_SEE_RE = re.compile(r"^(?P<page>[\w./-]+\.md)#(?P<anchor>[A-Za-z0-9_-]+)$")


class GlossaryError(ValueError):
    """The data file is malformed: one line naming the term and what is wrong."""


@dataclass(frozen=True)
class Term:
    en: str
    zh: str
    see: str  # "page.md#anchor": the section that explains the term
    definition: dict[str, str]  # language -> one sentence
    avoid: dict[str, tuple[str, ...]]  # language -> renderings the pages of that language do not use

    def word(self, lang: str) -> str:
        """The term as the pages of `lang` write it."""
        return self.zh if lang == "zh" else self.en

    @property
    def page(self) -> str:
        return self.see.split("#", 1)[0]

    @property
    def anchor(self) -> str:
        return self.see.split("#", 1)[1]


def _term(raw: dict, langs: tuple[str, ...]) -> Term:
    name = raw.get("en", "?")
    missing = [key for key in ("en", "zh", "see", "definition") if key not in raw]
    missing += [f"definition.{lang}" for lang in langs if lang not in raw.get("definition", {})]
    if missing:
        raise GlossaryError(f"glossary term '{name}': missing {', '.join(missing)}")
    if not _SEE_RE.match(raw["see"]):
        raise GlossaryError(f"glossary term '{name}': see = '{raw['see']}' is not 'page.md#anchor'")
    unknown = set(raw) - {"en", "zh", "see", "definition", *(f"{lang}_avoid" for lang in langs)}
    if unknown:
        raise GlossaryError(f"glossary term '{name}': unknown key(s) {sorted(unknown)}")
    avoid = {lang: tuple(raw.get(f"{lang}_avoid", ())) for lang in langs}
    return Term(raw["en"], raw["zh"], raw["see"], dict(raw["definition"]), avoid)


def parse(text: str, langs: tuple[str, ...] = ("en", "zh")) -> list[Term]:
    """The terms of a glossary file's text, in order; GlossaryError names the first malformed one."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise GlossaryError(f"glossary: not valid TOML: {error}") from None
    terms = [_term(raw, langs) for raw in data.get("term", [])]
    seen: set[str] = set()
    for term in terms:
        if term.en in seen:
            raise GlossaryError(f"glossary term '{term.en}' is listed twice")
        seen.add(term.en)
    return terms


def load(path: Path = GLOSSARY_FILE) -> tuple[Term, ...]:
    return tuple(parse(path.read_text(encoding="utf-8")))
