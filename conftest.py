"""Project-wide pytest wiring: the page examples (docsys.checks.collect), markers that skip with a reason."""

from __future__ import annotations

import time

import pytest

from docsys.core.markers import MARKERS, skip_reason
from docsys.core.paths import ARTIFACTS_DIR, ROOT

pytest_plugins = ["docsys.checks.collect", "docsys.checks.schedule"]
_STARTED = time.time()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives a real Chromium for many seconds; `make test` runs it, `make check` does not"
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    reason = skip_reason([m.name for m in item.iter_markers() if m.name in MARKERS])
    if reason:
        pytest.skip(reason)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Name the artifacts this run wrote, so a person can look at them."""
    written = [p for p in sorted(ARTIFACTS_DIR.glob("*")) if p.stat().st_mtime >= _STARTED]
    if written and not hasattr(config, "workerinput"):
        terminalreporter.write_sep("-", "test artifacts")
        for path in written:
            terminalreporter.write_line(str(path.relative_to(ROOT)))
