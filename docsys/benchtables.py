"""Build hook: benchmark result files rendered into pages (tables, bar charts, ratios).

Registered in mkdocs.yml `hooks:`. On a page, outside code fences:

    <!-- bench: no-grad-inference/bench_forward -->
        the result tables of `snippets/no-grad-inference/bench_forward.py`, one per machine
        that measured it, each with a bar chart and a provenance caption;
        `<!-- bench: KEY plot="peak memory (MiB)" -->` charts that column instead of the
        first numeric one.
    <!-- bench-all -->
        every result of every machine, grouped per machine (the `benchmarks` page).
    {{ ratio: no-grad-inference/bench_forward, "train", "inference_mode", "median (ms)" }}
        value of "train" divided by value of "inference_mode" in that column, as `1.8×`.
    {{ value: no-grad-inference/bench_forward, "train", "median (ms)" }}
        one measured value, as printed.

Tokens read the result of the snippet's own kind (cuda for snippets marked `cuda`, else
cpu), the most recent one if several machines measured it. A cuda benchmark without a
result renders as "not yet measured on a GPU". A missing CPU result, a stale result (its
snippet changed since), an unknown benchmark, variant or column is a build warning of one
line, so `mkdocs build --strict` fails. Charts are inline SVG computed from the result
files: nothing is written to disk and nothing generated is committed.
"""

from __future__ import annotations

import html
import logging
import re
from dataclasses import dataclass, field

from docsys.bench import Result, Table, is_benchmark, key_of, kind_of, load_results, number
from docsys.pages import fences
from docsys.paths import DOCS_DIR, SNIPPETS_DIR, page_lang
from docsys.snippets import SnippetHeaderError, load

log = logging.getLogger("mkdocs.hooks.benchtables")

BLOCK_RE = re.compile(
    r"^(?P<indent>[ \t]*)<!--\s*bench:\s*(?P<key>[\w./-]+)(?:\s+plot=\"(?P<plot>[^\"]+)\")?\s*-->\s*$"
)
ALL_RE = re.compile(r"^<!--\s*bench-all\s*-->\s*$")
TOKEN_RE = re.compile(r"\{\{\s*(?P<fn>ratio|value):\s*(?P<args>[^}]*?)\s*\}\}")
_ARGS_RE = re.compile(r'^(?P<key>[\w./-]+)((?:\s*,\s*"[^"]*")+)$')

TEXT = {
    "en": {
        "not_measured": "not yet measured on a GPU",
        "not_measured_note": "This benchmark needs a CUDA GPU and has not yet been measured on one.",
        "where_cpu": "Measured on {cpu} ({cores} cores)",
        "where_gpu": "Measured on {gpu} (driver {driver}), CUDA {cuda}",
        "reproduce": "reproduce: ",
        "chart": "Bar chart of {column}",
        "none": "No benchmark results have been recorded yet.",
        "unmeasured": "CUDA benchmarks not yet measured on a GPU",
        "shown_on": "Discussed on {page}.",
    },
    "zh": {
        "not_measured": "尚未在 GPU 上测量",
        "not_measured_note": "这个基准测试需要 CUDA GPU，尚未在 GPU 上测量。",
        "where_cpu": "测量环境：{cpu}（{cores} 核）",
        "where_gpu": "测量环境：{gpu}（驱动 {driver}），CUDA {cuda}",
        "reproduce": "复现命令：",
        "chart": "{column} 柱状图",
        "none": "尚未记录任何基准测试结果。",
        "unmeasured": "尚未在 GPU 上测量的 CUDA 基准测试",
        "shown_on": "讨论见 {page} 页面。",
    },
}


class BenchError(ValueError):
    """A page asks for something the result files cannot give (one line)."""


# ----------------------------------------------------------------------------- hook entry point


def on_page_markdown(markdown: str, page, config, files) -> str:
    rendered, problems = render_page(markdown, page_lang(page.file.src_uri), load_results())
    for problem in problems:
        log.warning(f"bench: {page.file.src_uri}: {problem}")
    return rendered


