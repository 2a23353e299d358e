"""What changed on the site, per language: the changelog pages (`::: changelog`) and their RSS feeds.

An entry is one page on one day, read from the history (docsys.build.history) with the project's own
map of a page to its examples: the snippets a page shows (`::: example`, docsys.core.text), the
recorded outputs it includes on their own, and the graphs and figures it draws. For that page and day it says:

- "New page": the day docs/<lang>/<slug>.md first appeared (the other language has its own day);
- "Text revised": that language's page itself was edited;
- per example, from which of its files changed: its output changed (its `.out`, the compared form), was
  recorded for the first time (`.out` added: a new example, or a GPU example's first GPU run) or its
  recording was removed (`.out` deleted, not recorded again yet; an empty `.out` is a placeholder, not a
  recording); a record rewritten with its `recorded_at` unchanged (a format migration) is no run, nor is
  the `.out` rewritten with it a new output; its code changed
  with the same compared output, or with no output recorded yet; it ran again (`.record.json` only): a
  benchmark is "re-measured" (its shown numbers may differ), another example printed the very same text
  (the `printed` digests of the two record versions agree) or printed text that differs only where the
  tests mask it (timings, addresses); its graph or figure data changed (on the pages that draw it);
- for entries whose recordings changed, the torch versions and platforms (CPU, GPU) of those recordings
  at the end of that day (their provenance). Text-only entries name none.

Days are newest first. Changes not yet committed come first, under their own heading. Pages that no
longer exist are left out (nothing to link to). Without history (docsys.build.history says why) the
page says so in one line and lists every page with the torch version of its recordings, undated.

The feed (`feed-<lang>.xml` at the site's root, one RSS 2.0 item per entry) is written by the hook
docsys/build/feed.py. It sits beside /sitemap.xml on purpose: overrides/main.html says why.
"""

from __future__ import annotations

import email.utils
import functools
import hashlib
import json
import logging
import posixpath
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from docsys.build import history
from docsys.build.config import page_of
from docsys.build.files import write_atomically
from docsys.build.strings import STRINGS_FILE, strings
from docsys.core.paths import page_lang
from docsys.core.snippet import BENCH_GLOB, SnippetHeaderError
from docsys.core.snippet import load as load_snippet
from docsys.core.text import example_directives, heading_title, headings, inside_fences

log = logging.getLogger("mkdocs.extensions.changelog")
DIRECTIVE_RE = re.compile(r"^:::[ \t]+changelog[ \t]*$")
BENCHMARKS_RE = re.compile(r"^[ \t]*:::[ \t]+benchmarks[ \t]*$")  # as docsys.build.examples reads it
OUT_INCLUDE_RE = re.compile(r'^\s*--8<--\s+"(?P<target>[^"]+)\.out"\s*$')  # as docsys.build.examples reads it
DRAWN_RE = re.compile(r"\]\((?:graph|figure):(?P<snippet>[^#)\s]+\.py)#")
RECORDING_RE = re.compile(r"^(?P<snippet>.+?)(?:\.[\w-]+\.dot|\.[\w-]+\.figure\.json|\.record\.json|\.out)$")
UNCOMMITTED = "uncommitted"
EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"  # git's blob of an empty file: a placeholder `.out`
SHOWN_NAMES = 3  # examples named in one sentence before "and N more"
SHOWN_ENTRIES = 150  # on the page, in whole days (docsys/checks/site.py holds the page to its element budget)


@dataclass
class Entry:
    day: str  # YYYY-MM-DD, or UNCOMMITTED
    slug: str
    when: str = ""  # the latest commit's date and time (ISO 8601), for the feed
    new: bool = False
    text: bool = False
    outputs: set[str] = field(default_factory=set)  # snippets (relative to snippets/) whose output changed
    added: set[str] = field(default_factory=set)  # output recorded for the first time (a new example, a GPU one)
    removed: set[str] = field(default_factory=set)  # `.out` deleted (not an empty placeholder): not recorded now
    code: set[str] = field(default_factory=set)  # code changed, same output (as the tests compare it)
    unrecorded: set[str] = field(default_factory=set)  # code changed, no output recorded yet (a GPU example)
    rerecorded: set[str] = field(default_factory=set)  # ran again, printed exactly the same text
    reprinted: set[str] = field(default_factory=set)  # ran again, printed text differs in what tests mask
    remeasured: set[str] = field(default_factory=set)  # a benchmark ran again: its numbers may differ
    redrawn: set[str] = field(default_factory=set)  # graph or figure data changed
    recorded_with: dict[str, list] = field(default_factory=dict)  # snippet -> [torch, platform] at day's end
    torch: tuple[str, ...] = ()  # of the recordings that changed (settled)
    platforms: tuple[str, ...] = ()  # "cpu", "cuda" of those recordings (settled)


