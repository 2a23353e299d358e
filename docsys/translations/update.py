"""Recording that a zh page follows its en page: `update` shows each changed en section's diff
(the old text from git history, found by its hash) and accepts it only with a zh edit or a
reason; `new`, `update --all` and `merged` record many pairs; `pending` marks a pair knowingly behind."""

from __future__ import annotations

import difflib
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from docsys.core.paths import DOCS_DIR
from docsys.core.text import sections
from docsys.translations.check import Pair, TranslationError, anchor_list, pairs, read_record
from docsys.translations.records import Record, changed_sections, render_record, section_hashes, with_record

GIT = shutil.which("git") or "git"
GIT_HISTORY = 200  # commits searched for the version a record names


def _git(args: list[str], cwd: Path) -> str | None:
    proc = subprocess.run([GIT, *args], cwd=cwd, capture_output=True, text=True)
    return proc.stdout if proc.returncode == 0 else None


def recorded_text(en_page: Path, anchor: str, digest: str) -> tuple[str, str] | None:
    """(commit, section text) of the newest committed version of en_page whose section `anchor`
    hashes to `digest`: the text the translation followed."""
    cwd = en_page.parent
    top = _git(["rev-parse", "--show-toplevel"], cwd)
    log = _git(["log", f"-{GIT_HISTORY}", "--format=%H", "--", en_page.name], cwd)
    if not top or not log:
        return None
    rel = en_page.resolve().relative_to(Path(top.strip()).resolve()).as_posix()
    for commit in log.split():
        old = _git(["show", f"{commit}:{rel}"], cwd)
        if old is not None and section_hashes(old).get(anchor) == digest:
            return commit, _section(old, anchor)
    return None


def _section(markdown: str, anchor: str) -> str:
    return next(("\n".join(s.lines) for s in sections(markdown) if s.anchor == anchor), "")


def en_diff(p: Pair, anchor: str, record: Record) -> str:
    """What changed in one en section since the translated version, as a unified diff."""
    now = _section(p.en.read_text(encoding="utf-8"), anchor)
    digest = record.en.get(anchor)
    if digest is None:
        return f"    (new section)\n{_indent(now)}"
    found = recorded_text(p.en, anchor, digest)
    if found is None:
        return f"    (the translated version is not in git history; the section now reads:)\n{_indent(now)}"
    commit, old = found
    lines = difflib.unified_diff(old.splitlines(), now.splitlines(), f"en/{p.slug}.md#{anchor} @ {commit[:10]}",
                                 f"en/{p.slug}.md#{anchor} now", lineterm="", n=1)
    return _indent("\n".join(lines))


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.splitlines())


Ask = Callable[[str], str]


def update(p: Pair, unchanged: dict[str, str], ask: Ask | None = None, out=print) -> list[str]:
    """Record zh/<slug> as following en/<slug> now; returns what was accepted, one line per changed
    section. Raises TranslationError, writing nothing, when a changed en section has neither a zh edit
    nor a reason."""
    en_text, zh_text = p.en.read_text(encoding="utf-8"), p.zh.read_text(encoding="utf-8")
    record = read_record(zh_text, p.label)
    en_now, zh_now = section_hashes(en_text), section_hashes(zh_text)
    if record is None:
        p.zh.write_text(with_record(zh_text, render_record(en_now, zh_now)), encoding="utf-8")
        return [f"{p.label}: recorded as a new translation of en/{p.slug}.md ({len(en_now)} sections)"]
    changed = changed_sections(en_now, record)
    if stray := sorted(set(unchanged) - set(changed)):
        raise TranslationError(f"{p.label}: --unchanged names {anchor_list(stray)}, which did not change in en "
                               f"(changed: {anchor_list(changed) or 'none'})")
    accepted, refused = [], []
    for anchor in changed:
        out(f"en/{p.slug}.md#{anchor} changed:\n{en_diff(p, anchor, record)}")
        verdict, why_not = _verdict(anchor, record, en_now, zh_now, unchanged, ask)
        (accepted if verdict else refused).append(f"#{anchor}: {verdict or why_not}")
    if refused:
        raise TranslationError(f"{p.label}: nothing recorded; for each changed en section, edit its zh section "
                               "or say why it stays as it is:\n  " + "\n  ".join(refused))
    p.zh.write_text(with_record(zh_text, render_record(en_now, zh_now)), encoding="utf-8")
    return [f"{p.label}: follows en/{p.slug}.md now", *(f"  {line}" for line in accepted)]


def _verdict(anchor: str, record: Record, en_now: dict[str, str], zh_now: dict[str, str], unchanged: dict[str, str],
             ask: Ask | None) -> tuple[str, str]:
    """(why a changed en section is accepted, or '' and why it is not)."""
    if anchor not in en_now:
        return ("removed from both", "") if anchor not in zh_now else ("", "en removed it; remove it from zh too")
    if anchor not in zh_now:
        return "", "zh has no such section yet; translate it (parity needs the same anchors)"
    if record.zh.get(anchor) != zh_now[anchor]:
        return "zh section edited", ""
    reason = unchanged.get(anchor, "").strip()
    if not reason and ask is not None:
        reason = ask(f"#{anchor}: why does zh need no change? ").strip()
    if reason:
        return f"unchanged: {reason}", ""
    return "", f'zh unchanged since it was recorded; edit it, or pass --unchanged {anchor}="why it needs no change"'


def record_new(docs_dir: Path = DOCS_DIR) -> list[str]:
    """Record every zh page that has no record yet (new page pairs)."""
    done = []
    for p in pairs(docs_dir):
        if read_record(p.zh.read_text(encoding="utf-8"), p.label) is None:
            done += update(p, {})
    return done


def mark_pending(p: Pair) -> str:
    text = p.zh.read_text(encoding="utf-8")
    record = read_record(text, p.label)
    if record is None:
        raise TranslationError(f"{p.label} has no translation record yet; record it first (`make translation`)")
    if not changed_sections(section_hashes(p.en.read_text(encoding="utf-8")), record):
        raise TranslationError(f"{p.label} follows en/{p.slug}.md; there is nothing to mark pending")
    block = render_record(record.en, record.zh, pending=True)
    p.zh.write_text(with_record(text, block), encoding="utf-8")
    return f"{p.label}: marked pending; the built page says that en/{p.slug}.md has changed"


def update_all(docs_dir: Path = DOCS_DIR, out=print) -> tuple[list[str], list[str]]:
    """Record every pair that is behind and whose changed sections all have zh edits (after a merge);
    returns (what was recorded, why the others were refused). Nothing is asked: a changed section
    without a zh edit needs a person (`update <slug>`)."""
    done, refused = [], []
    for p in pairs(docs_dir):
        record = read_record(p.zh.read_text(encoding="utf-8"), p.label)
        if record is None or record.pending:
            continue
        if changed_sections(section_hashes(p.en.read_text(encoding="utf-8")), record):
            try:
                done += update(p, {}, out=out)
            except TranslationError as error:
                refused.append(str(error))
    return done, refused


def record_after_merge(docs_dir: Path) -> tuple[list[str], list[str]]:
    """`new`, then `update --all`: what a maintainer runs after merging a branch."""
    done, refused = update_all(docs_dir, out=lambda _: None)
    return record_new(docs_dir) + done, refused
