"""Computation graphs drawn at build time: an MkDocs hook (mkdocs.yml `hooks:`).

A snippet declares which of its module-level variables are graphs (made with
`torchviz.make_dot`) in its header, and a page shows one with an image whose URL uses the
`graph:` scheme:

    # graph: dot                                    (snippets/autograd/model_graph.py)
    ![Alt text](graph:autograd/model_graph.py#dot)  (docs/<lang>/autograd.md)

The run that records the snippet also records each graph's DOT source beside it
(`model_graph.dot.dot`, docsys.core.recording), so the build never runs a snippet: it draws each
DOT file with Graphviz `dot -Tsvg`, caches the SVG under `.cache/graphs/` (next to mkdocs.yml)
by a hash of the DOT source, the Graphviz version and this module, and adds it to the built
site under `assets/graphs/` (never to docs/); the image becomes a link that opens the graph at
full size. Nothing changed, nothing is drawn.

Errors: no `dot` binary stops the build (PluginError); a declared graph without its DOT file, a
page that asks for an undeclared graph, a graph image without alt text, or a declared graph that
no page of a language shows is a warning, which fails `mkdocs build --strict`.
"""

from __future__ import annotations

import hashlib
import html
import logging
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from docsys.build.config import language, project_dir, snippets_dir
from docsys.build.files import write_atomically
from docsys.build.strings import strings
from docsys.core.snippet import SnippetHeaderError, discover

log = logging.getLogger("mkdocs.hooks.graphs")  # under "mkdocs": --strict counts its warnings

SITE_DIR = "assets/graphs"
CACHE_DIR = Path(".cache") / "graphs"  # relative to mkdocs.yml's folder
DEBIAN_PACKAGE = "graphviz"
_GRAPH_IMG_RE = re.compile(r'<img\b[^>]*?\bsrc="graph:(?P<ref>[^"]*)"[^>]*>')
_ALT_RE = re.compile(r'\balt="(?P<alt>[^"]*)"')


@dataclass
class _Build:
    """What one language's build knows about graphs."""

    graphs: dict[str, File] = field(default_factory=dict)  # "slug/name.py#var" -> its SVG in the site
    used: set[str] = field(default_factory=set)
    lang: str = "en"
    root: Path = Path("snippets")


_state = _Build()
_dirty = False


def on_startup(*, command: str, dirty: bool) -> None:
    global _dirty
    _dirty = dirty


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Draw what the cache lacks, and add every declared graph's SVG to the site."""
    global _state
    _state = _Build(lang=language(config), root=snippets_dir(config))
    cache_root = project_dir(config) / CACHE_DIR
    start, drawn = time.perf_counter(), 0
    for ref, dot_file in declared(_state.root).items():
        if not dot_file.exists():
            record = f"make record SNIPPETS={ref.split('#')[0]}"
            log.warning(f"graph {ref}: no recorded DOT source {shown(dot_file)}; run `{record}`")
            continue
        svg, new = cached_svg(dot_file.read_text(encoding="utf-8"), cache_root, ref)
        drawn += new
        file = File.generated(config, site_uri(ref, svg), abs_src_path=str(svg))
        files.append(file)
        _state.graphs[ref] = file
    if _state.graphs:
        log.info(f"Graphs ({_state.lang}): {drawn} drawn, {len(_state.graphs) - drawn} from cache "
                 f"in {time.perf_counter() - start:.2f} s")
    return files


