"""Fixtures of the tooling tests: the fixture site, built once, and copies of it to plant faults in."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsys.checks.site import Build, build
from docsys.core import check
from tests.tooling.site_fixture import FIXTURE, copy_fixture


@pytest.fixture
def fixture_copy(tmp_path: Path) -> Path:
    """A copy of the fixture site to plant a fault in; returns its folder."""
    return copy_fixture(tmp_path)


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return build(tmp_path_factory.mktemp("fixture-site"), FIXTURE / "mkdocs.yml")


@pytest.fixture(autouse=True)
def quiet_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tools are tested on whatever machine runs the tests: a busy one must not refuse their benchmarks
    (tests of the refusal set the limit themselves)."""
    monkeypatch.setattr(check, "LOAD_LIMIT", 1e9)
