"""mkdocs-jupyter's notebook converter, imported when a notebook is converted, not at every build.

mkdocs-jupyter's plugin module imports its converter (`mkdocs_jupyter.convert`, which imports
nbconvert: 0.3-0.4 s, an eighth of a warm build here) when MkDocs loads the plugin, but calls it only
when a notebook's render is not in its cache; a warm build never does. This module makes that import
lazy with the standard library's importlib.util.LazyLoader: the module object exists at once, and
its code runs at the first attribute used (`convert.nb2html` on a cache miss).

It has to run before MkDocs loads the plugin, and MkDocs loads Markdown extensions first (they come
before `plugins` in its configuration schema): so mkdocs.yml lists this module as the first Markdown
extension. The extension itself changes nothing in the Markdown.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from markdown.extensions import Extension

CONVERTER = "mkdocs_jupyter.convert"


def defer(name: str) -> ModuleType | None:
    """Put a lazy module for `name` (a submodule) in sys.modules and on its package; None when it
    is already imported or not installed."""
    if name in sys.modules:
        return None
    try:
        spec = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        return None
    if spec is None or spec.loader is None:
        return None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    package, _, attribute = name.rpartition(".")
    # `from . import convert` reads the package's attribute; without it, the import machinery would
    # look at the module's __spec__ and so load it at once.
    setattr(sys.modules[package], attribute, module)
    return module


defer(CONVERTER)


class DeferredConverterExtension(Extension):
    """Nothing to do in Markdown (see the module docstring)."""

    def extendMarkdown(self, md) -> None:
        pass


def makeExtension(**kwargs) -> DeferredConverterExtension:
    return DeferredConverterExtension(**kwargs)
