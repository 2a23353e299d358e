"""Reading Markdown as text, the way MkDocs sees its structure: fences, headings, anchors.

Standard library only (shared by the build extensions and the checks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FENCE_OPEN_RE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*)$")
HEADING_RE = re.compile(r"^(?P<level>#{1,6})[ \t]+(?P<text>.*?)[ \t]*$")
ANCHOR_RE = re.compile(r"\{[ \t]*#(?P<id>[A-Za-z0-9_-]+)[^}]*\}$")
PYTHON_LANGS = {"python", "py", "python3", "py3", "pycon", "ipython", "ipython3"}
TOKEN_RE = re.compile(r"\{\{\s*(?P<fn>ratio|value):\s*(?P<args>[^}]*?)\s*\}\}")  # docsys.build.claims
EXAMPLE_RE = re.compile(
    r'^(?P<indent>[ \t]*):::[ \t]+example[ \t]+(?P<target>[^\s"]+)(?P<options>(?:[ \t]+\w+="[^"]*")*)[ \t]*$'
)
# kineto, torch's profiler backend, logs `USDT:<time> <pid>:<tid> SyncActivityProfilerHandler.cpp:52]
# profiler_start` (and `profiler_stop`) on stderr whenever a profiler starts and stops (pytorch/kineto#1325),
# whatever the program does: an output block leaves those lines out and says so under it.
# The fenced languages the tests run on a page (pytest-codeblocks), each with the cell magic its notebook
# cell starts with (docsys.build.page_notebooks).
RUNNABLE_FENCES = {"python": "", "bash": "%%bash\n", "sh": "%%bash\n"}
NEEDS_CUDA_TAG = "needs-cuda"  # a page notebook's GPU-only cells, left out where no CUDA GPU is (docsys.notebook.pages)
PROFILER_LOG_RE = re.compile(r"^(?:\[rank\d+\] )?USDT:.*\] profiler_(?:start|stop)\s*$")
# A section marker of pymdownx.snippets (`# --8<-- [start:setup]`): a page never shows it.
SECTION_MARKER_RE = re.compile(r"^[ \t]*#[ \t]*-{1,}8<-{1,}[ \t]*\[(?:start|end):[\w-]+\][ \t]*$")
_OPTION_RE = re.compile(r'(\w+)="([^"]*)"')
# Evidence beside a sentence, kept out of the HTML (docsys.build.evidence): where a statement about
# PyTorch comes from (`source:`), which recorded output shows it (`shown:`), or why a comparison needs
# no measurement (`general:`).
EVIDENCE_RE = re.compile(r"<!--\s*(?P<kind>source|shown|general):\s*(?P<body>.*?)\s*-->")


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


def inside_fences(lines: list[str]) -> set[int]:
    """Indexes of the lines that belong to a fenced block (its fences included)."""
    return {i for fence in fences(lines) for i in range(fence.start, fence.end + 1)}


def outside_fences(lines: list[str]) -> list[tuple[int, str]]:
    """(index, line) pairs of lines that are not inside a fenced block."""
    inside = inside_fences(lines)
    return [(i, line) for i, line in enumerate(lines) if i not in inside]


@dataclass(frozen=True)
class ExampleDirective:
    """A page's `::: example <snippet>[:<section>] [name="value" ...]` line (docsys.build.examples)."""

    line: int  # 0-based index in the page's lines
    indent: str
    target: str  # `ddp/train.py`, or `ddp/train.py:setup` for a named section
    options: dict[str, str]

    @property
    def snippet(self) -> str:
        return self.target.split(":", 1)[0]

    @property
    def section(self) -> str | None:
        return self.target.split(":", 1)[1] if ":" in self.target else None


def example_directives(lines: list[str]) -> list[ExampleDirective]:
    """The page's examples in order, not counting lines inside fenced blocks: the one parser of
    `::: example`, used by the build, the figures hook and the test collector."""
    return [ExampleDirective(i, m["indent"], m["target"], dict(_OPTION_RE.findall(m["options"])))
            for i, line in outside_fences(lines) if (m := EXAMPLE_RE.match(line))]


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


def tokens(markdown: str) -> list[str]:
    """The claims a page makes about measured numbers (docsys.build.claims), outside fences,
    whitespace-normalized and sorted: parity compares them between languages."""
    lines = markdown.split("\n")
    fenced = inside_fences(lines)
    found = [" ".join(m[0].split()) for i, line in enumerate(lines) if i not in fenced for m in TOKEN_RE.finditer(line)]
    return sorted(found)


def split_front_matter(text: str) -> tuple[list[str], list[str]]:
    """(the YAML front matter's lines without its `---` fences, the page's other lines)."""
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return lines[1:i], lines[i + 1 :]
    return [], lines


@dataclass(frozen=True)
class Section:
    anchor: str
    level: int
    title: str  # the heading's text without its `{ #id }`
    lines: tuple[str, ...]  # the heading line, then the body up to the next anchored heading


def heading_title(text: str) -> str:
    return ANCHOR_RE.sub("", text).strip()


def sections(markdown: str) -> list[Section]:
    """The page cut at each anchored heading (any level), outside fences and front matter; what
    precedes the first heading is not part of any section."""
    _, lines = split_front_matter(markdown)
    fenced = inside_fences(lines)
    starts = []
    for i, line in enumerate(lines):
        m = None if i in fenced else HEADING_RE.match(line)
        anchor = ANCHOR_RE.search(m["text"]) if m else None
        if m and anchor:
            starts.append((i, len(m["level"]), anchor["id"], heading_title(m["text"])))
    ends = [start for start, *_ in starts[1:]] + [len(lines)]
    return [Section(anchor, level, title, tuple(lines[i:end]))
            for (i, level, anchor, title), end in zip(starts, ends, strict=True)]


def section_text(markdown: str, anchor: str) -> str | None:
    """The section at `anchor` with its subsections (up to the next heading of its level or
    higher), or None when the page has no such anchor."""
    found = sections(markdown)
    for i, section in enumerate(found):
        if section.anchor == anchor:
            inner = [section, *[s for s in _until_same_level(found[i + 1 :], section.level)]]
            return "\n".join(line for s in inner for line in s.lines)
    return None


def _until_same_level(rest: list[Section], level: int) -> list[Section]:
    taken = []
    for section in rest:
        if section.level <= level:
            break
        taken.append(section)
    return taken
