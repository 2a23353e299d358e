"""Notebooks: the recorded run of each jupytext source, rendered by mkdocs-jupyter in each language.

Source and recording: docsys.notebook (`notebooks/<name>.py`, its `.out.ipynb` and
`.record.json`, written by `python -m docsys record notebooks/<name>.py`). The build never executes
a notebook: before each build it joins the recorded code outputs with each language's Markdown
cells and writes `docs/<lang>/notebooks/<name>.ipynb` — git-ignored, and rewritten only when it
changes so that `mkdocs serve` does not reload forever. mkdocs-jupyter renders those files. A
missing recording, or one older than its source, is a build warning (a strict build fails).

Two fixes make mkdocs-jupyter work under mkdocs-static-i18n:
- i18n's `on_files` (priority -100) rebuilds every File and drops mkdocs-jupyter's
  NotebookFile wrapper, so the page would be emitted as raw JSON: `on_files` below re-wraps
  notebooks after i18n, keeping i18n's destination, and adds the other languages' pages as
  alternates for the language switcher.
- i18n runs one build per language, and mkdocs-jupyter evicts every cache entry its build
  did not use, so each language deleted the other's cache: `on_config` gives each language
  its own cache directory.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from html import escape
from pathlib import Path, PurePosixPath
from types import SimpleNamespace

import nbformat
from markdown.extensions.toc import slugify, unique
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.utils import get_relative_url

from docsys import notebook
from docsys.build import notebook_css
from docsys.build.config import language, project_dir
from docsys.build.files import write_atomically
from docsys.build.stamp import stamp
from docsys.build.strings import strings
from docsys.build.tables import isa_words
from docsys.core.paths import DEFAULT_LANG, LANGS, page_lang
from docsys.core.recording import Record
from docsys.core.snippet import source_sha256

log = logging.getLogger("mkdocs.hooks.notebooks")


class _Paths:
    """Folders of the project being built, from its MkDocs config (set by on_config)."""

    sources = Path("notebooks")  # the jupytext sources and their recordings, beside mkdocs.yml
    docs = Path("docs")
    cache = Path(".cache")


_paths = _Paths()


# --- hooks -------------------------------------------------------------------------------


@event_priority(-200)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    root = project_dir(config)
    _paths.sources, _paths.docs, _paths.cache = root / "notebooks", Path(config.docs_dir), root / ".cache"
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is None:  # a site without notebooks (the tooling tests' fixtures)
        _paths.sources = root / "no-notebooks"
        return config
    jupyter.config["cache_dir"] = str(_paths.cache / "mkdocs-jupyter" / language(config))
    return config


def on_pre_build(config: MkDocsConfig) -> None:
    for source in sources():
        parsed = notebook.read(source)
        run = recorded(source)
        if run is None:
            continue
        for lang in LANGS:
            write_if_changed(rendered_path(source, lang), nbformat.writes(notebook.for_language(parsed, run, lang)))


@event_priority(-200)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    from mkdocs_jupyter.plugin import NotebookFile

    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is None:
        return files
    for file in list(files):
        if file.src_uri.endswith(".ipynb") and jupyter.should_include(file):
            wrapped = NotebookFile(file, config.use_directory_urls, config.site_dir)
            wrapped.dest_path, wrapped.url, wrapped.abs_dest_path = file.dest_path, file.url, file.abs_dest_path
            wrapped.alternates = _alternates(PurePosixPath(file.src_uri))
            files.remove(file)
            files.append(wrapped)
    return files


def on_page_content(html: str, page, config: MkDocsConfig, files: Files) -> str:
    """Give a notebook page's headings and table of contents the same ids, in every language.

    mkdocs-jupyter slugs its table of contents with one function and nbconvert slugs the
    headings with another, so their links disagree ("#stage-5" vs "stage-5-torchcompile"),
    and Chinese headings get empty ids. Both are replaced by slugs of the English headings,
    and TOC titles are taken from the rendered headings (mkdocs-jupyter drops code spans).
    """
    if not page.file.src_uri.endswith(".ipynb"):
        return html
    source = _paths.sources / f"{PurePosixPath(page.file.src_uri).stem}.py"
    html = _with_stamp(html, source, page_lang(page.file.src_uri))
    html = _with_alt_text(html, source, page_lang(page.file.src_uri))
    ids = heading_ids(notebook.read(source))
    headings, toc = list(_HEADING_RE.finditer(html)), list(_flatten(page.toc))
    if not len(headings) == len(toc) == len(ids):
        log.warning("notebooks: %s has %d headings, %d TOC entries and %d English headings; anchors left as is",
                    page.file.src_uri, len(headings), len(toc), len(ids))
        return html
    for item, anchor, heading in zip(toc, ids, headings, strict=True):
        item.id, item.title = anchor, _heading_text(heading["body"])
    new_ids = iter(ids)
    return _HEADING_RE.sub(lambda m: _with_anchor(m, next(new_ids)), html)


def _with_stamp(html: str, source: Path, lang: str) -> str:
    """The "verified with" stamp (docsys.build.stamp) after the notebook's title, and the machine its
    measurements come from: the notebook prints none of it (an output holds what the code computes)."""
    path = notebook.record_path(source)
    if not path.exists():
        return html
    rec = Record(json.loads(path.read_text(encoding="utf-8")))
    stamp_html, _ = stamp([rec], False, lang)
    end = html.find("</h1>")
    if end < 0 or stamp_html is None:
        return html
    s, host = strings(lang), rec.host
    where = s["measured_notebook"].format(cpu=host["cpu"], cores=host["cores"], torch=rec.torch, date=rec.date,
                                          isa=isa_words(host, lang))
    return html[: end + 5] + stamp_html + f'<p class="bench-caption">{escape(where)}</p>' + html[end + 5 :]


def _with_alt_text(html: str, source: Path, lang: str) -> str:
    """Each output image's alt text, in the page's language, from its code cell in the source
    (`# %% alt_en="..." alt_zh="..."`): nbconvert gives every output image the same placeholder.
    An image without one is a build warning."""
    out = notebook.output_path(source)
    if not out.exists():
        return html
    code = [cell for cell in notebook.read(source).cells if cell.cell_type == "code"]
    run = nbformat.read(out, as_version=4)
    alts = [cell.metadata.get(f"alt_{lang}") for cell, ran in zip(code, run.cells, strict=False)
            for output in ran.get("outputs", []) if _IMAGE_TYPES & set(output.get("data", {}))]
    if html.count(_NO_ALT) != len(alts) or not all(alts):
        log.warning(f"notebooks: {source.name}: an output image has no {lang} alt text; give its code cell "
                    f'one: `# %% alt_en="..." alt_zh="..."`')
        return html
    texts = iter(alts)
    return re.sub(re.escape(_NO_ALT), lambda _: f'alt="{escape(next(texts))}"', html)


def on_post_page(output: str, page, config: MkDocsConfig) -> str:
    """Prune mkdocs-jupyter's inline stylesheets (~580 KB per page) to what the page can use
    (docsys.build.notebook_css), then move them into one cached file."""
    if not page.file.src_uri.endswith(".ipynb"):
        return output
    output = notebook_css.prune_styles(output, page, config)
    return _STYLE_RE.sub(lambda m: _stylesheet_link(m["css"], page.url, Path(config.site_dir)), output)


# --- building blocks ---------------------------------------------------------------------

_HEADING_RE = re.compile(r'<h(?P<level>[1-6])(?P<attrs>[^>]*?) id="[^"]*"(?P<body>.*?)</h(?P=level)>', re.S)
_ANCHOR_LINK_TAG_RE = re.compile(r'<a class="anchor-link"[^>]*>.*?</a>', re.S)
_ANCHOR_LINK_RE = re.compile(r'(<a class="anchor-link" href=")#[^"]*(")')
_NO_ALT = 'alt="No description has been provided for this image"'  # nbconvert's placeholder
_IMAGE_TYPES = {"image/svg+xml", "image/png", "image/jpeg"}
_STYLE_RE = re.compile(r"<style[^>]*>(?P<css>(?:(?!</style>).){4096,}?)</style>", re.S)


def _stylesheet_link(css: str, page_url: str, site_dir: Path) -> str:
    name = f"assets/notebook-{hashlib.sha256(css.encode()).hexdigest()[:12]}.css"
    target = site_dir / name
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(css, encoding="utf-8")
    return f'<link rel="stylesheet" href="{get_relative_url(name, page_url)}">'



def heading_ids(parsed: nbformat.NotebookNode) -> list[str]:
    """Slugs of the English Markdown headings, in order, made unique as MkDocs does."""
    ids: list[str] = []
    for cell in parsed.cells:
        if cell.cell_type == "markdown" and cell.metadata.get("lang") == DEFAULT_LANG:
            for title in re.findall(r"^#{1,6}\s+(.+?)\s*$", cell.source, re.M):
                ids.append(unique(slugify(title.replace("`", ""), "-"), set(ids)))
    return ids


def _flatten(toc):
    for item in toc:
        yield item
        yield from _flatten(item.children)


def _heading_text(body: str) -> str:
    """A heading's text, without its tags and its ¶ anchor link."""
    inner = _ANCHOR_LINK_TAG_RE.sub("", body.split(">", 1)[1])
    return re.sub(r"<[^>]+>", "", inner).strip()


