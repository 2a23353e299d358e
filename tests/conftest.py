"""Project-wide pytest wiring: the markers of docsys.markers, and skips that say why."""

from __future__ import annotations

import pytest

from docsys.markers import MARKERS, skip_reason


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
