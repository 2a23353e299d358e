"""No orphaned workers: every snippet that launches torchrun itself does it through the same
`torchrun_agent()`, which, when the launcher gives up (a timeout, an error, Ctrl-C), ends torchrun
and the workers it started — with a planted hang, two ranks that sleep forever."""

from __future__ import annotations

import ast
import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from docsys.core import processes
from docsys.core.snippet import discover

HELPERS = ("torchrun_agent", "stop_agent")
RUN_ID_VAR = "DOCSYS_PLANTED_HANG"
STARTERS = ("run", "Popen", "call", "check_call", "check_output")


def _launches_torchrun(source: str) -> bool:
    return '"torch.distributed.run"' in source


def _with_decorators(source: str, node: ast.FunctionDef) -> str:
    first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
    return "\n".join(source.splitlines()[first - 1:node.end_lineno])


def helper_sources(source: str) -> dict[str, str]:
    tree = ast.parse(source)
    return {node.name: _with_decorators(source, node) for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name in HELPERS}


def launches_outside_the_helpers(source: str) -> list[str]:
    """The processes started outside torchrun_agent(): a launcher starts torchrun through it only."""
    tree = ast.parse(source)
    inside = {id(inner) for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in HELPERS
              for inner in ast.walk(node)}
    return [f"line {node.lineno}: {ast.unparse(node.func)}(...)" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and id(node) not in inside and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "subprocess"
            and node.func.attr in STARTERS]


LAUNCHERS = [s for s in discover() if _launches_torchrun(s.path.read_text(encoding="utf-8"))]


def test_the_launchers_are_found():
    assert len(LAUNCHERS) >= 6, [s.rel for s in LAUNCHERS]


@pytest.mark.parametrize("snippet", LAUNCHERS, ids=lambda s: s.rel)
def test_a_launcher_starts_torchrun_only_through_torchrun_agent(snippet):
    source = snippet.path.read_text(encoding="utf-8")
    missing = sorted(set(HELPERS) - set(helper_sources(source)))
    assert not missing, f"{snippet.rel}: defines no {missing}"
    outside = launches_outside_the_helpers(source)
    assert not outside, f"{snippet.rel}: starts processes outside torchrun_agent(): {outside}"


def test_every_copy_of_the_helpers_is_the_same():
    copies: dict[tuple, list[str]] = {}
    for snippet in LAUNCHERS:
        found = helper_sources(snippet.path.read_text(encoding="utf-8"))
        copies.setdefault(tuple(found.get(name) for name in HELPERS), []).append(snippet.rel)
    assert len(copies) == 1, "torchrun_agent()/stop_agent() differ between launchers:\n" + "\n\n".join(
        f"{rels}:\n" + "\n".join(filter(None, sources)) for sources, rels in copies.items())


def _helpers(snippet) -> dict:
    namespace = {"contextlib": contextlib, "os": os, "signal": signal, "subprocess": subprocess}
    source = "\n\n".join(helper_sources(snippet.path.read_text(encoding="utf-8")).values())
    exec(compile(source, snippet.rel, "exec"), namespace)  # noqa: S102 -- the snippet's own code, read above
    return namespace


def _ranks(run_id: str) -> list[tuple[int, str]]:
    return [(pid, cmd) for pid, cmd in processes.with_env(RUN_ID_VAR, run_id)
            if cmd.endswith("hang.py") and "torch.distributed.run" not in cmd]


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_a_launcher_that_times_out_leaves_no_worker_behind(tmp_path):
    """Two ranks that sleep forever; the launcher's own timeout expires once both run."""
    hang = tmp_path / "hang.py"
    hang.write_text("import time\n\nwhile True:\n    time.sleep(1)\n")
    run_id = uuid.uuid4().hex
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2", str(hang)]
    torchrun_agent = _helpers(LAUNCHERS[0])["torchrun_agent"]
    try:
        env = {**os.environ, RUN_ID_VAR: run_id}
        with pytest.raises(subprocess.TimeoutExpired), torchrun_agent(
                command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as agent:
            assert _wait_for(lambda: len(_ranks(run_id)) == 2, 60), "the two planted ranks never started"
            agent.communicate(timeout=0.1)
        left = processes.with_env(RUN_ID_VAR, run_id)
        assert not left, f"still alive after the launcher gave up: {left}"
    finally:
        processes.kill(processes.with_env(RUN_ID_VAR, run_id))
