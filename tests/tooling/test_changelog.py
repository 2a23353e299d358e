"""docsys.build.history and docsys.build.changelog: entries read from a small git repository made here,
with a known history (a new page pair, a prose edit, a changed output, a re-recording with another
torch), its feeds, and what a checkout without history gets."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from docsys.build import changelog, history

SITE_URL = "https://example.org/proven/"
GIT = shutil.which("git") or "git"
# git that neither reads this machine's configuration nor needs an identity
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.org",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.org",
}


def git(repo: Path, *args: str, when: str | None = None) -> str:
    dates = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when} if when else {}
    done = subprocess.run(
        [GIT, "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **GIT_ENV, **dates},
    )
    return done.stdout


def write(repo: Path, rel: str, text: str) -> None:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def record(torch: str, printed: str, platform: str = "cpu") -> str:
    data = {"snippet": "loop/step.py", "platform": platform, "software": {"torch": torch}, "printed": [printed]}
    return json.dumps(data) + "\n"


def commit(repo: Path, day: str, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, when=f"{day}T12:00:00+00:00")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Four days of a page pair `loop` showing one example, and a page `other` that shows none."""
    root = tmp_path / "project"
    git(tmp_path, "init", "-q", "-b", "main", str(root))
    write(root, "docs/en/loop.md", "# Loop { #loop }\n\nA loop.\n\n::: example loop/step.py\n")
    write(root, "docs/zh/loop.md", "# 循环 { #loop }\n\n一个循环。\n\n::: example loop/step.py\n")
    write(root, "snippets/loop/step.py", "print(1)\n")
    write(root, "snippets/loop/step.out", "1\n")
    write(root, "snippets/loop/step.record.json", record("2.12.0+cpu", "1"))
    commit(root, "2026-01-01", "loop: a new page pair with its example")
    write(root, "docs/en/loop.md", "# Loop { #loop }\n\nA loop, explained better.\n\n::: example loop/step.py\n")
    write(root, "docs/en/other.md", "# Other { #other }\n\nNo example.\n")
    write(root, "docs/zh/other.md", "# 其他 { #other }\n\n没有示例。\n")
    commit(root, "2026-01-02", "loop: the English text revised; a page pair without examples")
    write(root, "snippets/loop/step.py", "print(2)\n")
    write(root, "snippets/loop/step.out", "2\n")
    write(root, "snippets/loop/step.record.json", record("2.12.0+cpu", "2"))
    commit(root, "2026-01-03", "loop: the example prints another number")
    write(root, "snippets/loop/step.record.json", record("2.13.0+cpu", "2"))
    commit(root, "2026-01-04", "loop: re-recorded with torch 2.13")
    return root


def entries_of(root: Path, lang: str) -> list[tuple]:
    found = changelog.build(root / "docs", lang, history.read(root, root / ".cache" / "changelog"))
    assert found.problem is None, found.problem
    return [
        (e.day, e.slug, e.new, e.text, sorted(e.outputs), sorted(e.code), sorted(e.rerecorded), e.torch)
        for e in found.entries
    ]


def kinds_of(root: Path, lang: str = "en") -> list[tuple[str, str, dict[str, list[str]], tuple, tuple]]:
    """Each entry as (day, slug, {kind: examples} of its non-empty kinds, torch versions, platforms)."""
    found = changelog.build(root / "docs", lang, history.read(root, root / ".cache" / "changelog"))
    assert found.problem is None, found.problem
    return [
        (e.day, e.slug, {k: sorted(getattr(e, k)) for k in changelog.KIND_SETS if getattr(e, k)}, e.torch, e.platforms)
        for e in found.entries
    ]


def test_each_day_says_what_changed_on_each_page_newest_first(repo):
    assert entries_of(repo, "en") == [
        ("2026-01-04", "loop", False, False, [], [], ["loop/step.py"], ("2.13.0+cpu",)),
        ("2026-01-03", "loop", False, False, ["loop/step.py"], [], [], ("2.12.0+cpu",)),
        ("2026-01-02", "loop", False, True, [], [], [], ()),  # text only: no recording changed, no torch
        ("2026-01-02", "other", True, False, [], [], [], ()),
        ("2026-01-01", "loop", True, False, [], [], [], ("2.12.0+cpu",)),
    ]


