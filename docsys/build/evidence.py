"""Evidence beside the prose: where a statement about PyTorch's behaviour comes from, checked at build time.

A sentence that says what PyTorch does — a default, which implementation runs, what happens past a
limit — is shown by an example's output, or sourced. The page source says which, beside the
sentence, in a comment the build checks and then removes from the HTML:

    <!-- shown: attention/backends.py "flash: aten::_scaled_dot_product_flash_attention_for_cpu" -->
        the quoted text is in that example's recorded output. For a GPU example not yet recorded it
        is an expectation bound to the recording: once `make gpu` records it, a recording without the
        text fails the strict build, naming the page and the claim.
    <!-- source: torch/_dynamo/config.py recompile_limit -->
        a Python file of the pinned torch, torchao or torchdata and a name defined in it (checked against
        the installed package);
    <!-- source: pytorch/pytorch@v2.13.0 aten/src/ATen/native/transformers/sdp_utils_cpp.cpp#L45 -->
        C++/CUDA source at the pinned release's tag (the tag is checked; the file cannot be, offline);
    <!-- source: https://docs.pytorch.org/docs/stable/notes/cuda.html#... -->
        the official documentation: PyTorch's, NVIDIA's for CUDA, the Linux man pages for the C library
        (its form is checked; offline, not its content);
    <!-- general: why a comparison needs no measurement here -->
        (docsys.checks.comparatives).

docsys.checks.behaviour lists the prose sentences that use behavioural words without any of these.
A problem is a build warning naming the page and the comment, so a strict build fails.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import logging
import re
from pathlib import Path

from markdown import Markdown
from markdown.preprocessors import Preprocessor

from docsys.build.config import page_of
from docsys.core import recording
from docsys.core.snippet import SnippetHeaderError, load
from docsys.core.text import EVIDENCE_RE, inside_fences

log = logging.getLogger("mkdocs.extensions.evidence")
_SHOWN_RE = re.compile(r'^(?P<snippet>[\w./-]+\.py)\s+"(?P<text>[^"]+)"$')
_PACKAGE_FILE_RE = re.compile(
    r"^(?P<path>(?P<package>torch|torchao|torchdata)/[\w./-]+\.py)\s+(?P<name>[A-Za-z_][\w.]*)$")
_TAG_RE = re.compile(r"^pytorch/pytorch@v(?P<version>[\d.]+)\s+(?P<path>[\w./-]+\.\w+)(?:#L\d+(?:-L\d+)?)?$")
_DOCS_RE = re.compile(r"^https://(?:(?:docs\.)?pytorch\.org|docs\.nvidia\.com|man7\.org/linux/man-pages)/\S+$")


@functools.cache
def package_root(package: str) -> Path | None:
    """An installed package's folder, found without importing it (torch: a second of every build)."""
    spec = importlib.util.find_spec(package)
    return None if spec is None or spec.origin is None else Path(spec.origin).parent


@functools.cache
def torch_release() -> str:
    return importlib.metadata.version("torch").split("+")[0]


def _defines(path: Path, name: str) -> bool:
    first = re.escape(name.split(".")[0])
    return re.search(rf"^\s*(?:def|class|async def)\s+{first}\b|^\s*{first}\s*[:=]", path.read_text(
        encoding="utf-8"), re.M) is not None


def source_problem(body: str) -> str | None:
    """What is wrong with a `source:` comment, or None."""
    if m := _PACKAGE_FILE_RE.match(body):
        root = package_root(m["package"])
        if root is None:
            return f"{m['package']} is not installed: run `make setup`"
        path = root.parent / m["path"]
        if not path.is_file():
            version = importlib.metadata.version(m["package"])
            return f"{m['path']} is not a file of the installed {m['package']} {version}"
        return None if _defines(path, m["name"]) else f"{m['path']} defines no {m['name'].split('.')[0]!r}"
    if m := _TAG_RE.match(body):
        ok = m["version"] == torch_release()
        return None if ok else f"names v{m['version']}; the pinned torch is {torch_release()}"
    if _DOCS_RE.match(body):
        return None
    return ("write `torch/<file>.py <name>` (or torchao/, torchdata/), `pytorch/pytorch@v<release> <path>#L<line>`, "
            "or a URL of docs.pytorch.org, docs.nvidia.com or man7.org/linux/man-pages")


def shown_problem(body: str, root: Path) -> str | None:
    """What is wrong with a `shown:` comment, or None (a GPU example not yet recorded: an expectation)."""
    m = _SHOWN_RE.match(body)
    if not m:
        return 'write `shown: <slug>/<name>.py "<text of its output>"`'
    try:
        snippet = load(root / m["snippet"], root)
    except (OSError, SnippetHeaderError):
        return f"no snippet {m['snippet']}"
    state = recording.state(snippet)
    if state == recording.MISSING and snippet.platform == "cuda":
        return None
    if state != recording.CURRENT:
        return f"{m['snippet']}: recording is {state}; run `make record SNIPPETS={m['snippet']}`"
    rec = recording.read(snippet)
    assert rec is not None
    if " ".join(m["text"].split()) not in " ".join(rec.printed.split()):  # an output's columns are padded
        where = "its GPU recording" if snippet.platform == "cuda" else "its recorded output"
        return f"{where} does not contain {m['text']!r}: the sentence beside it no longer holds"
    return None


class EvidencePreprocessor(Preprocessor):
    """Checks each evidence comment outside code fences, then removes it (a line left empty goes)."""

    def __init__(self, md: Markdown, root: Path) -> None:
        super().__init__(md)
        self.root = root

    def _checked(self, match: re.Match) -> str:
        body = " ".join(match["body"].split())
        problem = {"source": source_problem, "shown": lambda b: shown_problem(b, self.root),
                   "general": lambda b: None if b else "say why"}[match["kind"]](body)
        if problem:
            log.warning(f"{page_of(self.md)}: <!-- {match['kind']}: {body} -->: {problem}")
        return ""

    def run(self, lines: list[str]) -> list[str]:
        fenced, out = inside_fences(lines), []
        for i, line in enumerate(lines):
            if i in fenced or "<!--" not in line:
                out.append(line)
            elif (kept := EVIDENCE_RE.sub(self._checked, line)).strip() or not line.strip():
                out.append(kept)
        return out
