"""Translation freshness: a zh page that has fallen behind its en page fails the suite, unless it
says so (`pending: true`, and the build then shows a notice on it). The record is docsys.core.translation.

    python -m docsys.checks.translations status             every page pair: current, behind, pending, new
    python -m docsys.checks.translations update <slug>      after bringing zh/<slug>.md in step with en
        [--unchanged ANCHOR="reason" ...]                   an en change that needs no zh change, and why
    python -m docsys.checks.translations new                record every zh page that has no record yet
    python -m docsys.checks.translations update --all       every pair behind whose changed sections all have zh edits
    python -m docsys.checks.translations merged             after merging a branch: new, then update --all
    python -m docsys.checks.translations pending <slug>     publish zh/<slug>.md behind en, with a notice

`update` cannot be run blind. For each en section that changed since the recorded version it shows
the en diff (the old text comes from git history, found by its hash) and requires either an edit of
the matching zh section since it was last recorded, or an explicit `--unchanged ANCHOR="reason"`
(asked for interactively on a terminal); otherwise it refuses and writes nothing.
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from docsys.core.paths import DEFAULT_LANG, DOCS_DIR
from docsys.core.text import sections, split_front_matter
from docsys.core.translation import Record, changed_sections, record_of, render_record, section_hashes, with_record

LANG = "zh"  # the translated language (en is the source)
GIT = shutil.which("git") or "git"
GIT_HISTORY = 200  # commits searched for the version a record names


class TranslationError(Exception):
    """Refused: one line (or one line per section) saying why and what to do."""


@dataclass(frozen=True)
class Pair:
    slug: str
    en: Path
    zh: Path

    @property
    def label(self) -> str:
        return f"{LANG}/{self.slug}.md"


def pair(slug: str, docs_dir: Path = DOCS_DIR) -> Pair:
    slug = slug.removesuffix(".md").removeprefix(f"{LANG}/").removeprefix(f"{DEFAULT_LANG}/")
    found = Pair(slug, docs_dir / DEFAULT_LANG / f"{slug}.md", docs_dir / LANG / f"{slug}.md")
    for path in (found.en, found.zh):
        if not path.is_file():
            raise TranslationError(f"{path.relative_to(docs_dir).as_posix()} does not exist")
    return found


def pairs(docs_dir: Path = DOCS_DIR) -> list[Pair]:
    """Every page that exists in both languages."""
    zh_dir = docs_dir / LANG
    slugs = [p.relative_to(zh_dir).with_suffix("").as_posix() for p in sorted(zh_dir.rglob("*.md"))]
    return [pair(s, docs_dir) for s in slugs if (docs_dir / DEFAULT_LANG / f"{s}.md").is_file()]


def read_record(text: str, label: str) -> Record | None:
    front, _ = split_front_matter(text)
    try:
        meta = yaml.safe_load("\n".join(front)) or {}
    except yaml.YAMLError as error:
        raise TranslationError(f"{label}: front matter is not valid YAML ({error})") from None
    return record_of(meta)


# --- the check -----------------------------------------------------------------------------


def problem(p: Pair) -> str | None:
    """Why a page pair fails the suite, or None."""
    record = read_record(p.zh.read_text(encoding="utf-8"), p.label)
    if record is None:
        return (f"{p.label} has no translation record: once it translates en/{p.slug}.md, record it with "
                f"`make translation` (python -m docsys.checks.translations new)")
    changed = changed_sections(section_hashes(p.en.read_text(encoding="utf-8")), record)
    if changed and not record.pending:
        return (f"{p.label} is behind en/{p.slug}.md: en changed in {_anchors(changed)}; update the translation "
                f"and run `make translation PAGE={p.slug}`, or mark it `pending: true` under `translation:` "
                f"to publish it with a notice")
    if record.pending and not changed:
        return f"{p.label} is marked pending but follows en/{p.slug}.md; run `make translation PAGE={p.slug}`"
    return None


def check_tree(docs_dir: Path = DOCS_DIR) -> list[str]:
    """Every page pair whose translation is behind without saying so, or has no record."""
    found = []
    for p in pairs(docs_dir):
        try:
            found += [why] if (why := problem(p)) else []
        except TranslationError as error:
            found.append(str(error))
    return found


def _anchors(anchors: list[str]) -> str:
    return ", ".join(f"#{a}" for a in anchors)


# --- update --------------------------------------------------------------------------------


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
        raise TranslationError(f"{p.label}: --unchanged names {_anchors(stray)}, which did not change in en "
                               f"(changed: {_anchors(changed) or 'none'})")
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


def status(docs_dir: Path = DOCS_DIR) -> list[str]:
    lines = []
    for p in pairs(docs_dir):
        record = read_record(p.zh.read_text(encoding="utf-8"), p.label)
        changed = changed_sections(section_hashes(p.en.read_text(encoding="utf-8")), record) if record else []
        state = "new (no record)" if record is None else (
            ("pending: " if record.pending else "behind: ") + _anchors(changed) if changed else "current")
        lines.append(f"{p.label:40} {state}")
    return lines


# --- command line --------------------------------------------------------------------------


def _reasons(items: list[str]) -> dict[str, str]:
    reasons = {}
    for item in items:
        anchor, sep, reason = item.partition("=")
        if not sep or not reason.strip():
            raise TranslationError(f'--unchanged {item!r}: write ANCHOR="reason"')
        reasons[anchor.strip().lstrip("#")] = reason.strip()
    return reasons


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


def _record_after_merge(docs_dir: Path) -> tuple[list[str], list[str]]:
    """`new`, then `update --all`: what a maintainer runs after merging a branch."""
    done, refused = update_all(docs_dir, out=lambda _: None)
    return record_new(docs_dir) + done, refused


def main(argv: list[str] | None = None, docs_dir: Path = DOCS_DIR) -> int:
    parser = argparse.ArgumentParser(prog="python -m docsys.checks.translations", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("status", help="every page pair: current, behind, pending or new")
    up = sub.add_parser("update", help="record zh/<slug>.md as following en/<slug>.md now")
    up.add_argument("slug", nargs="?", help="the page; without it, --all")
    up.add_argument("--all", action="store_true", help="every pair behind whose changed sections all have zh edits")
    up.add_argument("--unchanged", action="append", default=[], metavar='ANCHOR="reason"')
    sub.add_parser("new", help="record every zh page that has no record yet")
    sub.add_parser("merged", help="after merging a branch: `new`, then `update --all`")
    sub.add_parser("pending", help="mark zh/<slug>.md as behind en, with a notice").add_argument("slug")
    args = parser.parse_args(argv)
    refused: list[str] = []
    try:
        if args.command == "status":
            lines = status(docs_dir)
        elif args.command == "update" and (args.all or not args.slug):
            if args.unchanged or args.slug:
                raise TranslationError("--all updates every page and takes no slug or --unchanged")
            lines, refused = update_all(docs_dir)
        elif args.command == "update":
            ask = input if sys.stdin.isatty() else None
            lines = update(pair(args.slug, docs_dir), _reasons(args.unchanged), ask)
        elif args.command == "new":
            lines = record_new(docs_dir) or ["every zh page already has a translation record"]
        elif args.command == "merged":
            lines, refused = _record_after_merge(docs_dir)
        else:
            lines = [mark_pending(pair(args.slug, docs_dir))]
    except TranslationError as error:
        print(f"refused: {error}", file=sys.stderr)
        return 1
    print("\n".join(lines) if lines else "nothing to record")
    for why in refused:
        print(f"refused: {why}", file=sys.stderr)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
