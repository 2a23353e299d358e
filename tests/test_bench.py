"""Benchmark machinery: result tables parsed, masked, rendered; stale or missing results fail."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from docsys import bench, benchtables
from docsys import snippets as snippets_module
from docsys.bench import TableParseError, load_results, parse_table, problems
from docsys.benchtables import render_page
from docsys.paths import ROOT
from docsys.snippets import load, normalize
from docsys.snippets import source_sha256 as source_hash

TABLE = """\
warming up
| variant | median (ms) | peak memory (MiB) |
|---|---:|---:|
| baseline | 12.50 | 40.0 |
| technique | 5.00 | n/a |
done
"""


def test_real_results_are_fresh_and_every_cpu_benchmark_has_one():
    found = problems(load_results(), bench.benchmarks())
    assert not found, "\n".join(found)


def test_parse_table_keeps_cells_as_printed():
    table = parse_table(TABLE)
    assert table.columns == ["variant", "median (ms)", "peak memory (MiB)"]
    assert table.rows == [["baseline", "12.50", "40.0"], ["technique", "5.00", "n/a"]]
    assert table.value("technique", "median (ms)") == "5.00"


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (TABLE.replace("| variant", "| name"), "found 0"),
        (TABLE + TABLE, "found 2"),
        (TABLE.replace("|---|---:|---:|", "|---|---:|"), "rule"),
        (TABLE.replace("| 5.00 | n/a |", "| 5.00 |"), "has 2 cells"),
        (TABLE.replace("technique", "baseline"), "unique"),
    ],
)
def test_malformed_table_is_rejected(fault, message):
    with pytest.raises(TableParseError, match=message):
        parse_table(fault)


def test_normalize_masks_benchmark_cells_only():
    assert normalize(TABLE) == normalize(TABLE.replace("12.50", "99.1").replace("40.0", "3"))
    assert normalize(TABLE) != normalize(TABLE.replace("baseline", "base"))  # names still compared
    plain = "| a | b |\n|---|---|\n| 1 | 2 |"
    assert normalize(plain) != normalize(plain.replace("2", "3"))  # other tables untouched


# ----------------------------------------------------------------------------- a fake tree


def _result(root: Path, snippet: Path, kind: str, rows: list[list[str]], sha: str | None = None) -> Path:
    key = f"{snippet.parent.name}/{snippet.stem}"
    machine = "cuda-test-gpu" if kind == "cuda" else "cpu-test-2c"
    path = root / machine / f"{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    prov = {
        "machine": machine, "kind": kind, "cpu": "Test CPU", "cores": 2, "gpu": "Test GPU" if kind == "cuda" else None,
        "torch": "2.13.0", "cuda": "12.8" if kind == "cuda" else None, "driver": "570.1", "python": "3.11",
        "date": "2026-11-29T00:00Z", "command": f"python -m docsys bench {key}.py",
    }  # fmt: skip
    data = {"benchmark": key, "source_sha256": sha or source_hash(snippet), "provenance": prov,
            "columns": ["variant", "median (ms)"], "rows": rows}  # fmt: skip
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """snippets/demo/bench_cpu.py (measured) and bench_gpu.py (cuda, not measured)."""
    snippets, results = tmp_path / "snippets", tmp_path / "results"
    (snippets / "demo").mkdir(parents=True)
    (snippets / "demo" / "bench_cpu.py").write_text('print("| variant | median (ms) |")\n')
    (snippets / "demo" / "bench_gpu.py").write_text("# marks: cuda\nimport torch\n")
    _result(results, snippets / "demo" / "bench_cpu.py", "cpu", [["baseline", "9.0"], ["technique", "2.0"]])
    for module in (bench, benchtables, snippets_module):
        monkeypatch.setattr(module, "SNIPPETS_DIR", snippets)
    monkeypatch.setattr(bench, "discover", lambda: [load(p) for p in sorted(snippets.rglob("*.py"))])
    monkeypatch.setenv(bench.RESULTS_ENV, str(results))
    return tmp_path


PAGE = """\
Speed-up: {{ ratio: demo/bench_cpu, "baseline", "technique", "median (ms)" }}.

<!-- bench: demo/bench_cpu -->

