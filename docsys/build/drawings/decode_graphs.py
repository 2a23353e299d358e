"""Which compiled graph ran at each call of a compiled function: one row of cells per variant.

Data: `[{"variant": "GrowingCache, dynamic=None", "graphs": [1, 2, 2, ...]}, ...]`, one item per
variant (its name from the code, drawn as it is) and, per call in order, the number of the graph
that ran it (1 for the first graph compiled) or 0 where no graph ran (the call ran eagerly).
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from docsys.build.drawings import COLORS, MUTED, FigureDataError, Words, need

EAGER = "#e0e0e0"


def _variants(data: object) -> list[dict]:
    if not isinstance(data, list) or not data:
        raise FigureDataError("data is not a non-empty list of variants")
    for i, item in enumerate(data):
        need(item, "variant", str, f"data[{i}]")
        graphs = need(item, "graphs", list, f"data[{i}]")
        if not graphs or not all(isinstance(g, int) and not isinstance(g, bool) and g >= 0 for g in graphs):
            raise FigureDataError(f"data[{i}].graphs is not a non-empty list of graph numbers (0: eager)")
    return data


def draw(data: object, words: Words) -> Figure:
    variants = _variants(data)
    calls = max(len(item["graphs"]) for item in variants)
    figure = Figure(figsize=(7.6, 1.2 + 0.55 * len(variants)), layout="constrained")
    axes = figure.subplots()
    for row, item in enumerate(variants):
        for call, graph in enumerate(item["graphs"], 1):
            color = COLORS[(graph - 1) % len(COLORS)] if graph else EAGER
            axes.add_patch(Rectangle((call - 0.45, -row - 0.35), 0.9, 0.7, facecolor=color, edgecolor="none"))
            axes.text(call, -row, str(graph) if graph else "–", ha="center", va="center", fontsize=7,
                      color="white" if graph else MUTED)
    axes.set_xlim(0.4, calls + 0.6)
    axes.set_ylim(-len(variants) + 0.4, 0.6)
    axes.set_yticks([-row for row in range(len(variants))], [item["variant"] for item in variants], fontsize=9)
    axes.set_xticks([1, *range(5, calls + 1, 5)])
    axes.set_xlabel(words("axis"), fontsize=9)
    for side in ("top", "right", "left"):
        axes.spines[side].set_visible(False)
    axes.tick_params(axis="y", length=0)
    legend = [Patch(facecolor=COLORS[0], label=words("graph")), Patch(facecolor=EAGER, label=words("eager"))]
    axes.legend(handles=legend, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False, fontsize=9)
    return figure

