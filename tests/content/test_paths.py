"""Every repository path named in a tracked file exists.

Files have moved between rooms (into docsys/build/, tests/content/, ...), and a comment, a workflow
header or a page that still names the old place sends a reader to a file that is gone; nothing else
fails when that happens. What counts as a repository path:

- a token that starts with one of TOP_FOLDERS and names a folder (no suffix) or a source file
  (SOURCE_SUFFIXES); a `.pt` or `.png` that code writes at run time is an output, not looked for;
- without placeholders or globs (`snippets/<slug>/<name>.py`, `tests/tooling/test_search_*.py`);
- in a test module (a `.py` under tests/, fixtures aside), only in comments and docstrings: its string
  literals are data (files a test writes into a fixture copy, messages it expects), and a wrong path
  there already fails that test;
- in a file under tests/fixtures/<name>/, relative to the repository or to that fixture site.

A page's `::: example autograd/backward.py` is relative to snippets/ and is the pages check's job.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import subprocess
import tokenize
from collections.abc import Iterator
from pathlib import Path

from docsys.core.paths import ROOT

TOP_FOLDERS = ("docsys", "tests", "scripts", "snippets", "docs", ".github")
# Not after a word, a dot, a slash or a dash: `site/docs/...` or a URL's `/docs/` is not a repository path.
PATH_RE = re.compile(rf"(?<![\w./-])(?:{'|'.join(map(re.escape, TOP_FOLDERS))})/[A-Za-z0-9_./<>*{{}}-]+")
PLACEHOLDER_CHARS = set("<>*{}")
SOURCE_SUFFIXES = {".py", ".md", ".yml", ".yaml", ".toml", ".sh", ".html", ".css", ".js", ".txt", ".json",
                   ".out", ".dot", ".ipynb"}
UNREAD_SUFFIXES = {".out", ".json", ".ipynb", ".dot"}  # recordings and generated data: they name no files
FIXTURES = Path("tests", "fixtures")
GIT = shutil.which("git") or "git"
DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def tracked_text_files(root: Path = ROOT) -> list[Path]:
    names = subprocess.run([GIT, "ls-files", "-z"], cwd=root, capture_output=True, text=True, check=True).stdout
    return [Path(name) for name in names.split("\0") if name and Path(name).suffix not in UNREAD_SUFFIXES]


def is_test_module(rel: Path) -> bool:
    return rel.suffix == ".py" and rel.parts[0] == "tests" and not rel.is_relative_to(FIXTURES)


def comments_and_docstrings(text: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of each comment and docstring line of a Python module."""
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    lines = text.splitlines()
    for docstring in docstrings(ast.parse(text)):
        for number in range(docstring.lineno, docstring.end_lineno + 1):
            yield number, lines[number - 1]


def docstrings(tree: ast.Module) -> Iterator[ast.Expr]:
    for node in ast.walk(tree):
        if isinstance(node, DOCUMENTED) and ast.get_docstring(node, clean=False) is not None:
            yield node.body[0]


def repository_paths(line: str) -> Iterator[str]:
    for match in PATH_RE.finditer(line):
        token = match[0].rstrip(".,:;)")
        if PLACEHOLDER_CHARS.isdisjoint(token) and Path(token).suffix in SOURCE_SUFFIXES | {""}:
            yield token


def bases_of(rel: Path, root: Path) -> list[Path]:
    """Where a path named in `rel` may be: the repository, and for a fixture file its fixture site."""
    if rel.is_relative_to(FIXTURES) and len(rel.parts) > 3:
        return [root, root / FIXTURES / rel.parts[2]]
    return [root]


def read_text(path: Path) -> str | None:
    """The file's text; None for a binary file or one deleted from the work tree."""
    if not path.is_file():  # tracked, but deleted in the work tree
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None
    return None if "\0" in text else text


def missing_in(rel: Path, text: str, root: Path) -> list[tuple[int, str]]:
    bases = bases_of(rel, root)
    return [(number, token) for number, line in enumerate(text.splitlines(), 1) for token in repository_paths(line)
            if not any((base / token).exists() for base in bases)]


def in_prose(found: list[tuple[int, str]], text: str) -> list[tuple[int, str]]:
    """Those of `found` in a comment or docstring. Asked only of a test module that names a missing path:
    tokenizing every test module made this test three times slower (0.27 s against 0.08 s)."""
    prose: dict[int, str] = {}
    for number, line in comments_and_docstrings(text):
        prose[number] = prose.get(number, "") + line
    return [(number, token) for number, token in found if token in prose.get(number, "")]


def missing_references(files: list[Path], root: Path = ROOT) -> list[str]:
    """`file:line: path` for each named repository path that does not exist."""
    missing = []
    for rel in files:
        text = read_text(root / rel)
        if text is None:
            continue
        found = missing_in(rel, text, root)
        if found and is_test_module(rel):
            found = in_prose(found, text)
        missing += [f"{rel.as_posix()}:{number}: {token}" for number, token in found]
    return missing


def test_every_repository_path_named_in_a_tracked_file_exists():
    missing = missing_references(tracked_text_files())
    assert not missing, (
        "These name a file or folder that does not exist; fix each reference to name the file that does "
        "the job now:\n" + "\n".join(missing))


def test_a_reference_to_a_missing_file_is_reported_and_outputs_are_not(tmp_path):
    named = tmp_path / "docsys" / "build" / "real.py"
    named.parent.mkdir(parents=True)
    named.write_text(
        "# see docsys/build/nope.py, docsys/build/real.py, and `docs/gone/`.\n"
        "# not paths here: snippets/<slug>/<name>.py, tests/tooling/test_*.py, snippets/x/checkpoint.pt\n")
    test = tmp_path / "tests" / "tooling" / "test_real.py"
    test.parent.mkdir(parents=True)
    test.write_text('"""Checks docsys/build/gone.py."""\n\nWRITTEN = "snippets/fresh/one.py"  # by the test\n')
    found = missing_references([Path("docsys/build/real.py"), Path("tests/tooling/test_real.py")], tmp_path)
    assert found == ["docsys/build/real.py:1: docsys/build/nope.py", "docsys/build/real.py:1: docs/gone/",
                     "tests/tooling/test_real.py:1: docsys/build/gone.py"]
