"""docsys.core.bench: the table convention of benchmarks, and what a ratio between variants may claim."""

from __future__ import annotations

import pytest

from docsys.core.bench import compare, convention_problems, parse_table, ratio_text, threads

GOOD = """threads: 2
| variant | median (ms) | IQR (ms) | runs | saved (MiB) |
|---|---:|---:|---:|---:|
| a | 10.0 | 0.50 | 9 | 4.00 |
| b | 12.0 | 0.40 | 9 | 1.00 |
| c | 10.2 | 0.60 | 9 | 1.05 |
"""


def test_a_sound_table_has_no_problems():
    assert convention_problems(GOOD) == [] and threads(GOOD) == 2
    assert parse_table(GOOD).value("b", "saved (MiB)") == "1.00"


@pytest.mark.parametrize(("broken", "problem"), [
    (GOOD.replace("threads: 2\n", ""), "no 'threads: N' line"),
    (GOOD.replace(" IQR (ms) |", " spread |"), "follow it with 'IQR (ms)'"),
    (GOOD.replace(" runs |", " n |"), "needs a 'runs' column"),
    (GOOD + "| variant | x |\n|---|---|\n| a | 1 |\n", "exactly one table"),
    (GOOD.replace("| a | 10.0 |", "| b | 10.0 |"), "must be unique"),
])
def test_each_broken_convention_is_named(broken, problem):
    assert any(problem in p for p in convention_problems(broken)), convention_problems(broken)


def test_a_threads_column_replaces_the_threads_line():
    table = "| variant | threads | median (us) | IQR (us) | runs |\n|---|---|---|---|---|\n| t1 | 1 | 260 | 3 | 9 |\n"
    assert convention_problems(table) == []


def test_a_difference_counts_only_beyond_the_spread():
    table = parse_table(GOOD)
    assert compare(table, "b", "a", "median (ms)").beyond_spread  # 2.0 > (0.4 + 0.5) / 2
    assert not compare(table, "c", "a", "median (ms)").beyond_spread  # 0.2 < (0.6 + 0.5) / 2
    exact = compare(table, "a", "b", "saved (MiB)")
    assert exact.spread == 0 and exact.beyond_spread and exact.ratio == 4.0


def test_an_unknown_spread_needs_a_factor_of_two():
    table = parse_table("| variant | first (ms) | IQR (ms) | runs |\n|---|---|---|---|\n"
                        "| a | 100 | — | 1 |\n| b | 190 | — | 1 |\n| c | 250 | — | 1 |\n")
    assert compare(table, "a", "b", "first (ms)").spread is None
    assert not compare(table, "b", "a", "first (ms)").beyond_spread
    assert compare(table, "c", "a", "first (ms)").beyond_spread


def test_cells_too_coarse_for_a_ratio_are_refused():
    table = parse_table("| variant | saved (MiB) |\n|---|---|\n| a | 4.6 |\n| b | 0.6 |\n")
    with pytest.raises(ValueError, match="at least 3 significant digits"):
        compare(table, "a", "b", "saved (MiB)")


def test_ratio_text_has_no_false_precision():
    assert [ratio_text(r) for r in (12.34, 1.84, 0.943)] == ["12×", "1.8×", "0.94×"]


def test_each_iqr_column_belongs_to_the_column_before_it():
    table = parse_table("| variant | step (ms) | IQR (ms) | forward (ms) | IQR (ms) | runs |\n"
                        "|---|---|---|---|---|---|\n"
                        "| a | 10.0 | 5.00 | 2.00 | 0.010 | 9 |\n| b | 10.5 | 5.00 | 1.00 | 0.010 | 9 |\n")
    assert not compare(table, "b", "a", "step (ms)").beyond_spread
    assert compare(table, "a", "b", "forward (ms)").beyond_spread


def test_a_launched_benchmark_prints_its_table_through_rank_0():
    """docsys.core.runner prefixes a torchrun rank's lines with `[rank0] `."""
    launched = "".join(f"[rank0] {line}\n" for line in GOOD.splitlines())
    assert convention_problems(launched) == [] and threads(launched) == 2
    assert parse_table(launched).value("b", "saved (MiB)") == "1.00"
