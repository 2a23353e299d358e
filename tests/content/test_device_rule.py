"""One device rule for every distributed example (docs/en/ddp.md#choosing-the-device).

Each snippet that chooses between GPUs and the CPU for a process group does it with the same
`pick_device()`, and that function, run here with faked GPUs and a faked torchrun environment,
chooses what the page says: the GPUs of this machine against the processes of this machine."""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass

import pytest
import torch

from docsys.core.snippet import discover

RULE = "pick_device"
CUDA_QUERIES = ("device_count", "is_available")


def _is_cuda_query(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CUDA_QUERIES
            and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "cuda")


def _asks_about_cuda(node: ast.AST) -> bool:
    return any(_is_cuda_query(inner) for inner in ast.walk(node))


def _decisions(tree: ast.AST) -> list[ast.AST]:
    """The conditions in `tree`: comparisons, and/or, and the tests of if, while and `x if c else y`."""
    tests = [node.test for node in ast.walk(tree) if isinstance(node, ast.If | ast.IfExp | ast.While)]
    return tests + [node for node in ast.walk(tree) if isinstance(node, ast.Compare | ast.BoolOp)]


def _rule_definitions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == RULE]


def _init_calls(tree: ast.AST) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and node.func.attr == "init_process_group"]


def picks_a_device(source: str) -> bool:
    """A script that starts a process group and either asks torch about GPUs or hands the group a backend
    it chose (not a literal): one fixed on "gloo" or "nccl" shows that backend on purpose."""
    tree = ast.parse(source)
    inits = _init_calls(tree)
    chosen_backend = any(call.args and not isinstance(call.args[0], ast.Constant) for call in inits)
    return bool(inits) and (chosen_backend or _asks_about_cuda(tree))


def rule_source(source: str) -> str | None:
    tree = ast.parse(source)
    definitions = _rule_definitions(tree)
    return ast.get_source_segment(source, definitions[0]) if len(definitions) == 1 else None


def rule_problems(source: str) -> list[str]:
    """Why a script that picks a device does not do it with exactly one module-level `pick_device()`."""
    tree = ast.parse(source)
    definitions = _rule_definitions(tree)
    if len(definitions) != 1:
        return [f"defines {RULE}() {len(definitions)} times at module level, expected once"]
    problems = []
    if not any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == RULE
               for node in ast.walk(tree)):
        problems.append(f"never calls {RULE}()")
    inside = {id(node) for node in ast.walk(definitions[0])}
    outside = [test for test in _decisions(tree) if id(test) not in inside and _asks_about_cuda(test)]
    nested = {id(inner) for test in outside for inner in list(ast.walk(test))[1:]}
    problems += [f"line {test.lineno}: decides on torch.cuda outside {RULE}(): {ast.unparse(test)}"
                 for test in outside if id(test) not in nested]
    return problems


SNIPPETS = [s for s in discover() if picks_a_device(s.path.read_text(encoding="utf-8"))]


def test_the_distributed_examples_are_found():
    """Not a vacuous pass: the examples of the ddp, fsdp, tensor- and model-parallel, debugging and multi-node
    pages, and the pitfall without a launcher."""
    assert len(SNIPPETS) >= 11, [s.rel for s in SNIPPETS]


@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda s: s.rel)
def test_every_distributed_example_picks_its_device_with_pick_device(snippet):
    problems = rule_problems(snippet.path.read_text(encoding="utf-8"))
    assert not problems, f"{snippet.rel}: " + "; ".join(problems)


def test_every_copy_of_pick_device_is_the_same():
    copies: dict[str | None, list[str]] = {}
    for snippet in SNIPPETS:
        copies.setdefault(rule_source(snippet.path.read_text(encoding="utf-8")), []).append(snippet.rel)
    assert len(copies) == 1, "pick_device() differs between snippets:\n" + "\n\n".join(
        f"{rels}:\n{source}" for source, rels in copies.items())


