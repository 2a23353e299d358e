"""docsys.checks.schedule: the longest tests first, from the last run's durations; unknown ones keep their order."""

from __future__ import annotations

import json

import pytest

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
