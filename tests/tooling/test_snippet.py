"""docsys.core.snippet: what a snippet's header declares, and what it does not let through."""

from __future__ import annotations

import pytest

from docsys.core.snippet import DeclaredWarning, SnippetHeaderError, discover, load, select


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_header_fields_are_read(tmp_path):
    path = _write(tmp_path, "bench_x.py", (
        "# marks: cuda slow\n# timeout: 120\n# launch: torchrun --standalone --nproc-per-node=2\n"
        "# graph: a b\n# warns: FutureWarning: old api -- the page shows it\n# estimate: 40\n"
        "print(1)\n# marks: not header\n"
    ))
    s = load(path, tmp_path)
    assert s.marks == ("cuda", "slow") and s.timeout == 120 and s.estimate == 40
    assert s.launch == ("torchrun", "--standalone", "--nproc-per-node=2") and s.torchrun
    assert s.graphs == ("a", "b") and s.header_lines == 6
    assert s.warns == (DeclaredWarning("FutureWarning", "old api", "the page shows it"),)
    assert s.platform == "cuda" and s.is_benchmark and s.rel == "bench_x.py" and s.key == "bench_x"
    assert s.reader_command() == "torchrun --standalone --nproc-per-node=2 bench_x.py"
    assert s.graph_path("a").name == "bench_x.a.dot" and s.record_path.name == "bench_x.record.json"


def test_a_plain_snippet_has_defaults(tmp_path):
    s = load(_write(tmp_path, "plain.py", "print(1)\n"), tmp_path)
    assert (s.marks, s.launch, s.graphs, s.warns, s.header_lines, s.platform) == ((), (), (), (), 0, "cpu")
    assert s.reader_command() == "python plain.py" and not s.is_benchmark


def test_figures_name_a_variable_and_a_kind(tmp_path):
    s = load(_write(tmp_path, "f.py", "# figure: trace=timeline\n# figure: formats\nprint(1)\n"), tmp_path)
    assert s.figures == (("trace", "timeline"), ("formats", "formats")) and s.figure_vars == ("trace", "formats")
    assert s.figure_path("trace").name == "f.trace.figure.json"
    assert [p.name for p in s.recorded_paths()] == ["f.out", "f.record.json", "f.trace.figure.json",
                                                     "f.formats.figure.json"]


@pytest.mark.parametrize("value", ["record", "trace=Timeline", "trace trace=bars", "2d=bars", "trace="])
def test_a_bad_figure_declaration_is_rejected_in_one_line(tmp_path, value):
    with pytest.raises(SnippetHeaderError, match="write '# figure: <variable>=<kind>'"):
        load(_write(tmp_path, "f.py", f"# figure: {value}\nprint(1)\n"))


def test_unknown_mark_is_rejected(tmp_path):
    with pytest.raises(SnippetHeaderError, match="unknown mark"):
        load(_write(tmp_path, "typo.py", "# marks: cdua\nprint(1)\n"))


def test_a_warns_line_without_a_reason_is_rejected(tmp_path):
    with pytest.raises(SnippetHeaderError, match="-- <why it is shown>"):
        load(_write(tmp_path, "w.py", "# warns: FutureWarning: old api\nprint(1)\n"))


def test_own_process_is_read_with_its_reason(tmp_path):
    s = load(_write(tmp_path, "p.py", "# notebook: own-process -- it registers a global tagger\nprint(1)\n"), tmp_path)
    assert s.own_process == "it registers a global tagger" and s.header_lines == 1
    assert load(_write(tmp_path, "q.py", "print(1)\n"), tmp_path).own_process is None


@pytest.mark.parametrize("value", ["own-process", "kernel -- why", "own process -- why"])
def test_a_bad_notebook_declaration_is_rejected_in_one_line(tmp_path, value):
    with pytest.raises(SnippetHeaderError, match="write '# notebook: own-process -- <why>'"):
        load(_write(tmp_path, "n.py", f"# notebook: {value}\nprint(1)\n"))


def test_select_by_glob_or_substring(tmp_path):
    (tmp_path / "a").mkdir()
    for name in ("a/one.py", "a/bench_two.py"):
        _write(tmp_path, name, "print(1)\n")
    found = discover(tmp_path)
    assert [s.rel for s in select(found, ["a/bench_*"])] == ["a/bench_two.py"]
    assert [s.rel for s in select(found, ["one"])] == ["a/one.py"]
    assert len(select(found, [])) == 2