KIND_SETS = ("outputs", "added", "removed", "code", "unrecorded", "rerecorded", "reprinted", "remeasured", "redrawn")
RECORDING_KINDS = ("outputs", "added", "rerecorded", "reprinted", "remeasured", "redrawn")  # a run of today's torch


@dataclass(frozen=True)
class Changelog:
    entries: tuple[Entry, ...]  # newest first
    pages: dict[str, tuple[str, ...]]  # every page (slug) -> the torch versions of its recordings now
    problem: str | None  # why there is no history (then entries is empty)
    titles: dict[str, str] = field(default_factory=dict)  # every page (slug) -> its title
    platforms: dict[str, tuple[str, ...]] = field(default_factory=dict)  # every page -> its recordings' platforms
    waiting: dict[str, int] = field(default_factory=dict)  # every page -> its GPU examples not yet recorded


def shown_snippets(markdown: str, snippets_dir: Path) -> set[str]:
    """The snippets (relative to snippets/) whose code or recordings the page shows: its examples, the
    recorded outputs it includes on their own (inside a fence too, as docsys.build.examples reads them),
    the graphs and figures it draws, and for `::: benchmarks` every benchmark (docsys.build.tables)."""
    lines = markdown.split("\n")
    shown = {d.snippet for d in example_directives(lines)}
    shown |= {m["target"] + ".py" for line in lines if (m := OUT_INCLUDE_RE.match(line))}
    fenced = inside_fences(lines)
    if any(i not in fenced and BENCHMARKS_RE.match(line) for i, line in enumerate(lines)):
        shown |= {p.relative_to(snippets_dir).as_posix() for p in snippets_dir.rglob(BENCH_GLOB)}
    return shown | set(DRAWN_RE.findall(markdown))


def _snippet_of(rel: str) -> tuple[str, str] | None:
    """(snippet, file) for a file under snippets/: file is "code", "output", "record" or "drawing"."""
    if rel.endswith(".py"):
        return rel, "code"
    m = RECORDING_RE.match(rel)
    if m is None:
        return None
    file = "output" if rel.endswith(".out") else "record" if rel.endswith(".record.json") else "drawing"
    return m["snippet"] + ".py", file


def is_benchmark(snippet: str) -> bool:
    """As docsys.core.snippet Snippet.is_benchmark: its shown numbers are measurements."""
    return PurePosixPath(snippet).match(BENCH_GLOB)


def _record_facts(docs_dir: Path, snippet: str) -> dict | None:
    record = docs_dir.parent / "snippets" / snippet.removesuffix(".py")
    path = record.with_name(record.name + ".record.json")
    return history.record_facts(path.read_text(encoding="utf-8")) if path.is_file() else None


def _waits_for_a_gpu(snippets_dir: Path, snippet: str) -> bool:
    """A GPU example (docsys.core.snippet marks) with no recorded output yet: its page shows none."""
    path = snippets_dir / snippet
    if not path.is_file() or path.with_suffix(".out").is_file():
        return False
    try:
        return load_snippet(path, snippets_dir).platform == "cuda"
    except SnippetHeaderError:  # the snippet tests say so; the changelog only counts
        return False


