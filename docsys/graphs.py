"""Computation graphs drawn at build time: an MkDocs hook (mkdocs.yml `hooks:`).

A snippet declares which of its module-level variables are graphs (`graphviz.Digraph`
objects, made with `torchviz.make_dot`) in its header, and a page shows one with an image
whose URL uses the `graph:` scheme:

    # graph: dot                                    (snippets/autograd/model_graph.py)
    ![Alt text](graph:autograd/model_graph.py#dot)  (docs/<lang>/autograd.md)

On every build, each graph snippet whose cache entry is missing runs in a fresh subprocess;
each declared variable's DOT source is normalized (torchviz names nodes by `id()`) and
drawn with Graphviz `dot -Tsvg`. The SVGs are cached in `.cache/graphs/<key>/`, where the
key hashes the snippet, the torch, torchviz and Graphviz versions and this module; they are
added to the built site under `assets/graphs/` (never to docs/), and the image becomes a
link that opens the graph at full size. Nothing changed, nothing is rendered.

Errors: no `dot` binary, or a graph snippet that fails, stops the build (PluginError);
a page that asks for an undeclared graph, a graph image without alt text, or a declared
graph that no page of a language shows is a warning, which fails `mkdocs build --strict`.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import version
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from docsys import snippets
from docsys.snippets import Snippet

# Under the "mkdocs" logger, so that `--strict` counts this module's warnings.
log = logging.getLogger("mkdocs.hooks.graphs")

SITE_DIR = "assets/graphs"  # where the SVGs land in the built site
CACHE_DIR = Path(".cache") / "graphs"  # relative to mkdocs.yml's folder
CACHE_ENV = "GRAPHS_CACHE_DIR"  # overrides it (timing cold builds without emptying the shared cache)
DEBIAN_PACKAGE = "graphviz"
OPEN_FULL_SIZE = {"en": "Open the graph at full size", "zh": "查看原尺寸计算图"}
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


# --- hook entry points -------------------------------------------------------------------


def on_startup(*, command: str, dirty: bool) -> None:
    global _dirty
    _dirty = dirty


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Render what the cache lacks, and add every declared graph's SVG to the site."""
    global _state
    root = snippets_dir(config)
    _state = _Build(lang=_language(config), root=root)
    try:
        graph_snippets = [s for s in snippets.discover(root) if s.graphs]
    except snippets.SnippetHeaderError as error:
        raise PluginError(str(error)) from None
    if not graph_snippets:
        return files
    cache_root = Path(os.environ.get(CACHE_ENV) or Path(config.config_file_path).parent / CACHE_DIR)
    start = time.perf_counter()
    svgs, rendered = ensure_rendered(graph_snippets, root, cache_root)
    seconds = time.perf_counter() - start
    for ref, svg in svgs.items():
        file = File.generated(config, site_uri(ref, svg), abs_src_path=str(svg))
        files.append(file)
        _state.graphs[ref] = file
    log.info(
        f"Graphs ({_state.lang}): {rendered} rendered, {len(svgs) - rendered} from cache "
        f"in {seconds:.1f} s ({shown(cache_root)})"
    )
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


# --- pages -------------------------------------------------------------------------------


def _graph_link(match: re.Match[str], page: Page) -> str:
    ref = html.unescape(match["ref"])
    img = match[0]
    file = _state.graphs.get(ref)
    where = page.file.src_uri
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
    title = OPEN_FULL_SIZE.get(_state.lang, OPEN_FULL_SIZE["en"])
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


def _language(config: MkDocsConfig) -> str:
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or config.theme.get("language") or "en"


def snippets_dir(config: MkDocsConfig) -> Path:
    """The first base_path of pymdownx.snippets, relative to mkdocs.yml's folder."""
    base = config.mdx_configs.get("pymdownx.snippets", {}).get("base_path", ["snippets"])
    first = base[0] if isinstance(base, list | tuple) else base
    return (Path(config.config_file_path).parent / first).resolve()


# --- cache -------------------------------------------------------------------------------


def ensure_rendered(graph_snippets: list[Snippet], root: Path, cache_root: Path) -> tuple[dict[str, Path], int]:
    """The SVG of every declared graph ("slug/name.py#var" -> path), rendering only cache
    misses (in parallel); and how many graphs were rendered."""
    entries = {s: cache_root / cache_key(s.path) for s in graph_snippets}
    missing = [s for s, entry in entries.items() if not all((entry / f"{v}.svg").exists() for v in s.graphs)]
    if missing:
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            for snippet, svgs in zip(missing, pool.map(render, missing), strict=True):
                _store(entries[snippet], svgs)
    refs = {s: s.path.relative_to(root).as_posix() for s in graph_snippets}
    svgs = {f"{refs[s]}#{v}": entries[s] / f"{v}.svg" for s in graph_snippets for v in s.graphs}
    return svgs, sum(len(s.graphs) for s in missing)


