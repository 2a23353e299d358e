"""The symbol map (docsys.core.api_links), the extension that links API names (docsys.build.api_links) and
the check of the "Official documentation" lists against the map (docsys.checks.api_docs), on small maps."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

from docsys.checks import api_docs
from docsys.core import api_links

ROOT = Path(__file__).parents[2]
DOCS = "https://docs.pytorch.org/docs/stable/"
EVAL_ALIASES = 'aliases = ["Module.eval"]'  # an inline table is one line in TOML
MAP = f"""
[symbols]
"torch.compile" = "{DOCS}generated/torch.compile.html"
"torch.Tensor.detach" = {{ url = "{DOCS}generated/torch.Tensor.detach.html", aliases = ["Tensor.detach"] }}
"torch.nn.Module.eval" = {{ url = "{DOCS}generated/torch.nn.Module.html#torch.nn.Module.eval", {EVAL_ALIASES} }}
"torch.autograd" = "{DOCS}autograd.html"
"""


def write_map(folder: Path, text: str = MAP) -> Path:
    path = folder / "api_links.toml"
    path.write_text(text, encoding="utf-8")
    return path


def warm_cache(api_map: api_links.ApiMap, cache: Path, lines: list[str]) -> None:
    """A cache as a previous build left it for this torch and this map."""
    key = f"{api_links.torch_version()} {api_map.digest}"
    cache.write_text(json.dumps({"key": key, "unresolved": lines}), encoding="utf-8")


def test_a_mapped_symbol_that_torch_does_not_have_is_one_line_naming_it_and_the_map(tmp_path):
    path = write_map(
        tmp_path,
        MAP + f'"torch.nn.Module.register_forwrd_hook" = "{DOCS}generated/torch.nn.Module.html'
        '#torch.nn.Module.register_forwrd_hook"\n',
    )
    lines = api_links.unresolved(api_links.load(path))
    assert lines == [
        f"api_links.toml: torch.nn.Module.register_forwrd_hook does not resolve in torch "
        f"{api_links.torch_version()} (torch.nn.Module has no attribute 'register_forwrd_hook'): "
        "rename or remove it"
    ]


def test_a_module_that_torch_does_not_have_does_not_resolve(tmp_path):
    path = write_map(tmp_path, MAP + f'"torch.distributed.fsdp2" = "{DOCS}distributed.fsdp2.html"\n')
    (line,) = api_links.unresolved(api_links.load(path))
    assert "torch.distributed.fsdp2 does not resolve" in line and "torch.distributed has no attribute 'fsdp2'" in line


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://docs.pytorch.org/docs/stable/generated/torch.where.html", "not https://docs.pytorch.org/docs/stable/"),
        ("https://pytorch.org/docs/stable/generated/torch.where.html", "not https://docs.pytorch.org/docs/stable/"),
        (f"{DOCS}generated/torch.where", "does not end in .html"),
        (f"{DOCS}generated/torch.cat.html", "a generated page is generated/torch.where.html"),
        (f"{DOCS}torch.html#torch.cat", "its fragment #torch.cat names another symbol"),
    ],
)
def test_a_malformed_url_fails_loading_with_one_line(tmp_path, url, says):
    path = write_map(tmp_path, MAP + f'"torch.where" = "{url}"\n')
    with pytest.raises(api_links.ApiMapError) as error:
        api_links.load(path)
    message = str(error.value)
    assert message.startswith(f'api_links.toml: "torch.where" = "{url}": ') and says in message and "\n" not in message


def test_the_generated_page_forms_the_map_holds_are_accepted():
    assert api_links.url_problem("torch.cuda.Stream", f"{DOCS}generated/torch.cuda.Stream_class.html") is None
    assert (
        api_links.url_problem("torch.nn.Module.eval", f"{DOCS}generated/torch.nn.Module.html#torch.nn.Module.eval")
        is None
    )
    assert api_links.url_problem("torch.autograd.Function", f"{DOCS}autograd.html#function") is None


def test_an_alias_names_one_symbol(tmp_path):
    twice = (
        MAP + f'"torch.cuda.Event" = {{ url = "{DOCS}generated/torch.cuda.Event.html", aliases = ["Tensor.detach"] }}\n'
    )
    with pytest.raises(api_links.ApiMapError, match=r"alias .Tensor\.detach. must be a dotted name ending as it ends"):
        api_links.load(write_map(tmp_path, twice))
    other = MAP.replace(EVAL_ALIASES, 'aliases = ["Module.eval", "Tensor.detach"]')
    with pytest.raises(api_links.ApiMapError, match=r"alias .Tensor\.detach. must be"):
        api_links.load(write_map(tmp_path, other))
    both = (
        MAP
        + f'"torch.cuda.detach" = {{ url = "{DOCS}generated/torch.cuda.detach.html", aliases = ["Tensor.detach"] }}\n'
    )
    with pytest.raises(
        api_links.ApiMapError, match=r"alias .Tensor\.detach. names both torch\.Tensor\.detach and torch\.cuda"
    ):
        api_links.load(write_map(tmp_path, both))


def test_the_cache_answers_for_this_torch_and_this_map_only(tmp_path):
    path, cache = write_map(tmp_path), tmp_path / "cache.json"
    api_map = api_links.load(path)
    warm_cache(api_map, cache, ["planted"])
    assert api_links.unresolved_cached(api_map, cache) == ["planted"]  # the cache, not torch, answered
    changed = api_links.load(write_map(tmp_path, MAP + "# an edit\n"))
    assert api_links.unresolved_cached(changed, cache) == []  # another map: resolved again
    assert json.loads(cache.read_text())["key"].endswith(changed.digest)


def test_a_warm_run_imports_no_torch(tmp_path):
    """In a fresh interpreter: the extension converts a page with the cache warm, and torch stays unimported."""
    path, cache = write_map(tmp_path), tmp_path / "cache.json"
    warm_cache(api_links.load(path), cache, [])
    program = (
        "import sys, markdown\n"
        f"md = markdown.Markdown(extensions=['docsys.build.api_links'], extension_configs={{'docsys.build.api_links': "
        f"{{'map_file': {str(path)!r}, 'cache_file': {str(cache)!r}}}}})\n"
        "html = md.convert('Call `torch.compile`.')\n"
        "print('torch' in sys.modules, 'generated/torch.compile.html' in html)\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.split() == ["False", "True"], result.stderr


def convert(tmp_path: Path, text: str) -> str:
    path, cache = write_map(tmp_path), tmp_path / "cache.json"
    warm_cache(api_links.load(path), cache, [])
    configs = {"docsys.build.api_links": {"map_file": str(path), "cache_file": str(cache)}}
    md = markdown.Markdown(
        extensions=["pymdownx.inlinehilite", "pymdownx.superfences", "toc", "docsys.build.api_links"],
        extension_configs=configs,
    )
    return md.convert(text)


def test_prose_names_are_linked_once_per_section_and_code_links_and_headings_are_left_alone(tmp_path):
    html = convert(
        tmp_path,
        "\n\n".join(
            [
                "## Compile `torch.compile`",
                "Use `torch.compile()` twice: `torch.compile`, and `Tensor.detach` or `Module.eval`.",
                "```python\ntorch.compile(model)\n```",
                "[`torch.Tensor.detach`](https://example.org/detach.html) and `torch.where` (unmapped).",
                "## Again { #again }",
                "- `torch.compile` in a list; `torch.autograd` the module.",
            ]
        ),
    )
    compile_link = f'<a href="{DOCS}generated/torch.compile.html"><code>torch.compile()</code></a>'
    assert compile_link in html
    assert html.count(f'href="{DOCS}generated/torch.compile.html"') == 2  # once per section, not in the heading
    assert '<h2 id="compile-torchcompile">Compile <code>torch.compile</code></h2>' in html
    assert f'<a href="{DOCS}generated/torch.Tensor.detach.html" title="torch.Tensor.detach"><code>Tensor.detach' in html
    assert 'title="torch.nn.Module.eval"><code>Module.eval</code></a>' in html
    assert '<a href="https://example.org/detach.html"><code>torch.Tensor.detach</code></a>' in html  # its own link kept
    assert "<code>torch.where</code> (unmapped)" in html
    assert f'<a href="{DOCS}autograd.html"><code>torch.autograd</code></a> the module' in html
    assert "docs.pytorch.org" not in html.split("<pre")[1].split("</pre>")[0]


def test_a_problem_with_the_map_is_a_warning_of_the_build(tmp_path, caplog):
    from docsys.build import api_links as extension

    path, cache = write_map(tmp_path), tmp_path / "cache.json"
    warm_cache(api_links.load(path), cache, ["api_links.toml: torch.gone does not resolve in torch 2.13.0"])
    assert extension.checked_map(path, cache)  # the names still link
    assert [r.getMessage() for r in caplog.records] == ["api_links.toml: torch.gone does not resolve in torch 2.13.0"]
    (tmp_path / "bad").mkdir()
    bad = write_map(tmp_path / "bad", MAP + '"torch.x" = 1\n')
    assert extension.checked_map(bad, cache) == {}
    assert 'api_links.toml: "torch.x" must be a URL' in caplog.records[-1].getMessage()


def page(folder: Path, body: str) -> Path:
    path = folder / "page.md"
    path.write_text(
        f"# Page {{ #page }}\n\nText.\n\n## Official documentation {{ #api-docs }}\n\n{body}\n", encoding="utf-8"
    )
    return path


def test_an_official_documentation_link_that_disagrees_with_the_map_is_one_line(tmp_path):
    api_map = api_links.load(write_map(tmp_path))
    agreeing = page(
        tmp_path,
        f"- [`torch.compile`]({DOCS}generated/torch.compile.html), "
        f"[`Module.eval`]({DOCS}generated/torch.nn.Module.html#torch.nn.Module.eval), "
        f"[`torch.autograd`]({DOCS}autograd.html), [Autograd notes]({DOCS}notes/autograd.html)",
    )
    assert api_docs.official_docs_problems(agreeing, api_map) == []
    old_host = page(tmp_path, "- [`torch.compile`](https://pytorch.org/docs/stable/generated/torch.compile.html)")
    assert api_docs.official_docs_problems(old_host, api_map) == [
        "page.md (Official documentation): links torch.compile to https://pytorch.org/docs/stable/generated/"
        f"torch.compile.html, but api_links.toml has {DOCS}generated/torch.compile.html: link the map's URL"
    ]


def test_an_official_documentation_symbol_missing_from_the_map_is_one_line(tmp_path):
    api_map = api_links.load(write_map(tmp_path))
    unmapped = page(tmp_path, f"- [`where`]({DOCS}generated/torch.where.html) (`torch.cat`)")
    assert api_docs.official_docs_problems(unmapped, api_map) == [
        f"page.md (Official documentation): links torch.where ({DOCS}generated/torch.where.html), which "
        "api_links.toml does not map: add it there",
        "page.md (Official documentation): names torch.cat, which api_links.toml does not map: add it there",
    ]
    crossed = page(tmp_path, f"- [`Tensor.detach`]({DOCS}generated/torch.compile.html)")
    (line,) = api_docs.official_docs_problems(crossed, api_map)
    assert "names torch.Tensor.detach but links" in line


def test_a_map_url_no_page_links_must_follow_the_generated_page_pattern(tmp_path):
    (tmp_path / "en").mkdir(), (tmp_path / "zh").mkdir()
    (tmp_path / "en" / "a.md").write_text(f"[x]({DOCS}autograd.html)\n", encoding="utf-8")
    api_map = api_links.load(write_map(tmp_path))
    assert api_docs.unsourced_urls(api_map, tmp_path) == []  # two generated pages, a class method, a linked page
    made_up = api_links.load(
        write_map(tmp_path, MAP + f'"torch.distributed.barrier" = "{DOCS}distributed.html#torch.distributed.barrier"\n')
    )
    (line,) = api_docs.unsourced_urls(made_up, tmp_path)
    assert line.startswith("api_links.toml: torch.distributed.barrier = ") and "is linked by no page" in line
    generated_elsewhere = api_links.load(
        write_map(tmp_path, MAP + f'"torch.distributed.barrier" = "{DOCS}generated/torch.distributed.barrier.html"\n')
    )
    assert len(api_docs.unsourced_urls(generated_elsewhere, tmp_path)) == 1  # not a namespace with generated pages
