"""Figures drawn at build time from what a snippet's run recorded: an MkDocs hook (mkdocs.yml `hooks:`).

A snippet declares a module-level variable that holds a figure's data, and the kind of figure
that draws it (docsys.build.drawings); a page shows it, on the same page as the snippet, with an
image whose URL uses the `figure:` scheme, alt text, and a caption (the image's title) that says
what to notice:

    # figure: trace=timeline                          (snippets/profiling/schedule.py)
    ![Alt text](figure:profiling/schedule.py#trace "What to notice")      (docs/<lang>/profiling.md)

The run that records the snippet writes the data beside it (`schedule.trace.figure.json`, with
its hash in `schedule.record.json`: docsys.core.recording), so the build never runs a snippet: it
draws each figure once per language with matplotlib (labels from drawings/labels.yml), caches
the SVG under `.cache/figures/` (next to mkdocs.yml) by a hash of the data, the kind, the
language and the drawing code, and adds it to the built site under `assets/figures/` (never to
docs/). On the page the image becomes a `<figure>` with its caption, linked to the SVG at full
size. Nothing changed, nothing is drawn. A GPU snippet that has no current recording shows
"not yet recorded on a GPU" in the figure's place.

Each of these is a warning, which fails `mkdocs build --strict`, in one line: a declared figure
without its data file, data that is not what its recording wrote (edited or typed by hand), data
its kind cannot draw, a page that asks for an undeclared figure, a figure image without alt text
or caption, or not alone in its paragraph, a figure on a page that does not show its snippet
(`::: example`), a figure drawn larger than MAX_SVG_BYTES, and a declared figure that no page of
a language shows.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from docsys.build import drawings
from docsys.build.config import language, project_dir, snippets_dir
from docsys.build.files import write_atomically
from docsys.build.strings import strings
from docsys.core import recording
from docsys.core.snippet import Snippet, SnippetHeaderError, discover
from docsys.core.text import example_directives

log = logging.getLogger("mkdocs.hooks.figures")  # under "mkdocs": --strict counts its warnings

SITE_DIR = "assets/figures"
CACHE_DIR = Path(".cache") / "figures"  # relative to mkdocs.yml's folder
MAX_SVG_BYTES = 100_000
_PARAGRAPH_RE = re.compile(r'<p>\s*(?P<img><img\b[^>]*?\bsrc="figure:(?P<ref>[^"]*)"[^>]*>)\s*</p>')
_IMG_RE = re.compile(r'<img\b[^>]*?\bsrc="figure:(?P<ref>[^"]*)"[^>]*>')
_ATTR_RE = re.compile(r'\b(?P<name>alt|title)="(?P<value>[^"]*)"')
_SIZE_RE = re.compile(r'<svg\b[^>]*?\bwidth="(?P<w>[\d.]+)pt"[^>]*?\bheight="(?P<h>[\d.]+)pt"')


@dataclass(frozen=True)
class Drawn:
    file: File
    width: int  # CSS pixels
    height: int


@dataclass
class _Build:
    """What one language's build knows about figures."""

    figures: dict[str, Drawn | None] = field(default_factory=dict)  # ref -> its SVG, None: not yet on a GPU
    failed: set[str] = field(default_factory=set)  # declared, but not drawn (the build said why)
    used: set[str] = field(default_factory=set)
    lang: str = "en"
    root: Path = Path("snippets")


_state = _Build()
_dirty = False


