# marks: distributed slow
# timeout: 280
# launch: python
# figure: attempts=attempts
import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import torch

TRAIN = Path(__file__).with_name("train.py")


@contextlib.contextmanager
def torchrun_agent(command, **options):
    with subprocess.Popen(command, start_new_session=True, **options) as agent:
        try:
            yield agent
        finally:
            stop_agent(agent)


def stop_agent(agent):
    """SIGTERM before SIGKILL: torchrun starts each worker in a session of its own, and ends them only when it
    is itself asked to stop; it gives them 30 s before it kills them."""
    if agent.poll() is None:
        os.killpg(agent.pid, signal.SIGTERM)
        try:
            agent.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(agent.pid, signal.SIGKILL)


def torchrun(name, *train_args, restarts=0):
    """Launch train.py with torchrun; per-rank logs go to logs/<name>/<run id>/attempt_<n>/<rank>/."""
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
               f"--max-restarts={restarts}", f"--log-dir=logs/{name}", "--redirects=3",
               str(TRAIN), "--checkpoints", f"checkpoints/{name}", "--save-final", f"{name}.pt", *train_args]
    env = {**os.environ, "TORCH_DISABLE_SHARE_RDZV_TCP_STORE": "1"}
    with torchrun_agent(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as agent:
        agent.communicate(timeout=90)
    print(f"== {name}: torchrun exit status {agent.returncode}")
    logs = Path("logs", name).glob("*/attempt_*/*/std*.log")
    for log in sorted(logs, key=lambda p: (p.parent.parent.name, int(p.parent.name), p.name != "stdout.log")):
        lines = log.read_text().splitlines()
        if log.name == "stderr.log":
            # the error line, even when other lines follow it
            lines = [line for line in lines if "simulated crash" in line][-1:]
        for line in lines:
            print(f"{log.parent.parent.name}/rank {log.parent.name}: {line}")
    return torch.load(f"{name}.pt")


def timeline(events):
    """What each rank did in each attempt, from the lines train.py --events appended (the figure's data)."""
    lanes = {}
    for path in sorted(Path(events).glob("rank*.jsonl")):
        for event in map(json.loads, path.read_text().splitlines()):
            lanes.setdefault((event["attempt"], event["rank"]), []).append([event["event"], event["step"]])
    return {"lanes": [{"attempt": a, "rank": r, "events": e} for (a, r), e in sorted(lanes.items())]}


def same(a, b):
    parameters = all(torch.equal(a["parameters"][k], b["parameters"][k]) for k in a["parameters"])
    return parameters and torch.equal(a["losses"], b["losses"])


uninterrupted = torchrun("uninterrupted")
resumed = torchrun("resumed", "--crash-before-step", "7", "--events", "events/resumed", restarts=1)
attempts = timeline("events/resumed")
broken = torchrun("broken", "--crash-before-step", "7", "--forget-rng-and-position", restarts=1)
stateful = torchrun("stateful-loader", "--crash-before-step", "7", "--stateful-loader-workers", "2", restarts=1)
print("resumed == uninterrupted (parameters and final losses, bit for bit):", same(resumed, uninterrupted))
print("broken resume == uninterrupted:", same(broken, uninterrupted))
print("resumed with a StatefulDataLoader, 2 workers == uninterrupted:", same(stateful, uninterrupted))
assert same(resumed, uninterrupted) and not same(broken, uninterrupted) and same(stateful, uninterrupted)