def test_a_new_recording_says_only_what_its_record_shows(repo):
    """A benchmark's new record is re-measured (its shown numbers are measurements); another example's is
    "printed exactly the same" only when the `printed` of its two record versions agree; drawings apart."""
    write(
        repo,
        "docs/en/loop.md",
        "# Loop { #loop }\n\n::: example loop/step.py\n\n::: example loop/bench_t.py\n\n![y](figure:loop/step.py#y)\n",
    )
    write(repo, "snippets/loop/bench_t.py", "print('t')\n")
    write(repo, "snippets/loop/bench_t.out", "| t | <number> |\n")
    write(repo, "snippets/loop/bench_t.record.json", record("2.13.0+cpu", "| t | 163.1 |"))
    commit(repo, "2026-01-05", "loop: a benchmark")
    write(repo, "snippets/loop/step.record.json", record("2.13.0+cpu", "2 (at 0x7f00)"))
    commit(repo, "2026-01-06", "loop: step re-recorded, an address in what it printed differs")
    write(repo, "snippets/loop/bench_t.record.json", record("2.13.0+cpu", "| t | 23.9 |"))
    commit(repo, "2026-01-07", "loop: the benchmark re-measured, same masked .out")
    write(repo, "snippets/loop/step.record.json", record("2.13.0+cu130", "2 (at 0x7f00)", "cuda"))
    write(repo, "snippets/loop/step.y.figure.json", "[1, 2]\n")
    commit(repo, "2026-01-08", "loop: step re-recorded on a GPU, printed the same; its figure data")
    assert kinds_of(repo)[:4] == [
        (
            "2026-01-08",
            "loop",
            {"rerecorded": ["loop/step.py"], "redrawn": ["loop/step.py"]},
            ("2.13.0+cu130",),
            ("cuda",),
        ),
        ("2026-01-07", "loop", {"remeasured": ["loop/bench_t.py"]}, ("2.13.0+cpu",), ("cpu",)),
        ("2026-01-06", "loop", {"reprinted": ["loop/step.py"]}, ("2.13.0+cpu",), ("cpu",)),
        ("2026-01-05", "loop", {"added": ["loop/bench_t.py"]}, ("2.13.0+cpu",), ("cpu",)),
    ]


def test_a_record_rewritten_with_its_recorded_at_is_no_run_and_its_out_is_no_new_output(repo):
    """A format migration (e2f2290) rewrites `.record.json` and `.out` without running anything: the same
    `recorded_at` says so. A record with no `printed` before it has nothing to compare "only timings" with."""
    stamped = {"snippet": "loop/step.py", "platform": "cpu", "software": {"torch": "2.13.0+cpu"}}
    write(repo, "snippets/loop/step.record.json", json.dumps({**stamped, "recorded_at": "2026-01-05T00:00:00Z"}))
    commit(repo, "2026-01-05", "loop: step recorded again, in schema 1 (no printed)")
    migrated = {**stamped, "recorded_at": "2026-01-05T00:00:00Z", "schema": 2, "printed": ["2"]}
    write(repo, "snippets/loop/step.record.json", json.dumps(migrated))
    write(repo, "snippets/loop/step.out", "2 \n")
    commit(repo, "2026-01-06", "recordings in schema 2: .out as the compared form (no example re-run)")
    assert [k[0] for k in kinds_of(repo)][:2] == ["2026-01-04", "2026-01-03"]


def test_a_placeholder_out_added_and_removed_is_not_an_output(repo):
    """An empty `.out` is a placeholder (8f7f693 removed such): adding or removing it records nothing."""
    write(repo, "docs/en/loop.md", "# Loop { #loop }\n\n::: example loop/step.py\n\n::: example loop/gpu.py\n")
    write(repo, "snippets/loop/gpu.py", "print('gpu')\n")
    commit(repo, "2026-01-05", "loop: a GPU example, not recorded")
    write(repo, "snippets/loop/gpu.out", "")
    commit(repo, "2026-01-06", "loop: a placeholder .out")
    (repo / "snippets/loop/gpu.out").unlink()
    commit(repo, "2026-01-06", "loop: the placeholder removed")
    assert [k for k in kinds_of(repo) if k[0] == "2026-01-06"] == []


def test_a_figure_changes_only_the_pages_that_draw_it(repo):
    write(repo, "docs/en/loop.md", "# Loop { #loop }\n\n::: example loop/step.py\n\n![y](figure:loop/step.py#y)\n")
    write(repo, "docs/en/other.md", "# Other { #other }\n\n::: example loop/step.py\n")
    commit(repo, "2026-01-05", "loop draws step's figure; other shows step")
    write(repo, "snippets/loop/step.y.figure.json", "[1, 2]\n")
    commit(repo, "2026-01-06", "loop: step's figure data")
    assert [k[:3] for k in kinds_of(repo) if k[0] == "2026-01-06"] == [
        ("2026-01-06", "loop", {"redrawn": ["loop/step.py"]})
    ]


