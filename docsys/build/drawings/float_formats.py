"""Floating-point formats from torch.finfo: the bits of each, and the range of its normal numbers.

Data: a list, one item per dtype: `{"dtype": "torch.bfloat16", "bits": 16, "exponent": 8,
"mantissa": 7, "max": ..., "tiny": ..., "eps": ...}` (tiny: the smallest normal number).
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from docsys.build.drawings import COLORS, GRID, MUTED, NUMBER, FigureDataError, Words, need, text_on

PARTS = (("sign", COLORS[5]), ("exponent", COLORS[0]), ("mantissa", COLORS[1]))


def _formats(data: object) -> list[dict]:
    if not isinstance(data, list) or not data:
        raise FigureDataError("data is not a non-empty list of formats")
    for i, item in enumerate(data):
        where = f"data[{i}]"
        need(item, "dtype", str, where)
        for key in ("bits", "exponent", "mantissa"):
            need(item, key, int, where)
        for key in ("max", "tiny", "eps"):
            need(item, key, NUMBER, where)
        if 1 + item["exponent"] + item["mantissa"] != item["bits"]:
            raise FigureDataError(f"{where}: 1 + exponent + mantissa is not bits")
    return data


def draw(data: object, words: Words) -> Figure:
    formats = _formats(data)
    rows = len(formats)
    figure = Figure(figsize=(7.2, 0.5 + 1.05 * rows), layout="constrained")
    bits_axes, range_axes = figure.subplots(2, 1, height_ratios=[1, 1])
    _bits(bits_axes, formats, words)
    _ranges(range_axes, formats, words)
    return figure


def _bits(axes, formats: list[dict], words: Words) -> None:
    width = max(f["bits"] for f in formats)
    for row, fmt in enumerate(formats):
        y, start = -row, 0
        for (_, color), count in zip(PARTS, (1, fmt["exponent"], fmt["mantissa"]), strict=True):
            axes.add_patch(Rectangle((start, y - 0.35), count, 0.7, facecolor=color, edgecolor="none"))
            for bit in range(start + 1, start + count):
                axes.plot([bit, bit], [y - 0.35, y + 0.35], color="white", linewidth=0.6)
            if count > 1:
                axes.text(start + count / 2, y, str(count), ha="center", va="center", color=text_on(color),
                          fontsize=9, fontweight="bold", bbox={"facecolor": color, "edgecolor": "none", "pad": 1})
            start += count
    axes.set_xlim(0, width)
    axes.set_ylim(-len(formats) + 0.5, 0.9)
    axes.set_yticks([-row for row in range(len(formats))], [f["dtype"] for f in formats])
    axes.set_xticks(range(0, width + 1, 4))
    axes.set_xlabel(words("bits_axis"), color=MUTED)
    handles = [Rectangle((0, 0), 1, 1, facecolor=color) for _, color in PARTS]
    axes.legend(handles, [words(part) for part, _ in PARTS], loc="lower left", ncols=3,
                bbox_to_anchor=(0, 1.0), handlelength=1, fontsize=9, borderaxespad=0.2)
    axes.spines["left"].set_visible(False)
    axes.tick_params(axis="y", length=0)


def _ranges(axes, formats: list[dict], words: Words) -> None:
    for row, fmt in enumerate(formats):
        axes.barh(-row, fmt["max"] - fmt["tiny"], left=fmt["tiny"], height=0.5, color=COLORS[2])
        axes.text(fmt["max"] * 4, -row, words("eps", eps=f"{fmt['eps']:.3g}"), va="center", fontsize=9)
    axes.set_xscale("log")
    lowest = min(f["tiny"] for f in formats)
    highest = max(f["max"] for f in formats)
    axes.set_xlim(lowest / 100, highest * 1e9)
    axes.set_yticks([-row for row in range(len(formats))], [f["dtype"] for f in formats])
    axes.set_xlabel(words("range_axis"), color=MUTED)
    axes.grid(axis="x", color=GRID, linewidth=0.5)
    axes.set_axisbelow(True)
    axes.spines["left"].set_visible(False)
    axes.tick_params(axis="y", length=0)
