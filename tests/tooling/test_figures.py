"""docsys.build.figures: figures are drawn from recorded data, cached, and bad input fails the strict build."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from docsys.core.snippet import load
from docsys.core.verdict import check

HOOK = Path(__file__).parents[2] / "docsys" / "build" / "figures.py"
SNIPPET = """\
# figure: spans=timeline
spans = {"unit": "ms",
         "lanes": [{"lane": "regions", "spans": [[0, 2, "region", "forward"], [2, 5, "region", "backward"]]}]}
print("spans:", len(spans["lanes"][0]["spans"]))
"""
PAGE = '::: example demo/f.py\n\n![Two spans on one lane](figure:demo/f.py#spans "Backward follows forward.")\n'


def make_site(root: Path, page: str = PAGE, snippet: str = SNIPPET, record: bool = True) -> Path:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "index.md").write_text(page, encoding="utf-8")
    demo = root / "snippets" / "demo"
    demo.mkdir(parents=True, exist_ok=True)
    (demo / "f.py").write_text(snippet, encoding="utf-8")
    if record:
        outcome = check(load(demo / "f.py", root / "snippets"), update=True)
        assert outcome.ok, outcome.message
    (root / "mkdocs.yml").write_text(textwrap.dedent(f"""\
        site_name: figures test
        strict: true
        hooks: [{HOOK}]
        markdown_extensions:
          - admonition
          - docsys.build.examples:
              base_path: [snippets]
              check_paths: true
        """), encoding="utf-8")
    return root


def mkdocs_build(root: Path) -> subprocess.CompletedProcess[str]:
    """A strict build of the small site; its whole log (stderr merged) is in .stdout."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=root, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=180)


def site_svgs(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / "site" / "assets" / "figures").rglob("*.svg")}


def test_drawn_once_then_from_the_cache_and_redrawn_when_the_data_changes(tmp_path):
    root = make_site(tmp_path)
    first = mkdocs_build(root)
    assert first.returncode == 0 and "Figures (en): 1 drawn, 0 from cache" in first.stdout, first.stdout
    ((name, svg),) = site_svgs(root).items()
    assert name.startswith("f.spans.en.") and svg.startswith(b"<?xml") and b"<!--" not in svg
    assert b">forward</text>" in svg and b">record_function</text>" in svg  # text kept as text
    again = mkdocs_build(root)
    assert "Figures (en): 0 drawn, 1 from cache" in again.stdout and site_svgs(root) == {name: svg}
    make_site(root, snippet=SNIPPET.replace('"backward"', '"optimizer"'))
    changed = mkdocs_build(root)
    assert "Figures (en): 1 drawn, 0 from cache" in changed.stdout, changed.stdout
    ((new_name, new_svg),) = site_svgs(root).items()
    assert new_name != name and b">optimizer</text>" in new_svg


def test_the_page_shows_a_captioned_lazy_image_linked_at_full_size(tmp_path):
    root = make_site(tmp_path)
    assert mkdocs_build(root).returncode == 0
    page = (root / "site" / "index.html").read_text(encoding="utf-8")
    figure = re.search(r'<figure class="figure">.*?</figure>', page, re.S)[0]
    href = re.search(r'<a class="figure" href="([^"]+)"', figure)[1]
    assert f'src="{href}"' in figure and 'loading="lazy"' in figure and 'alt="Two spans on one lane"' in figure
    assert re.search(r'width="\d+" height="\d+"', figure)
    assert "<figcaption>Backward follows forward.</figcaption>" in figure and "<p><figure" not in page
    assert (root / "site" / href).is_file()


def test_a_gpu_snippet_without_a_recording_says_not_yet_recorded(tmp_path):
    root = make_site(tmp_path, snippet="# marks: cuda\n" + SNIPPET, record=False)
    result = mkdocs_build(root)
    assert result.returncode == 0, result.stdout
    page = (root / "site" / "index.html").read_text(encoding="utf-8")
    assert '<div class="figure-missing"><strong>Not yet recorded on a GPU</strong>' in page
    assert "<figcaption>Backward follows forward.</figcaption>" in page and not site_svgs(root)


