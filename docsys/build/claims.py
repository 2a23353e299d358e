"""Claims about measured numbers, written as tokens that the build fills from the recordings.

Never type a measured number in prose. Outside code fences, a page writes:

    {{ value: no-grad-inference/bench_forward, "train()", "activations saved (MiB)" }}
        one cell of the benchmark's recorded table, as printed;
    {{ ratio: no-grad-inference/bench_forward, "train()" > "eval()", "median (ms)" }}
        train()'s value divided by eval()'s, as `1.2×`. The operator is the sentence's claim
        about the data, checked when the page is built: `>` (greater, by more than the spread),
        `<` (smaller, by more than the spread) or `~` (no difference beyond the spread). A claim
        the recording does not support — or cells too coarse for a ratio — is a build warning
        naming the page and the claim, so `mkdocs build --strict` fails (docsys.core.bench).

A token of a benchmark marked cuda renders "not yet measured on a GPU" until a GPU has recorded it.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from markdown import Markdown
from markdown.preprocessors import Preprocessor

from docsys.build.config import page_of, serving
from docsys.build.strings import strings
from docsys.core import bench, recording
from docsys.core.paths import page_lang
from docsys.core.snippet import Snippet, SnippetHeaderError, load
from docsys.core.text import TOKEN_RE, inside_fences

log = logging.getLogger("mkdocs.extensions.claims")
_VALUE_RE = re.compile(r'^(?P<key>[\w./-]+)\s*,\s*"(?P<variant>[^"]*)"\s*,\s*"(?P<column>[^"]*)"$')
_RATIO_RE = re.compile(
    r'^(?P<key>[\w./-]+)\s*,\s*"(?P<a>[^"]*)"\s*(?P<op>[<>~])\s*"(?P<b>[^"]*)"\s*,\s*"(?P<column>[^"]*)"$'
)
_OPERATORS = {">": "greater than", "<": "smaller than", "~": "no different from"}


class ClaimError(ValueError):
    """A token the recordings cannot support (one line)."""


def _benchmark(root: Path, key: str) -> Snippet:
    path = root / f"{key}.py"
    try:
        snippet = load(path, root)
    except (OSError, SnippetHeaderError):
        raise ClaimError(f"no benchmark snippet {key}.py") from None
    if not snippet.is_benchmark:
        raise ClaimError(f"{key}.py is not a benchmark (its name must match bench_*.py)")
    return snippet


def _table(snippet: Snippet) -> bench.Table | None:
    """The recorded table; None for a GPU benchmark no GPU has measured yet."""
    state = recording.state(snippet)
    if state == recording.MISSING and snippet.platform == "cuda":
        return None
    if state != recording.CURRENT and not (state == recording.STALE and serving()):
        raise ClaimError(f"{snippet.key}: recording is {state}; run `make record SNIPPETS={snippet.rel}`")
    rec = recording.read(snippet)
    assert rec is not None
    return bench.parse_table(rec.printed)


def _ratio(table: bench.Table, m: re.Match) -> str:
    try:
        c = bench.compare(table, m["a"], m["b"], m["column"])
    except (KeyError, ValueError) as error:
        raise ClaimError(str(error.args[0])) from None
    holds = {">": c.difference > 0 and c.beyond_spread, "<": c.difference < 0 and c.beyond_spread,
             "~": not c.beyond_spread}[m["op"]]
    if not holds:
        raise ClaimError(
            f'the claim "{m["a"]}" {m["op"]} "{m["b"]}" ({_OPERATORS[m["op"]]}) in {m["column"]!r} does not hold: '
            f"ratio {c.ratio:.3f}, difference {c.difference:.4g}, spread "
            f"{'unknown (a single run: only a factor of 2 counts)' if c.spread is None else f'{c.spread:.4g}'}"
        )
    return bench.ratio_text(c.ratio)


def render_token(fn: str, args: str, root: Path, lang: str) -> str:
    m = (_VALUE_RE if fn == "value" else _RATIO_RE).match(args)
    if not m:
        form = '"variant", "column"' if fn == "value" else '"a" > "b", "column" (or < or ~)'
        raise ClaimError(f"cannot read {{{{ {fn}: {args} }}}}; write {{{{ {fn}: slug/bench_name, {form} }}}}")
    table = _table(_benchmark(root, m["key"]))
    if table is None:
        return strings(lang)["not_measured"]
    if fn == "ratio":
        return _ratio(table, m)
    try:
        return table.value(m["variant"], m["column"])
    except KeyError as error:
        raise ClaimError(str(error.args[0])) from None


class ClaimPreprocessor(Preprocessor):
    def __init__(self, md: Markdown, root: Path, lang: str) -> None:
        super().__init__(md)
        self.root, self.configured_lang, self.lang = root, lang, lang or "en"

    def _render(self, token: re.Match) -> str:
        try:
            return render_token(token["fn"], token["args"], self.root, self.lang)
        except ClaimError as error:
            log.warning(f"{page_of(self.md)}: {token[0]}: {error}")
            return token[0]

    def run(self, lines: list[str]) -> list[str]:
        self.lang = self.configured_lang or page_lang(page_of(self.md))
        fenced = inside_fences(lines)
        return [line if i in fenced else TOKEN_RE.sub(self._render, line) for i, line in enumerate(lines)]
