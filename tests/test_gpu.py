"""GPU snippets: compiled and shown here, recorded honestly (only on a GPU, with provenance),
annotated on their pages, and runnable by a GPU machine that has no MkDocs."""

from __future__ import annotations

import json
import py_compile
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from docsys import gpu
from docsys.codeblocks import page_blocks, pytest_marks
from docsys.gpu_outputs import annotate
from docsys.markers import MARKERS, skip_reason
from docsys.pages import includes
from docsys.paths import LANGS, ROOT, SNIPPETS_DIR, page_lang, page_paths
from docsys.snippets import load, source_sha256

GPU_SNIPPETS = gpu.gpu_snippets()
PAGES = [p for lang in LANGS for p in page_paths(lang)]


def _ids(snippet):
    return snippet.rel


@pytest.mark.parametrize("snippet", GPU_SNIPPETS, ids=_ids)
def test_gpu_snippet_compiles(snippet, tmp_path):
    py_compile.compile(str(snippet.path), cfile=str(tmp_path / "compiled.pyc"), doraise=True)


@pytest.mark.parametrize("snippet", GPU_SNIPPETS, ids=_ids)
def test_gpu_snippet_is_included_by_a_page_in_every_language(snippet):
    for lang in LANGS:
        shown = [
            page
            for page in page_paths(lang)
            if snippet.rel in {t.split(":", 1)[0] for t in includes(page.read_text(encoding="utf-8"))}
        ]
        assert shown, f"{snippet.rel}: no {lang} page includes it"


def test_gpu_recordings_are_honest():
    found = gpu.problems(GPU_SNIPPETS)
    assert not found, "\n".join(found)


def test_every_provenance_file_belongs_to_a_gpu_snippet():
    orphans = [p.relative_to(SNIPPETS_DIR).as_posix() for p in gpu.orphan_provenance(SNIPPETS_DIR)]
    assert not orphans, f"provenance files without a GPU snippet (delete them): {orphans}"


def test_pages_include_gpu_outputs_that_exist():
    missing = []
    for page in PAGES:
        for target in includes(page.read_text(encoding="utf-8")):
            path = SNIPPETS_DIR / target.split(":", 1)[0]
            source = path.with_suffix(".py")
            if path.suffix == ".out" and not path.exists() and source.exists() and gpu.is_gpu_snippet(load(source)):
                missing.append(
                    f"{page.name}: {target} does not exist; `make record SNIPPETS={source.relative_to(SNIPPETS_DIR)}` "
                    "writes the empty placeholder that the page shows as 'not yet recorded on a GPU'"
                )
    assert not missing, "\n".join(missing)


@pytest.mark.skipif(not MARKERS["cuda"].missing(), reason="this machine has a CUDA GPU: cuda tests run here")
def test_cuda_tests_skip_here_with_the_markers_reason():
    reason = skip_reason(["cuda"])
    assert reason and reason.startswith("cuda: needs a CUDA GPU") and "make gpu" in reason
    gpu_blocks = [b for page in PAGES for b in page_blocks(page) if set(b.snippet_marks) & set(gpu.GPU_MARKS)]
    for block in gpu_blocks:  # conftest turns these marks into a skip with that reason
        assert {m.name for m in pytest_marks(block)} & set(gpu.GPU_MARKS), block.id
    for snippet in GPU_SNIPPETS:
        assert skip_reason(snippet.marks), snippet.rel


# ----------------------------------------------------------------------------- minimal imports

FORBIDDEN = (
    "mkdocs",
    "markdown",
    "pymdownx",
    "pytest_codeblocks",
    "yaml",
    "material",
    "mkdocs_static_i18n",
    "jieba",
    "graphviz",
    "torchviz",
    "jupytext",
    "nbconvert",
)

PROBE = """
import importlib.abc, sys
FORBIDDEN = {forbidden!r}
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in FORBIDDEN:
            raise ImportError(f"blocked import of {{name}}: a GPU machine has only Python, torch, pytest, numpy")
sys.meta_path.insert(0, Block())
import docsys.__main__ as cli
from docsys import gpu
{extra}
gpu.machine()
gpu.problems(gpu.gpu_snippets())
sys.exit(cli.main(["gpu", "no-such-snippet-pattern"]))
"""


def _probe(extra: str = "") -> subprocess.CompletedProcess:
    code = PROBE.format(forbidden=FORBIDDEN, extra=extra)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_gpu_command_needs_only_python_torch_pytest_numpy():
    proc = _probe()
    assert proc.returncode == 2, proc.stderr[-3000:]  # 2: no snippet matches the pattern, nothing was run
    assert "no snippet marked cuda or multi_gpu matches" in proc.stdout


