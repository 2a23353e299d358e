"""Pages as the tests read them: expanded by the site's own Markdown extension, configured from mkdocs.yml.

`expand(text, mode="test")` turns each `::: example` into the code a reader sees (included by
pymdownx.snippets) marked for the collector, followed by its recorded output under
pytest-codeblocks' expected-output comment; `mode="site"` gives what the build renders.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import markdown
from mkdocs.utils import yaml_load

from docsys.core.paths import DOCS_DIR, MKDOCS_YML
from docsys.core.text import inside_fences

EXTENSION = "docsys.build.examples"
DIRECTIVE_RE = re.compile(r'^[ \t]*:::[ \t]+example[ \t]+(?P<target>[^\s"]+)')


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


def expand(text: str, mode: str = "test", lang: str = "en", config_file: Path = MKDOCS_YML) -> str:
    """The page's Markdown with every example (and `--8<--` include) expanded, as `mode` renders it."""
    options = {**extension_config(config_file), "mode": mode, "lang": lang}
    md = markdown.Markdown(extensions=[EXTENSION], extension_configs={EXTENSION: options})
    lines = text.split("\n")
    for name in ("example", "snippet"):
        lines = md.preprocessors[name].run(lines)
    return "\n".join(lines)


def examples(text: str) -> list[str]:
    """The example targets a page names, in order (`autograd/backward.py`, `ddp/train.py:setup`)."""
    lines = text.split("\n")
    fenced = inside_fences(lines)
    return [m["target"] for i, line in enumerate(lines) if i not in fenced and (m := DIRECTIVE_RE.match(line))]


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

    lines = expand(text, mode="test", config_file=config_file).split("\n")
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