class _Walk:
    """Entries of one language, commit by commit, oldest first."""

    def __init__(
        self,
        lang: str,
        shows: dict[str, set[str]],
        records: dict[str, dict],
        docs_dir: Path,
        draws: dict[str, set[str]] | None = None,
    ) -> None:
        self.lang, self.shows, self.records_of_blob, self.docs_dir = lang, shows, records, docs_dir
        self.shown_on: dict[str, set[str]] = {}
        for slug, snippets in shows.items():
            for snippet in snippets:
                self.shown_on.setdefault(snippet, set()).add(slug)
        self.drawn_on: dict[str, set[str]] = {}  # a graph or figure changes only the pages that draw it
        for slug, snippets in (draws or {}).items():
            for snippet in snippets:
                self.drawn_on.setdefault(snippet, set()).add(slug)
        self.rewritten: set[str] = set()  # snippets whose record this commit rewrote without a run
        self.seen: set[str] = set()
        self.record: dict[str, dict] = {}  # snippet -> record_facts of its recording at this point
        self.recorded: set[str] = set()  # snippets with a recorded output at this point
        self.ever_recorded: set[str] = set()  # snippets that had a recorded output before this point
        self.entries: dict[tuple[str, str], Entry] = {}

    def commit(self, day: str, when: str, changes: tuple[history.Change, ...]) -> None:
        self.rewritten = {s for change in changes if (s := self._rewritten(change))}
        touched = set()
        for change in changes:
            touched |= self._change(day, change)
        for slug in touched:
            entry = self.entries[day, slug]
            entry.when = max(entry.when, when)
            entry.recorded_with = {
                s: [facts.get("torch"), facts.get("platform")]
                for s in sorted(self.shows[slug])
                if (facts := self.record.get(s))
            }

    def _rewritten(self, change: history.Change) -> str | None:
        """The snippet whose `.record.json` this change rewrites with the same `recorded_at` (a format
        migration, e2f2290: no example ran, and its `.out` rewritten with it is not a new output)."""
        found = _snippet_of(change.path.removeprefix("snippets/")) if change.path.startswith("snippets/") else None
        if found is None or found[1] != "record" or change.status != "M":
            return None
        before, after = self.record.get(found[0]), self._facts(found[0], change)
        at = before and before.get("recorded_at")
        return found[0] if at and after and after.get("recorded_at") == at else None

    def _facts(self, snippet: str, change: history.Change) -> dict | None:
        if change.blob != history.NO_BLOB:
            return self.records_of_blob.get(change.blob)
        return _record_facts(self.docs_dir, snippet)

    def _entry(self, day: str, slug: str) -> Entry:
        return self.entries.setdefault((day, slug), Entry(day, slug))

    def _change(self, day: str, change: history.Change) -> set[str]:
        page_dir = f"docs/{self.lang}/"
        if change.path.startswith(page_dir) and change.path.endswith(".md"):
            slug = change.path[len(page_dir) : -3]
            if slug not in self.shows or change.status == "D":
                return set()
            entry = self._entry(day, slug)
            entry.new |= slug not in self.seen
            entry.text |= slug in self.seen
            self.seen.add(slug)
            return {slug}
        found = _snippet_of(change.path.removeprefix("snippets/")) if change.path.startswith("snippets/") else None
        if found is None:
            return set()
        snippet, file = found
        kind = self._kind(snippet, file, change)
        if kind is None:
            return set()
        slugs = self.shown_on.get(snippet, set())
        if kind == "redrawn":
            slugs = slugs & self.drawn_on.get(snippet, set())
        for slug in slugs:
            getattr(self._entry(day, slug), kind).add(snippet)
        return slugs

    def _kind(self, snippet: str, file: str, change: history.Change) -> str | None:
        """Which of Entry's sets a changed file of a snippet goes in (None: nothing a reader is told)."""
        if file == "output":
            return self._output_kind(snippet, change)
        if file == "code":
            return "code" if snippet in self.recorded else "unrecorded"
        if file == "drawing":
            return "redrawn"
        return self._record_kind(snippet, change)

    def _output_kind(self, snippet: str, change: history.Change) -> str | None:
        """An empty `.out` is a placeholder, not a recording: adding one records nothing, removing one
        removes nothing. A `.out` rewritten with a record that did not run (`rewritten`) is no new output."""
        if change.status == "D" or self._placeholder(snippet, change):
            if snippet not in self.recorded:
                return None
            self.recorded.discard(snippet)
            return "removed"
        if snippet in self.rewritten and snippet in self.recorded:
            return None
        first = snippet not in self.ever_recorded
        self.ever_recorded.add(snippet)
        self.recorded.add(snippet)
        return "added" if first else "outputs"

    def _placeholder(self, snippet: str, change: history.Change) -> bool:
        if change.blob != history.NO_BLOB:
            return change.blob == EMPTY_BLOB
        path = self.docs_dir.parent / "snippets" / Path(snippet).with_suffix(".out")
        return path.is_file() and path.stat().st_size == 0

    def _record_kind(self, snippet: str, change: history.Change) -> str | None:
        before = self.record.pop(snippet, None)
        if change.status == "D":
            return None  # its `.out` goes too, and says so
        after = self._facts(snippet, change)
        if after:
            self.record[snippet] = after
        if snippet in self.rewritten:
            return None  # the same recording in a new format: nothing ran
        if is_benchmark(snippet):
            return "remeasured"
        if not (before and after and before.get("printed") and after.get("printed")):
            return None  # no earlier printed text to compare with: the `.out`, if it changed, says so
        return "rerecorded" if before["printed"] == after["printed"] else "reprinted"


