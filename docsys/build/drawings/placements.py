"""Which block of each parameter each rank holds, from a DTensor's placement and its ranks' local shapes.

Data: a list, one item per parameter, in the module's order:
`{"name": "up.weight", "shape": [64, 16], "placement": "Shard(dim=0)", "dim": 0,
"local": [[32, 16], [32, 16]]}`: `dim` is the sharded dimension (null: replicated) and `local`
each rank's local shape, in rank order. Each parameter is drawn to scale, one cell per element
(a vector as a column); a sharded one is cut along `dim` in rank order, by the local sizes.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from docsys.build.drawings import COLORS, INK, FigureDataError, Words, need

GAP = 6  # elements between two parameters
SLOT = 26  # the narrowest room a parameter gets: its name fits under it


def _params(data: object) -> list[dict]:
    if not isinstance(data, list) or not data:
        raise FigureDataError("data is not a non-empty list of parameters")
    for i, item in enumerate(data):
        where = f"data[{i}]"
        need(item, "name", str, where)
        need(item, "placement", str, where)
        shape, local = need(item, "shape", list, where), need(item, "local", list, where)
        if len(shape) not in (1, 2) or any(len(s) != len(shape) for s in local):
            raise FigureDataError(f"{where}: shape and local shapes must all be 1-D or all 2-D")
        dim = item.get("dim")
        if dim is not None and (dim not in range(len(shape)) or sum(s[dim] for s in local) != shape[dim]):
            raise FigureDataError(f"{where}: the local sizes along dim {dim} do not add up to the shape")
    return data


def _grid(shape: list[int]) -> tuple[int, int]:
    """(rows, columns) of a parameter as drawn: a vector is a column."""
    return (shape[0], 1) if len(shape) == 1 else (shape[0], shape[1])


def draw(data: object, words: Words) -> Figure:
    params = _params(data)
    ranks = len(params[0]["local"])
    tallest = max(_grid(p["shape"])[0] for p in params)
    figure = Figure(figsize=(7.2, 3.4), layout="constrained")
    axes = figure.subplots()
    x = 0
    for param in params:
        rows, cols = _grid(param["shape"])
        x += max(0, SLOT - cols) / 2
        _blocks(axes, param, x, rows, cols)
        axes.add_patch(Rectangle((x, -rows), cols, rows, facecolor="none", edgecolor=INK, linewidth=0.8))
        axes.text(x + cols / 2, -tallest - 3, f"{param['name']}\n{param['placement']}", ha="center", va="top",
                  fontsize=8, fontfamily="monospace")
        axes.text(x + cols / 2, 1, "×".join(map(str, param["shape"])), ha="center", va="bottom", fontsize=8)
        x += cols + max(0, SLOT - cols) / 2 + GAP
    axes.set_xlim(-2, x - GAP + 2)
    axes.set_ylim(-tallest - 20, 5)
    axes.set_aspect("equal")
    axes.axis("off")
    handles = [Patch(facecolor=COLORS[r % len(COLORS)], label=words("rank", rank=r)) for r in range(ranks)]
    handles.append(Patch(facecolor="none", edgecolor=INK, hatch="///", label=words("replicated")))
    figure.legend(handles=handles, loc="outside upper center", ncols=len(handles), fontsize=9, handlelength=1.2)
    return figure


def _blocks(axes, param: dict, x: float, rows: int, cols: int) -> None:
    dim = param["dim"]
    if dim is None:
        axes.add_patch(Rectangle((x, -rows), cols, rows, facecolor="none", edgecolor=INK, hatch="///",
                                 linewidth=0))
        return
    start = 0
    for rank, local in enumerate(param["local"]):
        size = local[dim]
        color = COLORS[rank % len(COLORS)]
        if dim == 0:  # rows, top to bottom
            axes.add_patch(Rectangle((x, -start - size), cols, size, facecolor=color, edgecolor="white"))
        else:  # columns, left to right
            axes.add_patch(Rectangle((x + start, -rows), size, rows, facecolor=color, edgecolor="white"))
        start += size
