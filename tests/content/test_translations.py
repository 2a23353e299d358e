"""Every zh page records which version of its en page it translates, and is either in step with it or
says it is not (pending, with a notice): docsys.translations."""

from __future__ import annotations

from docsys.translations.check import check_tree


def test_every_translation_follows_its_en_page_or_is_marked_pending():
    problems = check_tree()
    assert not problems, "\n".join(problems)


def test_every_pending_translation_shows_its_notice(built_site):
    from docsys.checks.site import built_page
    from docsys.translations.check import pairs, read_record

    missing = []
    for p in pairs():
        record = read_record(p.zh.read_text(encoding="utf-8"), p.label)
        if record is not None and record.pending:
            html = built_page(built_site.path, p.zh).read_text(encoding="utf-8")
            missing += [] if "translation-pending" in html else [p.label]
    assert not missing, f"pending translations without their notice: {missing}"
