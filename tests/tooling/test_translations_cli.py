"""docsys/translations/cli.py (`python -m docsys.translations`) on the small site's
pages, in a throwaway git repository (tests/tooling/translated_pages.py): a refusal is one line and
exit status 1; after a merge, what can be recorded is, and the rest is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from docsys.translations.check import check_tree
from docsys.translations.cli import main
from tests.tooling.translated_pages import EN_EDIT, SLUG, ZH_EDIT, edit, recorded_docs


def test_python_m_runs_the_command_line():
    command = [sys.executable, "-m", "docsys.translations", "--help"]
    proc = subprocess.run(command, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Translation freshness: a zh page that has fallen behind its en page" in proc.stdout


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return recorded_docs(tmp_path)


def test_the_command_line_refuses_in_one_line_and_exits_1(docs, capsys):
    edit(docs, "en", EN_EDIT)
    assert main(["update", SLUG, "--unchanged", "mixed-precision"], docs) == 1
    assert capsys.readouterr().err == "refused: --unchanged 'mixed-precision': write ANCHOR=\"reason\"\n"
    assert main(["update", "no-such-page"], docs) == 1
    assert capsys.readouterr().err == "refused: en/no-such-page.md does not exist\n"
    assert main(["status"], docs) == 0
    assert "behind: #mixed-precision" in capsys.readouterr().out


def test_after_a_merge_new_pages_and_pages_whose_zh_was_edited_are_recorded_the_rest_refused(docs, capsys):
    edit(docs, "en", EN_EDIT)
    edit(docs, "zh", ZH_EDIT)  # a branch that edited both languages
    index_en = docs / "en" / "index.md"
    index_en.write_text(index_en.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")  # en only
    for lang, title in (("en", "# New { #new }\n"), ("zh", "# 新页面 { #new }\n")):
        (docs / lang / "new.md").write_text(title, encoding="utf-8")
    assert main(["merged"], docs) == 1
    out, err = capsys.readouterr()
    assert "zh/new.md: recorded as a new translation" in out and "zh/mixed-precision.md: follows" in out
    assert err.startswith("refused: zh/index.md: nothing recorded") and "#home:" in err
    assert check_tree(docs) == ["zh/index.md is behind en/index.md: en changed in #home; update the translation "
                                "and run `make translation PAGE=index`, or mark it `pending: true` under "
                                "`translation:` to publish it with a notice"]
