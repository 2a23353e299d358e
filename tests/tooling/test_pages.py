"""docsys.checks.pages: pages read as the tests read them, and Python blocks that would silently not run."""

from __future__ import annotations

from docsys.checks.pages import examples, expand, unrun_python_fences
from tests.tooling.site_fixture import FIXTURE

CONFIG = FIXTURE / "mkdocs.yml"
HIDDEN_FENCES = """\
# Page { #page }

```py
print("py fence")
```

~~~python
print("tilde fence")
~~~

<!--pytest.mark.skip-->
```python
print("skipped without a reason")
```

<!--pytest.mark.skip(reason="starts a server")-->
```python
print("skipped with a reason")
```

```python title="shown.py"
print("titled fence")
```

```python
print("runs")
```

::: example demo/hello.py
"""


def test_python_blocks_that_would_not_run_are_reported():
    problems = unrun_python_fences(HIDDEN_FENCES, "page.md", CONFIG)
    assert [p.split("`")[1] for p in problems] == [
        'print("py fence")', 'print("tilde fence")', 'print("skipped without a reason")', 'print("titled fence")']
    assert "fenced as 'py'" in problems[0] and "~~~ fence" in problems[1]
    assert "without a reason" in problems[2] and "fenced as 'python title=\"shown.py\"'" in problems[3]


def test_examples_are_listed_in_order_and_not_inside_fences():
    text = "::: example a/one.py\n\n```markdown\n::: example a/hidden.py\n```\n\n::: example a/two.py:part\n"
    assert examples(text) == ["a/one.py", "a/two.py:part"]


def test_expand_includes_what_a_typed_block_includes_and_leaves_examples_alone():
    """The tests never render a page: an example's test is its snippet (docsys.checks.collect)."""
    expanded = expand('::: example demo/hello.py\n\n```text\n--8<-- "demo/hello.out"\n```\n', config_file=CONFIG)
    assert expanded.startswith("::: example demo/hello.py\n") and "```text\nhello\nfrom the middle" in expanded
