"""A 2-D device mesh and which rows of one parameter each rank holds: sharding, striding and replication at a glance.

Data: `{"dims": ["dp", "tp"], "mesh": [[0, 1], [2, 3]], "parameter": "0.up.weight", "rows": 64,
"held": [[0, 1, ...], ...]}`: the mesh's dimension names and its ranks as `DeviceMesh.mesh.tolist()`
prints them (first dimension down, second across), the parameter's name and row count, and per rank
(indexed by rank) the rows of the unsharded parameter its shard holds, found by comparison. Left, the
mesh; right, the parameter's rows, each run of rows coloured by the ranks that hold it, the same colour
as those ranks' cells: ranks with one colour hold the same rows (replicas).
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from docsys.build.drawings import COLORS, INK, MUTED, FigureDataError, Words, bare_grid, need, text_on

PALETTE = (COLORS[0], COLORS[1], COLORS[2], COLORS[3], COLORS[4], COLORS[5], COLORS[6], COLORS[7])


def _checked(data: object) -> tuple[list[str], list[list[int]], int, list[list[int]]]:
    dims, mesh = need(data, "dims", list), need(data, "mesh", list)
    rows, held = need(data, "rows", int), need(data, "held", list)
    need(data, "parameter", str)
    if len(dims) != 2 or len(mesh) < 1 or any(not isinstance(line, list) or len(line) != len(mesh[0]) for line in mesh):
        raise FigureDataError("data.dims is not two names or data.mesh is not a 2-D list of ranks")
    ranks = sorted(rank for line in mesh for rank in line)
    if ranks != list(range(len(held))):
        raise FigureDataError(f"data.mesh holds ranks {ranks}, data.held has {len(held)} entries")
    for rank, rows_of_rank in enumerate(held):
        if not rows_of_rank or any(not isinstance(r, int) or not 0 <= r < rows for r in rows_of_rank):
            raise FigureDataError(f"data.held[{rank}] is not a non-empty list of rows below {rows}")
    return dims, mesh, rows, held


def _runs(rows: int, held: list[list[int]]) -> list[tuple[int, int, tuple[int, ...]]]:
    """Consecutive rows held by the same ranks: (first row, row count, ranks)."""
    holders = [tuple(rank for rank, mine in enumerate(held) if row in mine) for row in range(rows)]
    runs: list[tuple[int, int, tuple[int, ...]]] = []
    for row, who in enumerate(holders):
        if runs and runs[-1][2] == who:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1, who)
        else:
            runs.append((row, 1, who))
    return runs


def draw(data: object, words: Words) -> Figure:
    dims, mesh, rows, held = _checked(data)
    colors: dict[tuple[int, ...], str] = {}
    for who in sorted({tuple(r for r, mine in enumerate(held) if mine == held[rank]) for rank in range(len(held))}):
        colors[who] = PALETTE[len(colors) % len(PALETTE)]
    color_of = {rank: color for who, color in colors.items() for rank in who}
    figure = Figure(figsize=(7.0, 2.9), layout="constrained")
    grid, bar = figure.subplots(1, 2, width_ratios=[1.25, 1])
    _mesh(grid, dims, mesh, held, color_of, words)
    _bar(bar, data["parameter"], rows, _runs(rows, held), color_of, words)
    return figure


def _mesh(axes, dims: list[str], mesh: list[list[int]], held: list[list[int]], color_of: dict, words: Words) -> None:
    for i, line in enumerate(mesh):
        for j, rank in enumerate(line):
            color = color_of[rank]
            axes.add_patch(Rectangle((j + 0.05, -i - 0.95), 0.9, 0.9, color=color))
            mine = held[rank]
            axes.text(j + 0.5, -i - 0.5, words("cell", rank=rank, rows=_span(mine)), ha="center", va="center",
                      fontsize=8, color=text_on(color))
    axes.set_xlim(0, len(mesh[0]))
    axes.set_ylim(-len(mesh), 0)
    axes.set_xticks([j + 0.5 for j in range(len(mesh[0]))], [f"{dims[1]} {j}" for j in range(len(mesh[0]))])
    axes.set_yticks([-i - 0.5 for i in range(len(mesh))], [f"{dims[0]} {i}" for i in range(len(mesh))])
    axes.xaxis.tick_top()
    bare_grid(axes)
    axes.set_title(words("mesh"), loc="left", fontsize=9, color=INK)


def _bar(axes, parameter: str, rows: int, runs: list, color_of: dict, words: Words) -> None:
    for first, count, who in runs:
        color = color_of[who[0]] if who else "#e0e0e0"
        axes.add_patch(Rectangle((0, rows - first - count), 1, count, facecolor=color, edgecolor="white",
                                 linewidth=0.8))
        label = words("run", rows=_span(range(first, first + count)), ranks=", ".join(str(rank) for rank in who))
        axes.text(1.08, rows - first - count / 2, label, ha="left", va="center", fontsize=7.5, color=INK)
    axes.set_xlim(0, 3.2)
    axes.set_ylim(0, rows)
    axes.set_axis_off()
    axes.set_title(words("parameter", name=parameter, rows=rows), loc="left", fontsize=9, color=INK)
    axes.text(0.5, -rows * 0.02, words("row_order"), ha="center", va="top", fontsize=7, color=MUTED)


def _span(rows) -> str:
    """`0–15` for consecutive rows; the first and last with a count otherwise."""
    rows = list(rows)
    if rows == list(range(rows[0], rows[-1] + 1)):
        return f"{rows[0]}–{rows[-1]}"
    return f"{rows[0]}…{rows[-1]} ({len(rows)})"
