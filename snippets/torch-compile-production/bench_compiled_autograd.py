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

ROUNDS = 3
LATER_STEPS = 20


def train_step(model, x):
    loss = model(x).square().mean()
    loss.backward()


def steps(compiled_autograd):
    """The first compiled step's time (s), then the median of later steps (ms), in this new process."""
    torch.set_num_threads(1)
    torch._dynamo.config.compiled_autograd = compiled_autograd
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 1))
    x = torch.randn(32, 64)
    step = torch.compile(train_step)
    start = time.perf_counter()
    step(model, x)
    first = time.perf_counter() - start
    later = []
    for _ in range(LATER_STEPS):
        start = time.perf_counter()
        step(model, x)
        later.append((time.perf_counter() - start) * 1e3)
    return first, statistics.median(later)


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
    first, later = zip(*runs, strict=True)
    print(f"| {name} | {median_iqr(first, 2)} | {median_iqr(later, 3)} |")
