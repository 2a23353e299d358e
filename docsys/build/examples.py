"""Python-Markdown extension: a page names an example once; the build attaches what belongs to it.

In mkdocs.yml it replaces `pymdownx.snippets` and takes the same options (it is a subclass):

    ::: example no-grad-inference/modes.py
    ::: example ddp/train.py:setup                     (a named section, `# --8<-- [start:setup]`)
    ::: example mixed-precision/bench_autocast_cpu.py plot="forward (ms)" title="..."

becomes the snippet's code (included by pymdownx.snippets, its machinery header left out) and,
for a whole file, what its recording holds (docsys.core.recording): the output; for a launched
script the command that launches it; for a GPU snippet where it was recorded, or "not yet
recorded on a GPU"; for a benchmark the measured table, a chart and where it was measured
(docsys.build.tables). `::: benchmarks` renders every benchmark recording, grouped by machine.
Claims about measured numbers in the prose are docsys.build.claims.

The directive is parsed by docsys.core.text.example_directives, which the test collector
(docsys.checks.collect) reads too: the tests never render a page. Option `lang` (unset in mkdocs.yml,
so `language()` takes it from the page's top folder, docs/<lang>/; words from strings.yml).
Problems (a missing recording, an unknown option) are logged as warnings, which fail a strict build.
"""

from __future__ import annotations

import html
import logging
import re
from pathlib import Path

from markdown import Markdown
from markdown.preprocessors import Preprocessor
from pymdownx.snippets import SnippetExtension, SnippetPreprocessor

from docsys.build import claims, evidence, page_notebooks, tables
from docsys.build.config import page_of, serving
from docsys.build.stamp import recordings, stamp
from docsys.build.strings import strings
from docsys.core import bench, recording
from docsys.core.paths import page_lang
from docsys.core.snippet import HEADER_RE, Snippet, SnippetHeaderError, load
from docsys.core.text import PROFILER_LOG_RE, ExampleDirective, example_directives, inside_fences

log = logging.getLogger("mkdocs.extensions.examples")
BENCHMARKS_RE = re.compile(r"^(?P<indent>[ \t]*):::[ \t]+benchmarks[ \t]*$")
OPTIONS = {"title", "plot"}
# A recorded output included on its own (getting-started shows the output of a command it runs):
# its snippet counts for the page's "verified with" stamp.
OUT_INCLUDE_RE = re.compile(r'^\s*--8<--\s+"(?P<target>[^"]+)\.out"\s*$')


class HeaderlessSnippets(SnippetPreprocessor):
    """pymdownx.snippets, leaving out a Python snippet's machinery header (`# marks:` ...)."""

    def process_snippet_lines(self, lines: list[str], target: dict) -> list[str]:
        if target.get("section") or not str(target.get("snippet", "")).endswith(".py"):
            return lines
        count = 0
        while count < len(lines) and HEADER_RE.match(lines[count]):
            count += 1
        return lines[count:]


def _fence(indent: str, info: str, body: list[str]) -> list[str]:
    return [f"{indent}```{info}", *(f"{indent}{line}" if line else "" for line in body), f"{indent}```", ""]


def _admonition(indent: str, kind: str, title: str, body: str = "") -> list[str]:
    lines = [f'{indent}!!! {kind} "{title.replace(chr(34), chr(39))}"', ""]
    return [*lines, f"{indent}    {body}", ""] if body else lines


def language(md: Markdown, configured: str) -> str:
    """The configured language, else the language folder of the page being converted."""
    return configured or page_lang(page_of(md))


