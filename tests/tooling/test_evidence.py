"""docsys.build.evidence: what the comments beside the prose claim is checked when the site is built, and the
comments never reach the HTML. A GPU example's expectation holds until a GPU recording contradicts it."""

from __future__ import annotations

import pytest

from docsys.build.evidence import source_problem, torch_release
from docsys.checks.site import warnings_of
from docsys.core import recording
from docsys.core.snippet import load
from tests.tooling.site_fixture import build_copy


@pytest.mark.parametrize("body", [
    "torch/_dynamo/config.py recompile_limit",
    "torch/nn/modules/module.py Module.register_forward_hook",
    f"pytorch/pytorch@v{torch_release()} aten/src/ATen/native/transformers/sdp_utils_cpp.cpp#L45",
    "https://docs.pytorch.org/docs/stable/notes/amp_examples.html",
    "torchao/quantization/quant_api.py quantize_",
    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#streams",
    "https://man7.org/linux/man-pages/man3/mallopt.3.html",
])
def test_sources_that_hold(body):
    assert source_problem(body) is None


@pytest.mark.parametrize(("body", "problem"), [
    ("torch/_dynamo/nope.py recompile_limit", "is not a file of the installed torch"),
    ("torch/_dynamo/config.py no_such_setting", "defines no 'no_such_setting'"),
    ("pytorch/pytorch@v2.9.0 aten/src/x.cpp#L1", "the pinned torch is"),
    ("my memory of the docs", "write `torch/<file>.py <name>`"),
    ("torchao/quantization/nope.py quantize_", "is not a file of the installed torchao"),
    ("https://some-blog.example/pytorch-tips", "write `torch/<file>.py <name>`"),
])
def test_sources_that_do_not(body, problem):
    assert problem in (source_problem(body) or "")


def _add(page, text):
    page.write_text(page.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")


def test_a_shown_text_missing_from_the_output_fails_the_build_and_no_comment_reaches_the_html(fixture_copy):
    page = fixture_copy / "docs" / "en" / "demo.md"
    _add(page, 'It prints hello.\n<!-- shown: demo/hello.py "hello" -->\n\n'
               'And more.\n<!-- shown: demo/hello.py "goodbye" -->')
    built = build_copy(fixture_copy)
    problems = [w for w in warnings_of(built) if "<!-- shown:" in w]
    assert len(problems) == 1 and "en/demo.md: <!-- shown: demo/hello.py \"goodbye\" -->" in problems[0]
    assert "does not contain 'goodbye'" in problems[0]
    html = (built.path / "demo" / "index.html").read_text(encoding="utf-8")
    assert "<!-- shown" not in html and "It prints hello." in html


def test_a_gpu_expectation_holds_until_a_gpu_recording_contradicts_it(fixture_copy):
    page = fixture_copy / "docs" / "en" / "demo.md"
    _add(page, 'On a GPU it is expected to print that it needs one.\n<!-- shown: demo/gpu_only.py "needs a GPU" -->')
    assert not [w for w in warnings_of(build_copy(fixture_copy)) if "<!-- shown:" in w], "not recorded: expected"
    snippet = load(fixture_copy / "snippets" / "demo" / "gpu_only.py", fixture_copy / "snippets")
    prov = recording.provenance(snippet, 1.0)
    prov["host"].update(gpu="NVIDIA H200", gpu_count=1, driver="580.0")
    recording.write(snippet, "no GPU found after all\n", prov)  # a GPU recording that says otherwise
    problems = [w for w in warnings_of(build_copy(fixture_copy)) if "<!-- shown:" in w]
    assert len(problems) == 1 and "en/demo.md" in problems[0] and "its GPU recording does not contain" in problems[0]
