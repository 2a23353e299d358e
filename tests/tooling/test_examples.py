"""docsys.build.examples: a page names an example once; the build attaches what belongs to it."""

from __future__ import annotations

from docsys.checks.site import warnings_of
from docsys.core.text import example_directives
from tests.tooling.site_fixture import build_copy, text_of


def _page(built, lang="en", slug="demo"):
    prefix = built.path if lang == "en" else built.path / lang
    return text_of((prefix / slug / "index.html").read_text(encoding="utf-8"))


def test_the_fixture_builds_strictly(fixture_site):
    assert fixture_site.returncode == 0 and warnings_of(fixture_site) == [], fixture_site.log


def test_code_without_its_header_then_its_output(fixture_site):
    page = _page(fixture_site)
    assert 'print("hello")' in page and "# timeout" not in page
    assert "Outputhello\nfrom the middle\nto stderr" in page
    assert 'demo/hello.py (middle)print("from the middle")' in page, "a section shows only its lines"


def test_a_gpu_example_says_so_in_both_languages(fixture_site):
    assert "demo/gpu_only.py · needs a CUDA GPU" in _page(fixture_site)
    assert "Not yet recorded on a GPU" in _page(fixture_site)
    zh = _page(fixture_site, "zh")
    assert "demo/gpu_only.py · 需要 CUDA GPU" in zh and "尚未在 GPU 上录制" in zh and "输出" in zh


def test_a_benchmark_shows_its_table_and_where_it_was_measured(fixture_site):
    page = _page(fixture_site)
    assert "Measured on " in page and "with 1 thread(s)" in page
    assert "reproduce: python -m docsys record demo/bench_demo.py" in page
    assert "The fast variant took 0.50× the time of the slow one,\nand kept 1.00 MiB." in page


def test_the_directive_has_one_parser_that_skips_fences_and_reads_options():
    lines = ['::: example demo/hello.py', '```markdown', '::: example demo/hidden.py', '```',
             '    ::: example demo/bench_demo.py plot="median (ms)" title="A title"',
             '::: example demo/hello.py:middle']
    found = example_directives(lines)
    assert [(d.line, d.snippet, d.section) for d in found] == [
        (0, "demo/hello.py", None), (4, "demo/bench_demo.py", None), (5, "demo/hello.py", "middle")]
    assert found[1].indent == "    " and found[1].options == {"plot": "median (ms)", "title": "A title"}


def test_an_unknown_snippet_or_option_is_a_warning(fixture_copy):
    page = fixture_copy / "docs" / "en" / "demo.md"
    page.write_text(page.read_text() + '\n::: example demo/nope.py\n\n::: example demo/hello.py colour="red"\n')
    found = "\n".join(warnings_of(build_copy(fixture_copy)))
    assert "en/demo.md: '::: example demo/nope.py': no such snippet" in found
    assert "unknown option(s) ['colour']" in found


def test_a_stale_recording_is_a_warning(fixture_copy):
    snippet = fixture_copy / "snippets" / "demo" / "hello.py"
    snippet.write_text(snippet.read_text() + "# a comment changes the source\n")
    assert any("demo/hello.py: recording is stale" in w for w in warnings_of(build_copy(fixture_copy)))


def test_the_profilers_own_log_lines_are_left_out_of_an_output_block_and_said_so(fixture_copy):
    from docsys.core.snippet import load
    from docsys.core.verdict import check

    snippet = fixture_copy / "snippets" / "demo" / "profiled.py"
    snippet.write_text('import sys\nprint("USDT:2026-12-01 16:50:03 3967:3967 SyncActivityProfilerHandler.cpp:52] '
                       'profiler_start", file=sys.stderr)\nprint("rows: 3")\n')
    assert check(load(snippet, fixture_copy / "snippets"), update=True).ok
    for lang in ("en", "zh"):
        page = fixture_copy / "docs" / lang / "demo.md"
        page.write_text(page.read_text() + "\n::: example demo/profiled.py\n")
    built = build_copy(fixture_copy)
    text = text_of((built.path / "demo" / "index.html").read_text(encoding="utf-8"))
    assert "rows: 3" in text and "Left out above: 1 lines" in text
    assert text.count("USDT:2026") == 1, "in the code shown, not in its output"


def test_a_benchmark_chart_plots_a_measurement_not_a_setting():
    """The default chart column skips spreads, repeat counts and a `threads` column (profiling/bench_threads)."""
    from docsys.build.tables import default_plot
    from docsys.core.bench import Table

    table = Table(["variant", "threads", "median (us)", "IQR (us)", "runs"], [["a", "1", "5.0", "0.1", "9"]])
    assert default_plot(table) == "median (us)"
