"""Site search: one Pagefind index per language, written at the end of each language's build.

An MkDocs hook (mkdocs.yml `hooks:`). Material's header search box stays; overrides/partials/
search-bridge.html answers it through docs/assets/javascripts/search.js (a worker that queries
this index). Nothing is downloaded for search until the reader types.

What is indexed, and how, decides the ranking (there are no per-query boosts):
- Only each page's <article> goes into the index: not the navigation, header, footer or the
  heading permalinks. A section's heading names what it teaches: h1-h3 weigh 10, 9 and 8
  (Pagefind's defaults, 7, 6 and 5, let a page that uses a term often in passing outrank the
  section headed with it); code, program output and tables count half (WEIGHTS); an image's alt
  text is body text.
- What a reader never searches for is not indexed, because each result's indexed text is
  downloaded with the query (its budget: tests/content/test_search.py): of a recorded output (a
  page's "Output" block, a notebook cell's text output) only the lines that report an error or a
  warning, the text a reader pastes into search, are kept; of a code block only the API names it
  uses that the page's prose does not name (attributes, keyword arguments, imported names,
  environment variables; each once), not the snippet's own variables; the provenance line
  ("Verified with: ...") not at all.
- Words are split at punctuation inside a token, on both sides: `torch.amp.GradScaler("cuda")`
  is indexed as torch / amp / GradScaler / cuda, and search.js splits a query the same way, so
  an API name counts as a whole word wherever it appears (Pagefind alone would index
  `gradscalerstep` for `GradScaler.step()` and count `GradScaler` in it as a fraction of a word).
- The glossary's terms (docsys/core/glossary.toml) are indexed as one word each, with their parts:
  "gradient accumulation" and 梯度累积 are single words, so a page that uses the term outranks a
  page that uses its words apart; search.js joins them in a query too.
- Chinese is segmented here with jieba (dictionary words only, no HMM guesses), and search.js
  segments a query with the same words and log-probabilities (words.json beside the index).
  Pagefind's own query segmentation (the browser's Intl.Segmenter) disagrees with jieba (张量
  becomes 张 + 量, 分片 becomes 分 + 片, and such queries found nothing), so Chinese pages are
  indexed under the language key `x-zh`, for which Pagefind segments neither pages nor queries.
Inserted word breaks are SEP, and glossary terms are joined with JOIN; search.js removes both from
the excerpts and titles it shows.

The indexed copy of a page is cached in `.cache/search/` by a hash of its article and the
glossary, so a warm build neither imports jieba nor re-segments anything.

Errors: a missing Pagefind binary, a failing Pagefind run or an unreadable glossary stops the
build (PluginError).
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import math
import os
import re
import subprocess
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from docsys.build.config import project_dir
from docsys.build.strings import strings
from docsys.core import glossary
from docsys.core.paths import DEFAULT_LANG, page_lang

# Under the "mkdocs" logger, so that `--strict` counts this module's warnings.
log = logging.getLogger("mkdocs.hooks.search")

BUNDLE = "pagefind"  # the index's folder under each language's root: /pagefind/, /zh/pagefind/
TERMS = "terms.json"  # the glossary's terms of several words, which search.js joins in a query
WORDS = "words.json"  # Chinese words by log-probability ({"-9.12": "词 词"}), for search.js to segment a query
SEGMENTED = {"zh": "x-zh"}  # languages segmented here -> their index key (see the module docstring)
# Word breaks that search.js can tell from a real space: a caret, then a space (SEP), or a caret
# alone inside a glossary term (JOIN). A caret is ASCII punctuation, which Pagefind drops from a
# word; an invisible character (U+2063) made Pagefind index every word a second time as a
# "compound", which inflated titles' ranking 5x. No page has a caret between a word and a space.
SEP = "^ "
JOIN = "^"
TAG = "\ue000"  # stands for a tag while the article's text is worked on as one string (private use)
# Code, program output and tables count half as much as prose: tables list, the prose explains.
# Headings above Pagefind's defaults (module docstring).
WEIGHTS = {"pre": 0.5, "table": 0.5, "h1": 10, "h2": 9, "h3": 8}
UNUSED = ("pagefind-*ui.*", "pagefind-highlight.js")  # Pagefind's own search UIs: the site uses Material's
# Word locations per index chunk (Pagefind's default: 20000, ~30 KB compressed here). A query
# fetches the chunk of each of its words: smaller chunks keep a query's download small. Pagefind
# 1.5.2 reads this from PAGEFIND_UNSTABLE_INDEX_CHUNK_SIZE (its name says it may change: recheck
# with tests/content/test_search.py's payload test when upgrading Pagefind).
INDEX_CHUNK_SIZE = 2000
CACHE_DIR = Path(".cache") / "search"  # relative to mkdocs.yml's folder
CACHE_ENV = "SEARCH_CACHE_DIR"  # overrides it (timing cold builds without emptying the shared cache)
VERSION = "12"  # bump when the indexed copy changes, to invalidate the cache

_ARTICLE_RE = re.compile(r'<article class="md-content__inner md-typeset">(.*)</article>', re.S)
_PERMALINK_RE = re.compile(r'<a class="(?:headerlink|anchor-link)"[^>]*>.*?</a>', re.S)  # "¶" (pages, notebooks)
_WEIGHTED_RE = re.compile(r"<(pre|table|h1|h2|h3)\b")
# Not reading matter: hidden elements, and mkdocs-jupyter's copy of each code cell for its copy button.
_NOT_CONTENT_RE = re.compile(r'<(span|div)\b[^>]*(?:\shidden\b|class="clipboard-copy-txt")[^>]*>.*?</\1>', re.S)
_STAMP_RE = re.compile(r'<p class="verified-with">.*?</p>', re.S)  # docsys/build/stamp.py
# A recorded output: the `::: example` extension's "Output" block (its title is strings.yml's
# output or output_ranks), and a notebook cell's text output (mkdocs-jupyter).
_OUTPUT_BLOCK_RE = re.compile(
    r'<div class="highlight"><span class="filename">(?P<title>[^<]*)</span>(?P<pre><pre\b.*?</pre>)</div>', re.S
)
_NOTEBOOK_OUTPUT_RE = re.compile(
    r'(?P<open><div class="jp-RenderedText jp-OutputArea-output"[^>]*>\s*)(?P<pre><pre\b.*?</pre>)', re.S
)
# A line that reports an error or a warning: "RuntimeError: ...", "UserWarning: ...", "WARNING:torch...".
_MESSAGE_RE = re.compile(r"[A-Za-z]*(?:Error|Exception|Warning|ERROR|WARNING)\b")
_NAME_RE = re.compile(r"\w*[^\W\d]\w*")
# The names in code that belong to an API, not to the snippet: an attribute (dist.register_comm_hook),
# a keyword argument (set_to_none=), an imported name, an environment variable (OMP_NUM_THREADS).
# A snippet's own variables (my_x, accumulation_steps) are nothing a reader searches for.
_API_NAME_RE = re.compile(r"\.([A-Za-z_]\w*)|\b([A-Za-z_]\w*)=(?!=)|\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b")
_IMPORT_RE = re.compile(r"^\s*(?:from\s+[\w.]+\s+)?import\s+\(?([\w \t,]+)", re.M)
MESSAGES = "data-messages"  # marks the <pre> that holds an output's error and warning lines
_IMG_RE = re.compile(r'<img\b(?:[^>]*?\balt="(?P<alt>[^"]*)")?[^>]*>')
_PRE_RE = re.compile(r"(<pre\b[^>]*>)(.*?)(</pre>)", re.S)
_TAG_RE = re.compile(r"<[^>]+>")
_TAG_SPLIT_RE = re.compile(r"(<[^>]*>)")
_INNER_PUNCT_RE = re.compile(r"(?<=\w)([^\w\s^]+)(?=\w)")
_HAN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_LATIN_TERM_RE = re.compile(r"[a-z]+(?:[ -][a-z]+)+")
_HAN_TERM_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")


@dataclass(frozen=True)
class Language:
    code: str  # "en", "zh"
    terms: tuple[str, ...] = ()  # glossary terms of more than one word, longest first

    @property
    def segmented(self) -> bool:
        return self.code in SEGMENTED


@dataclass
class _Build:
    """The pages of the language being built (mkdocs-static-i18n builds one language at a time)."""

    lang: str = DEFAULT_LANG
    pages: dict[str, str] = field(default_factory=dict)  # path under the language root -> article HTML


_state = _Build()


# --- hook entry points -------------------------------------------------------------------


def on_pre_build(config: MkDocsConfig) -> None:
    global _state
    _state = _Build()


def on_page_context(context: dict, page: Page, config: MkDocsConfig, nav) -> dict:
    """Tell the search box where this language's index is (overrides/partials/search-bridge.html)."""
    context["search_bundle"] = get_relative_url(f"{language_root(page_lang(page.file.src_uri))}{BUNDLE}/", page.url)
    return context


