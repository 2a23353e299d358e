"""The indexed copy of a page: the article reduced to what a reader searches for, weighted, with
the word breaks search expects (the package docstring says what is kept and why)."""

from __future__ import annotations

import html
import re
from functools import cache

from docsys.build.search.languages import SEGMENTED, Language
from docsys.build.search.words import TAG, break_words
from docsys.build.strings import strings

# Code, program output and tables count half as much as prose: tables list, the prose explains.
# Headings above Pagefind's defaults (package docstring).
WEIGHTS = {"pre": 0.5, "table": 0.5, "h1": 10, "h2": 9, "h3": 8}
MESSAGES = "data-messages"  # marks the <pre> that holds an output's error and warning lines

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
_IMG_RE = re.compile(r'<img\b(?:[^>]*?\balt="(?P<alt>[^"]*)")?[^>]*>')
_PRE_RE = re.compile(r"(<pre\b[^>]*>)(.*?)(</pre>)", re.S)
_TAG_RE = re.compile(r"<[^>]+>")
_TAG_SPLIT_RE = re.compile(r"(<[^>]*>)")


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
    text = break_words(TAG.join(html.unescape(part) for part in parts[0::2]), language, words)
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
