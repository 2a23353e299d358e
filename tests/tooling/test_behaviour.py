"""docsys.checks.behaviour: a statement about PyTorch's behaviour in the prose needs its evidence beside it."""

from docsys.checks.behaviour import check_text


def test_a_behavioural_word_without_evidence_is_found_in_either_language():
    text = ("# T { #t }\n\nAutocast runs matmuls in bfloat16 by default on the CPU.\n\n"
            "梯度默认会累加。\n\n```python\nx = 1  # always, in code, is not prose\n```\n")
    findings = check_text(text, "p.md")
    assert [(f.line, f.words) for f in findings] == [(3, ("by default",)), (5, ("默认",))]
    assert "add <!-- shown:" in str(findings[0])


def test_evidence_beside_the_sentence_or_a_claim_token_passes():
    for evidence in ('<!-- shown: autocast/dtypes.py "bfloat16" -->',
                     "<!-- source: torch/amp/autocast_mode.py autocast -->", '{{ value: a/bench_x, "v", "c" }}'):
        assert check_text(f"Autocast runs in bfloat16 by default.\n{evidence}\n", "p.md") == []
    assert check_text("It falls back to math.\n<!-- general: not evidence of behaviour -->\n", "p.md"), \
        "a general marker is for comparisons, not for behaviour"
    assert check_text("The `default` argument, `never_used`.\n", "p.md") == [], "inline code is not prose"
