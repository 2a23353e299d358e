"""Spans on lanes over time: a profiler trace, what each rank computes and communicates, a schedule.

Data (times in `unit` from the start of what is shown; strings in spans are names from the code):

    {"unit": "ms",
     "panels": [                                     # or the keys of one panel at the top level
       {"title": "num_workers=2",                    # optional, drawn as it is
        "lanes": [{"lane": "worker", "index": 0,     # a key of labels.yml's lanes; index, rank optional
                   "rank": 0,
                   "spans": [[start, end, "load", "batch 0"], ...]}],   # kind: a key of its spans
        "links": [[lane, span, lane, span], ...],    # optional: an arrow from a span's start to another's
        "idle": true}]}                              # optional: shade each lane's gaps (a bubble)

Panels share the time axis, so their lengths compare.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Patch

from docsys.build.drawings import COLORS, GRID, INK, MUTED, NUMBER, FigureDataError, Words, need, text_on

PURPLE = "#7b3f94"
# One colour per kind of span, the same in every figure of the site.
KIND_COLORS = {
    "profiler_step": COLORS[7], "region": COLORS[2], "operator": COLORS[4],
    "forward": COLORS[0], "backward": COLORS[1], "optimizer": COLORS[2],
    "backward_input": COLORS[5], "backward_weight": COLORS[6],
    "allreduce": COLORS[3], "allgather": COLORS[3], "reducescatter": PURPLE,
    "load": COLORS[1], "step": COLORS[0], "launch": COLORS[5], "sync": COLORS[7], "kernel": COLORS[2],
    "h2d_copy": COLORS[1], "matmul": COLORS[0],
}
IDLE = "#bdbdbd"


def _panels(data: object) -> tuple[str, list[dict]]:
    unit = need(data, "unit", str)
    panels = need(data, "panels", list) if isinstance(data, dict) and "panels" in data else [data]
    if not panels:
        raise FigureDataError("data.panels is empty")
    for p, panel in enumerate(panels):
        where = f"panels[{p}]"
        for lane_index, lane in enumerate(need(panel, "lanes", list, where)):
            lane_where = f"{where}.lanes[{lane_index}]"
            need(lane, "lane", str, lane_where)
            for s, span in enumerate(need(lane, "spans", list, lane_where)):
                ok = isinstance(span, list) and len(span) in (3, 4) and all(isinstance(v, NUMBER) for v in span[:2])
                if not ok or not all(isinstance(v, str) for v in span[2:]):
                    raise FigureDataError(f"{lane_where}.spans[{s}] is not [start, end, kind, label]")
    return unit, panels


def draw(data: object, words: Words) -> Figure:
    unit, panels = _panels(data)
    lanes = [len(panel["lanes"]) for panel in panels]
    figure = Figure(figsize=(7.6, 0.9 + 0.34 * sum(lanes) + 0.45 * len(panels)), layout="constrained")
    axes_list = figure.subplots(len(panels), 1, sharex=True, height_ratios=[n + 0.8 for n in lanes], squeeze=False)
    end = max((span[1] for panel in panels for lane in panel["lanes"] for span in lane["spans"]), default=1.0)
    kinds: dict[str, str] = {}
    idle = False
    for axes, panel in zip(axes_list[:, 0], panels, strict=True):
        _panel(axes, panel, words, kinds, end)
        idle |= bool(panel.get("idle"))
        axes.set_xlim(0, end * 1.01)
    axes_list[-1, 0].set_xlabel(words("time_axis", unit=unit), color=MUTED)
    handles = [Patch(facecolor=KIND_COLORS.get(kind, COLORS[7]), label=label) for kind, label in kinds.items()]
    if idle:
        handles.append(Patch(facecolor="none", edgecolor=IDLE, hatch="////", label=words("idle")))
    figure.legend(handles=handles, loc="outside upper center", ncols=min(len(handles), 5), fontsize=9,
                  handlelength=1.2)
    return figure


def _lane_name(lane: dict, words: Words) -> str:
    name = words(f"lanes.{lane['lane']}", index=lane.get("index", ""))
    return words("rank_lane", rank=lane["rank"], lane=name) if "rank" in lane else name


def _panel(axes, panel: dict, words: Words, kinds: dict[str, str], end: float) -> None:
    lanes = panel["lanes"]
    px_per_unit = 7.6 * 72 * 0.78 / (end * 1.01)
    first = min((span[0] for lane in lanes for span in lane["spans"]), default=0.0)
    last = max((span[1] for lane in lanes for span in lane["spans"]), default=0.0)
    for row, lane in enumerate(lanes):
        y = -row
        if panel.get("idle"):
            axes.broken_barh(_gaps(lane["spans"], first, last), (y - 0.36, 0.72), facecolor="none",
                             edgecolor=IDLE, hatch="////", linewidth=0)
        rows = _rows(lane["spans"])
        height = 0.72 / (max(rows, default=0) + 1)
        by_kind: dict[tuple[str, int], list[tuple[float, float]]] = {}
        for (start, stop, kind, *label), sub in zip(lane["spans"], rows, strict=True):
            kinds.setdefault(kind, words(f"spans.{kind}"))
            by_kind.setdefault((kind, sub), []).append((start, max(stop - start, end * 0.002)))
            text = label[0] if label else ""
            if text and (stop - start) * px_per_unit > 6.2 * len(text) + 4:
                axes.text((start + stop) / 2, y + 0.36 - (sub + 0.5) * height, text, ha="center", va="center",
                          fontsize=8 if height > 0.5 else 7, color=text_on(KIND_COLORS.get(kind, COLORS[7])))
        for (kind, sub), bars in by_kind.items():  # one path per colour and row: a small SVG
            axes.broken_barh(bars, (y + 0.36 - (sub + 1) * height, height), facecolor=KIND_COLORS.get(kind, COLORS[7]),
                             edgecolor="white", linewidth=0.4)
    for a_lane, a_span, b_lane, b_span in panel.get("links", []):
        start_a, start_b = lanes[a_lane]["spans"][a_span][0], lanes[b_lane]["spans"][b_span][0]
        axes.annotate("", xy=(start_b, -b_lane + 0.36), xytext=(start_a, -a_lane - 0.36),
                      arrowprops={"arrowstyle": "->", "color": MUTED, "linewidth": 0.6, "shrinkA": 0, "shrinkB": 0})
    axes.set_yticks([-row for row in range(len(lanes))], [_lane_name(lane, words) for lane in lanes])
    axes.set_ylim(-len(lanes) + 0.4, 0.6)
    axes.tick_params(axis="y", length=0)
    axes.spines["left"].set_visible(False)
    axes.grid(axis="x", color=GRID, linewidth=0.5)
    axes.set_axisbelow(True)
    if panel.get("title"):
        axes.set_title(panel["title"], loc="left", fontsize=9, color=INK, fontfamily="monospace")


def _rows(spans: list) -> list[int]:
    """A row within its lane for each span, so that spans that overlap in time (two threads of one
    lane) are drawn one above the other: each goes to the first row free at its start."""
    ends: list[float] = []
    rows = [0] * len(spans)
    for i in sorted(range(len(spans)), key=lambda i: spans[i][0]):
        start, stop = spans[i][:2]
        row = next((r for r, end in enumerate(ends) if end <= start), len(ends))
        ends[row:row + 1] = [stop]
        rows[i] = row
    return rows


def _gaps(spans: list, first: float, last: float) -> list[tuple[float, float]]:
    """The stretches of [first, last] that no span of the lane covers."""
    gaps, cursor = [], first
    for start, stop, *_ in sorted(spans):
        if start > cursor:
            gaps.append((cursor, start - cursor))
        cursor = max(cursor, stop)
    if last > cursor:
        gaps.append((cursor, last - cursor))
    return gaps
