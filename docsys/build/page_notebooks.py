"""Every page as a notebook and every example as a file, made at build time from the page itself.

The examples extension (docsys.build.examples) puts a marker line before and after each `::: example`
it expands. `NotebookPreprocessor` runs after every preprocessor that writes Markdown (the snippets
included, the claims filled in), so it reads the page as its reader will: it takes the markers out
and keeps, per page, the prose as Markdown cells and the examples as code cells in page order, each
with the output its recording holds (the output block the page shows). A launched example becomes a
`%%writefile` cell and a `!torchrun …` cell, and so does one that changes what the whole process
does (`# notebook: own-process -- <why>`) or reads `__file__`, with `!python`; a GPU-only example
says so in its first line (and is tagged `needs-cuda`); a named section is an excerpt (a Markdown
cell), since the page runs its file whole. A Python block typed into the page is a code cell, a bash
block a `%%bash` cell, unless the page marks it not run.

As an MkDocs hook (mkdocs.yml `hooks:`) it finishes each notebook once the page is written
(`on_post_page`, when the graphs and figures are in the site): links to other pages become absolute
URLs of the site, graphs and figures become cell attachments (the notebook stands alone), and the
notebook is written beside the page as `<slug>.ipynb`, linked under the title. Each example's code
block title becomes a download of its file, written under `examples/` (shared by both languages).
A notebook is cached under `.cache/page-notebooks/` by what it is made of (the newest one per page);
a warm build does not import nbformat. Never committed: tests/content/test_page_notebooks.py checks
them in the built site.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import importlib
import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown import Markdown
from markdown.preprocessors import Preprocessor
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from docsys.build.config import page_of, project_dir, snippets_dir
from docsys.build.files import write_atomically
from docsys.build.strings import strings
from docsys.core import recording
from docsys.core.paths import DEFAULT_LANG, page_lang
from docsys.core.snippet import Snippet, load
from docsys.core.text import NEEDS_CUDA_TAG, PROFILER_LOG_RE, RUNNABLE_FENCES, SECTION_MARKER_RE

START = "<!-- notebook-example: {target} -->"
END = "<!-- /notebook-example -->"
START_RE = re.compile(r"^[ \t]*<!-- notebook-example: (?P<target>\S+) -->$")
END_RE = re.compile(r"^[ \t]*<!-- /notebook-example -->$")
CACHE_DIR = Path(".cache") / "page-notebooks"
EXAMPLES_DIR = "examples"
SKIP_RE = re.compile(r"^\s*<!--\s*pytest\.mark\.skip")  # a typed block the page marks not run
EXPECTED_RE = re.compile(r"^\s*<!--\s*pytest-codeblocks:\s*expected-output\s*-->")
_FENCE_RE = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>`{3,}|~{3,})(?P<info>.*)$")
_COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)
_ATTR_LIST_RE = re.compile(r"[ \t]*\{[ \t]*[#.:][^}\n]*\}[ \t]*$", re.MULTILINE)
_IMAGE_ATTRS_RE = re.compile(r"(!\[[^\]]*\]\([^)]*\))\{[^}\n]*\}")
_ADMONITION_RE = re.compile(r'^(?P<indent>[ \t]*)(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+"(?P<title>[^"]*)")?[ \t]*$')
_TAB_RE = re.compile(r'^(?P<indent>[ \t]*)===\+?[ \t]+"(?P<title>[^"]*)"[ \t]*$')
_LINK_RE = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?P<title>[ \t]+\"[^\"]*\")?\)")
_IMAGE_RE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>(?:graph|figure):[^)\s]+)(?:[ \t]+\"[^\"]*\")?\)")
_IMG_TAG_RE = re.compile(r'<img\b[^>]*>')
_FILENAME_RE = re.compile(r'<span class="filename">(?P<rel>[\w./-]+\.py)(?P<rest>[^<]*)</span>')

NOTEBOOKS: dict[str, PageNotebook] = {}  # src_uri -> the page's notebook, filled while pages are converted


@dataclass
class PageNotebook:
    """One page's cells before the site exists: Markdown with the page's own links and images."""

    lang: str
    cells: list[dict] = field(default_factory=list)
    snippets: list[Snippet] = field(default_factory=list)  # whole examples, for their downloads

    def markdown(self, lines: list[str]) -> None:
        text = _for_jupyter(lines)
        if text:
            self.cells.append({"cell_type": "markdown", "source": text})

    def code(self, source: str, output: str | None = None, tags: tuple[str, ...] = (), **about: str) -> None:
        """A code cell; `about` (the example it shows, and its part) goes into its metadata."""
        self.cells.append({"cell_type": "code", "source": source.rstrip("\n"), "output": output, "tags": list(tags),
                           "about": about})


@dataclass(frozen=True)
class Block:
    """A fenced block as the build wrote it (an output's title may hold backticks, which
    docsys.core.text's CommonMark-strict reading of an info string does not allow)."""

    start: int
    end: int
    info: str
    body: list[str]


def fenced_blocks(lines: list[str]) -> list[Block]:
    found, i = [], 0
    while i < len(lines):
        m = _FENCE_RE.match(lines[i])
        if not m:
            i += 1
            continue
        close = re.compile(rf"^[ \t]*{re.escape(m['marker'][0])}{{{len(m['marker'])},}}[ \t]*$")
        j = next((j for j in range(i + 1, len(lines)) if close.match(lines[j])), len(lines))
        indent = m["indent"]
        body = [line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[i + 1 : j]]
        found.append(Block(i, j, m["info"].strip(), body))
        i = j + 1
    return found


def _for_jupyter(lines: list[str]) -> str:
    """The page's Markdown as Jupyter renders it: MkDocs' extensions (admonitions, tabs, attribute
    lists, evidence comments) turned into plain Markdown."""
    text = _COMMENT_RE.sub("", "\n".join(lines))
    out: list[str] = []
    quote: str | None = None  # indent of the admonition or tab being unwrapped
    for line in text.split("\n"):
        if quote is not None and line.strip() and not line.startswith(quote + "    "):
            quote = None
        if quote is not None:
            out.append("> " + line[len(quote) + 4 :] if line.strip() else ">")
            continue
        if m := _ADMONITION_RE.match(line) or _TAB_RE.match(line):
            quote = m["indent"]
            out.append(f"> **{m['title']}**" if m["title"] else ">")
            continue
        out.append(line)
    text = _IMAGE_ATTRS_RE.sub(r"\1", _ATTR_LIST_RE.sub("", "\n".join(out)))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


class NotebookPreprocessor(Preprocessor):
    """Collects the page's notebook and takes the example markers out of its Markdown."""

    def __init__(self, md: Markdown, root: Path) -> None:
        super().__init__(md)
        self.root = root

    def run(self, lines: list[str]) -> list[str]:
        src_uri = page_of(self.md)
        lang = page_lang(src_uri)
        notebook, prose, kept = PageNotebook(lang), [], []
        i, typed = 0, {f.start: f for f in fenced_blocks(lines)}
        while i < len(lines):
            if start := START_RE.match(lines[i]):
                end = next(j for j in range(i + 1, len(lines)) if END_RE.match(lines[j]))
                notebook.markdown(prose)
                prose = []
                self._example(notebook, start["target"], lines[i + 1 : end], lang)
                kept += lines[i + 1 : end]
                i = end + 1
                continue
            fence = typed.get(i)
            if fence and fence.info in RUNNABLE_FENCES and not (i and SKIP_RE.match(lines[i - 1])):
                notebook.markdown(prose)
                prose = []
                output, after = _expected_output(lines, fence.end + 1, typed)
                notebook.code(RUNNABLE_FENCES[fence.info] + "\n".join(fence.body), output, typed=fence.info)
                kept += lines[i:after]
                i = after
                continue
            prose.append(lines[i])
            kept.append(lines[i])
            i += 1
        notebook.markdown(prose)
        if any(cell["cell_type"] == "code" for cell in notebook.cells) and src_uri != "a page":
            NOTEBOOKS[src_uri] = notebook
            kept = _with_download_link(kept, Path(src_uri).stem, lang)
        return kept

    def _example(self, notebook: PageNotebook, target: str, block: list[str], lang: str) -> None:
        path, _, section = target.partition(":")
        snippet = load(self.root / path, self.root)
        found = fenced_blocks(block)
        code, output = found[0], next((f for f in found[1:] if f.info.startswith('text title="')), None)
        shown = "\n".join(code.body)
        rest = [line for n, line in enumerate(block) if not _in(n, [code, output])]
        s = strings(lang)
        if section:
            notebook.markdown([s["notebook_excerpt"].format(file=snippet.rel), "", "```python", shown, "```"])
            return
        notebook.snippets.append(snippet)
        printed = "\n".join(output.body) + "\n" if output else None
        if snippet.is_benchmark and (rec := recording.read(snippet)):
            # What the run printed, table included (the page renders it under the cell as well)
            printed = "".join(f"{line}\n" for line in rec.printed.splitlines() if not PROFILER_LOG_RE.match(line))
        first = f"# {s['notebook_needs_cuda']}\n" if snippet.platform == "cuda" else ""
        tags = (NEEDS_CUDA_TAG,) if snippet.platform == "cuda" else ()
        own_process = snippet.own_process or "__file__" in shown  # a kernel has no __file__
        if snippet.torchrun or own_process:
            name = snippet.path.name
            if own_process:
                first += f"# {s['notebook_own_process']}\n"
            notebook.code(f"%%writefile {name}\n{shown}", f"Writing {name}\n", tags, example=snippet.rel, part="file")
            notebook.code(f"{first}!{snippet.reader_command()}", printed, tags, example=snippet.rel, part="launch")
        else:
            notebook.code(first + shown, printed, tags, example=snippet.rel, part="code")
        notebook.markdown(rest)


def _in(n: int, found: list) -> bool:
    return any(f is not None and f.start <= n <= f.end for f in found)


def _expected_output(lines: list[str], after: int, typed: dict) -> tuple[str | None, int]:
    """The output block pytest-codeblocks compares a typed block with, if the page gives one; and
    the line after what was read."""
    j = after
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j < len(lines) and EXPECTED_RE.match(lines[j]) and (fence := typed.get(j + 1)):
        return "\n".join(fence.body) + "\n", fence.end + 1
    return None, after


def _with_download_link(lines: list[str], slug: str, lang: str) -> list[str]:
    """The notebook's link under the title, its "verified with" stamp and a translation notice (raw HTML lines)."""
    title = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
    if title is None:
        return lines
    at = title + 1  # after what the build put under the title: the "verified with" stamp, a translation notice
    while at < len(lines) and (not lines[at].strip() or lines[at].startswith("<")):
        at += 1
    text = html.escape(strings(lang)["download_notebook"])
    link = f'<p class="page-downloads"><a href="{slug}.ipynb" download>{text}</a></p>'
    return [*lines[:at], link, "", *lines[at:]]


def example_marked(target: str, lines: list[str]) -> list[str]:
    """An expanded `::: example`, between the markers NotebookPreprocessor reads."""
    indent = lines[0][: len(lines[0]) - len(lines[0].lstrip())] if lines else ""
    return [indent + START.format(target=target), *lines, indent + END, ""]


# --- the hook: finish each notebook once its page and the site's images exist ---------------------------


def _store() -> dict[str, PageNotebook]:
    """The notebooks the extension collected (this file is also loaded by path, as a hook)."""
    return importlib.import_module("docsys.build.page_notebooks").NOTEBOOKS


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    notebook = _store().pop(page.file.src_uri, None)
    if notebook is None:
        return output
    site_dir, page_dir = Path(config.site_dir), Path(config.site_dir) / page.url
    images = _images(output, page, site_dir)
    target = page_dir / f"{Path(page.file.src_uri).stem}.ipynb"
    name = page.file.src_uri.removesuffix(".md").replace("/", "-")
    cache = project_dir(config) / CACHE_DIR / f"{name}.{_key(notebook, page, config, images)}.ipynb"
    if not cache.is_file():
        write_atomically(cache, _validated(_notebook(notebook, page, config, images)))
        for older in cache.parent.glob(f"{name}.*.ipynb"):  # one per page: `mkdocs serve` rebuilds on every edit
            if older != cache:
                older.unlink(missing_ok=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(cache.read_bytes())  # not through a temporary file: a site's files stay world-readable
    return _example_downloads(output, page, config, notebook.snippets)


def _key(notebook: PageNotebook, page: Page, config: MkDocsConfig, images: dict[str, tuple[str, str]]) -> str:
    """What the notebook is made of, without making it: its cells, where the site is, its images (their
    file names hold their content's hash) and this module."""
    made_of = [notebook.cells, page.url, config.site_url, sorted((alt, n) for alt, (n, _) in images.items())]
    return hashlib.sha256(_module_digest().encode() + json.dumps(made_of).encode()).hexdigest()[:20]


@functools.cache
def _module_digest() -> str:
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


def _notebook(notebook: PageNotebook, page: Page, config: MkDocsConfig, images: dict[str, tuple[str, str]]) -> str:
    cells = [_cell(cell, number, page, config, images) for number, cell in enumerate(notebook.cells)]
    return json.dumps({
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "pytorch_proven": {"page": _absolute(config, page.url), "lang": notebook.lang},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }, ensure_ascii=False, indent=1) + "\n"


def _cell(cell: dict, number: int, page: Page, config: MkDocsConfig, images: dict[str, tuple[str, str]]) -> dict:
    if cell["cell_type"] == "markdown":
        attachments: dict = {}
        source = _linked(cell["source"], page, config)
        source = _IMAGE_RE.sub(lambda m: _attached(m, images, attachments), source)
        out = {"cell_type": "markdown", "id": f"cell-{number}", "metadata": {}, "source": source}
        return {**out, "attachments": attachments} if attachments else out
    outputs = [{"output_type": "stream", "name": "stdout", "text": cell["output"]}] if cell["output"] else []
    metadata = {**({"tags": cell["tags"]} if cell["tags"] else {}), "pytorch_proven": cell["about"]}
    return {"cell_type": "code", "id": f"cell-{number}", "metadata": metadata, "execution_count": None,
            "outputs": outputs, "source": cell["source"]}


def _linked(source: str, page: Page, config: MkDocsConfig) -> str:
    """Links to other pages of the site (`ddp.md#buckets`) as the site's absolute URLs."""

    def absolute(m: re.Match[str]) -> str:
        target = m["target"]
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            return m[0]
        path, _, fragment = target.partition("#")
        url = page.url if not path else _page_url(posixpath.normpath(posixpath.join(
            posixpath.dirname(page.file.src_uri), path)))
        return f"[{m['text']}]({_absolute(config, url)}{'#' + fragment if fragment else ''}{m['title'] or ''})"

    return _LINK_RE.sub(absolute, source)


def _page_url(src_uri: str) -> str:
    """`zh/ddp/` for `zh/ddp.md`, `ddp/` for `en/ddp.md` (the default language is served at the root)."""
    lang = page_lang(src_uri, fallback="")
    rest = src_uri[len(lang) + 1 :] if lang else src_uri
    stem = rest.removesuffix(".md")
    url = "" if stem in ("index", "") else stem.removesuffix("/index") + "/"
    return url if lang in ("", DEFAULT_LANG) else f"{lang}/{url}"


def _absolute(config: MkDocsConfig, url: str) -> str:
    return (config.site_url or "/").rstrip("/") + "/" + url


def _images(output: str, page: Page, site_dir: Path) -> dict[str, tuple[str, str]]:
    """alt text -> (attachment name, SVG file) for the graphs and figures the built page shows."""
    found = {}
    for tag in _IMG_TAG_RE.findall(output):
        src, alt = re.search(r'\bsrc="([^"]+)"', tag), re.search(r'\balt="([^"]*)"', tag)
        if not src or not alt or not src[1].endswith(".svg"):
            continue
        path = (site_dir / page.url / html.unescape(src[1])).resolve()
        if path.is_file():
            found[html.unescape(alt[1])] = (path.name, str(path))
    return found


def _attached(m: re.Match[str], images: dict[str, tuple[str, str]], attachments: dict) -> str:
    image = images.get(m["alt"])
    if image is None:
        return m["alt"]
    name, path = image
    attachments[name] = {"image/svg+xml": base64.b64encode(Path(path).read_bytes()).decode()}
    return f"![{m['alt']}](attachment:{name})"


def _validated(text: str) -> str:
    """The notebook, checked against nbformat's schema (only when it is not cached yet)."""
    import nbformat

    nbformat.validate(nbformat.reads(text, as_version=4))
    return text


def shown_code(snippet: Snippet) -> str:
    """A whole example's code as its page shows it: no machinery header, no section markers."""
    lines = snippet.path.read_text(encoding="utf-8").split("\n")[snippet.header_lines :]
    return "\n".join(line for line in lines if not SECTION_MARKER_RE.match(line))


def _example_downloads(output: str, page: Page, config: MkDocsConfig, snippets: list[Snippet]) -> str:
    """Each whole example's file under `examples/`, and its code block's title a download of it."""
    root, site_dir = snippets_dir(config), Path(config.site_dir)
    shown = {s.rel: s for s in snippets}
    for snippet in snippets:
        code = shown_code(snippet)
        example = site_dir / EXAMPLES_DIR / snippet.rel
        example.parent.mkdir(parents=True, exist_ok=True)
        example.write_text(code, encoding="utf-8")
    title = strings(page_lang(page.file.src_uri))["download_example"]

    def linked(m: re.Match[str]) -> str:
        rel = m["rel"]
        if rel not in shown or not (root / rel).is_file():
            return m[0]
        href = posixpath.relpath(f"{EXAMPLES_DIR}/{rel}", page.url or ".")
        label = html.escape(title.format(file=rel), quote=True)
        return f'<span class="filename"><a href="{href}" download title="{label}">{rel}</a>{m["rest"]}</span>'

    return _FILENAME_RE.sub(linked, output)

