"""What activation checkpointing does with each operator's output: saved, recomputed or freed.

Data: `{"ops": ["addmm", "gelu", ...], "rows": [{"variant": "checkpoint", "states": ["saved", ...]}, ...]}`:
the operators of one block in forward order (names from the code, drawn as they are), and per
variant one state per operator, one of STATES: its output is kept for backward (`saved`), run again
in backward (`recomputed`), or neither (`freed`). One row per variant, one cell per operator.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from docsys.build.drawings import COLORS, FigureDataError, Words, bare_grid, need, text_on

STATES = {"saved": COLORS[0], "recomputed": COLORS[1], "freed": "#e0e0e0"}


def _grid(data: object) -> tuple[list[str], list[dict]]:
    ops, rows = need(data, "ops", list), need(data, "rows", list)
    if not ops or not rows:
        raise FigureDataError("data.ops or data.rows is empty")
    for r, row in enumerate(rows):
        need(row, "variant", str, f"rows[{r}]")
        states = need(row, "states", list, f"rows[{r}]")
        if len(states) != len(ops):
            raise FigureDataError(f"rows[{r}] has {len(states)} states for {len(ops)} ops")
        for state in states:
            if state not in STATES:
                raise FigureDataError(f"rows[{r}]: unknown state '{state}' (known: {', '.join(STATES)})")
    return ops, rows


def draw(data: object, words: Words) -> Figure:
    ops, rows = _grid(data)
    figure = Figure(figsize=(1.6 + 1.25 * len(ops), 0.9 + 0.55 * len(rows)), layout="constrained")
    axes = figure.subplots()
    for r, row in enumerate(rows):
        for c, state in enumerate(row["states"]):
            axes.add_patch(Rectangle((c, -r - 0.9), 0.94, 0.8, color=STATES[state]))
            axes.text(c + 0.47, -r - 0.5, words(state), ha="center", va="center", fontsize=8.5,
                      color=text_on(STATES[state]))
    axes.set_xlim(0, len(ops))
    axes.set_ylim(-len(rows) - 0.05, 0.05)
    axes.set_xticks([c + 0.47 for c in range(len(ops))], ops)
    axes.xaxis.tick_top()
    axes.set_yticks([-r - 0.5 for r in range(len(rows))], [row["variant"] for row in rows])
    bare_grid(axes)
    handles = [Patch(color=color, label=words(f"legend.{state}")) for state, color in STATES.items()]
    figure.legend(handles=handles, loc="outside lower center", ncols=3, fontsize=9, handlelength=1.2)
    return figure
