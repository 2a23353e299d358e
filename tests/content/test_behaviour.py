"""Statements about PyTorch's behaviour in the prose of both languages are shown by an output or sourced
(docsys.checks.behaviour): every page, no exceptions."""

from docsys.checks.behaviour import check_tree
from docsys.core.paths import DOCS_DIR


def test_every_statement_about_pytorchs_behaviour_is_shown_or_sourced():
    findings = check_tree(DOCS_DIR)
    assert not findings, ("statements about PyTorch's behaviour without evidence:\n"
                          + "\n".join(map(str, findings)))
