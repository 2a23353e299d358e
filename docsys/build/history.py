"""The project's history as the changelog reads it: which page and snippet files each commit touched.

One walk per HEAD: `git log --raw` over docs/<lang>/ and snippets/ (oldest commit first), and one
`git cat-file --batch` for what the changelog reads from every version of every `.record.json` it
names (record_facts: the torch version and platform of the recording's provenance, docsys.core.recording,
and a digest of the output it printed, which is what a page shows). Both are cached in `.cache/changelog/` by the
HEAD commit, so a warm build runs only `git rev-parse` and `git status` (what is not yet committed,
which is never cached). `History.key` names what anything built from the history depends on (HEAD,
and each uncommitted file's size and time); docsys.build.changelog caches its pages and feeds by it.

Without history there is nothing to date: no `.git` (a source tarball), no git, or a shallow
clone (CI's default `fetch-depth: 1`, where every file would look added by the one commit there
is). Then `History.problem` says which, in one line, and the changelog lists the pages undated.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from docsys.build.files import write_atomically

CACHE_DIR = Path(".cache") / "changelog"
FORMAT = 3  # of the cached walk: bump when what is cached changes
PATHS = ("docs/en", "docs/zh", "snippets")
COMMIT_MARK = "\x00"
NO_BLOB = "0" * 40
GIT = shutil.which("git") or "git"


@dataclass(frozen=True)
class Change:
    status: str  # "A", "M" or "D" (renames are walked as a deletion and an addition)
    path: str  # from the repository's root: docs/en/autograd.md, snippets/autograd/backward.out
    blob: str  # the file's new blob (NO_BLOB for a deletion, or for a change not yet committed)


@dataclass(frozen=True)
class Commit:
    sha: str
    when: str  # committer date, ISO 8601 with its offset
    changes: tuple[Change, ...]

    @property
    def date(self) -> str:
        return self.when[:10]


@dataclass(frozen=True)
class History:
    uncommitted: tuple[Change, ...] = ()  # changes in the working tree and the index, not yet committed
    problem: str | None = None  # why there is no history to read (then there are no commits)
    key: str = ""  # what anything built from this history depends on: HEAD and the uncommitted files
    root: Path | None = None
    head: str = ""
    cache_dir: Path | None = None

    @functools.cached_property
    def _walked(self) -> tuple[tuple[Commit, ...], dict[str, dict]]:
        """Walked (or read from the cache) only when asked: a build whose changelog is cached never is."""
        if self.problem or self.root is None or self.cache_dir is None:
            return (), {}
        return _cached_walk(self.root, self.head, self.cache_dir)

    @property
    def commits(self) -> tuple[Commit, ...]:  # oldest first
        return self._walked[0]

    @property
    def records(self) -> dict[str, dict]:  # a .record.json blob -> its record_facts
        return self._walked[1]


class GitError(Exception):
    pass


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            [GIT, "-C", str(root), *args], capture_output=True, text=True, encoding="utf-8", check=False
        )
    except FileNotFoundError as error:
        raise GitError("git is not installed") from error
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise GitError(lines[-1] if lines else f"git {args[0]} exited with {done.returncode}")
    return done.stdout


def parse_log(text: str) -> tuple[Commit, ...]:
    """Commits from `git log --raw --no-abbrev --format=%x00%H %cI` (%x00 is COMMIT_MARK), oldest first."""
    commits = []
    for block in text.split(COMMIT_MARK)[1:]:
        head, *lines = block.strip("\n").split("\n")
        sha, when = head.split(" ", 1)
        changes = []
        for line in lines:
            if line.startswith(":"):  # :100644 100644 <old blob> <new blob> M\t<path>
                meta, path = line.split("\t", 1)
                fields = meta.split()
                changes.append(Change(fields[4][0], path, fields[3]))
        commits.append(Commit(sha, when, tuple(changes)))
    return tuple(reversed(commits))


def parse_status(text: str) -> tuple[Change, ...]:
    """Changes from `git status --porcelain -z --no-renames`: each file by what the working tree holds."""
    changes = []
    for item in filter(None, text.split("\0")):
        code, path = item[:2], item[3:]
        status = "A" if code in ("??", "A ", "AM") else "D" if "D" in code else "M"
        changes.append(Change(status, path, NO_BLOB))
    return tuple(changes)


def parse_batch(text: str, blobs: list[str]) -> dict[str, dict]:
    """The record_facts of each record blob from `git cat-file --batch` output (unreadable ones left out)."""
    found, position = {}, 0
    for blob in blobs:
        header_end = text.index("\n", position)
        size = int(text[position:header_end].split()[2])
        body = text[header_end + 1 : header_end + 1 + size]
        position = header_end + 1 + size + 1
        if facts := record_facts(body):
            found[blob] = facts
    return found


def record_facts(record_text: str) -> dict | None:
    """What the changelog reads from a recording: its torch version and platform ("cpu" or "cuda"), and a
    digest of what it printed (the text its page shows), so two versions can be told apart cheaply, and
    when it was recorded (a new version with the same `recorded_at` is a rewrite of the file, not a run)."""
    try:
        data = json.loads(record_text)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    software = data.get("software")
    torch = software.get("torch") if isinstance(software, dict) else None
    platform = data.get("platform")
    printed = data.get("printed")
    recorded_at = data.get("recorded_at")
    return {
        "torch": torch if isinstance(torch, str) else None,
        "platform": platform if isinstance(platform, str) else None,
        # None for a record before schema 2, which kept no printed text: nothing to compare it with
        "printed": None if printed is None else _digest(printed),
        "recorded_at": recorded_at if isinstance(recorded_at, str) else None,
    }


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def _walk(root: Path) -> tuple[tuple[Commit, ...], dict[str, dict]]:
    log = _git(root, "log", "--raw", "--no-abbrev", "--no-renames", "--format=%x00%H %cI", "--", *PATHS)
    commits = parse_log(log)
    blobs = sorted(
        {c.blob for commit in commits for c in commit.changes if c.path.endswith(".record.json") and c.blob != NO_BLOB}
    )
    # cat-file counts bytes; read its output as bytes decoded once, so sizes and offsets agree
    batch = (
        subprocess.run(
            [GIT, "-C", str(root), "cat-file", "--batch"],
            input="\n".join(blobs) + "\n",
            capture_output=True,
            check=False,
            encoding="latin-1",
        ).stdout
        if blobs
        else ""
    )
    return commits, parse_batch(batch, blobs) if blobs else {}


def _cached_walk(root: Path, head: str, cache_dir: Path) -> tuple[tuple[Commit, ...], dict[str, dict]]:
    path = cache_dir / f"walk-{FORMAT}-{head}.json"
    if path.is_file():
        data = json.loads(path.read_text(encoding="utf-8"))
        commits = tuple(Commit(c["sha"], c["when"], tuple(Change(*x) for x in c["changes"])) for c in data["commits"])
        return commits, data["records"]
    commits, records = _walk(root)
    data = {
        "commits": [
            {"sha": c.sha, "when": c.when, "changes": [[x.status, x.path, x.blob] for x in c.changes]} for c in commits
        ],
        "records": records,
    }
    for old in cache_dir.glob(f"walk-{FORMAT}-*.json"):  # one HEAD at a time is enough
        old.unlink(missing_ok=True)
    write_atomically(path, json.dumps(data, separators=(",", ":")))
    return commits, records


def read(root: Path, cache_dir: Path | None = None) -> History:
    """The history of `root`'s pages and snippets, or a History saying in one line why there is none."""
    try:
        found = _git(root, "rev-parse", "--show-toplevel", "HEAD", "--is-shallow-repository")
        top, head, shallow = found.split("\n")[:3]
        if Path(top).resolve() != root.resolve():  # a source tarball unpacked inside another repository
            return History(problem=f"no git history of its own (the repository around it is {top})")
        if shallow == "true":
            return History(problem="a shallow clone (its history stops at the commits it fetched)")
        status = _git(root, "status", "--porcelain", "-z", "--no-renames", "--untracked-files=all", "--", *PATHS)
    except GitError as error:
        return History(problem=f"no git history ({error})")
    uncommitted = parse_status(status)
    return History(uncommitted, None, _key(root, head, uncommitted), root, head, cache_dir or root / CACHE_DIR)


def _key(root: Path, head: str, uncommitted: tuple[Change, ...]) -> str:
    """HEAD, and each uncommitted file by its size and modification time (an edit changes the key)."""
    parts = [str(FORMAT), head]
    for change in uncommitted:
        path = root / change.path
        stat = path.stat() if path.is_file() else None
        parts.append(f"{change.status} {change.path} {stat.st_size if stat else 0} {stat.st_mtime_ns if stat else 0}")
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:20]
