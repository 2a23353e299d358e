"""docsys.core.normalize: the one rule for what may differ between a recording and a run."""

from __future__ import annotations

from docsys.core.normalize import diff, normalize, normalize_dot, portable, shape_difference


def test_portable_rewrites_this_machines_paths(tmp_path):
    root = tmp_path / "repo"
    text = (
        f"{root}/snippets/a/x.py:9: UserWarning: careful\n"
        "/home/u/.venv/lib/python3.11/site-packages/torch/amp/grad_scaler.py:12: UserWarning\n"
        "/scratch/snippet-abc/ckpt.pt saved\n"
        "/root/.pyenv/versions/3.11.7/lib/python3.11/copyreg.py:105: FutureWarning\n"
        "(Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)\n"
    )
    assert portable(text, "/scratch/snippet-abc", root) == (
        "snippets/a/x.py:9: UserWarning: careful\n"
        ".../site-packages/torch/amp/grad_scaler.py:12: UserWarning\n"
        "./ckpt.pt saved\n"
        ".../lib/python3/copyreg.py:105: FutureWarning\n"
        "(Triggered internally at .../aten/src/ATen/core/TensorBody.h:493.)\n"
    )


def test_volatile_parts_are_masked_and_nothing_else():
    a = ("<obj at 0x7f49ee5af7d0>\n  1.10 ms\n2.4x faster\n"
         "W1130 18:43:20.103000 8788 torch/distributed/run.py:874] banner\n"
         ".../site-packages/torch/x.py:12: UserWarning\n| variant | t (ms) |\n|---|---|\n| a | 3.5 |\n")
    b = ("<obj at 0x7ffbd0d5fb90>\n  327.11 us\n3.1x faster\n"
         "W1201 09:00:00.000001 1 torch/distributed/run.py:901] banner\n"
         ".../site-packages/torch/x.py:99: UserWarning\n| variant | t (ms) |\n|---|---|\n| a | 4.25 |\n")
    assert normalize(a) == normalize(b)
    assert normalize("loss 0.5") != normalize("loss 0.6")
    debug = "V1130 20:18:39.874000 4065 torch/_dynamo/guards.py:5396] [2/1] [__recompiles] Recompiling"
    assert normalize(debug) == normalize(debug.replace("20:18:39.874000 4065", "08:01:02.000003 77"))
    assert normalize("| x | 1 |") != normalize("| x | 2 |"), "only tables whose first column is `variant` are masked"


def test_a_launched_benchmark_table_is_masked_after_the_ranks_prefix():
    def launched(cell):
        return f"[rank0] threads: {cell}\n[rank0] | variant | t (ms) |\n[rank0] |---|---|\n[rank0] | a | {cell} |\n"
    masked = "[rank0] | variant | t (ms) |\n[rank0] |---|---|\n[rank0] | a | <n> |"
    assert normalize(launched("3.5")) == normalize(launched("4")) == masked
    assert normalize("[rank0] | x | 1 |") != normalize("[rank0] | x | 2 |")


def test_log_prefixes_are_masked_after_a_ranks_prefix_too():
    a = "[rank0] USDT:2026-11-30 20:52:24 7086:7086 SyncActivityProfilerHandler.cpp:52] profiler_start\n"
    b = "[rank0] USDT:2026-12-01 09:05:51 20116:20116 SyncActivityProfilerHandler.cpp:57] profiler_start\n"
    assert normalize(a) == normalize(b) == "[rank0] USDT:<log> SyncActivityProfilerHandler.cpp:<line>] profiler_start"
    assert normalize(a) != normalize(b.replace("[rank0]", "[rank1]"))
    assert normalize("[rank1] W1130 18:43:20.103000 8788 x.py:874] hi") == "[rank1] <log> x.py:<line>] hi"


def test_figure_data_is_compared_by_its_shape_numbers_masked():
    recorded = {"unit": "ms", "lanes": [{"lane": "main", "spans": [[0.5, 2.25, "step"]]}]}
    assert shape_difference(recorded, {"unit": "ms", "lanes": [{"lane": "main", "spans": [[7, 9.5, "step"]]}]}) is None
    assert shape_difference(recorded, {"unit": "ms", "lanes": []}) == "$.lanes: 0 items now, 1 recorded"
    assert shape_difference(recorded, {"unit": "us", "lanes": recorded["lanes"]}) == "$.unit: 'us' now, 'ms' recorded"
    assert shape_difference([True], [1]) == "$[0]: a number now, bool recorded"
    assert shape_difference({"a": 1}, {"b": 1}) == "$: keys ['b'] now, ['a'] recorded"


def test_diff_names_the_changed_line():
    assert "+y 2" in diff("x 1\ny 1\n", "x 1\ny 2\n", "a.out")


def test_torchviz_ids_are_renumbered_in_order_of_appearance():
    one = '\t140526507587008 [label="x"]\n\t140526503305872 -> 140526507587008\n'
    two = one.replace("140526507587008", "94123456789012").replace("140526503305872", "94123456789999")
    assert normalize_dot(one) == normalize_dot(two) == '\tn0 [label="x"]\n\tn1 -> n0\n'


BANNER = """\
W1130 20:13:08.609000 31928 torch/distributed/run.py:874] {space}
W1130 20:13:08.609000 31928 torch/distributed/run.py:874] *****************************************
W1130 20:13:08.609000 31928 torch/distributed/run.py:874] Setting OMP_NUM_THREADS environment variable for each \
process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal \
performance in your application as needed.{space}
W1130 20:13:08.609000 31928 torch/distributed/run.py:874] *****************************************
""".format(space=" ")  # torchrun's lines end in a space


def test_provenance_lines_are_not_compared():
    """torchrun's banner appears only where OMP_NUM_THREADS is unset; a benchmark's thread count is
    the machine's: both are provenance, not what the code computed."""
    ranks = "[rank0] loss 0.5\n"
    assert normalize(BANNER + ranks) == normalize(ranks) == "[rank0] loss 0.5"
    assert normalize("threads: 2\n| variant | t (ms) |\n") == normalize("threads: 1\n| variant | t (ms) |\n")
    other = "W1130 20:13:08.609000 31928 torch/distributed/run.py:874] a real warning\n"
    assert normalize(other) == "<log> torch/distributed/run.py:<line>] a real warning"
    assert normalize("  threads: 2") == "  threads: 2", "only a line that starts with it"


def test_a_log_line_through_a_symlinked_environment_names_the_same_file():
    """torch's log formatter shortens a path by the sys.path entry it lies under; through a symlinked
    .venv the resolved path matches none, and the line names it in full."""
    short = "W1130 20:13:08.609000 1 torch/distributed/run.py:874] hello"
    full = "W1130 20:13:08.609000 2 .../site-packages/torch/distributed/run.py:901] hello"
    assert normalize(short) == normalize(full)


def test_normalize_is_idempotent_so_a_stored_out_compares_as_it_is():
    text = BANNER + "0x7f49ee5af7d0 1.10 ms 2.4x\n.../site-packages/torch/x.py:12: W\n"
    text += "| variant | t |\n|---|---|\n| a | 3 |\n"
    assert normalize(normalize(text)) == normalize(text)
