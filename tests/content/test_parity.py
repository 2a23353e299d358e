"""zh and en stay in step: same pages, same anchors, same examples in order, same claims."""

from docsys.checks.parity import check_tree


def test_zh_and_en_pages_are_in_parity():
    problems = check_tree()
    assert not problems, "\n".join(problems)
