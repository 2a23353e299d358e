"""Benchmark tables: what a `bench_*.py` snippet prints, and what may be concluded from it.

A benchmark measures its baseline and the technique in the same process and prints:

    threads: 1
    | variant | median (ms) | IQR (ms) | runs | activations saved (MiB) |
    |---|---:|---:|---:|---:|
    | train() | 14.86 | 0.212 | 25 | 3.12 |

- one `threads: N` line, or a `threads` column when variants differ in it: the intra-op threads
  the measurement used (torch.utils.benchmark.Timer uses one unless given `num_threads`);
- ONE Markdown table whose first column is `variant`;
- every column that varies from repeat to repeat — a time (`ns`, `us`, `µs`, `ms`, `s`) or a
  rate (`.../s`) — followed by its spread, `IQR (<same unit>)` (interquartile range over the
  repeats), and a `runs` column with the number of repeats. A measurement that cannot be
  repeated in one process (the first call of a compiled function) has runs 1 and IQR `—`.
  Other columns (memory counted by bytes, counts) are exact.

A ratio between two variants is computed from the printed cells, which must carry at least
three significant digits (so rounding moves a ratio by under 1%), and may be called a
difference only when it exceeds the spread: |a - b| > (IQR_a + IQR_b) / 2. Where a spread is
unknown (`—`), only a factor of at least UNKNOWN_SPREAD_FACTOR counts as a difference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

VARIANT = "variant"
RANK_PREFIX = r"(?:\[rank\d+\] )?"  # a torchrun-launched benchmark prints through rank 0 (docsys.core.runner)
_ROW_RE = re.compile(rf"^{RANK_PREFIX}\s*\|(.*)\|\s*$")
_RULE_CELL_RE = re.compile(r"^:?-{3,}:?$")
_UNIT_RE = re.compile(r"\(([^()]*)\)\s*$")
_TIME_UNITS = {"ns", "us", "µs", "ms", "s"}
_THREADS_RE = re.compile(rf"^{RANK_PREFIX}threads:\s*(\d+)\b", re.M)
MIN_SIGNIFICANT = 3
UNKNOWN_SPREAD_FACTOR = 2.0  # recordings are refused on a busy machine; noise there stays far below 2x


class TableError(ValueError):
    """A benchmark's output breaks the convention above (one line)."""


@dataclass(frozen=True)
class Table:
    """A benchmark's table, cells kept exactly as the snippet printed them."""

    columns: list[str]
    rows: list[list[str]]

    def column(self, name: str) -> int:
        if name not in self.columns:
            raise KeyError(f"no column {name!r}; columns are {self.columns}")
        return self.columns.index(name)

    def row(self, variant: str) -> list[str]:
        for row in self.rows:
            if row[0] == variant:
                return row
        raise KeyError(f"no variant {variant!r}; variants are {[r[0] for r in self.rows]}")

    def value(self, variant: str, column: str) -> str:
        return self.row(variant)[self.column(column)]

    def spread_index(self, column: str) -> int | None:
        """Where the `IQR (...)` column right after `column` is, if it has one (several
        columns may be named `IQR (ms)`: each belongs to the column before it)."""
        index = self.column(column) + 1
        if index < len(self.columns) and self.columns[index].startswith("IQR"):
            return index
        return None


def unit(column: str) -> str:
    match = _UNIT_RE.search(column)
    return match[1].strip() if match else ""


def varies(column: str) -> bool:
    """A time or a rate: a measurement that differs from repeat to repeat."""
    u = unit(column)
    return u in _TIME_UNITS or u.endswith("/s")


def number(cell: str) -> float | None:
    try:
        return float(cell)
    except ValueError:
        return None


def significant_digits(cell: str) -> int:
    digits = re.sub(r"[^0-9]", "", cell.split("e")[0].lstrip("-+"))
    return len(digits.lstrip("0")) or 1


def _cells(line: str) -> list[str] | None:
    m = _ROW_RE.match(line)
    return [c.strip() for c in m[1].split("|")] if m else None


