"""docsys/build/deferred_converter.py: mkdocs-jupyter's plugin loads without nbconvert, and its
converter still works when a notebook is converted. Each case in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys

LOAD_PLUGIN = "import mkdocs_jupyter.plugin, sys; print('nbconvert' in sys.modules)"


def _python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_the_plugin_loads_without_nbconvert_after_the_extension():
    assert _python(f"import docsys.build.deferred_converter; {LOAD_PLUGIN}") == "False"


def test_without_the_extension_the_plugin_loads_nbconvert():
    """What the extension is for (if mkdocs-jupyter stops importing nbconvert eagerly, this fails:
    remove the extension then)."""
    assert _python(LOAD_PLUGIN) == "True"


def test_the_converter_loads_at_its_first_use():
    code = ("import docsys.build.deferred_converter, mkdocs_jupyter.plugin as p, sys; "
            "print(callable(p.convert.nb2html), 'nbconvert' in sys.modules)")
    assert _python(code) == "True True"


def test_an_uninstalled_module_is_left_alone():
    code = "from docsys.build.deferred_converter import defer; print(defer('no_such_package.module'))"
    assert _python(code) == "None"
