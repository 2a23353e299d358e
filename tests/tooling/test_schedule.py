"""docsys.checks.schedule: the longest tests first, from the last run's durations; unknown ones keep their order."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from docsys.checks.schedule import unit_of
from docsys.core.paths import ROOT

pytest_plugins = ["pytester"]

MODULES = {
    "test_short": "def test_short():\n    pass\n",
    "test_long": "import time\n\ndef test_long():\n    time.sleep(0.3)\n",
    "test_unknown": "def test_unknown_a():\n    pass\n\ndef test_unknown_b():\n    pass\n",
}


@pytest.fixture
def project(pytester: pytest.Pytester):
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider -p no:randomly\n")
    pytester.makeconftest('pytest_plugins = ["docsys.checks.schedule"]\n')
    pytester.makepyfile(**MODULES)
    return pytester


def _order(project: pytest.Pytester) -> list[str]:
    result = project.runpytest_subprocess("--collect-only", "-q")
    return [line.split("::")[1] for line in result.stdout.lines if "::" in line]


def _durations(project: pytest.Pytester, seconds: dict[str, float]) -> None:
    (project.path / ".cache").mkdir(exist_ok=True)
    (project.path / ".cache" / "test-durations.json").write_text(json.dumps(seconds))


def test_the_last_run_s_durations_order_the_next_run_longest_first(project):
    # nothing known: 1 s each, so the module of two goes first; the others keep their order
    assert _order(project) == ["test_unknown_a", "test_unknown_b", "test_long", "test_short"]
    project.runpytest_subprocess().assert_outcomes(passed=4)
    seconds = json.loads((project.path / ".cache" / "test-durations.json").read_text())
    assert seconds["test_long.py::test_long"] >= 0.3
    _durations(project, {"test_short.py::test_short": 0.01, "test_long.py::test_long": 5.0})
    assert _order(project) == ["test_long", "test_unknown_a", "test_unknown_b", "test_short"]


def test_a_module_s_items_stay_together_in_their_order(project):
    """A module-scoped fixture would be set up again after every interruption; the module's total counts."""
    _durations(project, {"test_long.py::test_long": 5.0, "test_unknown.py::test_unknown_b": 4.5})
    assert _order(project) == ["test_unknown_a", "test_unknown_b", "test_long", "test_short"]


def test_an_unreadable_durations_file_is_ignored(project):
    (project.path / ".cache").mkdir()
    (project.path / ".cache" / "test-durations.json").write_text("not json")
    assert _order(project) == ["test_unknown_a", "test_unknown_b", "test_long", "test_short"]


def test_a_page_s_examples_are_units_of_their_own_and_a_module_is_one():
    assert unit_of("docs/en/ddp.md::ddp/train.py") == "docs/en/ddp.md::ddp/train.py"
    assert unit_of("tests/content/test_search.py::test_each_query_ranks_its_page_first[en]") == (
        "tests/content/test_search.py")


FIXTURE_MODULE = """import os, time
import pytest

from docsys.checks.schedule import unit_of

@pytest.fixture(scope="module")
def expensive():
    with open("setups.txt", "a") as log:
        print(__name__, os.environ["PYTEST_XDIST_WORKER"], file=log)

@pytest.mark.parametrize("i", range(6))
def test_uses_it(expensive, i):
    time.sleep(0.05)
"""


def test_under_xdist_a_module_s_items_run_on_one_worker_and_its_fixture_is_set_up_once(project):
    project.makepyfile(test_fixture_a=FIXTURE_MODULE, test_fixture_b=FIXTURE_MODULE)
    result = project.runpytest_subprocess("-n", "2")  # xdist's default --dist, as `make test` runs it
    result.assert_outcomes(passed=16)
    setups = (project.path / "setups.txt").read_text().splitlines()
    assert sorted(line.split()[0] for line in setups) == ["test_fixture_a", "test_fixture_b"], setups


def test_auto_starts_one_worker_more_than_the_cores(project):
    result = project.runpytest_subprocess("-n", "auto")
    result.assert_outcomes(passed=4)
    workers = len(os.sched_getaffinity(0)) + 1
    result.stdout.fnmatch_lines([f"*created: {workers}/{workers} workers*"])


def test_the_suite_runs_without_xdist():
    """Nothing in the configuration needs xdist: `pytest -p no:xdist` collects the suite."""
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "--collect-only", "-q",
                           "tests/tooling/test_schedule.py"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
