"""The processes of a run, and the load that other processes put on the machine meanwhile.

Linux /proc only; standard library only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()  # fields from the state on (the name may hold spaces)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def _pids() -> list[int]:
    me = os.getpid()
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit() and int(entry.name) != me]


def with_env(name: str, value: str) -> list[tuple[int, str]]:
    """(pid, command line) of every live process whose start-up environment has name=value.

    torchrun starts each rank in a new session, so neither a process group nor a session covers
    the ranks; an inherited environment variable does, whatever a process did to detach."""
    needle = f"{name}={value}".encode()
    found = []
    for pid in _pids():
        try:
            if needle in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
                found.append((pid, _cmdline(pid)))
        except OSError:  # gone, a zombie, or not ours
            continue
    return found


def in_session(sid: int) -> list[tuple[int, str]]:
    """(pid, command line) of every live, non-zombie process of session `sid`."""
    found = []
    for pid in _pids():
        fields = _stat_fields(pid)
        if fields and fields[0] != "Z" and int(fields[3]) == sid:
            found.append((pid, _cmdline(pid)))
    return found


def kill(processes: list[tuple[int, str]]) -> list[str]:
    """SIGKILL each process; return them as `pid N: command` lines."""
    for pid, _ in processes:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return [f"pid {pid}: {cmd}" for pid, cmd in processes]


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _busy_and_steal() -> tuple[float, float]:
    """Seconds of CPU time the whole machine has been busy, and stolen by the hypervisor."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq) / _TICKS, steal / _TICKS


@dataclass(frozen=True)
class Load:
    """Average number of cores that other processes kept busy (and the hypervisor stole)."""

    others: float
    steal: float
    seconds: float

    def as_dict(self) -> dict:
        return {
            "others_cores": round(self.others, 3),
            "steal_cores": round(self.steal, 3),
            "seconds": round(self.seconds, 2),
        }


class LoadMeter:
    """Measures other processes' load over an interval: all busy time, minus this process's own
    CPU time, minus `own_cpu` (the run's processes, from their rusage), divided by wall time."""

    def __init__(self) -> None:
        self._busy, self._steal = _busy_and_steal()
        self._self = time.process_time()
        self._wall = time.monotonic()

    def stop(self, own_cpu: float = 0.0) -> Load:
        busy, steal = _busy_and_steal()
        wall = max(time.monotonic() - self._wall, 1e-3)
        mine = time.process_time() - self._self + own_cpu
        return Load(max(0.0, busy - self._busy - mine) / wall, (steal - self._steal) / wall, wall)


def idle_load(seconds: float = 1.0) -> Load:
    """The load other processes put on the machine over the next `seconds` (this one sleeps)."""
    meter = LoadMeter()
    time.sleep(seconds)
    return meter.stop()