def on_template_context(context: dict, template_name: str, config: MkDocsConfig) -> dict:
    """The 404 page has search too; it is served at any path, so its index's URL is absolute."""
    if template_name == "404.html":
        lang = getattr(config.plugins.get("i18n"), "current_language", None) or DEFAULT_LANG
        context["search_bundle"] = f"{urlsplit(config.site_url or '/').path.rstrip('/')}/{language_root(lang)}{BUNDLE}/"
    return context


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """Keep the page's article for the index (the 404 page is not a search result)."""
    lang = page_lang(page.file.src_uri)
    article = _ARTICLE_RE.search(output)
    if article and page.file.dest_uri not in ("404.html", f"{lang}/404.html"):
        _state.lang = lang
        _state.pages[page.file.dest_uri.removeprefix(language_root(lang))] = article[1]
    return output


def on_post_build(config: MkDocsConfig) -> None:
    """Index this language's pages into <site>/<language root>/pagefind/."""
    if not _state.pages:
        return
    start = time.perf_counter()
    language = Language(_state.lang, glossary_terms(Path(config.docs_dir), _state.lang))
    cache_root = Path(os.environ.get(CACHE_ENV) or project_dir(config) / CACHE_DIR)
    write_index(_state.pages, language, Path(config.site_dir) / language_root(language.code) / BUNDLE, cache_root)
    log.info(f"Search ({language.code}): {len(_state.pages)} pages indexed in {time.perf_counter() - start:.2f} s")


