"""Compiled theme templates from the previous build: Jinja compiles Material's ~77 templates on every
build (and once more for the second language), ~0.5 s of a warm build. Jinja's own bytecode cache
keeps the compiled code in `.cache/jinja/`, checked against each template's source, so an edited
template is compiled again."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache
from mkdocs.config.defaults import MkDocsConfig

from docsys.build.config import project_dir

CACHE_DIR = Path(".cache") / "jinja"  # relative to mkdocs.yml's folder


def on_env(env: Environment, config: MkDocsConfig, files) -> Environment:
    folder = project_dir(config) / CACHE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = FileSystemBytecodeCache(str(folder))
    return env
