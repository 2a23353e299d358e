"""Translation freshness: a zh page that has fallen behind its en page fails the suite, unless it
says so (`pending: true`, and the build then shows a notice on it). The record is docsys.translations.records.

    python -m docsys.translations status             every page pair: current, behind, pending, new
    python -m docsys.translations update <slug>      after bringing zh/<slug>.md in step with en
        [--unchanged ANCHOR="reason" ...]                   an en change that needs no zh change, and why
    python -m docsys.translations new                record every zh page that has no record yet
    python -m docsys.translations update --all       every pair behind whose changed sections all have zh edits
    python -m docsys.translations merged             after merging a branch: new, then update --all
    python -m docsys.translations pending <slug>     publish zh/<slug>.md behind en, with a notice

`update` cannot be run blind. For each en section that changed since the recorded version it shows
the en diff (the old text comes from git history, found by its hash) and requires either an edit of
the matching zh section since it was last recorded, or an explicit `--unchanged ANCHOR="reason"`
(asked for interactively on a terminal); otherwise it refuses and writes nothing.

The modules: cli.py (the command; __main__.py runs it) -> update.py (recording: update, new,
merged, pending) -> check.py (the page pairs, their records, and what fails the suite).
"""
