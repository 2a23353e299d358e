"""Chinese copywriting lint (AutoCorrect, rules in .autocorrectrc) of the zh pages: zero findings."""

from __future__ import annotations

from docsys.checks.copywriting import lint_config, lint_glossary, lint_pages


def test_zh_pages_have_no_copywriting_findings():
    findings = lint_pages()
    assert not findings, f"{len(findings)} AutoCorrect finding(s) in docs/zh:\n" + "\n".join(map(str, findings))


def test_zh_site_config_has_no_copywriting_findings():
    findings = lint_config()
    assert not findings, "\n".join(map(str, findings))


def test_glossary_data_has_no_copywriting_findings():
    findings = lint_glossary()
    assert not findings, "\n".join(map(str, findings))