def write_index(pages: dict[str, str], language: Language, bundle: Path, cache_root: Path) -> None:
    """Index one language's pages (path under its root -> article HTML) into `bundle`, with the
    files search.js reads beside it."""
    documents, words = indexed_copies(pages, language, cache_root)
    run_pagefind(documents, bundle)
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


# --- languages ---------------------------------------------------------------------------


def language_root(lang: str) -> str:
    """Where a language's pages live in the site: "" for the default language, "zh/" for zh."""
    return "" if lang == DEFAULT_LANG else f"{lang}/"


def glossary_terms(docs_dir: Path, lang: str, data: Path = glossary.GLOSSARY_FILE) -> tuple[str, ...]:
    """The glossary's terms of more than one word in `lang` (lowercase), longest first, from the glossary
    data file (docsys.core.glossary); none for a site without a glossary page in that language."""
    if not (docs_dir / lang / "glossary.md").is_file():
        return ()
    try:
        terms = glossary.load(data)
    except (OSError, glossary.GlossaryError) as error:
        raise PluginError(f"search: the {lang} glossary cannot be read: {error}") from None
    names = (term.word(lang).lower() for term in terms)
    shape = _HAN_TERM_RE if lang in SEGMENTED else _LATIN_TERM_RE
    return tuple(sorted({n for n in names if shape.fullmatch(n)}, key=lambda n: (-len(n), n)))


