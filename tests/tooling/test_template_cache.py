"""docsys/build/template_cache.py: compiled templates are kept beside mkdocs.yml and reused."""

from __future__ import annotations

from types import SimpleNamespace

from jinja2 import DictLoader, Environment

from docsys.build import template_cache


def _render(tmp_path, source: str) -> str:
    env = Environment(loader=DictLoader({"page.html": source}), autoescape=True)
    config = SimpleNamespace(config_file_path=str(tmp_path / "mkdocs.yml"))
    env = template_cache.on_env(env, config, files=None)
    return env.get_template("page.html").render(title="autograd")


def test_a_second_build_loads_the_compiled_template_and_an_edit_compiles_again(tmp_path):
    assert _render(tmp_path, "<h1>{{ title }}</h1>") == "<h1>autograd</h1>"
    cached = list((tmp_path / template_cache.CACHE_DIR).iterdir())
    assert len(cached) == 1
    assert _render(tmp_path, "<h1>{{ title }}</h1>") == "<h1>autograd</h1>"
    assert _render(tmp_path, "<h2>{{ title }}</h2>") == "<h2>autograd</h2>"  # the source changed