def _settled(entry: Entry) -> Entry:
    """What a reader is told: a new page is new (its first recordings are part of it); an output that
    changed, or was first recorded or removed, is not also told as code changed or re-recorded; the torch
    versions and platforms are those of the recordings that changed (none when none did)."""
    if entry.new:  # its torch: that of every recording it shows
        for kind in KIND_SETS:
            setattr(entry, kind, set())
        entry.text = False
    again = entry.removed & entry.added  # removed and recorded again the same day: its output changed
    entry.outputs |= again
    entry.removed -= again
    entry.added -= again | entry.outputs
    recorded = entry.outputs | entry.added | entry.removed
    entry.unrecorded -= recorded  # recorded later that day, or the recording's removal says it
    entry.code -= recorded
    entry.rerecorded -= recorded | entry.code
    entry.reprinted -= recorded | entry.code
    entry.remeasured -= recorded
    runs = set(entry.recorded_with) if entry.new else set().union(*(getattr(entry, k) for k in RECORDING_KINDS))
    facts = [entry.recorded_with[s] for s in sorted(runs) if s in entry.recorded_with]
    entry.torch = tuple(sorted({torch for torch, _ in facts if torch}))
    entry.platforms = tuple(sorted({platform for _, platform in facts if platform}))
    return entry


def build(docs_dir: Path, lang: str, past: history.History) -> Changelog:
    """The changelog of one language from the pages in docs_dir/<lang>/ and the project's history."""
    pages = sorted((docs_dir / lang).glob("*.md"))
    snippets_dir = docs_dir.parent / "snippets"
    texts = {p.stem: p.read_text(encoding="utf-8") for p in pages}
    shows = {slug: shown_snippets(text, snippets_dir) for slug, text in texts.items()}
    draws = {slug: set(DRAWN_RE.findall(text)) for slug, text in texts.items()}
    facts = {
        slug: [f for s in sorted(snippets) if (f := _record_facts(docs_dir, s))] for slug, snippets in shows.items()
    }
    now = {slug: tuple(sorted({f["torch"] for f in found if f["torch"]})) for slug, found in facts.items()}
    platforms = {slug: tuple(sorted({f["platform"] for f in found if f["platform"]})) for slug, found in facts.items()}
    waiting = {slug: sum(_waits_for_a_gpu(snippets_dir, s) for s in snippets) for slug, snippets in shows.items()}
    titles = page_titles(docs_dir, lang)
    if past.problem:
        return Changelog((), now, past.problem, titles, platforms, waiting)
    walk = _Walk(lang, shows, past.records, docs_dir, draws)
    for commit in past.commits:
        walk.commit(commit.date, commit.when, commit.changes)
    if past.uncommitted:
        walk.commit(UNCOMMITTED, "", past.uncommitted)
    entries = [_settled(e) for e in walk.entries.values()]
    entries = [e for e in entries if _kinds(e)]
    return Changelog(tuple(_ordered(entries)), now, None, titles, platforms, waiting)


def _ordered(entries: list[Entry]) -> list[Entry]:
    """Not yet committed first, then days newest first; pages A-Z within a day (a stable sort keeps them)."""
    by_slug = sorted(entries, key=lambda e: e.slug)
    return sorted(by_slug, key=lambda e: (e.day == UNCOMMITTED, e.day), reverse=True)


