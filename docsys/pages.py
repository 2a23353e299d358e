"""Read pages the way MkDocs does: expand snippet includes, then find fences and anchors.

Expansion uses pymdownx.snippets' own preprocessor configured from mkdocs.yml, so the
code the tests run is the code the reader sees.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import markdown
from mkdocs.utils import yaml_load

from docsys.paths import DOCS_DIR, MKDOCS_YML, ROOT

INCLUDE_RE = re.compile(r"""^(?P<indent>[ \t]*)-+8<-+[ \t]+(?P<quote>["'])(?P<target>.+?)(?P=quote)[ \t]*$""")
FENCE_OPEN_RE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*)$")
HEADING_RE = re.compile(r"^(?P<level>#{1,6})[ \t]+(?P<text>.*?)[ \t]*$")
ANCHOR_RE = re.compile(r"\{[ \t]*#(?P<id>[A-Za-z0-9_-]+)[^}]*\}$")
PYTHON_LANGS = {"python", "py", "python3", "py3", "pycon", "ipython", "ipython3"}


@functools.cache
def _snippet_config() -> dict:
    with MKDOCS_YML.open(encoding="utf-8") as f:
        config = yaml_load(f)
    for ext in config["markdown_extensions"]:
        if isinstance(ext, dict) and "pymdownx.snippets" in ext:
            options = dict(ext["pymdownx.snippets"])
            options["base_path"] = [str(ROOT / p) for p in options.get("base_path", ["."])]
            return options
    raise RuntimeError("mkdocs.yml does not configure pymdownx.snippets")


def _preprocessor():
    md = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": _snippet_config()})
    return md.preprocessors["snippet"]


def expand(text: str) -> str:
    """The page's Markdown with every `--8<--` include replaced by what it includes."""
    return "\n".join(_preprocessor().run(text.split("\n")))


@dataclass(frozen=True)
class Line:
    text: str
    source_lineno: int  # 1-based line in the unexpanded page
    include: str | None  # the include target this line came from, if any


def expand_with_origins(text: str) -> list[Line]:
    """Expand includes line by line, remembering where every expanded line came from."""
    pre = _preprocessor()
    lines: list[Line] = []
    for lineno, raw in enumerate(text.split("\n"), start=1):
        match = INCLUDE_RE.match(raw)
        target = match["target"] if match else None
        for expanded in pre.run([raw]) if target else [raw]:
            lines.append(Line(expanded, lineno, target))
    return lines


@dataclass(frozen=True)
class Fence:
    start: int  # 0-based index of the opening fence line
    end: int  # index of the closing fence line
    indent: str
    marker: str
    info: str
    body: list[str]

    @property
    def lang(self) -> str:
        word = self.info.strip().lstrip("{").split(maxsplit=1)
        return word[0].lstrip(".").lower() if word else ""


def fences(lines: list[str]) -> list[Fence]:
    """Every fenced code block, including indented ones (admonitions, tabs) and ~~~ fences."""
    found: list[Fence] = []
    i = 0
    while i < len(lines):
        m = FENCE_OPEN_RE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, marker = m["indent"], m["fence"]
        close = re.compile(rf"^[ \t]*{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        body = [line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[i + 1 : j]]
        found.append(Fence(i, j, indent, marker, m["info"].strip(), body))
        i = j + 1
    return found


def outside_fences(lines: list[str]) -> list[tuple[int, str]]:
    """(index, line) pairs of lines that are not inside a fenced block."""
    inside: set[int] = set()
    for fence in fences(lines):
        inside.update(range(fence.start, fence.end + 1))
    return [(i, line) for i, line in enumerate(lines) if i not in inside]


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str | None


def headings(text: str) -> list[Heading]:
    found = []
    for _, line in outside_fences(text.split("\n")):
        m = HEADING_RE.match(line)
        if m:
            anchor = ANCHOR_RE.search(m["text"])
            found.append(Heading(len(m["level"]), m["text"], anchor["id"] if anchor else None))
    return found


def includes(text: str) -> list[str]:
    """The include targets of a page, in order (e.g. `autograd/leaf.py`)."""
    return [m["target"] for line in text.split("\n") if (m := INCLUDE_RE.match(line))]


def rel_page(path: Path) -> str:
    """`en/autograd.md` for a page under docs/, the file name for anything else."""
    return path.relative_to(DOCS_DIR).as_posix() if path.is_relative_to(DOCS_DIR) else path.name
