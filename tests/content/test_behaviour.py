"""Statements about PyTorch's behaviour in the prose of both languages are shown by an output or sourced
(docsys.checks.behaviour); the pages that do not yet are listed with their counts, which only go down."""

import tomllib
from pathlib import Path

from docsys.checks.behaviour import check_tree, counts
from docsys.core.paths import DOCS_DIR

TODO = Path(__file__).with_name("unsourced_behaviour.toml")


def test_unsourced_behaviour_statements_only_go_down():
    findings = check_tree(DOCS_DIR)
    found, listed = counts(findings), tomllib.loads(TODO.read_text(encoding="utf-8"))["unsourced"]
    more = [f for f in findings if found[f.page] > listed.get(f.page, 0)]
    fewer = {page: (n, found.get(page, 0)) for page, n in listed.items() if found.get(page, 0) < n}
    assert not more, (f"statements about PyTorch's behaviour without evidence, beyond {TODO.name}'s counts:\n"
                      + "\n".join(map(str, more)))
    assert not fewer, f"fewer unsourced statements than {TODO.name} lists (lower the counts): {fewer}"