def on_startup(*, command: str, dirty: bool) -> None:
    global _dirty
    _dirty = dirty


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Draw what the cache lacks, and add every declared figure's SVG to the site."""
    global _state
    _state = _Build(lang=language(config), root=snippets_dir(config))
    cache_root = project_dir(config) / CACHE_DIR
    start, drawn = time.perf_counter(), 0
    for ref, (snippet, var, kind) in declared(_state.root).items():
        if snippet.platform == "cuda" and recording.state(snippet) != recording.CURRENT:
            _state.figures[ref] = None
            continue
        svg, new = _draw(ref, snippet, var, kind, cache_root)
        if svg is None:
            _state.failed.add(ref)
            continue
        drawn += new
        if svg.stat().st_size > MAX_SVG_BYTES:
            log.warning(f"figure {ref}: drawn as {svg.stat().st_size / 1000:.0f} KB of SVG (limit "
                        f"{MAX_SVG_BYTES / 1000:.0f} KB); record fewer, larger spans")
        file = File.generated(config, site_uri(ref, _state.lang, svg), abs_src_path=str(svg))
        files.append(file)
        _state.figures[ref] = Drawn(file, *svg_size(svg))
    if _state.figures:
        total = sum(value is not None for value in _state.figures.values())
        log.info(f"Figures ({_state.lang}): {drawn} drawn, {total - drawn} from cache "
                 f"in {time.perf_counter() - start:.2f} s")
    return files