def cache_key(snippet_path: Path) -> str:
    digest = hashlib.sha256(snippet_path.read_bytes())
    for part in toolchain():
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()[:24]


@cache
def toolchain() -> tuple[str, ...]:
    """What a rendered graph depends on besides its snippet."""
    return (
        f"torch {version('torch')}",
        f"torchviz {version('torchviz')}",
        f"graphviz {version('graphviz')}",
        dot_version(),
        hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
    )


def _store(entry: Path, svgs: dict[str, bytes]) -> None:
    """Write a cache entry atomically per file (concurrent builds may share the cache)."""
    entry.mkdir(parents=True, exist_ok=True)
    for var, svg in svgs.items():
        with tempfile.NamedTemporaryFile(dir=entry, suffix=".tmp", delete=False) as tmp:
            tmp.write(svg)
        os.replace(tmp.name, entry / f"{var}.svg")


# --- rendering ---------------------------------------------------------------------------

# Runs in a fresh interpreter: the snippet as a script, then each declared variable's DOT
# source into a JSON file. Exits with one line on stderr when a variable is not a graph.
_DRIVER = """\
import json, runpy, sys
path, out, *names = sys.argv[1:]
sys.argv = [path]
sys.path.insert(0, path.rpartition("/")[0])
namespace = runpy.run_path(path, run_name="__main__")
sources = {}
for name in names:
    if name not in namespace:
        sys.exit(f"GraphError: '# graph: {name}' but the snippet defines no variable {name!r}")
    source = getattr(namespace[name], "source", None)
    if not isinstance(source, str):
        kind = type(namespace[name]).__name__
        sys.exit(f"GraphError: {name!r} is a {kind}, not a graphviz.Digraph (make it with torchviz.make_dot)")
    sources[name] = source
with open(out, "w", encoding="utf-8") as f:
    json.dump(sources, f)
"""


def render(snippet: Snippet) -> dict[str, bytes]:
    """Run a graph snippet and draw each declared variable: {var: SVG bytes}."""
    return {var: dot_to_svg(normalize_dot(source), snippet) for var, source in dot_sources(snippet).items()}


def dot_sources(snippet: Snippet) -> dict[str, str]:
    """The DOT source of each declared variable, from a run in a fresh subprocess."""
    if snippet.launch:
        raise PluginError(f"{shown(snippet.path)}: a graph snippet cannot have a '# launch:' line")
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONWARNINGS": ""}
    with tempfile.TemporaryDirectory(prefix="graph-") as workdir:
        out = Path(workdir) / "graphs.json"
        argv = [sys.executable, "-c", _DRIVER, str(snippet.path.resolve()), str(out), *snippet.graphs]
        try:
            proc = subprocess.run(argv, cwd=workdir, env=env, capture_output=True, text=True, timeout=snippet.timeout)
        except subprocess.TimeoutExpired:
            raise PluginError(f"Graph snippet {shown(snippet.path)} timed out after {snippet.timeout:g} s") from None
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
            raise PluginError(f"Graph snippet {shown(snippet.path)} failed: {last}")
        return json.loads(out.read_text(encoding="utf-8"))


_ID_RE = re.compile(r"(?m)(^\s*|->\s*)(\d{6,})\b")


def normalize_dot(source: str) -> str:
    """Rename torchviz's `id()` node names to n0, n1, ... in order of first appearance, so
    the same code gives the same DOT source (and SVG) in every process."""
    names: dict[str, str] = {}
    return _ID_RE.sub(lambda m: m[1] + names.setdefault(m[2], f"n{len(names)}"), source)


def dot_to_svg(source: str, snippet: Snippet) -> bytes:
    """Graphviz `dot -Tsvg` on a transparent background, without its version comment."""
    proc = subprocess.run(
        [dot_binary(), "-Tsvg", "-Gbgcolor=transparent"], input=source.encode(), capture_output=True, timeout=60
    )
    if proc.returncode != 0:
        error = proc.stderr.decode(errors="replace").strip().replace("\n", " ")
        raise PluginError(f"Graphviz could not draw a graph of {shown(snippet.path)}: {error}")
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
