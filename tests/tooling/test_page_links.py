"""docsys/build/page_links.py and its check, docsys.checks.site.page_link_problems, on the small site (tests/tooling/
minisite.py): every page's edit, view and report links name its own source file, URL, language and the pinned
torch; the other language's file, a report without the torch version, a build without REPO_URL, Material's
repository widget and a malformed REPO_URL are each caught."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from docsys.build.page_links import source_of
from docsys.checks.site import TEST_REPO_URL, page_link_problems
from tests.tooling import minisite

REPO = TEST_REPO_URL
TORCH = "2.13.0"
PAGES = ["index.html", "mixed-precision/index.html", "zh/index.html", "zh/mixed-precision/index.html"]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("page-links")
    minisite.write_docs(root)
    (root / "requirements.txt").write_text(f"torch=={TORCH}\nnumpy==2.4.6\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def site(project) -> Path:
    return minisite.build(project / "docs", project / "site", env={"REPO_URL": REPO + "/"}).path


def _planted(site: Path, tmp_path: Path, page: str, old: str, new: str) -> Path:
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    html = (copy / page).read_text(encoding="utf-8")
    assert old in html, old
    (copy / page).write_text(html.replace(old, new), encoding="utf-8")
    return copy


def test_every_page_links_its_own_source_in_its_own_language(site, project):
    assert page_link_problems(site, project, REPO, TORCH) == []
    zh = (site / "zh/mixed-precision/index.html").read_text(encoding="utf-8")
    assert f'<a href="{REPO}/edit/main/docs/zh/mixed-precision.md" rel="edit">编辑此页</a>' in zh
    assert f'<a href="{REPO}/blob/main/docs/zh/mixed-precision.md?plain=1">查看本页的源代码</a>' in zh


def test_the_report_link_opens_an_issue_naming_the_page_its_language_and_torch(site):
    zh = (site / "zh/mixed-precision/index.html").read_text(encoding="utf-8")
    report = zh.split('<p class="page-links">')[1].split('<a href="')[3].split('"')[0].replace("&amp;", "&")
    assert report.startswith(f"{REPO}/issues/new?title=")
    query = parse_qs(urlsplit(report).query)
    assert query["title"] == ["页面问题：混合精度"]
    assert query["body"][0].splitlines()[:3] == [
        "页面：http://127.0.0.1:8000/zh/mixed-precision/",
        "语言：zh",
        f"torch：{TORCH}（requirements.txt 固定的版本，CPU 示例的输出都用它录制）",
    ]


def test_the_other_languages_file_is_caught(site, project, tmp_path):
    planted = _planted(
        site, tmp_path, "zh/mixed-precision/index.html", "docs/zh/mixed-precision.md", "docs/en/mixed-precision.md"
    )
    assert page_link_problems(planted, project, REPO, TORCH) == [
        f"zh/mixed-precision/index.html: edit link {REPO}/edit/main/docs/en/mixed-precision.md is not "
        f"{REPO}/edit/main/docs/zh/mixed-precision.md",
        f"zh/mixed-precision/index.html: view link {REPO}/blob/main/docs/en/mixed-precision.md?plain=1 is not "
        f"{REPO}/blob/main/docs/zh/mixed-precision.md?plain=1",
    ]


def test_a_report_naming_another_torch_or_page_is_caught(site, project, tmp_path):
    planted = _planted(site, tmp_path, "mixed-precision/index.html", "torch%3A%202.13.0", "torch%3A%202.12.0")
    assert page_link_problems(planted, project, REPO, TORCH) == [
        f"mixed-precision/index.html: report link's issue lacks torch {TORCH}"
    ]
    planted = _planted(site, tmp_path / "url", "index.html", "8000%2F%0A", "8000%2Fzh%2F%0A")
    assert page_link_problems(planted, project, REPO, TORCH) == ["index.html: report link's issue lacks its URL"]


def test_no_repo_url_no_links_and_materials_repository_widget_are_caught(project):
    """A local build (REPO_URL unset) has no links; with MkDocs' repo_url, Material adds its repository widget."""
    built = minisite.build(project / "docs", project / "with-repo-url", settings={"repo_url": REPO})
    problems = page_link_problems(built.path, project, REPO, TORCH)
    assert [p for p in problems if "has 0" in p] == [
        f"{page}: has 0 of its edit, view and report links (is REPO_URL set?)" for page in sorted(PAGES)
    ]
    assert {p.split(":")[0] for p in problems if "repository widget" in p} >= set(PAGES)


def test_a_malformed_repo_url_stops_the_build_with_one_line(project):
    with pytest.raises(RuntimeError) as failed:
        minisite.build(project / "docs", project / "malformed", env={"REPO_URL": "github.com/owner/repository"})
    assert "REPO_URL='github.com/owner/repository' is not a repository URL; set it to https://" in str(failed.value)


def test_a_notebook_page_links_its_jupytext_source_and_a_page_its_markdown():
    assert source_of("zh/notebooks/speed-up-training.ipynb", "docs") == "notebooks/speed-up-training.py"
    assert source_of("zh/autograd.md", "docs") == "docs/zh/autograd.md"
