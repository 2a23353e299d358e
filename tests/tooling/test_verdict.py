"""docsys.core.verdict and docsys.core.recording: one run, judged once; compared with the recording or recorded.

Each rule is shown failing on a planted fault, and passing without it.
"""

from __future__ import annotations

import json

import pytest

from docsys.core import recording, verdict
from docsys.core.processes import Load
from docsys.core.snippet import load
from docsys.core.verdict import check

BENCH = """\
print("threads: 1")
print("| variant | median (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
print("| a | 1.00 | 0.10 | 5 |")
"""


@pytest.fixture
def snippet(tmp_path):
    (tmp_path / "demo").mkdir()
    path = tmp_path / "demo" / "hello.py"
    path.write_text('print("hello")\n', encoding="utf-8")
    return lambda: load(path, tmp_path)


@pytest.fixture
def recorded(snippet):
    outcome = check(snippet(), update=True)
    assert outcome.ok, outcome.message
    return snippet


def test_recording_writes_output_and_provenance_from_one_run(recorded):
    s = recorded()
    assert s.output_path.read_text() == "hello\n"
    prov = json.loads(s.record_path.read_text())
    assert prov["snippet"] == "demo/hello.py" and prov["platform"] == "cpu" and prov["schema"] == recording.SCHEMA
    assert {"cpu", "cores", "isa"} <= set(prov["host"]) and prov["software"]["torch"]
    assert recording.state(s) == recording.CURRENT and check(s).ok


def test_a_changed_recorded_line_fails(recorded):
    recorded().output_path.write_text("hullo\n")
    assert "+hello" in check(recorded()).message


def test_an_appended_print_fails(recorded):
    recorded().path.write_text('print("hello")\nprint("one more line")\n')
    assert "+one more line" in check(recorded()).message


def test_a_changed_source_with_the_same_output_is_stale(recorded):
    recorded().path.write_text('print("hel" + "lo")\n')
    assert "changed since it was recorded" in check(recorded()).message


def test_a_missing_recording_fails(snippet):
    assert "no recording" in check(snippet()).message


def test_a_raising_snippet_fails_and_is_not_recorded(snippet):
    s = snippet()
    s.path.write_text('raise ValueError("planted")\n')
    outcome = check(s, update=True)
    assert not outcome.ok and "exited with 1" in outcome.message and "ValueError: planted" in outcome.message
    assert not s.output_path.exists()


def test_an_undeclared_deprecation_fails(snippet):
    s = snippet()
    s.path.write_text('import warnings\nwarnings.warn("old", FutureWarning)\n')
    assert "undeclared FutureWarning" in check(s, update=True).message


def test_a_benchmark_breaking_the_convention_is_not_recorded(tmp_path):
    path = tmp_path / "bench_x.py"
    path.write_text(BENCH.replace('print("threads: 1")\n', ""))
    outcome = check(load(path, tmp_path), update=True)
    assert not outcome.ok and "no 'threads: N' line" in outcome.message


def test_a_benchmark_is_refused_on_a_busy_machine(tmp_path, monkeypatch):
    path = tmp_path / "bench_x.py"
    path.write_text(BENCH)
    monkeypatch.setattr(verdict, "LOAD_LIMIT", 0.25)
    monkeypatch.setattr(verdict, "idle_load", lambda: Load(others=1.5, steal=0.0, seconds=1.0))
    outcome = check(load(path, tmp_path), update=True)
    assert not outcome.ok and "kept 1.50 cores busy before the run" in outcome.message
    assert not path.with_suffix(".out").exists()
    monkeypatch.setattr(verdict, "idle_load", lambda: Load(others=0.0, steal=0.0, seconds=1.0))
    monkeypatch.setattr(verdict, "LOAD_LIMIT", 1e9)  # this machine may really be busy during the run
    assert check(load(path, tmp_path), update=True).ok
    prov = json.loads(path.with_suffix(".record.json").read_text())
    assert prov["threads"] == 1 and prov["load"]["before"]["others_cores"] == 0.0


def test_graphs_are_recorded_and_compared(tmp_path):
    path = tmp_path / "g.py"
    source = "digraph {\\n\\t140526507587008 -> 140526503305872\\n}"
    path.write_text(f'# graph: g\nclass G:\n    source = "{source}"\ng = G()\n')
    assert check(load(path, tmp_path), update=True).ok
    assert path.with_name("g.g.dot").read_text() == "digraph {\n\tn0 -> n1\n}"
    path.with_name("g.g.dot").write_text("digraph { }")
    assert "graph 'g' differs" in check(load(path, tmp_path)).message


FIGURE = """\
# figure: spans=timeline
import time
start = time.perf_counter()
spans = [{"name": name, "ms": (time.perf_counter() - start) * 1e3} for name in ("forward", "backward")]
print("spans:", len(spans))
"""


