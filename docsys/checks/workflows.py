"""The project's own rules for its GitHub Actions workflows in `.github/workflows/`.

zizmor (configured in .github/zizmor.yml) audits the generic risks — dangerous triggers,
excessive permissions, persisted credentials, unpinned actions. What only this project can
say is checked here. The workflows are three, told apart by what they do, not by file name:
- CI (triggered by `pull_request`): runs the README's test command on a GitHub-hosted runner;
- GPU (a job on `runs-on: [self-hosted, gpu, ...]`): runs `python -m docsys record --gpu --check`,
  and is reachable only by a push to main, a schedule or a manual dispatch, so code from a pull
  request never runs on the self-hosted machine;
- Deploy (uses actions/deploy-pages): builds with SITE_URL and REPO_URL set and publishes from main only.
No workflow uses `secrets.`: none needs one. A job that builds the site (`make build`, `make test`, `mkdocs
build`) checks out the whole history (`fetch-depth: 0`) and, in a container, tells git to trust the checkout:
the changelog pages date each change from it (docsys/build/history.py). `problems(load(dir))` lists each
violation in one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from docsys.core.paths import ROOT

WORKFLOWS_DIR = ROOT / ".github" / "workflows"
GPU_COMMAND = "docsys record --gpu --check"
GPU_TRIGGERS = {"push", "schedule", "workflow_dispatch"}
DEPLOY_TRIGGERS = {"push", "workflow_dispatch"}
MAIN_ONLY_RE = re.compile(r"github\.ref\s*==\s*'refs/heads/main'")


@dataclass(frozen=True)
class Workflow:
    name: str  # file name
    text: str
    data: dict

    @property
    def triggers(self) -> dict:
        # YAML 1.1 reads a bare `on:` key as the boolean True.
        on = self.data.get("on", self.data.get(True)) or {}
        if isinstance(on, str):
            return {on: None}
        if isinstance(on, list):
            return dict.fromkeys(on)
        return dict(on)

    @property
    def jobs(self) -> dict[str, dict]:
        return self.data.get("jobs") or {}

    def steps(self):
        for job_id, job in self.jobs.items():
            for step in job.get("steps") or []:
                yield job_id, step


def load(directory: Path = WORKFLOWS_DIR) -> list[Workflow]:
    paths = sorted([*directory.glob("*.yml"), *directory.glob("*.yaml")])
    return [Workflow(p.name, t, yaml.safe_load(t)) for p in paths if (t := p.read_text(encoding="utf-8"))]


def _labels(job: dict) -> list[str]:
    runs_on = job.get("runs-on", [])
    if isinstance(runs_on, dict):
        runs_on = runs_on.get("labels", [])
    return [runs_on] if isinstance(runs_on, str) else list(runs_on)


def _push_is_main_only(trigger) -> bool:
    return isinstance(trigger, dict) and trigger.get("branches") == ["main"] and set(trigger) == {"branches"}


def _run_commands(wf: Workflow) -> list[str]:
    return [step["run"] for _, step in wf.steps() if "run" in step]


SECRETS_RE = re.compile(r"\$\{\{[^}]*\bsecrets\b")


def common_problems(wf: Workflow) -> list[str]:
    return [f"{wf.name}: uses `secrets`; no workflow here needs a secret"] if SECRETS_RE.search(wf.text) else []


def is_self_hosted(job: dict) -> bool:
    return "self-hosted" in _labels(job)


def is_deploy_job(job: dict) -> bool:
    return any(str(step.get("uses", "")).startswith("actions/deploy-pages@") for step in job.get("steps") or [])


def gpu_problems(wf: Workflow) -> list[str]:
    found = []
    n = wf.name
    for job_id, job in wf.jobs.items():
        if not is_self_hosted(job):
            continue
        if "gpu" not in _labels(job):
            found.append(f"{n}: self-hosted job `{job_id}` has no `gpu` label")
        if extra := sorted(set(wf.triggers) - GPU_TRIGGERS):
            found.append(
                f"{n}: the self-hosted job `{job_id}` can be triggered by {extra}; "
                f"only {sorted(GPU_TRIGGERS)} keep pull-request code off the machine"
            )
        if "push" in wf.triggers and not _push_is_main_only(wf.triggers["push"]):
            found.append(f"{n}: the self-hosted job `{job_id}` runs on pushes other than to main")
    return found


def deploy_problems(wf: Workflow) -> list[str]:
    found = []
    n = wf.name
    deploys = [job_id for job_id, job in wf.jobs.items() if is_deploy_job(job)]
    if not deploys:
        return found
    if extra := sorted(set(wf.triggers) - DEPLOY_TRIGGERS):
        found.append(f"{n}: deploys on {extra}; publish only on a push to main or a manual dispatch")
    if "push" in wf.triggers and not _push_is_main_only(wf.triggers["push"]):
        found.append(f"{n}: deploys on pushes other than to main")
    for job_id in deploys:
        job = wf.jobs[job_id]
        if not MAIN_ONLY_RE.search(str(job.get("if", ""))):
            found.append(f"{n}: job `{job_id}` deploys without `if: github.ref == 'refs/heads/main'`")
        if (job.get("environment") or {}).get("name") != "github-pages":
            found.append(f"{n}: job `{job_id}` deploys outside the `github-pages` environment")
    builds = [
        step for _, step in wf.steps() if "mkdocs build" in step.get("run", "") or step.get("run") == "make build"
    ]
    if not builds:
        found.append(f"{n}: deploys without a `make build` step")
    for step in builds:
        if "SITE_URL" not in (step.get("env") or {}):
            found.append(f"{n}: the build step does not set SITE_URL (mkdocs.yml reads site_url from it)")
        if "REPO_URL" not in (step.get("env") or {}):
            found.append(
                f"{n}: the build step does not set REPO_URL (docsys/build/page_links.py makes every "
                "page's edit, view and report links from it)"
            )
    return found


def ci_problems(wf: Workflow, test_command: str) -> list[str]:
    found = []
    n = wf.name
    for job_id, job in wf.jobs.items():
        if is_self_hosted(job):
            found.append(f"{n}: job `{job_id}` runs pull-request code on a self-hosted runner")
    if test_command not in [c.strip() for c in _run_commands(wf)]:
        found.append(f"{n}: does not run the README's test command `{test_command}`")
    if "push" not in wf.triggers:
        found.append(f"{n}: does not run on pushes")
    return found


SITE_BUILD_RE = re.compile(r"\bmake (?:build|test)\b(?!-)|\bmkdocs build\b")


def history_problems(wf: Workflow) -> list[str]:
    """A job that builds the site has the history its changelog is read from."""
    found = []
    for job_id, job in wf.jobs.items():
        steps = job.get("steps") or []
        if not any(SITE_BUILD_RE.search(str(step.get("run", ""))) for step in steps):
            continue
        checkouts = [step for step in steps if str(step.get("uses", "")).startswith("actions/checkout@")]
        if not checkouts or any((step.get("with") or {}).get("fetch-depth") != 0 for step in checkouts):
            found.append(f"{wf.name}: job `{job_id}` builds the site from a shallow checkout; set `fetch-depth: 0` "
                         "on actions/checkout (the changelog dates each change from the history)")
        if job.get("container") and not any("safe.directory" in str(step.get("run", "")) for step in steps):
            found.append(f"{wf.name}: job `{job_id}` runs in a container without `git config --global --add "
                         'safe.directory "$GITHUB_WORKSPACE"`: git refuses a checkout owned by another user')
    return found


def readme_test_command(readme: Path = ROOT / "README.md") -> str:
    """The README's test command: the `make test`-style line of its first bash block."""
    block = re.search(r"```bash\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)
    for line in block[1].splitlines() if block else []:
        command = line.split("#", 1)[0].strip()
        if command.split()[-1:] == ["test"]:
            return command
    raise ValueError(f"{readme}: no test command (a line ending in `test`) in its first bash block")


def problems(workflows: list[Workflow], test_command: str) -> list[str]:
    found = []
    by_role = {"CI": [], "GPU": [], "deploy": []}
    for wf in workflows:
        found += common_problems(wf) + gpu_problems(wf) + deploy_problems(wf) + history_problems(wf)
        if "pull_request" in wf.triggers:
            by_role["CI"].append(wf)
            found += ci_problems(wf, test_command)
        if any(is_self_hosted(job) for job in wf.jobs.values()):
            by_role["GPU"].append(wf)
            if not any(GPU_COMMAND in c for c in _run_commands(wf)):
                found.append(f"{wf.name}: the self-hosted job does not run `python -m {GPU_COMMAND}`")
        if any(is_deploy_job(job) for job in wf.jobs.values()):
            by_role["deploy"].append(wf)
    for role, found_wfs in by_role.items():
        if not found_wfs:
            found.append(f"no {role} workflow in .github/workflows/")
    return found
