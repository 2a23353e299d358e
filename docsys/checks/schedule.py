"""pytest plugin: run the longest tests first, so that no worker is left with a long one at the end,
and give each worker whole test modules, so that a module-scoped fixture is set up once per run.

Items move in units (unit_of): a test module keeps its items together, in their order; each page
example is a unit of its own (examples share no fixture). pytest-xdist hands units to workers in
collection order as each worker frees up (`--dist=loadscope --no-loadscope-reorder`, with the units
defined here: `pytest_xdist_make_scheduler`); `-n auto` starts one worker more than there are cores.
Started last, a two-minute example would keep one worker busy while the others idle; started first,
the short items fill in around it (longest-processing-time-first).

How long an item takes is what it took in the last run on this machine (`.cache/test-durations.json`,
written by the controller at the end of every run, git-ignored), else for an example the seconds
its recording took, else UNKNOWN_SECONDS. The first test that needs the shared site build counts
the build's time too: the other workers wait for that build. Sorting is stable and reads only
files that the run does not change, so every worker collects the same order.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from docsys.core import recording

DURATIONS_FILE = Path(".cache") / "test-durations.json"
UNKNOWN_SECONDS = 1.0
SITE_BUILD_SECONDS = 30.0  # a build of the real site with warm caches, on 2 busy cores
SITE_FIXTURE = "built_site"


def _durations_path(config: pytest.Config) -> Path:
    return config.rootpath / DURATIONS_FILE


def last_durations(config: pytest.Config) -> dict[str, float]:
    path = _durations_path(config)
    try:
        return {k: float(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def recorded_seconds(item: pytest.Item) -> float | None:
    snippet = getattr(item, "snippet", None)
    found = recording.read(snippet) if snippet is not None else None
    return float(found.data.get("seconds", 0.0)) if found is not None else None


def expected_seconds(items: list[pytest.Item], durations: dict[str, float]) -> dict[str, float]:
    expected, site_counted = {}, False
    for item in items:
        seconds = durations.get(item.nodeid)
        if seconds is None:
            seconds = recorded_seconds(item)
        if seconds is None:
            seconds = UNKNOWN_SECONDS
            if not site_counted and SITE_FIXTURE in getattr(item, "fixturenames", ()):
                seconds += SITE_BUILD_SECONDS
        site_counted = site_counted or SITE_FIXTURE in getattr(item, "fixturenames", ())
        expected[item.nodeid] = seconds
    return expected


def unit_of(nodeid: str) -> str:
    """What moves as one block: a test module (its items stay together and in order on one worker,
    so that a module-scoped fixture is set up once, not again after every interruption), or one
    page example (examples share no fixture)."""
    file = nodeid.split("::", 1)[0]
    return nodeid if file.endswith(".md") else file


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """pytest-xdist's loadscope scheduling with unit_of's units as its scopes, in collection order
    (longest first: pytest_collection_modifyitems), for `-n N` (xdist's default `--dist load`) or
    `--dist loadscope`; another `--dist` given on the command line is left to xdist. Set here, not
    in addopts, so that the suite also runs without xdist (`-p no:xdist`). (xdist's own
    `xdist_group` marks do nothing under pytest 9.2: pytest-xdist issue #1386.)"""
    if config.getoption("dist") not in ("load", "loadscope"):
        return None
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False
    class UnitScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    return UnitScheduling(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores this process may use. About a quarter of a run's
    time, a worker waits rather than computes (pages loading in the browser, ranks meeting, planted
    hangs timing out); the extra worker fills those waits (2 cores: 380 s with 2 workers, 360 s
    with 3, 364 s with 4)."""
    return len(os.sched_getaffinity(0)) + 1


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    expected = expected_seconds(items, last_durations(config))
    total: dict[str, float] = {}
    for item in items:
        total[unit_of(item.nodeid)] = total.get(unit_of(item.nodeid), 0.0) + expected[item.nodeid]
    items.sort(key=lambda item: -total[unit_of(item.nodeid)])


class _Timings:
    """Collects each item's setup + call + teardown seconds in the process that reports them."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration


_TIMINGS = pytest.StashKey[_Timings]()


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist) sees every report
        timings = _Timings()
        config.stash[_TIMINGS] = timings
        config.pluginmanager.register(timings, "docsys-schedule-timings")


def pytest_sessionfinish(session: pytest.Session) -> None:
    timings = session.config.stash.get(_TIMINGS, None)
    if timings is None or not timings.seconds:
        return
    path = _durations_path(session.config)
    merged = {**last_durations(session.config), **{k: round(v, 2) for k, v in timings.seconds.items()}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(merged, indent=0, sort_keys=True), encoding="utf-8")