def test_a_removed_recording_and_a_first_one_are_not_an_output_that_changed(repo):
    """A stale GPU recording deleted (docsys.record.cli) leaves the example unrecorded; its first
    recording after that, or a new example's first one, is not a change of a shown output either."""
    (repo / "snippets/loop/step.out").unlink()
    (repo / "snippets/loop/step.record.json").unlink()
    write(repo, "snippets/loop/step.py", "import torch\nprint(torch.cuda.device_count())\n")
    commit(repo, "2026-01-05", "loop: step needs a GPU; its CPU recording is stale")
    write(repo, "snippets/loop/step.out", "1\n")
    write(repo, "snippets/loop/step.record.json", record("2.13.0+cu130", "1", "cuda"))
    write(repo, "docs/en/loop.md", "# Loop { #loop }\n\n::: example loop/step.py\n\n::: example loop/more.py\n")
    write(repo, "snippets/loop/more.py", "print(3)\n")
    write(repo, "snippets/loop/more.out", "3\n")
    write(repo, "snippets/loop/more.record.json", record("2.13.0+cpu", "3"))
    commit(repo, "2026-01-06", "loop: step recorded on a GPU; a new example")
    assert kinds_of(repo)[:2] == [
        (
            "2026-01-06",
            "loop",
            {"outputs": ["loop/step.py"], "added": ["loop/more.py"]},
            ("2.13.0+cpu", "2.13.0+cu130"),
            ("cpu", "cuda"),
        ),
        ("2026-01-05", "loop", {"removed": ["loop/step.py"]}, (), ()),
    ]


def test_the_other_language_has_its_own_text_changes_and_shares_the_recordings(repo):
    assert [(day, slug, new, text, outputs) for day, slug, new, text, outputs, *_ in entries_of(repo, "zh")] == [
        ("2026-01-04", "loop", False, False, []),
        ("2026-01-03", "loop", False, False, ["loop/step.py"]),
        ("2026-01-02", "other", True, False, []),
        ("2026-01-01", "loop", True, False, []),
    ]


def test_changes_not_yet_committed_come_first(repo):
    write(repo, "docs/zh/loop.md", "# 循环 { #loop }\n\n一个循环，讲得更清楚。\n\n::: example loop/step.py\n")
    write(repo, "docs/zh/new.md", "# 新 { #new }\n")
    write(repo, "docs/en/new.md", "# New { #new }\n")
    first = entries_of(repo, "zh")[:2]
    assert [(day, slug, new, text) for day, slug, new, text, *_ in first] == [
        (changelog.UNCOMMITTED, "loop", False, True),
        (changelog.UNCOMMITTED, "new", True, False),
    ]


def test_the_sentences_name_the_example_and_the_torch_version(repo):
    log_ = changelog.build(repo / "docs", "en", history.read(repo, repo / ".cache" / "changelog"))
    lines = changelog.markdown_lines(log_, "en", changelog.page_titles(repo / "docs", "en"), "../feed-en.xml")
    assert (
        "- [Loop](loop.md): Re-recorded, printed exactly the same (`step.py`). Recorded with torch 2.13.0+cpu on CPU."
        in lines
    )
    assert "- [Loop](loop.md): Output changed (`step.py`). Recorded with torch 2.12.0+cpu on CPU." in lines
    assert "- [Loop](loop.md): Text revised." in lines
    assert "## 2026-01-04 { #d2026-01-04 }" in lines


def test_the_walk_is_cached_by_head(repo, monkeypatch):
    cache = repo / ".cache" / "changelog"
    assert len(history.read(repo, cache).commits) == 4
    head = git(repo, "rev-parse", "HEAD").strip()
    assert [p.name for p in cache.iterdir()] == [f"walk-{history.FORMAT}-{head}.json"]
    monkeypatch.setattr(history, "_walk", lambda root: pytest.fail("walked again for the same HEAD"))
    assert len(history.read(repo, cache).commits) == 4


def test_feeds_are_rss_with_absolute_links_into_their_language(repo):
    for lang, root in (("en", ""), ("zh", "zh/")):
        log_ = changelog.build(repo / "docs", lang, history.read(repo, repo / ".cache" / "changelog"))
        text = changelog.feed(log_, lang, changelog.page_titles(repo / "docs", lang), SITE_URL, root, "T")
        rss = ET.fromstring(text)  # noqa: S314 (the feed this test just wrote)
        assert rss.tag == "rss" and rss.get("version") == "2.0"
        items = rss.findall("channel/item")
        assert len(items) == len(log_.entries)
        links = [rss.findtext("channel/link")] + [item.findtext("link") for item in items]
        assert all(link.startswith(SITE_URL + root) for link in links), links
        assert items[0].findtext("pubDate") == "Sun, 04 Jan 2026 12:00:00 +0000"
        assert len({item.findtext("guid") for item in items}) == len(items)


def test_a_shallow_clone_is_not_read_as_every_page_new(repo, tmp_path):
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    found = changelog.build(shallow / "docs", "en", history.read(shallow, tmp_path / "cache"))
    assert found.entries == () and "shallow clone" in found.problem
    assert set(found.pages) == {"loop", "other"} and found.pages["loop"] == ("2.13.0+cpu",)


