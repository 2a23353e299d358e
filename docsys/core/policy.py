"""The warnings policy: an example may not use a deprecated API unless its page shows that on purpose.

A run fails when a warning that passed the filters (shown on stderr, or caught and printed by
the snippet; seen by docsys/core/probe) is a DeprecationWarning, PendingDeprecationWarning or
FutureWarning, or a UserWarning that announces one ("is deprecated", "will raise", "will be
removed", ...) — unless the snippet's header declares it:

    # warns: FutureWarning: torch.cuda.amp.GradScaler -- the page shows the deprecation

A declaration that no warning of the run matches is reported too, so declarations cannot outlive
the deprecation they explain. Only warnings raised by the snippet's own processes count; a
library's internal deprecation that the default filters hide is not the example's doing.
"""

from __future__ import annotations

import re

from docsys.core.snippet import DeclaredWarning, Snippet

DEPRECATIONS = {"DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"}
ANNOUNCES = re.compile(
    r"\bis deprecated\b|\bwill raise\b|\bwill be removed\b|\bdeprecated in\b|\bwill (?:become|be) an error\b"
    r"|\bno longer supported\b|\bin a future (?:release|version)\b",
    re.I,
)


def is_deprecation(warning: dict) -> bool:
    return warning["category"] in DEPRECATIONS or (
        warning["category"] == "UserWarning" and bool(ANNOUNCES.search(warning["message"]))
    )


def _matches(declared: DeclaredWarning, warning: dict) -> bool:
    return declared.category == warning["category"] and declared.text in warning["message"]


def problems(snippet: Snippet, warnings: tuple[dict, ...]) -> list[str]:
    """One line per undeclared deprecation, and per declaration nothing matched."""
    found = []
    for warning in warnings:
        if is_deprecation(warning) and not any(_matches(d, warning) for d in snippet.warns):
            first = warning["message"].splitlines()[0][:160]
            found.append(
                f"{snippet.rel}: undeclared {warning['category']}: {first!r}. Use the current API, or, if the page "
                f"shows this on purpose, declare it: '# warns: {warning['category']}: <part of the message> -- <why>'"
            )
    for declared in snippet.warns:
        if not any(_matches(declared, w) for w in warnings):
            found.append(
                f"{snippet.rel}: '# warns: {declared.category}: {declared.text}' but the run raised no such warning; "
                "remove the declaration (or fix its text)"
            )
    return found
