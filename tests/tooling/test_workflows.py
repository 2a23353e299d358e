"""docsys.checks.workflows: each of the project's workflow rules, seen failing on a planted fault."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docsys.checks.workflows import WORKFLOWS_DIR, load, problems, readme_test_command

TEST_COMMAND = readme_test_command()



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


def test_secret_use_is_caught(workflows):
    found = _plant(
        workflows,
        _ci(workflows),
        "        run: make test",
        "        run: make test\n        env:\n          T: ${{ secrets.TOKEN }}",
    )
    assert any("uses `secrets`" in p for p in found)


def test_pull_request_reaching_the_gpu_runner_is_caught(workflows):
    found = _plant(workflows, _gpu(workflows), "  workflow_dispatch:\n", "  workflow_dispatch:\n  pull_request:\n")
    assert any("can be triggered by ['pull_request']" in p for p in found)


def test_gpu_push_from_any_branch_is_caught(workflows):
    found = _plant(workflows, _gpu(workflows), "    branches: [main]\n", "    branches: ['**']\n")
    assert any("runs on pushes other than to main" in p for p in found)


def test_gpu_job_without_check_is_caught(workflows):
    command = "python3 -m docsys record --gpu"
    found = _plant(workflows, _gpu(workflows), f"{command} --check", command)
    assert any("does not run `python -m docsys record --gpu --check`" in p for p in found)


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


def test_deploy_without_repo_url_is_caught(workflows):
    found = _plant(workflows, _deploy(workflows), "          REPO_URL:", "          NOT_REPO_URL:")
    assert any("does not set REPO_URL" in p for p in found)


def test_ci_not_running_the_readme_command_is_caught(workflows):
    found = _plant(workflows, _ci(workflows), "        run: make test", "        run: make lint")
    assert any("does not run the README's test command" in p for p in found)


def test_a_site_build_from_a_shallow_checkout_is_caught(workflows):
    for name in (_deploy(workflows), _ci(workflows)):
        path = workflows / name
        text = path.read_text(encoding="utf-8")
        found = _plant(workflows, name, "          fetch-depth: 0", "          fetch-depth: 1")
        assert any("builds the site from a shallow checkout" in p and name in p for p in found), found
        path.write_text(text, encoding="utf-8")


def test_a_container_build_that_git_would_refuse_is_caught(workflows):
    found = _plant(workflows, _deploy(workflows), "git config --global --add safe.directory", "git status")
    assert any("without `git config --global --add safe.directory" in p for p in found), found


def test_missing_gpu_workflow_is_caught(workflows):
    (workflows / _gpu(workflows)).unlink()
    assert "no GPU workflow in .github/workflows/" in problems(load(workflows), TEST_COMMAND)
