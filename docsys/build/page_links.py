"""MkDocs hook: "Edit this page", "View source" and "Report a problem with this page" at the end of every page.

The repository is the REPO_URL variable (`https://<host>/<owner>/<name>`), which deploy.yml sets from the
GitHub context as it sets SITE_URL. A build without it (a local one) has no such links: there is no
repository to name, and none is guessed. Not MkDocs' `repo_url`: with it Material puts a repository widget
in the header, whose script asks the GitHub API for stars and forks on every page (another host).

A page's links point at the file it is made from, in its own language: `docs/zh/autograd.md` for
/zh/autograd/; a notebook page at its jupytext source, `notebooks/<name>.py` (docs/<lang>/notebooks/ holds
build products, docsys/build/notebook.py). The report link opens a new issue whose body names the page's
URL, its language and the torch version that requirements.txt pins (what the CPU recordings are made with;
read from the file, torch is not imported). overrides/partials/page-links.html draws them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import quote, urlencode

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

from docsys.build.config import project_dir
from docsys.build.strings import strings
from docsys.core.paths import page_lang

REPO_VARIABLE = "REPO_URL"
BRANCH = "main"  # deploy.yml publishes from main only (docsys/checks/workflows.py)
_REPO_RE = re.compile(r"https://[^/\s]+/[^/\s]+/[^/\s]+")
_PIN_RE = re.compile(r"^torch==(?P<version>[^\s;#]+)", re.M)


@dataclass(frozen=True)
class Project:
    repo: str  # https://github.com/owner/name
    torch: str  # the pinned version
    root: Path  # the folder of mkdocs.yml
    docs: str  # docs_dir relative to root, "docs"


@dataclass(frozen=True)
class PageLinks:
    edit: str
    view: str
    report: str


_project: Project | None = None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _project
    repo = os.environ.get(REPO_VARIABLE, "").strip()
    root = project_dir(config)
    if not repo:
        _project = None
        return config
    docs = Path(config.docs_dir).resolve().relative_to(root).as_posix()
    _project = Project(repository(repo), pinned_torch(root / "requirements.txt"), root, docs)
    return config


def on_page_context(context: dict, page: Page, config: MkDocsConfig, nav) -> dict:
    # A page the build makes (the print editions, docsys/build/print_edition) has no source to edit or view.
    if _project is not None and getattr(page.file, "generated_by", None) is None:
        source = source_of(page.file.src_uri, _project.docs)
        if not (_project.root / source).is_file():
            raise PluginError(
                f"{page.file.src_uri}: its source {source} does not exist; "
                "docsys/build/page_links.py maps pages to the files they are made from"
            )
        lang = page_lang(page.file.src_uri)
        context["page_links"] = links(_project, source, page.canonical_url, page.title or "", lang)
        context["page_links_report"] = strings(lang)["report_problem"]
    return context


def repository(value: str) -> str:
    """The repository's URL without a trailing slash; a malformed value stops the build with one line."""
    repo = value.rstrip("/")
    if not _REPO_RE.fullmatch(repo):
        raise PluginError(
            f"{REPO_VARIABLE}={value!r} is not a repository URL; set it to https://<host>/<owner>/<name> "
            "(deploy.yml: ${{ github.server_url }}/${{ github.repository }}) or leave it unset"
        )
    return repo


def pinned_torch(requirements: Path) -> str:
    """The version of the `torch==X` line of requirements.txt."""
    found = _PIN_RE.search(requirements.read_text(encoding="utf-8")) if requirements.is_file() else None
    if found is None:
        raise PluginError(f"{requirements}: no `torch==<version>` line, which the report link names")
    return found["version"]


def source_of(src_uri: str, docs: str) -> str:
    """The repository path of the file a page is made from: `docs/zh/autograd.md`, `notebooks/<name>.py`."""
    path = PurePosixPath(src_uri)
    if path.suffix == ".ipynb" and path.parent.name == "notebooks":
        return f"notebooks/{path.stem}.py"
    return f"{docs}/{src_uri}"


def links(project: Project, source: str, page_url: str, title: str, lang: str) -> PageLinks:
    s = strings(lang)
    issue = {
        "title": s["report_title"].format(title=title),
        "body": s["report_body"].format(url=page_url, lang=lang, torch=project.torch),
    }
    return PageLinks(
        edit=f"{project.repo}/edit/{BRANCH}/{source}",
        view=f"{project.repo}/blob/{BRANCH}/{source}?plain=1",
        report=f"{project.repo}/issues/new?{urlencode(issue, quote_via=quote)}",
    )
