"""Writing a language's index: the indexed copies of its pages (cached), Pagefind's run over them,
and the files search.js reads beside the index."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from mkdocs.exceptions import PluginError

from docsys.build.files import write_atomically
from docsys.build.search.document import index_document
from docsys.build.search.languages import Language

BUNDLE = "pagefind"  # the index's folder under each language's root: /pagefind/, /zh/pagefind/
TERMS = "terms.json"  # the glossary's terms of several words, which search.js joins in a query
WORDS = "words.json"  # Chinese words by log-probability ({"-9.12": "词 词"}), for search.js to segment a query
UNUSED = ("pagefind-*ui.*", "pagefind-highlight.js")  # Pagefind's own search UIs: the site uses Material's
# Word locations per index chunk (Pagefind's default: 20000, ~30 KB compressed here). A query
# fetches the chunk of each of its words: smaller chunks keep a query's download small. Pagefind
# 1.5.2 reads this from PAGEFIND_UNSTABLE_INDEX_CHUNK_SIZE (its name says it may change: recheck
# with tests/content/test_search.py's payload test when upgrading Pagefind).
INDEX_CHUNK_SIZE = 2000
CACHE_DIR = Path(".cache") / "search"  # relative to mkdocs.yml's folder
CACHE_ENV = "SEARCH_CACHE_DIR"  # overrides it (timing cold builds without emptying the shared cache)
VERSION = "12"  # bump when the indexed copy changes, to invalidate the cache
BUNDLES = "bundles"  # Pagefind's output for a set of documents, under the cache folder
KEEP_BUNDLES = 4  # the newest few: both languages, before and after an edit


def write_index(pages: dict[str, str], language: Language, bundle: Path, cache_root: Path) -> None:
    """Index one language's pages (path under its root -> article HTML) into `bundle`, with the
    files search.js reads beside it."""
    documents, words = indexed_copies(pages, language, cache_root)
    cached_pagefind(documents, bundle, cache_root / BUNDLES)
    latin_terms = [] if language.segmented else list(language.terms)  # Chinese terms are among the words
    (bundle / TERMS).write_text(json.dumps(latin_terms, ensure_ascii=False), encoding="utf-8")
    if language.segmented:
        (bundle / WORDS).write_text(json.dumps(words_by_probability(words), ensure_ascii=False), encoding="utf-8")


def words_by_probability(words: dict[str, float]) -> dict[str, str]:
    """{log-probability: its words, space-separated}: a sixth smaller gzipped than {word: log-probability},
    and every Chinese query downloads it."""
    grouped: dict[float, list[str]] = {}
    for word, logp in sorted(words.items()):
        grouped.setdefault(logp, []).append(word)
    return {str(logp): " ".join(group) for logp, group in sorted(grouped.items())}


def indexed_copies(pages: dict[str, str], language: Language, cache_root: Path) -> tuple[dict[str, str], dict]:
    """The document Pagefind indexes for each page, and its Chinese words' log-probabilities (cached per page)."""
    documents: dict[str, str] = {}
    words: dict[str, float] = {}
    for path, article in pages.items():
        key = hashlib.sha256(f"{VERSION}\0{language}\0{article}".encode()).hexdigest()[:32]
        entry = cache_root / f"{key}.json"
        try:
            document, page_words = json.loads(entry.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            document, page_words = index_document(article, language)
            write_atomically(entry, json.dumps([document, page_words], ensure_ascii=False))
        documents[path] = document
        words.update(page_words)
    return documents, words


def pagefind_binary() -> str:
    """The Pagefind binary that the `pagefind-bin-extended` package installs (requirements.txt)."""
    try:
        from pagefind_bin_extended import get_executable
    except ImportError:
        raise PluginError("search: pagefind-bin-extended is not installed; run scripts/setup.sh") from None
    return str(get_executable())


def cached_pagefind(documents: dict[str, str], bundle: Path, cache: Path) -> None:
    """run_pagefind, or a copy of what it wrote for the same documents with the same Pagefind and
    settings (a warm build indexes nothing: 0.2 s per language saved)."""
    key = hashlib.sha256(json.dumps([_pagefind_version(), INDEX_CHUNK_SIZE, UNUSED, sorted(documents.items())],
                                    ensure_ascii=False).encode()).hexdigest()[:32]
    stored = cache / key
    try:
        shutil.copytree(stored, bundle, dirs_exist_ok=True)
        os.utime(stored)  # the newest bundles are the ones kept
    except OSError:  # not stored yet (or pruned meanwhile by a concurrent build)
        run_pagefind(documents, bundle)
        _store(bundle, stored)


def _store(bundle: Path, stored: Path) -> None:
    """Keep a copy of a fresh bundle (a whole folder or none: copied aside, then renamed into place)."""
    stored.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=stored.parent, prefix=".new-") as scratch:
        shutil.copytree(bundle, Path(scratch, "bundle"))
        with contextlib.suppress(OSError):  # another build stored the same bundle first
            Path(scratch, "bundle").rename(stored)
    with contextlib.suppress(OSError):  # a concurrent build pruning too
        bundles = sorted((p for p in stored.parent.iterdir() if not p.name.startswith(".")),
                         key=lambda p: p.stat().st_mtime, reverse=True)
        for old in bundles[KEEP_BUNDLES:]:
            shutil.rmtree(old, ignore_errors=True)


def _pagefind_version() -> str:
    try:
        return importlib.metadata.version("pagefind-bin-extended")
    except importlib.metadata.PackageNotFoundError:
        return "?"


def run_pagefind(documents: dict[str, str], bundle: Path) -> None:
    """Write the documents to a scratch site and index it into `bundle` (URLs relative to its parent)."""
    with tempfile.TemporaryDirectory(prefix="search-") as scratch:
        for path, document in documents.items():
            target = Path(scratch, path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(document, encoding="utf-8")
        command = [pagefind_binary(), "--site", scratch, "--output-path", str(bundle), "--quiet"]
        env = {**os.environ, "PAGEFIND_UNSTABLE_INDEX_CHUNK_SIZE": str(INDEX_CHUNK_SIZE)}
        proc = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if proc.returncode != 0:
        last = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise PluginError(f"search: pagefind failed ({proc.returncode}): {last[0]}")
    for unused in UNUSED:
        for path in bundle.glob(unused):
            path.unlink()
