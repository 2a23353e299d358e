"""Fixtures of the tooling tests: the fixture site and the small search site, each built once, and copies
of them to plant faults in."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from docsys.checks.site import Build, build
from docsys.core import verdict
from tests.tooling import minisite, search_site
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
    monkeypatch.setattr(verdict, "LOAD_LIMIT", 1e9)


@pytest.fixture(scope="module")
def small_search_site(tmp_path_factory, worker_id) -> Path:
    """The small search site (tests/tooling/search_site.py), built once per test run (shared by the workers
    and the search, downloads and contrast tests); tests plant faults in copies."""
    return minisite.shared(tmp_path_factory, worker_id, "small-site-search", search_site.build_small_site)


@pytest.fixture
def planted(small_search_site, tmp_path) -> Callable[[Callable[[Path], None]], Path]:
    """A copy of the small search site with a fault written into it by `plant(site_dir)`."""

    def copy_with(plant: Callable[[Path], None]) -> Path:
        site = tmp_path / "site"
        shutil.copytree(small_search_site, site)
        plant(site)
        return site

    return copy_with
