"""Page code blocks, extracted by pytest-codeblocks from the *expanded* page.

pytest-codeblocks only collects fences whose info string is exactly `python`, `sh` or
`bash`, and cannot see `--8<--` includes. So a page is first expanded with
pymdownx.snippets, its Python fence info strings are reduced to `python` (a `title=` or
`py` would otherwise hide a block from the runner), and only then handed to
`pytest_codeblocks.extract_from_buffer`. `unrun_python_fences` reports any Python fence
that still would not run.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from pytest_codeblocks.main import CodeBlock, extract_from_buffer

from docsys.pages import FENCE_OPEN_RE, PYTHON_LANGS, Line, expand_with_origins, fences, rel_page
from docsys.paths import ROOT, SNIPPETS_DIR
from docsys.snippets import Snippet, load, normalize, output_diff

RUNNABLE = {"python", "bash", "sh"}
_ALIASES = {"py": "python", "python3": "python", "py3": "python"}
_SKIP_MARK_RE = re.compile(r"^pytest\.mark\.(skip|skipif|xfail)\b")


@dataclass(frozen=True)
class PageBlock:
    page: str  # e.g. "en/autograd.md"
    source_lineno: int  # line of the opening fence in the unexpanded page
    includes: tuple[str, ...]  # include targets inside the block
    block: CodeBlock

    @property
    def id(self) -> str:
        origin = f" ({', '.join(self.includes)})" if self.includes else ""
        return f"{self.page}:{self.source_lineno}{origin}"

    @property
    def snippets(self) -> list[Snippet]:
        """The snippet files (not outputs) this block includes."""
        paths = [SNIPPETS_DIR / target.split(":", 1)[0] for target in self.includes]
        return [load(path) for path in dict.fromkeys(paths) if path.suffix == ".py" and path.exists()]

    @property
    def snippet_marks(self) -> tuple[str, ...]:
        """Markers declared by the snippet files this block includes."""
        return tuple(dict.fromkeys(mark for snippet in self.snippets for mark in snippet.marks))

    @property
    def launched_elsewhere(self) -> str | None:
        """Why a block must not run in-process: it is a multi-process script (`# launch:`)."""
        for snippet in self.snippets:
            if snippet.launch:
                return f"{snippet.rel} is launched as `{' '.join(snippet.launch)}` by tests/test_snippets.py"
        return None


def _plain_info(line: str) -> str:
    """Reduce a Python fence's info string to `python` so pytest-codeblocks collects it."""
    m = FENCE_OPEN_RE.match(line)
    if not m:
        return line
    words = m["info"].strip().split(maxsplit=1)
    lang = words[0].lower() if words else ""
    lang = _ALIASES.get(lang, lang)
    if lang in RUNNABLE:
        return f"{m['indent']}{m['fence']}{lang}"
    return line


def _prepared(path: Path) -> list[Line]:
    lines = expand_with_origins(path.read_text(encoding="utf-8"))
    return [Line(_plain_info(line.text), line.source_lineno, line.include) for line in lines]


def page_blocks(path: Path) -> list[PageBlock]:
    lines = _prepared(path)
    blocks = extract_from_buffer(io.StringIO("\n".join(line.text for line in lines) + "\n"))
    found = []
    for block in blocks:
        if block.syntax not in RUNNABLE:
            continue
        opening = block.lineno - 1  # pytest-codeblocks counts lines from 1
        body = lines[opening + 1 : opening + 1 + block.code.count("\n")]
        targets = tuple(dict.fromkeys(line.include for line in body if line.include))
        found.append(PageBlock(rel_page(path), lines[opening].source_lineno, targets, block))
    return found


def _reasonless_skips(block: PageBlock) -> list[str]:
    return [
        f"{block.id}: `{mark}` needs a reason='...' saying why the block is not run"
        for mark in block.block.marks
        if _SKIP_MARK_RE.match(mark) and not re.search(r"reason\s*=\s*['\"][^'\"]+['\"]", mark)
    ]


def unrun_python_fences(path: Path) -> list[str]:
    """Python fences on a page that the runner would not execute, and skips without a reason."""
    lines = _prepared(path)
    blocks = {b.block.lineno - 1: b for b in page_blocks(path)}
    problems = [p for block in blocks.values() for p in _reasonless_skips(block)]
    for fence in fences([line.text for line in lines]):
        if fence.lang not in PYTHON_LANGS:
            continue
        where = f"{rel_page(path)}:{lines[fence.start].source_lineno}"
        if fence.marker.startswith("~"):
            problems.append(f"{where}: a ~~~ fence is invisible to pytest-codeblocks; use ```python")
        elif fence.lang != "python":
            problems.append(f"{where}: '{fence.lang}' blocks are not executed; write a ```python block")
        elif fence.start not in blocks:
            problems.append(f"{where}: this Python block is not collected (used as expected output or `cont`?)")
    return problems


def pytest_marks(block: PageBlock) -> list[pytest.MarkDecorator]:
    """The block's own `<!--pytest.mark...-->` marks, its snippets' markers, and a skip for
    multi-process scripts, which only their launcher can run."""
    marks = [eval(mark, {"sys": sys, "pytest": pytest}) for mark in block.block.marks]  # noqa: S307
    marks += [getattr(pytest.mark, name) for name in block.snippet_marks]
    if reason := block.launched_elsewhere:
        marks.append(pytest.mark.skip(reason=reason))
    return marks


def execute(block: PageBlock) -> str:
    """Run one block the way a reader would and return what it printed."""
    code = block.block.code
    if block.block.syntax == "python":
        namespace = {"__name__": "__main__"}
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(code, f"<{block.id}>", "exec"), namespace)  # noqa: S102
        return buffer.getvalue()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    proc = subprocess.run(["/bin/bash", "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError(f"{block.id}: shell block exited {proc.returncode}\n{proc.stderr[-2000:]}")
    return proc.stdout


def output_problem(block: PageBlock, printed: str) -> str | None:
    expected = block.block.expected_output
    if expected is None or normalize(expected) == normalize(printed):
        return None
    return f"{block.id}: printed output differs from the output shown on the page:\n" + output_diff(
        expected, printed, block.id
    )
