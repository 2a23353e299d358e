"""Fixtures shared by the tests: one strict build of the real site per test run, shared by every worker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from filelock import FileLock

from docsys.checks.browser import launch
from docsys.checks.site import Build, build


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for the tests of one module (tests that use it are marked or slow: seconds each)."""
    with launch() as browser:
        yield browser


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Build:
    """`mkdocs build --strict` of the real site, once per test run: under pytest-xdist the first worker
    to ask builds it into the run's shared temporary folder, and the others wait for it and reuse it."""
    shared = tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent
    site, done = shared / "site", shared / "site.json"
    with FileLock(str(shared / "site.lock")):
        if not done.exists():
            result = build(site)
            done.write_text(json.dumps({"returncode": result.returncode, "log": result.log}), encoding="utf-8")
    data = json.loads(done.read_text(encoding="utf-8"))
    return Build(Path(site), data["returncode"], data["log"])
