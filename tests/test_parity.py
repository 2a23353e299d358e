"""zh and en stay in step: same pages, same anchors, same snippet includes in order."""

from docsys.parity import check_tree


def test_docs_tree_has_parity():
    problems = check_tree()
    assert not problems, "\n".join(problems)
