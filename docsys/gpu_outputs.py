"""Build hook: beside every GPU output on a page, where it was recorded — or, until a GPU
has recorded it, a plain "not yet recorded on a GPU" in place of the output.

Registered in mkdocs.yml `hooks:`. Pages need no markup of their own: they include a
`cuda` snippet's output like any other (`--8<-- "<slug>/<name>.out"` inside a fence), and
this hook looks at the snippet's recording (docsys.gpu):

- recorded: the output stays, and an admonition under it says where it was recorded —
  "Recorded on NVIDIA H200 (driver …), torch …, CUDA …, 2026-…" (in the page's language);
- not yet recorded (empty `.out`, no `.gpu.json`): the empty output block is replaced by an
  admonition saying so;
- stale (the snippet changed after its recording): a build warning, so the strict build
  fails (tests/test_gpu.py names the fix first).
"""

from __future__ import annotations

import logging
from pathlib import Path

from docsys.gpu import NOT_RECORDED, STALE, TEXT, is_gpu_snippet, provenance_line, read_provenance, state
from docsys.pages import INCLUDE_RE, fences
from docsys.paths import DEFAULT_LANG, SNIPPETS_DIR, page_lang
from docsys.snippets import load

log = logging.getLogger("mkdocs.hooks.gpu_outputs")


def _admonition(indent: str, kind: str, title: str, body: str | None = None) -> list[str]:
    title = title.replace('"', "'")
    lines = ["", f'{indent}!!! {kind} "{title}"']
    if body:
        lines += ["", f"{indent}    {body}"]
    return [*lines, ""]


def annotate(markdown: str, lang: str, snippets_dir: Path = SNIPPETS_DIR) -> tuple[str, list[str]]:
    """The page's Markdown with GPU outputs annotated, and the problems found (one line each)."""
    lines = markdown.split("\n")
    text = TEXT.get(lang, TEXT[DEFAULT_LANG])
    edits: list[tuple[int, int, list[str]]] = []  # replace lines[start:end] with new lines
    problems = []
    for fence in fences(lines):
        targets = [m["target"] for line in lines[fence.start + 1 : fence.end] if (m := INCLUDE_RE.match(line))]
        for target in targets:
            path = snippets_dir / target.split(":", 1)[0]
            source = path.with_suffix(".py")
            if path.suffix != ".out" or not source.exists():
                continue
            snippet = load(source)
            if not is_gpu_snippet(snippet):
                continue
            current = state(snippet)
            if current == STALE:
                problems.append(
                    f"{target}: {source.name} changed after its GPU recording; re-record it with `make gpu` on a "
                    f"GPU, or run `make record SNIPPETS={source.name}` to mark it not yet recorded"
                )
            if current in (NOT_RECORDED, STALE):
                box = _admonition(fence.indent, "warning", text["not_recorded"], text["not_recorded_body"])
                edits.append((fence.start, fence.end + 1, box))
            else:
                line = provenance_line(read_provenance(snippet), lang)
                edits.append(
                    (
                        fence.end + 1,
                        fence.end + 1,
                        _admonition(fence.indent, "info", text["recorded"].format(line=line)),
                    )
                )
            break
    for start, end, new in sorted(edits, reverse=True):
        lines[start:end] = new
    return "\n".join(lines), problems


def on_page_markdown(markdown, page, config, files, **kwargs):
    annotated, problems = annotate(markdown, page_lang(page.file.src_uri, config.theme.get("language", DEFAULT_LANG)))
    for problem in problems:
        log.warning("%s: %s", page.file.src_uri, problem)
    return annotated
