"""docsys.build.drawings: each figure kind draws its data as a small, deterministic SVG with text as text,
in every language, and names what is missing from data it cannot draw."""

from __future__ import annotations

import re

import pytest

from docsys.build import drawings
from docsys.build.drawings import FigureDataError, Words, languages, render
from docsys.build.drawings.timeline import _gaps, _rows

SPANS = [[0.0, 2.0, "forward", "F0"], [2.0, 5.5, "backward", "B0"]]
SAMPLES = {
    "float_formats": [
        {"dtype": "torch.float16", "bits": 16, "exponent": 5, "mantissa": 10, "max": 65504.0,
         "tiny": 6.1e-05, "eps": 0.000977},
        {"dtype": "torch.bfloat16", "bits": 16, "exponent": 8, "mantissa": 7, "max": 3.39e38,
         "tiny": 1.18e-38, "eps": 0.0078},
    ],
    "timeline": {"unit": "ms", "panels": [
        {"title": "num_workers=1", "idle": True, "lanes": [
            {"lane": "main", "spans": [[1.0, 3.0, "step"]]},
            {"lane": "worker", "index": 0, "spans": [[0.0, 1.0, "load"], [0.5, 2.0, "load", "overlaps"]]}]},
        {"lanes": [{"lane": "stage", "index": 0, "rank": 1, "spans": SPANS},
                   {"lane": "device", "spans": [[2.5, 6.0, "kernel"]]}], "links": [[0, 0, 1, 0]]},
    ]},
    "memory_bars": {"unit": "MiB", "ranks": [
        {"parameters": 1.5, "gradients": 1.5, "optimizer_state": 3.0, "peak": 9.4}]},
    "placements": [
        {"name": "up.weight", "shape": [8, 4], "placement": "Shard(dim=0)", "dim": 0, "local": [[4, 4], [4, 4]]},
        {"name": "down.bias", "shape": [4], "placement": "Replicate()", "dim": None, "local": [[4], [4]]},
    ],
    "block_mask": {"block_size": [128, 128], "length": 256, "masks": [
        {"name": "causal", "rows": ["PE", "FP"], "sparsity": 25.0}]},
    "decode_graphs": [{"variant": "dynamic=None", "graphs": [1, 2, 2]},
                      {"variant": "dynamic=False", "graphs": [1, 2, 0]}],
    "save_map": {"ops": ["addmm", "gelu"], "rows": [{"variant": "checkpoint", "states": ["recomputed", "freed"]}]},
    "module_collectives": {"modules": [
        {"module": "attention_norm", "input": "S(1)", "forward": [], "backward": []},
        {"module": "attention", "input": "R", "forward": ["all_gather_into_tensor", "reduce_scatter_tensor"],
         "backward": ["all_gather_into_tensor", "reduce_scatter_tensor"]}]},
    "topology": {"forms": [
        {"form": "static", "agents": [{"agent": 0, "node": 0, "workers": [{"rank": 0, "local_rank": 0}]},
                                      {"agent": 1, "node": 1, "workers": [{"rank": 1, "local_rank": 0}]}]},
        {"form": "c10d", "agents": [{"agent": 0, "node": 1, "workers": [{"rank": 1, "local_rank": 0}]},
                                    {"agent": 1, "node": 0, "workers": [{"rank": 0, "local_rank": 0}]}]}]},
    "mesh_rows": {"dims": ["dp", "tp"], "mesh": [[0, 1], [2, 3]], "parameter": "up.weight", "rows": 8,
                  "held": [[0, 1], [4, 5], [2, 3], [6, 7]]},
    "attempts": {"lanes": [
        {"attempt": 0, "rank": 1, "events": [["start", 0], ["step", 0], ["save", 1], ["step", 1], ["crash", 2]]},
        {"attempt": 1, "rank": 1, "events": [["load", 1], ["step", 1], ["step", 2], ["save", 3]]}]},
}
WORDS = {  # a word of each kind's labels that its sample must show, per language
    "float_formats": {"en": "exponent", "zh": "指数位"},
    "timeline": {"en": "worker 0", "zh": "主进程"},
    "memory_bars": {"en": "optimizer state", "zh": "优化器状态"},
    "placements": {"en": "every rank holds all of it", "zh": "每个 rank 都持有完整副本"},
    "block_mask": {"en": "empty block: skipped", "zh": "空块：跳过"},
    "decode_graphs": {"en": "decode step (call of the compiled function)", "zh": "解码步（对编译函数的调用）"},
    "save_map": {"en": "recomputed", "zh": "重算"},
    "module_collectives": {"en": "no collective", "zh": "无集合通信"},
    "topology": {"en": "agent 0 → node 1", "zh": "代理 0 → 节点 1"},
    "attempts": {"en": "trained again", "zh": "重新训练的步"},
    "mesh_rows": {"en": "rows 4–5: rank 1", "zh": "第 4–5 行：rank 1"},
}


def _keys(table: dict, prefix: str = "") -> dict[str, str]:
    flat = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat |= _keys(value, f"{prefix}{key}.")
        else:
            flat[prefix + key] = value
    return flat


