"""Which collectives each module of a tensor-parallel model runs, per pass, as CommDebugMode saw them.

Data: `{"modules": [{"module": "attention", "input": "R", "forward": ["all_gather_into_tensor", ...],
"backward": [...]}, ...]}`: the top-level modules in forward order (names from the code, drawn as they
are; the loss computed outside every module is one more entry), the placement the module's input
arrives in after its input style (`S(1)`, `R`, as DTensor prints it), and its collectives in the order
they ran, each one of COLLECTIVES. One column per module, one row per pass, one chip per collective.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Patch

from docsys.build.drawings import COLORS, MUTED, FigureDataError, Words, bare_grid, need, text_on

COLLECTIVES = {"all_gather_into_tensor": COLORS[0], "reduce_scatter_tensor": COLORS[1], "all_reduce": COLORS[3]}
PASSES = ("forward", "backward")
CHIP = 0.26  # height of one collective's chip, in rows


def _modules(data: object) -> list[dict]:
    modules = need(data, "modules", list)
    if not modules:
        raise FigureDataError("data.modules is empty")
    for m, module in enumerate(modules):
        where = f"modules[{m}]"
        need(module, "module", str, where)
        need(module, "input", str, where)
        for name in PASSES:
            for kind in need(module, name, list, where):
                if kind not in COLLECTIVES:
                    known = ", ".join(COLLECTIVES)
                    raise FigureDataError(f"{where}.{name}: unknown collective '{kind}' (known: {known})")
    return modules


def draw(data: object, words: Words) -> Figure:
    modules = _modules(data)
    figure = Figure(figsize=(1.4 + 0.98 * len(modules), 2.6), layout="constrained")
    axes = figure.subplots()
    for c, module in enumerate(modules):
        for r, name in enumerate(PASSES):
            _cell(axes, c, -r, module[name], words)
    axes.set_xlim(0, len(modules))
    axes.set_ylim(-len(PASSES) - 0.05, 0.05)
    labels = [f"{m['module']}\n{words('input', placement=m['input'])}" for m in modules]
    axes.set_xticks([c + 0.47 for c in range(len(modules))], labels, fontsize=7.5)
    axes.xaxis.tick_top()
    axes.set_yticks([-r - 0.5 for r in range(len(PASSES))], [words(f"passes.{name}") for name in PASSES])
    bare_grid(axes)
    handles = [Patch(color=color, label=words(f"collectives.{kind}")) for kind, color in COLLECTIVES.items()]
    figure.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize=9, handlelength=1.2)
    return figure


def _cell(axes, column: int, top: float, kinds: list[str], words: Words) -> None:
    if not kinds:
        axes.text(column + 0.47, top - 0.5, words("none"), ha="center", va="center", fontsize=7.5, color=MUTED)
        return
    first = top - 0.5 + CHIP * len(kinds) / 2
    for i, kind in enumerate(kinds):
        y = first - CHIP * (i + 1)
        color = COLLECTIVES[kind]
        axes.add_patch(FancyBboxPatch((column + 0.06, y + 0.02), 0.82, CHIP - 0.04, color=color,
                                      boxstyle="round,pad=0,rounding_size=0.04"))
        axes.text(column + 0.47, y + CHIP / 2, words(f"short.{kind}"), ha="center", va="center", fontsize=7,
                  color=text_on(color))