# --- the indexed copy of a page ----------------------------------------------------------


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
            _write_atomically(entry, json.dumps([document, page_words], ensure_ascii=False))
        documents[path] = document
        words.update(page_words)
    return documents, words


def index_document(article: str, language: Language) -> tuple[str, dict[str, float]]:
    """A standalone HTML document of the article with the word breaks search expects, and its Chinese words."""
    words: dict[str, float] = {}
    body = _NOT_CONTENT_RE.sub("", _PERMALINK_RE.sub("", _STAMP_RE.sub("", article)))
    body = _messages_of_outputs(body, language.code)
    body = _WEIGHTED_RE.sub(lambda m: f'<{m[1]} data-pagefind-weight="{WEIGHTS[m[1]]}"', body)
    # An image's alt text is body text: Pagefind would make the first one page metadata that boosts ranking.
    body = _IMG_RE.sub(lambda m: f"<span>{m['alt'] or ''}</span>", body)
    named = _words(_TAG_RE.sub(" ", _PRE_RE.sub("", body)))
    body = _PRE_RE.sub(lambda m: m[1] + _code_words(m[1], _TAG_RE.sub("", m[2]), named) + m[3], body)
    parts = _TAG_SPLIT_RE.split(body)  # text, tag, text, tag, ..., text
    text = _break_words(TAG.join(html.unescape(part) for part in parts[0::2]), language, words)
    texts = [html.escape(part, False) for part in text.split(TAG)]
    body = "".join(t for pair in zip(texts, [*parts[1::2], ""], strict=True) for t in pair)
    key = SEGMENTED.get(language.code, language.code)
    head = f'<!doctype html><html lang="{key}"><head><meta charset="utf-8"></head>'
    return f"{head}<body data-pagefind-body>{body}</body></html>", words


def _messages_of_outputs(body: str, lang: str) -> str:
    """Each recorded output reduced to its lines that report an error or a warning (nothing if none)."""
    title = _output_title(lang)

    def output(block: re.Match) -> str:
        return _messages(block["pre"]) if title.fullmatch(html.unescape(block["title"])) else block[0]

    body = _OUTPUT_BLOCK_RE.sub(output, body)
    return _NOTEBOOK_OUTPUT_RE.sub(lambda m: m["open"] + _messages(m["pre"]), body)


def _messages(pre: str) -> str:
    lines = html.unescape(_TAG_RE.sub("", pre)).splitlines()
    messages = [line for line in lines if _MESSAGE_RE.search(line)]
    return f"<pre {MESSAGES}>{html.escape(chr(10).join(messages), False)}</pre>" if messages else ""


def _words(text: str) -> set[str]:
    return {word.lower() for word in _NAME_RE.findall(html.unescape(text))}


def _code_words(pre_tag: str, code: str, named: set[str]) -> str:
    """The API names a code block uses that the page's prose does not, each once (an output's messages stay whole)."""
    if MESSAGES in pre_tag:
        return code
    code = html.unescape(code)
    imported = (name for names in _IMPORT_RE.findall(code) for name in _NAME_RE.findall(names) if name != "as")
    found = [*imported, *(m[m.lastindex] for m in _API_NAME_RE.finditer(code))]
    return " ".join(dict.fromkeys(name for name in found if name.lower() not in named))


@cache
def _output_title(lang: str) -> re.Pattern[str]:
    """The titles the `::: example` extension gives an output block in `lang` (strings.yml)."""
    words = strings(lang)
    ranks = ".*".join(map(re.escape, words["output_ranks"].split("{command}")))
    return re.compile(f"{re.escape(words['output'])}|{ranks}")


