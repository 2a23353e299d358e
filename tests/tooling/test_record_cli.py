"""docsys.record.cli: one entry point for every kind of snippet; on a GPU, quickest first and resumable."""

from __future__ import annotations

import subprocess
import sys

from docsys.core import recording
from docsys.core.paths import ROOT
from docsys.core.snippet import load
from docsys.core.verdict import check
from docsys.record import cli


def test_the_record_command_imports_nothing_a_gpu_machine_lacks():
    code = ("import sys, docsys.record.cli, docsys.__main__; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'mkdocs', 'markdown', 'yaml', 'pymdownx', "
            "'material', 'pytest', 'jieba', 'playwright'}))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]", proc.stdout


def _gpu(tmp_path, name, estimate=None):
    path = tmp_path / name
    path.write_text(("# marks: cuda\n" + (f"# estimate: {estimate}\n" if estimate else "")) + "print(1)\n")
    return load(path, tmp_path)


def test_gpu_snippets_run_quickest_first(tmp_path):
    snippets = [_gpu(tmp_path, "slow.py", 300), _gpu(tmp_path, "quick.py", 5), _gpu(tmp_path, "unknown.py")]
    assert [s.rel for s in cli.gpu_order(snippets)] == ["quick.py", "unknown.py", "slow.py"]


def test_a_second_gpu_call_resumes_and_a_budget_defers(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "skip_reason", lambda marks: None)  # as on a GPU machine
    plain = tmp_path / "plain.py"
    plain.write_text("print(1)\n")
    done = load(plain, tmp_path)
    assert check(done, update=True).ok and recording.state(done) == recording.CURRENT
    assert cli.not_now(done, force=False, left=None).startswith("current")
    assert cli.not_now(done, force=True, left=None) is None
    big = _gpu(tmp_path, "big.py", 120)
    assert cli.not_now(big, force=False, left=60).startswith("later")
    assert cli.not_now(big, force=False, left=600) is None


def test_a_gpu_run_on_a_machine_without_one_says_why(capsys):
    assert cli.main(["record", "--gpu", "devices/pinned_copy.py"]) == 3
    assert "cannot record GPU outputs here" in capsys.readouterr().err


def test_an_unknown_pattern_is_one_line(capsys):
    assert cli.main(["record", "no/such/snippet"]) == 2
    assert capsys.readouterr().err.strip() == "no snippet matches ['no/such/snippet']"
