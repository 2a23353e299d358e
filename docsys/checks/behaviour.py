"""Statements about PyTorch's behaviour in the prose must be shown by an output or sourced.

A paragraph whose prose uses a behavioural word — a default, what always or never happens, what
falls back, what is silent or ignored, what holds only somewhere (BEHAVIOUR below) — passes when it
carries its evidence (docsys.build.evidence, which checks it when the site is built):
`<!-- shown: <snippet> "<text of its output>" -->`, `<!-- source: ... -->`, or a claim token
(`{{ ratio: ... }}` / `{{ value: ... }}`, docsys.build.claims). Code, HTML comments, headings and the
front matter are not prose (docsys.checks.prose). The glossary pages define terms;
they are read too.
"""

from __future__ import annotations

import re
from pathlib import Path

from docsys.checks.prose import Finding, lint, lint_tree
from docsys.core.text import EVIDENCE_RE, TOKEN_RE

BEHAVIOUR = re.compile(
    r"\b(?:by default|defaults?(?: to)?|always|never|falls? back|silently|only (?:on|when|if|with|for)"
    r"|(?:is|are) ignored|ignores)\b"
    r"|默认|总是|始终|从不|从来不|永远不|回退|静默|悄悄|只在|仅在|被忽略|忽略掉",
    re.I,
)
PROBLEM = ("a statement about PyTorch's behaviour without evidence: add "
           '<!-- shown: <snippet> "<its output>" --> or <!-- source: ... -->')
_EVIDENCE = ("shown", "source")


def has_evidence(block: str) -> bool:
    return bool(TOKEN_RE.search(block)) or any(m["kind"] in _EVIDENCE for m in EVIDENCE_RE.finditer(block))


def check_text(text: str, label: str) -> list[Finding]:
    return lint(text, label, BEHAVIOUR, has_evidence, PROBLEM, fold=str.lower)


def check_tree(docs_dir: Path) -> list[Finding]:
    return lint_tree(docs_dir, check_text)


def counts(findings: list[Finding]) -> dict[str, int]:
    found: dict[str, int] = {}
    for finding in findings:
        found[finding.page] = found.get(finding.page, 0) + 1
    return found
