"""Word breaks for Pagefind: punctuation inside a token, tags between words, glossary terms joined,
and Chinese segmented with jieba (the package docstring says why)."""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from functools import cache

from docsys.build.search.languages import Language

# Word breaks that search.js can tell from a real space: a caret, then a space (SEP), or a caret
# alone inside a glossary term (JOIN). A caret is ASCII punctuation, which Pagefind drops from a
# word; an invisible character (U+2063) made Pagefind index every word a second time as a
# "compound", which inflated titles' ranking 5x. No page has a caret between a word and a space.
SEP = "^ "
JOIN = "^"
TAG = "\ue000"  # stands for a tag while the article's text is worked on as one string (private use)

_INNER_PUNCT_RE = re.compile(r"(?<=\w)([^\w\s^]+)(?=\w)")
_HAN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def break_words(text: str, language: Language, words: dict[str, float]) -> str:
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