def references(markdown: str) -> tuple[list[str], list[str]]:
    """What a page asks of the result files, outside fences: its bench blocks in order, and
    the quantities its tokens quote, sorted. A translation may order a sentence differently,
    or state a ratio the other way round (`0.13×` for `7.7× less`); zh and en must match."""
    lines = markdown.split("\n")
    in_fence = {i for f in fences(lines) for i in range(f.start, f.end + 1)}
    outside = [line for i, line in enumerate(lines) if i not in in_fence]
    blocks = [line.strip() for line in outside if BLOCK_RE.match(line) or ALL_RE.match(line)]
    tokens = []
    for m in (m for line in outside for m in TOKEN_RE.finditer(line)):
        key, quoted = m["args"].split(",", 1)[0].strip(), re.findall(r'"([^"]*)"', m["args"])
        if m["fn"] == "ratio" and len(quoted) == 3:
            quoted = [*sorted(quoted[:2]), quoted[2]]
        tokens.append(f"{m['fn']}: {key}, {quoted}")
    return blocks, sorted(tokens)


# ----------------------------------------------------------------------------- rendering


@dataclass
class Results:
    """The result files, indexed by benchmark key."""

    all: list[Result]
    by_key: dict[str, list[Result]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for result in self.all:
            self.by_key.setdefault(result.key, []).append(result)


def render_page(markdown: str, lang: str, results: list[Result]) -> tuple[str, list[str]]:
    """The page with every bench include and token rendered, and one line per problem."""
    index, problems = Results(results), []
    lines = markdown.split("\n")
    in_fence = {i for f in fences(lines) for i in range(f.start, f.end + 1)}
    out = []
    for i, line in enumerate(lines):
        if i in in_fence:
            out.append(line)
            continue
        try:
            if m := BLOCK_RE.match(line):  # indented (in an admonition or tab): indent what replaces it
                block = _block(m["key"], m["plot"], lang, index)
                out.append("\n".join(m["indent"] + row if row else row for row in block.split("\n")))
            elif ALL_RE.match(line):
                out.append(_all(lang, index))
            else:
                out.append(TOKEN_RE.sub(lambda t: _token(t["fn"], t["args"], lang, index), line))
        except BenchError as error:
            problems.append(str(error))
            out.append(line)
    return "\n".join(out), problems


def _snippet_kind(key: str) -> str:
    path = SNIPPETS_DIR / f"{key}.py"
    try:
        snippet = load(path)
    except (OSError, SnippetHeaderError) as error:
        raise BenchError(f"no benchmark snippet snippets/{key}.py ({error.__class__.__name__})") from None
    if not is_benchmark(snippet):
        raise BenchError(f"snippets/{key}.py is not a benchmark (its name must match bench_*.py)")
    return kind_of(snippet)


def _stale(result: Result) -> BenchError:
    return BenchError(
        f"{result.key} on {result.machine} is stale (snippet changed); re-run `{result.provenance['command']}`"
    )


def _fresh(key: str, index: Results) -> list[Result]:
    """The results of the snippet's own kind, newest first; a stale one is an error."""
    kind = _snippet_kind(key)
    found = [r for r in index.by_key.get(key, []) if r.provenance["kind"] == kind]
    for r in found:
        if r.stale:
            raise _stale(r)
    if not found and kind == "cpu":
        raise BenchError(f"{key}: no result file; run `python -m docsys bench {key}.py`")
    return sorted(found, key=lambda r: r.provenance["date"], reverse=True)


def _token(fn: str, args: str, lang: str, index: Results) -> str:
    m = _ARGS_RE.match(args)
    if not m:
        raise BenchError(f'cannot read {{{{ {fn}: {args} }}}}; write {{{{ {fn}: slug/bench_name, "..." }}}}')
    key, quoted = m["key"], re.findall(r'"([^"]*)"', m[2])
    if len(quoted) != (3 if fn == "ratio" else 2):
        raise BenchError(f"{{{{ {fn}: {args} }}}} needs {'3' if fn == 'ratio' else '2'} quoted arguments")
    found = _fresh(key, index)
    if not found:
        return TEXT[lang]["not_measured"]
    table = found[0].table
    try:
        if fn == "value":
            return table.value(quoted[0], quoted[1])
        a, b = table.value(quoted[0], quoted[2]), table.value(quoted[1], quoted[2])
    except KeyError as error:
        raise BenchError(f"{key}: {error.args[0]}") from None
    x, y = number(a), number(b)
    if x is None or y is None or y == 0:
        raise BenchError(f"{key}: cannot divide {a!r} by {b!r}")
    return ratio_text(x / y)


def ratio_text(ratio: float) -> str:
    """`12×`, `1.8×`, `0.94×`: enough digits to read, no false precision."""
    if ratio >= 10:
        return f"{ratio:.0f}×"
    if ratio >= 1:
        return f"{ratio:.1f}×"
    return f"{ratio:.2f}×"


def _block(key: str, plot: str | None, lang: str, index: Results) -> str:
    found = _fresh(key, index)
    if not found:
        return f'!!! warning "{TEXT[lang]["not_measured"]}"\n    {TEXT[lang]["not_measured_note"]}\n'
    if plot is not None and plot not in found[0].table.columns:
        raise BenchError(f"{key}: no column {plot!r} to plot; columns are {found[0].table.columns}")
    return "\n\n".join(render_result(r, lang, plot) for r in found)


def render_result(result: Result, lang: str, plot: str | None = None) -> str:
    """One result: its table, a bar chart of one column, and a provenance caption."""
    table = result.table
    head = "| " + " | ".join(table.columns) + " |"
    rule = "|" + "|".join([":---", *["---:"] * (len(table.columns) - 1)]) + "|"
    rows = ["| " + " | ".join(row) + " |" for row in table.rows]
    parts = ["\n".join([head, rule, *rows])]
    numeric = [c for i, c in enumerate(table.columns) if i and all(number(r[i]) is not None for r in table.rows)]
    column = plot or (numeric[0] if numeric else None)
    if column is not None:
        parts.append(bar_chart(table, column, TEXT[lang]["chart"].format(column=column)))
    parts.append(caption(result, lang))
    return "\n\n".join(parts)


def caption(result: Result, lang: str) -> str:
    p, t = result.provenance, TEXT[lang]
    where = t["where_gpu" if p["kind"] == "cuda" else "where_cpu"].format(**{**p, "driver": p.get("driver") or "?"})
    return (
        f'<p class="bench-caption">{html.escape(where)} · torch {html.escape(p["torch"])} · {p["date"][:10]} · '
        f'{t["reproduce"]}<code>{html.escape(p["command"])}</code></p>'
    )


def bar_chart(table: Table, column: str, label: str) -> str:
    """A horizontal bar chart of one column as inline SVG (themed by CSS, no files)."""
    col = table.column(column)
    values = [(r[0], r[col], number(r[col])) for r in table.rows if number(r[col]) is not None]
    top = max((v for _, _, v in values), default=0.0) or 1.0
    left = 16 + 7 * max((len(name) for name, _, _ in values), default=8)
    width, bar_h, gap = 560 - left, 18, 8
    height = len(values) * (bar_h + gap) + 24
    items = []
    for n, (name, shown, value) in enumerate(values):
        y = 22 + n * (bar_h + gap)
        w = max(1.0, (width - 60) * value / top)
        items.append(
            f'<text x="{left - 8}" y="{y + 13}" text-anchor="end">{html.escape(name)}</text>'
            f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h}" '
            f'style="fill: var(--md-accent-fg-color, #ff6e42)"/>'
            f'<text x="{left + w + 6:.1f}" y="{y + 13}">{html.escape(shown)}</text>'
        )
    return (
        f'<figure class="bench-chart"><svg role="img" aria-label="{html.escape(label)}" viewBox="0 0 600 {height}" '
        f'width="600" height="{height}" xmlns="http://www.w3.org/2000/svg" fill="currentColor" font-size="13">'
        f'<text x="{left}" y="13" font-weight="bold">{html.escape(column)}</text>{"".join(items)}</svg></figure>'
    )