class ExamplePreprocessor(Preprocessor):
    def __init__(self, md: Markdown, root: Path, lang: str) -> None:
        super().__init__(md)
        self.root, self.configured_lang = root, lang
        self.lang = lang or "en"

    def run(self, lines: list[str]) -> list[str]:
        self.lang = language(self.md, self.configured_lang)
        fenced, out, shown = inside_fences(lines), [], []
        directives = {d.line: d for d in example_directives(lines)}
        for i, line in enumerate(lines):
            if directive := directives.get(i):
                out += self.example(directive, line)
                shown += [s] if (s := self._snippet(directive.target)) else []
            elif i not in fenced and (bench_all := BENCHMARKS_RE.match(line)):
                out += [bench_all["indent"] + row for row in tables.all_benchmarks(self.root, self.lang).split("\n")]
            else:
                out.append(line)
                if (include := OUT_INCLUDE_RE.match(line)) and (s := self._snippet(include["target"] + ".py")):
                    shown.append(s)
        return self._stamped(out, shown)

    def _stamped(self, lines: list[str], shown: list[Snippet]) -> list[str]:
        """The page with its "verified with" stamp under the title (docsys.build.stamp)."""
        html, problems = stamp(*recordings(shown), self.lang)
        for problem in problems:
            log.warning(f"{page_of(self.md)}: {problem}")
        fenced = inside_fences(lines)
        title = next((i for i, line in enumerate(lines) if i not in fenced and line.startswith("# ")), None)
        if html is None or title is None:
            return lines
        return [*lines[: title + 1], "", html, "", *lines[title + 1 :]]

    def _snippet(self, target: str) -> Snippet | None:
        path = self.root / target.split(":", 1)[0]
        try:
            return load(path, self.root) if path.suffix == ".py" and path.is_file() else None
        except SnippetHeaderError as error:
            log.warning(str(error))
            return None

    def example(self, directive: ExampleDirective, line: str) -> list[str]:
        indent, target, options, section = directive.indent, directive.target, directive.options, directive.section
        snippet = self._snippet(target)
        if snippet is None or set(options) - OPTIONS:
            problem = "no such snippet" if snippet is None else f"unknown option(s) {sorted(set(options) - OPTIONS)}"
            log.warning(f"{page_of(self.md)}: '::: example {target}': {problem} (options: {sorted(OPTIONS)})")
            return [line]
        code = _fence(indent, f'python title="{self._title(snippet, section, options)}"', [f'--8<-- "{target}"'])
        attached = [] if section else self._attachments(indent, snippet, options.get("plot"))
        return page_notebooks.example_marked(target, code + attached)

    def _title(self, snippet: Snippet, section: str | None, options: dict) -> str:
        s = strings(self.lang)
        title = options.get("title") or (f"{snippet.rel} ({section})" if section else snippet.rel)
        notes = [s["needs_cuda"]] if "cuda" in snippet.marks else []
        notes += [s["needs_multi_gpu"]] if "multi_gpu" in snippet.marks else []
        notes += [s["launched"]] if snippet.torchrun else []
        return " · ".join([title, *notes])

    def _attachments(self, indent: str, snippet: Snippet, plot: str | None) -> list[str]:
        s, state = strings(self.lang), recording.state(snippet)
        if state != recording.CURRENT:
            if snippet.platform == "cuda":
                if state == recording.STALE:
                    log.warning(f"{snippet.rel}: changed since its GPU recording; re-record it on a GPU "
                                f"(`python -m docsys record --gpu {snippet.rel}`) or run `make record "
                                f"SNIPPETS={snippet.rel}` here to mark it not yet recorded")
                kind, title, body = ("warning", s["not_measured"], s["not_measured_body"]) if snippet.is_benchmark \
                    else ("warning", s["not_recorded"], s["not_recorded_body"])
                return _admonition(indent, kind, title, body)
            fix = f"run `make record SNIPPETS={snippet.rel}`"
            problem = f"{page_of(self.md)}: {snippet.rel}: recording is {state}; {fix}"
            if state != recording.STALE or not serving():
                log.warning(problem)
                return []
            log.info(f"{problem} (shown with a notice under mkdocs serve; a strict build fails on it)")
            return _admonition(indent, "warning", s["stale"], s["stale_body"].format(snippet=snippet.rel)) + \
                self._recorded_parts(indent, snippet, plot)
        return self._recorded_parts(indent, snippet, plot)

    def _recorded_parts(self, indent: str, snippet: Snippet, plot: str | None) -> list[str]:
        s = strings(self.lang)
        rec = recording.read(snippet)
        assert rec is not None
        output = rec.printed
        parts: list[str] = []
        if snippet.is_benchmark:
            try:
                rendered = tables.render(snippet, self.lang, plot)
            except (KeyError, bench.TableError) as error:
                log.warning(f"{page_of(self.md)}: '::: example {snippet.rel}': {error.args[0]}")
                rendered = ""
            parts += [indent + row if row else "" for row in rendered.split("\n")] + [""]
            output = tables.other_lines(output)
        lines = output.rstrip("\n").split("\n")
        shown = [line for line in lines if not PROFILER_LOG_RE.match(line)]
        if output.strip():
            title = s["output_ranks"].format(command=snippet.reader_command()) if snippet.torchrun else s["output"]
            note = [indent + s["profiler_log_left_out"].format(count=len(lines) - len(shown)), ""]
            parts = _fence(indent, f'text title="{title}"', shown) + (note if len(shown) < len(lines) else []) + parts
        if snippet.depends and snippet.platform == "cpu":
            parts += [indent + self._recorded_where(snippet, rec), ""]
        if snippet.platform == "cuda" and not snippet.is_benchmark:
            host, sw = rec.host, rec.data["software"]
            line = s["recorded_gpu"].format(gpu=host["gpu"], driver=host.get("driver") or "?", torch=sw["torch"],
                                            cuda=sw["cuda"], date=rec.date)
            parts += _admonition(indent, "info", line)
        return parts


    def _recorded_where(self, snippet: Snippet, rec: recording.Record) -> str:
        """Where a machine-dependent output (`# depends:`) was recorded, under it."""
        s, host, run = strings(self.lang), rec.host, rec.data.get("run") or {}
        facts = s["list_separator"].join(d.fact for d in snippet.depends)
        line = s["recorded_cpu"].format(cpu=host["cpu"], cores=host["cores"], isa=tables.isa_words(host, self.lang),
                                        capability=run.get("cpu_capability", "?"), threads=run.get("threads", "?"),
                                        torch=rec.torch, date=rec.date, facts=facts)
        return f'<p class="bench-caption">{html.escape(line)}</p>'


class ExamplesExtension(SnippetExtension):
    def __init__(self, **kwargs) -> None:
        self.config = {
            **SnippetExtension().config,
            "lang": ["", "language of the pages; default: the page's top folder (docs/<lang>/...), else en"],
        }
        super(SnippetExtension, self).__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        self.md = md
        md.registerExtension(self)
        config = self.getConfigs()
        snippets = HeaderlessSnippets(config, md)
        md.preprocessors.register(snippets, "snippet", 32)
        root = Path(snippets.base_path[0])
        md.preprocessors.register(ExamplePreprocessor(md, root, config["lang"]), "example", 33)
        md.preprocessors.register(claims.ClaimPreprocessor(md, root, config["lang"]), "claims", 31)
        md.preprocessors.register(evidence.EvidencePreprocessor(md, root), "evidence", 34)
        # After the snippets (32) and claims (31), before Markdown stashes raw HTML and fences (30 and below)
        md.preprocessors.register(page_notebooks.NotebookPreprocessor(md, root), "notebook", 30.5)


def makeExtension(**kwargs) -> ExamplesExtension:
    return ExamplesExtension(**kwargs)