def test_figure_data_is_recorded_with_its_hash_and_compared_by_shape(tmp_path):
    path = tmp_path / "f.py"
    path.write_text(FIGURE)
    assert check(load(path, tmp_path), update=True).ok
    data_file = path.with_name("f.spans.figure.json")
    data = json.loads(data_file.read_text())
    assert [span["name"] for span in data] == ["forward", "backward"]
    prov = json.loads(path.with_suffix(".record.json").read_text())
    assert prov["figures"] == {"spans": {"kind": "timeline", "sha256": recording.text_sha256(data_file.read_text())}}
    assert check(load(path, tmp_path)).ok  # new timings: numbers are not compared
    data_file.write_text(json.dumps([data[0]]))
    assert "figure 'spans' differs from f.spans.figure.json at $: 2 items now, 1 recorded" in check(
        load(path, tmp_path)).message
    data[1]["name"] = "optimizer"
    data_file.write_text(json.dumps(data))
    assert "at $[1].name: 'backward' now, 'optimizer' recorded" in check(load(path, tmp_path)).message
    data_file.unlink()
    assert "figure 'spans' has no recorded data f.spans.figure.json" in check(load(path, tmp_path)).message


@pytest.mark.parametrize(("body", "message"), [
    ("spans = {1, 2}\n", "'spans' is not JSON data"),
    ("spans = [float('nan')]\n", "'spans' is not JSON data"),
    ("import os\nspans = os.urandom(60_000).hex()\n", "its data is 120 KB (limit 100 KB)"),
    ("other = []\n", "no module-level variable 'spans' at exit"),
], ids=["a-set", "nan", "too-large", "missing"])
def test_figure_data_that_cannot_be_drawn_is_not_recorded(tmp_path, body, message):
    path = tmp_path / "f.py"
    path.write_text("# figure: spans=timeline\n" + body)
    outcome = check(load(path, tmp_path), update=True)
    assert not outcome.ok and message in outcome.message, outcome.message
    assert not path.with_suffix(".out").exists() and not path.with_name("f.spans.figure.json").exists()


def test_orphaned_recordings_are_found(recorded, tmp_path):
    s = recorded()
    assert recording.orphans(tmp_path, [s]) == []
    assert recording.orphans(tmp_path, []) == sorted([s.output_path, s.record_path])


def test_forget_makes_a_gpu_snippet_not_yet_recorded(recorded):
    recording.forget(recorded())
    assert recording.state(recorded()) == recording.MISSING


def test_figure_files_are_forgotten_and_orphans_found(tmp_path):
    path = tmp_path / "f.py"
    path.write_text(FIGURE)
    assert check(load(path, tmp_path), update=True).ok
    data_file = path.with_name("f.spans.figure.json")
    assert recording.orphans(tmp_path, [load(path, tmp_path)]) == []
    path.write_text(FIGURE.replace("# figure: spans=timeline\n", ""))
    assert recording.orphans(tmp_path, [load(path, tmp_path)]) == [data_file]
    path.write_text(FIGURE)
    recording.forget(load(path, tmp_path))
    assert not data_file.exists()


MACHINE_PRINTS = """\
import torch

print(f"threads: {torch.get_num_threads()}")
print("| variant | median (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
print(f"| a | {torch.rand(1).item() + 1:.2f} | 0.10 | 5 |")
"""


def test_out_is_the_compared_form_and_the_record_holds_what_was_printed(tmp_path, monkeypatch):
    """Re-recorded with another thread count, a benchmark's `.out` stays byte for byte the same:
    its `threads:` line and measured cells are provenance, kept only in `.record.json`."""
    path = tmp_path / "bench_machine.py"
    path.write_text(MACHINE_PRINTS)
    monkeypatch.setattr(verdict, "idle_load", lambda: Load(1.0, 0.0, 0.0))
    outs, printed = [], []
    for threads in ("1", "2"):
        monkeypatch.setenv("OMP_NUM_THREADS", threads)
        assert check(load(path, tmp_path), update=True).ok
        outs.append(path.with_suffix(".out").read_bytes())
        rec = recording.read(load(path, tmp_path))
        printed.append(rec.printed)
        assert rec.threads == int(threads) and rec.data["run"]["threads"] == int(threads)
    assert outs[0] == outs[1] and b"threads" not in outs[0] and b"<n>" in outs[0]
    assert printed[0].startswith("threads: 1\n") and printed[1].startswith("threads: 2\n")


DEPENDS = """\
# depends: threads -- a sum's rounding depends on how it is split
import torch

print(torch.get_num_threads() * 10)
"""


def test_a_declared_machine_dependence_is_compared_only_where_the_fact_matches(tmp_path, monkeypatch):
    path = tmp_path / "depends.py"
    path.write_text(DEPENDS)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert check(load(path, tmp_path), update=True).ok
    same = check(load(path, tmp_path))
    assert same.ok and not same.skipped
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    outcome = check(load(path, tmp_path))
    assert outcome.ok and outcome.skipped, outcome.message
    assert "depends on threads (a sum's rounding" in outcome.message
    assert "recorded with 1, this run has 2" in outcome.message
    path.write_text(DEPENDS.split("\n", 1)[1])  # the same code, undeclared: the difference fails
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert check(load(path, tmp_path), update=True).ok
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert not check(load(path, tmp_path)).ok
