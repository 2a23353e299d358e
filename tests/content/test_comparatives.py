"""Every comparison in the prose of both languages is bound to a measurement or marked as a general fact."""

from docsys.checks.comparatives import check_tree
from docsys.core.paths import DOCS_DIR


def test_no_unbound_comparative_in_any_page():
    findings = check_tree(DOCS_DIR)
    assert not findings, f"{len(findings)} unbound comparison(s):\n" + "\n".join(map(str, findings))
