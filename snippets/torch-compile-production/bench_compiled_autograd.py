# marks: slow
# timeout: 900
# method: processes -- each run a new process with its own empty TORCHINDUCTOR_CACHE_DIR; rounds interleave variants
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
from torch import nn
from torch._dynamo.utils import counters

ROUNDS = 3
LATER_STEPS = 20


def train_step(model, x):
    loss = model(x).square().mean()
    loss.backward()


def steps(compiled_autograd):
    """The first compiled step's time (s), the median of later steps (ms), compiled autograd's captures."""
    torch.set_num_threads(1)
    torch._dynamo.config.compiled_autograd = compiled_autograd
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 1))
    x = torch.randn(32, 64)
    step = torch.compile(train_step)
    times = []
    for _ in range(1 + LATER_STEPS):
        # As optimizer.zero_grad() does by default: every backward() starts from .grad None, so the
        # later steps run the graph the first one captured (a kept .grad would be captured anew at step 2).
        model.zero_grad(set_to_none=True)
        start = time.perf_counter()
        step(model, x)
        times.append(time.perf_counter() - start)
    return times[0], statistics.median(times[1:]) * 1e3, counters["compiled_autograd"]["captures"]


if sys.argv[1:2] == ["--child"]:
    print(json.dumps(steps(sys.argv[2] == "on")))
    sys.exit()

VARIANTS = {"default autograd": "off", "compiled autograd": "on"}


def in_new_process(switch):
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
        done = subprocess.run([sys.executable, __file__, "--child", switch], env=env,
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout)


results = {name: [] for name in VARIANTS}
for _ in range(ROUNDS):
    for name, switch in VARIANTS.items():
        results[name].append(in_new_process(switch))


def median_iqr(values, digits):
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{statistics.median(values):.{digits}f} | {q3 - q1:.{digits}f} | {len(values)}"


print("threads: 1")
print("| variant | first step (s) | IQR (s) | runs | later step (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, runs in results.items():
    first, later, _ = zip(*runs, strict=True)
    print(f"| {name} | {median_iqr(first, 2)} | {median_iqr(later, 3)} |")
for name, runs in results.items():
    captures = sorted({captured for _, _, captured in runs})
    print(f"{name}: compiled autograd captures in each process: {captures}")
