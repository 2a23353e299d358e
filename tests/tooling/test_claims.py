"""docsys.build.claims: a sentence's claim about measured numbers holds for the recording, or the build fails."""

from __future__ import annotations

import pytest

from docsys.build.claims import ClaimError, render_token
from docsys.checks.site import warnings_of
from docsys.core.snippet import load
from docsys.core.text import tokens
from docsys.core.verdict import check
from tests.tooling.site_fixture import FIXTURE, build_copy

ROOT = FIXTURE / "snippets"
KEY = "demo/bench_demo"


@pytest.mark.parametrize(("args", "shown"), [
    (f'{KEY}, "fast" < "slow", "median (ms)"', "0.50×"),
    (f'{KEY}, "slow" > "fast", "median (ms)"', "2.0×"),
    (f'{KEY}, "slow" > "fast", "memory (MiB)"', "4.0×"),
])
def test_a_claim_that_holds_renders_its_ratio(args, shown):
    assert render_token("ratio", args, ROOT, "en") == shown


def test_a_value_renders_as_recorded():
    assert render_token("value", f'{KEY}, "fast", "memory (MiB)"', ROOT, "en") == "1.00"


@pytest.mark.parametrize(("args", "why"), [
    (f'{KEY}, "fast" > "slow", "median (ms)"', 'the claim "fast" > "slow" (greater than)'),
    (f'{KEY}, "fast" ~ "slow", "median (ms)"', "does not hold"),
    (f'{KEY}, "fast", "slow", "median (ms)"', "cannot read"),
    (f'{KEY}, "fast" < "nope", "median (ms)"', "no variant 'nope'"),
    ('demo/hello, "a" < "b", "x"', "not a benchmark"),
])
def test_a_claim_the_recording_does_not_support_is_refused(args, why):
    with pytest.raises(ClaimError, match=why.replace("(", r"\(").replace(")", r"\)")):
        render_token("ratio", args, ROOT, "en")


def test_no_difference_within_the_spread(tmp_path):
    bench = tmp_path / "bench_t.py"
    rows = ["threads: 1", "| variant | t (ms) | IQR (ms) | runs |", "|---|---|---|---|",
            "| a | 10.0 | 0.80 | 5 |", "| b | 10.3 | 0.60 | 5 |"]
    bench.write_text("".join(f"print({row!r})\n" for row in rows))
    assert check(load(bench, tmp_path), update=True).ok
    assert render_token("ratio", 'bench_t, "b" ~ "a", "t (ms)"', tmp_path, "en") == "1.0×"
    with pytest.raises(ClaimError, match="does not hold"):
        render_token("ratio", 'bench_t, "b" > "a", "t (ms)"', tmp_path, "en")


def test_a_gpu_benchmark_not_yet_measured_says_so(tmp_path):
    (tmp_path / "bench_g.py").write_text("# marks: cuda\nprint(1)\n")
    assert render_token("ratio", 'bench_g, "a" > "b", "t (ms)"', tmp_path, "zh") == "尚未在 GPU 上测量"


def test_tokens_are_compared_whitespace_blind_and_outside_fences():
    text = '{{ ratio:  k, "a" > "b", "c" }}\n```\n{{ value: k, "x", "y" }}\n```\n'
    assert tokens(text) == ['{{ ratio: k, "a" > "b", "c" }}']


def test_a_result_that_changes_under_a_claim_fails_the_build_naming_page_and_claim(fixture_copy):
    recording = fixture_copy / "snippets" / "demo" / "bench_demo.record.json"  # what the run printed
    recording.write_text(recording.read_text().replace("| fast | 10.0 |", "| fast | 25.0 |"))
    found = [w for w in warnings_of(build_copy(fixture_copy)) if "does not hold" in w]
    assert found and all(w.startswith("WARNING -  ") for w in found)
    claim = '{{ ratio: demo/bench_demo, "fast" < "slow", "median (ms)" }}'
    assert any(f"en/demo.md: {claim}: the claim" in w for w in found)
    assert any(w.split("  ", 1)[1].startswith("zh/demo.md:") for w in found)