# Words ------------------------------------------------------------------------------------------------------


def _name(snippet: str, slug: str) -> str:
    """How a sentence names an example: its file name on its own page's folder, else with its folder."""
    folder, _, name = snippet.rpartition("/")
    return f"`{name}`" if folder == slug else f"`{snippet}`"


def _names(snippets: set[str], slug: str, s: dict[str, str]) -> str:
    named = [_name(x, slug) for x in sorted(snippets)]
    if len(named) > SHOWN_NAMES + 1:
        return s["changelog_and_more"].format(
            names=s["changelog_list_sep"].join(named[:SHOWN_NAMES]), count=len(named) - SHOWN_NAMES, total=len(named)
        )
    return s["changelog_list_sep"].join(named)


def _kinds(entry: Entry) -> list[tuple[str, set[str] | None]]:
    """The kinds of change of an entry, in the order a reader is told them: (strings.yml key, examples)."""
    kinds = [("changelog_new", None)] if entry.new else []
    kinds += [("changelog_text", None)] if entry.text else []
    return kinds + [
        (key, found)
        for key, found in (
            ("changelog_outputs", entry.outputs),
            ("changelog_added", entry.added),
            ("changelog_removed", entry.removed),
            ("changelog_code", entry.code),
            ("changelog_unrecorded", entry.unrecorded),
            ("changelog_remeasured", entry.remeasured),
            ("changelog_reprinted", entry.reprinted),
            ("changelog_rerecorded", entry.rerecorded),
            ("changelog_redrawn", entry.redrawn),
        )
        if found
    ]


def summary(entry: Entry, lang: str) -> str:
    """The kinds of change in a few words (a feed item's title)."""
    s = strings(lang)
    return s["changelog_list_sep"].join(dict.fromkeys(s[key + "_short"] for key, _ in _kinds(entry)))


def sentences(entry: Entry, lang: str) -> list[str]:
    """What changed, in the reader's words (Markdown: example names are inline code)."""
    s = strings(lang)
    found = [s[key].format(names=_names(names, entry.slug, s)) if names else s[key] for key, names in _kinds(entry)]
    if entry.torch:
        found.append(_recorded_with(entry.torch, entry.platforms, s))
    return found


def _recorded_with(torch: tuple[str, ...], platforms: tuple[str, ...], s: dict[str, str]) -> str:
    """The provenance of recordings in words ("Recorded with torch X on CPU."), platforms from strings.yml."""
    where = s["changelog_list_sep"].join(s.get(f"changelog_platform_{p}", p) for p in platforms)
    return s["changelog_torch"].format(torch=" / ".join(torch), platforms=where or s["changelog_platform_unknown"])


def page_titles(docs_dir: Path, lang: str) -> dict[str, str]:
    """Each page's own title (its first heading), in the language's folder."""
    titles = {}
    for path in sorted((docs_dir / lang).glob("*.md")):
        first = [heading_title(h.text) for h in headings(path.read_text(encoding="utf-8")) if h.level == 1]
        titles[path.stem] = first[0] if first else path.stem
    return titles


def day_heading(day: str, lang: str) -> tuple[str, str]:
    """(text, anchor) of a day's heading."""
    return (strings(lang)["changelog_uncommitted"], "uncommitted") if day == UNCOMMITTED else (day, f"d{day}")


def _every_page(log_: Changelog, lang: str, titles: dict[str, str]) -> list[str]:
    s = strings(lang)
    rows = []
    for slug, versions in sorted(log_.pages.items(), key=lambda item: titles.get(item[0], item[0]).lower()):
        link = f"[{titles.get(slug, slug)}]({slug}.md)"
        said = [_recorded_with(versions, log_.platforms.get(slug, ()), s)] if versions else []
        said += [s["changelog_waiting"].format(count=n)] if (n := log_.waiting.get(slug)) else []
        changes = s["changelog_sentence_sep"].join(said)
        rows.append("- " + (s["changelog_entry"].format(page=link, changes=changes) if said else link))
    return rows


def shown_entries(entries: tuple[Entry, ...]) -> tuple[Entry, ...]:
    """The newest whole days, up to about SHOWN_ENTRIES entries (the page's element budget; the feed has them all)."""
    shown: list[Entry] = []
    for entry in entries:
        if len(shown) >= SHOWN_ENTRIES and entry.day != shown[-1].day:
            break
        shown.append(entry)
    return tuple(shown)