def test_files_without_a_repository_list_every_page_undated(repo, tmp_path, caplog):
    tarball = tmp_path / "unpacked"
    shutil.copytree(repo, tarball)
    shutil.rmtree(tarball / ".git")
    changelog.forget()
    with caplog.at_level(logging.INFO, logger="mkdocs.extensions.changelog"):
        found = changelog.changelog(tarball / "docs", "zh")
        changelog.changelog(tarball / "docs", "en")
    changelog.forget()
    assert found.entries == () and found.problem.startswith("no git history")
    assert len(caplog.records) == 1 and "fetch-depth: 0" in caplog.records[0].getMessage()
    assert caplog.records[0].levelno == logging.INFO  # a valid build: strict mode fails on warnings only
    lines = changelog.markdown_lines(found, "zh", changelog.page_titles(tarball / "docs", "zh"), "../../feed-zh.xml")
    assert "- [循环](loop.md)：录制所用 torch 2.13.0+cpu（CPU）。" in lines
    assert "- [其他](other.md)" in lines


def test_every_page_counts_its_gpu_examples_not_yet_recorded(repo):
    write(repo, "docs/en/loop.md", "# Loop { #loop }\n\n::: example loop/step.py\n\n::: example loop/gpu.py\n")
    write(repo, "snippets/loop/gpu.py", "# marks: cuda\nimport torch\n")
    write(repo, "snippets/loop/cpu.py", "print(0)\n")  # not shown, not recorded: not counted
    log_ = changelog.build(repo / "docs", "en", history.read(repo, repo / ".cache" / "changelog"))
    lines = changelog.markdown_lines(log_, "en", changelog.page_titles(repo / "docs", "en"), "../feed-en.xml")
    every_page = lines[
        lines.index("## Every page, with the torch version its examples were recorded with { #every-page }") :
    ]
    assert (
        "- [Loop](loop.md): Recorded with torch 2.13.0+cpu on CPU. GPU examples not yet recorded on a GPU (1)."
        in every_page
    )


def test_a_project_inside_another_repository_does_not_read_that_repository(repo):
    inner = repo / "vendored"
    write(inner, "docs/en/x.md", "# X { #x }\n")
    assert "repository around it" in history.read(inner, repo / "cache").problem


def test_the_log_parser_reads_additions_edits_and_deletions():
    text = (
        "\0bbb 2026-01-02T00:00:00+00:00\n\n:100644 000000 " + "1" * 40 + " " + "0" * 40 + " D\tdocs/en/a.md\n"
        "\0aaa 2026-01-01T00:00:00+00:00\n\n:000000 100644 " + "0" * 40 + " " + "2" * 40 + " A\tdocs/en/a.md\n"
    )
    first, second = history.parse_log(text)
    assert (first.sha, first.changes) == ("aaa", (history.Change("A", "docs/en/a.md", "2" * 40),))
    assert (second.date, second.changes[0].status) == ("2026-01-02", "D")


def test_a_page_counts_the_outputs_it_includes_and_every_benchmark_on_a_benchmarks_page(tmp_path):
    snippets = tmp_path / "snippets"
    write(tmp_path, "snippets/a/bench_x.py", "")
    write(tmp_path, "snippets/b/bench_y.py", "")
    page = '# P { #p }\n\n```text\n--8<-- "a/run.out"\n```\n\n![graph](graph:c/g.py#dot)\n\n::: benchmarks\n'
    assert changelog.shown_snippets(page, snippets) == {"a/run.py", "c/g.py", "a/bench_x.py", "b/bench_y.py"}


def test_the_cache_is_keyed_by_uncommitted_edits(repo):
    first = history.read(repo).key
    assert history.read(repo).key == first
    write(repo, "docs/en/loop.md", "# Loop { #loop }\n\nEdited, not committed.\n")
    edited = history.read(repo).key
    assert edited != first
    write(repo, "docs/en/loop.md", "# Loop { #loop }\n\nEdited again, longer than before.\n")
    assert history.read(repo).key != edited


def test_each_build_reads_the_history_again_but_not_each_language(repo):
    from types import SimpleNamespace

    from docsys.build import feed

    def config(building: bool):
        return SimpleNamespace(plugins={"i18n": SimpleNamespace(building=building, current_language="en")})

    changelog.forget()
    first = changelog.changelog(repo / "docs", "en")
    feed.on_pre_build(config(building=True))  # mkdocs-static-i18n building zh inside the en build
    assert changelog.changelog(repo / "docs", "en") is first
    feed.on_pre_build(config(building=False))  # the next build (mkdocs serve rebuilds in one process)
    assert changelog.changelog(repo / "docs", "en") is not first
    changelog.forget()
