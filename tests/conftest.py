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