def test_import_probe_catches_a_site_only_module():
    proc = _probe("import docsys.pages")
    assert proc.returncode == 1 and "blocked import of markdown" in proc.stderr


# ----------------------------------------------------------------------------- planted faults


def _write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


@pytest.fixture
def gpu_dir(tmp_path: Path) -> Path:
    """A snippets folder with one cuda snippet and one ordinary snippet."""
    _write(tmp_path / "cu.py", '# marks: cuda\nprint("on the GPU")\n')
    _write(tmp_path / "cpu.py", 'print("anywhere")\n')
    (tmp_path / "cpu.out").write_text("anywhere\n")
    return tmp_path


FAKE_MACHINE = {
    "gpu": "NVIDIA H200",
    "gpu_count": 1,
    "driver": "580.95.05",
    "cuda": "13.0",
    "torch": "2.11.0+cu130",
    "python": "3.12.3",
}


@pytest.fixture
def fake_gpu(monkeypatch):
    """Pretend this machine has a GPU, so the recording logic runs on CPU-only snippets."""
    monkeypatch.setattr(gpu, "machine", lambda: FAKE_MACHINE)
    monkeypatch.setattr(gpu, "cuda_missing", lambda: None)
    monkeypatch.setattr(gpu, "skip_reason", lambda marks: None)


def test_unrecorded_gpu_snippet_gets_an_empty_placeholder(gpu_dir):
    (snippet,) = gpu.gpu_snippets(gpu_dir)
    assert gpu.state(snippet) == gpu.NOT_RECORDED and not snippet.output_path.exists()
    assert "never recorded" in gpu.mark_not_recorded(snippet)
    assert snippet.output_path.read_text() == "" and gpu.problems([snippet]) == []
    assert gpu.mark_not_recorded(snippet) is None  # idempotent


def test_gpu_output_without_provenance_fails(gpu_dir):
    (snippet,) = gpu.gpu_snippets(gpu_dir)
    snippet.output_path.write_text("on the GPU\n")  # recorded by hand, or by `record` on a CPU
    assert "has output but no cu.gpu.json" in "\n".join(gpu.problems([snippet]))


def test_recording_writes_provenance(gpu_dir, fake_gpu):
    (snippet,) = gpu.gpu_snippets(gpu_dir)
    outcome = gpu.record_one(snippet)
    assert outcome.ok and outcome.mismatch is None, outcome.message
    prov = gpu.read_provenance(snippet)
    assert snippet.output_path.read_text() == "on the GPU\n"
    assert {k: prov[k] for k in FAKE_MACHINE} == FAKE_MACHINE
    assert prov["source_sha256"] == source_sha256(snippet.path) and prov["date"].startswith("20")
    assert gpu.state(snippet) == gpu.RECORDED and gpu.problems([snippet]) == []
    assert gpu.provenance_line(prov) == f"NVIDIA H200 (driver 580.95.05), torch 2.11.0+cu130, CUDA 13.0, {prov['date']}"
    assert gpu.provenance_line(prov, "zh").startswith("NVIDIA H200（驱动 580.95.05），torch 2.11.0+cu130，CUDA 13.0，")


def test_changed_snippet_makes_its_recording_stale(gpu_dir, fake_gpu):
    (snippet,) = gpu.gpu_snippets(gpu_dir)
    gpu.record_one(snippet)
    snippet.path.write_text(snippet.path.read_text() + 'print("more")\n')
    assert gpu.state(snippet) == gpu.STALE
    assert "changed since its GPU recording" in "\n".join(gpu.problems([snippet]))
    assert "changed since its GPU recording" in gpu.mark_not_recorded(snippet)  # what `make record` does on a CPU
    assert gpu.state(snippet) == gpu.NOT_RECORDED and snippet.output_path.read_text() == ""
    assert gpu.problems([snippet]) == []


def test_check_fails_when_a_recorded_gpu_output_no_longer_matches(gpu_dir, fake_gpu, monkeypatch, capsys):
    monkeypatch.setattr(gpu, "gpu_snippets", lambda: [s for s in gpu.discover(gpu_dir) if gpu.is_gpu_snippet(s)])
    assert gpu.gpu_command([], check=True) == 0  # first recording: nothing to compare with
    assert gpu.gpu_command([], check=True) == 0  # same output again
    snippet = gpu.gpu_snippets()[0]
    snippet.output_path.write_text("on a GPU, long ago\n")  # plant a recording this code does not print
    assert gpu.gpu_command([], check=True) == 1
    assert "-on a GPU, long ago\n+on the GPU" in capsys.readouterr().out
    assert gpu.gpu_command([], check=False) == 0  # record mode re-records without failing