def _hand_edited(root: Path) -> None:
    data = root / "snippets" / "demo" / "f.spans.figure.json"
    data.write_text(data.read_text().replace("5", "50"))


def _unknown_lane(root: Path) -> None:
    _rerecord(root, SNIPPET.replace('"lane": "regions"', '"lane": "regoins"'))


def _not_a_timeline(root: Path) -> None:
    _rerecord(root, SNIPPET.replace('"unit": "ms",', ""))


def _unknown_kind(root: Path) -> None:
    _rerecord(root, SNIPPET.replace("=timeline", "=timelime"))


def _rerecord(root: Path, snippet: str) -> None:
    path = root / "snippets" / "demo" / "f.py"
    path.write_text(snippet, encoding="utf-8")
    assert check(load(path, root / "snippets"), update=True).ok


@pytest.mark.parametrize(("page", "plant", "message"), [
    ("::: example demo/f.py\n\nNo figure here.\n", None,
     "Figure 'demo/f.py#spans' is declared ('# figure:' in snippets/demo/f.py) but no en page shows it"),
    (PAGE + '\n![Another](figure:demo/f.py#nope "c")\n', None,
     "index.md: ![...](figure:demo/f.py#nope) asks for a figure no snippet declares; "
     "declare it with '# figure: nope=<kind>' at the top of snippets/demo/f.py"),
    (PAGE + '\n![Another](figure:demo/typo.py#spans "c")\n', None,
     "index.md: ![...](figure:demo/typo.py#spans) asks for a figure no snippet declares; there is no snippet"),
    (PAGE.replace("Two spans on one lane", ""), None, "index.md: figure:demo/f.py#spans has no alt text"),
    (PAGE.replace(' "Backward follows forward."', ""), None, "index.md: figure:demo/f.py#spans has no caption"),
    (PAGE.replace("\n\n![", "\n\nSee ![", 1), None,
     "index.md: ![...](figure:demo/f.py#spans) must stand alone in its paragraph"),
    (PAGE.replace("::: example demo/f.py\n\n", ""), None,
     "index.md: figure:demo/f.py#spans is on a page that does not show its snippet; add ::: example demo/f.py"),
    (PAGE, lambda root: (root / "snippets" / "demo" / "f.spans.figure.json").unlink(),
     "figure demo/f.py#spans: no recorded data snippets/demo/f.spans.figure.json; "
     "run `make record SNIPPETS=demo/f.py`"),
    (PAGE, _hand_edited, "figure demo/f.py#spans: snippets/demo/f.spans.figure.json is not the data its "
     "recording wrote (hash differs from f.record.json)"),
    (PAGE, _unknown_lane, "figure demo/f.py#spans: its timeline data cannot be drawn: no en label 'lanes.regoins' "
     "for timeline figures in docsys/build/drawings/labels.yml"),
    (PAGE, _not_a_timeline, "figure demo/f.py#spans: its timeline data cannot be drawn: data has no 'unit'"),
    (PAGE, _unknown_kind, "figure demo/f.py#spans: its timelime data cannot be drawn: unknown figure kind "
     "'timelime' (known: float_formats, timeline"),
], ids=["unused", "undeclared", "no-such-snippet", "no-alt", "no-caption", "not-alone", "snippet-not-shown",
        "not-recorded", "hand-edited", "unknown-lane", "not-a-timeline", "unknown-kind"])
def test_strict_build_fails_on_figure_faults_in_one_line(tmp_path, page, plant, message):
    root = make_site(tmp_path, page)
    if plant is not None:
        plant(root)
    result = mkdocs_build(root)
    assert result.returncode != 0 and message in result.stdout, result.stdout
    warnings = [line for line in result.stdout.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1 and "Traceback" not in result.stdout, result.stdout


def test_the_recorded_hash_is_the_data_files(tmp_path):
    root = make_site(tmp_path)
    prov = json.loads((root / "snippets" / "demo" / "f.record.json").read_text())
    assert set(prov["figures"]) == {"spans"} and prov["figures"]["spans"]["kind"] == "timeline"