def markdown_lines(log_: Changelog, lang: str, titles: dict[str, str], feed_href: str) -> list[str]:
    """The changelog as Markdown, for a page in the same folder as the pages it links."""
    s = strings(lang)
    out = [
        f'<p class="changelog-feed"><a href="{feed_href}" type="application/rss+xml">{s["changelog_feed"]}</a></p>',
        "",
    ]
    if log_.problem:
        out += [f'!!! note "{s["changelog_no_history_title"]}"', "", f"    {s['changelog_no_history']}", ""]
    day = None
    shown = shown_entries(log_.entries)
    for entry in shown:
        if entry.day != day:
            day = entry.day
            text, anchor = day_heading(day, lang)
            out += ["", f"## {text} {{ #{anchor} }}", ""]
        link = f"[{titles.get(entry.slug, entry.slug)}]({entry.slug}.md)"
        changes = s["changelog_sentence_sep"].join(sentences(entry, lang))
        out.append("- " + s["changelog_entry"].format(page=link, changes=changes))
    if len(shown) < len(log_.entries):
        out += ["", s["changelog_older"].format(count=len(log_.entries) - len(shown))]
    return [*out, "", f"## {s['changelog_every_page']} {{ #every-page }}", "", *_every_page(log_, lang, titles), ""]


# The feed ---------------------------------------------------------------------------------------------------


def _plain(sentence: str) -> str:
    return sentence.replace("`", "")


def _rfc822(entry: Entry) -> str:
    when = datetime.fromisoformat(entry.when) if entry.when else None
    return email.utils.format_datetime(when) if when else ""


def feed(log_: Changelog, lang: str, titles: dict[str, str], site_url: str, lang_root: str, channel_title: str) -> str:
    """The changelog as an RSS 2.0 document; every link absolute, from site_url, into `lang_root`."""
    s = strings(lang)
    base = site_url.rstrip("/") + "/" + lang_root
    changelog_url = f"{base}{CHANGELOG_SLUG}/"
    rss = ET.Element("rss", version="2.0")
    channel = ET.SubElement(rss, "channel")
    for tag, text in (
        ("title", channel_title),
        ("link", changelog_url),
        ("description", s["changelog_feed_about"]),
        ("language", s["changelog_feed_language"]),
    ):
        ET.SubElement(channel, tag).text = text
    dated = [e for e in log_.entries if e.day != UNCOMMITTED]
    if dated:
        ET.SubElement(channel, "lastBuildDate").text = _rfc822(max(dated, key=lambda e: e.when))
    for entry in dated:
        item = ET.SubElement(channel, "item")
        ET.SubElement(item, "title").text = s["changelog_item"].format(
            page=titles.get(entry.slug, entry.slug), changes=summary(entry, lang)
        )
        ET.SubElement(item, "link").text = base if entry.slug == "index" else f"{base}{entry.slug}/"
        ET.SubElement(item, "description").text = s["changelog_sentence_sep"].join(map(_plain, sentences(entry, lang)))
        ET.SubElement(item, "pubDate").text = _rfc822(entry)
        guid = ET.SubElement(item, "guid", isPermaLink="false")
        guid.text = f"{changelog_url}#{day_heading(entry.day, lang)[1]}/{entry.slug}"
    ET.indent(rss)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(rss, encoding="unicode") + "\n"


# Where things are ------------------------------------------------------------------------------------------

CHANGELOG_SLUG = "changelog"


def feed_name(lang: str) -> str:
    """The feed's file at the site's root, beside sitemap.xml (overrides/main.html says why)."""
    return f"feed-{lang}.xml"


_memo: dict[tuple[str, str], Changelog] = {}


def _to_json(log_: Changelog) -> dict:
    entries = [{**vars(e), **{k: sorted(v) for k, v in vars(e).items() if isinstance(v, set)}} for e in log_.entries]
    return {
        "entries": entries,
        "pages": log_.pages,
        "problem": log_.problem,
        "titles": log_.titles,
        "platforms": log_.platforms,
        "waiting": log_.waiting,
    }


