"""Comparative words in prose must be bound to a measurement, or marked as a general fact.

A paragraph (a block of prose, a list, a table) that compares or quantifies — faster, slower,
saves, speed-up, ×, %, 倍, 更快, 节省, 加速 … — passes when it also holds a claim token
(`{{ ratio: ... }}` or `{{ value: ... }}`, checked against the recording by docsys.build.claims),
or when it carries, anywhere in it, a marker with its reason:

    <!-- general: the PyTorch AMP docs state it; not a measurement of this site -->

The marker is invisible to readers and says why the comparison needs no measurement here (a
general fact, with a link to the official docs in the paragraph). Code (fences and inline), HTML
comments, headings and the front matter are not prose (docsys.checks.prose); names that contain a word are not
comparisons (memory-saving and saving-loading are slugs, "Saving and loading" a page title), nor is
"saving" naming who saves ("the saving process", "the saving one").
"""

from __future__ import annotations

import re
from pathlib import Path

from docsys.checks.prose import Finding, lint, lint_tree

COMPARATIVE = re.compile(
    r"\b(?:faster|slower|quicker|speed-?ups?|speeds? up|slows? down|cheaper|costlier"
    r"|(?<!-)savings?(?!-|\s+and\s+loading|\s+(?:one|process|side|rank|step)\b)|saves? (?:memory|time|\d)"
    r"|less memory|more memory|less time|more time|fraction of)\b"
    r"|\b\d+(?:\.\d+)?\s?×(?!\s?\d)|\b\d+(?:\.\d+)?\s?%|\bper ?cent\b"
    r"|\d\s*倍|更快|更慢|加速(?!器)|减速|提速|节省|省下|省去|快了|慢了|百分之|开销更",
    re.I,
)
TOKEN = re.compile(r"\{\{\s*(?:ratio|value):")
MARKER = re.compile(r"<!--\s*general:\s*\S[^>]*-->")
PROBLEM = ("without a measurement: bind it with {{ ratio: ... }} / {{ value: ... }}, or mark a general fact "
           "<!-- general: why -->")


def check_text(text: str, label: str) -> list[Finding]:
    return lint(text, label, COMPARATIVE, lambda block: bool(TOKEN.search(block) or MARKER.search(block)), PROBLEM)


def check_tree(docs_dir: Path) -> list[Finding]:
    return lint_tree(docs_dir, check_text)
