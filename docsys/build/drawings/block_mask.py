"""Which blocks of the score matrix a FlexAttention BlockMask computes, one panel per mask.

Data: `{"block_size": [128, 128], "length": 1024, "masks": [{"name": "causal", "rows": ["PEE", "FPE",
"FFP"], "sparsity": 43.75}]}`: one string per query block, one letter per key/value block, F (full:
every pair attends, the mask_mod is not evaluated), P (partial: the mask_mod decides pair by pair) or
E (empty: skipped); `sparsity` is BlockMask.sparsity(), the percentage of blocks skipped.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from docsys.build.drawings import COLORS, GRID, INK, NUMBER, FigureDataError, Words, need

FILL = {"F": COLORS[0], "P": COLORS[1], "E": "none"}
STATES = {"F": "full", "P": "partial", "E": "empty"}


def _masks(data: object) -> list[dict]:
    need(data, "block_size", list)
    need(data, "length", int)
    masks = need(data, "masks", list)
    if not masks:
        raise FigureDataError("data.masks is empty")
    for i, mask in enumerate(masks):
        where = f"data.masks[{i}]"
        need(mask, "name", str, where)
        need(mask, "sparsity", NUMBER, where)
        rows = need(mask, "rows", list, where)
        if not rows or any(not isinstance(r, str) or len(r) != len(rows[0]) for r in rows):
            raise FigureDataError(f"{where}.rows: not a non-empty list of strings of one length")
        if set("".join(rows)) - set(FILL):
            raise FigureDataError(f"{where}.rows: a block is not F, P or E")
    return masks


def draw(data: object, words: Words) -> Figure:
    masks = _masks(data)
    figure = Figure(figsize=(2.6 * len(masks) + 0.6, 3.5), layout="constrained")
    for axes, mask in zip(figure.subplots(1, len(masks), squeeze=False)[0], masks, strict=True):
        _panel(axes, mask, words)
    size = "×".join(map(str, data["block_size"]))
    figure.supxlabel(words("kv_axis", size=size), fontsize=9)
    figure.supylabel(words("q_axis", size=size), fontsize=9)
    handles = [Patch(facecolor=FILL[s], edgecolor=INK if s == "E" else FILL[s], label=words(STATES[s])) for s in FILL]
    figure.legend(handles=handles, loc="outside upper center", ncols=3, fontsize=9, handlelength=1.2)
    return figure


def _panel(axes, mask: dict, words: Words) -> None:
    rows = mask["rows"]
    for r, row in enumerate(rows):
        for c, state in enumerate(row):
            axes.add_patch(Rectangle((c, -r - 1), 1, 1, facecolor=FILL[state],
                                     edgecolor=GRID if state == "E" else "white", linewidth=0.8))
    axes.add_patch(Rectangle((0, -len(rows)), len(rows[0]), len(rows), facecolor="none", edgecolor=INK, linewidth=0.8))
    axes.set_title(mask["name"], fontsize=9, fontfamily="monospace")
    axes.text(len(rows[0]) / 2, -len(rows) - 0.4, words("sparsity", value=mask["sparsity"]), ha="center", va="top",
              fontsize=8)
    axes.set_xlim(-0.2, len(rows[0]) + 0.2)
    axes.set_ylim(-len(rows) - 1.6, 0.2)
    axes.set_aspect("equal")
    axes.axis("off")
