"""docsys.checks.next: snippets against another torch — identical, changed, failed, build differences."""

from __future__ import annotations

import sys

import pytest

from docsys.checks import next as nxt
from docsys.core.snippet import load
from docsys.core.verdict import check

FACTS = {"torch": "2.13.0+cpu", "cuda_build": False, "nccl": False, "python": "3.11.7"}


@pytest.fixture
def snippets(tmp_path):
    def make(name, body, marks=""):
        path = tmp_path / name
        path.write_text((f"# marks: {marks}\n" if marks else "") + body, encoding="utf-8")
        assert check(load(path, tmp_path), update=True).ok
        return path

    same = make("same.py", 'print("same")\n')
    changed = make("changed.py", 'print("old")\n')
    changed.with_suffix(".out").write_text("older\n")  # as if the other torch printed something else
    fails = make("fails.py", 'print("ok")\n')
    fails.write_text('import warnings\nwarnings.warn("soon gone", FutureWarning)\nraise SystemExit("boom")\n')
    fallback = make("fallback.py", 'print("fallback")\n', marks="cpu_only")
    fallback.with_suffix(".out").write_text("no CUDA here\n")
    return [load(p, tmp_path) for p in (same, changed, fails, fallback)]


def test_the_report_sorts_what_changed_and_why(snippets, tmp_path, monkeypatch):
    monkeypatch.setattr(nxt, "torch_facts_here", lambda: FACTS)
    monkeypatch.setattr(nxt, "torch_facts", lambda python: {**FACTS, "torch": "2.14.1", "cuda_build": True})
    report_path = tmp_path / "report.md"
    assert nxt.next_command(snippets, sys.executable, report_path) == 1
    report = report_path.read_text()
    assert "- 1 identical, 1 changed, 1 failed, 1 differ because of the build, 0 skipped" in report
    assert "### changed.py" in report and "-older" in report and "+old" in report
    assert "### fails.py" in report and "boom" in report
    assert "## Build differences (not the version)\n\n### fallback.py" in report
    assert "`fails.py`: + FutureWarning: soon gone" in report
    assert "a deprecation the warnings policy will fail on" in report
    for snippet in snippets:  # the recordings are untouched
        assert "2.14.1" not in snippet.record_path.read_text()


def test_a_difference_naming_only_cuda_is_the_build():
    assert nxt.only_build_lines("--- a\n+++ b\n+W... No CUDA runtime is found, using CUDA_HOME\n x\n")
    assert not nxt.only_build_lines("--- a\n+++ b\n-old value\n+new value\n")
    assert not nxt.only_build_lines("--- a\n+++ b\n context\n")
