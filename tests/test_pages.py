"""Every runnable block on every page, after snippet includes are expanded, runs and
prints what the page shows under it."""

from __future__ import annotations

import pytest

from docsys.codeblocks import execute, output_problem, page_blocks, pytest_marks, unrun_python_fences
from docsys.pages import expand, expand_with_origins, includes, rel_page
from docsys.paths import LANGS, SNIPPETS_DIR, page_paths

PAGES = [p for lang in LANGS for p in page_paths(lang)]
BLOCKS = [b for page in PAGES for b in page_blocks(page)]


def _param(block):
    return pytest.param(block, id=block.id, marks=pytest_marks(block))


@pytest.mark.parametrize("block", [_param(b) for b in BLOCKS])
def test_page_block_runs_and_prints_what_is_shown(block):
    printed = execute(block)
    problem = output_problem(block, printed)
    assert problem is None, problem


@pytest.mark.parametrize("page", PAGES, ids=rel_page)
def test_every_python_fence_is_run_or_marked_with_a_reason(page):
    problems = unrun_python_fences(page)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=rel_page)
def test_line_by_line_expansion_matches_mkdocs_expansion(page):
    text = page.read_text(encoding="utf-8")
    assert [line.text for line in expand_with_origins(text)] == expand(text).split("\n")


def test_every_snippet_is_shown_on_a_page():
    shown = {target.split(":", 1)[0] for page in PAGES for target in includes(page.read_text(encoding="utf-8"))}
    unused = sorted(
        p.relative_to(SNIPPETS_DIR).as_posix()
        for p in SNIPPETS_DIR.rglob("*.py")
        if p.relative_to(SNIPPETS_DIR).as_posix() not in shown
    )
    assert not unused, f"snippets no page includes (show them or delete them): {unused}"
