"""docsys.checks.translations on the small site's pages (tests/fixtures/minisite), in a throwaway git
repository: a zh page behind its en page fails unless marked pending, and `update` cannot be run blind."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from docsys.checks import translations
from docsys.checks.translations import TranslationError, check_tree, pair, record_new, update
from tests.tooling import minisite

SLUG = "mixed-precision"
EN_EDIT = ("Mixed precision runs some operations", "Mixed precision runs most operations")
ZH_EDIT = ("混合精度让部分运算", "混合精度让大部分运算")


def _git(repo: Path, *args: str) -> None:
    git = shutil.which("git") or "git"
    subprocess.run([git, "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """The small site's pages with every translation recorded and committed."""
    docs = minisite.write_docs(tmp_path)
    assert "no translation record" in "\n".join(check_tree(docs))
    assert len(record_new(docs)) == 2 and check_tree(docs) == []
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "recorded")
    return docs


def _edit(docs: Path, lang: str, change: tuple[str, str]) -> None:
    page = docs / lang / f"{SLUG}.md"
    text = page.read_text(encoding="utf-8")
    assert change[0] in text
    page.write_text(text.replace(*change), encoding="utf-8")


def test_an_en_change_without_a_zh_update_fails_naming_the_pair_and_section(docs):
    _edit(docs, "en", EN_EDIT)
    assert check_tree(docs) == [
        "zh/mixed-precision.md is behind en/mixed-precision.md: en changed in #mixed-precision; update the "
        "translation and run `make translation PAGE=mixed-precision`, or mark it `pending: true` under "
        "`translation:` to publish it with a notice"]


def test_a_pending_page_passes_and_a_needless_pending_mark_fails(docs):
    _edit(docs, "en", EN_EDIT)
    assert "marked pending" in translations.mark_pending(pair(SLUG, docs))
    assert check_tree(docs) == []
    _edit(docs, "en", EN_EDIT[::-1])  # en back to what the translation follows
    assert check_tree(docs) == [
        "zh/mixed-precision.md is marked pending but follows en/mixed-precision.md; "
        "run `make translation PAGE=mixed-precision`"]


def test_update_refuses_when_zh_was_not_touched_and_writes_nothing(docs):
    _edit(docs, "en", EN_EDIT)
    before = (docs / "zh" / f"{SLUG}.md").read_text(encoding="utf-8")
    shown: list[str] = []
    with pytest.raises(TranslationError) as refused:
        update(pair(SLUG, docs), {}, out=shown.append)
    assert "#mixed-precision: zh unchanged since it was recorded" in str(refused.value)
    assert (docs / "zh" / f"{SLUG}.md").read_text(encoding="utf-8") == before
    diff = "\n".join(shown)  # the en diff of the section, against the committed version the record names
    assert "-Mixed precision runs some operations" in diff and "+Mixed precision runs most operations" in diff


def test_update_accepts_an_edited_zh_section(docs):
    _edit(docs, "en", EN_EDIT)
    _edit(docs, "zh", ZH_EDIT)
    lines = update(pair(SLUG, docs), {}, out=lambda _: None)
    assert lines == ["zh/mixed-precision.md: follows en/mixed-precision.md now",
                     "  #mixed-precision: zh section edited"]
    assert check_tree(docs) == []


def test_update_accepts_an_explicit_reason_and_only_for_a_changed_section(docs):
    _edit(docs, "en", EN_EDIT)
    with pytest.raises(TranslationError, match="#autocast, which did not change in en"):
        update(pair(SLUG, docs), {"autocast": "typo"}, out=lambda _: None)
    lines = update(pair(SLUG, docs), {"mixed-precision": "zh already says 大部分"}, out=lambda _: None)
    assert lines[1] == "  #mixed-precision: unchanged: zh already says 大部分"
    assert check_tree(docs) == []


def test_on_a_terminal_the_reason_is_asked_for_and_an_empty_answer_refuses(docs):
    _edit(docs, "en", EN_EDIT)
    with pytest.raises(TranslationError):
        update(pair(SLUG, docs), {}, ask=lambda prompt: "  ", out=lambda _: None)
    asked: list[str] = []
    update(pair(SLUG, docs), {}, ask=lambda prompt: asked.append(prompt) or "wording only", out=lambda _: None)
    assert asked == ["#mixed-precision: why does zh need no change? "]


def test_the_command_line_refuses_in_one_line_and_exits_1(docs, capsys):
    _edit(docs, "en", EN_EDIT)
    assert translations.main(["update", SLUG, "--unchanged", "mixed-precision"], docs) == 1
    assert capsys.readouterr().err == "refused: --unchanged 'mixed-precision': write ANCHOR=\"reason\"\n"
    assert translations.main(["update", "no-such-page"], docs) == 1
    assert capsys.readouterr().err == "refused: en/no-such-page.md does not exist\n"
    assert translations.main(["status"], docs) == 0
    assert "behind: #mixed-precision" in capsys.readouterr().out


def test_a_section_added_to_en_needs_its_zh_section_and_one_removed_from_both_is_accepted(docs):
    en, zh = docs / "en" / f"{SLUG}.md", docs / "zh" / f"{SLUG}.md"
    en.write_text(en.read_text(encoding="utf-8") + "\n## Scaling { #scaling }\n\nGradScaler.\n", encoding="utf-8")
    with pytest.raises(TranslationError, match="#scaling: zh has no such section yet"):
        update(pair(SLUG, docs), {}, out=lambda _: None)
    zh.write_text(zh.read_text(encoding="utf-8") + "\n## 缩放 { #scaling }\n\nGradScaler。\n", encoding="utf-8")
    assert update(pair(SLUG, docs), {}, out=lambda _: None)[1] == "  #scaling: zh section edited"
    for page, heading in ((en, "## Scaling { #scaling }"), (zh, "## 缩放 { #scaling }")):
        text = page.read_text(encoding="utf-8")
        page.write_text(text[: text.index(heading)], encoding="utf-8")
    assert update(pair(SLUG, docs), {}, out=lambda _: None)[1] == "  #scaling: removed from both"
    assert check_tree(docs) == []


def test_after_a_merge_new_pages_and_pages_whose_zh_was_edited_are_recorded_the_rest_refused(docs, capsys):
    _edit(docs, "en", EN_EDIT)
    _edit(docs, "zh", ZH_EDIT)  # a branch that edited both languages
    index_en = docs / "en" / "index.md"
    index_en.write_text(index_en.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")  # en only
    for lang, title in (("en", "# New { #new }\n"), ("zh", "# 新页面 { #new }\n")):
        (docs / lang / "new.md").write_text(title, encoding="utf-8")
    assert translations.main(["merged"], docs) == 1
    out, err = capsys.readouterr()
    assert "zh/new.md: recorded as a new translation" in out and "zh/mixed-precision.md: follows" in out
    assert err.startswith("refused: zh/index.md: nothing recorded") and "#home:" in err
    assert check_tree(docs) == ["zh/index.md is behind en/index.md: en changed in #home; update the translation "
                                "and run `make translation PAGE=index`, or mark it `pending: true` under "
                                "`translation:` to publish it with a notice"]
