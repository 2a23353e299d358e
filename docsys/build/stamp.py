"""The "verified with" stamp under a page's title, computed from the recordings the page shows.

Per platform, the torch version the examples were recorded with and the date of the oldest
recording: "Verified with: CPU — torch 2.13.0+cpu, 2026-11-30 · GPU — NVIDIA H200, torch 2.11.0,
2026-12-01", or "GPU examples not yet recorded". The GPU machine's torch differs from the CPU pin
by design; what is flagged is recordings of ONE platform that disagree (two torch versions among
the CPU recordings of a page): the stamp names both, and the build warns, so a strict build fails
until the page is recorded with one version. Nothing in it is typed by hand.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from docsys.build.strings import strings
from docsys.core import recording
from docsys.core.snippet import Snippet


@dataclass(frozen=True)
class Platform:
    name: str  # "CPU" or the GPU's name
    versions: tuple[str, ...]  # torch versions of its recordings, sorted
    oldest: str  # date of its oldest recording


def recordings(snippets: list[Snippet]) -> tuple[list[recording.Record], bool]:
    """The recordings of these snippets, and whether a GPU snippet among them is not yet recorded."""
    found, gpu_missing = [], False
    for snippet in dict.fromkeys(snippets):
        rec = recording.read(snippet) if recording.state(snippet) != recording.MISSING else None
        if rec is None:
            gpu_missing |= snippet.platform == "cuda"
        else:
            found.append(rec)
    return found, gpu_missing


def platforms(records: list[recording.Record]) -> dict[str, Platform]:
    """Per platform (`cpu`, `cuda`): its name, torch versions and oldest recording."""
    found: dict[str, list[recording.Record]] = {}
    for rec in records:
        found.setdefault(rec.platform, []).append(rec)
    result = {}
    for kind, recs in found.items():
        name = "CPU" if kind == "cpu" else (recs[0].host.get("gpu") or "GPU")
        result[kind] = Platform(name, tuple(sorted({r.torch for r in recs})), min(r.date for r in recs))
    return result


def stamp(records: list[recording.Record], gpu_missing: bool, lang: str) -> tuple[str | None, list[str]]:
    """The stamp's HTML (None for a page without recorded examples), and the disagreements found."""
    s = strings(lang)
    recorded = platforms(records)
    if not recorded and not gpu_missing:
        return None, []
    parts, problems = [], []
    for kind in ("cpu", "cuda"):
        if kind in recorded:
            p = recorded[kind]
            parts.append(s["stamp_platform"].format(name=p.name, torch=" / ".join(p.versions), date=p.oldest))
            if len(p.versions) > 1:
                problems.append(f"{p.name} recordings disagree: torch {', '.join(p.versions)}; re-record them "
                                "with one version")
    if gpu_missing:
        parts.append(s["stamp_gpu_partial" if "cuda" in recorded else "stamp_gpu_missing"])
    text = s["stamp"].format(parts=" · ".join(parts))
    return f'<p class="verified-with">{html.escape(text)}</p>', problems