def test_every_label_exists_in_every_language_with_the_same_placeholders():
    table = drawings._labels()
    en = _keys(table["en"])
    assert set(table["en"]) <= set(drawings.KINDS)
    for lang in languages():
        other = _keys(table[lang])
        assert set(other) == set(en), f"{lang}: keys differ: {sorted(set(other) ^ set(en))}"
        for key, text in en.items():
            assert set(re.findall(r"\{(\w+)\}", other[key])) == set(re.findall(r"\{(\w+)\}", text)), (lang, key)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_each_kind_draws_a_small_deterministic_svg_with_text_as_text(kind, lang):
    svg = render(kind, SAMPLES[kind], lang)
    assert svg == render(kind, SAMPLES[kind], lang)  # fixed ids, no date: the same data, the same bytes
    text = svg.decode()
    assert text.startswith("<?xml") and "<!--" not in text and "<metadata" not in text
    assert f">{WORDS[kind][lang]}</text>" in text  # searchable, crisp text, in the page's language
    assert len(svg) < 100_000 and "<image" not in text


@pytest.mark.parametrize(("kind", "data", "message"), [
    ("float_formats", [], "data is not a non-empty list of formats"),
    ("float_formats", [{**SAMPLES["float_formats"][0], "mantissa": 9}], "1 + exponent + mantissa is not bits"),
    ("float_formats", [{**SAMPLES["float_formats"][0], "bits": True}], "data[0].bits is bool, not int"),
    ("timeline", {"lanes": []}, "data has no 'unit'"),
    ("timeline", {"unit": "ms", "lanes": [{"lane": "main", "spans": [[0, "1", "step"]]}]},
     "panels[0].lanes[0].spans[0] is not [start, end, kind, label]"),
    ("timeline", {"unit": "ms", "lanes": [{"lane": "main", "spans": [[0, 1, "stpe"]]}]},
     "no en label 'spans.stpe' for timeline figures"),
    ("memory_bars", {"unit": "MiB", "ranks": [{"parameters": 1}]}, "ranks[0] has no 'gradients'"),
    ("placements", [{**SAMPLES["placements"][0], "local": [[3, 4], [4, 4]]}],
     "data[0]: the local sizes along dim 0 do not add up to the shape"),
    ("block_mask", {**SAMPLES["block_mask"], "masks": [{"name": "causal", "rows": ["PE", "FX"], "sparsity": 25.0}]},
     "data.masks[0].rows: a block is not F, P or E"),
    ("block_mask", {**SAMPLES["block_mask"], "masks": [{"name": "causal", "rows": ["PE", "F"], "sparsity": 25.0}]},
     "data.masks[0].rows: not a non-empty list of strings of one length"),
    ("decode_graphs", [{"variant": "v", "graphs": [1, -1]}], "data[0].graphs is not a non-empty list of graph numbers"),
    ("save_map", {"ops": ["addmm"], "rows": [{"variant": "x", "states": ["kept"]}]}, "rows[0]: unknown state 'kept'"),
    ("save_map", {"ops": ["addmm", "gelu"], "rows": [{"variant": "x", "states": ["saved"]}]},
     "rows[0] has 1 states for 2 ops"),
    ("module_collectives", {"modules": [{"module": "wo", "input": "R", "forward": ["broadcast"], "backward": []}]},
     "modules[0].forward: unknown collective 'broadcast'"),
    ("topology", {"forms": [{"form": "static", "agents": []}]}, "forms[0].agents is empty"),
    ("topology", {"forms": [{"form": "etcd", "agents": [{"agent": 0, "node": 0, "workers": []}]}]},
     "no en label 'forms.etcd.store' for topology figures"),
    ("attempts", {"lanes": [{"attempt": 0, "rank": 0, "events": [["resume", 3]]}]},
     "lanes[0].events[0] is not [event, step] with an event of start, load, step, save, crash"),
    ("mesh_rows", {**SAMPLES["mesh_rows"], "held": [[0, 1], [4, 5], [2, 3]]},
     "data.mesh holds ranks [0, 1, 2, 3], data.held has 3 entries"),
    ("mesh_rows", {**SAMPLES["mesh_rows"], "held": [[0, 1], [4, 5], [2, 3], [6, 8]]},
     "data.held[3] is not a non-empty list of rows below 8"),
    ("stage_charts", {}, "unknown figure kind 'stage_charts'"),
], ids=["no-formats", "bits-do-not-add-up", "bool-is-not-int", "no-unit", "span-not-a-span", "unknown-span-kind",
        "missing-part", "shards-do-not-add-up", "block-not-a-state", "ragged-block-rows", "negative-graph-number",
        "unknown-state", "states-do-not-match-ops", "unknown-collective", "no-agents", "unknown-form",
        "unknown-event", "ranks-do-not-match", "row-out-of-range", "unknown-kind"])
def test_data_a_kind_cannot_draw_is_named_in_one_line(kind, data, message):
    with pytest.raises(FigureDataError, match=re.escape(message)) as error:
        render(kind, data, "en")
    assert "\n" not in str(error.value)


def test_spans_that_overlap_in_time_get_rows_of_their_own_and_gaps_are_the_idle_time():
    spans = [[0, 4, "load"], [1, 2, "load"], [2, 3, "load"], [5, 6, "load"]]
    assert _rows(spans) == [0, 1, 1, 0]
    assert _gaps([[1, 2, "step"], [3, 4, "step"]], 0, 6) == [(0, 1), (2, 1), (4, 2)]


def test_words_fill_placeholders_and_fall_back_to_english():
    assert Words("timeline", "zh")("lanes.worker", index=1) == "worker 1"
    assert Words("timeline", "fr")("lanes.stage", index=0) == "stage 0"
