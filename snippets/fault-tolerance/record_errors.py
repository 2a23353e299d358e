# marks: distributed
# launch: python
import contextlib
import os
import re
import signal
import subprocess
import sys
import time

from torch.distributed.elastic.multiprocessing.errors import record


def train():
    if os.environ["RANK"] == "1":
        raise ValueError("loss is NaN at step 7")
    time.sleep(60)  # rank 0 is still working when torchrun stops it


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


def root_cause(*worker_args):
    """Launch this file as the workers; return torchrun's exit status and the lines of its Root Cause summary."""
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
               __file__, *worker_args]
    with torchrun_agent(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as agent:
        _, stderr = agent.communicate(timeout=50)
    summary = stderr.split("Root Cause (first observed failure):")[1].split("=" * 20)[0]
    return agent.returncode, [line.rstrip() for line in summary.splitlines()[2:] if line.strip()]


def shown(line):
    """The line without what changes from run to run (pid, temporary folder); the caret lines are dropped above
    since Python versions draw them differently."""
    line = re.sub(r" \(pid: \d+\)", "", line)
    line = re.sub(r'File "[^"]*/([^/"]+)"', r'File ".../\1"', line)
    return re.sub(r"error_file: \S*/(attempt_\d+/\d+/error\.json)", r"error_file: .../\1", line)


def launch():
    for label, worker_args in (("without @record", []), ("with @record", ["--record"])):
        status, summary = root_cause(*worker_args)
        print(f"== {label}: torchrun exit status {status}, root cause:")
        for line in summary:
            if not line.lstrip().startswith(("time", "host")) and set(line.strip()) - set("^~"):
                print(shown(line))


if __name__ == "__main__":
    if "LOCAL_RANK" not in os.environ:
        launch()
    elif "--record" in sys.argv:
        record(train)()
    else:
        train()
