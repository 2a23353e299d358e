"""The command line of the translation records (the package docstring lists its commands):
`python -m docsys.translations`, which `make translation` runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import docsys.translations as package
from docsys.core.paths import DOCS_DIR
from docsys.translations.check import TranslationError, pair, status
from docsys.translations.update import mark_pending, record_after_merge, record_new, update, update_all


def _reasons(items: list[str]) -> dict[str, str]:
    reasons = {}
    for item in items:
        anchor, sep, reason = item.partition("=")
        if not sep or not reason.strip():
            raise TranslationError(f'--unchanged {item!r}: write ANCHOR="reason"')
        reasons[anchor.strip().lstrip("#")] = reason.strip()
    return reasons


def main(argv: list[str] | None = None, docs_dir: Path = DOCS_DIR) -> int:
    description = package.__doc__.split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m docsys.translations", description=description)
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
            lines, refused = record_after_merge(docs_dir)
        else:
            lines = [mark_pending(pair(args.slug, docs_dir))]
    except TranslationError as error:
        print(f"refused: {error}", file=sys.stderr)
        return 1
    print("\n".join(lines) if lines else "nothing to record")
    for why in refused:
        print(f"refused: {why}", file=sys.stderr)
    return 1 if refused else 0