def _from_json(data: dict) -> Changelog:
    tuples = ("torch", "platforms")
    entries = tuple(
        Entry(**{**e, **{k: set(e[k]) for k in KIND_SETS}, **{k: tuple(e[k]) for k in tuples}}) for e in data["entries"]
    )
    pages = {slug: tuple(versions) for slug, versions in data["pages"].items()}
    platforms = {slug: tuple(found) for slug, found in data["platforms"].items()}
    return Changelog(entries, pages, data["problem"], data["titles"], platforms, data["waiting"])


@functools.cache
def _code_key() -> str:
    """What decides a cached page or feed besides the history: this code and the words it writes."""
    sources = (Path(__file__), Path(history.__file__), STRINGS_FILE)
    return hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()[:12]


def cache_path(root: Path, name: str, key: str) -> Path:
    return root / history.CACHE_DIR / f"{name}-{_code_key()}-{key}"


def cached_text(path: Path, make) -> str:
    """The text cached at `path` (cache_path), else `make()` written there, replacing the older ones of its name."""
    if path.is_file():
        return path.read_text(encoding="utf-8")
    text = make()
    for old in path.parent.glob(path.name.rsplit("-", 2)[0] + "-*"):  # <name>-<code>-<key>
        old.unlink(missing_ok=True)
    write_atomically(path, text)
    return text


def changelog(docs_dir: Path, lang: str) -> Changelog:
    """This build's changelog of `lang`: read once per build (docsys/build/feed.py forgets it at each start),
    and cached in .cache/changelog/ by the history's key (HEAD and the uncommitted files)."""
    memo = (str(docs_dir), lang)
    if memo not in _memo:
        root = docs_dir.resolve().parent
        past = _history(root)
        if past.problem:  # nothing to key a cache by: reads every page and recording (~0.1 s)
            _memo[memo] = build(docs_dir, lang, past)
        else:
            path = cache_path(root, f"changelog-{lang}", f"{past.key}.json")
            text = cached_text(path, lambda: json.dumps(_to_json(build(docs_dir, lang, past)), ensure_ascii=False))
            _memo[memo] = _from_json(json.loads(text))
    return _memo[memo]


_history_memo: dict[str, history.History] = {}


def _history(root: Path) -> history.History:
    if str(root) not in _history_memo:
        past = history.read(root)
        if past.problem:
            log.info(
                f"changelog: {past.problem}: the changelog pages list every page undated, with the torch "
                "version of its recordings; build from a full clone (git clone without --depth; in GitHub "
                "Actions, checkout with fetch-depth: 0) to date them"
            )
        _history_memo[str(root)] = past
    return _history_memo[str(root)]


def history_of(docs_dir: Path) -> history.History:
    """This build's history of the project whose pages are in docs_dir."""
    return _history(docs_dir.resolve().parent)


def forget() -> None:
    _memo.clear()
    _history_memo.clear()


# The Markdown extension -------------------------------------------------------------------------------------


class ChangelogPreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        fenced = inside_fences(lines)
        if not any(i not in fenced and DIRECTIVE_RE.match(line) for i, line in enumerate(lines)):
            return lines
        return [
            row
            for i, line in enumerate(lines)
            for row in (self._changelog() if i not in fenced and DIRECTIVE_RE.match(line) else [line])
        ]

    def _changelog(self) -> list[str]:
        file = getattr(self.md.treeprocessors["relpath"], "file", None) if "relpath" in self.md.treeprocessors else None
        if file is None or not file.abs_src_path:
            log.warning(f"{page_of(self.md)}: '::: changelog' needs a page of a MkDocs build")
            return []
        lang = page_lang(file.src_uri)
        docs_dir = Path(file.abs_src_path).parent.parent  # the changelog page sits in its language's folder
        href = posixpath.relpath(feed_name(lang), file.url.rstrip("/") or ".")  # the page is a folder
        log_ = changelog(docs_dir, lang)
        return ["", *markdown_lines(log_, lang, log_.titles, href), ""]


class ChangelogExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        md.preprocessors.register(ChangelogPreprocessor(md), "changelog", 34)


def makeExtension(**kwargs) -> ChangelogExtension:
    return ChangelogExtension(**kwargs)
