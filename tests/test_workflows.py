"""The GitHub Actions workflows keep their safety properties (docsys.workflows, and zizmor),
and each check fails on a planted fault."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from docsys.workflows import WORKFLOWS_DIR, load, problems, readme_test_command

TEST_COMMAND = readme_test_command()


def test_workflows_are_safe():
    found = problems(load(), TEST_COMMAND)
    assert not found, "\n".join(found)


def test_ci_runs_exactly_what_ci_run_runs():
    assert TEST_COMMAND in (WORKFLOWS_DIR.parents[1] / ".ci" / "run").read_text(encoding="utf-8")


def _zizmor(directory: Path) -> subprocess.CompletedProcess:
    zizmor = Path(sys.executable).with_name("zizmor")
    assert zizmor.exists(), "zizmor is not installed in this environment; run `make setup` (requirements.txt pins it)"
    files = [str(f) for f in sorted(directory.glob("*.y*ml"))]  # files: a bare folder counts only as .github/workflows
    return subprocess.run([str(zizmor), "--offline", "--no-progress", *files], capture_output=True, text=True)


def test_zizmor_finds_nothing():
    proc = _zizmor(WORKFLOWS_DIR)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ----------------------------------------------------------------------------- planted faults


@pytest.fixture
def workflows(tmp_path: Path) -> Path:
    copy = tmp_path / "workflows"
    shutil.copytree(WORKFLOWS_DIR, copy)
    assert problems(load(copy), TEST_COMMAND) == []
    return copy


def _plant(directory: Path, name: str, old: str, new: str) -> list[str]:
    path = directory / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{name} no longer contains {old!r}; update this fault"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return problems(load(directory), TEST_COMMAND)


def _ci(directory: Path) -> str:
    return next(wf.name for wf in load(directory) if "pull_request" in wf.triggers)


def _gpu(directory: Path) -> str:
    return next(wf.name for wf in load(directory) if "self-hosted" in wf.text)


def _deploy(directory: Path) -> str:
    return next(wf.name for wf in load(directory) if "actions/deploy-pages@" in wf.text)


def test_pull_request_target_is_caught(workflows):
    found = _plant(workflows, _ci(workflows), "  pull_request:\n", "  pull_request_target:\n  pull_request:\n")
    assert any("pull_request_target" in p for p in found)


def test_unpinned_action_is_caught(workflows):
    found = _plant(
        workflows, _ci(workflows), "actions/checkout@de0fac2e4500dabe0009e67214ff5f5447ce83dd", "actions/checkout@v6"
    )
    assert any("`actions/checkout@v6`, not pinned" in p for p in found)


def test_write_permission_is_caught(workflows):
    found = _plant(workflows, _ci(workflows), "  contents: read", "  contents: write")
    assert any("top-level permissions grant write (contents)" in p for p in found)


def test_job_write_permission_outside_deploy_is_caught(workflows):
    found = _plant(
        workflows,
        _gpu(workflows),
        "    timeout-minutes:",
        "    permissions:\n      contents: write\n    timeout-minutes:",
    )
    assert any("grants write (contents); only the Pages deploy may" in p for p in found)


def test_secret_use_is_caught(workflows):
    found = _plant(
        workflows,
        _ci(workflows),
        "        run: make test",
        "        run: make test\n        env:\n          T: ${{ secrets.TOKEN }}",
    )
    assert any("uses `secrets.`" in p for p in found)


def test_persisted_credentials_are_caught(workflows):
    found = _plant(workflows, _gpu(workflows), "          persist-credentials: false\n", "          fetch-depth: 1\n")
    assert any("without `persist-credentials: false`" in p for p in found)


def test_pull_request_reaching_the_gpu_runner_is_caught(workflows):
    found = _plant(workflows, _gpu(workflows), "  workflow_dispatch:\n", "  workflow_dispatch:\n  pull_request:\n")
    assert any("can be triggered by ['pull_request']" in p for p in found)


def test_gpu_push_from_any_branch_is_caught(workflows):
    found = _plant(workflows, _gpu(workflows), "    branches: [main]\n", "    branches: ['**']\n")
    assert any("runs on pushes other than to main" in p for p in found)


def test_gpu_job_without_check_is_caught(workflows):
    found = _plant(workflows, _gpu(workflows), "python3 -m docsys gpu --check", "python3 -m docsys gpu")
    assert any("does not run `python -m docsys gpu --check`" in p for p in found)


def test_deploy_from_another_branch_is_caught(workflows):
    deploy = _deploy(workflows)
    text = (workflows / deploy).read_text(encoding="utf-8")
    (workflows / deploy).write_text(text.replace("    if: github.ref == 'refs/heads/main'\n", ""), encoding="utf-8")
    assert any(
        "deploys without `if: github.ref == 'refs/heads/main'`" in p for p in problems(load(workflows), TEST_COMMAND)
    )


def test_deploy_without_site_url_is_caught(workflows):
    found = _plant(workflows, _deploy(workflows), "          SITE_URL:", "          NOT_SITE_URL:")
    assert any("does not set SITE_URL" in p for p in found)


def test_ci_not_running_the_readme_command_is_caught(workflows):
    found = _plant(workflows, _ci(workflows), "        run: make test", "        run: make lint")
    assert any("does not run the README's test command" in p for p in found)


def test_missing_gpu_workflow_is_caught(workflows):
    (workflows / _gpu(workflows)).unlink()
    assert "no GPU workflow in .github/workflows/" in problems(load(workflows), TEST_COMMAND)


def test_zizmor_catches_a_planted_fault(workflows):
    _plant(workflows, _ci(workflows), "          persist-credentials: false\n", "          fetch-depth: 1\n")
    proc = _zizmor(workflows)
    assert proc.returncode != 0 and "artipacked" in proc.stdout + proc.stderr
