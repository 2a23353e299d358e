"""Python-Markdown extension: `::: glossary` becomes the glossary table, in the page's language.

Both glossary pages (docs/en/glossary.md, docs/zh/glossary.md) hold only their own prose and
this one line; the terms come from docsys/core/glossary.toml (docsys.core.glossary). Each row
links to the section that explains the term, named by that page's title and section heading in
the reader's language, read from the page itself (a link to a missing anchor fails the strict
build like any other). Column headers are in strings.yml.
"""

from __future__ import annotations

import logging
import posixpath
import re
from pathlib import Path

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from docsys.build.config import page_of
from docsys.build.strings import strings
from docsys.core import glossary
from docsys.core.paths import page_lang
from docsys.core.text import heading_title, headings, inside_fences, sections

log = logging.getLogger("mkdocs.extensions.glossary")
DIRECTIVE_RE = re.compile(r"^:::[ \t]+glossary[ \t]*$")


def _cell(text: str) -> str:
    return text.replace("|", r"\|")


def _see_text(target: Path, anchor: str) -> str | None:
    """'Page title › Section' (or the page title alone for its top section), None if absent."""
    if not target.is_file():
        return None
    markdown = target.read_text(encoding="utf-8")
    titles = [heading_title(h.text) for h in headings(markdown) if h.level == 1]
    page_title = titles[0] if titles else target.stem
    for section in sections(markdown):
        if section.anchor == anchor:
            return page_title if section.level == 1 else f"{page_title} › {section.title}"
    return None


def table(terms: tuple[glossary.Term, ...], lang: str, lang_dir: Path | None, page_dir: str = "") -> list[str]:
    """The glossary as Markdown table rows in `lang`; lang_dir holds the pages the rows link to."""
    s = strings(lang)
    other = "zh" if lang == "en" else "en"
    avoid = any(term.avoid.get(lang) for term in terms)
    header = [s["glossary_term"], s["glossary_other"], s["glossary_definition"], s["glossary_see"]]
    header += [s["glossary_avoid"]] if avoid else []
    rows = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for term in terms:
        found = _see_text(lang_dir / term.page, term.anchor) if lang_dir else None
        if lang_dir and found is None:
            log.warning(f"glossary term '{term.en}': see = '{term.see}' names no section of {lang}/{term.page}")
        link = posixpath.relpath(term.page, page_dir or ".") + f"#{term.anchor}"
        cells = [f"**{term.word(lang)}**", term.word(other), term.definition[lang], f"[{found or term.see}]({link})"]
        cells += [("、" if lang == "zh" else ", ").join(term.avoid.get(lang, ())) or "—"] if avoid else []
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return rows


class GlossaryPreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        fenced, out = inside_fences(lines), []
        for i, line in enumerate(lines):
            if i not in fenced and DIRECTIVE_RE.match(line):
                out += self._table()
            else:
                out.append(line)
        return out

    def _table(self) -> list[str]:
        uri = page_of(self.md)
        lang = page_lang(uri)
        file = getattr(self.md.treeprocessors["relpath"], "file", None) if "relpath" in self.md.treeprocessors \
            else None
        source = Path(file.abs_src_path) if file is not None and file.abs_src_path else None
        lang_dir = source.parent if source else None  # glossary.md sits in its language's folder
        try:
            return ["", *table(glossary.load(), lang, lang_dir), ""]
        except glossary.GlossaryError as error:
            log.warning(f"{uri}: {error}")
            return []


class GlossaryExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        md.preprocessors.register(GlossaryPreprocessor(md), "glossary", 34)


def makeExtension(**kwargs) -> GlossaryExtension:
    return GlossaryExtension(**kwargs)