```markdown
<!-- bench: demo/bench_cpu -->
```
"""


def test_page_renders_table_chart_caption_and_ratio(tree):
    text, found = render_page(PAGE, "en", load_results())
    assert found == []
    assert "Speed-up: 4.5×." in text
    assert "| baseline | 9.0 |" in text and "<svg" in text
    assert "Measured on Test CPU (2 cores) · torch 2.13.0 · 2026-11-29" in text
    assert "```markdown\n<!-- bench: demo/bench_cpu -->\n```" in text  # fences are left alone


def test_indented_block_renders_indented(tree):
    text, found = render_page('!!! note "Result"\n\n    <!-- bench: demo/bench_cpu -->\n', "en", load_results())
    assert found == [] and "\n    | baseline | 9.0 |" in text and "\n    <figure" in text


def test_cuda_benchmark_without_result_says_not_yet_measured(tree):
    page = '<!-- bench: demo/bench_gpu -->\n{{ ratio: demo/bench_gpu, "a", "b", "median (ms)" }}'
    text, found = render_page(page, "zh", load_results())
    assert found == [] and "尚未在 GPU 上测量" in text
    assert "demo/bench_gpu" in render_page("<!-- bench-all -->", "en", load_results())[0]


@pytest.mark.parametrize(
    ("page", "message"),
    [
        ('{{ ratio: demo/bench_cpu, "baseline", "nope", "median (ms)" }}', "no variant 'nope'"),
        ('{{ ratio: demo/bench_cpu, "baseline", "technique", "mean (ms)" }}', "no column 'mean (ms)'"),
        ('{{ ratio: demo/bench_cpu, "baseline" }}', "needs 3 quoted arguments"),
        ("<!-- bench: demo/bench_nope -->", "no benchmark snippet"),
        ('<!-- bench: demo/bench_cpu plot="x" -->', "no column 'x' to plot"),
    ],
)
def test_bad_reference_is_one_problem(tree, page, message):
    _, found = render_page(page, "en", load_results())
    assert len(found) == 1 and message in found[0]


def test_changed_snippet_makes_its_result_stale(tree):
    snippet = tree / "snippets" / "demo" / "bench_cpu.py"
    snippet.write_text(snippet.read_text() + "# changed\n")
    _, found = render_page("<!-- bench: demo/bench_cpu -->", "en", load_results())
    assert len(found) == 1 and "stale" in found[0]
    assert any("stale" in p for p in problems(load_results(), bench.benchmarks()))


def test_missing_cpu_result_is_one_problem(tree):
    for path in (tree / "results").rglob("*.json"):
        path.unlink()
    _, found = render_page("<!-- bench: demo/bench_cpu -->", "en", load_results())
    assert found == ["demo/bench_cpu: no result file; run `python -m docsys bench demo/bench_cpu.py`"]
    assert any("no result file" in p for p in problems(load_results(), bench.benchmarks()))


def test_strict_build_fails_on_a_missing_result_with_one_line(tmp_path):
    """A whole (tiny) MkDocs site with the hook: a page asks for a result that does not exist."""
    (tmp_path / "docs").mkdir()
    key = bench.key_of(next(s for s in bench.benchmarks() if bench.kind_of(s) == "cpu").rel)
    (tmp_path / "docs" / "index.md").write_text(f"# Page\n\n<!-- bench: {key} -->\n")
    (tmp_path / "mkdocs.yml").write_text(f"site_name: t\nhooks:\n  - {ROOT / 'docsys' / 'benchtables.py'}\n")
    env = {**os.environ, bench.RESULTS_ENV: str(tmp_path / "empty"), "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict"]
    proc = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("WARNING")]
    assert proc.returncode != 0
    assert warnings == [f"WARNING -  bench: index.md: {key}: no result file; run `python -m docsys bench {key}.py`"]


def test_gpu_result_is_rendered_with_its_gpu(tree):
    gpu = tree / "snippets" / "demo" / "bench_gpu.py"
    _result(tree / "results", gpu, "cuda", [["float32", "30.0"], ["bfloat16", "10.0"]])
    text, found = render_page('<!-- bench: demo/bench_gpu -->\n{{ ratio: demo/bench_gpu, "float32", '
                              '"bfloat16", "median (ms)" }}', "en", load_results())
    assert found == [] and "Measured on Test GPU (driver 570.1), CUDA 12.8" in text and "\n3.0×" in text
    assert "not yet measured" not in text


def test_every_page_asks_only_for_results_that_exist():
    from docsys.paths import LANGS, page_paths

    results = load_results()
    found = [
        f"{page.parent.name}/{page.name}: {problem}"
        for lang in LANGS
        for page in page_paths(lang)
        for problem in render_page(page.read_text(encoding="utf-8"), lang, results)[1]
    ]
    assert not found, "\n".join(found)


def test_translation_without_a_benchmark_table_breaks_parity(tmp_path):
    import shutil

    from docsys.parity import check_tree
    from docsys.paths import DOCS_DIR

    docs = tmp_path / "docs"
    shutil.copytree(DOCS_DIR, docs)
    page = docs / "zh" / "no-grad-inference.md"
    assert not any("zh/no-grad-inference.md" in p for p in check_tree(docs))
    page.write_text(page.read_text(encoding="utf-8").replace("<!-- bench: no-grad-inference/bench_forward ", "<!-- "))
    assert any("zh/no-grad-inference.md: benchmark tables or tokens differ" in p for p in check_tree(docs))


def test_measure_writes_output_and_result_from_one_run(tree):
    snippet = tree / "snippets" / "demo" / "bench_cpu.py"
    snippet.write_text('print("note")\nprint("| variant | median (ms) |")\nprint("|---|---:|")\nprint("| a | 1.5 |")\n')
    ok, message = bench.measure(load(snippet))
    assert ok, message
    assert snippet.with_suffix(".out").read_text() == "note\n| variant | median (ms) |\n|---|---:|\n| a | 1.5 |\n"
    (result,) = [r for r in load_results() if r.key == "demo/bench_cpu" and r.machine != "cpu-test-2c"]
    assert result.table.rows == [["a", "1.5"]] and not result.stale
    assert {"machine", "cpu", "cores", "torch", "date", "command"} <= result.provenance.keys()
    assert result.provenance["command"] == "python -m docsys bench demo/bench_cpu.py"


def test_measure_refuses_output_without_a_table(tree):
    snippet = tree / "snippets" / "demo" / "bench_cpu.py"
    snippet.write_text('print("no table here")\n')
    ok, message = bench.measure(load(snippet))
    assert not ok and "found 0" in message
    assert not snippet.with_suffix(".out").exists()
