"""Check the GPU snippets against the torch of the GPU machine, before a GPU minute is spent on them.

    .venv/bin/python scripts/check_gpu_snippets.py TORCH_PYTHON [--root DIR]

TORCH_PYTHON is an interpreter with the GPU machine's torch installed (a CUDA wheel imports and
answers on a CPU-only machine too; CONTRIBUTING.md, "Record GPU outputs", says how to make one).
Every snippet marked `cuda` or `multi_gpu` is compiled by that interpreter, and every dotted name
it uses that starts at torch — `torch.cuda.graph`, `nn.Linear` after `from torch import nn`,
`DDP` after `from torch.nn.parallel import DistributedDataParallel as DDP` — is looked up in
that torch (attributes, then submodules). Names reached through a value (`graph.replay()`,
`model.compile()`) are not checked. One line per problem, then a summary; exit status 1 when
there is a problem, 2 when TORCH_PYTHON cannot run torch.

The part that runs under TORCH_PYTHON (`--inside`) uses only the standard library and torch, so
it needs nothing of this repository but this file.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

INSIDE = "--inside"


def torch_aliases(tree: ast.AST) -> tuple[dict[str, str], list[tuple[str, int]]]:
    """Local names bound to torch objects by imports, and the names those imports themselves use."""
    aliases: dict[str, str] = {}
    imported: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "torch":
                    imported.append((alias.name, node.lineno))
                    local = alias.asname or alias.name.split(".")[0]
                    aliases[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "torch":
            for alias in node.names:
                dotted = f"{node.module}.{alias.name}"
                imported.append((dotted, node.lineno))
                aliases[alias.asname or alias.name] = dotted
    return aliases, imported


def _chain(node: ast.Attribute) -> tuple[str, list[str]] | None:
    parts = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        parts.append(current.attr)
        current = current.value
    return (current.id, parts[::-1]) if isinstance(current, ast.Name) else None


def torch_names(source: str) -> list[tuple[str, int]]:
    """Every dotted torch name a script uses, with its line: imports and the longest attribute chains."""
    tree = ast.parse(source)
    aliases, names = torch_aliases(tree)
    inner = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in inner and (chain := _chain(node)):
            base, parts = chain
            if base in aliases:
                names.append((".".join([aliases[base], *parts]), node.lineno))
    return sorted(set(names), key=lambda item: (item[1], item[0]))


def missing_part(dotted: str) -> str | None:
    """None when `dotted` exists in this interpreter's torch, else the first prefix that does not."""
    parts = dotted.split(".")
    obj = importlib.import_module(parts[0])
    for index, part in enumerate(parts[1:], start=2):
        prefix = ".".join(parts[:index])
        if hasattr(obj, part):
            obj = getattr(obj, part)
            continue
        try:
            obj = importlib.import_module(prefix)
        except Exception:  # ImportError, or a submodule that fails to import: either way it is not usable
            return prefix
    return None


def inside(paths: list[str]) -> dict:
    """What TORCH_PYTHON finds for each snippet: a syntax error, or the names its torch lacks."""
    import torch

    report: dict = {"torch": torch.__version__, "python": sys.version.split()[0], "snippets": {}}
    for path in paths:
        source = Path(path).read_text(encoding="utf-8")
        entry: dict = {"syntax": None, "checked": 0, "missing": []}
        try:
            compile(source, path, "exec")
        except SyntaxError as error:
            entry["syntax"] = f"line {error.lineno}: {error.msg}"
        else:
            names = torch_names(source)
            entry["checked"] = len(names)
            entry["missing"] = [[name, line, gap] for name, line in names if (gap := missing_part(name))]
        report["snippets"][path] = entry
    return report


def gpu_snippet_paths(root: Path) -> list[Path]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from docsys.core.snippet import discover

    return [snippet.path for snippet in discover(root) if snippet.platform == "cuda"]


def problems(report: dict, root: Path) -> list[str]:
    lines = []
    for path, entry in report["snippets"].items():
        rel = Path(path).relative_to(root).as_posix()
        if entry["syntax"]:
            lines.append(f"{rel}: does not compile: {entry['syntax']}")
        for name, line, gap in entry["missing"]:
            lines.append(f"{rel}:{line}: {name} does not exist in torch {report['torch']} (no {gap})")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("torch_python", help="an interpreter with the GPU machine's torch")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1] / "snippets")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    paths = gpu_snippet_paths(root)
    try:
        done = subprocess.run([args.torch_python, str(Path(__file__).resolve()), INSIDE, *map(str, paths)],
                              capture_output=True, text=True, check=False)
    except OSError as error:
        print(f"cannot run {args.torch_python}: {error.strerror}", file=sys.stderr)
        return 2
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        print(f"{args.torch_python} could not check the snippets: {last}", file=sys.stderr)
        return 2
    report = json.loads(done.stdout)
    found = problems(report, root)
    for line in found:
        print(line)
    names = sum(entry["checked"] for entry in report["snippets"].values())
    print(f"torch {report['torch']} (Python {report['python']}): {len(paths)} GPU snippets, {names} torch names, "
          f"{len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    if sys.argv[1:2] == [INSIDE]:
        print(json.dumps(inside(sys.argv[2:])))
    else:
        sys.exit(main())