def on_page_content(html_text: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Turn each `graph:` image into its SVG, linked to itself at full size."""
    return _GRAPH_IMG_RE.sub(lambda m: _graph_link(m, page), html_text)


def on_env(env, config: MkDocsConfig, files: Files):
    """Every declared graph is shown on some page of this language (not checkable when dirty)."""
    if not _dirty:
        for ref in sorted(set(_state.graphs) - _state.used):
            log.warning(
                f"Graph '{ref}' is declared ('# graph:' in {shown(_state.root / ref.split('#')[0])}) but no "
                f"{_state.lang} page shows it; add ![alt text](graph:{ref}) to a page or remove it from the header"
            )
    return env


def declared(root: Path) -> dict[str, Path]:
    """Every declared graph ("slug/name.py#var") and the file its DOT source is recorded in."""
    try:
        snippets = discover(root)
    except SnippetHeaderError as error:
        raise PluginError(str(error)) from None
    return {f"{s.rel}#{var}": s.graph_path(var) for s in snippets for var in s.graphs}


def _graph_link(match: re.Match[str], page: Page) -> str:
    ref, img, where = html.unescape(match["ref"]), match[0], page.file.src_uri
    file = _state.graphs.get(ref)
    if file is None:
        log.warning(f"{where}: ![...](graph:{ref}) asks for a graph no snippet declares; {_declare_hint(ref)}")
        return img
    alt = _ALT_RE.search(img)
    if alt is None or not alt["alt"].strip():
        log.warning(f"{where}: graph:{ref} has no alt text; write one in the page's language: ![alt text](graph:{ref})")
    _state.used.add(ref)
    url = html.escape(file.url_relative_to(page.file))
    start, end = match.start("ref") - len("graph:") - match.start(), match.end("ref") - match.start()
    img = img[:start] + url + img[end:]
    img = img.replace("<img", '<img loading="lazy"', 1)
    title = strings(_state.lang)["open_graph"]
    return f'<a class="graph" href="{url}" title="{title}">{img}</a>'


def _declare_hint(ref: str) -> str:
    path, _, var = ref.partition("#")
    if not var:
        return f"write it as graph:{path}#<variable>"
    if not (_state.root / path).is_file():
        return f"there is no snippet {shown(_state.root / path)}"
    return f"declare it with '# graph: {var}' at the top of {shown(_state.root / path)}"


def site_uri(ref: str, svg: Path) -> str:
    """`assets/graphs/autograd/model_graph.dot.<hash>.svg`: the content hash in the name lets
    browsers cache graphs forever and still see a changed one at once."""
    path, _, var = ref.partition("#")
    digest = hashlib.sha256(svg.read_bytes()).hexdigest()[:10]
    return f"{SITE_DIR}/{path.removesuffix('.py')}.{var}.{digest}.svg"


def cached_svg(source: str, cache_root: Path, ref: str) -> tuple[Path, bool]:
    """The SVG of a DOT source from the cache, drawing it first if missing; (path, drawn?)."""
    key = hashlib.sha256("\0".join([source, *toolchain()]).encode()).hexdigest()[:24]
    svg = cache_root / f"{key}.svg"
    if svg.exists():
        return svg, False
    write_atomically(svg, dot_to_svg(source, ref))  # concurrent builds may share the cache
    return svg, True


@cache
def toolchain() -> tuple[str, ...]:
    """What a drawn graph depends on besides its DOT source."""
    return dot_version(), hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


def dot_to_svg(source: str, ref: str) -> bytes:
    """Graphviz `dot -Tsvg` on a transparent background, without its version comment."""
    proc = subprocess.run(
        [dot_binary(), "-Tsvg", "-Gbgcolor=transparent"], input=source.encode(), capture_output=True, timeout=60
    )
    if proc.returncode != 0:
        error = proc.stderr.decode(errors="replace").strip().replace("\n", " ")
        raise PluginError(f"Graphviz could not draw graph {ref}: {error}")
    svg = proc.stdout.decode()
    svg = re.sub(r"<!DOCTYPE[^>]*>\s*", "", svg)
    svg = re.sub(r"<!--.*?-->\s*", "", svg, flags=re.S)
    return svg.encode()


def shown(path: Path) -> str:
    """A path as the person running the build would type it."""
    return os.path.relpath(path) if path.resolve().is_relative_to(Path.cwd()) else str(path)


def dot_binary() -> str:
    path = shutil.which("dot")
    if path is None:
        raise PluginError(
            f"Graphviz 'dot' is not on PATH: install the Debian package '{DEBIAN_PACKAGE}' (apt-get install graphviz)"
        )
    return path


@cache
def dot_version() -> str:
    proc = subprocess.run([dot_binary(), "-V"], capture_output=True, text=True, timeout=30)
    return (proc.stderr or proc.stdout).strip()