def _all(lang: str, index: Results) -> str:
    """Every result, one section per machine, then the CUDA benchmarks nobody measured yet."""
    from docsys.bench import benchmarks

    t, parts = TEXT[lang], []
    machines = list(dict.fromkeys(r.machine for r in index.all))
    for machine in machines:
        parts.append(f"### `{machine}` {{ #{machine} }}")
        for r in (r for r in index.all if r.machine == machine):
            if r.stale:
                raise _stale(r)
            parts.append(f"#### {r.key} {{ #{machine}-{r.key.replace('/', '-')} }}")
            slug = r.key.split("/", 1)[0]
            if (DOCS_DIR / lang / f"{slug}.md").exists():
                parts.append(t["shown_on"].format(page=f"[{slug}]({slug}.md)"))
            parts.append(render_result(r, lang))
    if not parts:
        parts.append(t["none"])
    measured_cuda = {r.key for r in index.all if r.provenance["kind"] == "cuda"}
    missing = [key_of(s.rel) for s in benchmarks() if kind_of(s) == "cuda" and key_of(s.rel) not in measured_cuda]
    if missing:
        parts.append(f'!!! warning "{t["unmeasured"]}"\n' + "\n".join(f"    - `{k}`" for k in missing) + "\n")
    return "\n\n".join(parts)
