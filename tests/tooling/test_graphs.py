"""docsys.build.graphs: graphs are drawn from their recorded DOT source, cached, and bad input stops the build."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HOOK = Path(__file__).parents[2] / "docsys" / "build" / "graphs.py"
DOT = 'digraph {\n\tn0 [label="x"]\n\tn1 [label="MulBackward0"]\n\tn0 -> n1\n}\n'


def make_site(root: Path, page: str, dot: str | None = DOT, header: str = "# graph: g\n") -> Path:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "index.md").write_text(page, encoding="utf-8")
    demo = root / "snippets" / "demo"
    demo.mkdir(parents=True, exist_ok=True)
    (demo / "g.py").write_text(header + "print(1)\n", encoding="utf-8")
    if dot is not None:
        (demo / "g.g.dot").write_text(dot, encoding="utf-8")
    (root / "mkdocs.yml").write_text(textwrap.dedent(f"""\
        site_name: graphs test
        strict: true
        hooks: [{HOOK}]
        markdown_extensions:
          - admonition
          - tables
          - docsys.build.examples:
              base_path: [snippets]
              check_paths: true
        """), encoding="utf-8")
    return root


def mkdocs_build(root: Path, path_env: str | None = None) -> subprocess.CompletedProcess[str]:
    """A strict build of the small site; its whole log (stderr merged) is in .stdout."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **({"PATH": path_env} if path_env is not None else {})}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=root, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)


def site_svgs(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / "site" / "assets" / "graphs").rglob("*.svg")}


def test_drawn_once_then_from_the_cache_and_redrawn_when_the_recording_changes(tmp_path):
    root = make_site(tmp_path, "![A tiny graph](graph:demo/g.py#g)\n")
    first = mkdocs_build(root)
    assert first.returncode == 0 and "Graphs (en): 1 drawn, 0 from cache" in first.stdout, first.stdout
    svgs = site_svgs(root)
    (svg,) = svgs.values()
    assert svg.startswith(b"<?xml") and b"MulBackward0" in svg and b"<!--" not in svg
    again = mkdocs_build(root)
    assert "Graphs (en): 0 drawn, 1 from cache" in again.stdout and site_svgs(root) == svgs
    (root / "snippets" / "demo" / "g.g.dot").write_text(DOT.replace("MulBackward0", "ExpBackward0"))
    changed = mkdocs_build(root)
    assert "Graphs (en): 1 drawn, 0 from cache" in changed.stdout
    ((name, svg),) = site_svgs(root).items()
    assert name not in svgs and b"ExpBackward0" in svg


def test_no_dot_binary_stops_the_build_naming_the_debian_package(tmp_path):
    root = make_site(tmp_path, "![A graph](graph:demo/g.py#g)\n")
    result = mkdocs_build(root, path_env=str(tmp_path / "empty-bin"))
    assert result.returncode != 0
    assert [line for line in result.stdout.splitlines() if "Graphviz" in line] == [
        "ERROR   -  Graphviz 'dot' is not on PATH: install the Debian package 'graphviz' (apt-get install graphviz)"]


@pytest.mark.parametrize(("page", "dot", "message"), [
    ("No graph here.\n", DOT,
     "Graph 'demo/g.py#g' is declared ('# graph:' in snippets/demo/g.py) but no en page shows it"),
    ("![A graph](graph:demo/g.py#g) ![Another](graph:demo/g.py#nope)\n", DOT,
     "index.md: ![...](graph:demo/g.py#nope) asks for a graph no snippet declares; "
     "declare it with '# graph: nope' at the top of snippets/demo/g.py"),
    ("![A graph](graph:demo/g.py#g) ![Another](graph:demo/typo.py#g)\n", DOT,
     "index.md: ![...](graph:demo/typo.py#g) asks for a graph no snippet declares; there is no snippet"),
    ("![](graph:demo/g.py#g)\n", DOT, "index.md: graph:demo/g.py#g has no alt text"),
    ("![A graph](graph:demo/g.py#g)\n", None,
     "graph demo/g.py#g: no recorded DOT source snippets/demo/g.g.dot; run `make record SNIPPETS=demo/g.py`"),
], ids=["unused", "undeclared", "no-such-snippet", "no-alt", "not-recorded"])
def test_strict_build_fails_on_graph_references(tmp_path, page, dot, message):
    result = mkdocs_build(make_site(tmp_path, page, dot))
    assert result.returncode != 0 and message in result.stdout, result.stdout


def test_graph_inside_a_table_and_an_admonition_is_rewritten(tmp_path):
    page = ("| a | b |\n|---|---|\n| ![Left](graph:demo/g.py#g) | ![Right](graph:demo/g.py#g) |\n\n"
            '!!! note "Graph"\n    ![Inside](graph:demo/g.py#g)\n\n'
            "```markdown\n![Shown as code, not drawn](graph:demo/g.py#g)\n```\n")
    root = make_site(tmp_path, page)
    result = mkdocs_build(root)
    assert result.returncode == 0, result.stdout
    built = (root / "site" / "index.html").read_text()
    assert built.count('<a class="graph" href="assets/graphs/demo/g.g.') == 3
    assert "![Shown as code, not drawn](graph:demo/g.py#g)" in built


def test_bad_snippet_header_fails_the_build_in_one_line(tmp_path):
    result = mkdocs_build(make_site(tmp_path, "![A graph](graph:demo/g.py#g)\n", header="# marks: cdua\n# graph: g\n"))
    assert result.returncode != 0
    assert "unknown mark(s) ['cdua']" in result.stdout and "Traceback" not in result.stdout, result.stdout
