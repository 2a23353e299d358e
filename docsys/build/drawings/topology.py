"""Where the processes of a multi-node job ran: one box per agent (host), its workers inside, the rendezvous above.

Data: `{"forms": [{"form": "static", "agents": [{"agent": 0, "node": 0, "workers": [{"rank": 0,
"local_rank": 0}, ...]}, ...]}, ...]}`: per rendezvous form (a key of labels.yml's `forms`, which also
names who serves its store), the agents in the order they were started, the node rank each got and
the global and local rank of each worker it started, as the workers reported them. One panel per form.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch

from docsys.build.drawings import COLORS, INK, MUTED, FigureDataError, Words, need, text_on

AGENT_FILL, STORE_FILL = "#eeeeee", COLORS[1]
NODE_COLORS = (COLORS[0], COLORS[2], COLORS[3], COLORS[4])
CHIP = 0.34  # height of one worker's chip


def _forms(data: object) -> list[dict]:
    forms = need(data, "forms", list)
    if not forms:
        raise FigureDataError("data.forms is empty")
    for f, form in enumerate(forms):
        need(form, "form", str, f"forms[{f}]")
        agents = need(form, "agents", list, f"forms[{f}]")
        if not agents:
            raise FigureDataError(f"forms[{f}].agents is empty")
        for a, agent in enumerate(agents):
            where = f"forms[{f}].agents[{a}]"
            need(agent, "agent", int, where)
            need(agent, "node", int, where)
            for w, worker in enumerate(need(agent, "workers", list, where)):
                need(worker, "rank", int, f"{where}.workers[{w}]")
                need(worker, "local_rank", int, f"{where}.workers[{w}]")
    return forms


def draw(data: object, words: Words) -> Figure:
    forms = _forms(data)
    most_agents = max(len(form["agents"]) for form in forms)
    most_workers = max(len(agent["workers"]) for form in forms for agent in form["agents"])
    figure = Figure(figsize=(3.8 * len(forms), 2.0 + CHIP * most_workers), layout="constrained")
    for axes, form in zip(figure.subplots(1, len(forms), squeeze=False)[0], forms, strict=True):
        _panel(axes, form, words, most_agents, most_workers)
    return figure


def _panel(axes, form: dict, words: Words, columns: int, rows: int) -> None:
    agents = form["agents"]
    box_height = 0.45 + CHIP * rows
    store_y = box_height + 0.45
    _box(axes, (columns / 2 - 0.8, store_y), 1.6, 0.5, STORE_FILL, words(f"forms.{form['form']}.store"))
    for column, agent in enumerate(agents):
        left = column + 0.06
        axes.add_patch(FancyBboxPatch((left, 0), 0.88, box_height, facecolor=AGENT_FILL, edgecolor=MUTED,
                                      linewidth=0.6, boxstyle="round,pad=0,rounding_size=0.05"))
        axes.text(column + 0.5, box_height - 0.2, words("agent", agent=agent["agent"], node=agent["node"]),
                  ha="center", va="center", fontsize=8.5, color=INK)
        color = NODE_COLORS[agent["node"] % len(NODE_COLORS)]
        for row, worker in enumerate(agent["workers"]):
            y = box_height - 0.45 - CHIP * (row + 1)
            _box(axes, (left + 0.08, y + 0.03), 0.72, CHIP - 0.06, color,
                 words("worker", rank=worker["rank"], local_rank=worker["local_rank"]))
        axes.annotate("", xy=(columns / 2 + (column - (len(agents) - 1) / 2) * 0.5, store_y),
                      xytext=(column + 0.5, box_height),
                      arrowprops={"arrowstyle": "->", "color": MUTED, "linewidth": 0.8, "shrinkA": 1, "shrinkB": 1})
    axes.set_xlim(0, columns)
    axes.set_ylim(-0.05, store_y + 0.55)
    axes.set_axis_off()
    axes.set_title(words(f"forms.{form['form']}.title"), loc="left", fontsize=9, color=INK)


def _box(axes, corner: tuple[float, float], width: float, height: float, color: str, text: str) -> None:
    axes.add_patch(FancyBboxPatch(corner, width, height, color=color, boxstyle="round,pad=0,rounding_size=0.04"))
    axes.text(corner[0] + width / 2, corner[1] + height / 2, text, ha="center", va="center", fontsize=7.5,
              color=text_on(color))
