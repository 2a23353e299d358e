"""Graphs drawn at build time (docsys/graphs.py): they render, deterministically, from a
cache that a second build hits fully; and every kind of bad input stops the build."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from docsys import graphs
from docsys.paths import ROOT, SNIPPETS_DIR
from docsys.site import built_page
from docsys.snippets import discover, load

HOOK = ROOT / "docsys" / "graphs.py"
GRAPH_SNIPPETS = [s for s in discover() if s.graphs]

# --- the snippets of the site --------------------------------------------------------------


def test_the_site_declares_graphs():
    assert any(s.rel == "autograd/model_graph.py" for s in GRAPH_SNIPPETS)


@pytest.mark.parametrize("snippet", GRAPH_SNIPPETS, ids=lambda s: s.rel)
def test_every_declared_graph_renders_the_same_in_two_processes(snippet):
    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(graphs.render, [snippet, snippet])
    assert set(first) == set(snippet.graphs)
    for var, svg in first.items():
        assert svg.startswith(b"<?xml") and b"<svg" in svg and b"<!--" not in svg, var
        assert svg == second[var], f"{snippet.rel}#{var}: two renders differ"


def test_header_declares_graphs(tmp_path):
    snippet = tmp_path / "two.py"
    snippet.write_text("# marks: slow\n# graph: small large\nprint(1)\n")
    assert load(snippet).graphs == ("small", "large")
    assert load(SNIPPETS_DIR / "autograd" / "backward.py").graphs == ()


def test_serve_rebuilds_when_a_snippet_changes():
    from mkdocs.utils import yaml_load

    watched = yaml_load(Path(ROOT / "mkdocs.yml").read_text(encoding="utf-8")).get("watch", [])
    assert "snippets" in watched, "mkdocs serve must watch snippets/ so graphs redraw when one changes"


def test_node_ids_are_renumbered_in_order_of_appearance():
    one = '\t140526507587008 [label="x\n (2)"]\n\t140526503305872 -> 140526507587008\n\tgraph [size="12,12"]\n'
    two = one.replace("140526507587008", "94123456789012").replace("140526503305872", "94123456789999")
    assert graphs.normalize_dot(one) == graphs.normalize_dot(two)
    assert graphs.normalize_dot(one) == '\tn0 [label="x\n (2)"]\n\tn1 -> n0\n\tgraph [size="12,12"]\n'


# --- the built site ------------------------------------------------------------------------

# The pages where a graph teaches, and how many different graphs each shows.
GRAPH_PAGES = {"autograd": 1, "dynamic-graphs": 2, "visualizing-graphs": 2, "custom-functions": 1}


@pytest.mark.xdist_group("site")
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("slug", GRAPH_PAGES)
def test_built_page_shows_its_graphs(built_site, slug, lang):
    page = built_page(built_site.path, ROOT / "docs" / lang / f"{slug}.md")
    text = page.read_text(encoding="utf-8")
    link_re = r'<a class="graph" href="([^"]+)" title="[^"]+"><img loading="lazy" alt="([^"]+)" src="([^"]+)"'
    links = re.findall(link_re, text)
    assert len({src for _, _, src in links}) >= GRAPH_PAGES[slug], f"{lang}/{slug}: {links}"
    for href, alt, src in links:
        assert href == src and src.endswith(".svg")
        assert (page.parent / src).resolve().is_file(), src
        assert bool(re.search(r"[\u4e00-\u9fff]", alt)) == (lang == "zh"), f"alt text not in {lang}: {alt}"
    assert 'src="graph:' not in text


@pytest.mark.xdist_group("site")
def test_built_site_reports_graphs_and_zh_build_hits_the_cache(built_site):
    assert re.search(r"Graphs \(en\): \d+ rendered, \d+ from cache", built_site.log), built_site.log
    assert re.search(r"Graphs \(zh\): 0 rendered, \d+ from cache", built_site.log), built_site.log


# --- a small site of its own: cache, determinism, and bad input ----------------------------

TORCHVIZ_SNIPPET = """\
# graph: dot
import torch
from torchviz import make_dot

