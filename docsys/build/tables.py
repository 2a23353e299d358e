"""A benchmark's recorded table as a reader sees it: the table, a bar chart, and where it was measured.

Drawn from the recording (docsys.core.recording: what `name.record.json` says was printed) while the page
is built; the chart is inline SVG, so nothing is written to disk or committed. `::: benchmarks`
(docsys.build.examples) renders every benchmark's this way, grouped by machine (all_benchmarks).
"""

from __future__ import annotations

import html
from pathlib import Path

from docsys.build.strings import strings
from docsys.core import bench, recording
from docsys.core.snippet import Snippet, discover


def isa_words(host: dict, lang: str) -> str:
    """The recording CPU's ISA features as a caption lists them (`avx2, avx512f`, or "no AVX-512")."""
    return ", ".join(host.get("isa") or []) or strings(lang)["isa_none"]


def caption(rec: recording.Record, lang: str) -> str:
    s, host, sw = strings(lang), rec.host, rec.data["software"]
    if rec.platform == "cuda":
        where = s["measured_gpu"].format(gpu=host["gpu"], driver=host.get("driver") or "?", cuda=sw["cuda"],
                                         torch=sw["torch"], date=rec.date)
    else:
        isa = isa_words(host, lang)
        key = "measured_cpu" if rec.threads else "measured_cpu_threads_column"
        where = s[key].format(cpu=host["cpu"], cores=host["cores"], isa=isa, threads=rec.threads,
                              torch=sw["torch"], date=rec.date)
    return (f'<p class="bench-caption">{html.escape(where)} · {s["reproduce"]}'
            f"<code>{html.escape(rec.command)}</code></p>")


def markdown_table(table: bench.Table) -> str:
    head = "| " + " | ".join(table.columns) + " |"
    rule = "|" + "|".join([":---", *["---:"] * (len(table.columns) - 1)]) + "|"
    return "\n".join([head, rule, *("| " + " | ".join(row) + " |" for row in table.rows)])


def default_plot(table: bench.Table) -> str | None:
    """The first numeric column that is a measurement, not a spread or a repeat count."""
    for i, column in enumerate(table.columns[1:], start=1):
        if column.startswith("IQR") or column in ("runs", "threads"):  # a setting, not a measurement
            continue
        if all(bench.number(row[i]) is not None for row in table.rows):
            return column
    return None


def bar_chart(table: bench.Table, column: str, label: str) -> str:
    """A horizontal bar chart of one column as inline SVG (themed by CSS)."""
    col = table.column(column)
    values = [(r[0], r[col], bench.number(r[col])) for r in table.rows if bench.number(r[col]) is not None]
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
            f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h}" class="bench-bar"/>'
            f'<text x="{left + w + 6:.1f}" y="{y + 13}">{html.escape(shown)}</text>'
        )
    return (
        f'<figure class="bench-chart"><svg role="img" aria-label="{html.escape(label)}" viewBox="0 0 600 {height}" '
        f'width="600" height="{height}" xmlns="http://www.w3.org/2000/svg" fill="currentColor" font-size="13">'
        f'<text x="{left}" y="13" font-weight="bold">{html.escape(column)}</text>{"".join(items)}</svg></figure>'
    )


def render(snippet: Snippet, lang: str, plot: str | None = None) -> str:
    """The recorded table of a benchmark, its chart and its caption (Markdown with inline HTML)."""
    rec = recording.read(snippet)
    assert rec is not None
    table = bench.parse_table(rec.printed)
    column = plot or default_plot(table)
    if plot is not None:
        table.column(plot)  # KeyError names the columns
    parts = [markdown_table(table)]
    if column is not None:
        parts.append(bar_chart(table, column, strings(lang)["chart"].format(column=column)))
    parts.append(caption(rec, lang))
    if snippet.method:
        s = strings(lang)
        method = s["method"].format(how=s["method_" + snippet.method[0]])
        parts.append(f'<p class="bench-caption">{html.escape(method)}</p>')
    return "\n\n".join(parts)


def other_lines(output: str) -> str:
    """What a benchmark printed besides its table and its `threads:` line."""
    lines = output.splitlines()
    try:
        table = bench.parse_table(output)
    except bench.TableError:
        return output
    header = next(i for i, line in enumerate(lines) if bench.is_header(line))
    end = header + 2 + len(table.rows)
    kept = [line for line in lines[:header] + lines[end:] if bench.threads(line) is None]
    return "\n".join(kept).strip("\n")


def all_benchmarks(root: Path, lang: str) -> str:
    """`::: benchmarks`: every recorded benchmark, one section per machine, then the GPU ones
    no GPU has measured yet."""
    s, parts = strings(lang), []
    benchmarks = [b for b in discover(root) if b.is_benchmark]
    recorded = [(recording.read(b), b) for b in benchmarks if recording.state(b) == recording.CURRENT]
    for machine in sorted({rec.machine for rec, _ in recorded}, key=lambda m: (not m.startswith("cuda"), m)):
        parts.append(f"### `{machine}` {{ #{machine} }}")
        for _rec, snippet in (item for item in recorded if item[0].machine == machine):
            parts.append(f"#### {snippet.key} {{ #{machine}-{snippet.key.replace('/', '-')} }}")
            slug = snippet.key.split("/", 1)[0]
            parts.append(s["discussed_on"].format(page=f"[{slug}]({slug}.md)"))
            parts.append(render(snippet, lang))
    if not parts:
        parts.append(s["no_results"])
    missing = [b.key for b in benchmarks if b.platform == "cuda" and recording.state(b) != recording.CURRENT]
    if missing:
        parts.append(f'!!! warning "{s["unmeasured"]}"\n\n' + "\n".join(f"    - `{k}`" for k in missing) + "\n")
    return "\n\n".join(parts)
