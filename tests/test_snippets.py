"""Every snippet runs in a fresh subprocess and reproduces its recorded output."""

from __future__ import annotations

import pytest

from docsys.markers import MARKERS
from docsys.paths import OUTPUT_SUFFIX, SNIPPETS_DIR
from docsys.snippets import discover, failure_message, run

SNIPPETS = discover()


def _param(snippet):
    return pytest.param(snippet, id=snippet.rel, marks=[getattr(pytest.mark, m) for m in snippet.marks])


@pytest.mark.parametrize("snippet", [_param(s) for s in SNIPPETS])
def test_snippet_reproduces_recorded_output(snippet):
    message = failure_message(snippet, run(snippet))
    assert message is None, message


def test_every_recording_has_its_snippet():
    orphans = [
        p.relative_to(SNIPPETS_DIR).as_posix()
        for p in SNIPPETS_DIR.rglob(f"*{OUTPUT_SUFFIX}")
        if not p.with_suffix(".py").exists()
    ]
    assert not orphans, f"recorded outputs without a snippet (delete them): {orphans}"


def test_snippet_marks_are_declared():
    assert {m for s in SNIPPETS for m in s.marks} <= set(MARKERS)
