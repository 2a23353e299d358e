"""A training run's attempts on one step axis: the steps each rank trained, the checkpoints it saved and
loaded, and where it crashed.

Data: `{"lanes": [{"attempt": 0, "rank": 1, "events": [["start", 0], ["step", 0], ["save", 3], ...,
["crash", 7]]}, ...]}`: one lane per attempt and rank, in the order drawn, each with what that process
did in order, every event one of EVENTS with a step: `start` (no checkpoint, at step 0), `load` (the
checkpoint saved after that many steps), `step` (that step trained), `save` (a checkpoint after that many
steps), `crash` (raised before that step). A step trained by the same rank in an earlier attempt is
drawn as trained again: the work a restart repeats.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from docsys.build.drawings import COLORS, GRID, INK, MUTED, FigureDataError, Words, need, text_on

EVENTS = ("start", "load", "step", "save", "crash")
TRAINED, AGAIN, CRASH, LOAD = COLORS[0], COLORS[1], COLORS[5], COLORS[2]


def _lanes(data: object) -> list[dict]:
    lanes = need(data, "lanes", list)
    if not lanes:
        raise FigureDataError("data.lanes is empty")
    for index, lane in enumerate(lanes):
        where = f"lanes[{index}]"
        need(lane, "attempt", int, where)
        need(lane, "rank", int, where)
        for e, event in enumerate(need(lane, "events", list, where)):
            ok = isinstance(event, list) and len(event) == 2 and isinstance(event[1], int)
            if not ok or event[0] not in EVENTS:
                raise FigureDataError(f"{where}.events[{e}] is not [event, step] with an event of {', '.join(EVENTS)}")
    return lanes


def draw(data: object, words: Words) -> Figure:
    lanes = _lanes(data)
    figure = Figure(figsize=(7.6, 1.3 + 0.42 * len(lanes)), layout="constrained")
    axes = figure.subplots()
    trained: dict[int, set[int]] = {}  # per rank, the steps an earlier attempt trained
    saves: dict[tuple[int, int], int] = {}  # (rank, checkpoint step) -> the lane that saved it
    end = max(step + (event == "step") for lane in lanes for event, step in lane["events"])
    for row, lane in enumerate(lanes):
        done = trained.setdefault(lane["rank"], set())
        steps = [step for event, step in lane["events"] if event == "step"]
        for step in steps:
            color = AGAIN if step in done else TRAINED
            axes.broken_barh([(step, 1)], (-row - 0.3, 0.6), facecolor=color, edgecolor="white", linewidth=0.6)
            axes.text(step + 0.5, -row, str(step), ha="center", va="center", fontsize=7.5, color=text_on(color))
        done.update(steps)
        for event, step in lane["events"]:
            _mark(axes, row, event, step, saves.get((lane["rank"], step)), words)
            if event == "save":
                saves[(lane["rank"], step)] = row
    axes.set_xlim(-0.2, end + 0.2)
    axes.set_ylim(-len(lanes) + 0.45, 0.55)
    axes.set_xticks(range(end + 1))
    axes.set_xlabel(words("step_axis"), color=MUTED)
    axes.set_yticks([-row for row in range(len(lanes))],
                    [words("lane", attempt=lane["attempt"], rank=lane["rank"]) for lane in lanes])
    axes.tick_params(axis="y", length=0)
    axes.spines["left"].set_visible(False)
    axes.grid(axis="x", color=GRID, linewidth=0.5)
    axes.set_axisbelow(True)
    figure.legend(handles=_legend(words), loc="outside upper center", ncols=5, fontsize=8.5, handlelength=1.2)
    return figure


def _mark(axes, row: int, event: str, step: int, saved_in: int | None, words: Words) -> None:
    if event == "save":
        axes.plot([step], [-row + 0.38], marker="v", markersize=6, color=INK, linestyle="none")
    elif event == "crash":
        axes.plot([step], [-row], marker="X", markersize=9, color=CRASH, linestyle="none")
        axes.text(step + 0.3, -row, words("crash"), ha="left", va="center", fontsize=8, color=CRASH)
    elif event == "load":
        axes.plot([step], [-row], marker=">", markersize=7, color=LOAD, linestyle="none")
        if saved_in is not None:  # down from the checkpoint this lane loaded
            axes.plot([step, step], [-saved_in + 0.3, -row], color=LOAD, linewidth=1, linestyle=(0, (3, 2)))


def _legend(words: Words) -> list:
    return [Patch(facecolor=TRAINED, label=words("legend.step")),
            Patch(facecolor=AGAIN, label=words("legend.again")),
            Line2D([], [], marker="v", color=INK, linestyle="none", label=words("legend.save")),
            Line2D([], [], marker=">", color=LOAD, linestyle="none", label=words("legend.load")),
            Line2D([], [], marker="X", color=CRASH, linestyle="none", label=words("legend.crash"))]
