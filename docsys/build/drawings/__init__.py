"""Figure kinds: how the site build draws a snippet's recorded figure data (docsys.build.figures).

One module per kind, each with one function, `draw(data, words) -> matplotlib.figure.Figure`:
`data` is what the snippet's run recorded (`# figure: <var>=<kind>`, docsys.core.recording), `words`
the kind's labels in the page's language (labels.yml beside this file). A kind checks the data it
needs and raises FigureDataError with one line when something is missing. Every figure is drawn
the same way (`render`): matplotlib without pyplot, SVG with text kept as text (searchable and
crisp), fixed ids and no date (the same data gives the same bytes), a transparent background
and dark text, which the dark palette inverts with CSS like the graphs (docs/assets/extra.css).

Strings in the data are names from the code (an operator, a layer, `num_workers=2`) and are
drawn as they are; words that explain (axis titles, legends, lane names) come from labels.yml,
keyed by what the data says a lane or a span is, so each language gets its own.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import io
import re
from collections.abc import Mapping
from importlib.metadata import version
from pathlib import Path

import yaml

HERE = Path(__file__).parent
LABELS_FILE = HERE / "labels.yml"
KINDS = ("float_formats", "timeline", "memory_bars", "placements", "block_mask", "decode_graphs", "save_map",
         "module_collectives", "topology", "attempts",
         "mesh_rows")

# Okabe-Ito colours: told apart with every common colour-vision deficiency, and after the dark
# palette's inversion.
COLORS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#999999")
INK, MUTED, GRID = "#212121", "#5f5f5f", "#d0d0d0"
RC = {
    "svg.fonttype": "none",  # text as text
    "svg.hashsalt": "docsys-figures",  # the same clip-path ids in every run
    "svg.id": "figure",
    "font.family": ["DejaVu Sans", "Noto Sans CJK SC", "sans-serif"],
    "font.size": 10,
    "text.color": INK,
    "axes.labelcolor": INK,
    "axes.edgecolor": MUTED,
    "axes.facecolor": "none",
    "figure.facecolor": "none",
    "savefig.facecolor": "none",
    "savefig.transparent": True,
    "xtick.color": MUTED,
    "ytick.color": MUTED,
    "xtick.labelcolor": INK,
    "ytick.labelcolor": INK,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "grid.color": GRID,
    "legend.frameon": False,
}


def text_on(color: str) -> str:
    """Ink or white, whichever reads better on a fill colour (`#rrggbb`)."""
    red, green, blue = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return INK if 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 else "white"


class FigureDataError(ValueError):
    """The recorded data lacks what its kind draws (one line)."""


class Words:
    """A kind's labels in one language: `words("exponent")`, `words("worker", index=0)`."""

    def __init__(self, kind: str, lang: str) -> None:
        table = _labels()
        self.kind, self.lang = kind, lang if lang in table else "en"
        self.table: Mapping[str, object] = table[self.lang].get(kind, {})

    def __call__(self, key: str, **values: object) -> str:
        """The label of `key` (`lanes.worker` for a nested one), with its placeholders filled in."""
        table: object = self.table
        *groups, name = key.split(".")
        for group in groups:
            table = table.get(group, {}) if isinstance(table, dict) else {}
        if not isinstance(table, dict) or not isinstance(table.get(name), str):
            known = ", ".join(sorted(table)) if isinstance(table, dict) else ""
            raise FigureDataError(f"no {self.lang} label '{key}' for {self.kind} figures in "
                                  f"docsys/build/drawings/labels.yml (known: {known})")
        return table[name].format(**values)


@functools.cache
def _labels() -> dict[str, dict[str, dict[str, str]]]:
    return yaml.safe_load(LABELS_FILE.read_text(encoding="utf-8"))


def languages() -> list[str]:
    return list(_labels())


@functools.cache
def code_hash() -> str:
    """What every drawn figure depends on besides its data: this package and matplotlib."""
    digest = hashlib.sha256(version("matplotlib").encode())
    for path in [*sorted(HERE.glob("*.py")), LABELS_FILE]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def render(kind: str, data: object, lang: str) -> bytes:
    """The SVG of one figure; FigureDataError when the data does not fit the kind."""
    if kind not in KINDS:
        raise FigureDataError(f"unknown figure kind '{kind}' (known: {', '.join(KINDS)})")
    import matplotlib

    module = importlib.import_module(f"{__name__}.{kind}")
    with matplotlib.rc_context(RC):
        figure = module.draw(data, Words(kind, lang))
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return _tidy(buffer.getvalue()).encode()


def _tidy(svg: str) -> str:
    """Without matplotlib's comment lines and empty metadata: only what the browser draws."""
    svg = re.sub(r"<!--.*?-->\s*", "", svg, flags=re.S)
    return re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)


def need(data: object, key: str, kind: type | tuple[type, ...], where: str = "data") -> object:
    """`data[key]`, of the given type, or a FigureDataError that names what is missing."""
    if not isinstance(data, dict) or key not in data:
        raise FigureDataError(f"{where} has no '{key}'")
    value, types = data[key], kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        names = "/".join(t.__name__ for t in types)
        raise FigureDataError(f"{where}.{key} is {type(value).__name__}, not {names}")
    return value


NUMBER = (int, float)


def bare_grid(axes) -> None:
    """A grid of cells labelled by its ticks: no tick marks, no frame."""
    axes.tick_params(length=0)
    for side in ("left", "bottom", "top", "right"):
        axes.spines[side].set_visible(False)
