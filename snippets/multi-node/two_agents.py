# marks: distributed slow
# timeout: 200
# launch: python
# figure: topology=topology
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

WORKER = Path(__file__).with_name("worker.py")
NPROC = 2  # processes per agent
PLACE = re.compile(r"rank (\d+) of \d+: node (\d+), local rank (\d+);")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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


def gpus_of(agent):
    """Two hosts never share a GPU; two agents on one machine must not either (two NCCL ranks on one GPU fail).
    With two GPUs per agent or more, agent K sees only its own NPROC; with fewer, neither sees any: both use gloo."""
    if torch.cuda.device_count() < 2 * NPROC:
        return ""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    gpus = visible.split(",") if visible else [str(gpu) for gpu in range(torch.cuda.device_count())]
    return ",".join(gpus[agent * NPROC:(agent + 1) * NPROC])


def run_two_agents(form, rendezvous_options, logs):
    """Start two torchrun agents at once, as two hosts would; print their workers' lines in rank order."""
    with contextlib.ExitStack() as running:
        agents = []
        for agent, options in enumerate(rendezvous_options):
            command = [sys.executable, "-m", "torch.distributed.run", "--nnodes=2", f"--nproc-per-node={NPROC}",
                       *options, f"--log-dir={logs}/{form}/agent{agent}", "--redirects=3", str(WORKER)]
            env = {**os.environ, "CUDA_VISIBLE_DEVICES": gpus_of(agent)}
            errors = running.enter_context(open(Path(logs, f"{form}-agent{agent}.stderr"), "w"))
            agents.append(running.enter_context(
                torchrun_agent(command, env=env, stdout=subprocess.DEVNULL, stderr=errors)))
        statuses = [agent.wait(timeout=90) for agent in agents]
    print(f"== {form}: agents exited with {statuses}")
    failed = [agent for agent, status in enumerate(statuses) if status]
    if failed:  # the end of the first failed agent's log says why
        raise SystemExit(Path(logs, f"{form}-agent{failed[0]}.stderr").read_text()[-2000:])
    lines = {agent: [line for log in Path(logs, form, f"agent{agent}").glob("*/attempt_0/*/stdout.log")
                     for line in log.read_text().splitlines()] for agent in range(len(agents))}
    every_line = [line for agent_lines in lines.values() for line in agent_lines]
    for line in sorted(every_line, key=lambda line: int(line.split()[1])):
        print(line)
    return {"form": form, "agents": [placed(agent, agent_lines) for agent, agent_lines in lines.items()]}


def placed(agent, lines):
    """Which node rank an agent got and the (rank, local rank) of each worker it started, from their lines."""
    workers = sorted(tuple(int(n) for n in match.groups()) for line in lines if (match := PLACE.match(line)))
    return {"agent": agent, "node": workers[0][1],
            "workers": [{"rank": rank, "local_rank": local_rank} for rank, _, local_rank in workers]}


# --8<-- [start:forms]
with tempfile.TemporaryDirectory() as logs:  # a fresh folder: torchrun adds a new one per launch
    port = free_port()
    static = run_two_agents("static", [["--node-rank=0", "--master-addr=127.0.0.1", f"--master-port={port}"],
                              ["--node-rank=1", "--master-addr=127.0.0.1", f"--master-port={port}"]], logs)
    port = free_port()
    c10d = ["--rdzv-backend=c10d", f"--rdzv-endpoint=127.0.0.1:{port}", "--rdzv-id=two-agents-demo"]
    topology = {"forms": [static, run_two_agents("c10d", [c10d, c10d], logs)]}
# --8<-- [end:forms]
