"""The small site that the browser tests of search, downloads and contrast share (docsys/checks/search.py,
downloads.py, contrast.py): built once per test run with the project's configuration (minisite.py);
each fault is planted in a copy of its output (the `planted` fixture, tests/tooling/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from docsys.checks.browser import Tab
from docsys.checks.downloads import serve_gzip
from docsys.checks.search import Query
from tests.tooling import minisite

BUDGET = 150_000
EN_QUERY = Query("en", "autocast", "mixed-precision")
ZH_QUERY = Query("zh", "混合精度", "mixed-precision")


def build_small_site(tmp: Path) -> Path:
    return minisite.build(minisite.write_docs(tmp), tmp / "site").path


def edit(site: Path, pattern: str, old: str, new: str) -> None:
    files = [f for f in site.glob(pattern) if old in f.read_text(encoding="utf-8")]
    assert files, f"nothing to plant: {old!r} is in no {pattern}"
    for file in files:
        file.write_text(file.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def on(browser, site: Path, path: str, check: Callable[[Tab], list[str]]) -> list[str]:
    with serve_gzip(site) as base:
        tab = Tab(browser, base)
        try:
            tab.open(path)
            return check(tab)
        finally:
            tab.close()
