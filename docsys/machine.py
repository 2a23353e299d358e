"""What machine this is, for provenance records of benchmarks and GPU recordings.

Standard library plus a lazy torch import only: it runs on the GPU machine, which has no MkDocs.
"""

from __future__ import annotations

import ctypes
import functools
import os
import platform
import shutil
import subprocess
from pathlib import Path


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return " ".join(line.split(":", 1)[1].split())
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown-cpu"


def cpu_cores() -> int:
    """Cores this process may use (what a benchmark can use), not the host's total."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def driver_version() -> str | None:
    """The NVIDIA driver version, from nvidia-smi, else from NVML directly."""
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            proc = subprocess.run(
                [smi, "--query-gpu=driver_version", "--format=csv,noheader"],
                capture_output=True,
                text=True,
                timeout=30,
            )
            if proc.returncode == 0 and proc.stdout.strip():
                return proc.stdout.strip().splitlines()[0].strip()
        except (OSError, subprocess.TimeoutExpired):
            pass
    try:
        nvml = ctypes.CDLL("libnvidia-ml.so.1")
        if nvml.nvmlInit_v2() == 0:
            buffer = ctypes.create_string_buffer(96)
            ok = nvml.nvmlSystemGetDriverVersion(buffer, 96) == 0
            nvml.nvmlShutdown()
            if ok:
                return buffer.value.decode()
    except (OSError, AttributeError):
        pass
    return None


@functools.cache
def facts() -> dict:
    """GPU, driver, CUDA, torch and Python versions (torch is imported here only)."""
    import torch

    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    return {
        "gpu": torch.cuda.get_device_name(0) if count else None,
        "gpu_count": count,
        "driver": driver_version() if count else None,
        "cuda": torch.version.cuda,
        "torch": torch.__version__,
        "python": platform.python_version(),
    }