w = torch.ones(3, requires_grad=True)
loss = (w * 2).sum()
dot = make_dot(loss, params={"w": w})
print("drawn")
"""

PLAIN_SNIPPET = """\
# graph: g
import graphviz

g = graphviz.Digraph()
g.edge("123456789", "987654321")
"""


def make_site(root: Path, snippets: dict[str, str], page: str) -> Path:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "index.md").write_text(page, encoding="utf-8")
    for name, text in snippets.items():
        path = root / "snippets" / "demo" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        textwrap.dedent(f"""\
            site_name: graphs test
            strict: true
            hooks: [{HOOK}]
            markdown_extensions:
              - pymdownx.snippets:
                  base_path: [snippets]
                  check_paths: true
            """),
        encoding="utf-8",
    )
    return root


def mkdocs_build(root: Path, path_env: str | None = None) -> subprocess.CompletedProcess[str]:
    """A strict build of the small site; its whole log (stderr merged) is in .stdout."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if path_env is not None:
        env["PATH"] = path_env
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(root / "site")],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=240,
    )


def site_svgs(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / "site" / "assets" / "graphs").rglob("*.svg")}


def test_cache_determinism_and_changes(tmp_path):
    root = make_site(tmp_path, {"tv.py": TORCHVIZ_SNIPPET}, "![A tiny graph](graph:demo/tv.py#dot)\n")

    cold = mkdocs_build(root)
    assert cold.returncode == 0, cold.stdout
    assert "Graphs (en): 1 rendered, 0 from cache" in cold.stdout
    first = site_svgs(root)
    assert len(first) == 1
    assert not list((root / "docs").rglob("*.svg")), "rendered graphs must not land in docs/"

    warm = mkdocs_build(root)
    assert "Graphs (en): 0 rendered, 1 from cache" in warm.stdout, warm.stdout
    assert site_svgs(root) == first

    shutil.rmtree(root / ".cache")
    clean_again = mkdocs_build(root)
    assert "Graphs (en): 1 rendered, 0 from cache" in clean_again.stdout, clean_again.stdout
    assert site_svgs(root) == first, "two clean builds gave different SVGs"

    snippet = root / "snippets" / "demo" / "tv.py"
    snippet.write_text(snippet.read_text().replace("(w * 2).sum()", "(w * 2).exp().sum()"))
    changed = mkdocs_build(root)
    assert "Graphs (en): 1 rendered, 0 from cache" in changed.stdout, changed.stdout
    (name, svg), = site_svgs(root).items()
    assert name not in first and b"ExpBackward0" in svg


def test_no_dot_binary_stops_the_build_naming_the_debian_package(tmp_path):
    root = make_site(tmp_path, {"g.py": PLAIN_SNIPPET}, "![A graph](graph:demo/g.py#g)\n")
    result = mkdocs_build(root, path_env=str(tmp_path / "empty-bin"))
    assert result.returncode != 0
    lines = [line for line in result.stdout.splitlines() if "Graphviz" in line]
    assert lines == [
        "ERROR   -  Graphviz 'dot' is not on PATH: install the Debian package 'graphviz' (apt-get install graphviz)"
    ]


def test_raising_graph_snippet_fails_the_build_naming_it(tmp_path):
    planted = PLAIN_SNIPPET + 'raise ValueError("planted")\n'
    root = make_site(tmp_path, {"g.py": planted}, "![A graph](graph:demo/g.py#g)\n")
    result = mkdocs_build(root)
    assert result.returncode != 0
    assert "Graph snippet snippets/demo/g.py failed: ValueError: planted" in result.stdout, result.stdout


def test_declared_variable_that_is_not_a_graph_fails_the_build(tmp_path):
    root = make_site(tmp_path, {"g.py": PLAIN_SNIPPET.replace("# graph: g", "# graph: g h") + "h = 3\n"}, "")
    result = mkdocs_build(root)
    assert result.returncode != 0
    assert "snippets/demo/g.py failed: GraphError: 'h' is a int, not a graphviz.Digraph" in result.stdout


