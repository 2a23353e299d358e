"""zh/en parity: every page in both languages, with the same anchors, the same examples in the
same order, the same claims about measured numbers (docsys.build.claims), and — as FastAPI's
translation checker holds its translations to the English structure — the same links in each
section, the same code blocks, the same figures and graphs, and the same admonitions.

What may differ is the language: link texts, alt texts, admonition titles, comments in code.
Links are compared per section and as a set of targets, because a Chinese sentence may name two
links in the other order; code blocks, figures and admonitions are compared in page order.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from docsys.checks.pages import examples
from docsys.core.paths import DEFAULT_LANG, DOCS_DIR, LANGS
from docsys.core.text import fences, headings, inside_fences, sections, tokens

_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_MD_LINK = re.compile(r"(?<![!\\])\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?(?P<url>[^)\s>]+)>?(?:\s+[\"'][^\"']*[\"'])?\s*\)")
_MD_IMAGE = re.compile(r"!\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?(?P<url>[^)\s>]+)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*<?(?P<url>\S+?)>?(?:\s|$)", re.M)
_AUTOLINK = re.compile(r"<(?P<url>https?://[^>\s]+)>")
_HTML_HREF = re.compile(r"<a\b[^>]*\bhref=[\"'](?P<url>[^\"']+)[\"']", re.I)
_HTML_IMG = re.compile(r"<img\b[^>]*\bsrc=[\"'](?P<url>[^\"']+)[\"']", re.I)
_ADMONITION = re.compile(r"^[ \t]*(?P<marker>!!!|\?\?\?\+?)[ \t]+(?P<kind>[\w-]+)")
_SHELL_COMMENT = re.compile(r"(?:^|(?<=\s))#.*$")
_TITLE = re.compile(r"""\s*title=("[^"]*"|'[^']*')""")
COMMENTED = {"python", "py", "bash", "sh", "shell", "console", "yaml", "yml", "toml", "make", "makefile"}


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


def _prose(lines: list[str]) -> list[str]:
    """The lines outside fenced code, with inline code and HTML comments blanked."""
    fenced = inside_fences(lines)
    text = _COMMENT.sub(lambda m: "\n" * m.group().count("\n"), "\n".join(lines))
    return [_INLINE_CODE.sub("", line) for i, line in enumerate(text.split("\n")) if i not in fenced]


def links(text: str) -> dict[str, Counter]:
    """anchor -> the link targets in that section (Markdown, reference, autolink and HTML links; a
    link's text may run over several lines)."""
    found = {}
    for section in sections(text):
        prose = _MD_IMAGE.sub("", "\n".join(_prose(list(section.lines))))
        found[section.anchor] = Counter(m["url"] for p in (_MD_LINK, _REF_DEF, _AUTOLINK, _HTML_HREF)
                                        for m in p.finditer(prose))
    return found


def figures(text: str) -> list[str]:
    """Image sources in page order: pictures, and graphs and figures drawn at build time
    (`graph:<snippet>#<var>`, `figure:<snippet>#<var>`)."""
    prose = "\n".join(_prose(text.split("\n")))
    found = [(m.start(), m["url"]) for p in (_MD_IMAGE, _HTML_IMG) for m in p.finditer(prose)]
    return [url for _, url in sorted(found)]


def admonitions(text: str) -> list[str]:
    """Admonition kinds in page order (`!!! warning`, `??? note`); their titles are translated freely."""
    return [f"{m['marker']} {m['kind']}" for line in _prose(text.split("\n")) if (m := _ADMONITION.match(line))]


def code_blocks(text: str) -> list[tuple[str, int, tuple[str, ...]]]:
    """Typed code blocks in page order: (info string without its translated title, line count, the lines
    without comments)."""
    found = []
    for fence in fences(text.split("\n")):
        body = fence.body
        if fence.lang in COMMENTED:
            body = [_SHELL_COMMENT.sub("", line).rstrip() for line in body]
        found.append((_TITLE.sub("", fence.info).strip(), len(fence.body), tuple(body)))
    return found


def _differ(label: str, what: str, en: list, other: list) -> list[str]:
    return [] if en == other else [f"{label}: {what} differ from en:\n  en: {en}\n  tr: {other}"]


def _link_problems(label: str, en: dict[str, Counter], other: dict[str, Counter]) -> list[str]:
    problems = []
    for anchor in en.keys() & other.keys():
        only_en, only_tr = en[anchor] - other[anchor], other[anchor] - en[anchor]
        if only_en or only_tr:
            problems.append(f"{label}: links in #{anchor} differ from en: only in en {sorted(only_en.elements())}, "
                            f"only here {sorted(only_tr.elements())}")
    return sorted(problems)


def _code_problems(label: str, en: list, other: list) -> list[str]:
    if len(en) != len(other):
        return [f"{label}: {len(other)} code blocks, en has {len(en)}"]
    problems = []
    for number, (a, b) in enumerate(zip(en, other, strict=True), start=1):
        if a[0] != b[0]:
            problems.append(f"{label}: code block {number} is fenced as '{b[0]}', en as '{a[0]}'")
        elif a[1] != b[1] or a[2] != b[2]:
            problems.append(f"{label}: code block {number} ('{a[0]}') differs from en in its code "
                            "(only comments may be translated, line for line)")
    return problems


def compare(en_text: str, other_text: str, label: str) -> list[str]:
    """Differences between a page and its translation that break parity."""
    return (
        _differ(label, "anchors", [h.anchor for h in headings(en_text)], [h.anchor for h in headings(other_text)])
        + _differ(label, "examples (same snippets, same order)", examples(en_text), examples(other_text))
        + _differ(label, "claims about measured numbers ({{ ratio/value: }} tokens)", tokens(en_text),
                  tokens(other_text))
        + _link_problems(label, links(en_text), links(other_text))
        + _code_problems(label, code_blocks(en_text), code_blocks(other_text))
        + _differ(label, "figures and graphs (same images, same order)", figures(en_text), figures(other_text))
        + _differ(label, "admonitions (same kinds, same order)", admonitions(en_text), admonitions(other_text))
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
