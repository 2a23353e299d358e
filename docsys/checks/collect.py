"""pytest plugin: the code blocks of the English pages are the examples' tests (pytest-codeblocks' items).

Each page under docs/en/ gives two kinds of items, in page order:

- a `::: example` directive (docsys.core.text.example_directives) runs its snippet once per test
  session, at the first directive that shows it whole: docsys.core.verdict compares it with its recording
  (recording is `python -m docsys record`, the one recording command). zh pages include the
  same examples in the same order (the parity check), so running them again per language would
  prove nothing new;
- a Python block typed into a page runs as a script, a bash block in the repository root, and
  what they print is compared with the output block under them; pytest-codeblocks reads these
  blocks, with their marks and expected outputs, out of the page with its `--8<--` includes
  expanded (docsys.checks.pages.expand).

Items are pytest-codeblocks' TestBlock, subclassed where this project differs: snippets run as
the reader runs them, in their own process (through a fork server that has imported torch);
outputs are compared after docsys.core.normalize.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from pytest_codeblocks.main import CodeBlock, extract_from_buffer
from pytest_codeblocks.plugin import TestBlock

from docsys.checks.pages import expand, extension_config
from docsys.core.markers import MARKERS
from docsys.core.normalize import diff, normalize
from docsys.core.runner import TEST_ENV, Zygote, run
from docsys.core.snippet import Snippet, load
from docsys.core.text import RUNNABLE_FENCES, example_directives
from docsys.core.verdict import check

_zygote: Zygote | None = None


def zygote() -> Zygote:
    global _zygote
    if _zygote is None:
        _zygote = Zygote(env=TEST_ENV)
    return _zygote


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("example_pages", "folder of the pages whose code blocks are tests", default="docs/en")
    parser.addini("example_config", "the mkdocs.yml whose examples extension expands them", default="mkdocs.yml")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "example(path, section=None): the page block shows this snippet")
    for marker in MARKERS.values():
        config.addinivalue_line("markers", f"{marker.name}: {marker.description}")


def _setting(config: pytest.Config, name: str) -> Path:
    return (config.rootpath / config.getini(name)).resolve()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".md" and file_path.resolve().is_relative_to(_setting(parent.config, "example_pages")):
        return PageFile.from_parent(parent, path=file_path)
    return None


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _zygote is not None:
        _zygote.close()


class PageFile(pytest.File):
    """One English page: its runnable blocks, each example once per session."""

    def collect(self):
        config_file = _setting(self.config, "example_config")
        text = self.path.read_text(encoding="utf-8")
        items = [*self._examples(text, Path(extension_config(config_file)["base_path"][0])),
                 *self._typed_blocks(text, config_file)]
        for _, item in sorted(items, key=lambda pair: pair[0]):
            yield item

    def _examples(self, text: str, snippets_dir: Path):
        """(line, item) for each snippet this page shows whole, unless an earlier page showed it."""
        seen = self.session.stash.setdefault(_SEEN, set())
        for directive in example_directives(text.split("\n")):
            if directive.section is None and directive.snippet not in seen:
                seen.add(directive.snippet)
                yield directive.line + 1, self._example(snippets_dir, directive.snippet, directive.line + 1)

    def _typed_blocks(self, text: str, config_file: Path):
        """(line, item) for each runnable block typed into the page (its `--8<--` includes expanded)."""
        for block in extract_from_buffer(io.StringIO(expand(text, config_file=config_file) + "\n")):
            if block.syntax in RUNNABLE_FENCES:
                yield block.lineno, InlineBlock.from_parent(self, name=f"line {block.lineno}", obj=block)

    def _example(self, snippets_dir: Path, rel: str, lineno: int) -> ExampleBlock:
        snippet = load(snippets_dir / rel, snippets_dir)
        shown = snippet.path.read_text(encoding="utf-8").split("\n", snippet.header_lines)[-1]
        item = ExampleBlock.from_parent(self, name=rel, obj=CodeBlock(shown, lineno, "python"))
        item.snippet = snippet
        for mark in snippet.marks:
            item.add_marker(getattr(pytest.mark, mark))
        return item


_SEEN = pytest.StashKey[set]()


class ExampleBlock(TestBlock):
    """A snippet shown on a page: run once, as the reader runs it (docsys.core.verdict)."""

    snippet: Snippet

    def runtest(self) -> None:
        outcome = check(self.snippet, zygote=zygote())
        if outcome.skipped:
            pytest.skip(outcome.message)
        if not outcome.ok:
            raise AssertionError(outcome.message)

    def repr_failure(self, excinfo, style=None) -> str:
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, None, f"example {self.name}"


class InlineBlock(TestBlock):
    """A block typed into a page: Python runs as a script, bash in the repository root."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for mark in self.obj.marks:
            self.add_marker(eval(mark, {"sys": sys, "pytest": pytest}))  # noqa: S307 (pytest-codeblocks' own rule)

    def runtest(self) -> None:
        printed = self._python() if self.obj.syntax == "python" else self._shell()
        expected = self.obj.expected_output
        if expected is not None and normalize(expected) != normalize(printed):
            raise AssertionError(f"{self.name}: printed output differs from the page:\n"
                                 + diff(expected, printed, self.name))

    def _python(self) -> str:
        with tempfile.TemporaryDirectory(prefix="inline-") as folder:
            script = Path(folder) / "block.py"
            script.write_text(self.obj.code, encoding="utf-8")
            result = run(Snippet(path=script, root=Path(folder)), zygote=zygote())
        if result.returncode != 0:
            raise AssertionError(f"{self.name}: exited {result.returncode}\n{result.output[-2000:]}")
        return result.output

    def _shell(self) -> str:
        env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        proc = subprocess.run(
            ["/bin/bash", "-c", self.obj.code], cwd=self.config.rootpath, env=env, capture_output=True, text=True
        )
        if proc.returncode != 0:
            raise AssertionError(f"{self.name}: exited {proc.returncode}\n{proc.stderr[-2000:]}")
        return proc.stdout

    def repr_failure(self, excinfo, style=None) -> str:
        return str(excinfo.value)
