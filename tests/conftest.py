"""Fixtures shared by the tests: one strict build of the real site per test run, shared by every worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsys.checks.browser import launch
from docsys.checks.site import Build, build
from tests.once import once_per_run


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for the tests of one module (tests that use it are marked or slow: seconds each)."""
    with launch() as browser:
        yield browser


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Build:
    """`mkdocs build --strict` of the real site, once per test run: under pytest-xdist the first worker
    to ask builds it into the run's shared temporary folder, and the others wait for it and reuse it."""

    def build_into(site: Path) -> dict:
        result = build(site)
        return {"path": str(site), "returncode": result.returncode, "log": result.log}

    data = once_per_run(tmp_path_factory, worker_id, "site", build_into)
    return Build(Path(data["path"]), data["returncode"], data["log"])
