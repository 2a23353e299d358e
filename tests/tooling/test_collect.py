"""docsys.checks.collect: the pages' code blocks become pytest-codeblocks items; each example runs once.

Run with pytester in a copy of the fixture site (tests/fixtures/site), in a subprocess.
"""

from __future__ import annotations

import shutil

import pytest

from tests.tooling.site_fixture import FIXTURE

pytest_plugins = ["pytester"]

INI = """[pytest]
testpaths = docs/en
example_pages = docs/en
example_config = mkdocs.yml
addopts = -p no:cacheprovider -p no:randomly -rs
"""


@pytest.fixture
def project(pytester: pytest.Pytester):
    shutil.copytree(FIXTURE, pytester.path, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".cache"))
    pytester.makeini(INI)
    pytester.makeconftest('pytest_plugins = ["docsys.checks.collect"]\n'
                          "from docsys.core.markers import skip_reason\n"
                          "def pytest_runtest_setup(item):\n"
                          "    import pytest\n"
                          "    reason = skip_reason([m.name for m in item.iter_markers() if m.name == 'cuda'])\n"
                          "    if reason:\n"
                          "        pytest.skip(reason)\n")
    return pytester


def test_each_example_runs_once_and_gpu_ones_skip_with_a_reason(project):
    result = project.runpytest_subprocess("-v")
    result.assert_outcomes(passed=3, skipped=1)
    result.stdout.fnmatch_lines(["*demo.md::demo/hello.py PASSED*", "*demo.md::demo/gpu_only.py SKIPPED*",
                                 "*cuda: needs a CUDA GPU*"])
    assert result.stdout.str().count("demo/hello.py PASSED") == 1, "shown twice, run once"


def test_a_changed_recording_fails_with_its_diff(project):
    out = project.path / "snippets" / "demo" / "hello.out"
    out.write_text(out.read_text().replace("hello", "hullo"))
    result = project.runpytest_subprocess()
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result.stdout.fnmatch_lines(["*-hullo*", "*+hello*"])


INLINE = """\
# Inline { #inline }

```python
if __name__ == "__main__":
    print("ran as a script")
```

<!--pytest-codeblocks:expected-output-->
```text
ran as a script
```

```python
print(1 + 1)
```

<!--pytest-codeblocks:expected-output-->
```text
3
```

```python
raise RuntimeError("planted")
```

```bash
echo from bash
```
"""


def test_inline_blocks_run_as_scripts_and_their_output_is_compared(project):
    (project.path / "docs" / "en" / "inline.md").write_text(INLINE)
    result = project.runpytest_subprocess("docs/en/inline.md")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["*-3*", "*+2*", "*RuntimeError: planted*"])
