"""Project-wide pytest wiring: the markers of docsys.markers, and skips that say why."""

from __future__ import annotations

import time

import pytest

from docsys.markers import MARKERS, skip_reason
from docsys.paths import ARTIFACTS_DIR, ROOT

_STARTED = time.time()


def pytest_configure(config: pytest.Config) -> None:
    for marker in MARKERS.values():
        config.addinivalue_line("markers", f"{marker.name}: {marker.description}")


def pytest_runtest_setup(item: pytest.Item) -> None:
    reason = skip_reason([m.name for m in item.iter_markers() if m.name in MARKERS])
    if reason:
        pytest.skip(reason)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Make `--dist=loadgroup` group again under pytest 9.2 (pytest-xdist 3.8.0 is the newest).

    xdist marks an item's group by setting `item._nodeid = "<id>@<group>"`, but pytest 9.2 derives
    `nodeid` from `item._id`, so the suffix was lost and every xdist_group("site") test could land
    on any worker, each worker then building the site and starting a browser of its own.
    """
    from _pytest.nodeid import NodeId

    for item in items:
        grouped = getattr(item, "_nodeid", None)
        if isinstance(grouped, str) and "@" in grouped and item.nodeid != grouped:
            item._id = NodeId.parse(grouped)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory):
    """One strict build per test session (tests using it share an xdist group)."""
    from docsys.site import build

    return build(tmp_path_factory.mktemp("site"))


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Name the artifacts this run wrote, so a person can look at them."""
    written = [p for p in sorted(ARTIFACTS_DIR.glob("*")) if p.stat().st_mtime >= _STARTED]
    if written and not hasattr(config, "workerinput"):
        terminalreporter.write_sep("-", "test artifacts")
        for path in written:
            terminalreporter.write_line(str(path.relative_to(ROOT)))
