"""`mkdocs serve`, the authoring loop: a recording made stale by an edit is a notice on the page.

After an author edits a snippet, its recording is stale until `make record` runs again. A strict
build (`mkdocs build --strict`, the tests) fails on that, as it must; but a strict rebuild under
`mkdocs serve` that fails leaves the server holding every request, so the browser only spins.
Under serve, then, the page shows the edited code with its last recorded output under a notice
that says so and how to re-record it (docsys.build.examples), a claim is checked against that
recording (docsys.build.claims), and the build logs this at INFO instead of warning.

An MkDocs hook (mkdocs.yml `hooks:`): it notes which command runs in docsys.build.config, which the
extensions import (MkDocs loads a hook file as a module of its own, apart from the package).
"""

from __future__ import annotations

from docsys.build import config


def on_startup(*, command: str, dirty: bool) -> None:
    config.note_command(command)
