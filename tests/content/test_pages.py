"""The pages and snippets as a whole: everything shown is run, everything run is shown, and recordings are honest."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from docsys.build.examples import OUT_INCLUDE_RE
from docsys.checks.pages import rel_page, shown_snippets, unrun_python_fences
from docsys.core import recording
from docsys.core.normalize import normalize, portable
from docsys.core.paths import LANGS, ROOT, SNIPPETS_DIR, page_paths
from docsys.core.snippet import discover, load
from docsys.core.text import split_front_matter

PAGES = [p for lang in LANGS for p in page_paths(lang)]
SNIPPETS = discover()


@pytest.mark.parametrize("page", PAGES, ids=rel_page)
def test_every_python_fence_is_run_or_skipped_with_a_reason(page):
    problems = unrun_python_fences(page.read_text(encoding="utf-8"), rel_page(page))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=rel_page)
def test_every_front_matter_is_a_yaml_mapping(page):
    """MkDocs drops a front matter that does not parse without a word (mkdocs.utils.meta.get_data), and
    with it the page's description and translation record: an unquoted `: ` in a value is enough."""
    front, _ = split_front_matter(page.read_text(encoding="utf-8"))
    try:
        data = yaml.safe_load("\n".join(front))
    except yaml.YAMLError as error:
        pytest.fail(f"{rel_page(page)}: the front matter is not YAML ({str(error).splitlines()[0]}); quote the value")
    assert isinstance(data, dict), f"{rel_page(page)}: the front matter is not a mapping of keys to values"


def test_every_snippet_is_shown_on_a_page():
    unused = sorted({s.rel for s in SNIPPETS} - shown_snippets(PAGES))
    assert not unused, f"snippets no page shows (show them with `::: example`, or delete them): {unused}"


def test_every_recording_has_its_snippet():
    orphans = [p.relative_to(SNIPPETS_DIR).as_posix() for p in recording.orphans(SNIPPETS_DIR, SNIPPETS)]
    assert not orphans, f"recordings without a snippet or a graph declaration (delete them): {orphans}"


def test_every_out_is_the_compared_form_of_what_its_recording_printed():
    """`.out` (compared by the tests, the same on every machine) and `.record.json`'s `printed` (shown on the
    page) come from one run: a hand edit of either, or a recording of the old format, is caught here."""
    recorded = [s for s in SNIPPETS if recording.state(s) != recording.MISSING]
    wrong = [s.rel for s in recorded if recording.compared_text(recording.read(s).printed)
             != s.output_path.read_text(encoding="utf-8")]
    assert not wrong, f"`.out` is not the compared form of `printed` in `.record.json`: {wrong}; re-record them"


def test_an_output_included_on_its_own_shows_what_was_printed():
    """A page may include a `.out` by itself (the output of a command it runs); `.out` is the compared
    form, so it may do so only where nothing in it is masked."""
    masked = [f"{rel_page(page)}: {m['target']}.out" for page in PAGES
              for m in map(OUT_INCLUDE_RE.match, page.read_text(encoding="utf-8").splitlines()) if m
              and (SNIPPETS_DIR / f"{m['target']}.out").read_text(encoding="utf-8")
              != recording.read(load(SNIPPETS_DIR / f"{m['target']}.py")).printed]
    assert not masked, f"included outputs with masked parts (show them with `::: example`): {masked}"


def test_every_benchmark_declares_how_it_runs_its_variants():
    """`# method: <kind> -- <why>` (docsys.core.snippet.METHODS): its table's caption tells readers."""
    missing = [s.rel for s in SNIPPETS if s.is_benchmark and s.method is None]
    assert not missing, f"benchmarks without '# method: interleaved|processes|sequential -- <why>': {missing}"


def test_gpu_recordings_are_current_or_absent():
    stale = [s.rel for s in SNIPPETS if s.platform == "cuda" and recording.state(s) == recording.STALE]
    assert not stale, (f"GPU snippets changed since their GPU recording: {stale}; re-record them on a GPU "
                       "(`python -m docsys record --gpu ...`) or run `make record SNIPPETS=...` here to forget them")


def test_every_gpu_snippet_has_an_estimate():
    """A GPU run orders its snippets by `# estimate:` and budgets with it (docsys/record/cli.py)."""
    missing = [s.rel for s in SNIPPETS if s.platform == "cuda" and s.estimate is None]
    assert not missing, f"GPU snippets without '# estimate: <seconds on a GPU>': {missing}"


def test_what_the_tests_run_is_what_python_prints():
    """The reader's own command, in a shell, prints what the recording holds (warnings on stderr included)."""
    snippet = SNIPPETS_DIR / "autograd" / "leaf_tensors.py"
    command = [sys.executable, "snippets/autograd/leaf_tensors.py"]  # stderr into stdout, as a terminal shows
    proc = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=True)
    recorded = snippet.with_suffix(".out").read_text(encoding="utf-8")
    assert "UserWarning" in recorded, "choose a snippet whose recording shows stderr too"
    assert normalize(portable(proc.stdout)) == normalize(recorded)


SHUTDOWN = ("gc.collect()", "dist.barrier()", "dist.destroy_process_group()")


def shutdown_problem(source: str) -> str | None:
    """Why a launched script does not end with the clean shutdown (docs/en/ddp.md#shutdown):
    `del` of what it holds, gc.collect(), a barrier, then destroy_process_group()."""
    lines = [line.strip() for line in source.strip().splitlines()]
    if tuple(lines[-3:]) != SHUTDOWN:
        return f"last lines are {lines[-3:]}, expected {list(SHUTDOWN)}"
    if len(lines) < 4 or not lines[-4].startswith("del "):
        return "the line before gc.collect() must `del` the model, optimizer and tensors"
    return None


@pytest.mark.parametrize("snippet", [s for s in SNIPPETS if s.torchrun], ids=lambda s: s.rel)
def test_a_launched_snippet_releases_everything_before_destroying_its_group(snippet):
    problem = shutdown_problem(snippet.path.read_text(encoding="utf-8"))
    assert problem is None, f"{snippet.rel}: {problem}"


def test_the_shutdown_check_catches_a_script_that_skips_the_release():
    good = "x = 1\ndel model, optimizer\ngc.collect()\ndist.barrier()\ndist.destroy_process_group()\n"
    assert shutdown_problem(good) is None
    assert "expected" in (shutdown_problem("x = 1\ndist.destroy_process_group()\n") or "")
    assert "del" in (shutdown_problem("x = 1\ngc.collect()\ndist.barrier()\ndist.destroy_process_group()\n") or "")