@pytest.mark.parametrize(
    ("page", "message"),
    [
        (
            "No graph here.\n",
            "Graph 'demo/g.py#g' is declared ('# graph:' in snippets/demo/g.py) but no en page shows it",
        ),
        (
            "![A graph](graph:demo/g.py#g) ![Another](graph:demo/g.py#nope)\n",
            "index.md: ![...](graph:demo/g.py#nope) asks for a graph no snippet declares; "
            "declare it with '# graph: nope' at the top of snippets/demo/g.py",
        ),
        (
            "![A graph](graph:demo/g.py#g) ![Another](graph:demo/typo.py#g)\n",
            "index.md: ![...](graph:demo/typo.py#g) asks for a graph no snippet declares; there is no snippet",
        ),
        ("![](graph:demo/g.py#g)\n", "index.md: graph:demo/g.py#g has no alt text"),
    ],
    ids=["unused", "undeclared", "no-such-snippet", "no-alt"],
)
def test_strict_build_fails_on_graph_references(tmp_path, page, message):
    root = make_site(tmp_path, {"g.py": PLAIN_SNIPPET}, page)
    result = mkdocs_build(root)
    assert result.returncode != 0
    assert message in result.stdout, result.stdout
    assert "Aborted with 1 warnings in strict mode" in result.stdout


def test_graph_inside_a_table_and_an_admonition_is_rewritten(tmp_path):
    page = (
        "| a | b |\n|---|---|\n| ![Left](graph:demo/g.py#g) | ![Right](graph:demo/g.py#g) |\n\n"
        '!!! note "Graph"\n    ![Inside](graph:demo/g.py#g)\n\n'
        "```markdown\n![Shown as code, not drawn](graph:demo/g.py#g)\n```\n"
    )
    root = make_site(tmp_path, {"g.py": PLAIN_SNIPPET}, page)
    (root / "mkdocs.yml").write_text((root / "mkdocs.yml").read_text() + "  - admonition\n  - tables\n")
    result = mkdocs_build(root)
    assert result.returncode == 0, result.stdout
    built = (root / "site" / "index.html").read_text()
    assert built.count('<a class="graph" href="assets/graphs/demo/g.g.') == 3
    assert "![Shown as code, not drawn](graph:demo/g.py#g)" in built


def test_bad_snippet_header_fails_the_build_in_one_line(tmp_path):
    root = make_site(tmp_path, {"g.py": "# marks: cdua\n" + PLAIN_SNIPPET}, "![A graph](graph:demo/g.py#g)\n")
    result = mkdocs_build(root)
    assert result.returncode != 0
    assert "unknown mark(s) ['cdua']" in result.stdout and "Traceback" not in result.stdout, result.stdout


def test_mkdocs_serve_redraws_a_graph_when_its_snippet_changes(tmp_path):
    import socket
    import time
    import urllib.request

    root = make_site(tmp_path, {"g.py": PLAIN_SNIPPET}, "![A graph](graph:demo/g.py#g)\n")
    (root / "mkdocs.yml").write_text((root / "mkdocs.yml").read_text() + "watch: [snippets]\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    argv = [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"]
    server = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def graph_url(previous: str | None) -> str:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
                found = re.search(r'src="(assets/graphs/[^"]+\.svg)"', page)
                if found and found[1] != previous:
                    return found[1]
            except OSError:
                pass
            time.sleep(0.5)
        raise AssertionError(f"mkdocs serve showed no new graph (previous: {previous})")

    try:
        before = graph_url(None)
        snippet = root / "snippets" / "demo" / "g.py"
        snippet.write_text(snippet.read_text() + 'g.node("added", "a node added while serving")\n')
        after = graph_url(before)
        svg = urllib.request.urlopen(f"http://127.0.0.1:{port}/{after}", timeout=5).read()
        assert b"a node added while serving" in svg
    finally:
        server.terminate()
        server.wait(timeout=30)