def on_page_content(html_text: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Turn each paragraph holding a `figure:` image into a captioned figure linked to its SVG."""
    alone = {m.start("img") for m in _PARAGRAPH_RE.finditer(html_text)}
    for stray in (m for m in _IMG_RE.finditer(html_text) if m.start() not in alone):
        _state.used.add(html.unescape(stray["ref"]))
        log.warning(f"{page.file.src_uri}: ![...](figure:{html.unescape(stray['ref'])}) must stand alone in "
                    "its paragraph (a blank line before and after it), where it becomes a captioned figure")
    return _PARAGRAPH_RE.sub(lambda m: _figure(m, page), html_text)


def on_env(env, config: MkDocsConfig, files: Files):
    """Every declared figure is shown on some page of this language (not checkable when dirty)."""
    if not _dirty:
        for ref in sorted(set(_state.figures) - _state.used):
            log.warning(
                f"Figure '{ref}' is declared ('# figure:' in {shown(_state.root / ref.split('#')[0])}) but no "
                f"{_state.lang} page shows it; add ![alt text](figure:{ref} \"caption\") to the page that shows "
                "its snippet, or remove it from the header"
            )
    return env


def _draw(ref: str, snippet: Snippet, var: str, kind: str, cache_root: Path) -> tuple[Path | None, bool]:
    """The figure's SVG and whether it was drawn now, or (None, False) after a warning that says why not."""
    data = recorded_data(snippet, var, ref)
    if data is None:
        return None, False
    try:
        return cached_svg(kind, data, _state.lang, cache_root)
    except drawings.FigureDataError as error:
        log.warning(f"figure {ref}: its {kind} data cannot be drawn: {error}")
    except Exception as error:  # a drawing's own bug: one line, not a traceback
        log.warning(f"figure {ref}: drawing its {kind} data failed: {type(error).__name__}: {error}")
    return None, False


def declared(root: Path) -> dict[str, tuple[Snippet, str, str]]:
    """Every declared figure ("slug/name.py#var"): its snippet, variable and kind."""
    try:
        snippets = discover(root)
    except SnippetHeaderError as error:
        raise PluginError(str(error)) from None
    return {f"{s.rel}#{var}": (s, var, kind) for s in snippets for var, kind in s.figures}


def recorded_data(snippet: Snippet, var: str, ref: str) -> object | None:
    """The figure's data as its recording wrote it, or None after a warning that says why not."""
    path, fix = snippet.figure_path(var), f"`make record SNIPPETS={snippet.rel}`"
    if not path.exists():
        log.warning(f"figure {ref}: no recorded data {shown(path)}; run {fix}")
        return None
    text = path.read_text(encoding="utf-8")
    rec = recording.read(snippet)
    written = ((rec.data.get("figures") or {}).get(var) or {}).get("sha256") if rec else None
    if written != recording.text_sha256(text):
        log.warning(f"figure {ref}: {shown(path)} is not the data its recording wrote (hash differs from "
                    f"{snippet.record_path.name}); figures are drawn only from recorded runs: run {fix}")
        return None
    return json.loads(text)


def cache_path(kind: str, data: object, lang: str, cache_root: Path) -> Path:
    """Where a figure's SVG is cached: named by a hash of what it is drawn from."""
    source = json.dumps(data, sort_keys=True, ensure_ascii=False)
    key = hashlib.sha256("\0".join([kind, lang, source, drawings.code_hash()]).encode()).hexdigest()[:24]
    return cache_root / f"{key}.svg"


def cached_svg(kind: str, data: object, lang: str, cache_root: Path) -> tuple[Path, bool]:
    """The SVG of a figure from the cache, drawing it first if missing; (path, drawn?)."""
    svg = cache_path(kind, data, lang, cache_root)
    if svg.exists():
        return svg, False
    write_atomically(svg, drawings.render(kind, data, lang))  # concurrent builds may share the cache
    return svg, True


def site_uri(ref: str, lang: str, svg: Path) -> str:
    """`assets/figures/profiling/schedule.trace.en.<hash>.svg`: the content hash lets browsers cache
    figures forever and still see a changed one at once."""
    path, _, var = ref.partition("#")
    digest = hashlib.sha256(svg.read_bytes()).hexdigest()[:10]
    return f"{SITE_DIR}/{path.removesuffix('.py')}.{var}.{lang}.{digest}.svg"


def svg_size(svg: Path) -> tuple[int, int]:
    """The figure's size in CSS pixels (matplotlib writes points), for the image's width and height:
    the page keeps its layout while the image loads."""
    match = _SIZE_RE.search(svg.read_text(encoding="utf-8")[:2000])
    if match is None:
        return 0, 0
    return round(float(match["w"]) * 4 / 3), round(float(match["h"]) * 4 / 3)


def _figure(match: re.Match[str], page: Page) -> str:
    ref, where = html.unescape(match["ref"]), page.file.src_uri
    attrs = {m["name"]: html.unescape(m["value"]).strip() for m in _ATTR_RE.finditer(match["img"])}
    if ref in _state.failed:
        return match[0]
    if ref not in _state.figures:
        log.warning(f"{where}: ![...](figure:{ref}) asks for a figure no snippet declares; {_declare_hint(ref)}")
        return match[0]
    problems = [f"figure:{ref} has no {what}; write {how}" for what, key, how in (
        ("alt text", "alt", f'![alt text](figure:{ref} "caption")'),
        ("caption", "title", f'![alt text](figure:{ref} "what to notice")')) if not attrs.get(key)]
    snippet = ref.split("#")[0]
    if all(d.snippet != snippet for d in example_directives((page.markdown or "").split("\n"))):
        problems.append(f"figure:{ref} is on a page that does not show its snippet; add ::: example {snippet}")
    for problem in problems:
        log.warning(f"{where}: {problem}")
    _state.used.add(ref)
    alt, caption = html.escape(attrs.get("alt", "")), html.escape(attrs.get("title", ""))
    drawn = _state.figures[ref]
    if drawn is None:
        words = strings(_state.lang)
        body = (f'<div class="figure-missing"><strong>{words["not_recorded"]}</strong> '
                f'{words["figure_not_recorded"]}</div>')
    else:
        url = html.escape(drawn.file.url_relative_to(page.file))
        size = f' width="{drawn.width}" height="{drawn.height}"' if drawn.width else ""
        body = (f'<a class="figure" href="{url}" title="{strings(_state.lang)["open_figure"]}">'
                f'<img loading="lazy" decoding="async" alt="{alt}" src="{url}"{size}></a>')
    return f'<figure class="figure">{body}<figcaption>{caption}</figcaption></figure>'


def _declare_hint(ref: str) -> str:
    path, _, var = ref.partition("#")
    if not var:
        return f"write it as figure:{path}#<variable>"
    if not (_state.root / path).is_file():
        return f"there is no snippet {shown(_state.root / path)}"
    return f"declare it with '# figure: {var}=<kind>' at the top of {shown(_state.root / path)}"


def shown(path: Path) -> str:
    """A path as the person running the build would type it."""
    return os.path.relpath(path) if path.resolve().is_relative_to(Path.cwd()) else str(path)
