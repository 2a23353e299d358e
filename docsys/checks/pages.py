"""Pages as the tests read them: their `::: example` directives (docsys.core.text.example_directives)
and, for the blocks typed into a page, the page with its `--8<--` includes expanded by
pymdownx.snippets, configured as the site's examples extension is in mkdocs.yml. The tests never
render a page with the build's extension: an example's test is its snippet (docsys.checks.collect).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import markdown
from mkdocs.utils import yaml_load

from docsys.core.paths import DOCS_DIR, MKDOCS_YML
from docsys.core.text import example_directives

EXTENSION = "docsys.build.examples"  # a subclass of pymdownx.snippets, configured with its options
SNIPPETS_OPTIONS = ("base_path", "check_paths", "restrict_base_path", "encoding", "url_download")


@functools.cache
def extension_config(config_file: Path = MKDOCS_YML) -> dict:
    """The examples extension's options in mkdocs.yml, base paths made absolute."""
    with config_file.open(encoding="utf-8") as f:
        config = yaml_load(f)
    for ext in config["markdown_extensions"]:
        if isinstance(ext, dict) and EXTENSION in ext:
            options = dict(ext[EXTENSION])
            options["base_path"] = [str(config_file.parent / p) for p in options.get("base_path", ["."])]
            return options
    raise RuntimeError(f"{config_file.name} does not configure {EXTENSION}")


def expand(text: str, config_file: Path = MKDOCS_YML) -> str:
    """The page's Markdown with its `--8<--` includes expanded (a block's expected output may be one);
    `::: example` lines are left as they are."""
    options = {k: v for k, v in extension_config(config_file).items() if k in SNIPPETS_OPTIONS}
    md = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options})
    return "\n".join(md.preprocessors["snippet"].run(text.split("\n")))


def examples(text: str) -> list[str]:
    """The example targets a page names, in order (`autograd/backward.py`, `ddp/train.py:setup`)."""
    return [d.target for d in example_directives(text.split("\n"))]


def rel_page(path: Path, docs_dir: Path = DOCS_DIR) -> str:
    """`en/autograd.md` for a page under docs/, the file name for anything else."""
    return path.relative_to(docs_dir).as_posix() if path.is_relative_to(docs_dir) else path.name


def shown_snippets(pages: list[Path]) -> set[str]:
    """Snippet paths that some page names in an example."""
    return {t.split(":", 1)[0] for page in pages for t in examples(page.read_text(encoding="utf-8"))}



_SKIP_MARK_RE = re.compile(r"^<!--\s*pytest\.mark\.(skip|skipif|xfail)\b(?P<args>.*)-->\s*$")


def unrun_python_fences(text: str, label: str, config_file: Path = MKDOCS_YML) -> list[str]:
    """Python fences on a page that the test collector would not run, and skips without a reason.

    pytest-codeblocks collects only fences whose info string is exactly `python` (`py`, `~~~` or
    `python title="x"` would hide a block silently); a block it collects runs unless a skip mark with
    a reason='...' precedes it.
    """
    from docsys.core.text import PYTHON_LANGS, fences

    lines = expand(text, config_file=config_file).split("\n")
    problems = []
    for fence in fences(lines):
        if fence.lang not in PYTHON_LANGS:
            continue
        before = next((line.strip() for line in reversed(lines[: fence.start]) if line.strip()), "")
        where = f"{label}: the Python block starting `{(fence.body or [''])[0][:40]}`"
        if fence.marker.startswith("~"):
            problems.append(f"{where} is a ~~~ fence, invisible to pytest-codeblocks; use ```python")
        elif fence.info != "python":
            problems.append(f"{where} is fenced as '{fence.info}', which is not run; fence it as ```python")
        elif (skip := _SKIP_MARK_RE.match(before)) and not re.search(r"reason\s*=\s*['\"][^'\"]+['\"]", skip["args"]):
            problems.append(f"{where} is skipped without a reason='...' saying why it is not run")
    return problems
