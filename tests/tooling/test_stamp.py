"""docsys.build.stamp: the page's "verified with" line comes from its recordings, and changes with them."""

from __future__ import annotations

import json

from docsys.checks.site import warnings_of
from tests.tooling.site_fixture import build_copy, text_of


def _stamp(built, lang="en"):
    prefix = built.path if lang == "en" else built.path / lang
    page = text_of((prefix / "demo" / "index.html").read_text(encoding="utf-8"))
    return next(line for line in page.splitlines() if line.startswith(("Verified with", "验证环境")))


def test_the_stamp_names_each_platform_and_changes_with_a_recording(fixture_copy, fixture_site):
    before = _stamp(fixture_site)
    assert before.startswith("Verified with: CPU — torch ") and before.endswith("· GPU examples not yet recorded")
    assert _stamp(fixture_site, "zh").startswith("验证环境：CPU——torch ")
    rec = fixture_copy / "snippets" / "demo" / "hello.record.json"
    data = json.loads(rec.read_text())
    data["recorded_at"] = "2020-01-02T03:04:05Z"
    rec.write_text(json.dumps(data))
    built = build_copy(fixture_copy)
    assert "oldest recording 2020-01-02" in _stamp(built) and _stamp(built) != before


def test_recordings_of_one_platform_with_two_torch_versions_are_flagged(fixture_copy):
    rec = fixture_copy / "snippets" / "demo" / "hello.record.json"
    data = json.loads(rec.read_text())
    data["software"]["torch"] = "2.0.0"
    rec.write_text(json.dumps(data))
    built = build_copy(fixture_copy)
    assert "torch 2.0.0 / " in _stamp(built)
    assert any("en/demo.md: CPU recordings disagree: torch 2.0.0, " in w for w in warnings_of(built))
