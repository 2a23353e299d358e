"""What machine this is, for the provenance of every recording.

Standard library plus a lazy torch import only: it runs on the GPU machine, which has no MkDocs.
"""

from __future__ import annotations

import ctypes
import functools
import os
import platform
import re
import shutil
import subprocess
from pathlib import Path

# The CPU features that decide how fast (and in which precision) torch's CPU kernels run:
# vector width (avx2, avx512f), bfloat16/float16 dot products (avx512_bf16, avx512_fp16) and
# the AMX tile units (amx_bf16, amx_int8) that oneDNN uses for matmuls and convolutions.
ISA_FEATURES = ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8")


def _cpuinfo() -> str:
    try:
        return Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return ""


def cpu_name() -> str:
    for line in _cpuinfo().splitlines():
        if line.startswith("model name"):
            return " ".join(line.split(":", 1)[1].split())
    return platform.processor() or platform.machine() or "unknown-cpu"


def isa_features() -> list[str]:
    """The features of ISA_FEATURES this CPU has (from /proc/cpuinfo's flags)."""
    match = re.search(r"^flags\s*:(.*)$", _cpuinfo(), re.M)
    flags = set(match[1].split()) if match else set()
    return [feature for feature in ISA_FEATURES if feature in flags]


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
                [smi, "--query-gpu=driver_version", "--format=csv,noheader"], capture_output=True, text=True, timeout=30
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
    """CPU, GPU, driver, CUDA, torch and Python versions (torch is imported here only)."""
    import torch

    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    return {
        "cpu": cpu_name(),
        "cores": cpu_cores(),
        "isa": isa_features(),
        "gpu": torch.cuda.get_device_name(0) if count else None,
        "gpu_count": count,
        "driver": driver_version() if count else None,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
    }


# Variables that cap the instruction sets of torch's CPU kernels (ATen, oneDNN, MKL) below the CPU's.
ISA_CAPS = ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA", "MKL_ENABLE_INSTRUCTIONS")


def run_facts(probed: dict, environ: dict | None = None) -> dict:
    """The facts of one run that an output may depend on (docsys.core.snippet.DEPENDENCES): what
    the run's torch reported (threads, CPU capability; empty when it never imported torch), the
    CPU's features and the variables that capped them."""
    environ = os.environ if environ is None else environ
    return {"threads": probed.get("threads"), "cpu_capability": probed.get("cpu_capability"),
            "isa": isa_features(), "isa_caps": {name: environ[name] for name in ISA_CAPS if environ.get(name)}}


def fact(facts: dict, name: str) -> str:
    """One fact of run_facts as a dependence compares it, in words: `2`, or
    `AVX2 (avx2 avx512f ...; ATEN_CPU_CAPABILITY=avx2)` (torch's capability, the CPU's features, the caps)."""
    if name == "isa":
        caps = " ".join(f"{k}={v}" for k, v in (facts.get("isa_caps") or {}).items())
        return f"{facts.get('cpu_capability')} ({' '.join(facts.get('isa') or [])}{'; ' + caps if caps else ''})"
    return str(facts.get(name))


def _slug(text: str) -> str:
    text = re.sub(r"\((?:R|TM|tm|r)\)|\bCPU\b|@.*$", " ", text)
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def machine_id(platform_kind: str, info: dict) -> str:
    """`cpu-amd-epyc-2c` or `cuda-nvidia-h200`: which hardware a number belongs to."""
    if platform_kind == "cuda":
        return f"cuda-{_slug(info.get('gpu') or 'unknown-gpu')}"
    return f"cpu-{_slug(info['cpu'])}-{info['cores']}c"