@dataclass(frozen=True)
class Machine:
    """What one process sees: torchrun's variables and the GPUs visible to it."""

    name: str
    env: dict[str, str]
    visible: int


def choice(function_source: str, machine: Machine, monkeypatch) -> tuple[str, str]:
    """(device, backend) that the function picks on `machine`, or ("exit", message) when it stops the script."""
    for name, value in machine.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: machine.visible)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: machine.visible > 0)
    namespace = {"os": os, "torch": torch}
    exec(compile(function_source, RULE, "exec"), namespace)  # noqa: S102 -- the snippets' own code, read above
    try:
        device, backend = namespace[RULE]()
    except SystemExit as stop:
        return "exit", str(stop.code)
    return str(device), backend


def _torchrun(rank: int, local_rank: int, local_world_size: int, world_size: int) -> dict[str, str]:
    return {"RANK": str(rank), "LOCAL_RANK": str(local_rank), "LOCAL_WORLD_SIZE": str(local_world_size),
            "WORLD_SIZE": str(world_size)}


EXPECTED = [
    (Machine("two machines x 8 GPUs, process 5 of the second", _torchrun(13, 5, 8, 16), visible=8),
     ("cuda:5", "nccl")),
    (Machine("one GPU bound to each of 4 tasks (SLURM --gpus-per-task=1)", _torchrun(7, 3, 4, 8), visible=1),
     ("cuda:0", "nccl")),
    (Machine("no GPU", _torchrun(1, 1, 2, 2), visible=0), ("cpu", "gloo")),
]
TOO_FEW = Machine("2 GPUs for 4 processes on this machine", _torchrun(1, 1, 4, 4), visible=2)


def wrong_choices(function_source: str, monkeypatch) -> list[str]:
    problems = [f"{machine.name}: picked {got}, expected {expected}" for machine, expected in EXPECTED
                if (got := choice(function_source, machine, monkeypatch)) != expected]
    kind, message = choice(function_source, TOO_FEW, monkeypatch)
    if kind != "exit" or "\n" in message or not {"2", "4"} <= set(re.findall(r"\d+", message)):
        problems.append(f"{TOO_FEW.name}: expected one line naming 2 and 4, got {kind} {message!r}")
    return problems


@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda s: s.rel)
def test_pick_device_chooses_by_the_gpus_of_this_machine(snippet, monkeypatch):
    source = rule_source(snippet.path.read_text(encoding="utf-8"))
    assert source is not None, f"{snippet.rel} defines no single {RULE}()"
    problems = wrong_choices(source, monkeypatch)
    assert not problems, f"{snippet.rel}: " + "; ".join(problems)


OLD_GLOBAL_RULE = '''
world_size = int(os.environ["WORLD_SIZE"])
use_cuda = torch.cuda.is_available() and torch.cuda.device_count() >= world_size
dist.init_process_group("nccl" if use_cuda else "gloo")
'''


def test_the_checks_catch_the_global_rule_they_replace(monkeypatch):
    """The rule this file guards against: compare the GPUs with every machine's processes, and fall back to
    the CPU in silence (on 2 machines x 8 GPUs, every rank trains on the CPU)."""
    assert picks_a_device(OLD_GLOBAL_RULE)
    assert any("defines pick_device() 0 times" in p for p in rule_problems(OLD_GLOBAL_RULE))
    inlined = f"def {RULE}():\n    return None\n\n{RULE}()\n{OLD_GLOBAL_RULE}"
    assert any("decides on torch.cuda outside" in p for p in rule_problems(inlined))
    as_a_function = f'''def {RULE}():
    if torch.cuda.device_count() >= int(os.environ["WORLD_SIZE"]):
        return torch.device("cuda", int(os.environ["LOCAL_RANK"])), "nccl"
    return torch.device("cpu"), "gloo"
'''
    problems = wrong_choices(as_a_function, monkeypatch)
    assert any(p.startswith("two machines") for p in problems), problems
    assert any(p.startswith("2 GPUs for 4") for p in problems), problems
