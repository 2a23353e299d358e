"""The pytest markers of this project, declared once.

A snippet declares its markers in its header (`# marks: cuda slow`); page code blocks
inherit the markers of the snippets they include. Each marker names the condition it
needs and the one-line reason printed when that condition is missing.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Marker:
    name: str
    description: str
    missing: Callable[[], str | None]  # returns the skip reason, or None when runnable


@functools.cache
def _cuda_device_count() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def _needs_cuda() -> str | None:
    if _cuda_device_count() == 0:
        return "cuda: needs a CUDA GPU (torch.cuda.is_available() is False); record it on a GPU machine"
    return None


def _needs_two_gpus() -> str | None:
    if _cuda_device_count() < 2:
        return f"multi_gpu: needs 2+ CUDA GPUs, found {_cuda_device_count()}; run on a multi-GPU runner"
    return None


def _needs_distributed() -> str | None:
    import torch.distributed as dist

    if not dist.is_available():
        return "distributed: this torch build has no torch.distributed; install a build with it"
    if shutil.which("torchrun", path=os.path.dirname(sys.executable)) is None:
        return "distributed: `torchrun` not found next to the Python interpreter; run `make setup`"
    return None


def _needs_no_gpu() -> str | None:
    if _cuda_device_count() > 0:
        return (
            "cpu_only: its recorded output shows the fallback on a machine without CUDA GPUs; "
            "its GPU twin is marked cuda/multi_gpu"
        )
    return None


def _needs_torchao() -> str | None:
    import importlib.util

    if importlib.util.find_spec("torchao") is None:
        return (
            "torchao: needs torchao (pinned in requirements.txt; `make setup` installs it), "
            "which this environment lacks (the lent GPU machine has none)"
        )
    return None


def _needs_linux_glibc() -> str | None:
    import platform

    if sys.platform != "linux" or platform.libc_ver()[0] != "glibc":
        return "linux_glibc: needs Linux with glibc (it calls glibc's mallopt and Linux's prctl); run it on Linux"
    return None


def _slow_allowed() -> str | None:
    if os.environ.get("SKIP_SLOW") == "1":
        return "slow: skipped because SKIP_SLOW=1; unset it to run slow tests"
    return None


MARKERS: dict[str, Marker] = {
    m.name: m
    for m in (
        Marker("cuda", "needs a CUDA GPU; recorded on the GPU runner", _needs_cuda),
        Marker("multi_gpu", "needs two or more CUDA GPUs", _needs_two_gpus),
        Marker("distributed", "launched with torchrun as several processes", _needs_distributed),
        Marker("slow", "takes more than a few seconds; SKIP_SLOW=1 skips it", _slow_allowed),
        Marker("torchao", "imports torchao, a package beside torch", _needs_torchao),
        Marker("linux_glibc", "calls glibc's malloc tuning or Linux system calls", _needs_linux_glibc),
        Marker("cpu_only", "prints what a machine without CUDA GPUs does (a fallback)", _needs_no_gpu),
    )
}


def skip_reason(names: tuple[str, ...] | list[str]) -> str | None:
    """The first reason why a test with these markers cannot run here, or None."""
    for name in names:
        reason = MARKERS[name].missing()
        if reason:
            return reason
    return None
