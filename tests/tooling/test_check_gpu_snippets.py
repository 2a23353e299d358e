"""scripts/check_gpu_snippets.py: a torch name a GPU snippet uses and the GPU machine's torch lacks is
reported before the GPU runs it. Here the "GPU machine's torch" is this environment's own."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from docsys.core.paths import ROOT

SCRIPT = ROOT / "scripts" / "check_gpu_snippets.py"
_spec = importlib.util.spec_from_file_location("check_gpu_snippets", SCRIPT)
checker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(checker)

GOOD = """# marks: cuda
# estimate: 5
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

graph = torch.cuda.CUDAGraph()
layer = nn.Linear(2, 2)
print(dist.is_available(), DDP, torch.cuda.memory._record_memory_history)
graph.replay_anything_goes()
"""


def _snippet(root: Path, name: str, text: str) -> Path:
    path = root / "page" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _run(root: Path, python: str = sys.executable) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), python, "--root", str(root)], capture_output=True, text=True,
                          check=False)


def test_names_are_collected_through_every_kind_of_import():
    names = {name for name, _ in checker.torch_names(GOOD)}
    assert {"torch.cuda.CUDAGraph", "torch.nn.Linear", "torch.distributed.is_available",
            "torch.nn.parallel.DistributedDataParallel", "torch.cuda.memory._record_memory_history"} <= names
    assert not any("replay_anything_goes" in name for name in names), "a method of a value is not a torch name"


def test_a_sound_gpu_snippet_passes(tmp_path):
    _snippet(tmp_path, "good.py", GOOD)
    done = _run(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 GPU snippets" in done.stdout and "0 problem(s)" in done.stdout


def test_a_planted_missing_attribute_is_reported_with_its_line(tmp_path):
    _snippet(tmp_path, "good.py", GOOD)
    _snippet(tmp_path, "bad.py", "# marks: cuda\nimport torch\nfrom torch import nn\n\n"
                                 "torch.cuda.no_such_function()\nnn.NoSuchLayer(3)\n")
    _snippet(tmp_path, "cpu.py", "import torch\ntorch.not_checked_on_cpu()\n")
    done = _run(tmp_path)
    assert done.returncode == 1
    assert "page/bad.py:5: torch.cuda.no_such_function does not exist in torch" in done.stdout
    assert "page/bad.py:6: torch.nn.NoSuchLayer does not exist" in done.stdout
    assert "not_checked_on_cpu" not in done.stdout, "only GPU snippets are checked"
    assert "good.py" not in done.stdout


def test_a_gpu_snippet_that_does_not_compile_is_reported(tmp_path):
    _snippet(tmp_path, "broken.py", "# marks: multi_gpu\nimport torch\nif True\n    pass\n")
    done = _run(tmp_path)
    assert done.returncode == 1
    assert "page/broken.py: does not compile: line 3" in done.stdout


def test_an_interpreter_without_torch_is_one_clear_line(tmp_path):
    _snippet(tmp_path, "good.py", GOOD)
    done = _run(tmp_path, python=str(tmp_path / "no-such-python"))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "cannot run" in done.stderr