def _with_anchor(match: re.Match, anchor: str) -> str:
    body = _ANCHOR_LINK_RE.sub(rf"\g<1>#{anchor}\g<2>", match["body"], count=1)
    return f'<h{match["level"]}{match["attrs"]} id="{anchor}"{body}</h{match["level"]}>'


def sources() -> list[Path]:
    return sorted(p for p in _paths.sources.glob("*.py") if not p.name.endswith(".out.py"))


def rendered_path(source: Path, lang: str) -> Path:
    return _paths.docs / lang / "notebooks" / f"{source.stem}.ipynb"


def _alternates(src_uri: PurePosixPath) -> dict[str, SimpleNamespace]:
    """The same notebook page in every language, as i18n's language switcher expects."""
    page = PurePosixPath(*src_uri.parts[1:]).with_suffix("")  # drop the language folder
    return {
        lang: SimpleNamespace(url=f"{'' if lang == DEFAULT_LANG else lang + '/'}{page}/")
        for lang in LANGS
        if (_paths.docs / lang / page.with_suffix(".ipynb")).exists()
    }


def recorded(source: Path) -> nbformat.NotebookNode | None:
    """The recorded run of a source (docsys.notebook); a missing or stale one is a build warning."""
    out, rec = notebook.output_path(source), notebook.record_path(source)
    fix = f"run `make record SNIPPETS=notebooks/{source.name}` on a quiet machine"
    if not out.exists() or not rec.exists():
        log.warning(f"notebooks: {source.name} has no recording; {fix}")
        return None
    if json.loads(rec.read_text(encoding="utf-8")).get("source_sha256") != source_sha256(source):
        log.warning(f"notebooks: {source.name} changed since it was recorded; {fix}")
    return nbformat.read(out, as_version=4)


def write_if_changed(path: Path, text: str) -> None:
    """Unchanged files are left alone, so that `mkdocs serve` does not reload forever."""
    if not (path.exists() and path.read_text(encoding="utf-8") == text):
        write_atomically(path, text)
