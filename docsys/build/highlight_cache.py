"""Highlighted code blocks from the previous build, so that a warm build does not run Pygments again.

Pygments is the largest part of a warm build: about 800 code blocks (snippets and their outputs, in
both languages) take ~2.5 s of a ~4.7 s build. pymdownx.highlight's `Highlight.highlight` is a pure
function of its arguments (the code, its language, line numbers, the block's count on the page …)
and of the extension's options; its result is kept in `.cache/highlight.json`, keyed by a hash of
all of these and of the Pygments and pymdownx versions. Only the blocks of the last two configured
builds are kept — mkdocs-static-i18n configures one per language, so that is the last whole build —
and the file does not grow, under `mkdocs serve` too, where one process builds again after every edit.
It is replaced atomically.
"""

from __future__ import annotations

import hashlib
import json
from importlib.metadata import version
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from pymdownx import highlight

from docsys.build.config import project_dir
from docsys.build.files import write_atomically

CACHE_FILE = Path(".cache") / "highlight.json"  # relative to mkdocs.yml's folder
VERSIONS = (version("pygments"), version("pymdown-extensions"), "1")  # bump the last to invalidate
_UNSTABLE = {"md"}  # the Markdown instance: an object address, and no option of the highlighter

_original = highlight.Highlight.highlight
_previous: dict[str, str] = {}
_current: dict[str, str] = {}
_used: dict[str, int] = {}  # key -> the configured build (on_config's count) that last used it
_build = 0
_path: Path | None = None


def _key(highlighter: highlight.Highlight, args: tuple, kwargs: dict) -> str:
    options = sorted((name, repr(value)) for name, value in vars(highlighter).items() if name not in _UNSTABLE)
    raw = repr((VERSIONS, options, args, sorted(kwargs.items())))
    return hashlib.sha256(raw.encode()).hexdigest()


def _cached_highlight(self, *args, **kwargs):
    key = _key(self, args, kwargs)
    html = _previous.get(key)
    if html is None:
        html = _original(self, *args, **kwargs)
        if not isinstance(html, str):  # inline code comes back as an element: not worth keeping
            return html
    _current[key], _used[key] = html, _build
    return html


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _path, _build
    _path = project_dir(config) / CACHE_FILE
    _build += 1
    for key in [key for key, build in _used.items() if build < _build - 1]:  # used by neither language's build
        del _current[key], _used[key]
    if not _previous and _path.exists():
        try:
            _previous.update(json.loads(_path.read_text(encoding="utf-8")))
        except (ValueError, TypeError):
            _path.unlink()  # a damaged cache is rebuilt, never trusted
    highlight.Highlight.highlight = _cached_highlight
    return config


def on_post_build(config: MkDocsConfig) -> None:
    if _path is None or not _current:
        return
    write_atomically(_path, json.dumps(_current, ensure_ascii=False))
