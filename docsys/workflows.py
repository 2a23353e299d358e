"""Safety properties of the GitHub Actions workflows in `.github/workflows/`.

The workflows are three, told apart by what they do, not by file name:
- CI (triggered by `pull_request`): runs the README's test command on a GitHub-hosted
  runner, with a read-only token and no secrets;
- GPU (a job on `runs-on: [self-hosted, gpu, ...]`): runs `python -m docsys gpu --check`,
  and is reachable only by a push to main, a schedule or a manual dispatch, so code from a
  pull request never runs on the self-hosted machine;
- Deploy (uses actions/deploy-pages): builds with SITE_URL set and publishes from main only.

Everywhere: no `pull_request_target` or `workflow_run`, no `secrets.`, top-level permissions
read-only, every action pinned to a full commit SHA, every checkout with
`persist-credentials: false`. `problems(load(dir))` lists each violation in one line;
tests/test_workflows.py asserts there are none, and plants each fault to see it caught.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from docsys.paths import ROOT

WORKFLOWS_DIR = ROOT / ".github" / "workflows"
SHA_PINNED_RE = re.compile(r"^[\w.-]+/[\w.-]+(?:/[\w./-]+)?@[0-9a-f]{40}$")
DANGEROUS_TRIGGERS = {"pull_request_target", "workflow_run"}
GPU_TRIGGERS = {"push", "schedule", "workflow_dispatch"}
DEPLOY_TRIGGERS = {"push", "workflow_dispatch"}
MAIN_ONLY_RE = re.compile(r"github\.ref\s*==\s*'refs/heads/main'")
READ_ONLY = {"read", "none"}
# Job-level write scopes a Pages deployment needs, and nothing else may have.
DEPLOY_WRITES = {"pages", "id-token"}


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


def _write_scopes(permissions) -> set[str]:
    """Scopes granted more than read; a string other than read-all/{} counts as all."""
    if permissions is None:
        return set()
    if isinstance(permissions, str):
        return set() if permissions == "read-all" else {"*"}
    return {scope for scope, level in permissions.items() if level not in READ_ONLY}


def _push_is_main_only(trigger) -> bool:
    return isinstance(trigger, dict) and trigger.get("branches") == ["main"] and set(trigger) == {"branches"}


def _run_commands(wf: Workflow) -> list[str]:
    return [step["run"] for _, step in wf.steps() if "run" in step]


def common_problems(wf: Workflow) -> list[str]:
    found = []
    n = wf.name
    for trigger in sorted(DANGEROUS_TRIGGERS & set(wf.triggers)):
        found.append(f"{n}: triggered by `{trigger}`, which runs with this repository's privileges on others' code")
    if "secrets." in wf.text:
        found.append(f"{n}: uses `secrets.`; no workflow here needs a secret")
    if "permissions" not in wf.data:
        found.append(f"{n}: no top-level `permissions:`; set `contents: read` so the token is read-only")
    elif scopes := _write_scopes(wf.data["permissions"]):
        found.append(f"{n}: top-level permissions grant write ({', '.join(sorted(scopes))}); keep them read-only")
    for job_id, job in wf.jobs.items():
        if (scopes := _write_scopes(job.get("permissions"))) and not is_deploy_job(job):
            found.append(f"{n}: job `{job_id}` grants write ({', '.join(sorted(scopes))}); only the Pages deploy may")
        elif scopes - DEPLOY_WRITES:
            found.append(f"{n}: job `{job_id}` grants write beyond {sorted(DEPLOY_WRITES)}: {sorted(scopes)}")
    for job_id, step in wf.steps():
        uses = step.get("uses")
        if not uses or uses.startswith(("./", "docker://")):
            continue
        if not SHA_PINNED_RE.match(uses):
            found.append(f"{n}: job `{job_id}` uses `{uses}`, not pinned to a full commit SHA")
        if uses.split("@")[0] == "actions/checkout":
            persist = (step.get("with") or {}).get("persist-credentials")
            if persist not in (False, "false"):
                found.append(f"{n}: job `{job_id}` checks out without `persist-credentials: false`")
    return found


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
        found += common_problems(wf) + gpu_problems(wf) + deploy_problems(wf)
        if "pull_request" in wf.triggers:
            by_role["CI"].append(wf)
            found += ci_problems(wf, test_command)
        if any(is_self_hosted(job) for job in wf.jobs.values()):
            by_role["GPU"].append(wf)
            if not any("docsys gpu --check" in c for c in _run_commands(wf)):
                found.append(f"{wf.name}: the self-hosted job does not run `python -m docsys gpu --check`")
        if any(is_deploy_job(job) for job in wf.jobs.values()):
            by_role["deploy"].append(wf)
    for role, found_wfs in by_role.items():
        if not found_wfs:
            found.append(f"no {role} workflow in .github/workflows/")
    return found
