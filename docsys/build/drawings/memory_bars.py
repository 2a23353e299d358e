"""Memory per rank: what each holds at rest (stacked by part) and its peak during a step.

Data: `{"unit": "MiB", "ranks": [{"parameters": ..., "gradients": ..., "optimizer_state": ...,
"peak": ...}, ...]}`, one item per rank in rank order; the parts before `peak` are stacked.
"""

from __future__ import annotations

from matplotlib.figure import Figure

from docsys.build.drawings import COLORS, GRID, MUTED, NUMBER, FigureDataError, Words, need

PARTS = (("parameters", COLORS[0]), ("gradients", COLORS[1]), ("optimizer_state", COLORS[2]))
PEAK_COLOR = COLORS[5]


def _ranks(data: object) -> tuple[str, list[dict]]:
    unit, ranks = need(data, "unit", str), need(data, "ranks", list)
    if not ranks:
        raise FigureDataError("data.ranks is empty")
    for r, item in enumerate(ranks):
        for key in (*(part for part, _ in PARTS), "peak"):
            need(item, key, NUMBER, f"ranks[{r}]")
    return unit, ranks


def draw(data: object, words: Words) -> Figure:
    unit, ranks = _ranks(data)
    figure = Figure(figsize=(7.2, 0.9 + 0.75 * len(ranks)), layout="constrained")
    axes = figure.subplots()
    labels, top = [], max(item["peak"] for item in ranks)
    for r, item in enumerate(ranks):
        y = -2 * r
        left = 0.0
        for part, color in PARTS:
            axes.barh(y, item[part], left=left, height=0.7, color=color, edgecolor="white", linewidth=0.6,
                      label=words(part) if r == 0 else None)
            left += item[part]
        axes.text(left + top * 0.01, y, f"{left:.2f}", va="center", fontsize=9)
        axes.barh(y - 0.8, item["peak"], height=0.7, color=PEAK_COLOR, label=words("peak") if r == 0 else None)
        axes.text(item["peak"] + top * 0.01, y - 0.8, f"{item['peak']:.2f}", va="center", fontsize=9)
        labels += [(y, words("at_rest", rank=r)), (y - 0.8, words("peak_bar", rank=r))]
    axes.set_yticks([y for y, _ in labels], [text for _, text in labels])
    axes.set_xlim(0, top * 1.12)
    axes.set_xlabel(words("axis", unit=unit), color=MUTED)
    axes.grid(axis="x", color=GRID, linewidth=0.5)
    axes.set_axisbelow(True)
    axes.tick_params(axis="y", length=0)
    axes.spines["left"].set_visible(False)
    figure.legend(loc="outside upper center", ncols=4, fontsize=9, handlelength=1.2)
    return figure