def is_header(line: str) -> bool:
    """The first line of the benchmark table: `| variant | ... |`."""
    cells = _cells(line)
    return bool(cells) and cells[0] == VARIANT


def parse_table(text: str) -> Table:
    """The benchmark table in an output: header `| variant | ... |`, a rule, rows."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if is_header(line)]
    if len(starts) != 1:
        raise TableError(f"expected exactly one table whose first column is '{VARIANT}', found {len(starts)}")
    start = starts[0]
    columns = _cells(lines[start]) or []
    rule = _cells(lines[start + 1]) if start + 1 < len(lines) else None
    if not rule or len(rule) != len(columns) or not all(_RULE_CELL_RE.match(c) for c in rule):
        raise TableError(f"the line after the header must be a rule like |---|---| with {len(columns)} cells")
    rows = []
    for line in lines[start + 2 :]:
        cells = _cells(line)
        if cells is None:
            break
        if len(cells) != len(columns):
            raise TableError(f"row {line.strip()!r} has {len(cells)} cells, the header has {len(columns)}")
        rows.append(cells)
    if not rows:
        raise TableError("the table has no rows")
    if len({r[0] for r in rows}) != len(rows):
        raise TableError("variant names must be unique")
    return Table(columns, rows)


def threads(text: str) -> int | None:
    match = _THREADS_RE.search(text)
    return int(match[1]) if match else None


def convention_problems(text: str) -> list[str]:
    """What a benchmark output lacks under the module's convention (empty when it is sound)."""
    try:
        table = parse_table(text)
    except TableError as error:
        return [str(error)]
    problems = []
    if threads(text) is None and "threads" not in table.columns:
        problems.append("no 'threads: N' line (or 'threads' column) saying how many threads it measured with")
    measured = [c for c in table.columns[1:] if varies(c) and not c.startswith("IQR")]
    for column in measured:
        spread = table.spread_index(column)
        if spread is None or unit(table.columns[spread]) != unit(column):
            problems.append(f"column {column!r} varies between repeats: follow it with 'IQR ({unit(column)})'")
    if measured and "runs" not in table.columns:
        problems.append("a table with timings needs a 'runs' column (repeats per variant)")
    return problems


@dataclass(frozen=True)
class Comparison:
    ratio: float  # a / b
    difference: float  # a - b
    spread: float | None  # (IQR_a + IQR_b) / 2; 0 for an exact column; None when unknown (`—`)

    @property
    def beyond_spread(self) -> bool:
        if self.spread is None:
            return max(self.ratio, 1 / self.ratio) >= UNKNOWN_SPREAD_FACTOR if self.ratio > 0 else False
        return abs(self.difference) > self.spread


def compare(table: Table, a: str, b: str, column: str) -> Comparison:
    """Variant a against variant b in one column; raises ValueError with one line when the
    cells cannot carry a ratio (not numbers, too few significant digits, b is zero)."""
    cells = {name: table.value(name, column) for name in (a, b)}
    for name, cell in cells.items():
        if number(cell) is None:
            raise ValueError(f"{name!r} / {column!r} is {cell!r}, not a number")
        if significant_digits(cell) < MIN_SIGNIFICANT:
            raise ValueError(
                f"{name!r} / {column!r} is {cell!r}: print at least {MIN_SIGNIFICANT} significant digits "
                "so that a ratio is not a rounding artefact"
            )
    x, y = number(cells[a]), number(cells[b])
    if y == 0:
        raise ValueError(f"cannot divide by {b!r}'s {column!r}, which is 0")
    index = table.spread_index(column)
    spread: float | None = 0.0
    if index is not None:
        spreads = [number(table.row(name)[index]) for name in (a, b)]
        spread = None if None in spreads else sum(spreads) / 2
    return Comparison(x / y, x - y, spread)


def ratio_text(ratio: float) -> str:
    """`12×`, `1.8×`, `0.94×`: enough digits to read, no false precision."""
    if ratio >= 10:
        return f"{ratio:.0f}×"
    if ratio >= 1:
        return f"{ratio:.1f}×"
    return f"{ratio:.2f}×"
