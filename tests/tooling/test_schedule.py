"""docsys.checks.schedule: the longest tests first, from the last run's durations; unknown ones keep their order."""

from __future__ import annotations

import json

import pytest

pytest_plugins = ["pytester"]

TESTS = """
import time

def test_short():
    pass

def test_long():
    time.sleep(0.3)

def test_unknown_a():
    pass

def test_unknown_b():
    pass
"""


@pytest.fixture
def project(pytester: pytest.Pytester):
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider -p no:randomly\n")
    pytester.makeconftest('pytest_plugins = ["docsys.checks.schedule"]\n')
    pytester.makepyfile(test_demo=TESTS)
    return pytester


def _order(project: pytest.Pytester) -> list[str]:
    result = project.runpytest_subprocess("--collect-only", "-q")
    return [line.split("::")[1] for line in result.stdout.lines if "::" in line]


def test_the_last_run_s_durations_order_the_next_run_longest_first(project):
    assert _order(project) == ["test_short", "test_long", "test_unknown_a", "test_unknown_b"]  # nothing known yet
    project.runpytest_subprocess().assert_outcomes(passed=4)
    seconds = json.loads((project.path / ".cache" / "test-durations.json").read_text())
    assert seconds["test_demo.py::test_long"] >= 0.3
    (project.path / ".cache" / "test-durations.json").write_text(json.dumps(
        {"test_demo.py::test_short": 0.01, "test_demo.py::test_long": 5.0}))
    assert _order(project) == ["test_long", "test_unknown_a", "test_unknown_b", "test_short"]


def test_an_unreadable_durations_file_is_ignored(project):
    (project.path / ".cache").mkdir()
    (project.path / ".cache" / "test-durations.json").write_text("not json")
    assert _order(project) == ["test_short", "test_long", "test_unknown_a", "test_unknown_b"]