def test_check_fails_when_a_gpu_snippet_crashes(gpu_dir, fake_gpu, monkeypatch, capsys):
    monkeypatch.setattr(gpu, "gpu_snippets", lambda: [s for s in gpu.discover(gpu_dir) if gpu.is_gpu_snippet(s)])
    _write(gpu_dir / "cu.py", '# marks: cuda\nraise RuntimeError("planted")\n')
    assert gpu.gpu_command([]) == 1
    assert "RuntimeError: planted" in capsys.readouterr().out
    assert not (gpu_dir / "cu.gpu.json").exists()


PAGE = """\
# Page

```python title="cu.py"
--8<-- "cu.py"
```

<!--pytest-codeblocks:expected-output-->
```text title="Output"
--8<-- "cu.out"
```

```text title="Output"
--8<-- "cpu.out"
```
"""


def test_page_says_not_yet_recorded_in_its_language(gpu_dir):
    gpu.mark_not_recorded(gpu.gpu_snippets(gpu_dir)[0])
    en, problems = annotate(PAGE, "en", gpu_dir)
    assert problems == []
    assert '!!! warning "Not yet recorded on a GPU"' in en and '--8<-- "cu.out"' not in en
    assert '--8<-- "cpu.out"' in en and '--8<-- "cu.py"' in en  # other blocks untouched
    zh, _ = annotate(PAGE, "zh", gpu_dir)
    assert '!!! warning "尚未在 GPU 上录制"' in zh


def test_page_shows_where_a_gpu_output_was_recorded(gpu_dir, fake_gpu):
    snippet = gpu.gpu_snippets(gpu_dir)[0]
    gpu.record_one(snippet)
    en, problems = annotate(PAGE, "en", gpu_dir)
    date = gpu.read_provenance(snippet)["date"]
    assert problems == []
    lines = en.split("\n")
    out_include = lines.index('--8<-- "cu.out"')
    assert lines[out_include + 1] == "```"
    assert lines[out_include + 3] == (
        f'!!! info "Recorded on a GPU: NVIDIA H200 (driver 580.95.05), torch 2.11.0+cu130, CUDA 13.0, {date}"'
    )
    zh, _ = annotate(PAGE, "zh", gpu_dir)
    assert '!!! info "GPU 输出录制环境：NVIDIA H200（驱动 580.95.05），torch 2.11.0+cu130，CUDA 13.0，' in zh


def test_page_with_a_stale_gpu_output_is_a_build_warning(gpu_dir, fake_gpu):
    snippet = gpu.gpu_snippets(gpu_dir)[0]
    gpu.record_one(snippet)
    snippet.path.write_text(snippet.path.read_text() + "# edited\n")
    text, problems = annotate(PAGE, "en", gpu_dir)
    assert len(problems) == 1 and "changed after its GPU recording" in problems[0]
    assert "Not yet recorded on a GPU" in text and '--8<-- "cu.out"' not in text


def test_page_language_comes_from_its_folder():
    assert page_lang("zh/devices.md") == "zh" and page_lang("en/devices.md") == "en" and page_lang("x.md") == "en"


@pytest.mark.xdist_group("site")
def test_built_pages_say_where_each_gpu_output_comes_from(built_site):
    from docsys.site import built_page

    # Whether the build passed is test_build's; this checks what the built pages say.
    missing = []
    for page in PAGES:
        for target in includes(page.read_text(encoding="utf-8")):
            source = (SNIPPETS_DIR / target.split(":", 1)[0]).with_suffix(".py")
            if not target.endswith(".out") or not source.exists() or not gpu.is_gpu_snippet(snippet := load(source)):
                continue
            built = built_page(built_site.path, page)
            assert built.exists(), f"{built} was not built:\n{built_site.log[-3000:]}"
            html = built.read_text(encoding="utf-8")
            lang = page.relative_to(page.parents[1]).parts[0]
            if gpu.state(snippet) == gpu.RECORDED:
                expected = gpu.provenance_line(json.loads(gpu.provenance_path(snippet).read_text()), lang)
            else:
                expected = gpu.TEXT[lang]["not_recorded"]
            if expected not in html:
                missing.append(f"{page.relative_to(page.parents[1])}: {target}: {expected!r} not on the built page")
    assert not missing, "\n".join(missing)
