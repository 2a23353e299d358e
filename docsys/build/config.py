"""What the hooks and extensions read from MkDocs: folders, the language being built, the page being converted."""

from __future__ import annotations

from pathlib import Path

from markdown import Markdown
from mkdocs.config.defaults import MkDocsConfig

EXTENSION = "docsys.build.examples"
_command = "build"  # set by the serve hook (docsys/build/serve.py) at startup


def project_dir(config: MkDocsConfig) -> Path:
    """The folder of mkdocs.yml: where caches and sources live beside it."""
    return Path(config.config_file_path).resolve().parent


def snippets_dir(config: MkDocsConfig) -> Path:
    """The first base_path of the examples extension (pymdownx.snippets' option), from mkdocs.yml's folder."""
    base = config.mdx_configs.get(EXTENSION, {}).get("base_path", ["snippets"])
    first = base[0] if isinstance(base, list | tuple) else base
    return (project_dir(config) / first).resolve()


def language(config: MkDocsConfig) -> str:
    """The language this build renders (mkdocs-static-i18n builds one language at a time)."""
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or config.theme.get("language") or "en"


def page_of(md: Markdown) -> str:
    """The page being converted, as MkDocs names it (its relative-path treeprocessor knows)."""
    try:  # a Python-Markdown Registry has no .get()
        processor = md.treeprocessors["relpath"]
    except KeyError:
        return "a page"
    file = getattr(processor, "file", None)
    return getattr(file, "src_uri", "a page")


def note_command(command: str) -> None:
    global _command
    _command = command


def serving() -> bool:
    """True in a `mkdocs serve` process: a stale recording is shown with a notice (docsys/build/serve.py)."""
    return _command == "serve"