def _break_words(text: str, language: Language, words: dict[str, float]) -> str:
    """`text` with SEP wherever a word must end for Pagefind, and JOIN inside glossary terms.

    `text` is the article's text with TAG where its tags were: a tag between two word characters
    is a word break too (Pagefind joins inline elements, so "<a>数据并行</a>在" would index 并行在,
    and "<code>gradcheck</code>）应" would index gradcheck应).
    """
    if language.terms and not language.segmented:
        text = _join_latin_terms(text, language.terms)
    breaks = {m.end() for m in _INNER_PUNCT_RE.finditer(text)}
    for mark in _symbols().finditer(text):  # non-ASCII punctuation stands alone (see SEP)
        breaks.update(mark.span())
    joins: set[int] = set()
    if language.segmented:
        for run in _HAN_RE.finditer(text):
            run_breaks, run_joins = _segment(run[0], run.start(), language.terms, words)
            breaks.update(run_breaks)
            joins.update(run_joins)
    return _insert(text, breaks - joins, joins)


def _join_latin_terms(text: str, terms: tuple[str, ...]) -> str:
    """Each glossary term (or its plural) as one word: "Gradient accumulation" -> "Gradient^accumulation"."""
    pattern = _latin_terms_pattern(terms)
    return pattern.sub(lambda m: re.sub(r"[\s-]+", JOIN, m[0]), text)


@cache
def _latin_terms_pattern(terms: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(r"[\s-]+".join(map(re.escape, re.split(r"[ -]", t))) for t in terms)
    return re.compile(rf"\b(?:{alternatives})(?:e?s)?\b", re.I)


def _insert(text: str, breaks: set[int], joins: set[int]) -> str:
    """SEP at each break that falls between two non-blank characters (before any tags there, so
    that it ends the word before it rather than starting one in the next element), JOIN at each join."""
    at: dict[int, str] = {index: JOIN for index in joins}
    for index in breaks:
        end = index
        while end > 0 and text[end - 1] == TAG:
            end -= 1
        following = text[index:].lstrip(TAG)[:1]
        if end > 0 and not text[end - 1].isspace() and following and not following.isspace():
            at.setdefault(end, SEP)
    pieces, last = [], 0
    for index in sorted(at):
        pieces += [text[last:index], at[index]]
        last = index
    return "".join([*pieces, text[last:]])


def _segment(run: str, offset: int, terms: tuple[str, ...], words: dict[str, float]) -> tuple[list[int], list[int]]:
    """Where jieba's words in a run of Chinese characters (at `offset`) begin and end, and which of
    those boundaries fall inside a glossary term (to be joined, not broken).

    Dictionary words only (no HMM guesses), so that search.js, which knows the same words and
    their log-probabilities (`words`; a glossary term gets 0, the most probable), segments a
    query the same way.
    """
    tokenizer = _jieba()
    total = math.log(tokenizer.total)
    bounds = [offset]
    for word in tokenizer.cut(run, HMM=False):
        words[word] = round(math.log(tokenizer.FREQ.get(word) or 1) - total, 2)
        bounds.append(bounds[-1] + len(word))
    joins = []
    for term in _han_terms_pattern(terms).finditer(run) if terms else ():
        words[term[0]] = 0.0
        start, end = offset + term.start(), offset + term.end()
        joins += [b for b in bounds if start < b < end]
        bounds += [start, end]  # a term is a word even where jieba's words straddle its edges
    return bounds, joins


@cache
def _han_terms_pattern(terms: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, terms)))


@cache
def _symbols() -> re.Pattern[str]:
    """Any non-ASCII punctuation mark or symbol (，。（）“”、… ¶ →)."""
    chars = "".join(chr(c) for c in range(0x80, 0x10000) if unicodedata.category(chr(c))[0] in "PS")
    return re.compile(f"[{re.escape(chars)}]")


def _jieba():
    """jieba's tokenizer, imported only when a page is not in the cache (its dictionary loads in ~0.5 s)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.dt.initialize()
    return jieba.dt


# --- running Pagefind ---------------------------------------------------------------------


def pagefind_binary() -> str:
    """The Pagefind binary that the `pagefind-bin-extended` package installs (requirements.txt)."""
    try:
        from pagefind_bin_extended import get_executable
    except ImportError:
        raise PluginError("search: pagefind-bin-extended is not installed; run scripts/setup.sh") from None
    return str(get_executable())


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


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
